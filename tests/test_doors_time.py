"""Issue 18, item 2: a time outside the years 1–9999 in UTC is refused at every door, and a stored one (written
before the doors checked, or by hand) never breaks reading, recall or consolidation."""

from __future__ import annotations

import logging
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from episodic_memory import Config, Memory
from episodic_memory.util import to_datetime, to_epoch, to_iso

pytestmark = pytest.mark.sqlite_only("writes out-of-range times into the SQLite file itself")

YEAR_10000 = "9999-12-31T23:59:59-14:00"  # a valid ISO-8601 date-time, but the year 10000 in UTC
YEAR_0 = "0001-01-01T00:00:00+14:00"      # the year 0 in UTC
CONTENTS = ["I will send Sarah the deck by Friday", "The launch moves to next week, in 5 days",
            "Tomorrow we review the budget", "Maya joined Acme on 30 November", "The deck needs 14 slides"]


@pytest.mark.parametrize("value", [YEAR_10000, YEAR_0, datetime.fromisoformat(YEAR_10000), 253402351199,
                                   float("inf"), float("nan"), -1e20])
def test_times_outside_years_1_to_9999_in_utc_are_refused(value: object) -> None:
    with pytest.raises(ValueError, match="timestamp"):
        to_epoch(value)  # type: ignore[arg-type]


def test_the_edges_of_the_range_are_accepted() -> None:
    assert to_iso(to_epoch("9999-12-31T23:59:59+00:00")) == "9999-12-31T23:59:59+00:00"
    assert to_iso(to_epoch("0001-01-01T00:00:00+00:00")) == "0001-01-01T00:00:00+00:00"


def test_memory_refuses_a_far_future_turn_and_stores_nothing(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as mem:
        with pytest.raises(ValueError, match=r"turn 1: timestamp: 9999-12-31T23:59:59-14:00 is outside"):
            mem.add_turns([{"role": "user", "content": "fine", "session_id": "s"},
                           {"role": "user", "content": "late", "session_id": "s", "timestamp": YEAR_10000}])
        assert mem.stats()["turns"] == 0


@pytest.mark.parametrize("epoch", [253402351199.0, -62135647200.0, float("inf"), 1e300])
def test_a_stored_time_out_of_range_reads_as_the_nearest_end(epoch: float) -> None:
    moment = to_datetime(epoch)
    assert moment is not None and moment.year in (1, 9999) and moment.tzinfo is not None
    assert to_iso(epoch) == moment.isoformat()


def set_times(db: Path, epoch: float) -> None:
    """What an older version let in: every time of the store at `epoch` (SQL by hand, as a bad row would be)."""
    with sqlite3.connect(db) as con:
        con.execute("UPDATE turns SET ts = ?", (epoch,))
        con.execute("UPDATE sessions SET started_at = ?, last_turn_at = ?, needs_consolidation = 1", (epoch, epoch))
    con.close()


@pytest.mark.parametrize("epoch", [253402351199.0, 253402214400.0, -62135647200.0])  # year 10000, 9999-12-30, year 0
def test_reading_and_consolidating_never_crash_on_a_stored_out_of_range_time(
        tmp_path: Path, epoch: float, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "m.db"
    config = Config(models={"embedder": "off"}, capture={"consolidate_every": 100, "consolidate_on_open": False})
    with Memory(db, config=config) as mem:
        mem.add_turns([{"role": "user", "content": c, "session_id": "s1"} for c in CONTENTS])
    set_times(db, epoch)
    with caplog.at_level(logging.WARNING), Memory(db, config=config) as mem:
        assert mem.consolidate(mem.user_id, "s1", final=True)  # no step failed on the dates
        assert [s.to_dict()["started_at"][:4] for s in mem.sessions()] in (["9999"], ["0001"])
        assert mem.recall("deck slides") and all(h.to_dict() for h in mem.recall("deck slides"))
        assert [e.to_dict() for e in mem.episodes()]
        assert all(f.to_dict() for f in mem.facts()) and all(x.to_dict() for x in mem.loops(status="all"))
        assert "Briefing" in mem.brief(hours=24).render()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], [r.getMessage() for r in caplog.records]


def test_a_day_beyond_the_calendar_resolves_to_none() -> None:
    from episodic_memory.consolidate.when import resolve_when

    assert resolve_when("the migration is done in 99999999 days", datetime(2026, 1, 5)) is None
    assert resolve_when("see you next week", datetime(9999, 12, 30)) is None
