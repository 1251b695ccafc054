"""A store you can take with you: export to a versioned JSON Lines file (gzip when the name ends in ``.gz``),
import it into any store (README, "Taking the store with you"; docs/security.md, "Import").

The format (version 1): a header line (`export_store`), then a record a line in the order of `KINDS`,
``{"kind": …, …}`` with its table's columns (times as UTC epoch seconds, binary ones as ``{"base64": …}``) and
what hangs off it (an entity's `aliases`, a fact's `entities`, an episode's `terms`, a judgment's `verdicts`).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from pydantic import ValidationError

from .portable_schema import MODELS
from .util import check_id, check_unicode, json_depth

if TYPE_CHECKING:
    from .config import Config
    from .store import Store

FORMAT = "episodic-memory-export"
VERSION = 1
KINDS = ("session", "turn", "entity", "fact", "entity_edge", "workstream", "episode", "loop", "judgment",
         "route_count")

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
# what pydantic calls a wrong type, as this format says it
_TYPES = {"float_type": "a number", "int_type": "an integer", "string_type": "a string", "list_type": "a list",
          "dict_type": "an object", "bool_type": "true or false", "bytes_type": "binary", "literal_error": None}


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


# --- import --------------------------------------------------------------------------------------------
def read_export(path: str | Path, store: Store, *, user_id: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Read and check a whole export file against `store` (docs/security.md, "Import"); `user_id` imports a
    file of one user as that user. Raises `PortableFormatError` naming the file, line and field of the first
    problem; nothing is written."""
    name, config = str(path), store.config
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
    records: list[tuple[str, dict[str, Any]]] = []
    numbers: list[int] = []
    seen: dict[str, dict[int, tuple[int, str | None]]] = {kind: {} for kind in KINDS}  # kind -> id -> (line, user)
    unique: dict[tuple[Any, ...], int] = {}  # what may appear once in a file -> its line
    order = 0
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        raw = _json(name, number, text)
        kind = raw.pop("kind", None)
        if kind not in KINDS:
            raise PortableFormatError(name, number, f"unknown record kind {kind!r} (expected one of {', '.join(KINDS)})")
        if KINDS.index(kind) < order:
            raise PortableFormatError(name, number, f"a {kind} record after the {KINDS[order]} records "
                                                    f"(records go in the order {', '.join(KINDS)})")
        order = KINDS.index(kind)
        record = _validated(name, number, kind, raw, config)
        for key, what in _unique_keys(kind, record):
            if key in unique:
                raise PortableFormatError(name, number, f"{what} appears twice (first on line {unique[key]})")
            unique[key] = number
        if kind == "turn" and ("session", record["user_id"], record["session_id"]) not in unique:
            raise PortableFormatError(name, number, f"turn {record['id']} belongs to session "
                                                    f"{record['session_id']!r}, which the file has no record of")
        if "id" in record:
            seen[kind][record["id"]] = (number, record.get("user_id"))
        _check_references(name, number, kind, record, seen)
        records.append((kind, record))
        numbers.append(number)
    for (kind, record), number in zip(records, numbers, strict=True):
        _check_references(name, number, kind, record, seen, later=True)
    _check_counts(name, len(lines), header, records)
    if user_id is not None:
        records = _owned_by(name, records, user_id)
    _check_owners(name, store, records, numbers)
    return records


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
    except RecursionError:
        raise PortableFormatError(name, number, "nested too deeply to read") from None
    if not isinstance(value, dict):
        raise PortableFormatError(name, number, f"expected a JSON object, got {type(value).__name__}")
    return value


def _validated(name: str, number: int, kind: str, raw: dict[str, Any], config: Config) -> dict[str, Any]:
    """The record as its model (`portable_schema`) checks it: the fields it has, normalised (binary decoded)."""
    for field, value in raw.items():  # what pydantic would not say well: deep nesting, lone surrogates
        if json_depth(value, config.capture.max_json_depth) > config.capture.max_json_depth:
            raise PortableFormatError(name, number, f"{kind} {field!r} is nested more than {config.capture.max_json_depth} "
                                                    "levels deep (Config.capture.max_json_depth)")
        for text in _strings(field, value):
            try:
                check_unicode(text, "")
            except ValueError as exc:
                raise PortableFormatError(name, number, f"{kind} {field!r}{exc}") from None
    try:
        model = MODELS[kind].model_validate(raw, context={"max_chars": config.capture.max_turn_chars})
    except ValidationError as exc:
        raise PortableFormatError(name, number, _problem(kind, exc)) from None
    return model.model_dump(exclude_unset=True)


def _strings(field: str, value: Any) -> Iterator[str]:
    """Every string in a field: its name, the keys and values nested in it (without recursion)."""
    yield field
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _problem(kind: str, exc: ValidationError) -> str:
    """The first of pydantic's complaints, in this format's words: "fact 'valid_to' must be a number, got …"."""
    unknown = [str(e["loc"][0]) for e in exc.errors() if e["type"] == "extra_forbidden"]
    if unknown:
        return f"{kind} record has unknown field(s) {', '.join(sorted(unknown))} (exported by a newer episodic-memory?)"
    error = exc.errors()[0]
    field = ".".join(str(part) for part in error["loc"])
    got = json.dumps(error.get("input"), default=str)
    got = got if len(got) <= 60 else got[:57] + "…"
    if error["type"] == "missing":
        return f"{kind} record has no {field!r}"
    if error["type"] in _TYPES:
        wanted = _TYPES[error["type"]] or error["msg"].removeprefix("Input should be ")
        return f"{kind} {field!r} must be {wanted}, got {got}"
    if error["type"] == "value_error":
        return f"{kind} {field!r} {error['ctx']['error']}"
    return f"{kind} {field!r}: {error['msg'].lower()}, got {got}"


