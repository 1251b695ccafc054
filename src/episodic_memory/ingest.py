"""Reading conversation transcripts (JSON Lines) into turns, with errors that name file, line and field."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

from .util import to_epoch

SAMPLE_NAME = "sample_conversation.jsonl"

#: optional fields and the types they accept
_OPTIONAL: dict[str, tuple[type, ...]] = {
    "session_id": (str, int),
    "timestamp": (str, int, float),
    "speaker": (str,),
    "name": (str,),
    "id": (str, int),
    "user_id": (str,),
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


def parse_lines(lines: Iterable[str], source: str, default_session: str) -> ParsedFile:
    """Validate every line; good ones become `Memory.add_turns` mappings, bad ones are listed (never raised)."""
    parsed = ParsedFile(source)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            parsed.turns.append(_turn(line, default_session))
        except ValueError as exc:
            parsed.bad.append(BadLine(source, number, str(exc)))
    return parsed


def parse_file(path: str, *, stdin_text: str | None = None) -> ParsedFile:
    """Parse a JSONL file (or standard input when `path` is ``-``). One file without session ids is one session."""
    if path == "-":
        default_session = "stdin-" + datetime.now().strftime("%Y%m%d-%H%M%S")
        return parse_lines((stdin_text or "").splitlines(), "<stdin>", default_session)
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return ParsedFile(path, bad=[BadLine(path, 0, f"not UTF-8 text ({exc.reason} at byte {exc.start})")])
    return parse_lines(text.splitlines(), path, file.stem)


def _turn(line: str, default_session: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    for required in ("role", "content"):
        if required not in data:
            raise ValueError(f"missing required field '{required}'")
    if not isinstance(data["role"], str) or not data["role"].strip():
        raise ValueError(f"field 'role' must be a non-empty string, got {_show(data['role'])}")
    if not isinstance(data["content"], str):
        raise ValueError(f"field 'content' must be a string, got {_show(data['content'])}")
    for name, types in _OPTIONAL.items():
        value = data.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, types)):
            wanted = " or ".join("string" if t is str else "number" for t in dict.fromkeys(
                str if t is str else float for t in types))
            raise ValueError(f"field '{name}' must be a {wanted}, got {_show(value)}")
    timestamp = data.get("timestamp")
    if timestamp is not None:
        try:
            to_epoch(timestamp, "field 'timestamp'")
        except (TypeError, ValueError) as exc:
            raise ValueError(str(exc)) from None
    session = data.get("session_id")
    turn_id = data.get("id")
    return {
        "role": data["role"],
        "content": data["content"],
        "session_id": str(session) if session is not None and str(session).strip() else default_session,
        "speaker": data.get("speaker") if data.get("speaker") is not None else data.get("name"),
        "timestamp": timestamp,
        "turn_id": str(turn_id) if turn_id is not None else None,
        "user_id": data.get("user_id") or None,
    }


def _show(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    kind = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")
    return f"{kind} ({text[:40]})"
