"""The registry of memory kinds: everything recall and the indexer need to know about a kind, in one entry.

Recall ranks raw turns and derived memories (facts, episodes, workstreams, judgments) together. Adding a kind
is one `Kind(...)` here, plus its table and verbs in the store (docs/architecture.md, "Memory kinds").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..config import Config
from ..store.base import Store
from ..store.records import JUDGMENT_KIND
from .fact_hits import load_fact_hits
from .hit import Hit
from .judgment_hits import load_judgment_hits
from .texts import embedding_text, judgment_embedding_text
from .thread_hits import load_episode_hits, load_workstream_hits

# (store, user_id, item ids, as_of epoch or None) -> {item_id: Hit}; an item absent from the result is not recalled
# (for example a fact superseded before `as_of`, or one another user owns).
Loader = Callable[[Store, str, list[int], "float | None"], dict[int, Hit]]


@dataclass(frozen=True)
class Pending:
    """An item to embed: where its vector goes (kind, item id, user, session, time) and the text it is made from."""

    item_id: int
    user_id: str
    session_id: str | None
    ts: float | None
    text: str
    also: str | None = None  # a second view of the item: its vector is the normalised sum of both (`blend_turn_vector`)


# (store, config, model, after item id, limit, user id or None for every user) -> items with id > after and no
# vector of `model`, in id order. The kinds every pass embeds (turns, facts) are read for the one user when given;
# the others (embedded at creation and at reindex) for every user.
PendingReader = Callable[[Store, Config, str, int, int, "str | None"], list[Pending]]


#: a kind's `memory_fts` rowids and its recall candidates' keys are item_id * KIND_BITS + its code (turn 0); codes
#: stay below it (the SQL of the migrations writes the 8 out)
KIND_BITS = 8


@dataclass(frozen=True)
class Kind:
    name: str
    code: int                        # memory_fts rowid = item_id * 8 + code
    loader: Loader | None            # None: raw turns, which the retriever reads itself
    cacheable: bool = True           # its hits depend only on the tables m009 counts changes to (not on the clock)
    pending: PendingReader | None = None
    embedded_by_index: bool = False  # embedded by every `Indexer.embed_pending`; the others at creation / reindex
    max_id: Callable[[Store], int] | None = None  # newest item id (the indexer's watermark stops there)

    def load(self, store: Store, user_id: str, ids: list[int], as_of: float | None) -> dict[int, Hit]:
        if self.loader is None:
            raise TypeError(f"recall reads {self.name} rows itself: the kind has no loader")
        return self.loader(store, user_id, ids, as_of)


def _pending_turns(store: Store, config: Config, model: str, after: int, limit: int, user_id: str | None
                   ) -> list[Pending]:
    turns = store.turns_missing_vectors(model, after, limit, user_id)
    previous = store.previous_turns([t.id for t in turns]) if turns else {}
    out = []
    for t in turns:
        text = embedding_text(t, previous.get(t.id), config.models.embed_context_chars, config.models.embed_short_turn_chars)
        alone = embedding_text(t) if config.experimental.blend_turn_vector else text
        out.append(Pending(t.id, t.user_id, t.session_id, t.ts, text, alone if alone != text else None))
    return out


def _pending_facts(store: Store, config: Config, model: str, after: int, limit: int, user_id: str | None
                   ) -> list[Pending]:
    return [Pending(f.id, f.user_id, f.session_id, f.created_at, f.text)
            for f in store.facts_missing_vectors(model, limit, after=after, user_id=user_id)]


def _pending_episodes(store: Store, config: Config, model: str, after: int, limit: int, user_id: str | None
                      ) -> list[Pending]:
    # the store lists them from the oldest; ids at or below `after` were embedded by this pass already
    return [Pending(i, user, session_id, ts, summary)
            for i, user, session_id, ts, summary in store.episodes_missing_vectors(model, limit) if i > after]


def _pending_judgments(store: Store, config: Config, model: str, after: int, limit: int, user_id: str | None
                       ) -> list[Pending]:
    return [Pending(r.id, r.user_id, None, r.created_at, judgment_embedding_text(r.trigger, r.judgment))
            for r in store.judgments_missing_vectors(model, after, limit)]


REGISTRY: dict[str, Kind] = {k.name: k for k in (
    Kind("turn", 0, None, pending=_pending_turns, embedded_by_index=True, max_id=lambda s: s.max_turn_id()),
    Kind("fact", 1, load_fact_hits, pending=_pending_facts, embedded_by_index=True,
         max_id=lambda s: s.max_fact_id()),
    Kind("episode", 2, load_episode_hits, pending=_pending_episodes),  # consolidation embeds its summary
    Kind("workstream", 3, load_workstream_hits),                      # centroids, made by consolidation
    Kind(JUDGMENT_KIND, 4, load_judgment_hits, cacheable=False,       # utility decays with time: read afresh
         pending=_pending_judgments, max_id=lambda s: s.max_judgment_id()),
)}

KINDS: dict[str, Kind] = {name: k for name, k in REGISTRY.items() if k.loader is not None}  # the derived kinds
CODES = {name: k.code for name, k in KINDS.items()}
KIND_CODES = {name: k.code for name, k in REGISTRY.items()}  # a candidate's key: item_id * KIND_BITS + code
KIND_NAMES = {code: name for name, code in KIND_CODES.items()}
