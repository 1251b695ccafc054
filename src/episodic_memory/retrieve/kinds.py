"""Kinds of memory besides raw turns (facts, episodes, judgments, …) and how recall turns their ids into hits.

A derived memory joins recall by (1) a row in `memory_fts` (rowid = item_id * 8 + its code, written by triggers in
its migration), (2) a vector of kind `name` in `vectors`, and (3) a loader registered here that turns item ids
into `Hit`s (text, time, session, source turn ids). The retriever fuses every kind into one ranked list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..store.base import Store
from .hit import Hit

# (store, user_id, item ids, as_of epoch or None) -> {item_id: Hit}; an item absent from the result is not recalled
# (for example a fact superseded before `as_of`, or one another user owns).
Loader = Callable[[Store, str, list[int], "float | None"], dict[int, Hit]]


@dataclass(frozen=True)
class Kind:
    name: str
    code: int            # memory_fts rowid = item_id * 8 + code
    loader: Loader
    cacheable: bool      # its hits depend only on the tables m009 counts changes to (not on the clock, say)


KINDS: dict[str, Kind] = {}
CODES = {"fact": 1, "episode": 2, "workstream": 3, "judgment": 4}
KIND_CODES = {"turn": 0, **CODES}  # every kind recall ranks; a candidate's key is item_id * 8 + its code
KIND_NAMES = {code: name for name, code in KIND_CODES.items()}


def register_kind(name: str, loader: Loader, *, cacheable: bool = True) -> None:
    KINDS[name] = Kind(name, CODES[name], loader, cacheable)
