"""SQL for the REST server's bearer tokens (table `api_tokens`, migration m006), stored by hash."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from ...faults import fault_point
from ..records import TokenRecord
from ..rows import TOKEN_COLUMNS as _COLUMNS
from ..rows import token_row as _record
from .core import Scope, SQLCore
from .dialect import Tx


class TokenCore(SQLCore):
    """Bearer tokens of the REST API, by hash (a mixin of both stores)."""

    def insert_token(self, user_id: str, token_hash: str, label: str | None,
                     read_agents: Sequence[str] = (), write_agents: Sequence[str] = ()) -> TokenRecord:
        now = time.time()
        with self._write() as tx:
            token_id = tx.insert("INSERT INTO api_tokens (user_id, token_hash, label, created_at, read_agents, "
                                 "write_agents) VALUES (?, ?, ?, ?, ?, ?)",
                                 (user_id, token_hash, label, now, json.dumps(list(read_agents)),
                                  json.dumps(list(write_agents))))
        return TokenRecord(int(token_id or 0), user_id, label, now, None, None, tuple(read_agents),
                           tuple(write_agents))

    def token_by_hash(self, token_hash: str) -> TokenRecord | None:
        rows = self._rows(f"SELECT {_COLUMNS} FROM api_tokens WHERE token_hash = ?", (token_hash,))
        return _record(rows[0]) if rows else None

    def list_tokens(self, user_id: str | None = None) -> list[TokenRecord]:
        where, params = ("", ()) if user_id is None else (" WHERE user_id = ?", (user_id,))
        rows = self._rows(f"SELECT {_COLUMNS} FROM api_tokens{where} ORDER BY id", params)
        return [_record(r) for r in rows]

    def revoke_token(self, token_id: int) -> TokenRecord | None:
        with self._write() as tx:
            tx.execute("UPDATE api_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?", (time.time(), token_id))
            fault_point("tokens.revoke_uncommitted")
            row = tx.one(f"SELECT {_COLUMNS} FROM api_tokens WHERE id = ?", (token_id,))
        return _record(row) if row else None

    def touch_token(self, token_id: int, when: float) -> None:
        with self._write() as tx:
            tx.execute("UPDATE api_tokens SET last_used = ? WHERE id = ?", (when, token_id))

    # --- forgetting -----------------------------------------------------------------------------------
    def _forget_tokens(self, tx: Tx, scope: Scope) -> dict[str, int]:
        """Forget step: a user's tokens go with the user, every token with everything; a session's forget keeps them."""
        if scope.per_session:
            return {}
        return {"tokens": tx.execute(f"DELETE FROM api_tokens WHERE {scope.where}", scope.params).rowcount}
