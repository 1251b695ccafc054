"""Currency at recall time, the retriever's side (`currency.py` holds the pure functions): which candidates
`currency.currency_scores` sees (the best `currency_pool`, plus turns outside them that may be changes: said
after the best answers about what they are the value of, or right after the best candidates), and what it does
to the ranking and the hits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..config import Config
from ..store.base import Store
from ..store.records import Fact, StoredTurn
from ..util import to_datetime
from .currency import (
    MARGIN,
    Question,
    Statement,
    currency_scores,
    followup_seeds,
    gives_answer,
    local_contexts,
    may_hold,
    signature,
)
from .fts import any_of
from .hit import Hit
from .kinds import CODES, KIND_BITS
from .query import QueryInfo


def currency_pass(store: Store, cfg: Config, info: QueryInfo, speakers: list[str], candidates: Any,
                  ranked: list[int], turns: dict[int, StoredTurn], others: dict[int, Hit], filters: Any,
                  read_turns: Callable[..., None]) -> tuple[Any, list[int], dict[str, str], dict[int, int]]:
    """Currency among the best `currency_pool` and the turns after the best of them (retrieve/currency.py);
    notes: hit id -> what superseded it; and each superseded row -> the row of the newest statement that did, when
    that statement names the value it replaced. `candidates`: the retriever's (keys, score, valid, item_id,
    extend); `filters`: its RecallFilters; `read_turns`: reads ranked rows' turns into `turns`."""
    if not cfg.currency.pool or len(ranked) < 2 or (cfg.currency.skip_dated and info.time_range) or (
            info.script != "spaced"):  # its subjects, values and change cues are English: elsewhere, noise
        return candidates, ranked, {}, {}
    question = info.question  # the query as currency reads it, once
    if cfg.currency.skip_between and question.between:  # currency_scores would leave every score as it is
        return candidates, ranked, {}, {}
    read_turns(candidates, ranked, turns, filters.user_id, 0, cfg.currency.pool)
    # a long text (a document, code, a list, a recap of many things) holds many values: it is not compared as one
    # statement, and keeps its place (`aside`)
    head: list[int] = []
    aside: list[int] = []
    for r in ranked[: cfg.currency.pool]:
        text = others[r].text if r in others else getattr(turns.get(candidates.item_id(r)), "content", None)
        (head if text is not None and len(text) <= cfg.currency.max_chars else aside).append(r)
    items = [statement(others[r]) if r in others else turn_statement(turns[candidates.item_id(r)]) for r in head]
    for item, r in zip(items, head, strict=True):
        item.score = float(candidates.score[r])
    # a question asking a date, a time or a number is answered only by a statement bringing one: when no text
    # can hold one (`may_hold`), nothing supersedes anything and currency_scores need not read a text
    asked = question.kind  # the kind of value the question asks for, if any
    kind = asked if cfg.currency.typed else None
    possible = kind is None or any(may_hold(kind, item.text) for item in items)
    extra: list[int] = []  # turns outside the head, read: they enter only by superseding something
    # later turns may change the answer, and a correction right after one names little else: no leg finds them
    if filters.kind in (None, "turn") and asked is not None:
        head_ids = {candidates.item_id(r) for r in head if candidates.keys[r] % KIND_BITS == 0}
        extra = later_turns(store, cfg, question, items, turns, head_ids, filters) if possible else []
        # the turns after the best answers, not after the question's other matches (docs/retrieval.md)
        best = [candidates.item_id(r) for r, item in zip(head, items, strict=True)
                if candidates.keys[r] % KIND_BITS == 0 and gives_answer(asked, item.text)][: cfg.currency.followers]
        extra += followers(store, cfg.currency.adjacent, best + extra, turns, filters, exclude=head_ids | set(extra))
        # a turn read here enters only by superseding something with a value of the kind asked (`may_hold`)
        extra = [i for i in extra if len(turns[i].content) <= cfg.currency.max_chars
                 and (kind is None or may_hold(kind, turns[i].content))]
    if kind is not None and not possible and not extra:
        return candidates, ranked, {}, {}
    row_of = {int(k) // KIND_BITS: row for row, k in enumerate(candidates.keys.tolist())
              if k % KIND_BITS == 0} if extra else {}
    unseen = [i for i in extra if i not in row_of]   # found by no leg: new rows
    if unseen:
        candidates = candidates.extend(np.asarray(unseen, np.int64) * KIND_BITS)
        row_of.update({i: len(candidates) - len(unseen) + j for j, i in enumerate(unseen)})
    rows = head + [row_of[i] for i in extra]
    floor = float(min(candidates.score[head])) - 1.0 if head else 0.0
    items += [turn_statement(turns[i]) for i in extra]
    for item, r in zip(items[len(head):], rows[len(head):], strict=True):
        item.score = float(candidates.score[r]) if candidates.valid[r] else floor
    scores, newest = currency_scores(items, question, cfg.currency, ignore_names=speakers)
    if not newest:
        return candidates, ranked, {}, {}
    candidates.score[rows] = scores
    outside = np.asarray(rows[len(head):], np.int64)
    candidates.valid[outside] |= np.asarray(scores[len(head):]) > floor  # read turns that superseded something
    notes = {_hit_id(candidates, rows[old], others): superseded_note(items[new])
             for old, new in newest.items() if candidates.valid[rows[old]]}
    kept = [r for r in rows if candidates.valid[r]] + aside
    taken = set(rows)
    tail = [r for r in ranked[cfg.currency.pool :] if r not in taken]
    # a statement that names the value it replaces ("…, not Cairnbrook Coffee") outranks its holders in any tier
    replaced_by = {rows[old]: rows[new] for old, new in newest.items() if candidates.valid[rows[old]]
                   and signature(items[new].text).replaced & signature(items[old].text).values}
    return candidates, sorted(kept, key=lambda r: -candidates.score[r]) + tail, notes, replaced_by


