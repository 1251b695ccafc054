"""Reading conversation transcripts (JSON Lines, or a JSON array of the same objects) into turns, each checked
with the rules `Memory.add_turns` applies; errors name file, line and field (README, "Command line"). A line
ends at ``\n`` only: a U+2028 inside a JSON string is text, not a line break."""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

from .config import Config
from .memory import ROLES, check_source, check_tags
from .util import check_id, check_unicode, to_epoch

SAMPLE_NAME = "sample_conversation.jsonl"
LINE_BYTES_PER_CHAR = 8  # a line may take this many bytes per allowed character of content (escapes, other fields)

#: optional fields and the types they accept
_OPTIONAL: dict[str, tuple[type, ...]] = {
    "session_id": (str, int),
    "timestamp": (str, int, float),
    "speaker": (str,),
    "name": (str,),
    "id": (str, int),
    "user_id": (str,),
    "source": (str,),
}


@dataclass
class BadLine:
    source: str
    line: int
    problem: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.problem}"


@dataclass
class ParsedFile:
    source: str
    turns: list[dict[str, Any]] = field(default_factory=list)
    bad: list[BadLine] = field(default_factory=list)


def sample_path() -> Path:
    """The bundled multi-session sample conversation."""
    return Path(str(resources.files("episodic_memory") / "data" / SAMPLE_NAME))


def parse_lines(lines: Iterable[str | bytes], source: str, default_session: str,
                max_turn_chars: int | None = None) -> ParsedFile:
    """Validate every line; good ones become `Memory.add_turns` mappings, bad ones are listed (never raised).

    A line given as bytes is decoded here, so an invalid UTF-8 byte is that line's problem. `max_turn_chars`
    defaults to `Config.capture.max_turn_chars`; a line over `LINE_BYTES_PER_CHAR` times it is refused unread."""
    limit = Config().capture.max_turn_chars if max_turn_chars is None else max_turn_chars
    parsed = ParsedFile(source)
    for number, line in enumerate(lines, start=1):
        try:
            text = _line_text(line, limit)
            if text.strip():
                parsed.turns.append(_turn(text, default_session, limit))
        except ValueError as exc:
            parsed.bad.append(BadLine(source, number, str(exc)))
    return parsed


def parse_file(path: str, *, stdin: bytes | None = None, max_turn_chars: int | None = None) -> ParsedFile:
    """Parse a JSONL file or a JSON array of turns (or the bytes of standard input when `path` is ``-``). One file
    without session ids is one session. OSError (no such file, a directory, no permission) is raised, not listed."""
    if path == "-":
        data, source, default_session = stdin or b"", "<stdin>", "stdin-" + datetime.now().strftime("%Y%m%d-%H%M%S")
    else:
        data, source, default_session = Path(path).read_bytes(), path, Path(path).stem
    if data.removeprefix(codecs.BOM_UTF8).lstrip().startswith(b"["):
        return parse_array(data, source, default_session, max_turn_chars)
    return parse_lines(split_lines(data), source, default_session, max_turn_chars)


def parse_array(data: bytes, source: str, default_session: str, max_turn_chars: int | None = None) -> ParsedFile:
    """A JSON array of turn objects, each checked as a JSONL line is; a problem is listed at the line its object
    starts on. JSON that does not parse stops the file there (what follows cannot be told apart)."""
    limit = Config().capture.max_turn_chars if max_turn_chars is None else max_turn_chars
    parsed = ParsedFile(source)
    try:
        text = data.removeprefix(codecs.BOM_UTF8).decode("utf-8")
    except UnicodeDecodeError as exc:
        start = exc.start + (len(data) - len(data.removeprefix(codecs.BOM_UTF8)))
        line, column = data.count(b"\n", 0, start) + 1, start - data.rfind(b"\n", 0, start)
        return _unreadable(parsed, line, f"not UTF-8 text ({exc.reason}: byte 0x{data[start]:02x} at column {column})")
    decoder, at, line, counted = json.JSONDecoder(), text.index("[") + 1, 1, 0
    while True:
        at = _skip_space(text, at)
        if at < len(text) and text[at] == "]" and not parsed.turns and not parsed.bad:
            break  # an empty array
        line, counted = line + text.count("\n", counted, at), at
        try:
            item, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            return _unreadable(parsed, exc.lineno, f"not valid JSON ({exc.msg} at column {exc.colno})")
        except RecursionError:
            return _unreadable(parsed, line, "not valid JSON here: nested too deeply")
        try:
            if end - at > LINE_BYTES_PER_CHAR * limit:
                raise ValueError(f"object is {end - at:,} characters, over the limit of "
                                 f"{LINE_BYTES_PER_CHAR * limit:,} ({LINE_BYTES_PER_CHAR} × Config.capture.max_turn_chars)")
            parsed.turns.append(_checked(item, default_session, limit))
        except ValueError as exc:
            parsed.bad.append(BadLine(source, line, str(exc)))
        at = _skip_space(text, end)
        if at < len(text) and text[at] == ",":
            at += 1
            continue
        if at < len(text) and text[at] == "]" and not text[at + 1 :].strip():
            break
        return _unreadable(parsed, line + text.count("\n", counted, at),
                           "not valid JSON (expected ',' or the array's closing ']')")
    return parsed


