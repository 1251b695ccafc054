"""Judgments as recall hits: the judgment, with its trigger, reasoning, utility and latest correction."""

from __future__ import annotations

import json
import time

from ..store.base import Store
from ..store.records import JUDGMENT_KIND as KIND
from ..util import to_datetime
from .hit import Hit
from .utility import outcome


def load_judgment_hits(store: Store, user_id: str, ids: list[int],
                       as_of: float | None) -> dict[int, Hit]:
    """A hit per judgment of `user_id` among `ids` (judgments have no history: `as_of` is ignored); its
    trigger, reasoning, utility and latest correction are in `details`."""
    rows = store.judgments_by_id(user_id, ids)
    verdicts = store.verdicts(list(rows))
    now = time.time()
    hits = {}
    for jid, row in rows.items():
        o = outcome(verdicts[jid], store.config, now)
        hits[jid] = Hit(
            id=f"{KIND}:{row.memory_id}", kind=KIND, text=row.judgment, score=0.0,
            timestamp=to_datetime(row.created_at), session_id=None, source_ids=[], user_id=row.user_id,
            details={"memory_id": row.memory_id, "trigger": row.trigger, "reasoning": row.reasoning,
                     "domain": row.domain, "metadata": json.loads(row.metadata),
                     "utility": round(o.utility, 4), "adopted": o.adopted, "rejected": o.rejected,
                     "correction": o.correction},
        )
    return hits

