"""A store you can take with you: export to a versioned JSON Lines file (gzip when the name ends in ``.gz``), import
it into any store, and back the whole file up.

The format (version 1): the first line is a header,
``{"format": "episodic-memory-export", "version": 1, "schema_version": …, "exported_at": …, "user_id": …,
"counts": {kind: n}}``, then one record a line, ``{"kind": …, …}``, kinds in this order: session, turn, entity,
fact, entity_edge, workstream, episode, loop, judgment, route_count. A record holds its table's columns (times as
UTC epoch seconds, exactly as stored; binary columns as ``{"base64": …}``) and what hangs off it: an entity's
`aliases`, a fact's `entities`, an episode's `terms`, a judgment's `verdicts`. Ids that mean something outside the
store travel as they are (user, session and caller turn ids, a turn's journal `uid`, judgment `memory_id`s); row ids
(`id`, and the references to them: `source_ids`, `supersedes`, `workstream_id`, …) are the exporting store's, and
an import maps each to the row it gets. Vectors are not exported: they belong to a model, and an import embeds
what it added with the importing store's.

An import reads and checks the whole file before it writes anything (`PortableFormatError`, with the file and line
of the first problem), then writes it in one transaction. It is idempotent: a turn with a journal uid the store
holds, a fact or loop with the same origin, a session's episode, an entity of the same name, a judgment with the
same id or the same trigger and judgment are kept as they are.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from .store import Store

FORMAT = "episodic-memory-export"
VERSION = 1
KINDS = ("session", "turn", "entity", "fact", "entity_edge", "workstream", "episode", "loop", "judgment",
         "route_count")

_STR, _NUM, _INT, _LIST = str, (int, float), int, list
# the fields a record must have, and their types (None allowed where the tuple holds type(None))
_REQUIRED: dict[str, dict[str, Any]] = {
    "session": {"user_id": _STR, "session_id": _STR, "status": _STR, "created_at": _NUM, "updated_at": _NUM},
    "turn": {"id": _INT, "uid": _STR, "user_id": _STR, "session_id": _STR, "seq": _INT, "role": _STR,
             "content": _STR, "ts": _NUM, "ingested_at": _NUM},
    "entity": {"id": _INT, "user_id": _STR, "name": _STR, "updated_at": _NUM},
    "fact": {"id": _INT, "user_id": _STR, "session_id": _STR, "type": _STR, "text": _STR, "route": _STR,
             "salience": _NUM, "confidence": _NUM, "created_at": _NUM, "valid_from": _NUM, "source_ids": _LIST,
             "origin": _STR, "extractor": _STR, "updated_at": _NUM},
    "entity_edge": {"a": _INT, "b": _INT, "weight": _INT},
    "workstream": {"id": _INT, "user_id": _STR, "name": _STR, "created_at": _NUM, "updated_at": _NUM},
    "episode": {"id": _INT, "user_id": _STR, "session_id": _STR, "summary": _STR, "summarizer": _STR,
                "source_ids": _LIST, "turns": _INT, "created_at": _NUM, "updated_at": _NUM},
    "loop": {"id": _INT, "user_id": _STR, "session_id": _STR, "text": _STR, "detector": _STR, "source_ids": _LIST,
             "origin": _STR, "created_at": _NUM, "last_mentioned": _NUM, "updated_at": _NUM},
    "judgment": {"id": _INT, "memory_id": _STR, "user_id": _STR, "trigger": _STR, "judgment": _STR,
                 "reasoning": _STR, "dedup_key": _STR, "created_at": _NUM, "updated_at": _NUM},
    "route_count": {"user_id": _STR, "route": _STR, "n": _INT},
}
# ids that mean something outside the store: never blank
_IDS = {"user_id", "session_id", "uid", "memory_id", "origin", "dedup_key"}
# references to other records of the file: field -> (kind referred to, a list of them or one)
_REFERENCES: dict[str, dict[str, tuple[str, bool]]] = {
    "entity": {"profile_facts": ("fact", True)},
    "fact": {"source_ids": ("turn", True), "supersedes": ("fact", False), "superseded_by": ("fact", False),
             "entities": ("entity", True)},
    "entity_edge": {"a": ("entity", False), "b": ("entity", False)},
    "episode": {"source_ids": ("turn", True), "workstream_id": ("workstream", False)},
    "loop": {"source_ids": ("turn", True), "evidence_ids": ("turn", True), "workstream_id": ("workstream", False)},
}
# references that may point to a record further down (checked once the whole file is read)
_ANYWHERE = {("entity", "profile_facts"), ("fact", "supersedes"), ("fact", "superseded_by")}


class PortableFormatError(ValueError):
    """An export file that cannot be imported: says which file, which line and what is wrong."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        self.path, self.line, self.problem = path, line, problem
        super().__init__(f"{path}:{line}: {problem}" if line else f"{path}: {problem}")


