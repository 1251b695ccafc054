"""What recall returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class Hit:
    """One recalled memory. `source_ids` are the caller's ids of the turns behind it (internal ids where none)."""

    id: str
    kind: str
    text: str
    score: float
    timestamp: datetime | None
    session_id: str | None
    source_ids: list[str]
    speaker: str | None = None
    role: str | None = None
    user_id: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    source: str | None = None                        # a turn's source and tags (issue 19); None / [] otherwise
    tags: list[str] = field(default_factory=list)

    def copy(self) -> Hit:
        """A copy whose lists and dicts are its own (to mutate without touching a cached hit)."""
        twin = object.__new__(Hit)
        twin.__dict__.update(self.__dict__, source_ids=list(self.source_ids), details=dict(self.details),
                             tags=list(self.tags))
        return twin

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "score": self.score,
            "timestamp": self.timestamp.isoformat() if self.timestamp else None,
            "session_id": self.session_id,
            "source_ids": list(self.source_ids),
            "speaker": self.speaker,
            "role": self.role,
            "user_id": self.user_id,
            "details": self.details,
            "source": self.source,
            "tags": list(self.tags),
        }
