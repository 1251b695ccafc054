"""Results as JSON-ready data, shared by the REST and MCP servers."""

from __future__ import annotations

import dataclasses
import json
from typing import Any


def to_data(item: Any) -> Any:
    """A result object as JSON-ready data: its `to_dict()`, or its dataclass fields."""
    if hasattr(item, "to_dict"):
        return item.to_dict()
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return json.loads(json.dumps(dataclasses.asdict(item), default=str))
    return item
