"""Episodes and workstreams as recall hits (kinds "episode" and "workstream"; only confirmed workstreams)."""

from __future__ import annotations

from ..store.base import Store
from ..util import to_datetime
from .hit import Hit


def load_episode_hits(store: Store, user_id: str, ids: list[int], as_of: float | None) -> dict[int, Hit]:
    found = store.episodes(user_id, ids=ids, with_facts=False)
    fact_counts = store.session_fact_counts(user_id, [e.session_id for e in found])
    confirmed = store.workstream_names(user_id, {e.workstream_id for e in found if e.workstream_id is not None})
    hits = {}
    for e in found:
        if as_of is not None and (e.started_at or e.created_at) > as_of:
            continue
        hits[e.id] = Hit(
            id=f"episode:{e.id}", kind="episode", text=e.summary, score=0.0, timestamp=to_datetime(e.ended_at),
            session_id=e.session_id, source_ids=list(e.source_turns), user_id=user_id,
            details={"source_turns": list(e.source_ids), "workstream": confirmed.get(e.workstream_id),  # type: ignore[arg-type]
                     "facts": fact_counts.get(e.session_id, 0), "keyphrases": e.keyphrases[:5], "summarizer": e.summarizer},
        )
    return hits


def load_workstream_hits(store: Store, user_id: str, ids: list[int], as_of: float | None) -> dict[int, Hit]:
    hits = {}
    for w in store.workstreams(user_id, ids=ids):   # confirmed ones only: hypotheses never surface
        if as_of is not None and (w.first_activity or w.created_at) > as_of:
            continue
        members = store.episodes(user_id, workstream_id=w.id, limit=5, with_facts=False)
        open_loops = [lp.text for lp in store.loops(user_id, "open", workstream_id=w.id, limit=3)]
        text = f"Workstream {w.name}: {w.sessions} sessions, {w.facts} facts"
        if open_loops:
            text += "; open: " + "; ".join(open_loops)
        hits[w.id] = Hit(
            id=f"workstream:{w.id}", kind="workstream", text=text, score=0.0,
            timestamp=to_datetime(w.last_activity), session_id=None,
            source_ids=[s for e in members for s in e.source_turns], user_id=user_id,
            details={"name": w.name, "status": w.status, "sessions": w.sessions, "open_loops": open_loops,
                     "keyphrases": w.keyphrases[:5]},
        )
    return hits
