"""Claude Code's hook events over a `Memory`: what ``episodic hook EVENT`` does (docs/hooks.md, "What each
event does").

`handle` is where an event meets the memory, in this process (`run`) or a server's (server/hooks.py), with the
state its caller keeps between events (claude_code_io.py). A session is the harness's `session_id`; every
turn's `source` is the project (the repository of the event's `cwd`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any, cast

from ..config import Config
from ..inject import EpisodicInjector
from ..memory import Memory
from ..retrieve.hit import Hit
from ..util import MAX_INT, check_id, check_source, to_epoch
from .claude_code_io import (
    ENDING,
    EVENTS,
    PROMPTS_KEPT,
    HookState,
    answered,
    digest,
    load_state,
    log_line,
    output_text,
    prepare,
    prune_states,
    read_event,
    save_state,
    state_dir,
)

# user lines of a transcript that are not something the user asked: slash commands and their output, `!` shell
# input, the caveat before local command output, an interruption notice
NOT_PROMPTS = ("<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
               "<local-command-stderr>", "<bash-input>", "<bash-stdout>", "<bash-stderr>", "Caveat: ",
               "[Request interrupted")
# the argument that says what a tool call was about, by tool name (others: their first string argument)
TOOL_SUBJECT = {"Bash": "command", "Read": "file_path", "Write": "file_path", "Edit": "file_path",
                "MultiEdit": "file_path", "NotebookEdit": "notebook_path", "Glob": "pattern", "Grep": "pattern",
                "LS": "path", "WebFetch": "url", "WebSearch": "query", "Task": "description", "Agent": "description",
                "Skill": "skill"}
QUIET_OUTPUT = ("Write", "Edit", "MultiEdit", "NotebookEdit")  # their output only says the file changed
COUNT_ONLY = ("Read", "Grep", "Glob", "LS")   # their output is the file or the matches: how many lines says enough
LAST_LINE = ("Bash",)                         # a command's outcome is in its last line (pytest, make, npm, git …)
EVENT_REPLY = ("last_assistant_message", "prompt_response")  # the reply in the event itself (newer Claude Code,
                                                             # Codex; Gemini CLI's AfterAgent)


def handle(mem: Memory, event: str, body: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """One hook event: (the hook's output, `{}` when it has nothing to say; the session's state to keep).

    `body` is what `claude_code_io.prepare` makes: the event's `payload`, its `project`, the session's `state` and
    the transcript's new `entries`. Raises ValueError on an unknown event or a payload without a session id."""
    if event not in EVENTS:
        raise ValueError(f"unknown hook event {event!r}: one of {', '.join(EVENTS)}")
    payload = body.get("payload")
    if not isinstance(payload, dict):
        raise ValueError("the hook event is not a JSON object")
    session_id = check_id(payload.get("session_id"), "session_id")
    state = HookState.from_dict(body.get("state"), session_id)
    project = check_source(body.get("project"), "project")
    entries = body.get("entries")
    entries = entries if isinstance(entries, list) else []
    context = ""
    if event == "SessionStart":
        context = _session_start(mem, state, payload)
    elif event == "UserPromptSubmit":
        context = _prompt(mem, state, payload, project)
    else:
        _capture(mem, state, payload, project, entries)
        if event in ENDING and mem.session(session_id) is not None:
            mem.end_session(session_id, wait=True)
    if not context:
        return {}, state.to_dict()
    name = payload.get("hook_event_name")
    name = name if isinstance(name, str) and name.strip() else event
    return {"hookSpecificOutput": {"hookEventName": name, "additionalContext": context}}, state.to_dict()


# --- SessionStart, UserPromptSubmit --------------------------------------------------------------------------
def _session_start(mem: Memory, state: HookState, payload: Mapping[str, Any]) -> str:
    """[Ongoing work] (a fresh injector's first turn, with nothing to recall) and the briefing, when it has news."""
    if payload.get("source") in ("clear", "compact"):
        state.injected.clear()  # the context starts again: what was injected into it is gone
    cfg = mem.config
    parts = [EpisodicInjector(mem, session_id=state.session_id).get_context("").strip()]
    state.turn = max(state.turn, 1)  # the prompts that follow get [Recalled context], not [Ongoing work] again
    brief = mem.brief(hours=cfg.hooks.brief_hours)
    if any((brief.sessions, brief.decisions, brief.corrections, brief.open_loops, brief.workstreams, brief.pinned)):
        parts.append(brief.render())
    return _cut_at_line("\n\n".join(p for p in parts if p), cfg.hooks.context_max_chars)


