"""Moving a whole store to another one — a SQLite file to PostgreSQL, or back — through the export format, and
proving nothing was lost: per user the counts of every kind, and a sample of turns recalled first in both
stores (docs/postgres.md)."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .config import Config
from .memory import Memory

#: the counts compared per user: stored turns and sessions, then what consolidation derived
COMPARED = ("turns", "sessions", "facts", "episodes", "workstreams", "loops", "entities", "judgments")


@dataclass
class MigrationReport:
    users: int = 0
    added: dict[str, int] = field(default_factory=dict)  # rows the destination gained, per kind
    mismatches: list[str] = field(default_factory=list)  # "user: kind source N, destination M"
    recall_checked: int = 0
    recall_agreed: int = 0
    recall_misses: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.recall_agreed == self.recall_checked


def _counts(mem: Memory, user: str) -> dict[str, int]:
    counts = {**mem.store.counts(user), **mem.derived_counts(user)}
    return {k: int(counts.get(k, 0)) for k in COMPARED}


def migrate(source: str, dest: str, *, config: Config | None = None, sample: int = 20, seed: int = 0,
            say: Callable[[str], None] = lambda _: None) -> MigrationReport:
    """Copy every user's memories from the store at `source` to the one at `dest` (paths or PostgreSQL URLs) and
    check them. The destination may hold other users already (an import keeps what is there); a user present in
    both is merged, and then its counts are compared as "at least"."""
    if source == dest:
        raise ValueError("the source and the destination are the same store")
    config = config or Config.from_env()
    report = MigrationReport()
    with Memory(source, config=config) as src:
        src.wait_for_consolidation()
        users = src.store.users()
        report.users = len(users)
        with Memory(dest, config=config.replace({"capture.consolidate_on_open": False})) as dst:
            before = {u: _counts(dst, u) for u in dst.store.users()}
            with tempfile.TemporaryDirectory(prefix="episodic-migrate-") as tmp:
                file = Path(tmp) / "store.jsonl.gz"
                say(f"exporting {len(users)} user(s) from {source}")
                src.export(file, all_users=True)
                say(f"importing into {dest} (embedding with its model)")
                report.added = dst.import_(file)
            for user in users:
                want, got = _counts(src, user), _counts(dst, user)
                merged = user in before
                for kind in COMPARED:
                    if got[kind] != want[kind] and not (merged and got[kind] >= want[kind]):
                        report.mismatches.append(f"{user}: {kind} source {want[kind]}, destination {got[kind]}")
            _check_recall(src, dst, users, sample, seed, report)
    return report


def _check_recall(src: Memory, dst: Memory, users: list[str], sample: int, seed: int,
                  report: MigrationReport) -> None:
    """Recall a sample of turns by their own words (turns only, in the turn's user) in both stores: the same text
    must come first in each."""
    rng = random.Random(seed)
    pool = [(u, s.session_id) for u in users for s in src.store.sessions(u, None)]
    rng.shuffle(pool)
    for user, session_id in pool:
        if report.recall_checked >= sample:
            break
        turns = [t for t in src.store.session_turns(user, session_id) if len(t.content.split()) >= 4]
        if not turns:
            continue
        query = " ".join(rng.choice(turns).content.split()[:24])
        report.recall_checked += 1
        first = [h.text for h in src.recall(query, k=1, user_id=user, kind="turn")]
        again = [h.text for h in dst.recall(query, k=1, user_id=user, kind="turn")]
        if first == again and first:
            report.recall_agreed += 1
        else:
            report.recall_misses.append(f"{user}/{session_id}: {query[:60]!r} → source {first[:1]}, "
                                        f"destination {again[:1]}")
