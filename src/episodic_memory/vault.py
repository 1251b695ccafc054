"""The vault: a user's memories as an Obsidian-friendly folder of markdown notes (Home.md, Workstreams/,
Entities/, Days/), kept by a manifest and never written through a link (README, "The vault")."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import stat
import tempfile
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any

from .store import Store
from .store.records import Entity, Episode, Fact, Loop, SessionInfo, Workstream

log = logging.getLogger(__name__)

MANIFEST = ".episodic-vault.json"
DECISION_TYPES = ("decision", "correction")
NAME_BYTES = 200        # a note's name at most (+ ".md", + a temporary file's 15 bytes: under the usual 255-byte cap)
USER_SLUG_BYTES = 64    # the readable part of a user's folder name in `Config.store.vault_dir`
USER_HASH_CHARS = 12    # hex digits of the exact user id's SHA-256 that end the folder name (48 bits)
_UNSAFE = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f\x7f\ud800-\udfff]+')
_NOTE_PATH = re.compile(r"(Home|(Workstreams|Entities|Days)/[^/\\\x00]+)\.md")  # every path the vault writes


class VaultError(RuntimeError):
    """The vault cannot be written where it was asked to be."""


@dataclass
class VaultReport:
    """What one write did: note paths (relative to the vault) written, left as they were, and removed."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"written": self.written, "unchanged": self.unchanged, "removed": self.removed}


def write_vault(store: Store, user_id: str, root: str | Path) -> VaultReport:
    """Bring the vault at `root` in line with what `store` holds for `user_id`. `VaultError` (nothing outside the
    folder touched) when it cannot: a clash with a file the vault did not write, another user's vault, a link."""
    folder = Path(root).expanduser()
    try:
        return _write(store, user_id, folder)
    except OSError as exc:  # a read-only folder, a full disk: one clear error, not a traceback
        raise VaultError(f"cannot write the vault in {folder}: {exc}") from exc


def _write(store: Store, user_id: str, folder: Path) -> VaultReport:
    if folder.exists() and not folder.is_dir():
        raise VaultError(f"{folder} is not a folder")
    files = _Folder(folder)
    owner = vault_owner(folder)
    if owner is not None and owner != user_id:
        raise VaultError(f"{folder} holds the vault of another user: choose another folder (nothing was written)")
    notes = render_notes(store, user_id)
    owned = _read_manifest(files)
    present = {rel for rel in sorted(set(notes) | owned) if files.exists(rel)}  # every path checked before writing
    for rel in sorted(notes):
        if rel in present and (rel not in owned or _kind(files.path(rel)) != "a file"):
            raise VaultError(f"{folder / rel} exists and was not written by the vault: move it, or choose another "
                             "folder (nothing was written)")
    report = VaultReport()
    for rel, text in sorted(notes.items()):
        if rel in present and files.read(rel) == text:
            report.unchanged.append(rel)
            continue
        files.write(rel, text)
        report.written.append(rel)
    for rel in sorted(owned - set(notes)):
        if files.remove(rel):
            report.removed.append(rel)
    if notes or owned:
        files.write(MANIFEST, json.dumps({"user_id": user_id, "notes": sorted(notes)}, indent=1) + "\n")
    return report


def write_user_vault(store: Store, user_id: str, vault_dir: str | Path) -> VaultReport:
    """Bring `Config.store.vault_dir`'s vault of `user_id` (`user_vault`) up to date. A folder an older version named after
    the bare id moves there first when its manifest says it is this user's vault; one that is not is left alone."""
    root = Path(vault_dir).expanduser()
    folder = user_vault(root, user_id)
    old = root / _legacy_folder_name(user_id)
    if _kind(old) == "a folder" and vault_owner(old) == user_id:
        if _kind(folder) is None:
            os.rename(old, folder)
            log.info("moved the vault of %r from %s to %s (folder names now end with a hash of the user id)",
                     user_id, old, folder)
        else:
            log.warning("%s, the vault of %r kept by an older version, is left as it is: the vault is now in %s",
                        old, user_id, folder)
    if _kind(folder) not in (None, "a folder"):
        raise VaultError(f"{folder} is {_kind(folder)}, not a folder: the vault never writes through it")
    return write_vault(store, user_id, folder)