def later_turns(store: Store, cfg: Config, query: Question, items: list[Statement], turns: dict[int, StoredTurn],
                known: set[int], filters: Any) -> list[int]:
    """Ids of turns said after the best answers among `items` about what they are the value of, not in `known`
    (read into `turns`): BM25 over those words (but the store's common ones), from the answer's time on."""
    out: list[int] = []
    for ts, terms in followup_seeds(items, query, cfg.currency.followups):
        # as the BM25 legs do: terms in a large share of a big store cost most of the search and rank little
        common = store.common_terms(terms, floor=cfg.retrieval.bm25_common_floor, share=cfg.retrieval.bm25_common_share,
                                    user_id=filters.user_id)
        match = any_of([t for t in terms if t not in common])
        if match is None:
            continue
        until = filters.until if filters.as_of is None else min(filters.as_of, filters.until or filters.as_of)
        # ranked and filtered in one pass: in a big store most matches were said before the answer
        found = store.search_turns_filtered(match, filters.user_id, limit=cfg.currency.followup_hits,
                                            session_id=filters.session_id, since=ts + 1e-3, until=until,
                                            source=filters.source, tags=filters.tags)
        out += [i for i, _ in found if i not in known and i not in out]
    turns.update(store.turns_by_id(filters.user_id, [i for i in out if i not in turns]) if out else {})
    return [i for i in out if i in turns]

def followers(store: Store, reach: int, ids: list[int], turns: dict[int, StoredTurn], filters: Any,
              exclude: set[int]) -> list[int]:
    """Ids of the turns right after the turns `ids` in their session, not in `exclude` (read into `turns`)."""
    after = {i: turns[i] for i in ids if i in turns}
    wanted = {i + step for i in after for step in range(1, reach + 1)} - exclude
    found = store.turns_by_id(filters.user_id, sorted(wanted)) if wanted else {}
    out = []
    for i, turn in found.items():
        source = next((t for j, t in after.items() if 0 < i - j <= reach), None)
        if (source is not None and turn.session_id == source.session_id and 0 < turn.seq - source.seq <= reach
                and filters.in_scope(turn.session_id, turn.ts) and filters.admits(turn)):
            turns[i] = turn
            out.append(i)
    return sorted(out)


def statement(hit: Hit) -> Statement:
    return Statement(hit.text, hit.timestamp.timestamp() if hit.timestamp else None, hit.score,
                     summary=hit.kind not in ("turn", "fact"))


def turn_statement(turn: StoredTurn) -> Statement:
    """A turn as currency sees it: an assistant's turn records what the user said, so it speaks for no one."""
    speaker = None if turn.role == "assistant" else (turn.speaker or turn.role)
    return Statement(turn.content, turn.ts, 0.0, speaker=speaker, session=turn.session_id, seq=turn.seq,
                     assistant=turn.role == "assistant")


def superseded_note(newer: Statement) -> str:
    moment = to_datetime(newer.ts)
    when = moment.date().isoformat() if moment is not None else "later"
    return f"superseded {when}: {newer.text[:120]}"


def _hit_id(candidates: Any, row: int, others: dict[int, Hit]) -> str:
    return others[row].id if row in others else f"turn:{candidates.item_id(row)}"


def annotate_superseded(hits: list[Hit], notes: dict[str, str]) -> list[Hit]:
    """Mark the hits a later statement superseded (details["superseded"])."""
    for hit in hits:
        if hit.id in notes:
            hit.details["superseded"] = notes[hit.id]
    return hits




@dataclass(frozen=True)
class Replacement:
    """A current fact and what its supersession chain replaced: the values the older facts said that it does not,
    and their subject words (`currency.signature`)."""

    fact: Fact
    new_turns: frozenset[int]
    values: frozenset[str]
    new_values: frozenset[str]
    words: frozenset[str]       # the older facts'


