"""Issue 41, items 4–7 and 14: a hostile or careless export file. Every bad field is refused as FILE:LINE: problem
(the field named), exit 1 from the CLI, and the store is left exactly as it was; what is accepted reads back."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.episodic_judgment import EpisodicMemory
from episodic_memory.portable import PortableFormatError

QUIET = Config(models={"embedder": "off"})


def _export(tmp_path: Path, user: str = "ana") -> list[dict[str, Any]]:
    """A small consolidated export of one user: two sessions, facts, a loop, a judgment."""
    with Memory(tmp_path / f"source-{user}.db", user_id=user, config=QUIET) as mem:
        mem.add_turn("user", "We decided to ship on Friday.", session_id="s1", turn_id="t1")
        mem.add_turn("user", "Actually, we ship on Monday, not Friday.", session_id="s1", turn_id="t2")
        mem.add_turn("user", "I live in Lisbon.", session_id="s2", turn_id="t3")
        mem.end_session("s1")
        mem.end_session("s2")
        mem.add_loop("send the deck to Sarah", session_id="s1")
        mem.judgments.store(trigger="asked to edit prod", judgment="confirm first", reasoning="outage",
                            metadata={"team": "infra"})
        path = tmp_path / f"{user}.jsonl"
        mem.export(path)
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(tmp_path: Path, lines: list[dict[str, Any]], name: str = "bad.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))  # \ud800 travels escaped, as JSON lets it
    return path


def _index(lines: list[dict[str, Any]], kind: str) -> int:
    return next(i for i, line in enumerate(lines) if line.get("kind") == kind)


def _counts(db: Path) -> dict[str, int]:
    """Rows of every table of the file (FTS shadow tables included): the store's whole state, cheaply."""
    con = sqlite3.connect(db)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    finally:
        con.close()


@pytest.fixture
def target(tmp_path: Path):
    """A store with a user of its own already in it."""
    db = tmp_path / "target.db"
    with Memory(db, user_id="bo", config=QUIET) as mem:
        mem.add_turn("user", "My sister Ines lives in Porto.", session_id="mine", turn_id="m1")
        mem.end_session("mine")
    return db


def _refused(db: Path, path: Path, *expected: str, user: str | None = None) -> PortableFormatError:
    """Importing `path` is refused with all of `expected` in the message, through the library and the CLI, and
    not one row of any table changes."""
    before = _counts(db)
    with Memory(db, user_id="bo", config=QUIET) as mem, pytest.raises(PortableFormatError) as info:
        mem.import_(path, **({"user_id": user} if user else {}))
    for text in expected:
        assert text in str(info.value), str(info.value)
    assert str(info.value).startswith(f"{path}:")
    args = ["--db", str(db), "import", str(path)] + (["--user", user] if user else [])
    out = CliRunner().invoke(main, args, env={"EPISODIC_MODELS__EMBEDDER": "off"})
    assert out.exit_code == 1, out.output
    assert f"{path.name}:" in out.output and "nothing was imported" in out.output
    assert "Traceback" not in out.output and "cannot use the store" not in out.output
    assert _counts(db) == before
    return info.value


def _damaged(lines: list[dict[str, Any]], kind: str, **fields: Any) -> list[dict[str, Any]]:
    out = [dict(line) for line in lines]
    out[_index(out, kind)].update(fields)
    return out


# --- item 4: what cannot be read back is not stored ------------------------------------------------------------
@pytest.mark.parametrize("kind, fields, expected", [
    ("fact", {"valid_to": "yesterday"}, "fact 'valid_to' must be a number"),
    ("loop", {"mentions": "lots"}, "loop 'mentions' must be an integer"),
    ("turn", {"ts": 1e300}, "turn 'ts' is not a time"),
    ("turn", {"ts": -1e12}, "turn 'ts' is not a time"),
    ("session", {"created_at": 1e300}, "session 'created_at' is not a time"),
    ("fact", {"valid_from": -1e12}, "fact 'valid_from' is not a time"),
    ("turn", {"role": "wizard"}, "turn 'role' must be one of"),
    ("fact", {"type": "gossip"}, "fact 'type' must be one of"),
    ("session", {"status": "paused"}, "session 'status' must be 'open' or 'ended'"),
    ("turn", {"tags": '["ok", " "]'}, "turn 'tags'"),
    ("turn", {"source": "  "}, "turn 'source' must not be blank"),
    ("episode", {"terms": {"deck": "many"}}, "episode 'terms.deck' must be a number"),
    ("judgment", {"verdicts": [{"adopted": "yes", "ts": 1.0}]}, "judgment 'verdicts.0.adopted'"),
])
def test_a_field_no_read_could_take_is_refused(tmp_path: Path, target: Path, kind: str, fields: dict[str, Any],
                                               expected: str) -> None:
    lines = _export(tmp_path)
    _refused(target, _write(tmp_path, _damaged(lines, kind, **fields)), expected)


