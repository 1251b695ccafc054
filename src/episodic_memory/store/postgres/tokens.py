"""SQL for the REST server's bearer tokens on PostgreSQL (table `api_tokens`, m006). Only token hashes are stored;
forgetting a user (or everything) deletes that user's tokens too."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import psycopg

from ..records import TokenRecord
from ..rows import TOKEN_COLUMNS as _COLUMNS
from ..rows import token_row as _record
from .connection import PgConnection


class TokenPg(PgConnection):
    """Bearer tokens of the REST API, by hash (a mixin of `PostgresStore`)."""

    def insert_token(self, user_id: str, token_hash: str, label: str | None,
                     read_agents: Sequence[str] = (), write_agents: Sequence[str] = ()) -> TokenRecord:
        with self.transaction() as db:
            row = db.execute(f"INSERT INTO api_tokens (user_id, token_hash, label, created_at, read_agents, "
                             f"write_agents) VALUES (%s, %s, %s, %s, %s, %s) RETURNING {_COLUMNS}",
                             (user_id, token_hash, label, time.time(), json.dumps(list(read_agents)),
                              json.dumps(list(write_agents)))).fetchone()
        assert row is not None
        return _record(row)

    def token_by_hash(self, token_hash: str) -> TokenRecord | None:
        rows = self._query(f"SELECT {_COLUMNS} FROM api_tokens WHERE token_hash = %s", (token_hash,))
        return _record(rows[0]) if rows else None

    def list_tokens(self, user_id: str | None = None) -> list[TokenRecord]:
        if user_id is None:
            rows = self._query(f"SELECT {_COLUMNS} FROM api_tokens ORDER BY id")
        else:
            rows = self._query(f"SELECT {_COLUMNS} FROM api_tokens WHERE user_id = %s ORDER BY id", (user_id,))
        return [_record(r) for r in rows]

    def revoke_token(self, token_id: int) -> TokenRecord | None:
        with self.transaction() as db:
            row = db.execute(f"UPDATE api_tokens SET revoked_at = coalesce(revoked_at, %s) WHERE id = %s "
                             f"RETURNING {_COLUMNS}", (time.time(), token_id)).fetchone()
        return _record(row) if row else None

    def touch_token(self, token_id: int, when: float) -> None:
        with self.transaction() as db:
            db.execute("UPDATE api_tokens SET last_used = %s WHERE id = %s", (when, token_id))

    # --- forgetting -----------------------------------------------------------------------------------
    def _forget_tokens(self, db: psycopg.Connection, where: str, params: dict[str, Any]) -> dict[str, int]:
        if "session" in params:
            return {}
        return {"tokens": db.execute(f"DELETE FROM api_tokens WHERE {where}", params).rowcount}
