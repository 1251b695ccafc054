"""Claude Code's settings file with this package's hook entries merged in, or taken out again (`episodic hooks
install claude-code`); what is kept, replaced and refused: docs/hooks.md.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .claude_code_io import ENDING, EVENTS

SCOPES = ("user", "project")
FAST_CLIENT = Path(__file__).with_name("claude_code_io.py")
MARGIN_S = 2.0   # the harness's time-out is the hook's own budget plus this (a hook answers before it is killed)


class SettingsError(ValueError):
    """The settings file cannot be read as Claude Code settings: nothing was written."""


def settings_path(scope: str, cwd: Path | None = None) -> Path:
    """The user's settings (~/.claude/settings.json, or under $CLAUDE_CONFIG_DIR), or this project's local settings
    (.claude/settings.local.json in `cwd`: the commands name this machine's paths, so not the shared, committed
    .claude/settings.json)."""
    if scope == "user":
        return Path(os.environ.get("CLAUDE_CONFIG_DIR") or "~/.claude").expanduser() / "settings.json"
    if scope == "project":
        return (cwd or Path.cwd()) / ".claude" / "settings.local.json"
    raise ValueError(f"scope must be one of {SCOPES}, got {scope!r}")


def episodic_command() -> list[str]:
    """How to run `episodic` as installed here: the script beside this interpreter, else ``python -m
    episodic_memory`` (never whatever `episodic` comes first on the harness's PATH)."""
    folder = Path(sys.executable).parent
    for name in ("episodic", "episodic.exe"):
        script = folder / name
        if script.is_file() and os.access(script, os.X_OK):
            return [str(script)]
    return [sys.executable, "-m", "episodic_memory"]


def hook_commands(*, hook_timeout_s: float, end_timeout_s: float, db: str | None = None, user: str | None = None,
                  server: str | None = None) -> dict[str, dict[str, Any]]:
    """Our entry for each event: ``episodic hook EVENT`` (opens the store), or with `server` the fast client
    (talks to `episodic serve`; opens the store itself when no server answers)."""
    entries = {}
    for event in EVENTS:
        budget = end_timeout_s if event in ENDING else hook_timeout_s
        if server:
            words = [sys.executable, str(FAST_CLIENT), event, "--server", server, "--timeout", f"{budget:g}"]
        else:
            words = [*episodic_command(), "hook", event]
        for flag, value in (("--db", db), ("--user", user)):
            if value:
                words += [flag, value]
        entries[event] = {"type": "command", "command": shlex.join(words),
                          "timeout": math.ceil(budget + MARGIN_S)}
    return entries


def is_ours(command: object, event: str) -> bool:
    """Whether a hook command is this package's for `event`: ``…/episodic hook EVENT``, ``python -m
    episodic_memory hook EVENT`` or ``python …/claude_code_io.py EVENT`` (any path, any options)."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    if event not in words:
        return False
    names = [Path(w).name for w in words]
    if FAST_CLIENT.name in names:
        return names.index(FAST_CLIENT.name) < words.index(event)
    runs_us = any(n in ("episodic", "episodic.exe") for n in names) or (
        "-m" in words and "episodic_memory" in words)
    return runs_us and "hook" in words and words.index("hook") + 1 == words.index(event)


@dataclass
class Change:
    path: Path
    added: list[str]       # events that got our entry
    updated: list[str]     # events whose older entry of ours was replaced
    kept: list[str]        # events that already had exactly this entry
    removed: int = 0       # entries of ours taken out (uninstall, or duplicates)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)


def read_settings(path: Path) -> dict[str, Any]:
    """The settings object ({} when there is no file); SettingsError when it is not Claude Code's shape."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig") or "{}")
    except (OSError, ValueError) as exc:
        raise SettingsError(f"{path} is not readable JSON ({exc}); fix or move it, nothing was written") from None
    if not isinstance(data, dict):
        raise SettingsError(f"{path} holds a JSON {type(data).__name__}, not an object; nothing was written")
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f"{path}: \"hooks\" is not an object; nothing was written")
    for event, groups in hooks.items():
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise SettingsError(f"{path}: hooks.{event} is not a list of matcher groups; nothing was written")
        for group in groups:
            if not isinstance(group.get("hooks", []), list):
                raise SettingsError(f"{path}: a hooks.{event} group's \"hooks\" is not a list; nothing was written")
    return data


def write_settings(path: Path, data: dict[str, Any]) -> None:
    """Indented JSON, written beside and renamed into place (keeping the file's permissions)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if path.exists():
        os.chmod(tmp, path.stat().st_mode & 0o7777)
    os.replace(tmp, path)


def _take_ours(groups: list[dict[str, Any]], event: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the groups without our entries — a group left empty by that is dropped, our entries)."""
    kept_groups, ours = [], []
    for group in groups:
        entries = group.get("hooks", [])
        mine = [h for h in entries if isinstance(h, dict) and is_ours(h.get("command"), event)]
        rest = [h for h in entries if h not in mine]  # (an entry equal to one of ours is ours too)
        ours += mine
        if not mine:
            kept_groups.append(group)
        elif rest:
            kept_groups.append({**group, "hooks": rest})
    return kept_groups, ours


def install(path: Path, entries: dict[str, dict[str, Any]]) -> Change:
    """Merge our `entries` (event -> hook entry) into the settings at `path`; written only when something changed."""
    data = read_settings(path)
    hooks = data.setdefault("hooks", {})
    change = Change(path, [], [], [])
    for event, entry in entries.items():
        current = hooks.get(event, [])
        groups, ours = _take_ours(current, event)
        wanted = [*groups, {"hooks": [entry]}]
        if current == wanted:
            change.kept.append(event)
            continue
        (change.updated if ours else change.added).append(event)
        change.removed += max(len(ours) - 1, 0)
        hooks[event] = wanted
    if change.changed:
        write_settings(path, data)
    return change


def uninstall(path: Path, events: tuple[str, ...] = EVENTS) -> Change:
    """Take our entries for `events` out of the settings at `path` (and what held only them)."""
    change = Change(path, [], [], [])
    data = read_settings(path)  # {} without a file; "hooks", when there, is an object
    hooks = data.get("hooks", {})
    for event in events:
        if event not in hooks:
            continue
        groups, ours = _take_ours(hooks[event], event)
        change.removed += len(ours)
        if ours:
            if groups:
                hooks[event] = groups
            else:
                del hooks[event]
    if change.removed:
        if not hooks:
            del data["hooks"]
        write_settings(path, data)
    return change
