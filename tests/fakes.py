"""Small stand-ins for tests: a deterministic bag-of-words embedder."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np


class HashingEmbedder:
    """Each word hashes to a dimension; texts sharing words are close. Deterministic, instant."""

    def __init__(self, model_id: str = "hashing-64", dim: int = 64) -> None:
        self.model_id = model_id
        self.dim = dim
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        out = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-9)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


class ScriptedBackend:
    """An LLM backend replaying recorded replies, chosen by a keyword of the system prompt (the call's purpose).

    `replies` maps a substring of the system prompt to a list of replies, used in order (the last one repeats); a
    reply that is an Exception instance is raised instead. Every call is kept in `calls` as (system, user).
    """

    def __init__(self, replies: dict[str, list[object] | object] | None = None, default: object = "[]") -> None:
        self.replies = {k: list(v) if isinstance(v, list) else [v] for k, v in (replies or {}).items()}
        self.default = default
        self.calls: list[tuple[str, str]] = []

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        self.calls.append((system_prompt, user_prompt))
        reply: object = self.default
        for key, queue in self.replies.items():
            if key.lower() in system_prompt.lower():
                reply = queue.pop(0) if len(queue) > 1 else queue[0]
                break
        if isinstance(reply, Exception):
            raise reply
        return str(reply)

    def calls_for(self, key: str) -> list[tuple[str, str]]:
        return [c for c in self.calls if key.lower() in c[0].lower()]


T0 = datetime(2026, 11, 2, 10, tzinfo=timezone.utc)


def play_session(mem: Any, sid: str, lines: list[str], day: float = 0, *, end: bool = True,
                 user_id: str | None = None, turn_ids: bool = False) -> None:
    """A session of `lines` (Maya's, or the assistant's when a line starts with "> "), a minute apart from
    `T0 + day`; ended (consolidated) unless `end=False`. `turn_ids` gives the turns ids "<sid>-<i>"."""
    for i, line in enumerate(lines):
        role, text = ("assistant", line[2:]) if line.startswith("> ") else ("user", line)
        mem.add_turn(role, text, session_id=sid, speaker="Maya" if role == "user" else None,
                     timestamp=T0 + timedelta(days=day, minutes=i), user_id=user_id,
                     turn_id=f"{sid}-{i}" if turn_ids else None)
    if end:
        mem.end_session(sid, user_id=user_id, wait=True)


def hashing_memory(**overrides: object) -> Any:
    """A throwaway store with a fast fake embedder and `Config(**overrides)`."""
    from episodic_memory import Config, Memory

    return Memory(":memory:", config=Config(**overrides), embedder=HashingEmbedder(dim=256))
