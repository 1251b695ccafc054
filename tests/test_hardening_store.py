"""Issue 18, the storage half: each defect found by fault injection, reproduced (see also tests/faults/)."""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.faults import ENV, FaultInjected
from episodic_memory.memory import journal_dir_for
from episodic_memory.store import is_postgres_url

from .postgres.fixtures import all_rows_text

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL
JOURNAL = "reads the JSONL journal, which a PostgreSQL store does not keep"
READER = "a SQLite reader holding the WAL back; PostgresStore.scrub's wait on snapshots is its own"

def test_a_failed_add_turn_retried_with_its_turn_id_is_stored_once(db_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal line was fsynced, the SQLite write failed; the retry (after recovery replayed it, or not)
    must not store a second row."""
    with Memory(db_path) as mem:
        mem.add_turn("user", "first", session_id="s", turn_id="t0")
        monkeypatch.setenv(ENV, "capture.after_journal:raise")
        with pytest.raises(FaultInjected):
            mem.add_turn("user", "the deck needs 14 slides", session_id="s", turn_id="t1")
        monkeypatch.delenv(ENV)
        assert mem.add_turn("user", "the deck needs 14 slides", session_id="s", turn_id="t1") == "t1"
        assert [t.turn_id for t in mem.session_turns("s")] == ["t0", "t1"]
    with Memory(db_path) as mem:  # recovery replays nothing twice, and a retry after it neither
        assert mem.add_turn("user", "the deck needs 14 slides", session_id="s", turn_id="t1") == "t1"
        assert [t.turn_id for t in mem.session_turns("s")] == ["t0", "t1"]
        assert [t.seq for t in mem.session_turns("s")] == [0, 1]


@pytest.mark.sqlite_only(JOURNAL)
def test_a_corrupt_journal_line_does_not_make_two_turns_share_a_seq(db_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory(db_path) as mem:
        mem.add_turn("user", "zero", session_id="s")
        monkeypatch.setenv(ENV, "capture.after_journal:raise")  # two lines journaled, never stored (a crash)
        with pytest.raises(FaultInjected):
            mem.add_turns([{"role": "user", "content": text, "session_id": "s"} for text in ("one", "two")])
        monkeypatch.delenv(ENV)
    journal = next(journal_dir_for(db_path).glob("*/*.jsonl"))
    lines = journal.read_bytes().splitlines(keepends=True)
    assert json.loads(lines[1])["content"] == "one"
    lines[1] = b"{\"uid\": garbage" + b" " * (len(lines[1]) - 16) + b"\n"  # a bit flip: the line no longer parses
    journal.write_bytes(b"".join(lines))
    with Memory(db_path) as mem:
        mem.add_turn("user", "three", session_id="s")
        turns = mem.session_turns("s")
        assert [t.content for t in turns] == ["zero", "two", "three"]
        seqs = [t.seq for t in turns]
        assert len(set(seqs)) == len(seqs) and seqs == sorted(seqs)


CANARY = "zqxcanaryvortex"


def _bytes_everywhere(db_path: Path) -> bytes:
    if is_postgres_url(str(db_path)):  # every row as text: a server's files are not the client's to read
        return all_rows_text(str(db_path))
    blobs = [p.read_bytes() for p in db_path.parent.glob(db_path.name + "*") if p.is_file()]
    blobs += [p.read_bytes() for p in journal_dir_for(db_path).rglob("*") if p.is_file()]
    return b"".join(blobs)


def _reader(db_path: Path) -> sqlite3.Connection:
    """Another process's reader in the middle of a transaction: it pins the WAL's old pages."""
    reader = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM turns").fetchall()
    return reader


@pytest.mark.sqlite_only(READER)
def test_forget_waits_for_a_reader_to_let_go_of_the_deleted_bytes(db_path: Path) -> None:
    config = Config(models={"embedder": "off"}, store={"busy_timeout_ms": 200, "forget_scrub_wait_s": 10})
    with Memory(db_path, config=config) as mem:
        mem.add_turn("user", f"secret {CANARY}", session_id="secret")
        mem.add_turn("user", "ordinary chatter", session_id="other")
        reader = _reader(db_path)
        threading.Timer(0.5, reader.commit).start()
        result = mem.forget(session_id="secret")
        reader.close()
        assert result["turns"] == 1 and result["scrubbed"] == 1
        assert CANARY.encode() not in _bytes_everywhere(db_path)


@pytest.mark.sqlite_only(READER)
def test_forget_reports_bytes_a_reader_still_holds_and_scrubs_them_at_the_next_open(
        db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = Config(models={"embedder": "off"}, store={"busy_timeout_ms": 200, "forget_scrub_wait_s": 0.3})
    with Memory(db_path, config=config) as mem:
        mem.add_turn("user", f"secret {CANARY}", session_id="secret")
        reader = _reader(db_path)
        with caplog.at_level(logging.WARNING):
            result = mem.forget(session_id="secret")
        assert result["turns"] == 1 and result["scrubbed"] == 0
        assert "bytes may remain" in caplog.text
        assert mem.recall(CANARY) == []  # the rows are gone all the same
        caplog.clear()
        with caplog.at_level(logging.WARNING):  # a write does not wait on the scrub again (that is for the open)
            mem.add_turn("user", "ordinary chatter", session_id="other")
        assert "finishing a forget" not in caplog.text
        reader.close()
    with Memory(db_path, config=config) as mem:
        assert mem.last_recovery.forgets_finished == 1
    assert CANARY.encode() not in _bytes_everywhere(db_path)
    assert not list((journal_dir_for(db_path) / "forgetting").glob("*"))


@pytest.mark.sqlite_only(READER)
def test_the_cli_says_when_forget_could_not_scrub_the_bytes(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EPISODIC_MODELS__EMBEDDER", "off")
    monkeypatch.setenv("EPISODIC_STORE__BUSY_TIMEOUT_MS", "200")
    monkeypatch.setenv("EPISODIC_STORE__FORGET_SCRUB_WAIT_S", "0.2")
    with Memory(db_path, config=Config.from_env()) as mem:
        mem.add_turn("user", f"secret {CANARY}", session_id="secret")
    reader = _reader(db_path)
    result = CliRunner().invoke(main, ["forget", "--session", "secret", "--yes", "--db", str(db_path)])
    reader.close()
    assert result.exit_code == 0, result.output
    assert "may still be in" in result.output


def test_turns_added_after_end_session_are_consolidated(db_path: Path) -> None:
    config = Config(models={"embedder": "off"}, capture={"consolidate_on_open": False, "consolidate_in_background": "off"})
    with Memory(db_path, config=config) as mem:
        mem.add_turn("user", "We decided to ship the beta on Friday.", session_id="s")
        mem.end_session("s", wait=True)
        mem.add_turn("user", "Maya Okafor will own the release notes.", session_id="s")
        info = mem.store.session("default", "s")
        assert info is not None and info.turn_count == 2
        assert info.needs_consolidation or info.consolidated_turns == 2
    with Memory(db_path, config=config.replace({"capture.consolidate_on_open": True})) as mem:
        info = mem.store.session("default", "s")
        assert info is not None and info.consolidated_turns == 2 and not info.needs_consolidation
        assert any("release notes" in f.text for f in mem.facts())


def test_a_late_turn_is_flagged_even_when_the_process_dies_before_consolidating_it(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = Config(models={"embedder": "off"}, capture={"consolidate_on_open": False, "consolidate_in_background": "off"})
    with Memory(db_path, config=config) as mem:
        mem.add_turn("user", "We decided to ship the beta on Friday.", session_id="s")
        mem.end_session("s", wait=True)
        monkeypatch.setenv(ENV, "consolidate.after_step:raise")  # the late turn's consolidation does not finish
        with contextlib.suppress(FaultInjected):
            mem.add_turn("user", "Maya Okafor will own the release notes.", session_id="s")
        monkeypatch.delenv(ENV)
    with Memory(db_path, config=config) as mem:
        assert mem.store.sessions_needing_consolidation() == [("default", "s")]


def test_forgetting_a_session_takes_the_names_only_it_taught(db_path: Path) -> None:
    """"Quillon" is known from session a; session b taught its full name "Quillon Zqxvortex" (the entity was
    renamed to it) and the alias "Tomás": forgetting b takes both out of entities, aliases, profiles and bytes."""
    with Memory(db_path, config=Config(models={"embedder": "off"})) as mem:
        for text in ("I'm working with Tomás Ferreira on the Quillon pilot.",
                     "Tomás Ferreira decided the Quillon pilot starts in March."):
            mem.add_turn("user", text, session_id="a")
        mem.end_session("a", wait=True)
        for text in ("Tomás signed the contract with Quillon Zqxvortex yesterday.",
                     "Tomás decided we ship the Quillon Zqxvortex pilot on Friday."):
            mem.add_turn("user", text, session_id="b")
        mem.end_session("b", wait=True)
        assert "Quillon Zqxvortex" in {e.name for e in mem.entities()}  # the name session b taught
        mem.forget(session_id="b")
        entities = {e.name: e for e in mem.entities()}
        assert set(entities) == {"Quillon", "Tomás Ferreira"}
        assert all(not e.aliases for e in entities.values())
        assert mem.profile("Quillon")["name"] == "Quillon"
        with pytest.raises(KeyError):
            mem.profile("Tomás")
        assert all("Zqxvortex" not in json.dumps(f.to_dict()) for f in mem.facts(include_superseded=True))
    assert b"Zqxvortex" not in _bytes_everywhere(db_path) and b"zqxvortex" not in _bytes_everywhere(db_path)


def test_two_memories_never_consolidate_one_session_at_once(db_path: Path) -> None:
    """Two processes (here two Memories on one file, each with its own connection and scheduler): while one
    consolidates a session, the other neither runs the steps on it nor fails; at session end it waits its turn."""
    config = Config(models={"embedder": "off"}, capture={"consolidate_on_open": False}, consolidation={"lease_wait_s": 10})
    with Memory(db_path, config=config) as a, Memory(db_path, config=config) as b:
        for text in ("We decided to ship the beta on Friday.", "Maya will own the release notes."):
            a.add_turn("user", text, session_id="s")
        inside, go_on, a_done = threading.Event(), threading.Event(), threading.Event()
        b_ran: list[bool] = []  # for each step b ran: was a done by then?

        def hold(clients: object, info: object, turns: object) -> None:
            inside.set()
            go_on.wait(10)

        def record(clients: object, info: object, turns: object) -> None:
            b_ran.append(a_done.is_set())

        a.consolidation_steps = [hold, *a.consolidation_steps]
        b.consolidation_steps = [record, *b.consolidation_steps]

        def run_a() -> None:
            a.consolidate("default", "s", final=True)
            a_done.set()

        worker = threading.Thread(target=run_a)
        worker.start()
        assert inside.wait(10)
        assert b.consolidate("default", "s") is False  # a holds the session: b leaves it flagged, at once
        assert b_ran == [] and b.store.sessions_needing_consolidation() == [("default", "s")]
        ender = threading.Thread(target=b.end_session, args=("s",), kwargs={"wait": True})
        ender.start()
        time.sleep(0.3)
        assert b_ran == []  # session end waits for a's run
        go_on.set()
        worker.join(10)
        ender.join(10)
        assert b_ran == [True]
        info = b.store.session("default", "s")
        assert info is not None and info.consolidated_turns == 2 and not info.needs_consolidation


def test_forget_waits_for_another_process_consolidating_the_session(db_path: Path) -> None:
    """Another process is half-way through consolidating the session: forgetting it must not let that run write
    the session's facts back afterwards."""
    config = Config(models={"embedder": "off"}, capture={"consolidate_on_open": False}, consolidation={"lease_wait_s": 10})
    with Memory(db_path, config=config) as a, Memory(db_path, config=config) as b:
        for text in (f"We decided the {CANARY} launch is on Friday.", f"Maya owns the {CANARY} launch."):
            a.add_turn("user", text, session_id="s")
        inside, go_on = threading.Event(), threading.Event()

        def hold(clients: object, info: object, turns: object) -> None:
            inside.set()
            go_on.wait(10)

        a.consolidation_steps = [hold, *a.consolidation_steps]
        worker = threading.Thread(target=a.consolidate, args=("default", "s"), kwargs={"final": True})
        worker.start()
        assert inside.wait(10)
        threading.Timer(0.3, go_on.set).start()
        b.forget(session_id="s")
        worker.join(10)
        assert b.facts(include_superseded=True) == [] and b.episodes() == []
        assert b.recall(CANARY) == []


@pytest.mark.sqlite_only(READER)
def test_deleting_a_judgment_says_when_a_reader_kept_its_bytes(db_path: Path, caplog: pytest.LogCaptureFixture
                                                               ) -> None:
    config = Config(models={"embedder": "off"}, store={"busy_timeout_ms": 200, "forget_scrub_wait_s": 0.2})
    with Memory(db_path, config=config) as mem:
        jid = mem.judgments.store(f"deploying {CANARY} on a Friday", "wait for Monday", "weekend on-call is thin")
        reader = _reader(db_path)
        with caplog.at_level(logging.WARNING):
            assert mem.judgments.delete(jid) == 1
        reader.close()
        assert "kept their bytes" in caplog.text
