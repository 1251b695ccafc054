"""Facts and entities on PostgreSQL: the shared SQL of `store/sql/facts.py`, with the newest fact id (from the
counters), a per-user lock on entity resolution, and how a forget renames entities (names compare through
lower())."""

from __future__ import annotations

import time

from ..sql.core import Scope
from ..sql.dialect import Tx
from ..sql.facts import FactCore
from .connection import PgConnection


class FactPg(FactCore, PgConnection):
    """Facts and entities (a mixin of `PostgresStore`)."""

    def max_fact_id(self) -> int:
        return self._counters()["facts"]

    def _lock_entities(self, tx: Tx, user_id: str) -> None:
        tx.execute("SELECT pg_advisory_xact_lock(hashtextextended('entities:' || ?, 0))", (user_id,))

    def _forget_names(self, tx: Tx, scope: Scope) -> int:
        user_where, user_params = scope.user_where, scope.user_params
        entities = tx.execute(
            f"DELETE FROM entities WHERE {user_where} AND NOT EXISTS "
            "(SELECT 1 FROM fact_entities fe WHERE fe.entity_id = entities.id)", user_params).rowcount
        tx.execute(f"DELETE FROM entity_aliases WHERE {user_where} AND NOT EXISTS (SELECT 1 FROM alias_sources s "
                   "WHERE s.user_id = entity_aliases.user_id AND lower(s.alias) = lower(entity_aliases.alias))",
                   user_params)
        tx.execute(  # an entity whose name no remaining fact used: the longest name it keeps (unless another has it)
            "UPDATE entities e SET name = n.alias, updated_at = ? FROM (SELECT DISTINCT ON (a.entity_id) "
            "a.entity_id, a.alias FROM entity_aliases a ORDER BY a.entity_id, length(a.alias) DESC, a.alias) n "
            f"WHERE n.entity_id = e.id AND {user_where.replace('user_id', 'e.user_id')} AND NOT EXISTS "
            "(SELECT 1 FROM entity_aliases a WHERE a.entity_id = e.id AND a.alias = e.name) AND NOT EXISTS "
            "(SELECT 1 FROM entities o WHERE o.user_id = e.user_id AND o.id <> e.id AND lower(o.name) = lower(n.alias))",
            [time.time(), *user_params])
        return int(entities)