def render_notes(store: Store, user_id: str) -> dict[str, str]:
    """Every note of the user's vault: relative path → markdown. Empty when the user has no memories."""
    sessions = store.sessions(user_id)
    if not sessions:
        return {}
    facts = store.facts(user_id, include_superseded=True)
    entities = store.entities(user_id)
    workstreams = store.workstreams(user_id)
    episodes = store.episodes(user_id)
    loops = store.loops(user_id, "all")
    names = _Names()
    entity_note = {e.id: names.take(e.name, "entity") for e in entities}
    by_entity_name = {n.casefold(): entity_note[e.id] for e in entities for n in (e.name, *e.aliases)}
    workstream_note = {w.id: names.take(w.name, "workstream") for w in workstreams}
    days = sorted({_day(s.started_at or s.last_turn_at) for s in sessions if (s.started_at or s.last_turn_at)}
                  | {_day(f.created_at) for f in facts if f.type in DECISION_TYPES})
    day_note = {d: names.take(d, "day") for d in days}
    ctx = _Context(by_entity_name, workstream_note, day_note, {f.id: f for f in facts})

    notes: dict[str, str] = {}
    for w in workstreams:
        notes[f"Workstreams/{workstream_note[w.id]}.md"] = _workstream_note(
            w, [e for e in episodes if e.workstream_id == w.id], [lp for lp in loops if lp.workstream_id == w.id], ctx)
    for e in entities:
        notes[f"Entities/{entity_note[e.id]}.md"] = _entity_note(
            e, store.entity_facts(user_id, e.id, include_superseded=True), ctx)
    episode_of = {e.session_id: e for e in episodes}
    for d in days:
        notes[f"Days/{day_note[d]}.md"] = _day_note(
            d, [s for s in sessions if _day(s.started_at or s.last_turn_at) == d], episode_of,
            [f for f in facts if f.type in DECISION_TYPES and _day(f.created_at) == d], loops, ctx)
    notes["Home.md"] = _home_note(user_id, workstreams, entities, days, loops, ctx)
    return notes


# --- notes -------------------------------------------------------------------------------------------
@dataclass
class _Context:
    entity_note: dict[str, str]       # casefolded name or alias → note name
    workstream_note: dict[int, str]
    day_note: dict[str, str]
    facts: dict[int, Fact]

    def fact_line(self, fact: Fact | None, text: str, type_: str, current: bool) -> str:
        links = [] if fact is None else [self.entity_note[n.casefold()] for n in fact.entities
                                         if n.casefold() in self.entity_note]
        body = text if current else f"~~{text}~~ (superseded)"
        day = f" · [[{self.day_note[_day(fact.created_at)]}]]" if fact and _day(fact.created_at) in self.day_note else ""
        linked = (" — " + ", ".join(f"[[{n}]]" for n in dict.fromkeys(links))) if links else ""
        return f"- **{type_}** {_one_line(body)}{linked}{day}"


def _front_matter(**fields: Any) -> str:
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in fields.items()
             if value is not None]
    return "\n".join(["---", *lines, "---", ""])


def _workstream_note(w: Workstream, episodes: list[Episode], loops: list[Loop], ctx: _Context) -> str:
    out = [_front_matter(type="workstream", id=w.id, status=w.status, sessions=w.sessions,
                         first_activity=_iso_day(w.first_activity), last_activity=_iso_day(w.last_activity),
                         keyphrases=list(w.keyphrases)),
           f"# {w.name}", ""]
    out += ["## Episodes", ""]
    episodes = sorted(episodes, key=lambda e: e.started_at or e.created_at)
    for e in episodes:
        day = _day(e.started_at or e.created_at)
        link = f"[[{ctx.day_note[day]}]]" if day in ctx.day_note else day
        out.append(f"- {link} · `{e.session_id}` — {_one_line(e.summary)}")
    out += ["", "## Facts", ""]
    out += [ctx.fact_line(ctx.facts.get(f["id"]), f["text"], f["type"], f["current"])
            for e in episodes for f in e.facts] or ["_none yet_"]
    out += ["", "## Open loops", ""]
    out += [_loop_line(lp, ctx) for lp in loops if lp.status == "open"] or ["_none_"]
    closed = [lp for lp in loops if lp.status != "open"]
    if closed:
        out += ["", "## Closed loops", ""] + [_loop_line(lp, ctx) for lp in closed]
    return "\n".join(out) + "\n"


def _entity_note(e: Entity, facts: list[Fact], ctx: _Context) -> str:
    from .consolidate.facts import profile_text  # consolidation code loads only when a vault is written

    current = [f for f in facts if f.current]
    out = [_front_matter(type="entity", id=e.id, aliases=[a for a in e.aliases if a.casefold() != e.name.casefold()]
                         or None, facts=e.facts),
           f"# {e.name}", "", "## Profile", "", profile_text(current, e.profile) or "_nothing known yet_", ""]
    if e.related:
        links = [f"[[{ctx.entity_note[n.casefold()]}]] ({w})" for n, w in e.related if n.casefold() in ctx.entity_note]
        out += ["## Appears with", "", ", ".join(links), ""]
    out += ["## Facts", ""]
    out += [ctx.fact_line(f, f.text, f.type, f.current) for f in sorted(facts, key=lambda f: f.created_at)] or [
        "_none_"]
    return "\n".join(out) + "\n"


