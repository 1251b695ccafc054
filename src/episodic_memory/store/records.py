"""Plain records passed between the layers (no SQL, no I/O)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any


def to_datetime(epoch: float | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, tz=timezone.utc)


@dataclass(frozen=True)
class TurnRecord:
    """One conversation turn as journaled and stored."""

    uid: str
    user_id: str
    session_id: str
    seq: int
    role: str
    content: str
    ts: float
    ingested_at: float
    speaker: str | None = None
    turn_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnRecord:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


@dataclass
class StoredTurn:
    """A turn read back from the store."""

    id: int
    user_id: str
    session_id: str
    seq: int
    role: str
    content: str
    ts: float
    ingested_at: float
    speaker: str | None
    turn_id: str | None

    @property
    def source_id(self) -> str:
        """The caller's id, or the internal one when the caller gave none."""
        return self.turn_id if self.turn_id is not None else str(self.id)


@dataclass
class SessionInfo:
    user_id: str
    session_id: str
    status: str
    started_at: float | None
    last_turn_at: float | None
    turn_count: int
    consolidated_turns: int
    needs_consolidation: bool
    ended_at: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "session_id": self.session_id,
            "status": self.status,
            "started_at": _iso(self.started_at),
            "last_turn_at": _iso(self.last_turn_at),
            "ended_at": _iso(self.ended_at),
            "turns": self.turn_count,
            "consolidated_turns": self.consolidated_turns,
            "needs_consolidation": self.needs_consolidation,
        }


def _iso(epoch: float | None) -> str | None:
    dt = to_datetime(epoch)
    return dt.isoformat() if dt else None
