"""The vault: a user's memories as an Obsidian-friendly folder of markdown notes.

    Home.md                      what the vault holds, with links to every note
    Workstreams/<name>.md        its episodes, its sessions' facts, its open and closed loops
    Entities/<name>.md           its profile, aliases, facts, and links to the entities it appears with
    Days/<YYYY-MM-DD>.md         the sessions that started that day (UTC) and the decisions and corrections made

Notes link by name (``[[Maya]]``, ``[[2026-11-02]]``); every name is unique in the vault. Writing is idempotent (a
note whose text is unchanged is not touched) and atomic (a temporary file renamed into place); a manifest
(``.episodic-vault.json``) lists the notes written here, so a note that no longer has anything to say — after a
forget, say — is removed, and a file the vault did not write is never overwritten or removed. `Config.vault_dir`
keeps one folder per user (``<vault_dir>/<user_id>/``) in sync after each consolidation and forget.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .store import Store
from .store.records import Entity, Episode, Fact, Loop, SessionInfo, Workstream

MANIFEST = ".episodic-vault.json"
DECISION_TYPES = ("decision", "correction")
_UNSAFE = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f]+')


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
    """Bring the vault at `root` in line with what `store` holds for `user_id`."""
    folder = Path(root).expanduser()
    if folder.exists() and not folder.is_dir():
        raise VaultError(f"{folder} is not a folder")
    notes = render_notes(store, user_id)
    owned = _read_manifest(folder)
    for rel in notes:
        if rel not in owned and (folder / rel).exists():
            raise VaultError(f"{folder / rel} exists and was not written by the vault: move it, or choose another "
                             "folder (nothing was written)")
    report = VaultReport()
    for rel, text in sorted(notes.items()):
        path = folder / rel
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            report.unchanged.append(rel)
            continue
        _write_atomic(path, text)
        report.written.append(rel)
    for rel in sorted(owned - set(notes)):
        path = folder / rel
        if path.is_file():
            path.unlink()
            report.removed.append(rel)
        _remove_empty_parents(path.parent, folder)
    if notes or owned:
        _write_atomic(folder / MANIFEST, json.dumps({"user_id": user_id, "notes": sorted(notes)}, indent=1) + "\n")
    return report


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
    lines = ["---"]
    for key, value in fields.items():
        if value is None:
            continue
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines + ["---", ""])


def _workstream_note(w: Workstream, episodes: list[Episode], loops: list[Loop], ctx: _Context) -> str:
    out = [_front_matter(type="workstream", id=w.id, status=w.status, sessions=w.sessions,
                         first_activity=_iso_day(w.first_activity), last_activity=_iso_day(w.last_activity),
                         keyphrases=list(w.keyphrases)),
           f"# {w.name}", ""]
    out += ["## Episodes", ""]
    for e in sorted(episodes, key=lambda e: e.started_at or e.created_at):
        day = _day(e.started_at or e.created_at)
        link = f"[[{ctx.day_note[day]}]]" if day in ctx.day_note else day
        out.append(f"- {link} · `{e.session_id}` — {_one_line(e.summary)}")
    out += ["", "## Facts", ""]
    seen = 0
    for e in sorted(episodes, key=lambda e: e.started_at or e.created_at):
        for f in e.facts:
            out.append(ctx.fact_line(ctx.facts.get(f["id"]), f["text"], f["type"], f["current"]))
            seen += 1
    if not seen:
        out.append("_none yet_")
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
        base = _UNSAFE.sub("-", name).strip(" .-") or kind
        base = base[:120]
        candidate, n = base, 1
        while candidate.casefold() in self.used:
            n += 1
            candidate = f"{base} ({kind} {n})"
        self.used.add(candidate.casefold())
        return candidate


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


def _read_manifest(folder: Path) -> set[str]:
    path = folder / MANIFEST
    if not path.is_file():
        return set()
    try:
        notes = json.loads(path.read_text(encoding="utf-8")).get("notes", [])
    except (ValueError, AttributeError) as exc:
        raise VaultError(f"{path} is damaged ({exc}): remove it to let the vault start afresh") from None
    return {n for n in notes if isinstance(n, str) and ".." not in Path(n).parts and not Path(n).is_absolute()}


def vault_owner(folder: str | Path) -> str | None:
    """The user whose vault `folder` is (from its manifest); None when it is not a vault."""
    try:
        owner = json.loads((Path(folder) / MANIFEST).read_text(encoding="utf-8")).get("user_id")
    except (OSError, ValueError, AttributeError):
        return None
    return owner if isinstance(owner, str) else None


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _remove_empty_parents(folder: Path, root: Path) -> None:
    while folder != root and folder.is_dir() and root in folder.parents and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def user_vault(vault_dir: str | Path, user_id: str) -> Path:
    """Where `Config.vault_dir` keeps a user's vault."""
    return Path(vault_dir).expanduser() / (_UNSAFE.sub("-", user_id).strip(" .") or "user")

