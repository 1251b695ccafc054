"""The startup briefing — "where were we?": the window's sessions, decisions and corrections, the open loops and
the active workstreams, in one read of a few indexed queries (see bench/brief.py for its timing)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from .store.records import Loop, Workstream
from .util import to_datetime, to_iso

if TYPE_CHECKING:
    from .clients import MemoryClients

LOOSE_ENDS = "Loose ends"   # loops whose session is not (yet) part of a confirmed workstream


def ago(ts: float | None, now: float | None = None) -> str:
    """'just now', '5m ago', '3h ago', '2d ago', '4mo ago', '2y ago'."""
    if ts is None:
        return "undated"
    seconds = (time.time() if now is None else now) - ts
    if seconds < 0:
        return "in the future"
    for limit, unit, size in ((60, "", 1), (3600, "m", 60), (86400, "h", 3600), (86400 * 60, "d", 86400),
                              (86400 * 730, "mo", 86400 * 30)):
        if seconds < limit:
            return "just now" if not unit else f"{int(seconds // size)}{unit} ago"
    return f"{int(seconds // (86400 * 365))}y ago"


def group_loops(loops: list[Loop]) -> list[tuple[int | None, str, list[Loop]]]:
    """Loops by confirmed workstream (most recently raised first), then the loose ends."""
    groups: dict[int | None, list[Loop]] = {}
    names: dict[int | None, str] = {None: LOOSE_ENDS}
    for lp in loops:
        key = lp.workstream_id if lp.workstream is not None else None
        groups.setdefault(key, []).append(lp)
        if key is not None:
            names[key] = lp.workstream or ""
    order: list[int | None] = sorted((k for k in groups if k is not None),
                                     key=lambda k: -max(lp.created_at for lp in groups[k]))
    if None in groups:
        order.append(None)
    return [(k, names[k], groups[k]) for k in order]


@dataclass
class Brief:
    """What happened in the last `hours`, and what is still open."""

    user_id: str
    hours: float
    since: float
    until: float
    sessions: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    open_loops: list[Loop] = field(default_factory=list)
    workstreams: list[Workstream] = field(default_factory=list)
    pinned: list[dict[str, Any]] = field(default_factory=list)   # facts the user pinned, whatever their age

    def to_dict(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id, "hours": self.hours, "since": to_iso(self.since), "until": to_iso(self.until),
            "sessions": [dict(s) for s in self.sessions], "decisions": [dict(d) for d in self.decisions],
            "corrections": [dict(c) for c in self.corrections],
            "open_loops": [lp.to_dict() for lp in self.open_loops],
            "workstreams": [w.to_dict() for w in self.workstreams],
            "pinned": [{**p, "created_at": to_iso(p["created_at"])} for p in self.pinned],
        }

    def render(self, markup: bool = False) -> str:
        """The briefing as text (with rich markup for a terminal when `markup`)."""
        esc = escape if markup else (lambda s: s)

        def head(text: str) -> str:
            return f"[bold]{esc(text)}[/bold]" if markup else text

        def dim(text: str) -> str:
            return f"[dim]{esc(text)}[/dim]" if markup else text

        now = self.until
        since = to_datetime(self.since)
        hours = f"{self.hours:g} hour" + ("" if self.hours == 1 else "s")
        lines = [head(f"Briefing: the last {hours} (since {since:%Y-%m-%d %H:%M} UTC)"), ""]
        if self.pinned:
            lines.append(head(f"Pinned ({len(self.pinned)})"))
            lines += [f"  · {esc(p['text'])}  " + dim(f"#{p['id']}") for p in self.pinned]
        lines.append(head(f"Sessions ({len(self.sessions)})"))
        for s in self.sessions:
            when = ago(datetime.fromisoformat(s["last_turn_at"]).timestamp(), now) if s["last_turn_at"] else ""
            lines.append(f"  · {esc(s['session_id'])}  " + dim(f"{s['turns']} turns, {when}")
                         + (f" — {esc(s['summary'])}" if s.get("summary") else ""))
        for title, items in (("Decisions", self.decisions), ("Corrections", self.corrections)):
            lines.append(head(f"{title} ({len(items)})"))
            lines += [f"  · {esc(d['text'])}  " + dim(f"({d['session_id']})") for d in items]
        lines.append(head(f"Open loops ({len(self.open_loops)})"))
        for _, name, loops in group_loops(self.open_loops):
            lines.append(f"  ▸ {esc(name)}")
            lines += [f"    · {esc(lp.text)}  " + dim(f"#{lp.id} · {ago(lp.created_at, now)}") for lp in loops]
        lines.append(head(f"Active workstreams ({len(self.workstreams)})"))
        for w in self.workstreams:
            lines.append(f"  ▸ {esc(w.name)}  " + dim(
                f"({w.sessions} sessions, {w.facts} facts, {w.open_loops} open loops, "
                f"last active {ago(w.last_activity, now)})"))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


def build_brief(clients: MemoryClients, user_id: str, hours: float = 24, now: float | None = None) -> Brief:
    """What `Memory.brief` returns: the briefing of `user_id` over the `hours` before `now` (default: the clock)."""
    if isinstance(hours, bool) or not isinstance(hours, (int, float)) or not hours > 0:
        raise ValueError(f"hours must be a positive number, got {hours!r}")
    uid = user_id
    cfg, store = clients.config, clients.store
    until = clients.clock() if now is None else float(now)
    since = until - float(hours) * 3600
    limit = cfg.inject.brief_max_items
    sessions = [{**info.to_dict(), "summary": summary}
                for info, summary in store.sessions_between(uid, since, until, limit)]
    return Brief(
        user_id=uid, hours=float(hours), since=since, until=until, sessions=sessions,
        decisions=store.facts_between(uid, ["decision"], since, until, limit),
        corrections=store.facts_between(uid, ["correction"], since, until, limit),
        open_loops=store.loops(uid, "open", limit=limit),
        # active: within the window, or within `workstream_active_days` when the window is shorter
        workstreams=store.workstreams(uid, active_since=min(since, until - cfg.workstreams.active_days * 86_400),
                                      limit=limit),
        pinned=store.pinned_facts(uid, limit),
    )
