"""Per-user bearer tokens for the REST API: ``em_`` + 32 random bytes, shown once; the store keeps only the
SHA-256, so a copy of the database file hands out no working token.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from ..config import Config
from ..faults import fault_point
from ..scopes import check_agents, check_user
from ..store import Store, open_store
from ..store.records import TokenRecord

TOKEN_PREFIX = "em_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TokenStore:
    """Create, check, list and revoke tokens in the memory file (table `api_tokens`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._touched: dict[int, float] = {}
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: str | Path, config: Config | None = None) -> TokenStore:
        return cls(open_store(path, config))

    def close(self) -> None:
        self.store.close()

    def create(self, user_id: str, label: str | None = None, *, read_agents: Iterable[str] = (),
               write_agents: Iterable[str] = ()) -> tuple[str, TokenRecord]:
        """A new token for `user_id`: (the token, shown only now; its record). `read_agents` are the agent scopes
        its requests may read besides the user's; `write_agents` those they may write, forget (and read)."""
        if not isinstance(user_id, str) or not user_id.strip():
            raise ValueError(f"user must be a non-empty string, got {user_id!r}")
        user_id = check_user(user_id, "user")  # an agent's scope is never a token's user
        reads, writes = check_agents(read_agents, "read_agents"), check_agents(write_agents, "write_agents")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        return token, self.store.insert_token(user_id, hash_token(token), label, reads, writes)

    def user_for(self, token: str) -> str | None:
        """The user a live token acts as; None for an unknown or revoked token."""
        record = self.record_for(token)
        return None if record is None else record.user_id

    def record_for(self, token: str) -> TokenRecord | None:
        """A live token's record (its user and agent scopes); None for an unknown or revoked token."""
        record = self.store.token_by_hash(hash_token(token))
        if record is None or record.revoked:
            return None
        now = time.time()
        with self._lock:
            # last_used is written at most every Config.server.token_touch_every_s: a write per request would contend
            due = now - self._touched.get(record.id, 0.0) >= self.store.config.server.token_touch_every_s
            if due:
                self._touched[record.id] = now
        if due:
            self.store.touch_token(record.id, now)
        return record

    def list(self, user_id: str | None = None) -> list[TokenRecord]:
        return self.store.list_tokens(user_id)

    def revoke(self, token_id: int) -> TokenRecord:
        """Revoke a token by id (see `list`); it stops working at once. KeyError if there is no such token."""
        record = self.store.revoke_token(token_id)
        fault_point("tokens.after_revoke")
        if record is None:
            raise KeyError(f"no token with id {token_id}")
        return record
