"""The Memory Anchor compatibility layer: its five functions over an episodic-memory `Memory`.

    from memory_system import init_db, log_exchange, flush_buffer, recall_recent
    init_db()
    log_exchange("What's the weather?", "It's sunny and 72°")   # during conversation
    flush_buffer()                                               # on heartbeat
    context = recall_recent(hours=24)                            # next session

`raw_memories` are turns and curated `memories` are facts (`CATEGORIES` maps categories onto fact types, importance
onto salience): docs/compat.md, "Memory Anchor compatibility". `log_exchange` writes both turns through the fsynced
journal before it returns; `flush_buffer` consolidates the exchanges logged since the last flush.
"""

from __future__ import annotations

import atexit
import threading
import time
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from episodic_memory import Memory
from episodic_memory.util import to_iso

__all__ = ["CATEGORIES", "close", "flush_buffer", "init_db", "log_exchange", "recall_recent", "remember"]

# Memory Anchor's curated categories → fact types
CATEGORIES: dict[str, str] = {"identity": "identity", "user": "preference", "lesson": "lesson", "goal": "goal",
                              "fact": "knowledge"}
_TYPE_CATEGORY = {t: c for c, t in CATEGORIES.items()}

_lock = threading.RLock()
_memory: Memory | None = None
_session_id = ""
_buffer: dict[str, int] = {}  # session -> turns logged there since the last flush


def init_db(path: str | Path | None = None) -> Memory:
    """Open (or create) the store: `path`, else `$EPISODIC_DB`, else `memory.db` in the user data directory.

    Starts a new session for `log_exchange`. Returns the `Memory`, for everything this layer does not cover."""
    global _memory, _session_id
    with _lock:
        if _memory is not None:
            close()
        _memory = Memory(path)
        _session_id = time.strftime("anchor-%Y%m%dT%H%M%SZ-", time.gmtime()) + uuid.uuid4().hex[:6]
        return _memory


def _open() -> Memory:
    return _memory if _memory is not None else init_db()


def log_exchange(user_text: str, agent_text: str, *, session_id: str | None = None, source: str | None = None,
                 tags: Iterable[str] | None = None) -> list[str]:
    """Record one exchange: the user's turn and the agent's, journaled and fsynced before this returns.

    `session_id` defaults to the session `init_db` started. Returns the two turn ids."""
    with _lock:
        mem = _open()
        session = session_id or _session_id
        tag_list = None if tags is None else list(tags)
        ids = mem.add_turns([
            {"role": "user", "content": user_text, "session_id": session, "source": source, "tags": tag_list},
            {"role": "assistant", "content": agent_text, "session_id": session, "source": source, "tags": tag_list},
        ])
        _buffer[session] = _buffer.get(session, 0) + len(ids)
        return ids


def flush_buffer() -> int:
    """Consolidate the exchanges logged since the last flush; returns how many turns that was.

    They were durable already (the journal): a crash before a flush loses nothing, and the next open consolidates
    them. The sessions stay open: later exchanges join them."""
    with _lock:
        if _memory is None or not _buffer:
            return 0
        flushed = sum(_buffer.values())
        for session in list(_buffer):
            _memory.scheduler.run_now(_memory.user_id, session)
            del _buffer[session]
        return flushed


def remember(content: str, category: str = "fact", importance: int = 5) -> int:
    """Store a curated memory (Memory Anchor's `memories` table) as a fact. Returns the fact's id.

    `category`: identity, user, lesson, goal or fact (or a fact type's name); `importance` 1–10, kept as the
    fact's salience (importance / 10)."""
    fact_type = CATEGORIES.get(category, category)
    with _lock:
        return _open().add_fact(content, type=fact_type, importance=importance)


def recall_recent(hours: float = 24, *, limit: int = 200) -> dict[str, Any]:
    """What the last `hours` left: `{"count", "memories", "briefing"}`.

    `memories`: the raw exchanges (turns) and the curated memories (current facts, extracted or remembered) of the
    window, newest first, at most `limit`; `briefing`: the text of `episodic brief` for the same window."""
    with _lock:
        mem = _open()
        since = time.time() - hours * 3600
        raw = [(t.ts, {"layer": "raw", "id": t.source_id, "role": t.role, "content": t.content,
                       "session_id": t.session_id, "source": t.source, "tags": t.tags, "timestamp": to_iso(t.ts)})
               for t in mem.turns_since(since, limit=limit)]
        curated = [(f.created_at, {"layer": "curated", "id": f.id, "category": _TYPE_CATEGORY.get(f.type, f.type),
                                   "type": f.type, "content": f.text,
                                   "importance": max(1, min(10, round(f.salience * 10))),
                                   "session_id": f.session_id, "timestamp": to_iso(f.created_at)})
                   for f in mem.store.facts(mem.user_id, since=since, limit=limit)]
        memories = [m for _, m in sorted([*raw, *curated], key=lambda pair: pair[0], reverse=True)[:limit]]
        return {"count": len(memories), "memories": memories, "briefing": mem.brief(hours=hours).render()}


def close() -> None:
    """Close the store (at interpreter exit too). Nothing logged is lost: consolidation resumes at the next open."""
    global _memory
    with _lock:
        if _memory is not None:
            _memory.close()
            _memory = None
            _buffer.clear()


atexit.register(close)
