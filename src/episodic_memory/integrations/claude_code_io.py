"""A coding-agent hook on the harness's machine, with the standard library only: the event, its project, each
session's state file, the transcript's new lines and the hook log.

Run by its path, it is the fast client of a running `episodic serve`, falling back to ``python -m
episodic_memory hook EVENT`` when no server answers (docs/hooks.md, "Faster: through a running server"); it
never fails the harness. It imports only what a start needs (no argparse, urllib or dataclasses): the client's
start is most of a hook's round trip (bench/hooks.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

APP_NAME = "episodic-memory"      # config.APP_NAME (this module reads nothing of the package)
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd", "PreCompact")
ENDING = ("SessionEnd", "PreCompact")
READS_TRANSCRIPT = ("Stop", *ENDING)
ROUTE = "/v1/hooks/claude-code/"
LOG_NAME = "hooks.log"
LOG_MAX_BYTES = 1 << 20            # past this the log moves to hooks.log.1 (one old log is kept)
TRANSCRIPT_READ_MAX_BYTES = 8 << 20  # one hook reads at most this much new transcript; the next reads on
TOOL_TEXT_MAX_CHARS = 2_000        # a tool call's input or output is cut to this as it is read (its start and
                                   # end, what summaries use; the whole never leaves the transcript)
DEFAULT_TIMEOUT_S = 8.0            # Config.hooks.timeout_s / hook_end_timeout_s, for a client given no --timeout
DEFAULT_END_TIMEOUT_S = 50.0
STATE_KEEP_DAYS = 30               # a session state untouched this long is removed (looked at when a session ends)
PROMPTS_KEPT = 20                  # digests of captured prompts kept until the transcript shows them


class HookState:
    """What a session's hooks remember between their processes (one JSON file per session)."""

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.transcript: str | None = None      # the transcript `offset` is into
        self.offset = 0                         # bytes of it already read
        self.turn = 0                           # the injector's turn: prompts answered (SessionStart is the first)
        self.injected: dict[str, int] = {}      # memory id -> the turn it was injected
        self.prompts: list[str] = []            # digests of prompts captured at UserPromptSubmit
        self.reply: str | None = None           # digest of a reply taken from the event before the transcript had it

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HookState) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"HookState({self.to_dict()!r})"

    @classmethod
    def from_dict(cls, data: Any, session_id: str) -> HookState:
        """The state in `data`, each field checked (a hand-edited or foreign file reads as a fresh state)."""
        state = cls(session_id)
        if not isinstance(data, dict):
            return state
        if isinstance(data.get("transcript"), str):
            state.transcript = data["transcript"]
        for name in ("offset", "turn"):
            value = data.get(name)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                setattr(state, name, value)
        injected = data.get("injected")
        if isinstance(injected, dict):
            state.injected = {str(k): v for k, v in injected.items() if isinstance(v, int) and not isinstance(v, bool)}
        prompts = data.get("prompts")
        if isinstance(prompts, list):
            state.prompts = [p for p in prompts if isinstance(p, str)][-PROMPTS_KEPT:]
        if isinstance(data.get("reply"), str):
            state.reply = data["reply"]
        return state

    def to_dict(self) -> dict[str, Any]:
        return {"session_id": self.session_id, "transcript": self.transcript, "offset": self.offset,
                "turn": self.turn, "injected": dict(self.injected), "prompts": list(self.prompts[-PROMPTS_KEPT:]),
                "reply": self.reply}


