"""Consolidation: what a session's new turns become (facts, then its episode, workstream and open loops).

Each step is ``step(clients, session_info, new_turns)`` — `clients` the Memory's `MemoryClients` bundle, never the
`Memory` — run in order by `Memory.consolidate` every `Config.capture.consolidate_every` turns and at session end (when:
`consolidate/scheduler.py`). A step that raises leaves the session flagged for a retry at
the next open, so a step must be idempotent over turns it has already seen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..clients import MemoryClients
    from ..store.records import SessionInfo, StoredTurn

ConsolidationStep = Callable[["MemoryClients", "SessionInfo", "list[StoredTurn]"], None]


def default_steps() -> list[ConsolidationStep]:
    """The steps a new `Memory` runs, in order."""
    from .episodes import consolidate_episode
    from .facts import consolidate_facts
    from .loops import consolidate_loops
    from .workstreams import consolidate_workstream

    # facts first: episodes list them
    return [consolidate_facts, consolidate_episode, consolidate_workstream, consolidate_loops]