def _day_note(day: str, sessions: list[SessionInfo], episode_of: dict[str, Episode], decisions: list[Fact],
              loops: list[Loop], ctx: _Context) -> str:
    out = [_front_matter(type="day", date=day), f"# {day}", "", "## Sessions", ""]
    for s in sorted(sessions, key=lambda s: s.started_at or 0.0):
        e = episode_of.get(s.session_id)
        ws = f" · [[{ctx.workstream_note[e.workstream_id]}]]" if e and e.workstream_id in ctx.workstream_note else ""
        start = _clock(s.started_at)
        summary = f" — {_one_line(e.summary)}" if e else ""
        out.append(f"- {start}`{s.session_id}` ({_count(s.turn_count, 'turn')}){ws}{summary}")
    if not sessions:
        out.append("_none started this day_")
    out += ["", "## Decisions and corrections", ""]
    out += [ctx.fact_line(f, f.text, f.type, f.current) for f in sorted(decisions, key=lambda f: f.created_at)] or [
        "_none_"]
    opened = [lp for lp in loops if _day(lp.created_at) == day]
    if opened:
        out += ["", "## Loops opened", ""] + [_loop_line(lp, ctx) for lp in opened]
    return "\n".join(out) + "\n"


def _home_note(user_id: str, workstreams: list[Workstream], entities: list[Entity], days: list[str],
               loops: list[Loop], ctx: _Context) -> str:
    out = [_front_matter(type="home", user=user_id), f"# Memories of {user_id}", "", "## Workstreams", ""]
    out += [f"- [[{ctx.workstream_note[w.id]}]] ({_count(w.sessions, 'session')}, {_count(w.open_loops, 'open loop')})"
            for w in workstreams] or ["_none confirmed yet_"]
    out += ["", "## Open loops", ""]
    out += [_loop_line(lp, ctx) for lp in loops if lp.status == "open"] or ["_none_"]
    out += ["", "## Entities", ""]
    out += [f"- [[{ctx.entity_note[e.name.casefold()]}]] ({_count(e.facts, 'fact')})" for e in entities] or [
        "_none_"]
    out += ["", "## Days", ""] + [f"- [[{ctx.day_note[d]}]]" for d in reversed(days)]
    return "\n".join(out) + "\n"


def _loop_line(lp: Loop, ctx: _Context) -> str:
    box = "[ ]" if lp.status == "open" else "[x]"
    due = f" (due {lp.due})" if lp.due else ""
    day = _day(lp.created_at)
    opened = f" · opened [[{ctx.day_note[day]}]]" if day in ctx.day_note else ""
    closed = ""
    if lp.status != "open":
        how = f": “{_one_line(lp.evidence)}”" if lp.evidence else (f": {_one_line(lp.note)}" if lp.note else "")
        closed = f" · closed {_iso_day(lp.closed_at) or ''}{how}"
    return f"- {box} {_one_line(lp.text)}{due}{opened}{closed} ^loop-{lp.id}"


# --- names, times, files -----------------------------------------------------------------------------
class _Names:
    """Note names unique across the vault (case-insensitively, as Obsidian links resolve)."""

    def __init__(self) -> None:
        self.used: set[str] = {"home"}

    def take(self, name: str, kind: str) -> str:
        base = _fit(_UNSAFE.sub("-", name).strip(" .-") or kind, NAME_BYTES - 24)  # room for " (workstream 12)"
        candidate, n = base, 1
        while _folded(candidate) in self.used:
            n += 1
            candidate = f"{base} ({kind} {n})"
        self.used.add(_folded(candidate))
        return candidate


def _folded(name: str) -> str:
    """A name as file systems and Obsidian may compare it: without case, in one Unicode normal form."""
    return unicodedata.normalize("NFC", name).casefold()


def _day(ts: float | None) -> str:
    return "" if ts is None else datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%d")


def _iso_day(ts: float | None) -> str | None:
    return _day(ts) or None


def _clock(ts: float | None) -> str:
    return "" if ts is None else datetime.fromtimestamp(ts, timezone.utc).strftime("%H:%M ")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _read_manifest(files: _Folder) -> set[str]:
    """The notes the manifest says the vault wrote. An entry that is not a path the vault writes is ignored: it can
    name nothing outside the vault, nor anything the vault does not write."""
    text = files.read(MANIFEST)
    if text is None:
        return set()
    try:
        notes = json.loads(text).get("notes", [])
    except (ValueError, AttributeError) as exc:
        raise VaultError(f"{files.root / MANIFEST} is damaged ({exc}): remove it to let the vault start afresh"
                         ) from None
    return {n for n in notes if isinstance(n, str) and _NOTE_PATH.fullmatch(n)}


