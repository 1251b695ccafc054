"""Issue 42, item 5 ("Output and small snags"): recall prints the ids and roles `show` takes, a read of a missing
store is an error, a rejected ingest says only why, readable ranges in help, `SessionBuffer` takes a source, the
sessions table keeps its times whole."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Memory
from episodic_memory.cli import main
from episodic_memory.config import Config
from episodic_memory.session_buffer import SessionBuffer


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner(env=env).invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def add(db: str, text: str, *extra: str) -> str:
    code, out, _ = run("add", text, "--session", "s1", "--db", db, *extra)
    assert code == 0
    return out.split()[0]


def test_recall_prints_the_turn_id_and_role_that_show_takes(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    add(db, "Did the kayak rental open yet?", "--speaker", "Ana")
    add(db, "The kayak rental opens on Saturday at nine.", "--role", "assistant")
    hits = json.loads(run("recall", "opens on Saturday at nine", "--kind", "turn", "-k", "1", "--json", "--db", db)[1])
    number = hits[0]["id"].removeprefix("turn:")
    assert hits[0]["id"] == f"turn:{number}" and hits[0]["role"] == "assistant"
    code, out, _ = run("recall", "opens on Saturday at nine", "--kind", "turn", "-k", "1", "--db", db)
    assert code == 0
    assert out.startswith(f"[turn · assistant] #{number} The kayak rental opens on Saturday"), out
    for ref in (number, f"#{number}", f"turn:{number}"):  # what recall prints, and the id from --json
        code, out, err = run("show", ref, "--db", db)
        assert code == 0 and "The kayak rental opens on Saturday at nine." in out, (ref, err)
        assert "Did the kayak rental open yet?" not in out
    code, _, err = run("show", "turn:999", "--db", db)
    assert code == 1 and "no turn 'turn:999'" in err


def test_show_a_number_finds_the_caller_id_and_the_numbered_turn(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    with Memory(db) as mem:
        mem.add_turn("user", "first words", session_id="s1", turn_id="2")
        mem.add_turn("user", "second words", session_id="s1", turn_id="x")
    code, out, _ = run("show", "2", "--db", db)  # caller id "2" is turn 1; turn #2 is "second words": both
    assert code == 0 and "first words" in out and "second words" in out
    code, out, _ = run("show", "turn:2", "--db", db)  # a hit's id: the numbered turn only
    assert code == 0 and "second words" in out and "first words" not in out
    code, _, err = run("show", "²", "--db", db)  # a digit to str.isdigit, not a number: no turn, no traceback
    assert code == 1 and "no turn '²'" in err


@pytest.mark.parametrize("args", [["recall", "deck"], ["stats"], ["sessions"], ["brief"], ["facts"], ["show", "1"],
                                  ["loops"]])
def test_a_read_command_on_a_missing_store_is_an_error_naming_it(tmp_path: Path, args: list[str]) -> None:
    missing = tmp_path / "mistyped.db"
    code, out, err = run(*args, "--db", str(missing))
    assert code == 2 and f"no memory store at {missing}" in err and "--db" in err
    assert "no memories matched" not in out
    assert not missing.exists()  # nothing created
    code, _, err = run("--db", str(missing), *args)  # --db before the command: the same
    assert code == 2 and f"no memory store at {missing}" in err and not missing.exists()
    code, _, err = run(*args, env={"EPISODIC_DB": str(missing)})
    assert code == 2 and f"no memory store at {missing}" in err and "EPISODIC_DB" in err and not missing.exists()


@pytest.mark.parametrize("args", [["export", "{tmp}/out.jsonl"], ["backup", "{tmp}/copy.db"], ["judge", "list"],
                                  ["judge", "search", "deck"], ["judge", "export"]])
def test_export_backup_and_judgment_reads_refuse_a_missing_store(tmp_path: Path, args: list[str]) -> None:
    missing = tmp_path / "mistyped.db"
    code, _, err = run(*[a.format(tmp=tmp_path) for a in args], "--db", str(missing))
    assert code == 2 and f"no memory store at {missing}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no store, no empty export or backup


def test_a_read_command_on_an_existing_store_still_works(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    add(db, "The deck needs 12 slides")
    assert run("recall", "deck", "--db", db)[0] == 0
    empty = str(tmp_path / "empty.db")
    Memory(empty).close()
    code, out, _ = run("recall", "deck", "--db", empty)
    assert code == 0 and "no memories matched" in out


def test_a_rejected_ingest_prints_its_errors_and_no_success_line(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"role": "user"}\n{oops\n')
    code, out, err = run("ingest", str(bad), "--db", db)
    assert code == 1 and "ingested" not in out and "consolidated" not in out
    assert f"{bad}:1: missing required field 'content'" in err and "nothing from this file was stored" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    code, out, err = run("ingest", str(empty), "--db", db)
    assert code == 1 and "ingested" not in out and "no turns" in err
    good = tmp_path / "good.jsonl"  # a good file beside a bad one: its line stays
    good.write_text(json.dumps({"role": "user", "content": "The deck needs 12 slides"}) + "\n")
    code, out, err = run("ingest", str(good), str(bad), "--db", db)
    assert code == 1 and "ingested 1 turn(s) in 1 session(s)" in out and "nothing from this file" in err


@pytest.mark.parametrize("args", [["recall"], ["sessions"], ["loops"], ["judge", "search"]])
def test_help_shows_a_readable_range(args: list[str]) -> None:
    code, out, _ = run(*args, "--help")
    assert code == 0 and "9223372036854775807" not in out and "INTEGER RANGE" not in out
    if args == ["recall"]:
        assert re.search(r"-k INTEGER\s+How many memories\.\s+\[default: 10; x>=1\]", " ".join(out.split()))


def test_counts_are_still_bounded(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    add(db, "deck")
    code, _, err = run("recall", "deck", "-k", "0", "--db", db)
    assert code == 2 and "0 is not in the range x>=1" in err
    code, _, err = run("recall", "deck", "-k", "9223372036854775808", "--db", db)
    assert code == 2 and "is not in the range 1<=x<=9223372036854775807" in err


def test_session_buffer_takes_a_source_and_tags(tmp_path: Path) -> None:
    with Memory(str(tmp_path / "m.db"), config=Config(models={"embedder": "off"})) as mem:
        buffer = SessionBuffer("s1", memory=mem)
        buffer.append_turn("user", "The kayak rental opens on Saturday", source="telegram", tags=["trip"])
        buffer.append_turn("user", "No source on this one")
        with pytest.raises(TypeError, match="unexpected metadata: colour"):
            buffer.append_turn("user", "x", colour="red")
        [hit] = mem.recall("kayak rental", source="telegram", kind="turn")
        assert hit.source == "telegram" and hit.tags == ["trip"]
        assert [h.text for h in mem.recall("kayak rental", tags=["trip"], kind="turn")] == [hit.text]


def test_the_sessions_table_keeps_its_times_whole_at_80_columns(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    with Memory(db) as mem:
        mem.add_turn("user", "hello", session_id="a-rather-long-session-name-from-telegram-2026-11-02",
                     timestamp="2026-11-02T10:00:00+00:00")
        mem.add_turn("user", "again", session_id="a-rather-long-session-name-from-telegram-2026-11-02",
                     timestamp="2026-11-03T18:45:00+00:00")
    code, out, _ = run("sessions", "--db", db, env={"COLUMNS": "80"})
    assert code == 0 and "2026-11-02 10:00" in out and "2026-11-03 18:45" in out, out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_serve_without_a_fitting_token_says_which_user_to_make_one_for(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("fastapi")
    monkeypatch.setattr("episodic_memory.server.rest.serve", lambda path, **kw: None)  # `ui` starts it the same way
    db = str(tmp_path / "m.db")
    add(db, "The deck needs 12 slides")  # the memories of user 'default'
    code, _, err = run("serve", "--port", "9999", "--db", db)
    assert code == 0 and "no API tokens yet" in err
    assert f"belong to user 'default': create a token with `episodic token create --user default --db {db}`" in err
    assert run("token", "create", "--user", "alice", "--db", db)[0] == 0  # a token, but for nobody with memories
    code, _, err = run("serve", "--port", "9999", "--db", db)
    assert code == 0 and "no API token acts as a user with memories here ('default')" in err
    assert "`episodic token create --user default --db" in err
    assert run("token", "create", "--user", "default", "--db", db)[0] == 0
    code, _, err = run("serve", "--port", "9999", "--db", db)
    assert code == 0 and "token create" not in err


def test_the_forget_checkbox_sits_beside_its_label() -> None:
    """The card forms stretch their inputs to 420px; a checkbox so stretched sat far from "Yes, forget it"."""
    ui = Path(__file__).parents[1] / "src" / "episodic_memory" / "server" / "ui"
    css = (ui / "static" / "inspector.css").read_text()
    stretched = re.search(r"^(form\.card input[^{]*)\{[^}]*width: 100%", css, re.M)
    assert stretched and ":not([type=checkbox])" in stretched.group(1)
    assert re.search(r"^label\.check \{[^}]*display: flex", css, re.M)
    assert '<label class="check"><input type="checkbox" name="confirm"' in (ui / "templates" / "fact.html").read_text()


def test_the_briefing_counts_the_window_its_panels_list(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("jinja2")
    from datetime import datetime, timedelta, timezone

    from fastapi.testclient import TestClient

    from episodic_memory.server.rest import create_app

    db = tmp_path / "m.db"
    old = (datetime.now(timezone.utc) - timedelta(days=10)).isoformat()
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        for i in range(3):
            mem.add_turn("user", f"old words {i}", session_id="old", timestamp=old)
        mem.add_turn("user", "The deck needs 12 slides", session_id="new")
        mem.end_session("old", wait=True)
        mem.end_session("new", wait=True)
    with TestClient(create_app(db, auth=False, config=Config(models={"embedder": "off"}))) as client:
        day = " ".join(client.get("/", params={"hours": 24}).text.split())
        month = " ".join(client.get("/", params={"hours": 720}).text.split())
    assert "<strong>1</strong> sessions <span class=\"muted\">of 2 in all</span>" in day
    assert "<strong>1</strong> turns in them <span class=\"muted\">of 4</span>" in day
    assert "<strong>2</strong> sessions <span class=\"muted\">of 2 in all</span>" in month
    assert "<strong>4</strong> turns in them" in month
