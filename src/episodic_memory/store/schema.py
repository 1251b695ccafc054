"""Schema migrations recorded by name: the rule both backends' `migrations.py` follow.

Each backend's migrations are the functions of its `migrations.py` named ``mNNN_what_it_does``, in ascending
number (`listed`: its `MIGRATIONS`; the same names on both backends), applied by `apply`. A store keeps one row of `_migrations` (version, name, applied_at) for each migration
it has applied, and the name is what counts: an open applies, in list order, every migration whose name has no row,
and refuses a store with a row whose name this code does not know (a newer episodic-memory applied it). `version`
is only the order in which this store applied its migrations (1, 2, …). A store's schema version (what
`Store.schema_version`, `stats()["schema_version"]` and the export header report) is how many migrations it has
applied: `len(MIGRATIONS)`, `SCHEMA_VERSION`, once this code has opened it. So a store this code migrated still
opens in the code before issue 44 when it has no migration that code lacks (its highest version is then that
code's count), and is refused there as newer when it has one.

Before issue 44 the version was read as a place in the list, which skips m011 (version 11 was m012): a migration
slotted into its numbered place would have shifted every later one, and stores would have skipped or repeated
steps. Every store written before then has a row per migration with its name beside that number (since the first
`_migrations` table; no store kept only a number), so the one-time mapping from version to name is the `name`
column those stores already hold: they are read as they are, and their versions stay the order they were applied in.

A migration slotted into its numbered place after later ones have shipped runs after them on stores that have them:
it must not depend on coming first. Append new ones with the next free number; never edit or rename one that has
shipped. tests/test_migrations.py holds both lists to unique numbers and names in ascending order, the same on both
backends, and upgrades a store made at every earlier schema.
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
    """The places in `known` (a backend's migration names, in order) of those `recorded` has no row for, in order.

    Raises `StoreVersionError` when `recorded` names a migration that `known` does not.
    """
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
