"""Export → import → the same memories; a bad file writes nothing; backups are consistent while a writer runs."""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.ingest import parse_file, sample_path
from episodic_memory.portable import FORMAT, PortableFormatError
from episodic_memory.store import is_postgres_url

pytestmark = pytest.mark.both_backends

LOCOMO = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "locomo-dev"
CHILD = str(Path(__file__).with_name("writer_child.py"))
QUERIES = ["how many slides does the deck need", "when is the Airflow cutover", "formatting preferences",
           "what did Sarah confirm", "billing syncs", "rollback runbook"]
RECALLED_AT = "2026-12-01T12:00:00+00:00"  # the moment `_hits` recalls at


def _sample(mem: Memory) -> None:
    parsed = parse_file(str(sample_path()))
    mem.add_turns(parsed.turns)
    for session_id in dict.fromkeys(t["session_id"] for t in parsed.turns):
        mem.end_session(session_id)


def _judgments(mem: Memory) -> None:
    a = mem.judgments.store(trigger="User asks to edit the production config",
                            judgment="Confirm production config changes with the user first",
                            reasoning="Direct writes caused an outage.", domain="ops", metadata={"team": "infra"})
    b = mem.judgments.store(trigger="User asks for a summary", judgment="Lead with the decision",
                            reasoning="They skim.")
    mem.judgments.verify(a, adopted=True)
    mem.judgments.verify(b, adopted=False, user_correction="Lead with the numbers")


def _hits(mem: Memory, queries: list[str]) -> list[list[tuple[Any, ...]]]:
    """Each query's hits, recalled at one fixed moment: recency counts from `now`, and two stores recalled seconds
    apart on the wall clock could round a score differently."""
    return [[(h.kind, h.text, tuple(h.source_ids), h.session_id, h.speaker, round(h.score, 5))
             for h in mem.recall(q, k=8, now=RECALLED_AT)] for q in queries]


def _histories(mem: Memory) -> dict[str, list[tuple[Any, ...]]]:
    """Every fact's supersession chain, keyed by its text (row ids may differ between stores)."""
    return {f.text: [(g.text, g.type, g.valid_from, g.valid_to, tuple(g.source_ids)) for g in mem.fact_history(f.id)]
            for f in mem.facts(include_superseded=True)}


def _portable_state(mem: Memory) -> dict[str, Any]:
    stats = {k: v for k, v in mem.stats().items() if k not in ("db", "journal", "file_bytes")}
    return {
        "stats": stats,
        "histories": _histories(mem),
        "sessions": [s.to_dict() for s in mem.sessions()],
        "turns": {s.session_id: [(t.turn_id, t.seq, t.role, t.speaker, t.content, t.ts)
                                 for t in mem.session_turns(s.session_id)] for s in mem.sessions()},
        "episodes": [(e.session_id, e.summary) for e in mem.episodes()],
        "workstreams": [(w.name, w.status, w.sessions) for w in mem.workstreams(include_hypotheses=True)],
        "loops": [(lp.text, lp.status, lp.due) for lp in mem.loops(status="all")],
        "entities": sorted((e.name, tuple(sorted(e.aliases))) for e in mem.entities()),
        "judgments": [(r.trigger, r.judgment, r.adopted, r.rejected, r.domain, r.correction)
                      for r in mem.judgments.search("production config summary", top_k=5)],
    }


def _round_trip(source: Memory, tmp_path: Path, queries: list[str], name: str = "export.jsonl.gz") -> Memory:
    path = tmp_path / name
    counts = source.export(path)
    assert counts["turn"] == source.stats()["turns"]
    fresh = Memory(tmp_path / "fresh" / "memory.db")
    added = fresh.import_(path)
    assert added["turn"] == counts["turn"] and added["fact"] == counts["fact"]
    assert _portable_state(fresh) == _portable_state(source)
    if not is_postgres_url(source.path):  # the copy is SQLite: PostgreSQL's BM25 ranks differently (docs/postgres.md)
        assert _hits(fresh, queries) == _hits(source, queries)
    return fresh


def test_round_trip_of_the_sample_keeps_stats_recall_histories_and_judgments(mem: Memory, tmp_path: Path) -> None:
    _sample(mem)
    _judgments(mem)
    assert any(len(mem.fact_history(f.id)) > 1 for f in mem.facts())  # a supersession chain travels
    fresh = _round_trip(mem, tmp_path, QUERIES)
    try:
        again = fresh.import_(tmp_path / "export.jsonl.gz")  # idempotent: nothing is added twice
        assert not any(again.values())
        assert _portable_state(fresh) == _portable_state(mem)
        # the imported store carries on: a new turn in an imported session, then consolidation
        fresh.add_turn("user", "Actually the deck needs 16 slides now.", session_id="s4", turn_id="s4-new")
        fresh.end_session("s4")
        assert fresh.session_turns("s4")[-1].turn_id == "s4-new"
    finally:
        fresh.close()


