"""The `episodic` command line: ingest rules and exit codes, recall, stats, sessions, forget, demo."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Memory, __version__
from episodic_memory.cli import main
from episodic_memory.ingest import sample_path


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def write(path: Path, *lines: object) -> Path:
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    return path


GOOD = [{"role": "user", "content": "The Series B deck needs 12 slides", "speaker": "Maya", "id": "a1",
         "timestamp": "2026-11-02T10:00:00+00:00"},
        {"role": "assistant", "content": "Noted, twelve slides", "id": "a2"}]


def test_ingest_recall_stats_sessions(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    file = write(tmp_path / "chat.jsonl", *GOOD)
    code, out, _ = run("ingest", str(file), "--db", db)
    assert code == 0 and "ingested 2 turn(s) in 1 session(s)" in out
    code, out, _ = run("recall", "deck slides", "--db", db)
    # the fact distilled from the turn stands for it (a near-duplicate collapses into one hit)
    assert code == 0 and re.search(r"\[fact · knowledge\] #\d+ The Series B deck needs 12 slides", out) and "ago)" in out
    code, out, _ = run("recall", "Series B deck", "--db", db, "--json", "-k", "1")
    hits = json.loads(out)
    assert len(hits) == 1 and hits[0]["source_ids"] == ["a1"] and hits[0]["session_id"] == "chat"
    assert set(hits[0]) >= {"id", "kind", "text", "score", "timestamp", "session_id", "source_ids"}
    assert json.loads(run("stats", "--db", db, "--json")[1])["turns"] == 2
    sessions = json.loads(run("sessions", "--db", db, "--json")[1])
    assert [(s["session_id"], s["turns"], s["status"]) for s in sessions] == [("chat", 2, "ended")]
    assert run("--db", db, "stats")[0] == 0  # --db before the command works too
    # re-ingesting the same ids stores nothing twice
    code, out, _ = run("ingest", str(file), "--db", db)
    assert "ingested 0 turn(s)" in out and "2 already stored" in out


def test_ingest_stdin_and_session_ids(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    lines = "\n".join(json.dumps({"role": "user", "content": f"line {i}", "session_id": f"s{i % 2}",
                                  "name": "Ann", "user_id": "ann"}) for i in range(4))
    code, out, _ = run("ingest", "-", "--db", db, input=lines)
    assert code == 0 and "ingested 4 turn(s) in 2 session(s)" in out
    with Memory(db, user_id="ann") as mem:
        assert {s.session_id for s in mem.sessions()} == {"s0", "s1"}
        assert mem.session_turns("s0")[0].speaker == "Ann"


BAD_LINES = [
    ("{not json", "not valid JSON"),
    ('["a", "list"]', "expected a JSON object, got list"),
    ({"content": "no role"}, "missing required field 'role'"),
    ({"role": "user"}, "missing required field 'content'"),
    ({"role": 3, "content": "x"}, "field 'role' must be a non-empty string"),
    ({"role": "user", "content": ["x"]}, "field 'content' must be a string, got a list"),
    ({"role": "user", "content": "x", "session_id": {"a": 1}}, "field 'session_id' must be a string or number"),
    ({"role": "user", "content": "x", "speaker": 7}, "field 'speaker' must be a string"),
    ({"role": "user", "content": "x", "timestamp": True}, "field 'timestamp'"),
    ({"role": "user", "content": "x", "timestamp": "last tuesday"}, "is not an ISO-8601 date-time"),
    ({"role": "user", "content": "x", "timestamp": 1e15}, "is not a time in seconds since 1970"),
    ({"role": "user", "content": "x", "id": [1]}, "field 'id' must be a string or number"),
    ({"role": "user", "content": "x", "user_id": 5}, "field 'user_id' must be a string"),
]


@pytest.mark.parametrize(("bad", "problem"), BAD_LINES)
def test_bad_line_names_file_line_and_problem_and_stores_nothing(tmp_path: Path, bad: object, problem: str) -> None:
    db = str(tmp_path / "m.db")
    run("ingest", str(write(tmp_path / "before.jsonl", {"role": "user", "content": "stored earlier"})), "--db", db)
    file = write(tmp_path / "bad.jsonl", *GOOD, bad)
    code, out, err = run("ingest", str(file), "--db", db)
    assert code == 1
    assert f"{file}:3: " in err and problem in err
    assert "nothing from this file was stored" in err
    with Memory(db) as mem:
        assert mem.stats()["turns"] == 1  # what was stored before is intact; nothing from bad.jsonl
        assert mem.recall("stored earlier")


def test_skip_bad_stores_good_lines_and_lists_bad(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    file = write(tmp_path / "mixed.jsonl", GOOD[0], "{oops", GOOD[1], {"role": "user"})
    code, out, err = run("ingest", str(file), "--db", db, "--skip-bad")
    assert code == 0
    assert f"{file}:2: not valid JSON" in err and f"{file}:4: missing required field 'content'" in err
    assert "ingested 2 turn(s)" in out and "2 bad line(s) skipped" in out


def test_one_bad_file_does_not_block_a_good_one(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    good = write(tmp_path / "good.jsonl", *GOOD)
    bad = write(tmp_path / "bad.jsonl", "nope")
    code, _, err = run("ingest", str(bad), str(good), "--db", db)
    assert code == 1 and f"{bad}:1" in err
    with Memory(db) as mem:
        assert mem.stats()["turns"] == 2


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("ingest", str(tmp_path / "missing.jsonl"), "--db", str(tmp_path / "m.db"))[0] == 2
    assert run("recall")[0] == 2
    assert run("recall", "x", "-k", "0")[0] == 2
    assert run("forget", "--db", str(tmp_path / "m.db"), "--yes")[0] == 2
    assert run("no-such-command")[0] == 2


def test_version_and_help() -> None:
    code, out, _ = run("--version")
    assert code == 0 and __version__ in out
    code, out, _ = run("--help")
    assert code == 0 and "episodic demo" in out and "ingest" in out and "recall" in out
    for command in ("ingest", "recall", "stats", "sessions", "forget", "demo"):
        code, out, _ = run(command, "--help")
        assert code == 0 and "--help" in out
        if command != "demo":
            assert "--db" in out


def test_forget_asks_unless_yes(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    run("ingest", str(write(tmp_path / "s.jsonl", *GOOD)), "--db", db)
    code, _, _ = run("forget", "--session", "s", "--db", db, input="n\n")
    assert code == 1
    assert json.loads(run("stats", "--db", db, "--json")[1])["turns"] == 2
    code, out, _ = run("forget", "--session", "s", "--db", db, input="y\n")
    assert code == 0 and "forgot session 's' of user 'default': 2 turn(s)" in out
    assert json.loads(run("stats", "--db", db, "--json")[1])["turns"] == 0


def test_a_user_given_before_forget_never_silently_forgets_all_of_that_user(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    bob = [{**t, "user_id": "bob", "session_id": "s"} for t in GOOD]
    run("ingest", str(write(tmp_path / "bob.jsonl", *bob)), "--db", db)
    code, _, err = run("--user", "bob", "forget", "--yes", "--db", db)
    assert code == 2 and "`forget --user ID` does" in err
    assert json.loads(run("--user", "bob", "stats", "--db", db, "--json")[1])["turns"] == 2
    code, _, err = run("--user", "bob", "forget", "--session", "s", "--yes", "--db", db)
    assert code == 0 and "forgetting session 's' of user 'bob' in " in err  # whose data goes, even with --yes
    run("ingest", str(write(tmp_path / "bob2.jsonl", *bob)), "--db", db)
    code, out, err = run("forget", "--user", "bob", "--db", db, input="n\n")
    assert code == 1 and "Forget all of user 'bob' in " in out
    code, out, err = run("forget", "--user", "bob", "--yes", "--db", db)
    assert code == 0 and "forgetting all of user 'bob'" in err and "forgot all of user 'bob': 2 turn(s)" in out


def test_demo_ingests_the_sample_and_recalls(tmp_path: Path) -> None:
    code, out, _ = run("demo", "--db", str(tmp_path / "demo.db"))
    assert code == 0 and "Ingested the sample conversation" in out
    assert "slides" in out and "Airflow" in out
    # the correction superseded the old fact, offline; recall shows when the old value stopped being true
    assert re.search(r"\[fact · correction\] .*\(previously: 12, until \d{4}-\d\d-\d\d\)", " ".join(out.split()))
    assert "Where were we?" in out and "get quotes" in out  # the open loops (the user's own to-dos)


def test_sample_is_multi_session_and_ingestible(tmp_path: Path) -> None:
    rows = [json.loads(x) for x in sample_path().read_text().splitlines()]
    assert len(rows) >= 30 and len({r["session_id"] for r in rows}) >= 3
    code, out, _ = run("ingest", str(sample_path()), "--db", str(tmp_path / "m.db"))
    assert code == 0


def test_console_script_runs() -> None:
    out = subprocess.run([sys.executable, "-m", "episodic_memory", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and __version__ in out.stdout


# --- --db errors and read-only stores (issue 18, item 12) -------------------------------------------------------


def _store_with_turns(tmp_path: Path) -> str:
    db = str(tmp_path / "store" / "m.db")
    with Memory(db) as mem:
        mem.add_turn("user", "The Series B deck needs 12 slides", session_id="done", timestamp="2026-11-02T10:00:00Z")
        mem.end_session("done")
        mem.add_turn("user", "Still talking about the deck", session_id="idle", timestamp="2026-11-02T11:00:00Z")
    return db


@pytest.mark.sqlite_only("damages a SQLite file")
@pytest.mark.parametrize("case", ["not sqlite", "truncated", "newer schema", "empty path"])
def test_a_bad_db_is_one_clear_line_and_exit_1(tmp_path: Path, case: str) -> None:
    import sqlite3

    path = tmp_path / "bad.db"
    if case == "not sqlite":
        path.write_text("these are my notes, not a database\n")
    elif case == "truncated":
        path.write_bytes(Path(_store_with_turns(tmp_path)).read_bytes()[:5000])
    elif case == "newer schema":
        shutil.copy(_store_with_turns(tmp_path), path)
        with sqlite3.connect(path) as db:
            db.execute("INSERT INTO _migrations (version, name, applied_at) VALUES (999, 'future', 0)")
    for args in (["--db", "" if case == "empty path" else str(path), "stats"],
                 ["recall", "deck", "--db", "" if case == "empty path" else str(path)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        [line] = result.stderr.strip().splitlines()
        assert line.startswith("Error: ") and "Traceback" not in result.output
        assert {"not sqlite": "is not an episodic-memory store", "truncated": "is damaged",
                "newer schema": "written by a newer version", "empty path": "--db is empty"}[case] in line
    assert not (tmp_path / "default" / "memory.db").exists()  # an empty --db never falls back to the default store


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _read_commands_work(db: str) -> None:
    code, out, _ = run("stats", "--db", db, "--json")
    assert code == 0 and json.loads(out)["turns"] == 2
    code, out, _ = run("recall", "deck slides", "--db", db, "--json")
    assert code == 0 and any("12 slides" in h["text"] for h in json.loads(out))
    code, out, _ = run("sessions", "--db", db, "--json")
    assert code == 0 and {s["session_id"]: s["status"] for s in json.loads(out)} == {"done": "ended", "idle": "open"}
    code, out, _ = run("facts", "--db", db, "--json")
    assert code == 0 and json.loads(out)


@pytest.mark.sqlite_only("file permissions of a SQLite store (tests/postgres: a read-only PostgreSQL store)")
def test_read_commands_on_a_store_they_cannot_write_open_it_read_only(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Root writes through file modes, so this test says "not writable" itself; the next one uses real modes.
    db = _store_with_turns(tmp_path)
    before = _snapshot(Path(db).parent)
    monkeypatch.setattr("episodic_memory.commands._common.writable", lambda path: False)
    _read_commands_work(db)
    # nothing written: not the idle session's flag (mark_idle_sessions), no -wal/-shm, no lock file, same bytes
    assert _snapshot(Path(db).parent) == before


def _modes_bind(tmp_path: Path) -> bool:
    """Whether this process is held to file modes (root, with CAP_DAC_OVERRIDE, is not)."""
    probe = tmp_path / "probe"
    probe.write_text("")
    probe.chmod(0o444)
    try:
        probe.open("a").close()
    except PermissionError:
        return True
    return False


def test_read_commands_work_on_a_read_only_file_in_a_read_only_folder(tmp_path: Path) -> None:
    if not _modes_bind(tmp_path):
        pytest.skip("file modes do not bind this process (root): the test above covers it")
    db = _store_with_turns(tmp_path)
    folder = Path(db).parent
    before = _snapshot(folder)
    os.chmod(db, 0o444)
    os.chmod(folder, 0o555)
    try:
        _read_commands_work(db)
        assert _snapshot(folder) == before
    finally:
        os.chmod(folder, 0o755)


def test_recall_shows_a_short_reply_with_the_turn_it_answers(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    assert run("add", "Did you go to the pride parade last weekend?", "--speaker", "Melanie", "--session", "s1",
               "--db", db)[0] == 0
    assert run("add", "Yes! It was amazing, so many people showed up.", "--speaker", "Caroline", "--session", "s1",
               "--db", db)[0] == 0
    code, out, _ = run("recall", "so many people showed up", "-k", "1", "--db", db)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("[turn · user] #2 Caroline: Yes! It was amazing")
    assert "\n  ↳ replying to Melanie: “Did you go to the pride parade last weekend?”" in out and out.count("↳") == 1
    code, out, _ = run("recall", "so many people showed up", "-k", "2", "--db", db)
    assert "↳" not in out  # the question is a hit of its own: not said twice
    hits = json.loads(run("recall", "so many people showed up", "-k", "1", "--json", "--db", db)[1])
    assert len(hits) == 1  # --json is the hits as they are