class Replacements(dict[str, list[Replacement]]):
    """The user's supersession chains by each value they replaced (compiled once per change to the facts)."""

    @classmethod
    def of(cls, chains: list[tuple[Fact, list[Fact]]]) -> Replacements:
        out = cls()
        for new, olds in chains:
            new_sig = signature(new.text)
            old_sigs = [signature(f.text) for f in olds]
            values = frozenset().union(*(s.asserted for s in old_sigs)) - new_sig.asserted
            item = Replacement(new, frozenset(new.source_ids), values, new_sig.asserted,
                               frozenset().union(*(s.words for s in old_sigs)))
            for value in values:
                out.setdefault(value, []).append(item)
        return out

    def stale(self, turn: StoredTurn, asked: frozenset[str], max_chars: int) -> Replacement | None:
        """The newest replacement of what `turn` said about what the query asks (`asked`: its subject words): the
        clause of it holding all of the query's words it has said, before the change, a replaced value and not the
        current one, with a subject word of the older facts'. (A superseded fact resting on the turn is not enough: a turn says several
        things, and a link may be wrong.)"""
        whole = signature(turn.content)
        here = asked & whole.words   # the query's words in the turn: the clause asked about holds them all
        if len(turn.content) > max_chars or not here or not whole.asserted & self.keys():
            return None
        found = [x for clause in local_contexts(turn.content) for sig in [signature(clause)]
                 if here <= sig.words for v in sig.asserted & self.keys() for x in self[v]
                 if turn.ts < x.fact.created_at and turn.id not in x.new_turns and not sig.asserted & x.new_values
                 and sig.words & x.words]
        return max(found, key=lambda x: x.fact.created_at) if found else None


def replaced_values(cfg: Config, query: str, candidates: Any, ranked: list[int], turns: dict[int, StoredTurn],
                    filters: Any, found: Replacements, read_turns: Callable[..., None],
                    load: Callable[[Any], dict[int, Hit]]) -> tuple[Any, list[int], dict[str, str]]:
    """A turn stating a value a stored fact has since replaced (`Replacements.stale`) ranks right below the current
    fact, which takes its place (joining the candidates if no leg found it; a turn the fact rests on when the
    filters leave the fact out). Notes: hit id -> what replaced it. Consolidation's links read at recall: the
    text-only pass above misses a change that names no subject ("Ugh I said Lamu didn't I, I meant Goa.").
    `load`: the retriever's loader of derived hits for candidate rows (filters applied)."""
    if not found or not cfg.experimental.stored_links or filters.as_of is not None or len(ranked) < 2:
        return candidates, ranked, {}
    read_turns(candidates, ranked, turns, filters.user_id, 0, cfg.currency.pool)
    head = [r for r in ranked[: cfg.currency.pool] if candidates.keys[r] % KIND_BITS == 0
            and candidates.item_id(r) in turns]
    asked = signature(query).words
    stale: dict[int, Replacement] = {}
    for r in head:
        if (x := found.stale(turns[candidates.item_id(r)], asked, cfg.currency.max_chars)) is not None:
            stale[r] = x
    if not stale:
        return candidates, ranked, {}
    fact_code = CODES["fact"]
    row_of = {int(key): r for r, key in enumerate(candidates.keys.tolist())}
    wanted = {x.fact.id * KIND_BITS + fact_code for x in stale.values()}
    loaded: dict[int, Hit] = {}
    if filters.kind in (None, "fact"):
        new_keys = [k for k in wanted if k not in row_of]
        if new_keys:
            start = len(candidates)
            candidates = candidates.extend(np.asarray(new_keys, np.int64))
            row_of.update({k: start + j for j, k in enumerate(new_keys)})
        loaded = load(candidates)
    notes: dict[str, str] = {}
    for old, x in sorted(stale.items(), key=lambda item: -ranked.index(item[0])):   # the lowest first
        place = {r: i for i, r in enumerate(ranked)}
        row = row_of.get(x.fact.id * KIND_BITS + fact_code)
        if row is None or row not in loaded:   # filtered out (another session, a time window): a turn it rests on
            turns_of = [row_of[i * KIND_BITS] for i in x.new_turns
                        if i * KIND_BITS in row_of and candidates.valid[row_of[i * KIND_BITS]]]
            row = min(turns_of, key=lambda r: place.get(r, len(place))) if turns_of else None
        if row is None:
            continue
        if row not in place or place[row] > place[old]:   # the current value takes the stale one's place
            candidates.valid[row] = True
            candidates.score[row] = max(float(candidates.score[row]), float(candidates.score[old]) + MARGIN)
            if row in place:
                ranked.remove(row)
            ranked.insert(ranked.index(old), row)
        notes[f"turn:{candidates.item_id(old)}"] = superseded_note(Statement(x.fact.text, x.fact.created_at, 0.0))
    return candidates, ranked, notes