def digest(text: str) -> str:
    """A short fingerprint of `text`, whitespace-insensitive (a prompt as the event gave it and as the transcript
    kept it)."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _setting(name: str) -> str | None:
    """A hooks setting from the environment without importing Config (the hook's start stays light):
    ``EPISODIC_HOOKS__<NAME>``, else the flat ``EPISODIC_HOOK_<NAME>`` of earlier releases."""
    value = os.environ.get(f"EPISODIC_HOOKS__{name}")
    return value if value is not None else os.environ.get(f"EPISODIC_HOOK_{name}")


# --- where things are kept ---------------------------------------------------------------------------------
def state_dir(configured: str | None = None) -> Path:
    """`configured` (Config.hooks.state_dir), else $EPISODIC_HOOKS__STATE_DIR, else episodic-memory/hooks in
    the user state directory (where platformdirs' user_state_dir puts it)."""
    chosen = configured or _setting("STATE_DIR")
    if chosen:
        return Path(chosen).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / APP_NAME / "hooks"


def _state_file(folder: Path, session_id: str) -> Path:
    # a session id is the harness's: hashed, it is always a safe file name
    return folder / "sessions" / f"{hashlib.sha256(session_id.encode('utf-8', 'surrogatepass')).hexdigest()[:32]}.json"


def load_state(folder: Path, session_id: str) -> HookState:
    """The session's state, or a fresh one (none yet, or unreadable)."""
    try:
        data = json.loads(_state_file(folder, session_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return HookState(session_id)
    if not isinstance(data, dict) or data.get("session_id") != session_id:
        return HookState(session_id)
    return HookState.from_dict(data, session_id)


def save_state(folder: Path, state: HookState) -> None:
    """Written beside, then renamed into place: a hook killed mid-write leaves the old state."""
    path = _state_file(folder, state.session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(state.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def prune_states(folder: Path, keep_days: float = STATE_KEEP_DAYS) -> int:
    """Remove session states untouched for `keep_days`; returns how many."""
    cutoff, removed = time.time() - keep_days * 86_400, 0
    try:
        files = list((folder / "sessions").glob("*.json"))
    except OSError:
        return 0
    for path in files:
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except OSError:
            continue
    return removed


def log_line(folder: Path, event: str, session_id: str | None, message: str) -> None:
    """One line in the hook log ("2026-11-02T10:00:00Z UserPromptSubmit abc123: store is locked"); never raises.
    No prompt or reply text goes in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / LOG_NAME
        if path.exists() and path.stat().st_size > LOG_MAX_BYTES:
            os.replace(path, path.with_name(LOG_NAME + ".1"))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        text = " ".join(str(message).split())[:1000]
        with path.open("a", encoding="utf-8", errors="replace") as f:
            f.write(f"{stamp} {event} {session_id or '-'}: {text}\n")
    except Exception:  # noqa: BLE001 - the log is the last resort: nothing is left to tell
        pass


# --- the event ---------------------------------------------------------------------------------------------
def read_event(raw: bytes) -> dict[str, Any]:
    """The event's JSON object (UTF-8, a byte-order mark allowed); ValueError when it is not one."""
    payload = json.loads(raw.decode("utf-8-sig"))
    if not isinstance(payload, dict):
        raise ValueError(f"the event is a JSON {type(payload).__name__}, not an object")
    return payload


def project_of(cwd: object) -> str | None:
    """The project of a working directory: the name of the repository holding it (the nearest folder with a
    `.git`, a folder or a worktree's file), else the folder's own name; None without one."""
    if not isinstance(cwd, str) or not cwd.strip():
        return None
    start = Path(cwd).expanduser()
    for folder in (start, *start.parents):
        try:
            if (folder / ".git").exists():
                return folder.name or None
        except OSError:
            break
    return start.name or None


# --- the transcript ----------------------------------------------------------------------------------------
def new_entries(path: str, offset: int, max_bytes: int = TRANSCRIPT_READ_MAX_BYTES) -> tuple[list[dict[str, Any]], int]:
    """The user and assistant lines of the transcript after `offset` (each cut down by `compact_entry`), and the
    offset after the last whole line read. A line still being written (no newline yet) is left for the next read;
    a transcript shorter than `offset` was rewritten and is read from its start (the turns' ids, the transcript's
    uuids, keep what was captured from being stored twice). A missing file reads as nothing."""
    try:
        with open(Path(path).expanduser(), "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < offset:
                offset = 0
            f.seek(offset)
            data = f.read(max_bytes)
    except OSError:
        return [], offset
    end = data.rfind(b"\n")
    if end < 0:  # a line still being written, or one longer than max_bytes (skipped: its rest fails to parse)
        return [], offset + (len(data) if len(data) >= max_bytes else 0)
    entries = []
    for line in data[: end + 1].splitlines():
        if not line.strip():
            continue
        try:
            entry = compact_entry(json.loads(line))
        except ValueError:
            continue  # a damaged line is skipped, not the transcript
        if entry is not None:
            entries.append(entry)
    return entries, offset + end + 1


def compact_entry(obj: Any) -> dict[str, Any] | None:
    """A transcript line as the capture needs it: type, uuid, timestamp, flags and the content blocks, with
    thinking dropped and tool inputs and outputs cut to `TOOL_TEXT_MAX_CHARS` (their line count kept). Lines that
    are not a user's or the assistant's message (snapshots, summaries, system notes) are None."""
    if not isinstance(obj, dict) or obj.get("type") not in ("user", "assistant"):
        return None
    message = obj.get("message")
    if not isinstance(message, dict):
        return None
    content = message.get("content")
    if isinstance(content, list):
        content = [b for b in (_compact_block(b) for b in content) if b is not None]
    elif not isinstance(content, str):
        return None
    entry: dict[str, Any] = {"type": obj["type"], "content": content}
    for name in ("uuid", "timestamp"):
        if isinstance(obj.get(name), str):
            entry[name] = obj[name]
    for flag in ("isMeta", "isSidechain", "isCompactSummary"):
        if obj.get(flag) is True:
            entry[flag] = True
    return entry


def _compact_block(block: Any) -> dict[str, Any] | None:
    if isinstance(block, str):
        return {"type": "text", "text": block}
    if not isinstance(block, dict):
        return None
    kind = block.get("type")
    if kind == "text" and isinstance(block.get("text"), str):
        return {"type": "text", "text": block["text"]}
    if kind == "tool_use":
        return {"type": "tool_use", "id": str(block.get("id") or ""), "name": str(block.get("name") or "tool"),
                "input": _cut(block.get("input"))}
    if kind == "tool_result":
        text = _result_text(block.get("content"))
        return {"type": "tool_result", "tool_use_id": str(block.get("tool_use_id") or ""),
                "is_error": block.get("is_error") is True, "lines": len(text.splitlines()),
                "content": _head_and_tail(text)}
    if kind in ("image", "document"):
        return {"type": kind}
    return None  # thinking, redacted thinking: not kept


def _head_and_tail(text: str, limit: int = TOOL_TEXT_MAX_CHARS) -> str:
    """`text` cut to about `limit` characters, keeping its start and its end (where a command's outcome is)."""
    if len(text) <= limit:
        return text
    return text[: limit * 3 // 4] + "\n…\n" + text[-(limit // 4):]


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
                parts.append(block["text"])
            elif isinstance(block, dict) and block.get("type") == "image":
                parts.append("[image]")
        return "\n".join(parts)
    return ""


def _cut(value: Any, depth: int = 0) -> Any:
    """`value` with every string cut to `TOOL_TEXT_MAX_CHARS` and containers to 20 items, 3 levels deep."""
    if isinstance(value, str):
        return value[:TOOL_TEXT_MAX_CHARS]
    if depth >= 3:
        return None
    if isinstance(value, dict):
        return {str(k): _cut(v, depth + 1) for k, v in list(value.items())[:20]}
    if isinstance(value, list):
        return [_cut(v, depth + 1) for v in value[:20]]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)[:TOOL_TEXT_MAX_CHARS]


def prepare(event: str, payload: dict[str, Any], state: HookState) -> dict[str, Any]:
    """What `handle` (integrations/claude_code.py) takes, in this process or a server's: the event, its project,
    the session's state and, for Stop / SessionEnd / PreCompact, the transcript's new lines (the state's offset is
    moved past them: keep the state only once the event was handled)."""
    entries: list[dict[str, Any]] = []
    path = payload.get("transcript_path")
    if event in READS_TRANSCRIPT and isinstance(path, str) and path.strip():
        if state.transcript != path:
            state.transcript, state.offset = path, 0
        entries, state.offset = new_entries(path, state.offset)
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else os.environ.get("CLAUDE_PROJECT_DIR")
    return {"payload": payload, "project": project_of(cwd), "state": state.to_dict(), "entries": entries}


# --- the fast client ---------------------------------------------------------------------------------------
class ServerUnavailable(Exception):
    """No server to answer this event (refused, no such route, body too large): the store is opened instead."""


def forward(server: str, token: str | None, event: str, body: dict[str, Any], timeout: float) -> dict[str, Any]:
    """POST the prepared event to `server`; its JSON answer (`{"output": …, "state": …}`). Plain HTTP/1.1 over a
    socket, no proxy (the server is meant to be on this machine); ServerUnavailable when nothing listens there or
    the server has no such route or refuses the body's size."""
    scheme, _, rest = server.strip().partition("://")
    if scheme != "http" or not rest:
        raise ValueError(f"the hook server must be an http:// URL, got {server!r}")
    address, _, prefix = rest.partition("/")
    host, _, port = address.rpartition(":") if address.rsplit(":", 1)[-1].isdigit() else (address, "", "80")
    data = json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
    head = [f"POST /{prefix.strip('/') + '/' if prefix.strip('/') else ''}{ROUTE.lstrip('/')}{event} HTTP/1.1",
            f"Host: {address}", "Content-Type: application/json", f"Content-Length: {len(data)}",
            "Connection: close", *([f"Authorization: Bearer {token}"] if token else [])]
    try:
        connection = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
    except (ConnectionError, FileNotFoundError) as exc:
        raise ServerUnavailable(f"no server at {server}: {exc}") from None
    with connection:
        connection.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data)
        chunks = []
        while chunk := connection.recv(1 << 16):
            chunks.append(chunk)
    status, headers, content = _response(b"".join(chunks))
    if status in (404, 405, 413, 502, 503):
        raise ServerUnavailable(f"the server answered {status}")
    if status != 200:
        raise OSError(f"the server answered {status}: {content[:300].decode('utf-8', 'replace')}")
    answer = json.loads(content)
    if not isinstance(answer, dict):
        raise ValueError("the server's answer is not a JSON object")
    return answer


def _response(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """(status, headers in lower case, body) of an HTTP/1.1 response read to the end."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise OSError(f"not an HTTP response: {lines[0][:80]!r}")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = _dechunk(body)
    elif headers.get("content-length", "").isdigit():
        body = body[: int(headers["content-length"])]
    return int(parts[1]), headers, body


def _dechunk(body: bytes) -> bytes:
    out, rest = [], body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2:]
    return b"".join(out)


def output_text(output: Any) -> str:
    """What the hook prints: the output's JSON, or nothing."""
    return json.dumps(output, ensure_ascii=False) if isinstance(output, dict) and output else ""


def answered(server: str, token: str | None, event: str, payload: dict[str, Any], folder: Path,
             session_id: str, budget: float) -> str | None:
    """What the hook prints, as `server` answered the event (the session's state kept); None, logged, when
    no server answers (the store is opened instead)."""
    body = prepare(event, payload, load_state(folder, session_id))
    try:
        answer = forward(server, token, event, body, budget)
    except ServerUnavailable as exc:
        log_line(folder, event, session_id, f"{exc}; opening the store instead")
        return None
    save_state(folder, HookState.from_dict(answer.get("state"), session_id))
    if event in ENDING:
        prune_states(folder)
    return output_text(answer.get("output"))


def _options(argv: list[str]) -> tuple[str, dict[str, str]]:
    """`EVENT [--server URL] [--timeout S] [--db PATH] [--user ID]` (argparse costs a start ~10 ms)."""
    event, options, words = "", {}, iter(argv)
    for word in words:
        if word in ("--server", "--timeout", "--db", "--user"):
            options[word[2:]] = next(words, "")
        elif not word.startswith("-") and not event:
            event = word
    return event, options


def _direct(event: str, raw: bytes, options: dict[str, str], remaining: float) -> str:
    """`python -m episodic_memory hook EVENT`, with what is left of the time: its standard output."""
    import subprocess

    command = [sys.executable, "-m", "episodic_memory", "hook", event]
    for flag in ("db", "user"):
        if options.get(flag):
            command += [f"--{flag}", options[flag]]
    left = f"{max(remaining, 0.5):.2f}"
    env = {**os.environ, "EPISODIC_HOOKS__SERVER_URL": "", "EPISODIC_HOOKS__TIMEOUT_S": left,
           "EPISODIC_HOOKS__END_TIMEOUT_S": left}
    done = subprocess.run(command, input=raw, capture_output=True, timeout=remaining + 1.0, env=env, check=False)
    return done.stdout.decode("utf-8", "replace").strip()


def _budget(event: str, options: dict[str, str]) -> float:
    for value in (_setting("END_TIMEOUT_S" if event in ENDING else "TIMEOUT_S"),
                  options.get("timeout")):
        try:
            return float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
    return DEFAULT_END_TIMEOUT_S if event in ENDING else DEFAULT_TIMEOUT_S


def main(argv: list[str] | None = None) -> int:
    """The fast client (see the module's docstring): `claude_code_io.py EVENT [--server URL] [--timeout SECONDS]
    [--db PATH] [--user ID]` (--db and --user for the fallback that opens the store). Always exits 0."""
    started = time.monotonic()
    event, options = _options(sys.argv[1:] if argv is None else argv)
    folder = state_dir()
    session_id = None
    try:
        raw = sys.stdin.buffer.read()
        budget = _budget(event, options)
        server = options.get("server") or _setting("SERVER_URL") or ""
        if not server:
            text: str | None = _direct(event, raw, options, budget)
        else:
            payload = read_event(raw)
            session_id = payload.get("session_id") if isinstance(payload.get("session_id"), str) else None
            if event not in EVENTS or not session_id:
                raise ValueError(f"nothing to do: event {event!r}, session id {session_id!r}")
            text = answered(server, _setting("SERVER_TOKEN"), event, payload, folder, session_id, budget)
            if text is None:
                text = _direct(event, raw, options, budget - (time.monotonic() - started))
    except Exception as exc:  # noqa: BLE001 - a hook never fails the harness: the log says what happened
        log_line(folder, event, session_id, f"{type(exc).__name__}: {exc}")
        return 0
    if text:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
