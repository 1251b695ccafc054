"""An OpenAI Agents SDK session backed by a `Memory`: ``pip install ".[openai-agents]"``, then
``EpisodicSession("chat-42", AsyncMemory("memory.db"))`` as a `Runner.run` session; ``await session.end()``
consolidates it.

The SDK's history is the store's session of that id: one turn per item, the item kept whole in the turn's
metadata. How items become turns: README.md, "OpenAI Agents SDK".
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from typing import Any

from agents.items import TResponseInputItem
from agents.memory import SessionSettings
from agents.memory.session_settings import resolve_session_limit

from ..aio import AsyncMemory
from ..memory import Memory
from ..store.records import StoredTurn
from ..util import check_id

SOURCE = "openai-agents"   # the turns' source
KEY = "openai_agents"      # the item, whole, in a turn's metadata
_ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
_QUIET = {"id", "type", "status", "call_id", "encrypted_content", "created_by"}  # left out of a summary


class EpisodicSession:
    """The SDK's `Session` protocol over a `Memory` (see the module docstring)."""

    def __init__(self, session_id: str, memory: Memory | AsyncMemory, *, user_id: str | None = None,
                 session_settings: SessionSettings | None = None) -> None:
        """`memory`: an `AsyncMemory` (its threads run the calls), or a `Memory` (wrapped in an AsyncMemory of its
        own). `user_id`: whose session (default: the memory's user). `session_settings`: the SDK's, e.g.
        `SessionSettings(limit=50)` for the history a run reads."""
        self.memory = memory if isinstance(memory, AsyncMemory) else AsyncMemory.from_memory(memory)
        self.session_id = check_id(session_id, "session_id")
        self.user_id = check_id(user_id or self.memory.user_id, "user_id")
        self.session_settings = session_settings
        self._call_names: dict[str, str] = {}  # a function call's id -> the function's name, for its output

    # --- the Session protocol ------------------------------------------------------------------------------
    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The history, oldest first: all of it, or the latest `limit` items (`session_settings.limit` when not
        given; 0: none)."""
        limit = resolve_session_limit(limit, self.session_settings)
        items = [_item_of(t) for t in await self.memory.session_turns(self.session_id, self.user_id)]
        for item in items:
            self._remember_call(item)
        if limit is None or limit < 0:
            return items
        return items[-limit:] if limit else []

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Append items: one turn each, all durable (or none stored) when it returns."""
        if not items:
            return
        for item in items:
            self._remember_call(item)
        config = self.memory.config
        turns = []
        for item in items:
            if not isinstance(item, Mapping):
                raise TypeError(f"a session item must be a mapping, got {type(item).__name__}")
            role, content = turn_of(item, self._call_names, max_chars=config.capture.max_turn_chars,
                                    summary_chars=config.capture.agent_item_summary_chars)
            turns.append({"role": role, "content": content, "session_id": self.session_id, "user_id": self.user_id,
                          "source": SOURCE, "metadata": {KEY: dict(item)}})
        await self.memory.add_turns(turns)

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove the latest item (its turn) and return it; None when the session is empty."""
        turn = await self.memory.pop_turn(self.session_id, self.user_id)
        return None if turn is None else _item_of(turn)

    async def clear_session(self) -> None:
        """Forget the session: its items, its turns, what consolidation drew from them, its journal."""
        if await self.memory.run(self.memory.memory.store.session, self.user_id, self.session_id) is not None:
            await self.memory.forget(session_id=self.session_id, user_id=self.user_id)

    # --- beyond the protocol -------------------------------------------------------------------------------
    async def end(self) -> None:
        """The conversation is over: consolidate what it has not yet (facts, its episode, open loops; in the
        background, and the next read of the user's memory waits for it). Nothing to do before the first item."""
        with contextlib.suppress(KeyError):
            await self.memory.end_session(self.session_id, self.user_id)

    def _remember_call(self, item: Any) -> None:
        if isinstance(item, Mapping) and item.get("type") == "function_call" and item.get("call_id"):
            self._call_names[str(item["call_id"])] = str(item.get("name") or "a tool")

    def __repr__(self) -> str:
        return f"EpisodicSession({self.session_id!r}, user_id={self.user_id!r})"


def turn_of(item: Mapping[str, Any], call_names: Mapping[str, str], *, max_chars: int,
            summary_chars: int) -> tuple[str, str]:
    """(role, content) of the turn an item becomes: a message's role and text, or "tool" and a one-line summary."""
    kind, role = item.get("type"), item.get("role")
    if kind in (None, "message") and role in _ROLES:
        return _ROLES[str(role)], (_text(item.get("content")) or "(empty message)")[:max_chars]
    if kind == "function_call":
        summary = f"called {item.get('name') or 'a tool'}({item.get('arguments') or ''})"
    elif kind == "function_call_output":
        name = call_names.get(str(item.get("call_id")), "a tool")
        summary = f"{name} returned: {_text(item.get('output'))}"
    elif kind == "reasoning":
        summary = "reasoning: " + (" ".join(_text(s) for s in item.get("summary") or []) or "(not shown)")
    else:
        rest = {k: v for k, v in item.items() if k not in _QUIET}
        summary = f"{kind or 'item'}: {json.dumps(rest, ensure_ascii=False, default=str)}"
    summary, cap = " ".join(summary.split()), min(summary_chars, max_chars)
    return "tool", summary if len(summary) <= cap else summary[: cap - 1] + "…"


def _text(content: Any) -> str:
    """The text of a message's content: a string, or its parts' text (an image or a file by a placeholder)."""
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        content = [content]
    if not isinstance(content, list):
        return "" if content is None else str(content)
    parts = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, Mapping):
            kind = str(part.get("type") or "")
            if isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part.get("refusal"), str):
                parts.append(f"(refused) {part['refusal']}")
            elif kind.endswith("image"):
                parts.append("[image]")
            elif kind.endswith("file"):
                parts.append(f"[file {part.get('filename') or ''}]".replace(" ]", "]"))
            elif kind.endswith("audio"):
                parts.append("[audio]")
    return "\n".join(p for p in parts if p)


def _item_of(turn: StoredTurn) -> TResponseInputItem:
    """The item a turn holds; a turn another door added, as a plain message."""
    item = (turn.metadata or {}).get(KEY) if turn.source == SOURCE else None
    if isinstance(item, dict):
        return item  # type: ignore[return-value]
    role = turn.role if turn.role in ("user", "assistant", "system") else "assistant"
    return {"role": role, "content": turn.content}  # type: ignore[return-value,misc]


__all__ = ["EpisodicSession", "SOURCE", "turn_of"]