def test_a_turn_over_max_turn_chars_is_refused(tmp_path: Path, target: Path) -> None:
    lines = _export(tmp_path)
    huge = "word " * (Config().capture.max_turn_chars // 5 + 1)
    error = _refused(target, _write(tmp_path, _damaged(lines, "turn", content=huge)), "turn 'content' is",
                     "Config.capture.max_turn_chars")
    assert error.line == _index(lines, "turn") + 1


def test_what_is_accepted_reads_back_everywhere(tmp_path: Path, target: Path) -> None:
    """The import of a valid file: facts, loops, a fact by id, the vault and recall all work for its user."""
    _export(tmp_path)
    with Memory(target, user_id="ana", config=QUIET) as mem:
        assert mem.import_(tmp_path / "ana.jsonl")["turn"] == 3
        facts = mem.facts(include_superseded=True)
        assert facts and all(mem.fact_history(f.id) for f in facts)
        assert mem.loops(status="all") and mem.recall("where do I live")
        mem.write_vault(tmp_path / "vault")


# --- item 5: no raw error, ever --------------------------------------------------------------------------------
@pytest.mark.parametrize("kind, fields, expected", [
    ("turn", {"ts": float("nan")}, "turn 'ts' is not a time"),                       # was IntegrityError
    ("fact", {"salience": float("nan")}, "fact 'salience' must be a finite number"),  # was IntegrityError
    ("fact", {"confidence": float("inf")}, "fact 'confidence' must be a finite number"),
    ("turn", {"speaker": {"name": "x"}}, "turn 'speaker' must be a string"),          # was ProgrammingError
    ("turn", {"tags": "urgent"}, "turn 'tags' must be JSON text of a list"),          # was OperationalError
    ("turn", {"content": "bad \ud800 text"}, "turn 'content' is not valid Unicode"),  # was UnicodeEncodeError
    ("loop", {"note": "x \ud800"}, "loop 'note' is not valid Unicode"),
    ("judgment", {"metadata": {"\udfff": 1}}, "judgment 'metadata' is not valid Unicode"),
    ("turn", {"seq": 2**40}, "turn 'seq'"),
    ("fact", {"id": True}, "fact 'id' must be an integer"),
])
def test_a_value_the_database_would_choke_on_is_refused_by_name(tmp_path: Path, target: Path, kind: str,
                                                                fields: dict[str, Any], expected: str) -> None:
    lines = _export(tmp_path)
    _refused(target, _write(tmp_path, _damaged(lines, kind, **fields)), expected)


def test_bad_base64_is_refused_by_name(tmp_path: Path, target: Path) -> None:  # was binascii.Error
    lines = _export(tmp_path)
    line = _index(lines, "episode")
    lines[line]["vec"] = {"base64": "not*base64!"}
    _refused(target, _write(tmp_path, lines), "episode 'vec' is not valid base64")
    lines[line]["vec"] = {"base64": "AAE="}  # two bytes: no float32 vector
    _refused(target, _write(tmp_path, lines), "episode 'vec' holds 2 bytes")


def test_deep_metadata_is_refused_by_name(tmp_path: Path, target: Path) -> None:  # was RecursionError
    lines = _export(tmp_path)
    deep: Any = {}
    for _ in range(5_000):
        deep = {"a": deep}
    path = tmp_path / "deep.jsonl"
    line = _index(lines, "judgment")
    text = [json.dumps(x) for x in lines]
    text[line] = json.dumps({**lines[line], "metadata": {}})[:-len('{}}')] + '{"a": ' * 5_000 + "1" + "}" * 5_001 + "}"
    path.write_text("\n".join(text) + "\n")
    _refused(target, path, f"{path}:{line + 1}: nested too deeply")
    shallow: Any = 1
    for _ in range(Config().capture.max_json_depth + 1):
        shallow = {"a": shallow}
    _refused(target, _write(tmp_path, _damaged(lines, "judgment", metadata=shallow)),
             "judgment 'metadata' is nested more than", "Config.capture.max_json_depth")


# --- item 6: one user's memories never rest on another's -------------------------------------------------------
def test_a_turn_uid_of_another_user_is_refused_not_taken_over(tmp_path: Path, target: Path) -> None:
    lines = _export(tmp_path)
    con = sqlite3.connect(target)
    bos_uid = con.execute("SELECT uid FROM turns WHERE user_id = 'bo'").fetchone()[0]
    con.close()
    first = _index(lines, "turn")
    lines[first]["uid"] = bos_uid
    _refused(target, _write(tmp_path, lines), f"turn uid {bos_uid!r} is another user's ('bo')")


def test_a_reference_across_users_in_one_file_is_refused(tmp_path: Path, target: Path) -> None:
    ana, bo = _export(tmp_path, "ana"), _export(tmp_path, "bo")
    bo_turn = bo[_index(bo, "turn")]
    bo_turn = {**bo_turn, "id": 999, "session_id": "s9"}
    bo_session = {**bo[_index(bo, "session")], "session_id": "s9"}
    after_turns = max(i for i, line in enumerate(ana) if line.get("kind") == "turn") + 1
    lines = [dict(ana[0], counts=None)] + ana[1:_index(ana, "turn")] + [bo_session] + \
        ana[_index(ana, "turn"):after_turns] + [bo_turn] + ana[after_turns:]
    fact = next(i for i, line in enumerate(lines) if line.get("kind") == "fact")
    lines[fact]["source_ids"] = [999]
    _refused(target, _write(tmp_path, lines), "fact 'source_ids' refers to turn 999", "user 'bo''s, not 'ana''s")


def test_dedupe_is_per_user_and_every_export_imports_again(tmp_path: Path) -> None:
    """The same file imported as two users (--user): each gets its own rows, and each user's export of the
    store imports again, into a fresh store and into the same one (adding nothing)."""
    _export(tmp_path)
    db = tmp_path / "two.db"
    with Memory(db, config=QUIET) as mem:
        assert mem.import_(tmp_path / "ana.jsonl")["turn"] == 3
        assert mem.import_(tmp_path / "ana.jsonl", user_id="cy")["turn"] == 3  # a copy beside the original
        assert not any(mem.import_(tmp_path / "ana.jsonl", user_id="cy").values())  # idempotent
        assert mem.stats(user_id="cy")["turns"] == mem.stats(user_id="ana")["turns"] == 3
        con = sqlite3.connect(db)
        mixed = con.execute("SELECT count(*) FROM facts f, json_each(f.source_ids) j JOIN turns t ON t.id = j.value "
                            "WHERE t.user_id != f.user_id").fetchone()[0]
        con.close()
        assert mixed == 0
        for user in ("ana", "cy"):
            mem.export(tmp_path / f"again-{user}.jsonl", user_id=user)
            assert not any(mem.import_(tmp_path / f"again-{user}.jsonl").values())
            with Memory(tmp_path / f"fresh-{user}.db", config=QUIET) as fresh:
                assert fresh.import_(tmp_path / f"again-{user}.jsonl")["turn"] == 3


def test_user_option_of_the_cli_imports_as_that_user(tmp_path: Path, target: Path) -> None:
    _export(tmp_path)
    out = CliRunner().invoke(main, ["--db", str(target), "import", "--user", "dee", str(tmp_path / "ana.jsonl")],
                             env={"EPISODIC_MODELS__EMBEDDER": "off"})
    assert out.exit_code == 0, out.output
    with Memory(target, user_id="dee", config=QUIET) as mem:
        assert mem.stats()["turns"] == 3 and mem.stats(user_id="ana")["turns"] == 0


def test_user_option_refuses_a_file_of_several_users(tmp_path: Path, target: Path) -> None:
    _export(tmp_path)
    with Memory(tmp_path / "source-ana.db", user_id="ana", config=QUIET) as mem:
        mem.add_turn("user", "hello", session_id="x", user_id="eve")
        mem.export(tmp_path / "all.jsonl", all_users=True)
    _refused(target, tmp_path / "all.jsonl", "the file holds 2 users", user="dee")
    with Memory(target, config=QUIET) as mem, pytest.raises(PortableFormatError, match="--user holds a control"):
        mem.import_(tmp_path / "ana.jsonl", user_id="bad\x00id")
    out = CliRunner().invoke(main, ["--db", str(target), "import", "--user", "bad\x00id", str(tmp_path / "ana.jsonl")])
    assert out.exit_code == 2 and "control character" in out.output


# --- item 7: ids with control characters; a failing session backs off ------------------------------------------
@pytest.mark.parametrize("field, old, new, expected", [
    ("user_id", "ana", "ana\x00", "session 'user_id' holds a control character"),
    ("session_id", "s1", "s\n1", "session 'session_id' holds a control character"),
    ("memory_id", None, "mem\x1b[31m", "judgment 'memory_id' holds a control character"),
    ("session_id", "s2", "x" * 300, "session 'session_id' is 300 characters long"),
])
def test_an_id_with_a_control_character_is_refused_on_import(tmp_path: Path, target: Path, field: str,
                                                             old: str | None, new: str, expected: str) -> None:
    """The id changed in every record that has it, so the file is consistent but for that one id."""
    lines = [{**line, field: new} if field in line and old in (None, line[field]) else line
             for line in _export(tmp_path)]
    _refused(target, _write(tmp_path, lines), expected)


def test_an_id_with_a_control_character_is_refused_by_the_library(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", config=QUIET) as mem:
        mid = mem.judgments.store(trigger="t", judgment="j", reasoning="r")
        for call in (lambda: mem.recall("x", user_id="a\x00b"), lambda: mem.facts(user_id="a\x00"),
                     lambda: mem.sessions(user_id="a\nb"), lambda: mem.session_turns("s", user_id="\x00"),
                     lambda: mem.recall("x", session_id="s\x00"), lambda: mem.stats(user_id="a\x00"),
                     lambda: mem.judgments.verify(mid + "\x00", True), lambda: mem.judgments.get("mem\x00"),
                     lambda: mem.judgments.delete("mem\x00")):
            with pytest.raises(ValueError, match="control character"):
                call()
        with pytest.raises(ValueError, match="nested more than"):
            deep: Any = 1
            for _ in range(40):
                deep = [deep]
            mem.judgments.store(trigger="t2", judgment="j2", reasoning="r", metadata={"x": deep})
    with pytest.raises(ValueError, match="control character"):
        EpisodicMemory(db_path=str(tmp_path / "j.db"), user_id="a\x00b")


def _session_state(db: Path) -> tuple[int, int, float | None]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT consolidated_turns, consolidation_failures, retry_at FROM sessions").fetchone()
    finally:
        con.close()


def test_a_session_that_keeps_failing_is_retried_with_back_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """A session whose consolidation fails (bad data) is not retried at every open of the store, by any user: after
    one failure it is retried at the next open (an outage passes), then it waits Config.consolidation.retry_s,
    doubled after each failure in a row."""
    import episodic_memory.memory as memory_module

    db = tmp_path / "fail.db"
    config = Config(models={"embedder": "off"}, capture={"consolidate_in_background": "off", "consolidate_every": 1000}, consolidation={"retry_s": 3600})
    calls: list[str] = []
    real_steps = memory_module.default_steps

    def broken(clients: Any, info: Any, turns: Any) -> None:
        calls.append(info.session_id)
        raise RuntimeError("this session cannot be consolidated")

    monkeypatch.setattr(memory_module, "default_steps", lambda: [broken, *real_steps()])
    caplog.set_level(logging.CRITICAL)
    with Memory(db, config=config) as mem:
        mem.add_turn("user", "hello there", session_id="s1")
        assert mem.consolidate("default", "s1") is False
        assert mem.store.sessions_needing_consolidation() == [("default", "s1")]  # one failure: next open retries
    for user in ("default", "other", "third"):  # the first open retries and fails again: then it waits an hour
        Memory(db, user_id=user, config=config).close()
    _, failures, retry_at = _session_state(db)
    assert calls == ["s1", "s1"] and failures == 2 and retry_at is not None and retry_at > time.time() + 3000
    con = sqlite3.connect(db)
    con.execute("UPDATE sessions SET retry_at = ?", (time.time() - 1,))  # the back-off is over
    con.commit()
    con.close()
    Memory(db, config=config).close()  # retried at this open; a third failure doubles the wait
    _, failures, retry_at = _session_state(db)
    assert calls == ["s1", "s1", "s1"] and failures == 3 and retry_at is not None and retry_at > time.time() + 7000
    monkeypatch.setattr(memory_module, "default_steps", real_steps)
    with Memory(db, config=config) as mem:
        assert mem.consolidate("default", "s1") is True  # a success clears it
    assert _session_state(db) == (1, 0, None)
    assert Config(consolidation={"retry_s": 60, "retry_max_s": 600}).consolidation.retry_after(10) == 600
    assert Config().consolidation.retry_after(1) == 0


# --- item 14: a session already in the store --------------------------------------------------------------------
def test_turns_imported_into_an_existing_session_go_after_its_turns(tmp_path: Path) -> None:
    _export(tmp_path)  # ana's s1: t1, t2
    db = tmp_path / "merge.db"
    with Memory(db, user_id="ana", config=QUIET) as mem:
        mem.add_turn("user", "Local first.", session_id="s1", turn_id="l1")
        mem.add_turn("assistant", "Local second?", session_id="s1", turn_id="l2")
        mem.import_(tmp_path / "ana.jsonl")
        turns = mem.session_turns("s1")
        assert [t.turn_id for t in turns] == ["l1", "l2", "t1", "t2"]
        assert [t.seq for t in turns] == [0, 1, 2, 3]
        info = mem.session("s1")
        assert info is not None and info.turn_count == 4
        before = mem.turns_before([h for h in mem.recall("ship on Monday", kind="turn") if h.text.startswith(
            "Actually")], "ana")
        assert [t.turn_id for t in before.values()] == ["t1"]  # "replying to" is the file's previous turn
        assert not any(mem.import_(tmp_path / "ana.jsonl").values())  # again: nothing moves
        assert [t.seq for t in mem.session_turns("s1")] == [0, 1, 2, 3]
        mem.add_turn("user", "Later.", session_id="s1", turn_id="l3")
        assert [t.turn_id for t in mem.session_turns("s1")][-1] == "l3"


def test_a_file_that_repeats_a_position_or_a_caller_id_in_a_session_is_refused(tmp_path: Path, target: Path) -> None:
    lines = _export(tmp_path)
    first = _index(lines, "turn")
    assert lines[first + 1]["session_id"] == lines[first]["session_id"]
    _refused(target, _write(tmp_path, [*lines[:first + 1], {**lines[first + 1], "seq": lines[first]["seq"]},
                                       *lines[first + 2:]]), "position 0 (seq) in session 's1' appears twice")
    _refused(target, _write(tmp_path, [*lines[:first + 1], {**lines[first + 1], "turn_id": lines[first]["turn_id"]},
                                       *lines[first + 2:]]), "turn id 't1' in session 's1' appears twice")


# --- the models cover what the store exports ---------------------------------------------------------------------
def test_every_exported_column_has_a_rule(tmp_path: Path) -> None:
    from episodic_memory.portable_schema import MODELS

    with Memory(tmp_path / "m.db", config=QUIET) as mem:
        for kind, fields in mem.store.portable_columns().items():
            assert fields == set(MODELS[kind].model_fields), kind


@pytest.mark.both_backends
def test_the_back_off_is_kept_by_either_store(db_path: Path) -> None:
    config = Config(models={"embedder": "off"}, capture={"consolidate_in_background": "off", "consolidate_every": 1000}, consolidation={"retry_s": 3600})
    with Memory(db_path, config=config) as mem:
        mem.add_turn("user", "hello there", session_id="s1")
        mem.store.mark_for_consolidation("default", "s1")
        assert mem.store.sessions_needing_consolidation() == [("default", "s1")]
        assert mem.store.record_consolidation_failure("default", "s1") <= time.time()  # one: the next open retries
        assert mem.store.sessions_needing_consolidation() == [("default", "s1")]
        assert mem.store.record_consolidation_failure("default", "s1") > time.time() + 3000
        assert mem.store.sessions_needing_consolidation() == []
        assert mem.store.sessions_owed(1, time.time() + 10, time.time()) == []
        mem.store.record_consolidated("default", "s1", 1)
        mem.store.mark_for_consolidation("default", "s1")
        assert mem.store.sessions_needing_consolidation() == [("default", "s1")]