def vault_owner(folder: str | Path) -> str | None:
    """The user whose vault `folder` is (from its manifest); None when it is not a vault."""
    try:
        owner = json.loads(_Folder(Path(folder)).read(MANIFEST) or "{}").get("user_id")
    except (OSError, ValueError, AttributeError, VaultError):
        return None
    return owner if isinstance(owner, str) else None


class _Folder:
    """A vault's folder, read and written by paths relative to it that never go through a link: each folder on the
    way must be a real folder and each note a plain file (checked with lstat, opened with O_NOFOLLOW), else
    `VaultError`. So a symlink put in the vault (``Entities`` → elsewhere) cannot make it write or remove outside."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, rel: str) -> Path:
        """`root/rel`, once every folder between them is found to be a real folder (or absent)."""
        *folders, name = PurePosixPath(rel).parts
        path = self.root
        for part in folders:
            path = path / part
            if _kind(path) not in (None, "a folder"):
                raise VaultError(f"{path} is {_kind(path)}, not a folder: the vault never writes through it")
        return path / name

    def exists(self, rel: str) -> bool:
        return _kind(self.path(rel)) is not None

    def read(self, rel: str) -> str | None:
        """The text of a plain file; None when there is nothing there."""
        path = self.path(rel)
        kind = _kind(path)
        if kind is None:
            return None
        if kind != "a file":
            raise VaultError(f"{path} is {kind}: the vault reads and writes only plain files")
        with os.fdopen(os.open(path, os.O_RDONLY | _NOFOLLOW), encoding="utf-8") as f:
            return f.read()

    def write(self, rel: str, text: str) -> None:
        """Atomically: a temporary file, created exclusively (so never through a link), renamed over `rel` (a rename
        replaces the name, it does not follow it)."""
        path = self.path(rel)
        if _kind(path) not in (None, "a file"):
            raise VaultError(f"{path} is {_kind(path)}: the vault reads and writes only plain files")
        self.root.mkdir(parents=True, exist_ok=True)
        folder = self.root
        for part in PurePosixPath(rel).parts[:-1]:
            folder = folder / part
            if _kind(folder) is None:
                folder.mkdir()
        self.path(rel)  # checked again, now that the folders are there
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def remove(self, rel: str) -> bool:
        """Remove a plain file (and the folders it leaves empty). What is not one (gone, or replaced by a link or a
        folder) is no longer the vault's to remove: left as it is (False)."""
        path = self.path(rel)
        if _kind(path) != "a file":
            return False
        path.unlink()
        folder = path.parent
        while folder != self.root and _kind(folder) == "a folder" and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
        return True


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # not on Windows, where the lstat checks stand alone


def _kind(path: Path) -> str | None:
    """What is at `path` itself, a link not followed: "a file", "a folder", "a link", "a special file" or None."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return "a link"
    return "a file" if stat.S_ISREG(mode) else "a folder" if stat.S_ISDIR(mode) else "a special file"


def _digest(text: str, chars: int) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:chars]


def _trim(text: str, limit: int) -> str:
    """`text` cut to at most `limit` UTF-8 bytes, on a character boundary."""
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")


def _fit(name: str, limit: int) -> str:
    """`name` in at most `limit` UTF-8 bytes: a longer one is cut and ends with a hash of the whole, so that two long
    names with the same beginning stay distinct."""
    if len(name.encode("utf-8")) <= limit:
        return name
    tag = _digest(name, 8)
    return f"{_trim(name, limit - len(tag) - 1).rstrip(' .-')}~{tag}"


def _legacy_folder_name(user_id: str) -> str:
    """Where an older version kept a user's vault in `Config.store.vault_dir`: not one folder per user (`a/b` and `a-b`
    shared one)."""
    return _UNSAFE.sub("-", user_id).strip(" .") or "user"


def user_vault(vault_dir: str | Path, user_id: str) -> Path:
    """Where `Config.store.vault_dir` keeps a user's vault: ``<readable part of the id>-<hash of the exact id>``, one folder
    per user (``a/b`` and ``a-b``, ``Alice`` and ``alice`` differ, even where names are compared without case)."""
    slug = _trim(_UNSAFE.sub("-", user_id), USER_SLUG_BYTES).strip(" .-") or "user"
    return Path(vault_dir).expanduser() / f"{slug}-{_digest(user_id, USER_HASH_CHARS)}"
