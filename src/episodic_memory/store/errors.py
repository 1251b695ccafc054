"""Why a store cannot be used, in words for the person who pointed at it (one line; no SQLite types)."""

from __future__ import annotations


class StoreOpenError(RuntimeError):
    """The file at a store's path cannot be opened as a store: not a database, damaged, written by a newer version,
    or out of reach (a folder that cannot be created, a read-only store that does not exist)."""


def explain(path: str, exc: BaseException) -> str:
    """One line saying what is wrong with the store at `path`, from the error its backend raised."""
    text = str(exc)
    if isinstance(exc, StoreOpenError):
        return text
    if "file is not a database" in text:
        return f"{path} is not an episodic-memory store (it is not an SQLite database)"
    if "malformed" in text:
        return f"{path} is damaged ({text}): a truncated or corrupted file; restore it from a copy"
    if "readonly" in text or "read-only" in text:
        return f"{path} is read-only and this command writes ({text})"
    return f"cannot use the store {path}: {text}"
