"""`StoreCore`: forgetting, which spans every mixin."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core import ForgetStep, Scope, SQLCore


class StoreCore(SQLCore):
    """Forgetting a session, a user or everything, in one transaction, across the mixins' forget steps."""

    if TYPE_CHECKING:
        _heads: Any  # the turn-head cache of this process (None until read)
        _forget_facts: ForgetStep
        _forget_judgments: ForgetStep
        _forget_threads: ForgetStep
        _forget_tokens: ForgetStep

    def _forget_steps(self) -> list[ForgetStep]:
        """The derived memories' forget steps, in the order they run before the turns and sessions go."""
        return [self._forget_facts, self._forget_judgments, self._forget_threads, self._forget_tokens]

    def forget(self, *, user_id: str | None = None, session_id: str | None = None) -> dict[str, Any]:
        if session_id is not None and user_id is None:
            raise ValueError("forgetting a session needs its user_id")
        scope = Scope(user_id, session_id, self.dialect.everything)
        where, params = scope.where, scope.params
        with self._write() as tx:
            files = [r[0] for r in tx.execute(f"SELECT journal_file FROM sessions WHERE {where}{tx.dialect.for_update}",
                                              params) if r[0]]
            counts: dict[str, Any] = {}
            for step in self._forget_steps():
                counts.update(step(tx, scope))
            counts["turns"] = tx.execute(f"DELETE FROM turns WHERE {where}", params).rowcount
            counts["sessions"] = tx.execute(f"DELETE FROM sessions WHERE {where}", params).rowcount
            tx.execute(f"DELETE FROM vectors WHERE {where}", params)  # belt and braces: none of theirs may remain
            if self._heads is not None:
                self._heads.clear()  # nothing read from a forgotten turn stays in this process either
        return {**counts, "journal_files": files}
