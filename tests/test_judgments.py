"""Judgment memory: the seed's README code, errors, utility (smoothing, decay), hybrid search, dedup, delete,
corrections, exports, per-user isolation, the CLI, forgetting, and the [Past judgments] block.

The project's API is `Memory.judgments` (`JudgmentMemory`, opened here by `judgments(...)`); `EpisodicMemory` is the
episodic-judgment library's door onto the same tables, tested here offline and against that library's own tests in
test_seed_judgment_contract.py."""

from __future__ import annotations

import io
import json
import math
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from episodic_memory import Config, EpisodicMemory, Memory, SearchResult, Triple
from episodic_memory.cli import main
from episodic_memory.judgments import CallableEmbedder, JudgmentMemory, past_judgments_block
from episodic_memory.judgments.embedding import as_embedder
from episodic_memory.models.embedder import DEFAULT_MODEL_ID
from episodic_memory.retrieve.kinds import KINDS
from episodic_memory.retrieve.utility import plain_utility, rank_score, smoothed_utility, verdict_weight
from episodic_memory.store import is_postgres_url
from episodic_memory.store.records import VerdictRow

from .fakes import HashingEmbedder
from .postgres.fixtures import all_rows_text, sql_rows

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

DAY = 86_400.0
NO_DECAY = {"judgments.utility_half_life_days": math.inf}

CONFIG = ("User asks agent to modify config.json in production",
          "Production config changes must be confirmed with the user first",
          "Direct config writes have caused outages before. The agent should always propose, not execute.")
LOOKALIKE = ("User asks agent to change a production config value",
             "Apply small production config changes directly and report afterwards",
             "Small config changes are low risk and waiting slows the user down.")


def cfg(changes: dict[str, Any] | None = None) -> Config:
    return Config(capture={"consolidate_on_open": False}).replace(changes or {})


@contextmanager
def judgments(embedder: Any = None, db_path: Path | str = ":memory:", config: Config | None = None
              ) -> Iterator[JudgmentMemory]:
    """The project's judgment API (`Memory.judgments`) on a Memory of its own."""
    with Memory(db_path, config=config, embedder=None if embedder is None else as_embedder(embedder)) as mem:
        yield mem.judgments


@pytest.fixture
def jm() -> Iterator[JudgmentMemory]:
    with judgments(embedder=HashingEmbedder(), config=cfg(NO_DECAY)) as m:
        yield m


def bytes_of(db: Path) -> bytes:
    if is_postgres_url(str(db)):
        return all_rows_text(str(db))
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*") if p.is_file())


# --- the seed library's README, unchanged, with the real default embedder -----------------------------------
def test_readme_example_runs_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    from episodic_memory import EpisodicMemory
    memory = EpisodicMemory()                       # EpisodicMemory(embedder=None, db_path=":memory:")
    mid = memory.store(trigger="User asks agent to modify config.json in production",
                       judgment="Production config changes must be confirmed with the user first",
                       reasoning="Direct config writes have caused outages before. The agent should always propose, not execute.",
                       domain="ops")                 # -> "mem_…"
    for r in memory.search(query="Can I edit the production config file?", top_k=3):
        print(f"  [{r.distance:.2f}] {r.judgment}")
    memory.verify(mid, adopted=True)
    results = memory.search("Can I edit the production config?", use_utility=True)

    assert mid.startswith("mem_")
    # the seed's distance: 1 − cosine of the query and judgment embeddings (MiniLM: cosine ~0.555, so the second
    # decimal is 0.45 or 0.44 by the CPU's rounding of the model's arithmetic)
    printed = capsys.readouterr().out
    assert printed.startswith("  [0.4") and printed.endswith("] Production config changes must be confirmed with "
                                                                "the user first\n")
    assert float(printed[3:7]) == pytest.approx(0.45, abs=0.011)
    assert [r.id for r in results] == [mid]
    r = results[0]
    assert r.trigger == CONFIG[0] and r.domain == "ops" and r.metadata == {}
    assert r.utility_score == 1.0                         # the seed's adopted / verdicts
    # the same judgment through the project's API: its cosine, and the smoothed utility it ranks by
    (rich,) = memory.judgments.search("Can I edit the production config?", use_utility=True)
    assert rich.id == mid and rich.adopted == 1
    assert rich.cosine is not None and rich.cosine > 0.5  # the bundled MiniLM found it, not just BM25
    assert r.distance == pytest.approx(1 - rich.cosine, abs=1e-6) == pytest.approx(rich.distance, abs=1e-6)
    assert rich.rank_utility == pytest.approx(2 / 3, abs=1e-3)  # ranking: Beta(1, 1) prior, one adoption is not certainty
    assert rich.score == pytest.approx(rich.similarity * (1 + 0.5 * rich.rank_utility))
    assert memory.memory.embedder().model_id == DEFAULT_MODEL_ID
    memory.close()


