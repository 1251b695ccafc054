"""`episodic migrate`: a whole store to another backend and back, checked by counts and recall (issue 20)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.capture.journal import Journal
from episodic_memory.cli import main
from episodic_memory.memory import journal_dir_for
from episodic_memory.store.records import TurnRecord

pytestmark = pytest.mark.both_backends  # the destination (db_path) is a SQLite file, then a PostgreSQL database


@pytest.fixture(autouse=True)
def _files_stay_files(request: pytest.FixtureRequest) -> None:
    from .postgres.fixtures import everything_on_postgres

    if everything_on_postgres(request.config):
        pytest.skip("the source and the copy back are SQLite files by design (both backends run in the default mode)")

CONFIG = Config(models={"embedder": "off"})
ENV = {"EPISODIC_MODELS__EMBEDDER": "off"}


def _fill(path: Path) -> None:
    with Memory(path, config=CONFIG) as mem:
        for user, day in (("maya", 1), ("sam", 2)):
            mem.add_turn("user", "The deck has 12 slides for the Northgate pitch.", session_id="a", user_id=user,
                         timestamp=f"2026-03-0{day}T10:00:00Z", turn_id="a-0")
            mem.add_turn("user", "Remind me to send the deck to Sarah on Friday.", session_id="a", user_id=user,
                         timestamp=f"2026-03-0{day}T10:01:00Z")
            mem.end_session("a", user_id=user)
            mem.add_turn("user", "Actually it's 14 not 12 for the Northgate deck.", session_id="b", user_id=user,
                         timestamp=f"2026-03-0{day + 3}T10:00:00Z")
            mem.end_session("b", user_id=user)
        mem.judgments.store("the build is flaky", "rerun with the cache cleared", "it worked twice")
    # a turn a crashed writer journaled but never stored: the source's open replays it, so it travels too
    journal = Journal(journal_dir_for(path))
    journal.append(journal.relative_path("maya", "c"), [TurnRecord(
        uid="crashed-1", user_id="maya", session_id="c", seq=0, role="user", ts=1_773_000_000.0,
        ingested_at=1_773_000_000.0, content="The walrus count at the zoo is seven.")])


def _snapshot(store: str | Path, user: str) -> dict[str, object]:
    with Memory(store, config=CONFIG.replace({"capture.consolidate_on_open": False})) as mem:
        facts = mem.facts(user_id=user, include_superseded=True)
        return {
            "turns": sorted((t.session_id, t.seq, t.content, t.turn_id) for s in mem.sessions(user_id=user)
                            for t in mem.session_turns(s.session_id, user_id=user)),
            "facts": sorted((f.text, f.current) for f in facts),
            "history": sorted(" / ".join(h.text for h in mem.fact_history(f.id, user_id=user))
                              for f in facts if f.current),
            "episodes": sorted(e.summary for e in mem.episodes(user_id=user)),
            "loops": sorted(lp.text for lp in mem.loops(user_id=user, status="all")),
        }


def test_migrate_to_the_other_backend_and_back_loses_nothing(tmp_path: Path, db_path: Path | str) -> None:
    source, back = tmp_path / "source.db", tmp_path / "back.db"
    _fill(source)
    runner = CliRunner()
    there = runner.invoke(main, ["migrate", "--from", str(source), "--to", str(db_path)], env=ENV)
    assert there.exit_code == 0, there.output
    assert "migrated 2 user(s)" in there.output and "recall check: 5/5" in there.output
    home = runner.invoke(main, ["migrate", "--from", str(db_path), "--to", str(back)], env=ENV)
    assert home.exit_code == 0, home.output
    for user in ("maya", "sam"):
        want = _snapshot(source, user)
        assert want["facts"] and any("14" in h for h in want["history"])  # something to lose
        assert _snapshot(db_path, user) == want
        assert _snapshot(back, user) == want
    assert any("walrus" in t[2] for t in _snapshot(back, "maya")["turns"])  # type: ignore[union-attr]
    with Memory(back, config=CONFIG, user_id="default") as mem:
        assert [j.judgment for j in mem.judgments.list_judgments()] == ["rerun with the cache cleared"]


def test_migrating_twice_adds_nothing_the_second_time(tmp_path: Path, db_path: Path | str) -> None:
    source = tmp_path / "source.db"
    _fill(source)
    runner = CliRunner()
    assert runner.invoke(main, ["migrate", "--from", str(source), "--to", str(db_path)], env=ENV).exit_code == 0
    again = runner.invoke(main, ["migrate", "--from", str(source), "--to", str(db_path)], env=ENV)
    assert again.exit_code == 0, again.output
    assert "added" in again.output and "nothing added" in again.output
    assert _snapshot(db_path, "maya") == _snapshot(source, "maya")


@pytest.mark.sqlite_only("checks the arguments only")
def test_migrate_refuses_a_missing_source_and_the_same_store(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["migrate", "--from", str(tmp_path / "nope.db"), "--to", str(tmp_path / "x.db")])
    assert missing.exit_code == 2 and "nope.db: no such file" in missing.output
    same = runner.invoke(main, ["migrate", "--from", "a.db", "--to", "a.db"])
    assert same.exit_code == 2 and "same store" in same.output
    assert not (tmp_path / "x.db").exists()


def test_the_export_format_carries_what_migrate_compares() -> None:
    """Every kind `migrate` compares is a kind the export writes (a new kind must be added to both)."""
    from episodic_memory.migrate import COMPARED
    from episodic_memory.portable import KINDS

    assert {k.rstrip("s").replace("entitie", "entity") for k in COMPARED} <= set(KINDS)