@pytest.mark.skipif(not LOCOMO.is_dir(), reason=f"the LoCoMo dev data is not at {LOCOMO}")
def test_round_trip_of_a_consolidated_locomo_conversation(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.datasets import load_locomo

    conv = load_locomo(LOCOMO, verbose=False)[0]
    sessions = conv.sessions[:4]  # a subset keeps it fast; still several sessions, facts and a workstream
    with Memory(tmp_path / "locomo.db") as source:
        for session in sessions:
            source.add_turns([{"role": t.role, "content": t.text, "speaker": t.speaker, "timestamp": t.timestamp,
                               "turn_id": t.turn_id, "session_id": session.session_id} for t in session.turns])
            source.end_session(session.session_id)
        assert source.stats()["facts"] > 0 and source.episodes()
        questions = [q.question for q in conv.questions[:12]]
        _round_trip(source, tmp_path, questions, "locomo.jsonl").close()


def test_export_of_one_user_leaves_the_others_out(tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db") as mem:
        mem.add_turn("user", "I live in Lisbon", session_id="s1", user_id="ana")
        mem.add_turn("user", "I live in Oslo", session_id="s1", user_id="bo")
        mem.export(tmp_path / "ana.jsonl", user_id="ana")
        mem.export(tmp_path / "all.jsonl", all_users=True)
    lines = [json.loads(line) for line in (tmp_path / "ana.jsonl").read_text().splitlines()]
    assert lines[0]["format"] == FORMAT and lines[0]["version"] == 1 and lines[0]["user_id"] == "ana"
    assert {r["user_id"] for r in lines[1:] if "user_id" in r} == {"ana"}
    with Memory(tmp_path / "b.db") as other:
        other.import_(tmp_path / "all.jsonl")
        assert other.stats(user_id="ana")["turns"] == other.stats(user_id="bo")["turns"] == 1


def _exported(mem: Memory, tmp_path: Path) -> list[str]:
    mem.add_turn("user", "We decided to ship on Friday.", session_id="s1", turn_id="t1")
    mem.add_turn("user", "Actually, we ship on Monday, not Friday.", session_id="s1", turn_id="t2")
    mem.end_session("s1")
    mem.export(tmp_path / "e.jsonl")
    return (tmp_path / "e.jsonl").read_text().splitlines()


def _bad(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("damage, expected", [
    (lambda ls, i: ls.__setitem__(i, ls[i][:-5]), "not JSON"),
    (lambda ls, i: ls.__setitem__(i, ls[i].replace('"content": ', '"content": 7, "x": ')), "unknown field"),
    (lambda ls, i: ls.__setitem__(i, json.dumps({**json.loads(ls[i]), "ts": "yesterday"})), "'ts' must be"),
    (lambda ls, i: ls.__setitem__(i, json.dumps({**json.loads(ls[i]), "kind": "memo"})), "unknown record kind"),
    (lambda ls, i: ls.__setitem__(i, json.dumps({**json.loads(ls[i]), "session_id": " "})), "must not be blank"),
    (lambda ls, i: ls.__delitem__(len(ls) - 1), "truncated"),
])
def test_a_bad_line_is_named_and_nothing_is_written(mem: Memory, tmp_path: Path, damage: Any, expected: str) -> None:
    lines = _exported(mem, tmp_path)
    turn_line = next(i for i, line in enumerate(lines) if '"kind": "turn"' in line)
    damage(lines, turn_line)
    with Memory(tmp_path / "target.db") as target:
        target.add_turn("user", "already here", session_id="mine")
        with pytest.raises(PortableFormatError) as info:
            target.import_(_bad(tmp_path, lines))
        assert expected in str(info.value)
        if expected != "truncated":
            assert info.value.line == turn_line + 1 and f"bad.jsonl:{turn_line + 1}:" in str(info.value)
        assert target.stats()["turns"] == 1 and target.stats()["sessions"] == 1  # nothing lost, nothing added


def test_a_reference_to_a_missing_record_is_refused(mem: Memory, tmp_path: Path) -> None:
    lines = _exported(mem, tmp_path)
    i = next(i for i, line in enumerate(lines) if '"kind": "fact"' in line)
    lines[i] = json.dumps({**json.loads(lines[i]), "source_ids": [999]})
    with Memory(tmp_path / "t.db") as target, pytest.raises(PortableFormatError, match="turn 999"):
        target.import_(_bad(tmp_path, lines))
    header = json.loads(lines[0])
    lines[0] = json.dumps({**header, "version": 99})
    with Memory(tmp_path / "t.db") as target, pytest.raises(PortableFormatError, match="newer"):
        target.import_(_bad(tmp_path, lines))
    (tmp_path / "x.jsonl").write_text('{"hello": 1}\n')
    with Memory(tmp_path / "t.db") as target, pytest.raises(PortableFormatError, match="not an episodic-memory"):
        target.import_(tmp_path / "x.jsonl")


def test_gzip_is_chosen_by_the_name_and_read_by_its_bytes(mem: Memory, tmp_path: Path) -> None:
    mem.add_turn("user", "The gate code is 4411", session_id="s1")
    mem.export(tmp_path / "m.jsonl.gz")
    with gzip.open(tmp_path / "m.jsonl.gz", "rt") as f:
        assert json.loads(f.readline())["format"] == FORMAT
    (tmp_path / "renamed.jsonl").write_bytes((tmp_path / "m.jsonl.gz").read_bytes())
    with Memory(tmp_path / "b.db") as other:
        assert other.import_(tmp_path / "renamed.jsonl")["turn"] == 1
        assert other.recall("gate code")[0].text == "The gate code is 4411"


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.sqlite_only("reopens the backup file, which --store-backend=postgres redirects")
def test_cli_export_import_backup(tmp_path: Path) -> None:
    db, copy = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    with Memory(db) as mem:
        mem.add_turn("user", "My sister Ines lives in Porto", session_id="s1", turn_id="t1")
        mem.end_session("s1")
    out = _cli("--db", db, "export", str(tmp_path / "all.jsonl"))
    assert out.exit_code == 0 and "1 turn" in out.output
    out = _cli("--db", copy, "import", str(tmp_path / "all.jsonl"))
    assert out.exit_code == 0 and "1 turn" in out.output
    assert _cli("--db", copy, "import", str(tmp_path / "all.jsonl")).output.startswith("imported nothing")
    (tmp_path / "bad.jsonl").write_text("not json\n")
    out = CliRunner().invoke(main, ["--db", copy, "import", str(tmp_path / "bad.jsonl")])
    assert out.exit_code == 1 and "bad.jsonl:1:" in out.output and "nothing was imported" in out.output
    assert _cli("--db", db, "backup", str(tmp_path / "bk.db")).exit_code == 0
    assert CliRunner().invoke(main, ["--db", db, "backup", str(tmp_path / "bk.db")]).exit_code == 2  # exists
    with Memory(tmp_path / "bk.db") as backup:
        assert backup.recall("where does Ines live")[0].source_ids == ["t1"]


@pytest.mark.sqlite_only("runs child processes (or reads the SQLite file) that --store-backend=postgres does not redirect")
def test_backup_is_consistent_while_another_process_writes(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    with Memory(db) as mem:
        mem.add_turn("user", "first", session_id="w-s0")
        quiet = {**os.environ, "EPISODIC_CAPTURE__CONSOLIDATE_EVERY": "100000", "EPISODIC_MODELS__EMBEDDER": "off"}  # writes only
        child = subprocess.Popen([sys.executable, CHILD, str(db), "w", "400", "--sessions", "3"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=quiet)
        try:
            seen = []
            deadline = time.time() + 60
            while len(seen) < 3 and time.time() < deadline:
                assert child.stdout is not None
                if child.stdout.readline():  # the writer is writing
                    dest = tmp_path / f"backup{len(seen)}.db"
                    mem.backup(dest)
                    seen.append(dest)
                    for _ in range(20):
                        child.stdout.readline()
        finally:
            child.wait(timeout=120)
        assert child.returncode == 0, child.stderr.read() if child.stderr else ""
    counts = []
    for dest in seen:
        check = sqlite3.connect(dest)
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = check.execute("SELECT count(*) FROM turns").fetchone()[0]
        assert stored == check.execute("SELECT sum(turn_count) FROM sessions").fetchone()[0]  # one moment
        counts.append(stored)
        check.close()
    assert len(counts) == 3 and counts == sorted(counts) and 1 < counts[0] < 401
    with Memory(seen[-1]) as backup:  # opens like any store
        assert backup.stats()["turns"] == counts[-1]


def test_an_import_finds_each_turn_by_its_index_not_by_every_turn_of_the_user(tmp_path: Path) -> None:
    """Each imported turn is looked up by its journal uid, then by its caller id in its session, each through its
    own index. One OR of the two made SQLite walk all of the user's turns for every turn imported: a copy of 10k
    turns into a store of 100k took ~7 min, and takes ~2 s (bench/scale.py `copy_real_store`)."""
    config = Config(models={"embedder": "off"})
    with Memory(tmp_path / "a.db", config=config) as mem:
        mem.add_turn("user", "My sister Ines lives in Porto.", session_id="s1", turn_id="t1")
        mem.add_turn("user", "She moved there in 2019.", session_id="s1", turn_id="t2")
        mem.export(tmp_path / "export.jsonl")
        lines = (tmp_path / "export.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines[1:]]
        for r in records:   # the same turns as another journal wrote them: found by their caller ids
            if r["kind"] == "turn":
                r["uid"] = "other-" + r["uid"]
        (tmp_path / "again.jsonl").write_text("\n".join([lines[0], *map(json.dumps, records)]) + "\n")
        statements: list[str] = []
        mem.store.db.set_trace_callback(statements.append)
        try:
            added = mem.import_(tmp_path / "again.jsonl")
        finally:
            mem.store.db.set_trace_callback(None)
        assert added["turn"] == 0 and len(mem.session_turns("s1")) == 2
        lookups = [s for s in statements if s.lstrip().upper().startswith("SELECT ID FROM TURNS WHERE")]
        assert len(lookups) == 4   # by uid (not found), then by caller id (found), for each of the two turns
        for sql in lookups:
            plan = " ".join(str(row[3]) for row in mem.store.db.execute("EXPLAIN QUERY PLAN " + sql).fetchall())
            assert "uid=?" in plan or "turn_id=?" in plan, (sql, plan)