# --- export --------------------------------------------------------------------------------------------
def export_store(store: Store, path: str | Path, *, user_id: str | None = None) -> dict[str, int]:
    """Write one user's memories (every user's when `user_id` is None) to `path`; returns the records per kind.

    The file is written beside `path` and renamed into place: a failed export leaves no half file behind."""
    records = store.export_records(user_id)
    counts = {kind: 0 for kind in KINDS}
    for kind, _ in records:
        counts[kind] += 1
    header = {"format": FORMAT, "version": VERSION, "schema_version": store.schema_version,
              "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "user_id": user_id,
              "counts": counts}
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += (json.dumps({"kind": kind, **_encode(record)}, ensure_ascii=False) for kind, record in records)
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as raw:
            out: IO[bytes] = (gzip.GzipFile(fileobj=raw, mode="wb", mtime=0)  # type: ignore[assignment]
                              if target.name.endswith(".gz") else raw)
            for line in lines:
                out.write(line.encode("utf-8") + b"\n")
            if out is not raw:
                out.close()
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return counts


def _encode(record: dict[str, Any]) -> dict[str, Any]:
    return {k: ({"base64": base64.b64encode(v).decode("ascii")} if isinstance(v, bytes) else v)
            for k, v in record.items()}


def _decode(record: dict[str, Any]) -> dict[str, Any]:
    return {k: (base64.b64decode(v["base64"]) if isinstance(v, dict) and set(v) == {"base64"} else v)
            for k, v in record.items()}


# --- import --------------------------------------------------------------------------------------------
def read_export(path: str | Path, store: Store) -> list[tuple[str, dict[str, Any]]]:
    """Read and check a whole export file against `store` (its fields, its references, its header's counts).

    Raises `PortableFormatError` naming the file and line of the first problem; nothing is written."""
    name = str(path)
    try:
        lines = list(_lines(Path(path)))
    except (OSError, EOFError, gzip.BadGzipFile, UnicodeDecodeError) as exc:
        raise PortableFormatError(name, None, f"cannot read it ({exc})") from None
    if not lines:
        raise PortableFormatError(name, None, "empty file: not an episodic-memory export")
    header = _json(name, 1, lines[0])
    if header.get("format") != FORMAT:
        raise PortableFormatError(name, 1, f"not an episodic-memory export (the first line has no "
                                           f"\"format\": \"{FORMAT}\")")
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise PortableFormatError(name, 1, f"bad format version {version!r}")
    if version > VERSION:
        raise PortableFormatError(name, 1, f"format version {version} is newer than this episodic-memory reads "
                                           f"({VERSION}): upgrade episodic-memory to import it")
    allowed = store.portable_columns()
    records: list[tuple[str, dict[str, Any]]] = []
    seen: dict[str, dict[int, int]] = {kind: {} for kind in KINDS}  # kind -> id -> line
    sessions: set[tuple[str, str]] = set()
    order = 0
    numbers: list[int] = []
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        record = _json(name, number, text)
        kind = record.pop("kind", None)
        if kind not in KINDS:
            raise PortableFormatError(name, number, f"unknown record kind {kind!r} (expected one of {', '.join(KINDS)})")
        if KINDS.index(kind) < order:
            raise PortableFormatError(name, number, f"a {kind} record after the {KINDS[order]} records "
                                                    f"(records go in the order {', '.join(KINDS)})")
        order = KINDS.index(kind)
        _check_fields(name, number, kind, record, allowed[kind])
        if "id" in _REQUIRED[kind]:
            if record["id"] in seen[kind]:
                raise PortableFormatError(name, number, f"{kind} id {record['id']} appears twice "
                                                        f"(first on line {seen[kind][record['id']]})")
            seen[kind][record["id"]] = number
        _check_references(name, number, kind, record, seen)
        if kind == "session":
            sessions.add((record["user_id"], record["session_id"]))
        elif kind == "turn" and (record["user_id"], record["session_id"]) not in sessions:
            raise PortableFormatError(name, number, f"turn {record['id']} belongs to session "
                                                    f"{record['session_id']!r}, which the file has no record of")
        records.append((kind, _decode(record)))
        numbers.append(number)
    for (kind, record), number in zip(records, numbers, strict=True):
        _check_references(name, number, kind, record, seen, later=True)
    counts = header.get("counts")
    if isinstance(counts, dict):
        found = {kind: sum(1 for k, _ in records if k == kind) for kind in KINDS}
        short = {k: (n, found.get(k, 0)) for k, n in counts.items() if found.get(k, 0) != n}
        if short:
            said = ", ".join(f"{n} {k} record(s), found {f}" for k, (n, f) in short.items())
            raise PortableFormatError(name, len(lines), f"the header announces {said}: the file is truncated or "
                                                        "was edited")
    return records


