"""Episodes: one per session (upserted as consolidation runs), extractive or LLM summaries, facts attached, recall,
and forgetting that reaches episodes, workstreams, loops, their vectors and FTS rows (a canary in every layer)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.memory import journal_dir_for
from episodic_memory.retrieve.thread_hits import load_episode_hits, load_workstream_hits
from episodic_memory.store import is_postgres_url
from episodic_memory.store.records import NewFact

from .fakes import HashingEmbedder, ScriptedBackend, play_session
from .postgres.fixtures import all_rows_text, sql_rows

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL


def session(*args: object, **kwargs: object) -> None:
    """The shared session player, with turn ids "<sid>-<i>" (the tests read sources by them)."""
    play_session(*args, turn_ids=True, **kwargs)  # type: ignore[arg-type]

CANARY = "zqxcanaryvortex"

AIRFLOW = [
    "Our nightly events export failed again, third time in two weeks, the cron box is fragile.",
    "> One VM with cron means no retries and no alerting for the export.",
    "OK: we decided to migrate the analytics pipeline from cron to Airflow before due diligence.",
    "> Logged: migrate the analytics pipeline to Airflow, Dev owns it.",
    "Dev wants the Airflow DAGs running in parallel with cron until the cutover.",
    "> Parallel runs until the cutover make sense for the pipeline.",
    "ok thanks!",
    "> Anytime.",
    "The cutover to Airflow is Monday 30 November, cron goes off that morning.",
    "> Noted: Airflow cutover Monday 30 November.",
]




def generation(mem: Memory) -> int:
    return mem.store.vector_watermark("default", "x")[1]


@pytest.mark.sqlite_only("reuses turn ids s1-0.. for new turns of the session: PostgreSQL keeps a turn_id once per session (a unique constraint, issue 20)")
def test_one_episode_per_session_updated_as_consolidation_runs() -> None:
    with Memory(":memory:", config=Config(capture={"consolidate_every": 4, "consolidate_in_background": "off"}),
                embedder=HashingEmbedder()) as mem:
        session(mem, "s1", AIRFLOW[:4], end=False)
        [first] = mem.episodes()
        assert first.turns == 4
        deletions = generation(mem)
        session(mem, "s1", AIRFLOW[4:8], day=0, end=False)
        [again] = mem.episodes()
        assert again.id == first.id and again.turns == 8
        # its recall vector is not replaced while the session is open (each replacement reloads every reader)
        assert generation(mem) == deletions
        session(mem, "s1", AIRFLOW[8:], day=0)
        [final] = mem.episodes()
        assert final.id == first.id and final.turns == 10 and final.summarizer == "extractive"
        sentences = [s for s in final.summary.replace("Maya: ", "").replace("Assistant: ", "").split(". ") if s]
        assert 1 <= len(sentences) <= 3
        assert "Airflow" in final.summary and "ok thanks" not in final.summary
        assert set(final.source_turns) <= {f"s1-{i}" for i in range(10)} and final.source_turns
        assert mem.store.session("default", "s1").consolidated_turns == 10
        assert sql_rows(mem.store, "SELECT count(*) FROM vectors WHERE kind = 'episode'") == [(1,)]


def test_a_photos_note_names_no_thread() -> None:
    """Keyphrases (which name workstreams) come from what people said, not a bracketed note on their message."""
    note = " [shares an image: a photo of a star filled sky over a lighthouse]"
    with Memory(":memory:", config=Config(capture={"consolidate_in_background": "off"}), embedder=HashingEmbedder()) as mem:
        session(mem, "s1", [t + note if i % 2 == 0 else t for i, t in enumerate(AIRFLOW)])
        [episode] = mem.episodes()
        words = " ".join(episode.keyphrases).lower()
        assert "airflow" in words and not any(w in words for w in ("star", "sky", "lighthouse", "photo", "image"))


def test_the_sessions_facts_are_attached() -> None:
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem:
        session(mem, "s1", AIRFLOW[:4])
        session(mem, "s2", ["Unrelated: the office plants need water."], day=1)
        turn = mem.session_turns("s1")[2]
        mem.store.insert_fact(NewFact(
            user_id="default", session_id="s1", type="decision", text="Maya decided to migrate the pipeline to Airflow",
            route="durable", salience=0.8, confidence=0.9, event_ts=None, created_at=turn.ts, source_ids=[turn.id],
            origin="test-1", extractor="rules"))
        by_session = {e.session_id: e for e in mem.episodes()}
        assert "Maya decided to migrate the pipeline to Airflow" in [f["text"] for f in by_session["s1"].facts]
        assert {f["text"] for f in by_session["s2"].facts}.isdisjoint({"Maya decided to migrate the pipeline to "
                                                                        "Airflow"})
        assert json.dumps([e.to_dict() for e in mem.episodes()])
        assert mem.episodes(limit=1)[0].session_id == "s2"


def test_an_llm_summary_from_recorded_replies(backend: ScriptedBackend) -> None:
    backend.replies = {"episode summary": [json.dumps({"summary": "Maya decided to move the analytics pipeline "
                                                                  "from cron to Airflow. Dev owns the migration."})]}
    sync = Config(capture={"consolidate_in_background": "off"})  # the mid-session run is part of what is checked
    with Memory(":memory:", embedder=HashingEmbedder(), config=sync) as mem:
        session(mem, "s1", AIRFLOW)
        [episode] = mem.episodes()
        assert episode.summarizer == "llm"
        assert episode.summary == "Maya decided to move the analytics pipeline from cron to Airflow. Dev owns the " \
                                  "migration."
        # consolidated after 8 turns and at the end: one call each, the last one over the whole session
        first, last = backend.calls_for("episode summary")
        assert "Maya: OK: we decided to migrate" in first[1] and "cutover to Airflow is Monday" not in first[1]
        assert "cutover to Airflow is Monday" in last[1]


def test_a_long_llm_summary_is_cut_to_three_sentences_and_a_useless_one_is_not_used(backend: ScriptedBackend
                                                                                     ) -> None:
    backend.replies = {"episode summary": [json.dumps({"summary": "One. Two two. Three three. Four four."}),
                                           "I cannot summarise this."]}
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        session(mem, "s1", AIRFLOW[:3])
        assert mem.episodes()[0].summary == "One. Two two. Three three."
        session(mem, "s2", AIRFLOW[3:6], day=1)
        s2 = next(e for e in mem.episodes() if e.session_id == "s2")
        assert s2.summarizer == "extractive" and "Airflow" in s2.summary


def test_episodes_and_workstreams_join_recall() -> None:
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        session(mem, "s1", AIRFLOW)
        session(mem, "s2", ["Airflow cutover update: the analytics pipeline DAGs all run in Airflow now.",
                            "> So cron can go off Monday as planned for the pipeline."], day=5)
        [episode] = [e for e in mem.episodes() if e.session_id == "s1"]
        fts = sql_rows(mem.store, "SELECT text, kind FROM memory_fts WHERE rowid = ?", (episode.id * 8 + 2,))
        assert fts == [(episode.summary, "episode")]
        hits = mem.recall("Airflow cutover pipeline", kind="episode", k=5)
        assert {h.session_id for h in hits} == {"s1", "s2"}
        assert all(h.kind == "episode" and h.source_ids for h in hits)
        loaded = load_episode_hits(mem.store, "default", [episode.id], None)[episode.id]
        assert loaded.id == f"episode:{episode.id}" and loaded.text == episode.summary
        assert load_episode_hits(mem.store, "bob", [episode.id], None) == {}            # another user's: none
        [ws] = mem.workstreams()
        [hit] = load_workstream_hits(mem.store, "default", [ws.id], None).values()
        assert hit.kind == "workstream" and ws.name in hit.text
        assert mem.recall(ws.name, kind="workstream", k=3)[0].id == f"workstream:{ws.id}"


def test_hypotheses_are_not_recalled() -> None:
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        session(mem, "s1", AIRFLOW)
        [ws] = mem.workstreams(include_hypotheses=True)
        assert load_workstream_hits(mem.store, "default", [ws.id], None) == {}
        assert mem.recall(ws.name, kind="workstream") == []


# --- forgetting ----------------------------------------------------------------------------------------

def _bytes_everywhere(db_path: Path) -> bytes:
    if is_postgres_url(str(db_path)):
        return all_rows_text(str(db_path))
    blobs = [p.read_bytes() for p in db_path.parent.glob(db_path.name + "*") if p.is_file()]
    blobs += [p.read_bytes() for p in journal_dir_for(db_path).rglob("*") if p.is_file()]
    return b"".join(blobs)


CANARY_DECK = [f"The {CANARY} deck needs twelve slides for Northgate.",
               f"Remind me to send the {CANARY} deck to Sarah by Friday.",
               f"> Noted: the {CANARY} deck, twelve slides, to Sarah by Friday."]


def _fill(mem: Memory) -> None:
    session(mem, "secret", CANARY_DECK, day=0, user_id="alice")
    session(mem, "later", ["Back on the Northgate deck: fourteen slides now, not twelve.",
                           f"I sent the {CANARY} deck to Sarah this morning."], day=3, user_id="alice")
    session(mem, "fruit", ["Remind me to buy apples for the pie by Sunday."], day=0, user_id="bob")


def _layers(mem: Memory, user: str) -> dict[str, int]:
    def count(sql: str) -> int:
        return int(sql_rows(mem.store, sql, (user,))[0][0])
    return {
        "episodes": count("SELECT count(*) FROM episodes WHERE user_id = ?"),
        "workstreams": count("SELECT count(*) FROM workstreams WHERE user_id = ?"),
        "loops": count("SELECT count(*) FROM loops WHERE user_id = ?"),
        "vectors": count("SELECT count(*) FROM vectors WHERE user_id = ? AND kind = 'episode'"),
        "fts": count("SELECT count(*) FROM memory_fts WHERE user_id = ? AND kind IN ('episode', 'workstream')"),
    }


def test_forgetting_a_session_reaches_its_episode_loops_and_workstream(db_path: Path) -> None:
    with Memory(db_path, embedder=HashingEmbedder()) as mem:
        _fill(mem)
        [ws] = mem.workstreams(user_id="alice")
        assert CANARY in " ".join(ws.keyphrases).lower() or CANARY in ws.name   # the canary is in every layer
        [closed] = mem.loops(user_id="alice", status="closed")
        assert CANARY in closed.text and CANARY in (closed.evidence or "")
        assert _layers(mem, "alice") == {"episodes": 2, "workstreams": 1, "loops": 1, "vectors": 2, "fts": 3}
        # forgetting the session that closed the loop reopens it: its evidence quoted that session
        mem.forget(session_id="later", user_id="alice")
        [reopened] = mem.loops(user_id="alice")
        assert reopened.id == closed.id and reopened.evidence is None and reopened.closed_session is None
        [ws] = mem.workstreams(user_id="alice", include_hypotheses=True)
        assert ws.status == "hypothesis" and ws.sessions == 1                    # recomputed from what is left
        mem.forget(session_id="secret", user_id="alice")
        assert _layers(mem, "alice") == {"episodes": 0, "workstreams": 0, "loops": 0, "vectors": 0, "fts": 0}
        assert mem.recall(CANARY, user_id="alice") == []
        assert len(mem.loops(user_id="bob")) == 1 and len(mem.episodes(user_id="bob")) == 1   # bob untouched
        assert CANARY.encode() not in _bytes_everywhere(db_path)


def test_forgetting_one_session_of_a_workstream_recomputes_its_centroid_and_name(db_path: Path) -> None:
    with Memory(db_path, embedder=HashingEmbedder()) as mem:
        session(mem, "a", ["The Northgate deck needs twelve slides, traction first."], day=0)
        session(mem, "b", ["Northgate deck: twelve slides, traction and unit economics."], day=1)
        session(mem, "c", [f"Northgate deck slides {CANARY} {CANARY} {CANARY} traction twelve."], day=2)
        [ws] = mem.workstreams()
        assert ws.sessions == 3
        mem.forget(session_id="c")
        [ws] = mem.workstreams()
        assert ws.sessions == 2 and CANARY not in ws.name and CANARY not in " ".join(ws.keyphrases)
        vecs = [mem.store.episode_vector(e.id)[0] for e in mem.episodes()]
        _, matrix = mem.store.centroids("default", "hashing-64+distinct")
        mean = sum(vecs)
        assert abs(float(matrix[0] @ (mean / (mean @ mean) ** 0.5)) - 1.0) < 1e-5
    assert CANARY.encode() not in _bytes_everywhere(db_path)


def test_forgetting_a_user_and_everything(db_path: Path) -> None:
    with Memory(db_path, embedder=HashingEmbedder()) as mem:
        _fill(mem)
        mem.forget(user_id="alice")
        assert _layers(mem, "alice") == {"episodes": 0, "workstreams": 0, "loops": 0, "vectors": 0, "fts": 0}
        assert _layers(mem, "bob")["loops"] == 1
        assert CANARY.encode() not in _bytes_everywhere(db_path)
        _fill(mem)
    result = CliRunner().invoke(main, ["forget", "--all", "--yes", "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    with Memory(db_path, embedder=HashingEmbedder()) as mem:
        for user in ("alice", "bob"):
            assert _layers(mem, user) == {"episodes": 0, "workstreams": 0, "loops": 0, "vectors": 0, "fts": 0}
    blob = _bytes_everywhere(db_path)
    assert CANARY.encode() not in blob and b"apples" not in blob
