"""Issue 18 at the command line: forget of an unknown session, closing a closed loop, a query with nothing to
search for, ids and counts beyond SQLite's integers, far-future times; each a clear message and exit code."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main

TOO_BIG = "9223372036854775808"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False, env={"EPISODIC_MODELS__EMBEDDER": "off"})
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "m.db"
    with Memory(path, config=Config(models={"embedder": "off"})) as mem:
        mem.add_turn("user", "I will send Sarah the revised deck by Friday", session_id="s1")
        mem.end_session("s1")
    return str(path)


def test_forgetting_an_unknown_session_says_so_and_exits_1(db: str) -> None:
    code, out, err = run("forget", "--session", "nope", "--yes", "--db", db)
    assert code == 1 and "no session 'nope' for user 'default'" in err and "forgot" not in out
    code, out, _ = run("forget", "--session", "s1", "--yes", "--db", db)
    assert code == 0 and "1 turn(s)" in out


def test_closing_a_closed_loop_says_it_was_already_closed(db: str) -> None:
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        (loop,) = mem.loops()
    code, out, _ = run("loop", "close", str(loop.id), "--db", db)
    assert code == 0 and f"closed #{loop.id} by hand" in out
    code, out, _ = run("loop", "close", str(loop.id), "--db", db)
    assert code == 0 and f"#{loop.id} was already closed by hand, just now" in out


@pytest.mark.parametrize("query", ["", "   ", "???"])
def test_a_query_with_nothing_to_search_for_is_a_usage_error(db: str, query: str) -> None:
    code, _, err = run("recall", query, "--db", db)
    assert code == 2 and "has nothing to search for" in err


@pytest.mark.parametrize("args", [["recall", "deck", "-k", TOO_BIG], ["sessions", "-n", TOO_BIG],
                                  ["history", TOO_BIG], ["loop", "close", TOO_BIG], ["token", "revoke", TOO_BIG],
                                  ["judge", "search", "deck", "-k", TOO_BIG], ["history", "0"]])
def test_ids_and_counts_are_bounded(db: str, args: list[str]) -> None:
    code, _, err = run(*args, "--db", db)
    assert code == 2 and "is not in the range" in err


@pytest.mark.sqlite_only("writes an out-of-range time into the SQLite file itself")
def test_a_far_future_time_is_a_bad_line_and_a_stored_one_still_lists(db: str, tmp_path: Path) -> None:
    file = tmp_path / "late.jsonl"
    file.write_text(json.dumps({"role": "user", "content": "x", "timestamp": "9999-12-31T23:59:59-14:00"}) + "\n")
    code, _, err = run("ingest", str(file), "--db", db)
    assert code == 1 and f"{file}:1: field 'timestamp': 9999-12-31T23:59:59-14:00 is outside the years 1–9999" in err
    code, _, err = run("recall", "deck", "--since", "9999-12-31T23:59:59-14:00", "--db", db)
    assert code == 2 and "outside the years 1–9999" in err
    with sqlite3.connect(db) as con:  # what an older version let in
        con.execute("UPDATE sessions SET started_at = 253402351199, last_turn_at = 253402351199")
        con.execute("UPDATE turns SET ts = 253402351199")
    con.close()
    for args in (["sessions"], ["sessions", "--json"], ["recall", "deck"], ["brief"], ["loops"]):
        code, out, err = run(*args, "--db", db)
        assert code == 0, (args, err)