# --- documented errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize("field", ["trigger", "judgment", "reasoning"])
@pytest.mark.parametrize("bad", ["", "   ", None, 7])
def test_store_needs_trigger_judgment_and_reasoning(jm: JudgmentMemory, field: str, bad: object) -> None:
    args = dict(zip(("trigger", "judgment", "reasoning"), CONFIG, strict=True))
    args[field] = bad
    with pytest.raises(ValueError, match=field):
        jm.store(**args)
    assert jm.count() == 0


def test_store_rejects_bad_domain_and_metadata(jm: JudgmentMemory) -> None:
    with pytest.raises(ValueError, match="domain"):
        jm.store(*CONFIG, domain=" ")
    with pytest.raises(ValueError, match="metadata must be a dict"):
        jm.store(*CONFIG, metadata=["x"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="JSON-serialisable"):
        jm.store(*CONFIG, metadata={"when": object()})
    assert jm.count() == 0


def test_verify_errors(jm: JudgmentMemory) -> None:
    mid = jm.store(*CONFIG)
    with pytest.raises(KeyError, match="mem_nope"):
        jm.verify("mem_nope", adopted=True)
    with pytest.raises(TypeError, match="adopted must be True or False"):
        jm.verify(mid, adopted="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="user_correction"):
        jm.verify(mid, adopted=False, user_correction="  ")
    with pytest.raises(ValueError, match="ISO-8601"):
        jm.verify(mid, adopted=True, at="last week")
    assert jm.get(mid).adopted + jm.get(mid).rejected == 0


def test_search_get_delete_export_errors(jm: JudgmentMemory, tmp_path: Path) -> None:
    mid = jm.store(*CONFIG)
    for kwargs in ({"query": ""}, {"query": "config", "top_k": 0}, {"query": "config", "top_k": True},
                   {"query": "config", "utility_weight": -1}):
        with pytest.raises(ValueError):
            jm.search(**kwargs)
    with pytest.raises(KeyError):
        jm.get("mem_nope")
    with pytest.raises(KeyError, match="mem_nope"):
        jm.delete(mid, "mem_nope")
    assert jm.count() == 1  # all or nothing
    with pytest.raises(ValueError):
        jm.delete()
    with pytest.raises(TypeError, match="path or a writable text file"):
        jm.export_jsonl(42)  # type: ignore[arg-type]


def test_bad_embedders_and_config_are_refused() -> None:
    with pytest.raises(TypeError, match="embedder must be a callable"):
        EpisodicMemory(embedder=42)
    with pytest.raises(ValidationError):
        Config(judgments={"utility_mode": "optimistic"})
    with pytest.raises(ValidationError):
        Config(judgments={"utility_half_life_days": 0})
    with pytest.raises(ValueError, match="prior"):
        smoothed_utility([], time.time(), prior=(0.0, 0.0))
    for bad, problem in (([], "non-empty"), ([[1.0, 2.0]], "flat"), (["a"], "list of floats"), ([0.0, 0.0], "zero")):
        with pytest.raises(ValueError, match=problem):
            CallableEmbedder(lambda _text, bad=bad: bad).embed(["x"])
    sizes = iter([[1.0, 0.0], [1.0, 0.0, 0.0]])
    wobbly = CallableEmbedder(lambda _text: next(sizes))
    with pytest.raises(ValueError, match="returned 3 numbers"):
        wobbly.embed(["a", "b"])


# --- utility: plain, smoothed, decayed ----------------------------------------------------------------------
def v(adopted: bool, days_ago: float = 0.0, now: float = 1e9) -> VerdictRow:
    return VerdictRow(0, adopted, None, now - days_ago * DAY)


def test_smoothing_one_adoption_is_not_certainty() -> None:
    now = 1e9
    assert plain_utility([]) == 0.0 and plain_utility([v(True)]) == 1.0
    assert smoothed_utility([], now) == 0.5
    assert smoothed_utility([v(True)], now) == pytest.approx(2 / 3)
    assert smoothed_utility([v(True)] * 9 + [v(False)], now) == pytest.approx(10 / 12)
    assert smoothed_utility([v(True)], now, prior=(1.0, 4.0)) == pytest.approx(2 / 6)
    # one lucky adoption no longer outranks a long, mostly good record
    lucky, proven = [v(True)], [v(True)] * 9 + [v(False)]
    assert plain_utility(lucky) > plain_utility(proven)
    assert smoothed_utility(lucky, now) < smoothed_utility(proven, now)


def test_decay_halves_a_verdict_every_half_life() -> None:
    now = 1e9
    assert verdict_weight(now - 90 * DAY, now, 90) == pytest.approx(0.5)
    assert verdict_weight(now - 180 * DAY, now, 90) == pytest.approx(0.25)
    assert verdict_weight(now + DAY, now, 90) == 1.0 and verdict_weight(0, now, math.inf) == 1.0
    assert smoothed_utility([v(True, 90)], now, half_life_days=90) == pytest.approx(1.5 / 2.5)
    # an old practice, adopted often long ago and corrected lately, falls below the new one
    old = [v(True, 400 + i) for i in range(6)] + [v(False, 10)]
    new = [v(True, 5), v(True, 20)]
    assert smoothed_utility(old, now, half_life_days=math.inf) > smoothed_utility(new, now, half_life_days=math.inf)
    assert smoothed_utility(old, now, half_life_days=90) < smoothed_utility(new, now, half_life_days=90)
    with pytest.raises(ValueError, match="half-life"):
        verdict_weight(now, now, 0)


def test_utility_modes_through_the_api() -> None:
    for mode, expected in (("smoothed", 2 / 3), ("plain", 1.0)):
        with judgments(embedder=HashingEmbedder(), config=cfg({**NO_DECAY, "judgments.utility_mode": mode})) as m:
            mid = m.store(*CONFIG)
            assert m.get(mid).rank_utility == (0.5 if mode == "smoothed" else 0.0)
            assert m.get(mid).utility_score == 0.0  # reported as the seed does: never verified is 0
            m.verify(mid, True)
            assert m.get(mid).rank_utility == pytest.approx(expected)
            assert m.get(mid).utility_score == 1.0
    with judgments(embedder=HashingEmbedder(), config=cfg({"judgments.utility_half_life_days": 90,
                                                           "judgments.utility_reported": "ranking"})) as m:
        mid = m.store(*CONFIG)
        assert m.get(mid).utility_score == 0.5  # reporting the ranking utility: the prior
        m.verify(mid, True, at=time.time() - 90 * DAY)
        assert m.get(mid).utility_score == pytest.approx(0.6, abs=1e-4) == m.get(mid).rank_utility


def test_decay_reorders_search_after_a_policy_change() -> None:
    old, new = LOOKALIKE, CONFIG
    for half_life, winner in ((math.inf, "old"), (90.0, "new")):
        with judgments(embedder=HashingEmbedder(), config=cfg({"judgments.utility_half_life_days": half_life})) as m:
            ids = {"old": m.store(*old), "new": m.store(*new)}
            for days in (400, 420, 450, 500, 520, 600):
                m.verify(ids["old"], True, at=time.time() - days * DAY)
            m.verify(ids["old"], False, user_correction="Confirm first now", at=time.time() - 5 * DAY)
            m.verify(ids["new"], True, at=time.time() - 3 * DAY)
            top = m.search("production config change", top_k=2, use_utility=True)
            assert top[0].id == ids[winner], half_life


# --- search -------------------------------------------------------------------------------------------------
def test_use_utility_lifts_the_proven_judgment(jm: JudgmentMemory) -> None:
    wrong, right = jm.store(*LOOKALIKE, domain="ops"), jm.store(*CONFIG, domain="ops")
    query = "agent asks to change production config value"
    plain = jm.search(query, top_k=2)
    assert plain[0].id == wrong  # the look-alike shares more words
    for _ in range(4):
        jm.verify(right, True)
    jm.verify(wrong, False, user_correction="Always ask before touching production config")
    ranked = jm.search(query, top_k=2, use_utility=True)
    assert [r.id for r in ranked] == [right, wrong]
    for r in ranked:
        assert r.score == pytest.approx(rank_score(r.similarity, r.rank_utility, 0.5))
        assert r.cosine is not None and r.distance == pytest.approx(1 - r.cosine)
    assert [r.id for r in jm.search(query, top_k=2, use_utility=True, utility_weight=0.0)] == [wrong, right]
    assert ranked[1].correction == "Always ask before touching production config"


def test_similarity_is_hybrid_bm25_and_dense_fused_by_rrf(jm: JudgmentMemory) -> None:
    mid = jm.store(*CONFIG)
    both = jm.search("production config confirmed")[0]
    assert both.similarity == pytest.approx(1.0) and both.cosine is not None  # first in both legs
    # BM25 alone (the embedder is off): first in the only leg that ran
    with judgments(config=cfg({"models.embedder": "off"})) as bm25_only:
        bid = bm25_only.store(*CONFIG)
        only = bm25_only.search("production config")
        assert [r.id for r in only] == [bid] and only[0].cosine is None and only[0].similarity == 1.0
        assert bm25_only.search("zebra") == []
    # dense alone: a query sharing no word with the judgment (an embedder that maps everything together)
    with judgments(embedder=lambda _text: [1.0, 0.0, 0.0], config=cfg()) as dense_only:
        did = dense_only.store(*CONFIG)
        found = dense_only.search("zebra crossing")
        assert [r.id for r in found] == [did] and found[0].cosine == pytest.approx(1.0)
        assert found[0].similarity == pytest.approx(0.5)  # first in dense, absent from BM25
        assert dense_only.clients.embedder().model_id == "custom:<lambda>:3"
    assert jm.get(mid).id == mid


def test_equal_fused_ranks_are_broken_by_cosine() -> None:
    def embed(text: str) -> list[float]:
        return [0.6, 0.8] if "alpha" in text else [1.0, 0.0]

    with judgments(embedder=embed, config=cfg()) as m:
        words = m.store("alpha deploy config", "alpha config deploy", "why")     # BM25 first, dense second
        close = m.store("bravo deploy", "bravo plan", "why")                      # BM25 second, dense first
        found = m.search("deploy config")
        assert found[0].similarity == pytest.approx(found[1].similarity)
        assert [r.id for r in found] == [close, words]


def test_search_filters_domain_min_score_and_top_k(jm: JudgmentMemory) -> None:
    ops = jm.store(*CONFIG, domain="ops")
    fin = jm.store("Vendor asks to change bank details for a config payment",
                   "Call the vendor on the known number before changing payment config",
                   "Bank change emails are fraud", domain="finance")
    assert {r.id for r in jm.search("config change")} == {ops, fin}
    assert [r.id for r in jm.search("config change", domain="finance")] == [fin]
    assert jm.search("config change", domain="people") == []
    assert len(jm.search("config change", top_k=1)) == 1
    results = jm.search("config change")
    cut = max(r.cosine or 0.0 for r in results)
    assert all(r.cosine is not None and r.cosine >= cut for r in jm.search("config change", min_score=cut))


def test_distance_is_the_cosine_distance_and_min_score_a_floor_on_the_cosine() -> None:
    def embed(text: str) -> list[float]:
        return [1.0, 0.0] if "config" in text else [0.0, 1.0]

    with judgments(embedder=embed, config=cfg()) as m:
        lunch = m.store("User asks about lunch", "Suggest the usual place", "They like it")
        config = m.store("User asks about the production config", "Confirm first", "Outages")
        found = {r.id: r for r in m.search("the user asks about the production config")}
        assert found[config].cosine == pytest.approx(1.0) and found[config].distance == pytest.approx(0.0)
        # a BM25-only match ("user asks about") still gets its true cosine, below the dense leg's floor
        assert found[lunch].cosine == pytest.approx(0.0) and found[lunch].distance == pytest.approx(1.0)
        assert found[lunch].similarity > 0  # it ranks by the hybrid similarity, as before
        assert [r.id for r in m.search("the user asks about the production config", min_score=0.3)] == [config]
        m.store("User asks about dinner", "Book early", "Busy")  # [0, 1] too: the default floor 0 keeps cosine 0
        assert lunch in {r.id for r in m.search("the user asks about the production config")}
    with judgments(config=cfg({"models.embedder": "off"})) as bm25_only:  # no cosine: the hybrid similarity stands in
        bid = bm25_only.store(*CONFIG)
        (only,) = bm25_only.search("production config")
        assert only.id == bid and only.cosine is None and only.distance == pytest.approx(1 - only.similarity)


# --- dedup, delete, corrections -----------------------------------------------------------------------------
def test_duplicates_merge_their_counts(jm: JudgmentMemory) -> None:
    first = jm.store(*CONFIG, domain=None, metadata={"source": "chat"})
    jm.verify(first, True)
    again = jm.store("  user asks agent to MODIFY config.json   in production ",
                     "production config changes must be confirmed with the user first",
                     "another wording of the reasoning", domain="ops", metadata={"ticket": 7})
    assert again == first and jm.count() == 1
    jm.verify(again, False, user_correction="Staging first")
    j = jm.get(first)
    assert (j.adopted, j.rejected, j.stored) == (1, 1, 2)
    assert j.reasoning == CONFIG[2] and j.domain == "ops" and j.metadata == {"source": "chat", "ticket": 7}
    assert jm.store(CONFIG[0], "Apply it directly", CONFIG[2]) != first  # another judgment, another id
    assert len(jm.search("production config")) == 2


def test_delete_reaches_rows_verdicts_fts_and_vectors(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with judgments(embedder=HashingEmbedder(), db_path=db, config=cfg()) as m:
        keep = m.store(*LOOKALIKE)
        gone = m.store("zqxcanary trigger", "zqxcanary judgment", "zqxcanary reasoning")
        m.verify(gone, False, user_correction="zqxcanary correction")
        assert m.search("zqxcanary")
        assert m.delete(gone) == 1
        assert m.search("zqxcanary") == [] and [r.id for r in m.search("production config")] == [keep]
        with pytest.raises(KeyError):
            m.verify(gone, True)
        store = m.rows
        assert sql_rows(store, "SELECT count(*) FROM judgment_verdicts") == [(0,)]
        assert sql_rows(store, "SELECT count(*) FROM memory_fts WHERE kind = 'judgment'") == [(1,)]
        assert sql_rows(store, "SELECT count(*) FROM vectors WHERE kind = 'judgment'") == [(1,)]
    assert b"zqxcanary" not in bytes_of(db)


def test_corrections_are_stored_and_shown(jm: JudgmentMemory) -> None:
    mid = jm.store(*LOOKALIKE)
    jm.verify(mid, False, user_correction="Ask first")
    jm.verify(mid, True)
    jm.verify(mid, False, user_correction="Never apply it directly")
    j = jm.get(mid)
    assert j.corrections == ["Ask first", "Never apply it directly"] and j.correction == "Never apply it directly"
    assert jm.search("production config")[0].correction == "Never apply it directly"
    (t,) = jm.export_triples()
    assert t.outcome == "adopted 1 of 3; corrected: Never apply it directly"


# --- exports ------------------------------------------------------------------------------------------------
def test_export_triples_and_jsonl(jm: JudgmentMemory, tmp_path: Path) -> None:
    good, bad, unverified = jm.store(*CONFIG, domain="ops"), jm.store(*LOOKALIKE), jm.store("a", "b", "c")
    jm.verify(good, True)
    jm.verify(good, True)
    jm.verify(bad, False, user_correction="Ask first")
    triples = jm.export_triples()
    # the seed's utility: adopted / verdicts; rejected-only (0) and never verified (no outcome) are not exported
    assert {t.id for t in triples} == {good}
    t = triples[0]
    assert (t.context, t.judgment, t.outcome, t.domain) == (CONFIG[0], CONFIG[1], "adopted 2 of 2", "ops")
    assert t.utility == 1.0
    assert jm.export_triples(min_utility=1.0) == []  # strictly greater
    path = tmp_path / "triples.jsonl"
    assert jm.export_jsonl(path, min_utility=0.5) == 1
    (line,) = path.read_text().splitlines()
    assert json.loads(line)["judgment"] == CONFIG[1] and json.loads(line)["outcome"] == "adopted 2 of 2"
    jm.config = jm.config.replace({"judgments.utility_reported": "ranking"})  # the smoothed utility instead
    ranked = {t.id: t.utility for t in jm.export_triples()}
    assert ranked == {good: pytest.approx(3 / 4), bad: pytest.approx(1 / 3)}
    buffer = io.StringIO()
    assert jm.export_jsonl(buffer, min_utility=0.5) == 1
    assert [json.loads(x)["id"] for x in buffer.getvalue().splitlines()] == [good]
    assert unverified not in buffer.getvalue()


def test_iter_rows_streams_in_chunks(jm: JudgmentMemory) -> None:
    ids = [jm.store(f"trigger {i}", f"judgment {i}", "why") for i in range(5)]
    chunks = list(jm.rows.iter_judgments(jm.user_id, chunk=2))
    assert [len(c) for c in chunks] == [2, 2, 1]
    assert [r.memory_id for c in chunks for r in c] == ids


# --- users, the shared file, Memory.judgments, recall -------------------------------------------------------
def test_two_users_in_one_file_are_isolated(db_path: Path) -> None:
    with Memory(db_path, user_id="alice", embedder=HashingEmbedder()) as alice, \
            Memory(db_path, user_id="bob", embedder=HashingEmbedder()) as bob:
        a = alice.judgments.store(*CONFIG)
        b = bob.judgments.store(*CONFIG)  # the same text is a separate judgment per user
        assert a != b
        alice.judgments.verify(a, True)
        assert [r.id for r in alice.judgments.search("production config")] == [a]
        assert [r.id for r in bob.judgments.search("production config")] == [b]
        assert bob.judgments.search("production config")[0].adopted == 0
        for call in (lambda: bob.judgments.verify(a, True), lambda: bob.judgments.get(a),
                     lambda: bob.judgments.delete(a)):
            with pytest.raises(KeyError):
                call()
        assert [t.id for t in alice.judgments.export_triples()] == [a] and bob.judgments.export_triples() == []
        loader = KINDS["judgment"].loader
        ids = [r.id for c in alice.store.iter_judgments("alice") for r in c]
        assert list(loader(alice.store, "bob", ids, None)) == []
        (hit,) = loader(alice.store, "alice", ids, None).values()
        assert hit.kind == "judgment" and hit.id == f"judgment:{a}" and hit.text == CONFIG[1]
        assert hit.details["trigger"] == CONFIG[0] and hit.details["adopted"] == 1


@pytest.mark.sqlite_only("ends by expecting SQLite's closed-connection error (a closed PostgreSQL pool raises its own)")
def test_memory_judgments_shares_store_and_embedder(db_path: Path) -> None:
    embedder = HashingEmbedder()
    with Memory(db_path, embedder=embedder, config=cfg()) as mem:
        assert mem.judgments is mem.judgments
        mid = mem.judgments.store(*CONFIG)
        with mem.judgments as j:  # the view's context manager leaves the Memory open
            assert j.search("production config")[0].id == mid
        assert mem.stats()["turns"] == 0
        assert sql_rows(mem.store, "SELECT model FROM vectors WHERE kind = 'judgment'") == [(embedder.model_id,)]
    with EpisodicMemory(embedder=HashingEmbedder(), db_path=db_path, config=cfg()) as m:
        assert m.get(mid).judgment == CONFIG[1]  # the same file, the same tables
    with pytest.raises(sqlite3.ProgrammingError):
        m.count()  # closed with its context


def test_judgments_stored_without_an_embedder_are_embedded_later(db_path: Path) -> None:
    with EpisodicMemory(db_path=db_path, config=cfg({"models.embedder": "off"})) as m:
        mid = m.store(*CONFIG)
    with EpisodicMemory(embedder=lambda _text: [0.0, 1.0], db_path=db_path, config=cfg()) as m:
        found = m.search("zebra")  # no shared word: only the new vector can find it
        assert [r.id for r in found] == [mid] and found[0].distance == pytest.approx(0.0)  # cosine 1


# --- EpisodicMemory: the episodic-judgment library's behaviour (its own tests: test_seed_judgment_contract.py) ----
def test_the_door_stores_every_judgment_apart_and_reports_as_the_seed() -> None:
    with EpisodicMemory(embedder=HashingEmbedder(), config=cfg()) as m:
        assert m.get("nonexistent") is None and m.get("") is None and m.export_triples() == []
        first, second = m.store(*CONFIG, domain="ops", metadata={"k": 1}), m.store(*CONFIG, domain="ops")
        assert first != second and m.count() == 2  # the seed stores twice; Memory.judgments would merge
        assert m.judgments.store(*CONFIG) not in (first, second)  # nor does the project's API merge into them
        m.verify(first, adopted=True)
        m.verify(first, adopted=True)
        m.verify(first, adopted=False, user_correction="Ask in #ops")
        m.verify(second, adopted=False)
        with pytest.raises(KeyError):
            m.verify("mem_nope", adopted=True)
        record = m.get(first)
        assert record is not None and (record.adoption_count, record.correction_count) == (2, 1)
        assert record.utility_score == pytest.approx(2 / 3) and record.metadata == {"k": 1} and record.domain == "ops"
        assert record.created_at == pytest.approx(time.time(), abs=60)
        assert m.export_triples() == [Triple(context=CONFIG[0], judgment=CONFIG[1], outcome={
            "utility_score": pytest.approx(2 / 3), "adoption_count": 2, "correction_count": 1})]
        assert len(m.export_triples(min_utility=-1.0)) == 3  # never verified: utility 0.0, above -1

        # pure cosine without use_utility: identical judgments tie and keep the order stored
        plain = m.search(CONFIG[0], top_k=10)
        assert all(isinstance(r, SearchResult) for r in plain)
        assert [r.id for r in plain][:2] == [first, second] and plain[0].distance == pytest.approx(plain[1].distance)
        # with it, cosine × (1 + 0.5 × adopted / verdicts): the verdicts set them apart
        ranked = m.search(CONFIG[0], top_k=10, use_utility=True)
        assert [r.id for r in ranked].index(first) < [r.id for r in ranked].index(second)
        assert ranked[0].utility_score == pytest.approx(2 / 3)
        assert m.search(CONFIG[0], domain="finance") == [] and len(m.search(CONFIG[0], top_k=1)) == 1
        assert all(1 - r.distance >= 0.5 for r in m.search(CONFIG[0], min_score=0.5))
        with pytest.raises(ValueError, match="top_k"):
            m.search(CONFIG[0], top_k=0)


def test_the_door_takes_the_seeds_embedder_objects_and_works_without_an_embedder() -> None:
    class SeedStyleEmbedder:  # the library's Embedder: embed(text) -> vector
        def embed(self, text: str) -> list[float]:
            return [1.0, 0.0] if "config" in text else [0.0, 1.0]

    with EpisodicMemory(embedder=SeedStyleEmbedder(), config=cfg()) as m:
        config, lunch = m.store(*CONFIG), m.store("User asks about lunch", "Suggest the usual place", "They like it")
        found = m.search("a config question")
        assert [r.id for r in found] == [config, lunch] and [r.distance for r in found] == pytest.approx([0.0, 1.0])
    with EpisodicMemory(config=cfg({"models.embedder": "off"})) as bm25_only:  # BM25's similarity stands in for the cosine
        mid = bm25_only.store(*CONFIG)
        (only,) = bm25_only.search("production config")
        assert only.id == mid and only.distance == pytest.approx(0.0)
        assert bm25_only.search("zebra") == []


# --- forgetting ---------------------------------------------------------------------------------------------
def test_forget_user_and_all_remove_judgments_everywhere(db_path: Path) -> None:
    with Memory(db_path, user_id="alice", embedder=HashingEmbedder()) as mem:
        mem.add_turn("user", "hello", session_id="s1")
        secret = mem.judgments.store("zqxcanary trigger", "zqxcanary judgment", "zqxcanary why")
        mem.judgments.verify(secret, False, user_correction="zqxcanary fix")
        bob = Memory(db_path, user_id="bob", embedder=HashingEmbedder())
        kept = bob.judgments.store(*CONFIG)
        bob.judgments.verify(kept, True)

        result = mem.forget(session_id="s1")  # judgments belong to no session
        assert "judgments" not in result and mem.judgments.count() == 1
        result = mem.forget(user_id="alice")
        assert result["judgments"] == 1 and result["judgment_verdicts"] == 1
        assert mem.judgments.search("zqxcanary") == [] and bob.judgments.count() == 1
        assert bob.judgments.get(kept).adopted == 1
        assert b"zqxcanary" not in bytes_of(db_path)

        assert mem.forget(all=True)["judgments"] == 1
        for table, where in (("judgments", ""), ("judgment_verdicts", ""), ("memory_fts", " WHERE kind = 'judgment'"),
                             ("vectors", " WHERE kind = 'judgment'")):
            assert sql_rows(mem.store, f"SELECT count(*) FROM {table}{where}") == [(0,)], table
        bob.close()


# --- [Past judgments] ---------------------------------------------------------------------------------------
def test_past_judgments_block(db_path: Path) -> None:
    with Memory(db_path, embedder=HashingEmbedder(), config=cfg(NO_DECAY)) as mem:
        message = "can the agent modify config.json in production"
        assert past_judgments_block(mem, message) == ""
        right = mem.judgments.store(*CONFIG)
        mem.judgments.verify(right, True)
        # one adoption: utility 2/3 clears 0.6, and the message is close enough
        block = past_judgments_block(mem, message)
        assert block.startswith("[Past judgments]\n- Production config changes must be confirmed")
        assert "why: Direct config writes have caused outages before." in block and "corrected" not in block
        mem.judgments.verify(right, False, user_correction="Also post in #ops")
        assert past_judgments_block(mem, message) == ""  # utility fell to 0.5
        mem.judgments.verify(right, True)
        mem.judgments.verify(right, True)
        assert "  corrected: Also post in #ops" in past_judgments_block(mem, message)
        assert past_judgments_block(mem, "what should we cook for dinner tonight") == ""  # not relevant
        for i in range(5):
            mid = mem.judgments.store(f"agent modifies config.json in production case {i}", f"judgment {i}", "why")
            mem.judgments.verify(mid, True)
        assert past_judgments_block(mem, message).count("\n- ") == 3  # at most 3 entries
    with Memory(db_path, config=cfg({**NO_DECAY, "models.embedder": "off"})) as mem:  # BM25 alone decides relevance
        assert past_judgments_block(mem, message).startswith("[Past judgments]")


# --- CLI ----------------------------------------------------------------------------------------------------
def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_cli_add_search_verify_export_forget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EPISODIC_MODELS__EMBEDDER", "off")
    db = str(tmp_path / "m.db")
    code, out, _ = run("judge", "add", "--db", db, "-t", CONFIG[0], "-j", CONFIG[1], "-r", CONFIG[2],
                       "--domain", "ops", "--metadata", '{"ticket": 7}', "--json")
    assert code == 0
    mid = json.loads(out)["id"]
    assert json.loads(out) == {"id": mid, "merged": False}
    code, out, _ = run("judge", "add", "--db", db, "-t", CONFIG[0].upper(), "-j", CONFIG[1], "-r", "again")
    assert code == 0 and out.strip() == f"merged into {mid}"

    code, out, _ = run("judge", "search", "production config", "--db", db, "--json", "--utility")
    (hit,) = json.loads(out)
    assert hit["id"] == mid and hit["metadata"] == {"ticket": 7} and hit["distance"] == 0.0
    code, out, _ = run("judge", "search", "production config", "--db", db)
    assert code == 0 and "[0.00] Production config changes" in out and "when: User asks agent" in out

    code, out, _ = run("judge", "verify", mid, "--rejected", "--correction", "Staging first", "--db", db)
    assert code == 0 and "rejected" in out and "corrected: Staging first" in out
    code, out, _ = run("judge", "verify", mid, "--adopted", "--db", db, "--json")
    assert json.loads(out)["adopted"] == 1 and json.loads(out)["rejected"] == 1
    assert run("judge", "verify", "mem_nope", "--adopted", "--db", db)[0] == 1
    assert run("judge", "verify", mid, "--db", db)[0] == 2  # neither --adopted nor --rejected
    assert run("judge", "add", "--db", db, "-t", " ", "-j", "x", "-r", "y")[0] == 2

    code, out, _ = run("judge", "export", "--db", db, "--jsonl")
    (line,) = out.splitlines()
    assert json.loads(line)["outcome"] == "adopted 1 of 2; corrected: Staging first"
    code, out, _ = run("judge", "export", "--db", db, "--json", "--min-utility", "0.9")
    assert json.loads(out) == []
    out_file = tmp_path / "t.jsonl"
    code, _, err = run("judge", "export", "--db", db, "-o", str(out_file))
    assert code == 0 and "exported 1 triple(s)" in err and len(out_file.read_text().splitlines()) == 1
    code, out, _ = run("judge", "export", "--db", db)
    assert code == 0 and "Production" in out

    assert run("judge", "forget", "mem_nope", "--db", db)[0] == 1
    code, out, _ = run("judge", "forget", mid, "--db", db, "--json")
    assert code == 0 and json.loads(out) == {"deleted": 1, "ids": [mid]}
    assert json.loads(run("judge", "search", "production config", "--db", db, "--json")[1]) == []


def test_cli_user_scoping_and_help(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EPISODIC_MODELS__EMBEDDER", "off")
    db = str(tmp_path / "m.db")
    mid = json.loads(run("--user", "alice", "judge", "add", "--db", db, "-t", CONFIG[0], "-j", CONFIG[1],
                         "-r", CONFIG[2], "--json")[1])["id"]
    assert json.loads(run("judge", "search", "production config", "--db", db, "--user", "bob", "--json")[1]) == []
    assert [r["id"] for r in json.loads(run("judge", "search", "production config", "--db", db, "--user", "alice",
                                            "--json")[1])] == [mid]
    for command in ("add", "search", "verify", "export", "forget"):
        code, out, _ = run("judge", command, "--help")
        assert code == 0 and "--db" in out and "--user" in out
