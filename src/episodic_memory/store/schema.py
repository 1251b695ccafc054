"""Schema migrations recorded by name: the rule both backends' `migrations.py` follow (`listed`, `apply`).

A store keeps one `_migrations` row (version, name, applied_at) per migration it applied; the name is what
counts, and the schema version is how many it applied (docs/architecture.md, "Migrations": how to add one).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .errors import StoreOpenError

Migration = Callable[[Any], None]  # one step, given the backend's connection
_NAME = re.compile(r"m\d{3}_\w+")


class StoreVersionError(StoreOpenError):
    """The store was written by a newer episodic-memory than this one: it has a migration this code does not know."""


def pending(recorded: Sequence[str], known: Sequence[str], where: str) -> list[int]:
    """The places in `known` (a backend's migration names, in order) of those `recorded` has no row for;
    `StoreVersionError` when `recorded` names one `known` does not."""
    names = set(known)
    newer = [name for name in recorded if name not in names]
    if newer:
        raise StoreVersionError(f"{where} has migration {newer[0]}, which this episodic-memory does not know: it was "
                                "written by a newer version. Upgrade episodic-memory to open it.")
    done = set(recorded)
    return [place for place, name in enumerate(known) if name not in done]


def check_current(recorded: Sequence[str], known: Sequence[str], where: str) -> int:
    """A read-only open (nothing is migrated): the store must have applied every migration in `known` and none
    other. Returns its schema version; `StoreVersionError` or `StoreOpenError` say why not."""
    missing = pending(recorded, known, where)
    if not recorded:
        raise StoreOpenError(f"{where} is not an episodic-memory store (it has no schema)")
    if missing:
        raise StoreOpenError(f"{where} lacks {len(missing)} of this version's migrations (the first: "
                             f"{known[missing[0]]}) and is read-only here: open it once with write access to bring "
                             "it up to date")
    return len(known)


def recorded(db: Any) -> list[str]:
    """The names of the migrations the store has applied (its `_migrations` rows), in the order it applied them."""
    return [name for (name,) in db.execute("SELECT name FROM _migrations ORDER BY version").fetchall()]


def listed(namespace: Mapping[str, Any]) -> list[Migration]:
    """A backend's migrations: the functions named ``mNNN_what_it_does`` in its module's `namespace`, by number."""
    return [f for name, f in sorted(namespace.items()) if _NAME.fullmatch(name) and callable(f)]


def apply(db: Any, migrations: Sequence[Migration], where: str, mark: str,
          after_step: Callable[[], None] = lambda: None) -> int:
    """Run, in order, the `migrations` the store has no `_migrations` row for, each recorded there after it
    (`mark`: the backend's placeholder), inside the caller's transaction. Returns the schema version."""
    for place in pending(recorded(db), [m.__name__ for m in migrations], where):
        migration = migrations[place]
        migration(db)
        db.execute("INSERT INTO _migrations (version, name, applied_at) "
                   f"VALUES ((SELECT coalesce(max(version), 0) + 1 FROM _migrations), {mark}, {mark})",
                   (migration.__name__, time.time()))
        after_step()
    return len(migrations)
