"""What the shared SQL (`store/sql/`) needs to know of a backend: a `Dialect` (how a statement is written)
and a `Tx` (how it runs inside a write transaction). An id list is ``col IN ({marks})``; a shared statement
holds no ``%`` (`Dialect.sql` turns each ``?`` into PostgreSQL's ``%s``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...util import chunks

MARKS = " IN ({marks})"


@dataclass(frozen=True)
class Dialect:
    """The words a shared statement takes from its backend."""

    qmark: bool        # statements run as written (``?`` marks); else each ``?`` becomes ``%s``
    is_not: str        # null-safe "differs from"
    nulls_last: str    # after ``DESC``: where NULLs go (SQLite puts them last already)
    for_update: str    # row locks on what a transaction reads to change (SQLite: one writer at a time)
    noindex: str       # before a column whose index the plan should not use: SQLite's unary + (PostgreSQL plans alone)
    greatest: str      # the larger of two values
    everything: str    # a WHERE clause that holds for every row
    folds_case: bool   # names compare case-insensitively by their columns' collation (SQLite's NOCASE); else lower()
    true: str          # a flag column's values (SQLite: integers)
    false: str
    indexes: bool      # `indexed` names the index a statement reads (SQLite's INDEXED BY, where its planner errs)

    def sql(self, text: str) -> str:
        """`text` (``?`` marks) as this backend runs it."""
        return text if self.qmark else _percent_marks(text)

    def any(self, column: str, values: Iterable[Any]) -> tuple[str, list[Any]]:
        """(``column`` is one of `values`, its parameters), for a short list (not chunked)."""
        values = list(values)
        if self.qmark:
            return f"{column} IN ({','.join('?' * len(values))})", values
        return f"{column} = ANY(?)", [values]

    def indexed(self, index: str) -> str:
        """After a table name: read it through `index` (SQLite; PostgreSQL plans alone)."""
        return f" INDEXED BY {index}" if self.indexes else ""

    def same_name(self, column: str) -> str:
        """``column`` equals one ``?`` mark, case-insensitively (entity names and aliases)."""
        return f"{column} = ?" if self.folds_case else f"lower({column}) = lower(?)"

    def by_name(self, column: str) -> str:
        """An ORDER BY on a name column, case-insensitively (ties in the order of the name itself)."""
        return column if self.folds_case else f"lower({column}), {column}"

    def runs(self, sql: str, values: Sequence[Any], before: Sequence[Any] = (), after: Sequence[Any] = ()
             ) -> list[tuple[str, list[Any]]]:
        """`sql` with ``IN ({marks})`` standing for `values`, as the statements (and their parameters) to run:
        `before` and `after` are the parameters around them. SQLite: one per chunk (it limits the variables of a
        statement); PostgreSQL: one, the values an array."""
        if self.qmark:
            return [(sql.replace("{marks}", ",".join("?" * len(chunk))), [*before, *chunk, *after])
                    for chunk in chunks(values)]
        return [(self.sql(sql.replace(MARKS, " = ANY(?)")), [*before, list(values), *after])] if values else []

    def ignore(self, insert: str) -> str:
        """An ``INSERT INTO …`` that skips a row whose key is already stored."""
        if self.qmark:
            return insert.replace("INSERT INTO", "INSERT OR IGNORE INTO", 1)
        return insert + " ON CONFLICT DO NOTHING"


@lru_cache(maxsize=1024)
def _percent_marks(text: str) -> str:
    assert "%" not in text, f"a shared statement holds no %: {text!r}"
    return text.replace("?", "%s")


SQLITE = Dialect(qmark=True, is_not="IS NOT", nulls_last="", for_update="", noindex="+",
                 greatest="max", everything="1 = 1", folds_case=True,
                 true="1", false="0", indexes=True)
POSTGRES = Dialect(qmark=False, is_not="IS DISTINCT FROM", nulls_last=" NULLS LAST",
                   for_update=" FOR UPDATE", noindex="", greatest="greatest", everything="true",
                   folds_case=False, true="true", false="false", indexes=False)


class Tx:
    """A write transaction's connection, running shared statements (``?`` marks) in its backend's dialect."""

    def __init__(self, db: Any, dialect: Dialect) -> None:
        self.db = db
        self.dialect = dialect

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The cursor of one statement (`rowcount`, `fetchone`, `fetchall`, iteration)."""
        return self.db.execute(self.dialect.sql(sql), params)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of one statement, or None."""
        return self.execute(sql, params).fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(self.execute(sql, params).fetchall())

    def all_in(self, sql: str, values: Sequence[Any], before: Sequence[Any] = (), after: Sequence[Any] = ()
               ) -> list[Any]:
        """The rows of `sql` with ``IN ({marks})`` standing for `values` (`Dialect.runs`)."""
        runs = self.dialect.runs(sql, values, before, after)
        return [row for text, params in runs for row in self.db.execute(text, params).fetchall()]

    def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """One statement for each of `rows` (none: nothing runs)."""
        rows = list(rows)
        if not rows:
            return
        if self.dialect.qmark:
            self.db.executemany(sql, rows)
        else:
            with self.db.cursor() as cur:
                cur.executemany(self.dialect.sql(sql), rows)

    def insert(self, sql: str, params: Sequence[Any], *, ignore: bool = False) -> int | None:
        """Run an ``INSERT INTO`` of one row and return its id; `ignore`: None when its key was already stored."""
        if ignore:
            sql = self.dialect.ignore(sql)
        if self.dialect.qmark:
            cur = self.db.execute(sql, params)
            if ignore and not cur.rowcount:
                return None
            return int(cur.lastrowid or 0)
        row = self.execute(sql + " RETURNING id", params).fetchone()
        return None if row is None else int(row[0])
