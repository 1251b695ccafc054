"""The startup briefing: the window's sessions, decisions and corrections, open loops, active workstreams."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Memory
from episodic_memory.cli import main
from episodic_memory.ingest import parse_file, sample_path
from episodic_memory.store.records import NewFact

from .fakes import T0, HashingEmbedder
from .fakes import play_session as session

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL


def fact(mem: Memory, sid: str, type_: str, text: str, day: float) -> None:
    mem.store.insert_fact(NewFact(
        user_id="default", session_id=sid, type=type_, text=text, route="durable", salience=0.8, confidence=0.9,
        event_ts=None, created_at=(T0 + timedelta(days=day)).timestamp(), source_ids=[], origin=f"{sid}{text}",
        extractor="rules"))


@pytest.fixture
def mem():
    with Memory(":memory:", embedder=HashingEmbedder(dim=256)) as m:
        session(m, "old", ["The Northgate deck needs twelve slides, traction first.",
                           "Remind me to send the Northgate deck to Sarah by Friday."], day=0)
        session(m, "new", ["Northgate deck: fourteen slides now, traction first, Sarah has the deck."], day=10)
        session(m, "bob", ["Remind me to buy apples by Sunday."], day=10, user_id="bob")
        fact(m, "old", "decision", "Maya decided the deck has twelve slides", day=0)
        fact(m, "new", "decision", "Maya decided to keep traction first", day=10)
        fact(m, "new", "correction", "The deck has fourteen slides, not twelve", day=10)
        fact(m, "new", "preference", "Maya prefers bullet points", day=10)
        yield m


def test_the_window_holds_its_sessions_decisions_and_corrections(mem: Memory) -> None:
    now = T0 + timedelta(days=10, hours=2)
    brief = mem.brief(hours=24, now=now)
    assert [s["session_id"] for s in brief.sessions] == ["new"]
    assert brief.sessions[0]["summary"] and "fourteen slides" in brief.sessions[0]["summary"]
    assert [d["text"] for d in brief.decisions] == ["Maya decided to keep traction first"]
    # the rules read "fourteen slides now" as a change too: both corrections are the window's
    assert [c["text"] for c in brief.corrections] == ["The deck has fourteen slides, not twelve",
                                                      "Fourteen slides now, traction first, Sarah has the deck."]
    assert [lp.text for lp in brief.open_loops] == ["send the Northgate deck to Sarah by Friday"]  # open: any age
    [ws] = brief.workstreams
    assert ws.status == "confirmed" and ws.sessions == 2
    wider = mem.brief(hours=24 * 11, now=now)
    assert [s["session_id"] for s in wider.sessions] == ["new", "old"]
    assert len(wider.decisions) == 2
    data = json.loads(json.dumps(brief.to_dict()))
    assert set(data) == {"user_id", "hours", "since", "until", "sessions", "decisions", "corrections", "open_loops",
                         "workstreams", "pinned"}
    text = brief.render()
    for header in ("Sessions (1)", "Decisions (1)", "Corrections (2)", "Open loops (1)", "Active workstreams (1)"):
        assert header in text
    assert "send the Northgate deck to Sarah by Friday" in text and str(brief) == text


def test_workstreams_quiet_for_longer_than_active_days_are_not_active(mem: Memory) -> None:
    assert mem.brief(now=T0 + timedelta(days=10 + 13)).workstreams
    assert mem.brief(now=T0 + timedelta(days=10 + 15)).workstreams == []


def test_a_window_longer_than_active_days_shows_the_workstreams_active_in_it(mem: Memory) -> None:
    now = T0 + timedelta(days=10 + 19)  # last active 19 days ago: beyond workstream_active_days (14)
    [ws] = mem.brief(hours=720, now=now).workstreams
    assert ws.sessions == 2
    assert mem.brief(hours=24 * 18, now=now).workstreams == []


def test_each_user_gets_their_own(mem: Memory) -> None:
    brief = mem.brief(hours=24, user_id="bob", now=T0 + timedelta(days=10, hours=1))
    assert [s["session_id"] for s in brief.sessions] == ["bob"]
    assert [lp.text for lp in brief.open_loops] == ["buy apples by Sunday"]
    assert brief.decisions == [] and brief.workstreams == []


@pytest.mark.parametrize("hours", [0, -3, "24", True, float("nan")])
def test_hours_must_be_a_positive_number(mem: Memory, hours: object) -> None:
    with pytest.raises(ValueError, match="hours must be a positive number"):
        mem.brief(hours=hours)  # type: ignore[arg-type]


def test_the_cli(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    with Memory(db, embedder=HashingEmbedder()) as m:
        m.add_turn("user", "Remind me to renew the lease by Friday.", session_id="s1")   # now: inside 24 hours
        m.end_session("s1")
    runner = CliRunner()
    result = runner.invoke(main, ["brief", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [s["session_id"] for s in data["sessions"]] == ["s1"] and data["hours"] == 24
    assert [lp["text"] for lp in data["open_loops"]] == ["renew the lease by Friday"]
    text = runner.invoke(main, ["brief", "--db", db, "--hours", "2"]).output
    assert "Briefing: the last 2 hours" in text and "renew the lease by Friday" in text
    assert runner.invoke(main, ["brief", "--db", db, "--hours", "0"]).exit_code == 2


def test_the_bundled_sample_with_the_bundled_embedder(tmp_path: Path) -> None:
    """The default path (MiniLM thread vectors): the four sample sessions make one confirmed workstream."""
    with Memory(tmp_path / "m.db") as mem:
        parsed = parse_file(str(sample_path()))
        mem.add_turns(parsed.turns)
        for sid in ("s1", "s2", "s3", "s4"):
            mem.end_session(sid)
        brief = mem.brief(hours=24 * 7, now="2026-11-26T09:00:00Z")
        assert [s["session_id"] for s in brief.sessions] == ["s4"]
        [ws] = brief.workstreams
        assert ws.sessions == 4 and ws.open_loops == 3    # the sensitivity-table recap is the assistant's: no loop
        assert {lp.text for lp in brief.open_loops} >= {"decide on the Airflow hosting",
                                                       "book the Lisbon–London flight tonight"}
        assert all(lp.workstream == ws.name for lp in brief.open_loops)
