"""The compatibility API's consolidation door: `await consolidate_buffer(buf)` runs extract → route → gate → referee → store
over the buffer's session (what `Memory.end_session` and every `consolidate_every` turns also run)."""

from __future__ import annotations

import asyncio

from .session_buffer import SessionBuffer
from .store.records import Fact


async def consolidate_buffer(buffer: SessionBuffer) -> list[Fact]:
    """Consolidate the turns of the buffer's session not consolidated yet, in a worker thread, through the
    memory's scheduler (after a run of the session already queued or under way, never beside it); returns the
    facts this added."""
    memory, user_id, session_id = buffer.memory, buffer.user_id, buffer.session_id
    before = {f.id for f in memory.facts(user_id, include_superseded=True, session_id=session_id)}
    await asyncio.to_thread(memory.scheduler.run_now, user_id, session_id)
    return [f for f in memory.facts(user_id, session_id=session_id) if f.id not in before]
