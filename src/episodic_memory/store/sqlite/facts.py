"""Facts and entities on SQLite: the shared SQL of `store/sql/facts.py`, with the newest fact id and how a forget
renames entities (names compare by their columns' NOCASE collation)."""

from __future__ import annotations

import time

from ..sql.core import Scope
from ..sql.dialect import Tx
from ..sql.facts import FactCore
from .connection import Connection


class FactSQL(FactCore, Connection):
    """Facts and entities (a mixin of `SQLiteStore`)."""

    def max_fact_id(self) -> int:
        return int(self._query("SELECT coalesce(max(id), 0) FROM facts")[0][0])

    def _forget_names(self, tx: Tx, scope: Scope) -> int:
        user_where, user_params = scope.user_where, scope.user_params
        entities = tx.execute(
            f"DELETE FROM entities WHERE {user_where} AND id NOT IN (SELECT entity_id FROM fact_entities)",
            user_params).rowcount
        tx.execute(f"DELETE FROM entity_aliases WHERE {user_where} AND (entity_id NOT IN (SELECT id FROM entities) "
                   "OR NOT EXISTS (SELECT 1 FROM alias_sources s WHERE s.user_id = entity_aliases.user_id "
                   "AND s.alias = entity_aliases.alias))", user_params)
        tx.execute(  # an entity whose name no remaining fact used: the longest name it keeps
            f"UPDATE OR IGNORE entities SET name = (SELECT a.alias FROM entity_aliases a WHERE a.entity_id = entities.id "
            "ORDER BY length(a.alias) DESC, a.alias LIMIT 1), updated_at = ? "
            f"WHERE {user_where} AND NOT EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = entities.id "
            "AND a.alias = entities.name) AND EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = entities.id)",
            [time.time(), *user_params])
        return int(entities)
