"""kill -9 at random moments, and several writers at once: no acknowledged turn lost, none stored twice."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from episodic_memory import Memory

pytestmark = pytest.mark.crash

CHILD = str(Path(__file__).with_name("writer_child.py"))
TRIALS = int(os.environ.get("EPISODIC_CRASH_TRIALS", "50"))

CHILDREN = ("child processes write a SQLite file (--store-backend=postgres redirects this process only); "
            "tests/postgres/test_pg_store.py has the PostgreSQL kill -9 and many-writer tests")


def _spawn(db: Path, prefix: str, count: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, CHILD, str(db), prefix, str(count), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _stored_ids(db: Path) -> Counter[str]:
    with Memory(db) as mem:
        rows = mem.store.db.execute("SELECT turn_id FROM turns").fetchall()
    return Counter(r[0] for r in rows)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.sqlite_only(CHILDREN)
def test_sigkill_at_random_moments_loses_no_acknowledged_turn(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(20261130)
    acknowledged: list[str] = []
    for trial in range(TRIALS):
        batch = "1" if trial % 3 else "5"  # some trials write several lines per fsync
        child = _spawn(db, f"k{trial}", 400, "--batch", batch, "--sessions", str(1 + trial % 3))
        first = ""
        if trial % 5 == 0:  # sometimes during start-up or the recovery sweep
            time.sleep(rng.uniform(0.0, 0.8))
        else:  # mostly in the middle of the stream of writes
            assert child.stdout is not None
            first = child.stdout.readline()
            time.sleep(rng.uniform(0.0, 0.25))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        out = first + out
        # only complete lines are acknowledgements; a line cut by the kill was not printed in full
        lines = out.split("\n")
        acknowledged.extend(line for line in lines[:-1] if line)
        with Memory(db) as mem:  # the recovery sweep runs here
            pass
    stored = _stored_ids(db)
    assert acknowledged, "the children never got to acknowledge a turn"
    missing = [a for a in acknowledged if stored[a] == 0]
    twice = [tid for tid, n in stored.items() if n > 1]
    assert not missing and not twice
    with Memory(db) as mem:  # recallable exactly once
        for tid in rng.sample(acknowledged, min(40, len(acknowledged))):
            hits = mem.recall(f"canary {tid}", k=50, kind="turn")
            assert [h.source_ids for h in hits].count([tid]) == 1


@pytest.mark.sqlite_only(CHILDREN)
def test_four_processes_append_to_one_store_at_once(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    Memory(db).close()
    children = [_spawn(db, f"p{i}", 60, "--sessions", "2", "--batch", str(1 + i % 2)) for i in range(4)]
    acknowledged: list[str] = []
    for child in children:
        out, errors = child.communicate(timeout=120)
        assert child.returncode == 0, errors
        assert "Error" not in errors and "Traceback" not in errors
        acknowledged.extend(out.split())
    assert len(acknowledged) == 240
    stored = _stored_ids(db)
    assert sum(stored.values()) == 240
    assert set(stored) == set(acknowledged)
    with Memory(db) as mem:
        for session in mem.sessions():
            seqs = [t.seq for t in mem.session_turns(session.session_id)]
            assert seqs == list(range(len(seqs)))
