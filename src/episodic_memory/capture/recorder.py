"""Crash-safe capture: journal first, then the store, under one cross-process lock (README, "How capture stays
safe"; docs/write-path.md, "Group commit").

A write, under the lock: the session's journal past the stored offset (a writer that died) goes in first; the
new turns are appended to the journal and fsynced, then stored with the new offset in one transaction (`uid`
makes a replay idempotent). The group-commit lock and queue belong to the file, not to a `Recorder`: a
server's Memories of one file share them (else they would wait for each other on the file lock, which polls).
A forget is crash-atomic the same way: a tombstone first, then rows, journals and bytes, the tombstone last.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock

from ..config import Config
from ..faults import fault_point
from ..store.base import Store
from ..store.records import TurnRecord
from .journal import ForgetScope, Journal

log = logging.getLogger(__name__)


@dataclass
class NewTurn:
    """A turn as the caller gives it, before it has a place in its session: a `TurnRecord` less its uid, seq and
    ingested_at."""

    role: str
    content: str
    session_id: str
    user_id: str
    ts: float
    speaker: str | None = None
    turn_id: str | None = None
    source: str | None = None
    tags: tuple[str, ...] | None = None
    metadata: str | None = None  # a JSON object's text (checked by `Memory`)


@dataclass
class _Call:
    """One `record` call waiting in the group-commit queue."""

    turns: list[NewTurn]
    records: list[TurnRecord] | None = None
    error: BaseException | None = None
    done: bool = False


class _Writers:
    """What every writer of one file in this process shares: the thread lock, the file lock (None for a store
    without a journal) and the group-commit queue."""

    def __init__(self, lock_path: Path | None) -> None:
        self.pid = os.getpid()  # a forked child makes its own (a file lock must not cross a fork)
        self.thread_lock = threading.RLock()
        self.file_lock = FileLock(str(lock_path)) if lock_path else None
        self.queue: list[_Call] = []  # calls waiting for the next leader
        self.leading = False
        self.changed = threading.Condition()


_writers_by_path: dict[str, _Writers] = {}
_writers_lock = threading.Lock()


def _writers_for(lock_path: Path | None) -> _Writers:
    if lock_path is None:
        return _Writers(None)
    key = str(Path(lock_path).resolve())
    with _writers_lock:
        if key not in _writers_by_path or _writers_by_path[key].pid != os.getpid():
            _writers_by_path[key] = _Writers(Path(key))
        return _writers_by_path[key]


def _after_fork_in_child() -> None:
    global _writers_lock
    _writers_lock = threading.Lock()  # another thread may have held it at the fork
    _writers_by_path.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


@dataclass
class RecoveryReport:
    files_scanned: int = 0
    forgets_finished: int = 0  # forgets a crash interrupted, finished before the replay
    turns_recovered: int = 0
    bad_lines: int = 0
    torn_tails: int = 0
    sessions: list[tuple[str, str]] = field(default_factory=list)


class Recorder:
    """Writes turns to the journal and the store; replays journals after a crash."""

    def __init__(self, store: Store, journal: Journal, lock_path: Path | None, config: Config,
                 scrub: Callable[[], bool] | None = None) -> None:
        self.store = store
        self.scrub = scrub or store.scrub  # the bytes out (a Memory's: the dense index's cache swept too)
        self.journal = journal
        self.config = config
        self._lock_path = lock_path
        self._shared = _writers_for(lock_path)

    @property
    def _writers(self) -> _Writers:
        if self._shared.pid != os.getpid():  # in a forked child: its own lock and queue
            self._shared = _writers_for(self._lock_path)
        return self._shared

    @contextmanager
    def locked(self) -> Iterator[None]:
        """The cross-process ingest lock (and a thread lock inside this process), shared by every writer of the
        file in this process."""
        w, timeout = self._writers, self.config.store.lock_timeout_s
        with w.thread_lock, nullcontext() if w.file_lock is None else w.file_lock.acquire(timeout=timeout):
            yield

    def record(self, turns: Sequence[NewTurn]) -> list[TurnRecord]:
        """Journal and store turns (any sessions); returns them with their uid and order, once they are durable.
        Calls made meanwhile by other threads are committed with these (see the module's docstring)."""
        call = _Call(list(turns))
        w = self._writers
        with w.changed:
            w.queue.append(call)
            while w.leading and not call.done:
                w.changed.wait()
            if not call.done:  # lead: take everything queued so far, this call included
                w.leading = True
                group, w.queue = w.queue, []
        if not call.done:
            try:
                self._commit(group)
            finally:
                with w.changed:
                    for waiting in group:  # a leader that died on the way leaves no caller hanging
                        if not waiting.done:
                            waiting.error = waiting.error or RuntimeError("the group commit was interrupted")
                            waiting.done = True
                    w.leading = False
                    w.changed.notify_all()
        if call.error is not None:
            raise call.error
        assert call.records is not None
        return call.records

    def _commit(self, calls: list[_Call]) -> None:
        """Write the calls' turns, session by session, under the lock; a session that fails fails the calls that
        had turns in it (and only those)."""
        by_session: dict[tuple[str, str], list[NewTurn]] = {}
        for call in calls:
            for t in call.turns:
                by_session.setdefault((t.user_id, t.session_id), []).append(t)
        stored: dict[int, TurnRecord] = {}
        failed: dict[tuple[str, str], BaseException] = {}
        with self.locked():
            self._finish_forgets(scrub=False)
            for (user_id, session_id), group in by_session.items():
                try:
                    for rec, t in zip(self._record_session(user_id, session_id, group), group, strict=True):
                        stored[id(t)] = rec
                except Exception as exc:
                    failed[(user_id, session_id)] = exc
        for call in calls:
            errors = [failed[k] for k in dict.fromkeys((t.user_id, t.session_id) for t in call.turns) if k in failed]
            if errors:
                call.error = errors[0]
            else:
                call.records = [stored[id(t)] for t in call.turns]
            call.done = True

    def _record_session(self, user_id: str, session_id: str, turns: list[NewTurn]) -> list[TurnRecord]:
        """Journal and store one session's turns. A turn the session already has with the same `turn_id`, role
        and content (a retried call) is not stored again: its stored record is returned instead."""
        relative = self.journal.relative_path(user_id, session_id)
        if self.journal.enabled:
            self._catch_up(user_id, session_id, relative)
        _, _, next_seq = self.store.journal_state(user_id, session_id)
        caller_ids = [t.turn_id for t in turns if t.turn_id is not None]
        stored = self.store.stored_turns(user_id, session_id, caller_ids) if caller_ids else {}
        now = time.time()
        records: list[TurnRecord] = []
        new: list[TurnRecord] = []
        for t in turns:
            known = stored.get((t.turn_id, t.role, t.content)) if t.turn_id is not None else None
            uid, seq = known or (uuid.uuid4().hex, next_seq)
            if t.turn_id is not None and known is None:  # the same turn twice in one group is stored once
                stored[(t.turn_id, t.role, t.content)] = (uid, seq)
            record = TurnRecord(uid=uid, seq=seq, ingested_at=now, **vars(t))  # every field of a NewTurn is one
            records.append(record)
            if known is None:
                new.append(record)
                next_seq += 1
        if new:
            offset = self.journal.append(relative, new) if self.journal.enabled else 0
            fault_point("capture.after_journal")
            self.store.insert_turns(new, relative, offset)
            fault_point("capture.after_store")
        return records

    def _catch_up(self, user_id: str, session_id: str, relative: str) -> None:
        _, offset, _ = self.store.journal_state(user_id, session_id)
        if self.journal.size(relative) <= offset:
            return
        read = self.journal.read(relative, offset)
        if not read.records:
            self.store.advance_journal_offset(user_id, session_id, relative, read.end_offset)
        elif new := self.store.insert_turns(read.records, relative, read.end_offset):
            log.warning("session %s/%s: recovered %d journaled turn(s) a crashed writer left unstored",
                        user_id, session_id, new)

    def recover(self) -> RecoveryReport:
        """The start-up sweep: replay every journal past its stored offset; flag those sessions for consolidation."""
        report = RecoveryReport()
        if not self.journal.enabled:
            return report
        with self.locked():
            report.forgets_finished = self._finish_forgets()
            offsets = self.store.journal_offsets()
            for relative in self.journal.files():
                report.files_scanned += 1
                offset = offsets.get(relative, 0)
                if self.journal.size(relative) <= offset:
                    continue
                read = self.journal.read(relative, offset)
                report.bad_lines += read.bad_lines
                report.torn_tails += int(read.torn_tail)
                by_session: dict[tuple[str, str], list[TurnRecord]] = {}
                for rec in read.records:
                    by_session.setdefault((rec.user_id, rec.session_id), []).append(rec)
                for (user_id, session_id), recs in by_session.items():
                    report.turns_recovered += self.store.insert_turns(recs, relative, read.end_offset)
                    self.store.mark_for_consolidation(user_id, session_id)
                    report.sessions.append((user_id, session_id))
                if read.torn_tail:
                    self.journal.cut_torn_tail(relative)
            self.store.mark_idle_sessions(time.time() - self.config.capture.session_idle_minutes * 60)
        if report.turns_recovered:
            log.warning("recovery: replayed %d turn(s) from %d journal(s)", report.turns_recovered,
                        len(report.sessions))
        return report

    # --- forgetting ----------------------------------------------------------------------------------
    def forget(self, scope: ForgetScope) -> dict[str, Any]:
        """Delete a session, a user or everything (`scope`): rows, journals, then the bytes (`Store.scrub`),
        crash-atomic (a tombstone first, removed last: README, "How capture stays safe"). The result has the
        counts deleted and `scrubbed`: 0 when a reader held on to the bytes; the scrub is then retried at the
        next `recover`."""
        with self.locked():
            self._finish_forgets(scrub=False)
            tombstone = self.journal.write_tombstone(scope)
            fault_point("forget.after_tombstone")
            return self._finish(tombstone, scope)

    def _finish(self, tombstone: Path | None, scope: ForgetScope) -> dict[str, Any]:
        """Every step of a forget (each may be repeated after a crash without harm), then its tombstone goes."""
        result: dict[str, Any] = {}
        if not scope.scrub_only:
            result = self.store.forget(user_id=scope.user_id, session_id=scope.session_id)
            fault_point("forget.after_delete")
            self._delete_journals(scope, result.pop("journal_files"))
            fault_point("forget.after_journals")
        result["scrubbed"] = int(self.scrub())
        if not result["scrubbed"]:
            log.warning("forget: a reader kept the deleted data in %s's write-ahead log for %.0fs; the rows are gone "
                        "but their bytes may remain in the file until the scrub is retried at the next open",
                        self.store.path, self.config.store.forget_scrub_wait_s)
            if not scope.scrub_only:
                self.journal.write_tombstone(ForgetScope(scrub_only=True))
        fault_point("forget.before_tombstone_removed")
        if result["scrubbed"] or not scope.scrub_only:
            self.journal.remove_tombstone(tombstone)
        return result

    def _delete_journals(self, scope: ForgetScope, files: list[str]) -> None:
        if not self.journal.enabled:
            return
        if scope.user_id is None:
            self.journal.delete_all()
        elif scope.session_id is None:
            self.journal.delete_user(scope.user_id)
        else:
            files.append(self.journal.relative_path(scope.user_id, scope.session_id))
        for file in files:
            self.journal.delete(file)

    def _finish_forgets(self, *, scrub: bool = True) -> int:
        """Finish the forgets a crash interrupted (their tombstones are left), oldest first; with `scrub`, retry
        the scrubs a reader held up too (at open: not before every write). Under the lock. Returns how many."""
        pending = [(p, s) for p, s in self.journal.tombstones() if scrub or not s.scrub_only]
        for path, scope in pending:
            log.warning("finishing a forget interrupted by a crash or held up by a reader (%s)", scope)
            self._finish(path, scope)
        return len(pending)
