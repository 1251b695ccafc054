"""Facts as recall hits: the current fact with what it replaced ("14 slides (previously: 12)")."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Any

from ..store.base import Store
from ..util import to_datetime, to_iso
from .hit import Hit

_TOKEN = re.compile(r"[\w€$£%]+(?:[.,]\d+)?")


def previously(new: str, old: str, max_words: int = 6) -> str:
    """What changed, in the old fact's words: "14 slides" after "12 slides" → "12"; the whole old text when the
    change is not a small replacement."""
    a = _TOKEN.findall(old)
    b = _TOKEN.findall(new)
    matcher = SequenceMatcher(a=[t.lower() for t in a], b=[t.lower() for t in b], autojunk=False)
    replaced = [" ".join(a[i1:i2]) for op, i1, i2, _, _ in matcher.get_opcodes() if op == "replace"]
    words = sum(len(r.split()) for r in replaced)
    if replaced and words <= max_words and matcher.ratio() >= 0.5:
        return ", ".join(replaced)
    return old.rstrip(".")


def believed_at(valid_from: float, valid_to: float | None, as_of: float | None) -> bool:
    """Current (as_of None), or held at `as_of`."""
    if as_of is None:
        return valid_to is None
    return valid_from <= as_of and (valid_to is None or valid_to > as_of)


def load_fact_hits(store: Store, user_id: str, ids: list[int], as_of: float | None) -> dict[int, Hit]:
    facts = {i: f for i, f in store.facts_by_id(user_id, ids).items() if believed_at(f.valid_from, f.valid_to, as_of)}
    older = store.facts_by_id(user_id, [f.supersedes for f in facts.values() if f.supersedes is not None])
    sources = store.source_ids(user_id, [i for f in [*facts.values(), *older.values()] for i in f.source_ids])
    turn_ids = sorted({i for f in facts.values() for i in f.source_ids})
    said_by = store.turn_heads(user_id, turn_ids).speaker_of() if turn_ids else {}
    hits = {}
    for fact in facts.values():
        text = fact.text
        previous: dict[str, Any] | None = None
        if fact.supersedes is not None and (old := older.get(fact.supersedes)) is not None:
            value = previously(fact.text, old.text)
            text = f"{text.rstrip('.')} (previously: {value})"
            previous = {"value": value, "text": old.text, "until": to_iso(old.valid_to),
                        "source_ids": [sources[i] for i in old.source_ids if i in sources]}
        hits[fact.id] = Hit(
            id=f"fact:{fact.id}", kind="fact", text=text, score=0.0, timestamp=to_datetime(fact.created_at),
            session_id=fact.session_id, source_ids=[sources[i] for i in fact.source_ids if i in sources],
            user_id=user_id, speaker=_one({said_by.get(i) for i in fact.source_ids}),
            details={"type": fact.type, "route": fact.route, "recurrence": fact.recurrence,
                     "event_time": to_iso(fact.event_ts if fact.event_ts is not None else fact.created_at),
                     "entities": fact.entities, "supersedes": fact.supersedes, "previous": previous,
                     "source_turns": list(fact.source_ids)},
        )
    return hits


def _one(speakers: set[str | None]) -> str | None:
    """The speaker of a fact whose turns one person said ("I took my kids to the park": whose kids?), else None."""
    return next(iter(speakers)) if len(speakers) == 1 else None