def _prompt(mem: Memory, state: HookState, payload: Mapping[str, Any], project: str | None) -> str:
    """The prompt as a user turn, then [Recalled context] for it (the session's own turns are not recalled: the
    harness has them)."""
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return ""
    cfg = mem.config
    mem.add_turn("user", prompt[: cfg.capture.max_turn_chars], session_id=state.session_id, source=project)
    state.prompts = [*state.prompts, digest(prompt)][-PROMPTS_KEPT:]  # the transcript's copy is not captured again
    source = ProjectFirst(mem, project) if project and cfg.hooks.prefer_project else mem
    injector = _SessionInjector(cast(Memory, source), state)
    block = injector.get_context(prompt).strip()
    injector.keep(state)
    return block


class _SessionInjector(EpisodicInjector):
    """The injector of one harness session, whose turn and injected memories live in the session's state between
    hook processes (so a memory is not injected again within `Config.inject.repeat_after_turns` prompts)."""

    def __init__(self, memory: Memory, state: HookState) -> None:
        super().__init__(memory, session_id=state.session_id)
        self.turn = state.turn
        self._injected = dict(state.injected)

    def keep(self, state: HookState) -> None:
        window = self.config.inject.repeat_after_turns
        state.turn = self.turn
        state.injected = {key: turn for key, turn in self._injected.items() if self.turn - turn < window}


class ProjectFirst:
    """A `Memory` whose recall takes the project's memories (its turns, and what was distilled from them) and
    everything's best in turn, the project's first; the rest is the memory's own. So the project's memories lead
    without shutting out what holds everywhere (the user's preferences said in another repository)."""

    def __init__(self, memory: Memory, project: str) -> None:
        self._memory, self._project = memory, project

    def recall(self, query: str, k: int = 10, user_id: str | None = None, **filters: Any) -> list[Hit]:
        own = self._memory.recall(query, k, user_id, source=self._project, **filters)
        rest = self._memory.recall(query, k, user_id, **filters)
        merged: dict[str, Hit] = {}  # by id, the first of each
        for pair in zip_longest(own, rest):
            for hit in pair:
                if hit is not None:
                    merged.setdefault(hit.id, hit)
        return list(merged.values())[:k]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._memory, name)


# --- Stop, SessionEnd, PreCompact: the transcript -----------------------------------------------------------
@dataclass
class Draft:
    """A turn read from the transcript, before it is stored."""

    role: str
    content: str
    turn_id: str | None = None      # the transcript line's uuid: read twice, a turn is stored once
    timestamp: str | None = None


@dataclass
class _Call:
    name: str
    arguments: Any
    result: Mapping[str, Any] | None = None

    def summary(self, limit: int) -> str:
        """"[Bash: pytest -q → 1 failed, 11 passed in 0.42s (68 lines)]": what the call was about, how it ended."""
        subject = _subject(self.name, self.arguments)
        line = f"{self.name}: {subject}" if subject else self.name
        if self.result is not None:
            text = str(self.result.get("content") or "")
            lines = self.result.get("lines")
            count = lines if isinstance(lines, int) else len(text.splitlines())
            said = [s.strip() for s in text.splitlines() if s.strip() and s.strip() != "…"]
            shown = (said[-1] if self.name in LAST_LINE else said[0]) if said else ""
            size = f" ({count} lines)" if count > 1 else ""
            if self.result.get("is_error"):
                line += (f" → error: {shown}" if shown else " → error") + size
            elif self.name in COUNT_ONLY:
                line += f" → {count} lines"
            elif shown and self.name not in QUIET_OUTPUT:
                line += f" → {shown}{size}"
        return "[" + _clip(" ".join(line.split()), limit - 2) + "]"


def _subject(name: str, arguments: Any) -> str:
    if not isinstance(arguments, Mapping):
        return ""
    key = TOOL_SUBJECT.get(name)
    value = arguments.get(key) if key else None
    if name == "TodoWrite" and isinstance(arguments.get("todos"), list):
        return f"{len(arguments['todos'])} items"
    if not isinstance(value, str):
        value = next((v for v in arguments.values() if isinstance(v, str) and v.strip()), "")
    if name == "Grep" and isinstance(arguments.get("path"), str):
        value += f" in {arguments['path']}"
    return value