def import_into(store: Store, path: str | Path) -> dict[str, int]:
    """Check the whole file, then write it in one transaction; returns the rows added per kind."""
    return store.import_records(read_export(path, store))


def _lines(path: Path) -> Iterator[str]:
    with path.open("rb") as f:
        gzipped = f.read(2) == b"\x1f\x8b"
    opener: Any = gzip.open if gzipped else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            yield line.rstrip("\n")


def _json(name: str, number: int, text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PortableFormatError(name, number, f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(value, dict):
        raise PortableFormatError(name, number, f"expected a JSON object, got {type(value).__name__}")
    return value


def _check_fields(name: str, number: int, kind: str, record: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(record) - allowed)
    if unknown:
        raise PortableFormatError(name, number, f"{kind} record has unknown field(s) {', '.join(unknown)} "
                                                "(exported by a newer episodic-memory?)")
    for field, types in _REQUIRED[kind].items():
        if field not in record:
            raise PortableFormatError(name, number, f"{kind} record has no {field!r}")
        value = record[field]
        if isinstance(value, bool) or not isinstance(value, types):
            raise PortableFormatError(name, number, f"{kind} {field!r} must be {_type_name(types)}, got "
                                                    f"{json.dumps(value)[:60]}")
        if field in _IDS and not value.strip():
            raise PortableFormatError(name, number, f"{kind} {field!r} must not be blank")
    if kind == "judgment":
        verdicts = record.get("verdicts", [])
        if not isinstance(verdicts, list) or not all(
                isinstance(v, dict) and isinstance(v.get("adopted"), bool) and isinstance(v.get("ts"), _NUM)
                for v in verdicts):
            raise PortableFormatError(name, number, "judgment 'verdicts' must be a list of "
                                                    "{\"adopted\": true|false, \"ts\": seconds, \"correction\": …}")
    if kind == "entity" and not _strings(record.get("aliases", [])):
        raise PortableFormatError(name, number, "entity 'aliases' must be a list of strings")
    if kind == "episode" and not (isinstance(record.get("terms", {}), dict) and all(
            isinstance(v, _NUM) for v in record.get("terms", {}).values())):
        raise PortableFormatError(name, number, "episode 'terms' must map words to weights")


def _check_references(name: str, number: int, kind: str, record: dict[str, Any],
                      seen: dict[str, dict[int, int]], *, later: bool = False) -> None:
    """Every row id a record refers to is a record of the file before it (`later`: anywhere in it, for the
    references that may point forward, checked once the file is read)."""
    for field, (target, many) in _REFERENCES.get(kind, {}).items():
        if ((kind, field) in _ANYWHERE) != later:
            continue
        value = record.get(field)
        if value is None:
            continue
        values: Iterable[Any] = value if many and isinstance(value, list) else [value]
        if many and not isinstance(value, list):
            raise PortableFormatError(name, number, f"{kind} {field!r} must be a list of {target} ids")
        for ref in values:
            if isinstance(ref, bool) or not isinstance(ref, int):
                raise PortableFormatError(name, number, f"{kind} {field!r} must hold {target} ids, got {ref!r}")
            if ref not in seen[target]:
                where = "anywhere in the file" if later else "in the file before this line"
                raise PortableFormatError(name, number, f"{kind} {field!r} refers to {target} {ref}, which is not "
                                                        f"{where}")


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _type_name(types: Any) -> str:
    names = {str: "a string", int: "an integer", list: "a list"}
    return names.get(types, "a number")