def _unique_keys(kind: str, record: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    """What one file may hold once: a record's row id, a session, a turn's journal uid, its place in its session
    and its caller id there, a session's episode, a judgment id."""
    keys: list[tuple[tuple[Any, ...], str]] = []
    if "id" in record:
        keys.append((("id", kind, record["id"]), f"{kind} id {record['id']}"))
    if kind == "session":
        keys.append((("session", record["user_id"], record["session_id"]),
                     f"session {record['session_id']!r} of user {record['user_id']!r}"))
    elif kind == "turn":
        keys.append((("uid", record["uid"]), f"turn uid {record['uid']!r}"))
        keys.append((("seq", record["user_id"], record["session_id"], record["seq"]),
                     f"position {record['seq']} (seq) in session {record['session_id']!r}"))
        if record.get("turn_id") is not None:
            keys.append((("turn_id", record["user_id"], record["session_id"], record["turn_id"]),
                         f"turn id {record['turn_id']!r} in session {record['session_id']!r}"))
    elif kind == "episode":  # a session has one episode
        keys.append((("episode", record["user_id"], record["session_id"]),
                     f"an episode of session {record['session_id']!r}"))
    elif kind == "judgment":
        keys.append((("memory_id", record["memory_id"]), f"judgment id {record['memory_id']!r}"))
    return keys


def _check_references(name: str, number: int, kind: str, record: dict[str, Any],
                      seen: dict[str, dict[int, tuple[int, str | None]]], *, later: bool = False) -> None:
    """Every row id a record refers to is a record of the file before it (`later`: anywhere in it, for the
    references that may point forward, checked once the file is read), and of the same user: one user's memory
    never rests on another's."""
    owner = record.get("user_id")
    for field, (target, many) in _REFERENCES.get(kind, {}).items():
        if ((kind, field) in _ANYWHERE) != later or record.get(field) is None:
            continue
        for ref in record[field] if many else [record[field]]:
            if ref not in seen[target]:
                where = "anywhere in the file" if later else "in the file before this line"
                raise PortableFormatError(name, number, f"{kind} {field!r} refers to {target} {ref}, which is not "
                                                        f"{where}")
            line, user = seen[target][ref]
            if kind == "entity_edge" and field == "b":
                owner = seen["entity"][record["a"]][1]
            if owner is not None and user != owner:
                raise PortableFormatError(name, number, f"{kind} {field!r} refers to {target} {ref} (line {line}), "
                                                        f"which is user {user!r}'s, not {owner!r}'s")


def _check_counts(name: str, last: int, header: dict[str, Any], records: list[tuple[str, dict[str, Any]]]) -> None:
    counts = header.get("counts")
    if isinstance(counts, dict):
        found = {kind: sum(1 for k, _ in records if k == kind) for kind in KINDS}
        short = {k: (n, found.get(k, 0)) for k, n in counts.items() if found.get(k, 0) != n}
        if short:
            said = ", ".join(f"{n} {k} record(s), found {f}" for k, (n, f) in short.items())
            raise PortableFormatError(name, last, f"the header announces {said}: the file is truncated or was edited")


def _owned_by(name: str, records: list[tuple[str, dict[str, Any]]], user_id: str) -> list[tuple[str, dict[str, Any]]]:
    """The records of a one-user file as `user_id`'s. The ids a store holds once across users (a turn's journal
    uid, a judgment's id) are derived anew from the old id and the new user, so the copy can live beside the
    original in one store and importing it twice still adds nothing."""
    try:
        user_id = check_id(user_id, "--user")
    except ValueError as exc:
        raise PortableFormatError(name, None, str(exc)) from None
    users = sorted({r["user_id"] for _, r in records if "user_id" in r})
    if len(users) > 1:
        raise PortableFormatError(name, 1, f"the file holds {len(users)} users ({', '.join(map(repr, users[:5]))}): "
                                           "importing as one user takes a file of one (export it with --user)")
    if users == [user_id] or not users:
        return records

    def derived(old: str) -> str:
        return hashlib.sha256(f"{user_id}\x00{old}".encode()).hexdigest()[:32]

    out = []
    for kind, record in records:
        record = {**record, "user_id": user_id} if "user_id" in record else dict(record)
        if kind == "turn":
            record["uid"] = derived(record["uid"])
        elif kind == "judgment":
            record["memory_id"] = "mem_" + derived(record["memory_id"])[:16]
        out.append((kind, record))
    return out


def _check_owners(name: str, store: Store, records: list[tuple[str, dict[str, Any]]], numbers: list[int]) -> None:
    """A turn uid or judgment id of the file that `store` holds for another user is refused: each is unique in a
    store, and taking the other user's row for this one's would mix their memories."""
    for kind, field in (("turn", "uid"), ("judgment", "memory_id")):
        mine = [(r, n) for (k, r), n in zip(records, numbers, strict=True) if k == kind]
        owners = store.id_owners(kind, [r[field] for r, _ in mine])
        for record, number in mine:
            owner = owners.get(record[field])
            if owner is not None and owner != record["user_id"]:
                raise PortableFormatError(name, number, f"{kind} {field} {record[field]!r} is another user's "
                                                        f"({owner!r}) in this store: a {kind} belongs to one user")
