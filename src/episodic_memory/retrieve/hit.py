"""What recall returns."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
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

    def said_by(self) -> str:
        """"Name: " to print before the text: a turn's speaker, and a fact's when it speaks in the first person
        ("Melanie: I took my kids to the park" — whose kids?); "" otherwise."""
        if not self.speaker or self.kind not in ("turn", "fact"):
            return ""
        if self.kind == "fact" and not _FIRST_PERSON.search(self.text):
            return ""  # "The deck needs 14 slides": whoever said it
        return f"{self.speaker}: "

    def copy(self) -> Hit:
        """A copy whose lists and dicts are its own (to mutate without touching a cached hit)."""
        twin = object.__new__(Hit)
        twin.__dict__.update(self.__dict__, source_ids=list(self.source_ids), details=dict(self.details),
                             tags=list(self.tags))
        return twin

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**out, "timestamp": self.timestamp.isoformat() if self.timestamp else None,
                "source_ids": list(self.source_ids), "tags": list(self.tags)}


_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i’m|i've|i’ve|i'll|i’ll|i'd|i’d|me|my|mine|we|we're|we’re|we've|we’ve|us|our)\b",
                           re.IGNORECASE)
