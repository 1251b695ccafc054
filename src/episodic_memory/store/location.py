"""Where a store lives, from its path alone (no driver imported): a SQLite file, or a PostgreSQL database URL."""

from __future__ import annotations

import re

_URL = re.compile(r"^postgres(ql)?://", re.IGNORECASE)


def is_postgres_url(path: object) -> bool:
    """Whether a store path names a PostgreSQL database (``postgresql://…`` or ``postgres://…``)."""
    return isinstance(path, str) and bool(_URL.match(path))


def redact(url: str) -> str:
    """A database URL without its password (for messages and `Memory.stats`)."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)
