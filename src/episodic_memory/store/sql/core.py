"""`SQLCore`: what every shared mixin of `store/sql/` reads and writes through, and what each backend's connection
supplies to it (`_query`, `transaction`, its `Dialect`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .dialect import Dialect, Tx

if TYPE_CHECKING:
    from ...config import Config


@dataclass(frozen=True)
class Scope:
    """What a forget deletes: one session (`user_id` and `session_id`), one user (`user_id`), or everything."""

    user_id: str | None
    session_id: str | None
    everything: str  # the dialect's always-true clause

    @property
    def per_session(self) -> bool:
        return self.session_id is not None

    @property
    def where(self) -> str:
        """The clause on `user_id` (and `session_id`) columns that selects the scope's rows; `params` fill it."""
        if self.session_id is not None:
            return "user_id = ? AND session_id = ?"
        return self.everything if self.user_id is None else "user_id = ?"

    @property
    def params(self) -> list[Any]:
        return [v for v in (self.user_id, self.session_id) if v is not None]

    @property
    def user_where(self) -> str:
        """The clause that selects the scope's user's rows (every row when the scope is everything)."""
        return self.everything if self.user_id is None else "user_id = ?"

    @property
    def user_params(self) -> list[Any]:
        return self.params[:1]


#: a forget step: (the transaction, the scope) -> {table: rows deleted}
ForgetStep = Callable[[Tx, Scope], dict[str, int]]


class SQLCore:
    """The base of both backends' connections (`sqlite.connection.Connection`, `postgres.connection.PgConnection`).
    A shared mixin runs its statements (written with ``?`` marks) through `_rows`, `_rows_in` and `_write`."""

    dialect: ClassVar[Dialect]
    config: Config

    if TYPE_CHECKING:  # supplied by each backend's connection
        def _query(self, sql: str, params: Any = ()) -> list[Any]: ...

        def transaction(self, *locks: str) -> AbstractContextManager[Any]: ...

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one shared statement."""
        return self._query(self.dialect.sql(sql), params)

    def _rows_in(self, sql: str, values: Sequence[Any], before: Sequence[Any] = (), after: Sequence[Any] = ()
                 ) -> list[Any]:
        """The rows of a shared statement with ``IN ({marks})`` standing for `values` (`Dialect.runs`)."""
        runs = self.dialect.runs(sql, values, before, after)
        return [row for text, params in runs for row in self._query(text, params)]

    @contextmanager
    def _write(self, *locks: str) -> Iterator[Tx]:
        """A write transaction for shared statements; `locks`: the tables whose id order readers follow
        (PostgreSQL's advisory locks, `postgres.connection.ID_ORDER_LOCKS`; SQLite has one writer at a time)."""
        with self.transaction(*locks) as db:
            yield Tx(db, self.dialect)

    def _vector(self, vec: bytes) -> Any:
        """A vector (float32 bytes) as the `vectors.vec` column takes it."""
        return vec
