"""Issue 18, item 7: `episodic ingest` on hostile files. A bad line is named (file:line) and nothing of its file is
stored unless --skip-bad, which then stores exactly the good lines; lines end at \\n only; limits come from Config."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.ingest import parse_array, parse_lines, split_lines

pytestmark = pytest.mark.sqlite_only("runs child processes (or reads the SQLite file) that --store-backend=postgres does not redirect")

GOOD = [json.dumps({"role": "user" if i % 2 == 0 else "assistant", "content": f"good line {i} about the deck",
                    "id": f"t{i}"}) for i in range(6)]


def run(*args: str, input: bytes | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def stored(db: Path) -> list[str]:
    if not db.exists():
        return []
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        return [t.content for s in mem.sessions() for t in mem.session_turns(s.session_id)]


def ingest_lines(tmp_path: Path, lines: list[str | bytes], *extra: str,
                 env: dict[str, str] | None = None) -> tuple[int, str, str, Path, Path]:
    file, db = tmp_path / "chat.jsonl", tmp_path / "m.db"
    file.write_bytes(b"\n".join(x.encode() if isinstance(x, str) else x for x in lines) + b"\n")
    code, out, err = run("ingest", str(file), "--db", str(db), *extra, env=env)
    return code, out, err, file, db


def test_a_lone_surrogate_is_a_bad_line_and_nothing_of_the_file_is_stored(tmp_path: Path) -> None:
    lines = [*GOOD[:3], '{"role": "user", "content": "half a pair \\ud800"}', *GOOD[3:]]
    code, _, err, file, db = ingest_lines(tmp_path, lines)
    assert code == 1 and f"{file}:4: field 'content' is not valid Unicode text: a lone surrogate" in err
    assert "nothing from this file was stored" in err and stored(db) == []
    code, out, err, file, db = ingest_lines(tmp_path, lines, "--skip-bad")
    assert code == 0 and f"{file}:4:" in err and "1 bad line(s) skipped" in out
    assert len(stored(db)) == 6


def test_deep_nesting_is_a_bad_line_not_a_recursion_error(tmp_path: Path) -> None:
    nested = '{"role": "user", "content": "x", "speaker": ' + "[" * 100_000 + "]" * 100_000 + "}"
    code, _, err, file, db = ingest_lines(tmp_path, [GOOD[0], nested])
    assert code == 1 and f"{file}:2: not valid JSON here: nested too deeply" in err and stored(db) == []


def test_an_invalid_utf8_byte_names_its_line(tmp_path: Path) -> None:
    bad = b'{"role": "user", "content": "caf\xe9"}'
    code, _, err, file, db = ingest_lines(tmp_path, [GOOD[0], GOOD[1], bad, GOOD[2]])
    assert code == 1 and f"{file}:3: not UTF-8 text (invalid continuation byte: byte 0xe9 at column 33)" in err
    code, out, _, _, db = ingest_lines(tmp_path, [GOOD[0], GOOD[1], bad, GOOD[2]], "--skip-bad")
    assert code == 0 and len(stored(db)) == 3


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    code, out, err, _, db = ingest_lines(tmp_path, [b"\xef\xbb\xbf" + GOOD[0].encode(), GOOD[1]])
    assert code == 0, err
    assert stored(db) == ["good line 0 about the deck", "good line 1 about the deck"]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\x1c", "\r"])
def test_only_newline_ends_a_line(tmp_path: Path, separator: str) -> None:
    content = f"first part{separator}second part"
    code, out, err, _, db = ingest_lines(tmp_path, [json.dumps({"role": "user", "content": content},
                                                               ensure_ascii=False)])
    assert code == 0, err
    assert stored(db) == [content]


def test_crlf_line_ends_are_read(tmp_path: Path) -> None:
    code, _, err, _, db = ingest_lines(tmp_path, [GOOD[0] + "\r", GOOD[1] + "\r"])
    assert code == 0, err
    assert len(stored(db)) == 2


def test_a_directory_is_named_as_one(tmp_path: Path) -> None:
    code, _, err = run("ingest", str(tmp_path), "--db", str(tmp_path / "m.db"))
    assert code == 2 and "is a directory" in err and "no such file" not in err


@pytest.mark.parametrize("text", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_an_empty_file_says_no_turns(tmp_path: Path, text: bytes) -> None:
    file = tmp_path / "empty.jsonl"
    file.write_bytes(text)
    code, out, err = run("ingest", str(file), "--db", str(tmp_path / "m.db"))
    assert code == 1 and f"{file}: no turns" in err


def test_turn_and_line_size_limits_come_from_config(tmp_path: Path) -> None:
    env = {"EPISODIC_CAPTURE__MAX_TURN_CHARS": "100"}
    long_turn = json.dumps({"role": "user", "content": "x" * 101})
    code, _, err, file, db = ingest_lines(tmp_path, [GOOD[0], long_turn], env=env)
    assert code == 1 and f"{file}:2: field 'content' is 101 characters, over the limit of 100" in err
    long_line = json.dumps({"role": "user", "content": "ok", "speaker": "y" * 900})
    code, _, err, file, db = ingest_lines(tmp_path, [GOOD[0], long_line], env=env)
    assert code == 1 and f"{file}:2: line is {len(long_line)} bytes, over the limit of 800 (8 × Config.capture.max_turn_chars)" in err
    assert stored(db) == []


def test_stdin_bytes_are_read_line_by_line(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbf" + GOOD[0].encode() + b"\n" + b'{"role": "user", "content": "\xff"}\n'
    code, _, err = run("ingest", "-", "--db", str(tmp_path / "m.db"), input=data)
    assert code == 1 and "<stdin>:2: not UTF-8 text" in err


def test_a_role_outside_the_chat_roles_is_a_bad_line(tmp_path: Path) -> None:
    code, _, err, file, db = ingest_lines(tmp_path, [GOOD[0], '{"role": "robot", "content": "beep"}'])
    assert code == 1 and f"{file}:2: field 'role' must be one of user, assistant, system, tool" in err


# --- a JSON array of turns -----------------------------------------------------------------------------------------


def ingest_array(tmp_path: Path, text: str | bytes, *extra: str) -> tuple[int, str, str, Path, Path]:
    file, db = tmp_path / "chat.json", tmp_path / "m.db"
    file.write_bytes(text.encode() if isinstance(text, str) else text)
    code, out, err = run("ingest", str(file), "--db", str(db), *extra)
    return code, out, err, file, db


def test_a_json_array_of_turns_is_ingested_like_its_lines(tmp_path: Path) -> None:
    turns = [json.loads(line) for line in GOOD]
    code, out, _, _, db = ingest_array(tmp_path, "\ufeff " + json.dumps(turns, indent=2))
    assert code == 0 and "ingested 6 turn(s) in 1 session(s)" in out
    assert stored(db) == [t["content"] for t in turns]
    (tmp_path / "one-line").mkdir()
    code, out, _, _, db = ingest_array(tmp_path / "one-line", json.dumps(turns))
    assert code == 0 and stored(db) == [t["content"] for t in turns]


def test_a_bad_object_in_an_array_names_the_line_it_starts_on(tmp_path: Path) -> None:
    text = "[\n" + ",\n".join([GOOD[0], '{"role": "robot",\n "content": "beep"}', GOOD[1], '{"role": "user", "content": 5}']) + "\n]\n"
    code, _, err, file, db = ingest_array(tmp_path, text)
    assert code == 1 and f"{file}:3: field 'role' must be one of user, assistant, system, tool" in err
    assert f"{file}:6: field 'content' must be a string" in err and stored(db) == []
    code, out, err, file, db = ingest_array(tmp_path, text, "--skip-bad")
    assert code == 0 and "2 bad line(s) skipped" in out and len(stored(db)) == 2


@pytest.mark.parametrize(("text", "line", "problem"), [
    ('[\n{"role": "user", "content": "a"}\n{"role": "user", "content": "b"}\n]', 3, "not valid JSON (expected ','"),
    ('[{"role": "user", "content": "a"},]', 1, "not valid JSON (Expecting value"),
    ('[{"role": "user", "content": "a"}] and more', 1, "not valid JSON (expected ',' or the array's"),
    ('[\n\n{"role": "user" "content": "a"}]', 3, "not valid JSON (Expecting ',' delimiter"),
    ('[{"role": "user", "content": "a"}', 1, "not valid JSON (expected ',' or the array's"),
    (b'[\n{"role": "user", "content": "\xff"}]', 2, "not UTF-8 text (invalid start byte: byte 0xff at column 30)"),
])
def test_broken_json_in_an_array_stops_the_file_where_it_breaks(tmp_path: Path, text: str | bytes, line: int,
                                                                problem: str) -> None:
    code, _, err, file, db = ingest_array(tmp_path, text, "--skip-bad")  # the good objects before it too
    assert f"{file}:{line}: {problem}" in err and "the array cannot be read past it" in err and stored(db) == []


def test_an_empty_array_says_no_turns(tmp_path: Path) -> None:
    code, _, err, file, _ = ingest_array(tmp_path, " [ ] \n")
    assert code == 1 and f"{file}: no turns" in err


# --- properties -------------------------------------------------------------------------------------------------

TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=30)  # lone surrogates included
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**20), max_value=10**20),
                   st.floats(allow_nan=True, allow_infinity=True), TEXT)
JSON = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                    st.dictionaries(TEXT, inner, max_size=3)), max_leaves=6)
FIELDS = ("role", "content", "session_id", "timestamp", "speaker", "name", "id", "user_id")
TIMESTAMPS = st.one_of(st.datetimes(timezones=st.timezones()).map(lambda d: d.isoformat()),
                       st.sampled_from(["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00", "2026-12-01"]),
                       st.floats(min_value=-1e13, max_value=1e13))
LIKELY = {"role": st.sampled_from(["user", "assistant", "USER", " tool ", "robot", "", " "]),
          "timestamp": TIMESTAMPS, "user_id": st.sampled_from(["", " ", "bob", "\ud800"])}


@st.composite
def lines(draw: Any) -> str:
    """A JSONL line: mostly turn-shaped objects whose fields take hostile values, sometimes anything at all."""
    if draw(st.integers(0, 9)) == 0:
        return json.dumps(draw(JSON))
    data: dict[str, Any] = {}
    for name in FIELDS:
        if draw(st.booleans()) or name in ("role", "content"):
            data[name] = draw(st.one_of(LIKELY.get(name, TEXT), JSON))
    return json.dumps(data, ensure_ascii=draw(st.booleans()))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines(), min_size=1, max_size=4))
def test_a_line_that_parses_is_one_memory_stores(batch: list[str]) -> None:
    """The promise "nothing from a bad file": whatever ingest accepts, Memory accepts (so no file half-stores)."""
    parsed = parse_lines(split_lines("\n".join(batch).encode("utf-8", "surrogatepass")), "f.jsonl", "f",
                         max_turn_chars=1000)
    assert len(parsed.turns) + len(parsed.bad) == len(batch)
    with Memory(":memory:", config=Config(models={"embedder": "off"}, capture={"consolidate_every": 1000, "max_turn_chars": 1000})) as mem:
        assert len(mem.add_turns(parsed.turns)) == len(parsed.turns)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=60), max_size=5))
def test_any_bytes_give_turns_or_named_bad_lines_never_an_exception(chunks: list[bytes]) -> None:
    parsed = parse_lines(split_lines(b"\n".join(chunks)), "f.jsonl", "f", max_turn_chars=20)
    assert all(bad.line >= 1 and str(bad).startswith(f"f.jsonl:{bad.line}: ") for bad in parsed.bad)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80))
def test_any_bytes_after_a_bracket_give_turns_or_named_bad_lines_never_an_exception(tail: bytes) -> None:
    data = b"[" + tail
    parsed = parse_array(data, "f.json", "f", max_turn_chars=20)
    lines = data.count(b"\n") + 1
    assert all(1 <= bad.line <= lines and str(bad).startswith(f"f.json:{bad.line}: ") for bad in parsed.bad)


@settings(max_examples=200, deadline=None)
@given(st.lists(lines(), min_size=1, max_size=4))
def test_an_array_gives_what_its_objects_give_as_lines(batch: list[str]) -> None:
    """Objects that are valid JSON give the same turns and problems in an array as on lines of their own (a byte
    that is not UTF-8 stops a whole array instead: the test above)."""
    assume(all(not any("\ud800" <= c <= "\udfff" for c in line) for line in batch))
    as_lines = parse_lines(split_lines("\n".join(batch).encode("utf-8", "surrogatepass")), "f", "f", max_turn_chars=1000)
    as_array = parse_array(("[\n" + ",\n".join(batch) + "\n]").encode("utf-8", "surrogatepass"), "f", "f",
                           max_turn_chars=1000)
    assert as_array.turns == as_lines.turns
    assert [(b.line - 1, b.problem) for b in as_array.bad] == [(b.line, b.problem) for b in as_lines.bad]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(exclude_categories=("Cs",)), max_size=40), min_size=1, max_size=5))
def test_every_valid_line_is_one_turn_whatever_its_characters(contents: list[str]) -> None:
    text = "\n".join(json.dumps({"role": "user", "content": c}, ensure_ascii=False) for c in contents)
    parsed = parse_lines(split_lines(text.encode()), "f.jsonl", "f", max_turn_chars=1000)
    assert not parsed.bad and [t["content"] for t in parsed.turns] == contents
