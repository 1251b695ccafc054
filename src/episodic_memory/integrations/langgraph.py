"""A LangGraph store backed by a `Memory`: ``pip install ".[langgraph]"``, then
``EpisodicStore(Memory("memory.db"))``.

An item is a session of its user (the namespace's first element), ``lg:["preferences", "format"]``, and each
`put` a turn of it (the newest is the value). How namespaces, puts, search and filters map: README.md,
"LangGraph".
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from ..aio import AsyncMemory
from ..memory import Memory
from ..store.records import StoredTurn

PREFIX = "lg:"
# an item is a turn of role "tool" from the source "langgraph"; one put with index=False carries the tag "unindexed"
ROLE, SOURCE, UNINDEXED = "tool", "langgraph", "unindexed"
_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": operator.eq, "$ne": operator.ne, "$gt": operator.gt, "$gte": operator.ge, "$lt": operator.lt,
    "$lte": operator.le,
}


class EpisodicStore(BaseStore):
    """`BaseStore` over a `Memory` (how namespaces, puts and search map: README.md, "LangGraph")."""

    supports_ttl = False

    def __init__(self, memory: Memory | AsyncMemory, *, recall_pool: int = 4) -> None:
        """`memory`: a `Memory`, or an `AsyncMemory` whose threads the async methods (`aget`, `asearch`, …) then
        share (with a Memory they get an AsyncMemory of its own). `recall_pool`: a query search recalls this many
        times `limit + offset` hits before mapping them to items (several hits may come from one item)."""
        self.amemory = memory if isinstance(memory, AsyncMemory) else AsyncMemory.from_memory(memory)
        self.memory = self.amemory.memory
        self.recall_pool = recall_pool

    # --- BaseStore ---------------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op.namespace, op.key))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise TypeError(f"unknown LangGraph store operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """`batch` on the AsyncMemory's threads: the event loop never waits on SQLite or the embedder."""
        return await self.amemory.run(self.batch, list(ops))

    # --- operations ----------------------------------------------------------------------------------
    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        user, session = _session_of(namespace, key)
        return _item(namespace, key, self.memory.session_turns(session, user_id=user))

    def _put(self, op: PutOp) -> None:
        user, session = _session_of(op.namespace, op.key)
        if op.value is None:
            if self.memory.store.session(user, session) is not None:
                self.memory.forget(session_id=session, user_id=user)
            return
        if not isinstance(op.value, dict):
            raise TypeError(f"a LangGraph store value must be a dict, got {type(op.value).__name__}")
        try:
            content = json.dumps(op.value, ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the value of {op.key!r} must be JSON-serialisable: {exc}") from None
        self.memory.add_turn(ROLE, content, session_id=session, user_id=user, source=SOURCE,
                             tags=[UNINDEXED] if op.index is False else None)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        wanted = op.limit + op.offset
        if op.query:
            found: dict[tuple[tuple[str, ...], str], SearchItem] = {}
            for user in self._users(prefix):
                for hit in self.memory.recall(op.query, k=max(wanted, 1) * self.recall_pool, user_id=user):
                    place = _place(user, hit.session_id)
                    if place is None or place in found or place[0][: len(prefix)] != prefix:
                        continue
                    turns = self.memory.session_turns(hit.session_id or "", user_id=user)
                    if not turns or turns[-1].source != SOURCE or UNINDEXED in (turns[-1].tags or ()):
                        continue
                    item = _item(place[0], place[1], turns)
                    if item is not None and _matches(item.value, op.filter):
                        found[place] = _scored(item, hit.score)
            ranked = sorted(found.values(), key=lambda i: -(i.score or 0.0))
        else:
            ranked = sorted(self._items(prefix, op.filter), key=lambda i: i.updated_at, reverse=True)
        return ranked[op.offset: op.offset + op.limit]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = set()
        for user in self.memory.store.users():
            for info in self.memory.store.sessions(user):
                place = _place(user, info.session_id)
                if place is None:
                    continue
                namespace = place[0]
                if all(_path_matches(c, namespace) for c in op.match_conditions or ()):
                    namespaces.add(namespace[: op.max_depth] if op.max_depth is not None else namespace)
        return sorted(namespaces)[op.offset: op.offset + op.limit]

    # --- helpers -----------------------------------------------------------------------------------
    def _users(self, prefix: tuple[str, ...]) -> list[str]:
        return [prefix[0]] if prefix else self.memory.store.users()

    def _items(self, prefix: tuple[str, ...], filter: dict[str, Any] | None) -> list[SearchItem]:
        items = []
        for user in self._users(prefix):
            for info in self.memory.store.sessions(user):
                place = _place(user, info.session_id)
                if place is None or place[0][: len(prefix)] != prefix:
                    continue
                item = _item(place[0], place[1], self.memory.session_turns(info.session_id, user_id=user))
                if item is not None and _matches(item.value, filter):
                    items.append(_scored(item, None))
        return items


def _session_of(namespace: tuple[str, ...], key: str) -> tuple[str, str]:
    """(user, session) of an item: the namespace's first element, and the rest with the key."""
    if not namespace or not all(isinstance(p, str) and p for p in namespace):
        raise ValueError(f"a namespace needs at least one non-empty string (the user), got {namespace!r}")
    if not isinstance(key, str) or not key:
        raise ValueError(f"a key must be a non-empty string, got {key!r}")
    return namespace[0], PREFIX + json.dumps([*namespace[1:], key], ensure_ascii=False)


def _place(user: str, session_id: str | None) -> tuple[tuple[str, ...], str] | None:
    """(namespace, key) of a session this store made; None for any other session."""
    if not session_id or not session_id.startswith(PREFIX):
        return None
    try:
        parts = json.loads(session_id[len(PREFIX):])
    except json.JSONDecodeError:
        return None
    if not isinstance(parts, list) or not parts or not all(isinstance(p, str) for p in parts):
        return None
    return (user, *parts[:-1]), parts[-1]


def _item(namespace: tuple[str, ...], key: str, turns: list[StoredTurn]) -> Item | None:
    versions = [t for t in turns if t.role == ROLE and t.source == SOURCE]
    if not versions:
        return None
    return Item(value=json.loads(versions[-1].content), key=key, namespace=namespace,
                created_at=_when(versions[0].ts), updated_at=_when(versions[-1].ts))


def _scored(item: Item, score: float | None) -> SearchItem:
    return SearchItem(item.namespace, item.key, item.value, item.created_at, item.updated_at, score)


def _when(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, timezone.utc)


def _matches(value: dict[str, Any], filter: dict[str, Any] | None) -> bool:
    return not filter or all(_compare(value.get(k), v) for k, v in filter.items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if wanted and all(k.startswith("$") for k in wanted):
            try:
                return all(_OPERATORS[op](actual, v) for op, v in wanted.items())
            except KeyError as exc:
                raise ValueError(f"unsupported filter operator {exc.args[0]!r} (use {', '.join(_OPERATORS)})") from None
            except TypeError:
                return False
        return isinstance(actual, dict) and all(_compare(actual.get(k), v) for k, v in wanted.items())
    return bool(actual == wanted)


def _path_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    ends = (namespace[: len(path)], path) if condition.match_type == "prefix" else (namespace[-len(path):], path)
    pairs = zip(*ends, strict=True) if path else iter(())
    return all(p == "*" or n == p for n, p in pairs)


__all__ = ["EpisodicStore"]