def _unreadable(parsed: ParsedFile, line: int, problem: str) -> ParsedFile:
    """The array cannot be read past `line`: nothing of it is taken, not even with --skip-bad (what follows the
    break would be lost without a line of its own to say so)."""
    parsed.turns.clear()
    parsed.bad.append(BadLine(parsed.source, line, problem + "; the array cannot be read past it"))
    return parsed


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def split_lines(data: bytes) -> list[bytes]:
    """The lines of a JSONL file: split at ``\n`` only (``\r\n`` too), after a UTF-8 byte-order mark."""
    data = data.removeprefix(codecs.BOM_UTF8)
    return [line.removesuffix(b"\r") for line in data.split(b"\n")]


def _line_text(line: str | bytes, max_turn_chars: int) -> str:
    size = len(line)
    if size > LINE_BYTES_PER_CHAR * max_turn_chars:
        raise ValueError(f"line is {size:,} bytes, over the limit of {LINE_BYTES_PER_CHAR * max_turn_chars:,} "
                         f"({LINE_BYTES_PER_CHAR} × Config.capture.max_turn_chars)")
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason}: byte 0x{line[exc.start]:02x} at column {exc.start + 1})"
                         ) from None


def _turn(line: str, default_session: str, max_turn_chars: int) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError("not valid JSON here: nested too deeply") from None
    return _checked(data, default_session, max_turn_chars)


def _checked(data: Any, default_session: str, max_turn_chars: int) -> dict[str, Any]:
    """One turn object, checked with the rules `Memory.add_turns` applies, as an `add_turns` mapping."""
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    for required in ("role", "content"):
        if required not in data:
            raise ValueError(f"missing required field '{required}'")
    if not isinstance(data["role"], str) or not data["role"].strip():
        raise ValueError(f"field 'role' must be a non-empty string, got {_show(data['role'])}")
    if data["role"].strip().lower() not in ROLES:
        raise ValueError(f"field 'role' must be one of {', '.join(ROLES)}, got {_show(data['role'])}")
    if not isinstance(data["content"], str):
        raise ValueError(f"field 'content' must be a string, got {_show(data['content'])}")
    if len(data["content"]) > max_turn_chars:
        raise ValueError(f"field 'content' is {len(data['content']):,} characters, over the limit of "
                         f"{max_turn_chars:,} (Config.capture.max_turn_chars)")
    for name, types in _OPTIONAL.items():
        value = data.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, types)):
            wanted = " or ".join("string" if t is str else "number" for t in dict.fromkeys(
                str if t is str else float for t in types))
            raise ValueError(f"field '{name}' must be a {wanted}, got {_show(value)}")
    if isinstance(data.get("user_id"), str) and data["user_id"] and not data["user_id"].strip():
        raise ValueError(f"field 'user_id' must be a non-empty string, got {_show(data['user_id'])}")
    tags = data.get("tags")
    texts = [(name, data.get(name)) for name in ("role", "content", *_OPTIONAL)]
    texts += [("tags", tag) for tag in tags] if isinstance(tags, list) else []
    for name, value in texts:
        if isinstance(value, str):
            check_unicode(value, f"field '{name}'")
    timestamp = data.get("timestamp")
    try:
        if timestamp is not None:
            to_epoch(timestamp, "field 'timestamp'")
        source = check_source(data.get("source"), "field 'source'")
        tags = check_tags(data.get("tags"), "field 'tags'")
    except (TypeError, ValueError) as exc:
        raise ValueError(str(exc)) from None
    session = data.get("session_id")
    turn_id = data.get("id")
    session_id = str(session) if session is not None and str(session).strip() else default_session
    for name, value in (("session_id", session_id), ("user_id", data.get("user_id") or None)):
        if value is not None:  # the ids Memory takes: no control character, not too long (util.check_id)
            check_id(str(value), f"field '{name}'")
    return {
        "role": data["role"],
        "content": data["content"],
        "session_id": session_id,
        "speaker": data.get("speaker") if data.get("speaker") is not None else data.get("name"),
        "timestamp": timestamp,
        "turn_id": str(turn_id) if turn_id is not None else None,
        "user_id": data.get("user_id") or None,
        "source": source,
        "tags": list(tags) or None,
    }


def _show(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    kind = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")
    return f"{kind} ({text[:40]})"
