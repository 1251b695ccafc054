"""`SessionBuffer`: the capture door of the episodic-memory write-up (a compatibility API), one agent session at a time, onto the same `Memory`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .default import default_memory
from .memory import Memory
from .store.records import StoredTurn


class SessionBuffer:
    """Append a session's turns, each journaled and fsynced before `append_turn` returns; consolidated every
    `Config.capture.consolidate_every` turns and at `end()`."""

    def __init__(self, session_id: str, *, memory: Memory | None = None, user_id: str | None = None) -> None:
        self.session_id = session_id
        self.memory = memory or default_memory()
        self.user_id = user_id or self.memory.user_id
        self.ended = False

    def append_turn(self, role: str, content: str, **meta: Any) -> str:
        """Record a turn. `meta` may hold speaker (or name), timestamp, turn_id (or id), user_id, source, tags
        (as `Memory.add_turn` takes them)."""
        unknown = set(meta) - {"speaker", "name", "timestamp", "turn_id", "id", "user_id", "source", "tags"}
        if unknown:
            raise TypeError(f"append_turn() got unexpected metadata: {', '.join(sorted(unknown))}")
        timestamp: datetime | str | None = meta.get("timestamp")
        turn_id = meta.get("turn_id", meta.get("id"))
        return self.memory.add_turn(
            role, content, session_id=self.session_id, speaker=meta.get("speaker", meta.get("name")),
            timestamp=timestamp, turn_id=None if turn_id is None else str(turn_id),
            user_id=meta.get("user_id") or self.user_id, source=meta.get("source"), tags=meta.get("tags"),
        )

    @property
    def turns(self) -> list[StoredTurn]:
        return self.memory.session_turns(self.session_id, user_id=self.user_id)

    def end(self) -> None:
        """End the session: consolidate what is left."""
        if not self.ended:
            self.memory.end_session(self.session_id, user_id=self.user_id, wait=True)
            self.ended = True

    def __len__(self) -> int:
        return len(self.turns)

    def __enter__(self) -> SessionBuffer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.end()
