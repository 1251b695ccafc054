"""Results as JSON-ready data, shared by the REST and MCP servers."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..brief import Brief
from ..scopes import scope_of


def to_data(item: Any) -> Any:
    """A result object as JSON-ready data: its `to_dict()`, or its dataclass fields."""
    if hasattr(item, "to_dict"):
        return item.to_dict()
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return json.loads(json.dumps(dataclasses.asdict(item), default=str))
    return item


def scoped(item: Any) -> dict[str, Any]:
    """A loop or workstream (anything with the `user_id` of its owner) as data, with the scope it belongs to."""
    return {**to_data(item), "scope": scope_of(item.user_id)}


def brief_data(made: Brief) -> dict[str, Any]:
    """A briefing as data, every item with its scope (a merged one's dict items carry theirs already)."""
    data: dict[str, Any] = to_data(made)
    own = scope_of(made.user_id)
    for name in ("sessions", "decisions", "corrections", "pinned"):
        data[name] = [{**item, "scope": item.get("scope", own)} for item in data[name]]
    data["open_loops"] = [scoped(lp) for lp in made.open_loops]
    data["workstreams"] = [scoped(w) for w in made.workstreams]
    return data