def exchanges(entries: Iterable[Any], state: HookState, config: Config) -> tuple[list[Draft], set[str]]:
    """The transcript's new lines as turns, in order: each prompt the user typed (unless UserPromptSubmit already
    captured it: `state.prompts`) and, between prompts, the assistant's reply as one turn — its text, and a line
    per tool call with its outcome. Sidechains (subagents), meta lines and compaction summaries are left out. Also
    the digests of the reply texts seen (a reply the event gave before the transcript had it is not taken twice)."""
    drafts: list[Draft] = []
    seen: set[str] = set()
    parts: list[str | _Call] = []
    calls: dict[str, _Call] = {}
    last: Mapping[str, Any] | None = None

    def flush() -> None:
        nonlocal last
        if parts and last is not None:
            drafts.append(Draft("assistant", _render(parts, config), _str(last.get("uuid")),
                                _str(last.get("timestamp"))))
        parts.clear()
        calls.clear()
        last = None

    for entry in entries:
        if not isinstance(entry, Mapping) or entry.get("isSidechain") or entry.get("isMeta") \
                or entry.get("isCompactSummary"):
            continue
        blocks = _blocks(entry.get("content"))
        if entry.get("type") == "assistant":
            for block in blocks:
                if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"].strip():
                    mark = digest(block["text"])
                    seen.add(mark)
                    if mark == state.reply:  # taken from the event already
                        state.reply = None
                        continue
                    parts.append(block["text"].strip())
                elif block.get("type") == "tool_use":
                    call = _Call(str(block.get("name") or "tool"), block.get("input"))
                    calls[str(block.get("id") or "")] = call
                    parts.append(call)
            last = entry
        elif entry.get("type") == "user":
            results = [b for b in blocks if b.get("type") == "tool_result"]
            for result in results:
                answered = calls.get(str(result.get("tool_use_id") or ""))
                if answered is not None:
                    answered.result = result
            if results:
                continue
            said = "\n".join(b["text"] for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str))
            text = "\n".join([said, *(f"[{b['type']}]" for b in blocks if b.get("type") in ("image", "document"))])
            if not text.strip() or text.lstrip().startswith(NOT_PROMPTS):
                continue
            flush()
            mark = digest(said)  # the prompt's words, as UserPromptSubmit had them (pasted images aside)
            if mark in state.prompts:
                state.prompts.remove(mark)
                continue
            drafts.append(Draft("user", text[: config.capture.max_turn_chars], _str(entry.get("uuid")),
                                _str(entry.get("timestamp"))))
    flush()
    return drafts, seen


def _capture(mem: Memory, state: HookState, payload: Mapping[str, Any], project: str | None,
             entries: list[Any]) -> None:
    """Store the transcript's new turns (and the event's own reply, when the transcript lacks it yet)."""
    cfg = mem.config
    drafts, seen = exchanges(entries, state, cfg)
    reply = next((payload[k] for k in EVENT_REPLY if isinstance(payload.get(k), str) and payload[k].strip()), None)
    if reply is not None and digest(reply) not in seen and digest(reply) != state.reply:
        text = _clip(reply.strip(), cfg.hooks.reply_max_chars)
        if drafts and drafts[-1].role == "assistant":  # its tool calls were written, its closing words not yet
            drafts[-1].content = _clip(drafts[-1].content + "\n\n" + text, cfg.hooks.reply_max_chars)
        else:
            drafts.append(Draft("assistant", text))
        state.reply = digest(reply)
    turns = [{"role": d.role, "content": d.content, "session_id": state.session_id, "turn_id": d.turn_id,
              "timestamp": _when(d.timestamp), "source": project} for d in drafts if d.content.strip()]
    fresh = mem.unseen_turns(turns)
    if fresh:
        mem.add_turns(fresh)


