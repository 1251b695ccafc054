"""Where a store lives, from its path alone (no driver imported): a SQLite file and the files beside it, or a
PostgreSQL database URL."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

_URL = re.compile(r"^postgres(ql)?://", re.IGNORECASE)


def is_postgres_url(path: object) -> bool:
    """Whether a store path names a PostgreSQL database (``postgresql://…`` or ``postgres://…``)."""
    return isinstance(path, str) and bool(_URL.match(path))


def redact(url: str) -> str:
    """A database URL without its password (for messages and `Memory.stats`)."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


COMPANIONS = ("-wal", "-shm", "-journal", ".journal", ".lock", ".vectors")


def store_files(db_path: str | Path) -> list[Path]:
    """A SQLite store's own files and folders: the database, SQLite's ``-wal``, ``-shm`` and ``-journal``, and what the
    library keeps beside it: the capture journal (``.journal/``), the ingest lock (``.lock``), the vector sidecar
    (``.vectors/``)."""
    db = Path(db_path).expanduser()
    return [db, *(db.with_name(db.name + suffix) for suffix in COMPANIONS)]


def store_file_at(dest: str | Path, own: Iterable[Path]) -> Path | None:
    """The file or folder of `own` that `dest` is or lies in — by resolved path (through symlinks) or, for a file
    that exists, by identity (a hard link: the same device and inode) — or None. A copy written there would replace a
    file a running store depends on."""
    target = Path(dest).expanduser().resolve()
    identity = _identity(target)
    for path in own:
        real = path.expanduser().resolve()
        if target == real or real in target.parents:
            return path
        if identity is not None and identity in {_identity(p) for p in _files_of(real)}:
            return path
    return None


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def _files_of(path: Path) -> Iterator[Path]:
    """`path`, and when it is a folder every file in it (links not followed)."""
    yield path
    for folder, _, names in os.walk(path):
        for name in names:
            yield Path(folder, name)
