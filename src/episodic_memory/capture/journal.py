"""The append-only JSONL journal: one file per session, written and fsynced before anything else happens."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from ..store.records import TurnRecord

log = logging.getLogger(__name__)


@contextlib.contextmanager
def _opened(path: Path, flags: int, mode: int = 0o777) -> Iterator[int]:
    """A file descriptor of `path` (in binary mode on Windows), closed at the end."""
    fd = os.open(path, flags | getattr(os, "O_BINARY", 0), mode)
    try:
        yield fd
    finally:
        os.close(fd)


def _slug(text: str, limit: int = 40) -> str:
    """A readable, filesystem-safe name that cannot collide (a hash of the exact text is kept)."""
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", text)[:limit].strip("._") or "x"
    return f"{readable}-{hashlib.sha1(text.encode()).hexdigest()[:12]}"


@dataclass
class JournalRead:
    records: list[TurnRecord]
    end_offset: int          # bytes up to the end of the last complete line
    bad_lines: int           # complete lines that did not parse (skipped with a warning)
    torn_tail: bool          # the file ended in a partial line (a crash mid-write)


@dataclass(frozen=True)
class ForgetScope:
    """What a forget removes: a session (user_id and session_id), a user (user_id), or everything (neither).

    `scrub_only`: the rows and journals are gone, only the bytes are left to scrub (a reader held them)."""

    user_id: str | None = None
    session_id: str | None = None
    scrub_only: bool = False


TOMBSTONES = "forgetting"  # the folder of tombstones under the journal root (a user's folder always has a hash)


class Journal:
    """Per-session JSONL files under `root` (a folder beside the database); `root=None` keeps no files.

    Beside them, in `root/forgetting/`, the tombstones of forgets under way (see `Recorder.forget`).
    """

    def __init__(self, root: Path | None, *, fsync: bool = True) -> None:
        self.root = root
        self.fsync = fsync
        if root is not None:
            root.mkdir(parents=True, exist_ok=True)

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def relative_path(self, user_id: str, session_id: str) -> str:
        return f"{_slug(user_id)}/{_slug(session_id)}.jsonl"

    def path(self, relative: str) -> Path:
        assert self.root is not None
        return self.root / relative

    def size(self, relative: str) -> int:
        try:
            return self.path(relative).stat().st_size
        except FileNotFoundError:
            return 0

    def append(self, relative: str, records: Sequence[TurnRecord]) -> int:
        """Append records as whole lines, fsync, and return the file's new size. A partial last line a crash
        left is cut off first: it was never acknowledged, and the next record would be glued onto it."""
        path = self.path(relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in records).encode()
        with _opened(path, os.O_RDWR | os.O_CREAT, 0o600) as fd:
            size = os.fstat(fd).st_size
            if size:
                os.lseek(fd, size - 1, os.SEEK_SET)
                if os.read(fd, 1) != b"\n":
                    size = self._cut_torn_tail(fd, path, size)
            os.lseek(fd, size, os.SEEK_SET)
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            if self.fsync:
                os.fsync(fd)
            return size + len(payload)

    def cut_torn_tail(self, relative: str) -> None:
        """Drop a partial last line (only ever left by an interrupted, unacknowledged write)."""
        path = self.path(relative)
        with _opened(path, os.O_RDWR) as fd:
            size = os.fstat(fd).st_size
            os.lseek(fd, max(size - 1, 0), os.SEEK_SET)
            if size and os.read(fd, 1) != b"\n":
                self._cut_torn_tail(fd, path, size)
                if self.fsync:
                    os.fsync(fd)

    @staticmethod
    def _cut_torn_tail(fd: int, path: Path, size: int) -> int:
        os.lseek(fd, 0, os.SEEK_SET)
        keep = os.read(fd, size).rfind(b"\n") + 1
        log.warning("journal %s: dropping a torn last line (%d bytes) left by an interrupted write", path, size - keep)
        os.ftruncate(fd, keep)
        return keep

    def read(self, relative: str, offset: int = 0) -> JournalRead:
        """Records from `offset` on. Bad complete lines and a torn last line are skipped with a warning."""
        path = self.path(relative)
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                data = f.read()
        except FileNotFoundError:
            return JournalRead([], offset, 0, False)
        records: list[TurnRecord] = []
        bad = 0
        pos = 0
        torn = False
        for line in data.splitlines(keepends=True):
            if not line.endswith(b"\n"):
                torn = True
                log.warning("journal %s: skipping a torn last line at byte %d (interrupted write)", path,
                            offset + pos)
                break
            pos += len(line)
            if not line.strip():
                continue
            try:
                records.append(TurnRecord.from_json(json.loads(line)))
            except (ValueError, TypeError, KeyError) as exc:
                bad += 1
                log.warning("journal %s: skipping an unreadable line at byte %d: %s", path,
                            offset + pos - len(line), exc)
        return JournalRead(records, offset + pos, bad, torn)

    def files(self) -> Iterator[str]:
        """Relative paths of every journal file."""
        if self.root is not None:
            yield from (p.relative_to(self.root).as_posix() for p in sorted(self.root.glob("*/*.jsonl")))

    def delete(self, relative: str) -> None:
        if self.root is None:
            return
        path = self.path(relative)
        path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):  # the user's folder may still hold other sessions
            path.parent.rmdir()

    def delete_user(self, user_id: str) -> None:
        """Every journal of one user, including sessions that never reached the database."""
        if self.root is not None:
            shutil.rmtree(self.root / _slug(user_id), ignore_errors=True)

    def delete_all(self) -> None:
        """Every journal (the tombstones stay: the last step of a forget removes its own)."""
        if self.root is None or not self.root.exists():
            return
        for entry in (e for e in self.root.iterdir() if e.name != TOMBSTONES):
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink(missing_ok=True)

    # --- tombstones: a forget under way -------------------------------------------------------------
    def write_tombstone(self, scope: ForgetScope) -> Path | None:
        """Record, durably, that `scope` is being forgotten (None when there are no files to protect)."""
        if self.root is None:
            return None
        folder = self.root / TOMBSTONES
        if not folder.exists():
            folder.mkdir(parents=True, exist_ok=True)
            self._sync_dir(self.root)  # the folder's own entry, or a power cut could lose the tombstone with it
        # one scrub-only tombstone is enough (it sorts after the others: digits come before letters)
        name = "scrub.json" if scope.scrub_only else f"{time.time_ns():020d}-{uuid.uuid4().hex[:8]}.json"
        path = folder / name
        tmp = path.with_suffix(".tmp")
        with _opened(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600) as fd:
            os.write(fd, json.dumps(asdict(scope)).encode())
            if self.fsync:
                os.fsync(fd)
        os.replace(tmp, path)
        self._sync_dir(folder)
        return path

    def tombstones(self) -> list[tuple[Path, ForgetScope]]:
        """The forgets a crash left unfinished, oldest first.

        A tombstone is written whole (a temporary file renamed), so only a damaged disk makes one unreadable: it is
        then left for a person to look at, with an error in the log."""
        if self.root is None:
            return []
        try:
            names = sorted(os.listdir(self.root / TOMBSTONES))
        except FileNotFoundError:
            return []
        out = []
        for name in names:
            path = self.root / TOMBSTONES / name
            if name.endswith(".tmp"):  # died while writing it: the forget never started
                path.unlink(missing_ok=True)
                continue
            try:
                raw = json.loads(path.read_bytes())
                scope = ForgetScope(raw.get("user_id"), raw.get("session_id"), bool(raw.get("scrub_only")))
            except (OSError, ValueError, AttributeError) as exc:
                log.error("forget tombstone %s is unreadable (%s); left in place for a person to check", path, exc)
                continue
            out.append((path, scope))
        return out

    def remove_tombstone(self, path: Path | None) -> None:
        if path is not None:
            path.unlink(missing_ok=True)
            self._sync_dir(path.parent)

    def _sync_dir(self, folder: Path) -> None:
        """Make a file's creation or removal in `folder` durable (where the platform can)."""
        if not self.fsync or os.name == "nt":
            return
        with _opened(folder, os.O_RDONLY) as fd:
            os.fsync(fd)