def _blocks(content: Any) -> list[Mapping[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [b for b in content if isinstance(b, Mapping)]
    return []


def _render(parts: list[str | _Call], config: Config) -> str:
    """Text paragraphs apart, consecutive tool lines together, cut to `Config.hooks.reply_max_chars`."""
    out = ""
    previous: str | _Call | None = None
    for part in parts:
        piece = part if isinstance(part, str) else part.summary(config.hooks.tool_summary_chars)
        if out:
            out += "\n" if isinstance(part, _Call) and isinstance(previous, _Call) else "\n\n"
        out += piece
        previous = part
    return _clip(out, config.hooks.reply_max_chars)


def _clip(text: str, limit: int) -> str:
    text = text if "\n" in text else " ".join(text.split())
    return text if len(text) <= limit else text[: max(limit - 1, 0)].rstrip() + "…"


def _cut_at_line(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit("\n", 1)[0].rstrip() + "\n…"


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _when(timestamp: str | None) -> float | None:
    """A transcript time as epoch seconds; None (now) when it is missing or not a time."""
    try:
        return to_epoch(timestamp) if timestamp else None
    except (ValueError, TypeError):
        return None


# --- in this process: `episodic hook EVENT` -------------------------------------------------------------------
def budget_of(config: Config, event: str) -> float:
    return config.hooks.end_timeout_s if event in ENDING else config.hooks.timeout_s


def hook_config(config: Config, event: str) -> Config:
    """The Config a hook process opens the store with: it waits on a busy store no longer than its budget, and
    consolidates only at the events that end the session (mid-session the harness would wait; a server's own
    worker consolidates as usual)."""
    budget = budget_of(config, event)
    changes: dict[str, Any] = {"store.busy_timeout_ms": int(budget * 1000), "store.lock_timeout_s": budget,
                               "consolidation.lease_wait_s": min(config.consolidation.lease_wait_s, budget)}
    if event not in ENDING:
        changes.update({"capture.consolidate_on_open": False, "capture.consolidate_every": MAX_INT})
    return config.replace(changes)


@dataclass
class HookRun:
    text: str                 # what to print for the harness ("" for nothing)
    finished: bool = True     # False: the budget ran out with the work still going (end the process hard)


def run(event: str, raw: bytes, *, db: str, user_id: str, config: Config) -> HookRun:
    """Handle one event within its budget (`Config.hooks.timeout_s`, `hook_end_timeout_s`), never raising: with
    `Config.hooks.server_url` through the server, else (or when none answers) on the store at `db`. Past the
    budget the answer is empty and the work is left running in a daemon thread (the caller ends the process)."""
    folder = state_dir(config.hooks.state_dir)
    budget = budget_of(config, event)
    answer: list[str] = []
    session = _peek_session(raw)
    worker = threading.Thread(target=lambda: answer.append(_run(event, raw, db, user_id, config, budget)),
                              name="episodic-hook", daemon=True)
    with _logging_to(folder, event, session):
        worker.start()
        worker.join(budget)
    if worker.is_alive():
        log_line(folder, event, session, f"no answer within {budget:g}s (Config.hooks.timeout_s / hook_end_timeout_s):"
                 " the store is busy or slow; the harness got an empty answer")
        return HookRun("", finished=False)
    return HookRun(answer[0] if answer else "")


def _run(event: str, raw: bytes, db: str, user_id: str, config: Config, budget: float) -> str:
    folder = state_dir(config.hooks.state_dir)
    session_id: str | None = None
    try:
        payload = read_event(raw)
        session_id = check_id(payload.get("session_id"), "session_id")
        if event not in EVENTS:
            raise ValueError(f"unknown hook event {event!r}: one of {', '.join(EVENTS)}")
        hooks = config.hooks
        if hooks.server_url:
            text = answered(hooks.server_url, hooks.server_token, event, payload, folder, session_id, budget)
            if text is not None:
                return text
        body = prepare(event, payload, load_state(folder, session_id))
        with Memory(db, user_id=user_id, config=hook_config(config, event)) as mem:
            output, state = handle(mem, event, body)
            save_state(folder, HookState.from_dict(state, session_id))
        if event in ENDING:
            prune_states(folder)
        return output_text(output)
    except Exception as exc:  # noqa: BLE001 - a hook never fails the harness: the log says what happened
        log_line(folder, event, session_id, f"{type(exc).__name__}: {exc}")
        return ""


class _HookLog(logging.Handler):
    """The package's warnings and errors, as lines of the hook log (standard error is the harness's)."""

    def __init__(self, folder: Path, event: str, session_id: str | None) -> None:
        super().__init__(logging.WARNING)
        self.where = (folder, event, session_id)

    def emit(self, record: logging.LogRecord) -> None:
        log_line(*self.where, f"{record.levelname.lower()}: {record.getMessage()}")


@contextmanager
def _logging_to(folder: Path, event: str, session_id: str | None) -> Iterator[None]:
    logger = logging.getLogger("episodic_memory")
    handler, propagate = _HookLog(folder, event, session_id), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _peek_session(raw: bytes) -> str | None:
    try:
        session = read_event(raw).get("session_id")
    except ValueError:
        return None
    return session if isinstance(session, str) else None
