"""Consolidation quality on truth-dev: does memory remember like a colleague? `python bench/truth.py [--quick]`.

Every metric follows the data's README (`../shared/data/truth-dev/README.md`):

- current value (episodic and bm25s): each slot's `question`, top 10 hits; among the hits whose text names any of
  the slot's values, the first must name the current (last) one (current-first; over all, changed and unchanged
  slots); top1 (the top hit names the current value); stale-first (changed slots: the first value-bearing hit
  names only old values); value@10 (any of the slot's values in the top 10);
- facts (episodic): precision (current facts citing a durable turn), recall (durable turns cited by any fact),
  supersession (changed slots whose fact from the last value's turn is current and has, in its history, a
  superseded fact from an earlier value's turn), false supersessions (of the links replacing a fact that cites a
  durable turn, those where the new fact cites no later value's turn of a slot whose earlier value's turn the old
  fact cites: a fact hidden by news about something else);
- workstreams (episodic): session -> its episode's confirmed workstream (or none) against the labelled threads,
  V-measure and adjusted Rand index; confirmed workstreams against threads;
- loops (episodic): a detected loop matches a labelled to-do when one of its source turns is within one turn of
  `opened_turn` in the same session (one to one); precision, recall, F1, closure recall, false closures, loops
  raised on `loop_distractors`.

Values are matched after normalising case, `&`/"and", money (`$48k` = `$48,000` = 48000), number words and dates
(`March 14`, `14 March`, `Mar 14th`, `the 14th of March` are one date); a number slot matches on its number (numbers
inside a date do not count as numbers).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

# Run as a script: import `bench.*` from the repo root (so bench/datasets.py never shadows PyPI's `datasets`).
if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import SHARED_DATA, Conversation, Session, Turn  # noqa: E402
from bench.harness import (  # noqa: E402
    ROOT,
    _package_version,
    fmt,
    git_commit,
    git_dirty,
    import_episodic,
    markdown_table,
    print_table,
)
from bench.metrics import adjusted_rand_index, v_measure  # noqa: E402

TRUTH_DEFAULT = SHARED_DATA / "truth-dev"
SYSTEMS = ("episodic", "bm25s", "episodic-keyword", "episodic-dense")
TOP_K = 10
# The data README's reference point for bm25s over raw turns (all five conversations).
BM25S_REFERENCE = {
    "current_first": 0.600, "current_first_changed": 0.361, "top1": 0.338, "stale_first": 0.528,
    "value_at_10": 0.892, "value_at_10_unchanged": 0.897,
}

# --------------------------------------------------------------------------- value normalisation

_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_DATE_PATTERNS = (
    # "14 March", "the 14th of March", "14th March"
    re.compile(rf"(?<![\w$.,])(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}\b", re.IGNORECASE),
    # "March 14", "Mar 14th", "March the 14th" (never "May 2026": the day is one or two digits and a boundary)
    re.compile(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\b(?![.,]?\d)", re.IGNORECASE),
)

_UNITS = {
    w: i for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen".split()
    )
}
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000}
_NUMBER_WORD = re.compile(r"[a-z]+|\S", re.IGNORECASE)
# "$48,000", "48000", "$48k", "1.5 million", "22nd"; a "k" must touch the digits ("16 km" stays 16).
_DIGITS = re.compile(
    r"(?<![\w.])\$?(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?"
    r"(?:(?P<k>[kK])\b|\s+(?P<scale>thousand|million)\b|(?:st|nd|rd|th)\b)?",
)


def _dates_with_spans(text: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    found: list[tuple[tuple[int, int], tuple[int, int]]] = []
    taken: list[tuple[int, int]] = []
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            day = int(m.group("day"))
            if not 1 <= day <= 31 or any(m.start() < end and start < m.end() for start, end in taken):
                continue
            taken.append(m.span())
            found.append(((_MONTHS[m.group("month").lower()], day), m.span()))
    return found


def dates_in(text: str) -> set[tuple[int, int]]:
    """The (month, day) of every date written in `text`."""
    return {date for date, _ in _dates_with_spans(text)}


def _word_numbers(text: str) -> list[float]:
    """Numbers written in words: "sixteen", "forty-two", "three hundred and ten", "two thousand"."""
    out: list[float] = []
    total, current, active, after_scale = 0, 0, False, False

    def flush() -> None:
        nonlocal total, current, active
        if active:
            out.append(float(total + current))
        total, current, active = 0, 0, False

    for token in [*_NUMBER_WORD.findall(text.lower()), "."]:
        small = current % 100
        if token in _UNITS:
            if active and small and not (small in _TENS.values() and _UNITS[token] < 10):
                flush()  # "five six" is two numbers; "twenty two" is one
            current += _UNITS[token]
            active, after_scale = True, False
        elif token in _TENS:
            if active and small:
                flush()
            current += _TENS[token]
            active, after_scale = True, False
        elif token in _SCALES and active:
            if _SCALES[token] == 100:
                current *= 100
            else:
                total += current * _SCALES[token]
                current = 0
            after_scale = True
        elif active and (token == "-" or (token == "and" and after_scale)):
            continue
        else:
            flush()
            after_scale = False
    return out


def numbers_in(text: str) -> set[float]:
    """Every number in `text` (digits, money with k/thousand/million, number words), dates left out."""
    spans = [span for _, span in _dates_with_spans(text)]
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    out: set[float] = set()
    for m in _DIGITS.finditer(text):
        value = float(m.group("int").replace(",", "") + (m.group("frac") or ""))
        if m.group("k"):
            value *= 1_000
        elif m.group("scale"):
            value *= _SCALES[m.group("scale").lower()]
        out.add(value)
    out.update(_word_numbers(text))
    return out


def normalise_words(text: str) -> str:
    """Lower case, "&" read as "and", every run of other characters one space (padded for whole-word tests)."""
    text = text.lower().replace("&", " and ")
    return " " + " ".join(re.findall(r"[a-z0-9]+", text)) + " "


def value_key(value: str, kind: str) -> object:
    """What a slot value is compared on: a (month, day) for dates, a number for numbers, else its words."""
    if kind == "date":
        dates = dates_in(value)
        if len(dates) != 1:
            raise ValueError(f"date value {value!r} does not read as one date")
        return next(iter(dates))
    if kind == "number":
        numbers = [n for n in numbers_in(value)]
        if len(numbers) != 1:
            raise ValueError(f"number value {value!r} does not read as one number")
        return numbers[0]
    return normalise_words(value)


def names_value(text: str, value: str, kind: str) -> bool:
    """Does `text` name `value` (of a slot of `kind`: number | date | name | place | thing)?"""
    key = value_key(value, kind)
    if kind == "date":
        return key in dates_in(text)
    if kind == "number":
        return key in numbers_in(text)
    return str(key) in normalise_words(text)


@dataclass
class SlotOutcome:
    slot_id: str
    changed: bool
    first_rank: int | None          # rank of the first hit naming any of the slot's values
    current_first: bool
    stale_first: bool
    top1: bool
    value_at_10: bool
    first_kind: str | None = None   # the kind of that first value-bearing hit (episodic: turn, fact, ...)


def score_slot(slot: dict[str, Any], texts: Sequence[str], kinds: Sequence[str] | None = None) -> SlotOutcome:
    """Current-value metrics of one slot from the texts of its top hits (best first)."""
    kind = slot["kind"]
    values = [v["value"] for v in slot["values"]]
    current, old = values[-1], values[:-1]
    texts = list(texts)[:TOP_K]
    first_rank: int | None = None
    names_current = names_old = False
    for rank, text in enumerate(texts, start=1):
        names_current = names_value(text, current, kind)
        names_old = any(names_value(text, v, kind) for v in old)
        if names_current or names_old:
            first_rank = rank
            break
    return SlotOutcome(
        slot_id=slot["id"],
        changed=len(values) > 1,
        first_rank=first_rank,
        current_first=first_rank is not None and names_current,
        stale_first=first_rank is not None and not names_current and names_old,
        top1=bool(texts) and names_value(texts[0], current, kind),
        value_at_10=first_rank is not None,
        first_kind=None if first_rank is None or kinds is None else kinds[first_rank - 1],
    )


def _ratio(hits: int, n: int) -> dict[str, Any]:
    return {"value": hits / n if n else None, "hits": hits, "n": n}


def summarise_slots(outcomes: Sequence[SlotOutcome]) -> dict[str, dict[str, Any]]:
    changed = [o for o in outcomes if o.changed]
    unchanged = [o for o in outcomes if not o.changed]
    return {
        "current_first": _ratio(sum(o.current_first for o in outcomes), len(outcomes)),
        "current_first_changed": _ratio(sum(o.current_first for o in changed), len(changed)),
        "current_first_unchanged": _ratio(sum(o.current_first for o in unchanged), len(unchanged)),
        "top1": _ratio(sum(o.top1 for o in outcomes), len(outcomes)),
        "stale_first": _ratio(sum(o.stale_first for o in changed), len(changed)),
        "value_at_10": _ratio(sum(o.value_at_10 for o in outcomes), len(outcomes)),
        "value_at_10_unchanged": _ratio(sum(o.value_at_10 for o in unchanged), len(unchanged)),
    }


# --------------------------------------------------------------------------- loops: one-to-one matching


def match_loops(
    detected: Sequence[Sequence[tuple[str, int]]], todos: Sequence[tuple[str, int]]
) -> dict[int, int]:
    """Match detected loops to labelled to-dos, one to one: {loop index: to-do index}.

    A loop is given as its source turns, each `(session_id, position in the session)`; a to-do as its opening
    turn's. An edge needs a source turn in the to-do's session within one turn of the opening turn. Maximum
    cardinality (augmenting paths, Kuhn), trying each loop's nearer to-dos first, so closer pairs win ties.
    """
    edges: list[list[int]] = []
    for sources in detected:
        near: list[tuple[int, int]] = []
        for j, (session, pos) in enumerate(todos):
            gaps = [abs(p - pos) for s, p in sources if s == session and abs(p - pos) <= 1]
            if gaps:
                near.append((min(gaps), j))
        edges.append([j for _, j in sorted(near)])
    owner: dict[int, int] = {}  # to-do -> loop

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(detected)):
        augment(i, set())
    return {i: j for j, i in owner.items()}


def _prf(matched: int, detected: int, labelled: int) -> dict[str, Any]:
    p = matched / detected if detected else None
    r = matched / labelled if labelled else None
    f1 = 2 * p * r / (p + r) if p is not None and r is not None and p + r else (0.0 if p is not None else None)
    return {"precision": p, "recall": r, "f1": f1}


# --------------------------------------------------------------------------- data


@dataclass
class TruthConversation:
    conv: Conversation
    labels: dict[str, Any]
    turns: dict[str, Turn] = field(default_factory=dict)
    session_of: dict[str, str] = field(default_factory=dict)
    position: dict[str, int] = field(default_factory=dict)   # index of a turn in its session

    @property
    def conv_id(self) -> str:
        return self.conv.conv_id


def load_truth(path: str | Path = TRUTH_DEFAULT) -> list[TruthConversation]:
    """Every `conv_NNN.jsonl` of the folder (or one such file) with its `conv_NNN.labels.json`."""
    root = Path(path)
    files = [root] if root.is_file() else sorted(root.glob("conv_*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no conv_*.jsonl under {root}")
    out: list[TruthConversation] = []
    for file in files:
        labels = json.loads(file.with_name(file.stem + ".labels.json").read_text(encoding="utf-8"))
        sessions: list[Session] = []
        tc = TruthConversation(Conversation(file.stem, sessions, []), labels)
        for line in file.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            sid = row["session_id"]
            if not sessions or sessions[-1].session_id != sid:
                if any(s.session_id == sid for s in sessions):
                    raise ValueError(f"{file.name}: session {sid} resumes after another session began")
                ts = _parse_ts(row["timestamp"])
                sessions.append(Session(sid, len(sessions) + 1, ts))
            turn = Turn(row["id"], row["speaker"], row["content"], _parse_ts(row["timestamp"]), row["role"])
            tc.position[turn.turn_id] = len(sessions[-1].turns)
            sessions[-1].turns.append(turn)
            tc.turns[turn.turn_id] = turn
            tc.session_of[turn.turn_id] = sid
        out.append(tc)
    return out


def _parse_ts(raw: str) -> datetime:
    ts = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    return ts if ts.tzinfo else ts.replace(tzinfo=timezone.utc)


# --------------------------------------------------------------------------- systems


@dataclass
class ConvRun:
    slots: list[SlotOutcome]
    latencies_ms: list[float]
    ingest_seconds: float
    consolidation: dict[str, Any] | None = None


def run_bm25s(tc: TruthConversation) -> ConvRun:
    from bench.baselines import BM25sBaseline

    system = BM25sBaseline()
    start = time.perf_counter()
    system.index(tc.conv)
    ingest = time.perf_counter() - start
    outcomes, latencies = [], []
    for slot in tc.labels["slots"]:
        start = time.perf_counter()
        hits = system.search(slot["question"], TOP_K)
        latencies.append((time.perf_counter() - start) * 1000)
        outcomes.append(score_slot(slot, [h.text for h in hits], [h.kind for h in hits]))
    system.close()
    return ConvRun(outcomes, latencies, ingest)


#: Config overrides for every store the episodic runner makes (bench/truth.py --ablate switches rules off here)
CONFIG_OVERRIDES: dict[str, Any] = {}
#: consolidation inline, each run inside `add_turn` / `end_session`, unless --config says otherwise: a background
#: worker that falls behind on a loaded machine consolidates larger windows, and the figures moved with the load
INLINE = {"capture.consolidate_in_background": "off"}


def run_episodic(tc: TruthConversation, legs: str | None = None) -> ConvRun:
    """`legs`: Config.retrieval.recall_legs ("keyword", "dense": recall through one leg alone, same store)."""
    episodic = import_episodic()
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-truth-{tc.conv_id.replace('/', '-')}-"))
    overrides = {**INLINE, **CONFIG_OVERRIDES, **({"retrieval.recall_legs": legs} if legs else {})}
    mem = episodic.Memory(tmp / "mem.db", config=episodic.Config.from_env(overrides))
    try:
        start = time.perf_counter()
        for session in tc.conv.sessions:
            for turn in session.turns:
                mem.add_turn(turn.role, turn.text, session_id=session.session_id, speaker=turn.speaker,
                             timestamp=turn.timestamp, turn_id=turn.turn_id)
            mem.end_session(session.session_id)
        ingest = time.perf_counter() - start
        outcomes, latencies = [], []
        for slot in tc.labels["slots"]:
            start = time.perf_counter()
            hits = mem.recall(slot["question"], k=TOP_K)
            latencies.append((time.perf_counter() - start) * 1000)
            outcomes.append(score_slot(slot, [h.text for h in hits], [str(h.kind) for h in hits]))
        return ConvRun(outcomes, latencies, ingest, consolidation_metrics(mem, tc))
    finally:
        mem.close()
        shutil.rmtree(tmp, ignore_errors=True)


def explains(value_turns: Sequence[Sequence[str]], new: set[str], old: set[str]) -> bool:
    """A supersession link is explained by the labels when `new` (the turns the new fact cites) holds a later value's
    turn of a slot (`value_turns`: each slot's value turns in order) and `old` an earlier value's turn of it."""
    return any(t in new and old & set(turns[:j]) for turns in value_turns for j, t in enumerate(turns))


def consolidation_metrics(mem: Any, tc: TruthConversation) -> dict[str, Any]:
    """Facts, workstreams and loops of one conversation's store, scored against its labels (public API only)."""
    labels = tc.labels
    # Facts and episodes cite turn row ids; the store maps them back to the caller's ids.
    caller_id: dict[int, str] = {}
    for session in tc.conv.sessions:
        for stored in mem.session_turns(session.session_id):
            caller_id[stored.id] = stored.turn_id if stored.turn_id is not None else str(stored.id)
    durable = {t for t, label in labels["turn_labels"].items() if label == "durable"}

    def cited(fact: Any) -> set[str]:
        return {caller_id[r] for r in fact.source_ids if r in caller_id}

    # --- facts
    current = mem.facts()
    every = mem.facts(include_superseded=True)
    precise = sum(bool(cited(f) & durable) for f in current)
    covered = durable & set().union(*(cited(f) for f in every)) if every else set()
    changed = [s for s in labels["slots"] if len(s["values"]) > 1]
    superseded_ok = 0
    per_slot: dict[str, bool] = {}
    for slot in changed:
        last = slot["values"][-1]["turn_id"]
        earlier = {v["turn_id"] for v in slot["values"][:-1]}
        ok = False
        for f in every:
            if f.current and last in cited(f):
                history = mem.fact_history(f.id)
                if any(h.id != f.id and not h.current and cited(h) & earlier for h in history):
                    ok = True
                    break
        per_slot[slot["id"]] = ok
        superseded_ok += ok
    value_turns = [[v["turn_id"] for v in slot["values"]] for slot in labels["slots"]]
    by_id = {f.id: f for f in every}
    links = [(f, by_id[f.supersedes]) for f in every if f.supersedes is not None and f.supersedes in by_id
             and cited(by_id[f.supersedes]) & durable]   # a link hiding chatter hides nothing
    facts = {
        "precision": _ratio(precise, len(current)),
        "false_supersessions": _ratio(sum(not explains(value_turns, cited(n), cited(o)) for n, o in links),
                                      len(links)),
        "recall": _ratio(len(covered), len(durable)),
        "supersession": _ratio(superseded_ok, len(changed)),
        "current_facts": len(current),
        "all_facts": len(every),
        "current_by_type": dict(Counter(f.type for f in current).most_common()),
        "supersession_by_slot": per_slot,
    }

    # --- workstreams: session -> its episode's confirmed workstream, else "none"
    confirmed = {w.id for w in mem.workstreams()}
    hypotheses = [w for w in mem.workstreams(include_hypotheses=True) if not w.confirmed]
    by_session = {e.session_id: e.workstream_id for e in mem.episodes()}
    sessions = [s.session_id for s in tc.conv.sessions]
    truth = [labels["threads"].get(s) or "none" for s in sessions]
    pred = [f"ws{by_session[s]}" if by_session.get(s) in confirmed else "none" for s in sessions]
    threads = {t for t in labels["threads"].values() if t}
    workstreams = {
        **v_measure(truth, pred),
        "ari": adjusted_rand_index(truth, pred),
        "confirmed": len(confirmed),
        "hypotheses": len(hypotheses),
        "threads": len(threads),
        "sessions": len(sessions),
        "sessions_with_episode": sum(s in by_session for s in sessions),
        "sessions_in_confirmed": sum(p != "none" for p in pred),
        "sessions_with_thread": sum(t != "none" for t in truth),
    }

    # --- loops
    detected = mem.loops(status="all")
    todos = labels["loops"]

    def where(turn_id: str) -> tuple[str, int] | None:
        return (tc.session_of[turn_id], tc.position[turn_id]) if turn_id in tc.position else None

    loop_turns = [list(lp.source_turns) or [caller_id[r] for r in lp.source_ids if r in caller_id]
                  for lp in detected]
    sources = [[w for t in turns if (w := where(t))] for turns in loop_turns]
    match = match_loops(sources, [where(t["opened_turn"]) or ("", -99) for t in todos])
    closed_todos = [j for j, t in enumerate(todos) if t["closed_turn"]]
    matched_by_todo = {j: i for i, j in match.items()}
    closure_hits = sum(j in matched_by_todo and detected[matched_by_todo[j]].status == "closed"
                       for j in closed_todos)
    false_closures = premature = 0
    for i, j in match.items():
        lp, todo = detected[i], todos[j]
        if lp.status != "closed":
            continue
        if not todo["closed_turn"]:
            false_closures += 1
        elif lp.closed_at is not None and lp.closed_at < tc.turns[todo["closed_turn"]].timestamp.timestamp():
            false_closures += 1
            premature += 1
    distractors = set(labels.get("loop_distractors", []))
    on_distractors = [turns for turns in loop_turns if distractors & set(turns)]
    loops = {
        **_prf(len(match), len(detected), len(todos)),
        "detected": len(detected),
        "detected_closed": sum(lp.status == "closed" for lp in detected),
        "labelled": len(todos),
        "matched": len(match),
        "closure_recall": _ratio(closure_hits, len(closed_todos)),
        "false_closures": false_closures,
        "false_closures_premature": premature,
        "false_closure_share": _ratio(false_closures, len(match)),
        "on_distractors": len(on_distractors),
        "distractor_turns_raising": len(distractors & {t for turns in on_distractors for t in turns}),
        "distractor_turns": len(distractors),
    }
    return {"facts": facts, "workstreams": workstreams, "loops": loops}


RUNNERS = {"episodic": run_episodic, "bm25s": run_bm25s,
           "episodic-keyword": lambda tc: run_episodic(tc, "keyword"),  # the library's legs alone (issue 43)
           "episodic-dense": lambda tc: run_episodic(tc, "dense")}


# --------------------------------------------------------------------------- aggregation


def _sum_ratio(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return _ratio(sum(p["hits"] for p in parts), sum(p["n"] for p in parts))


def overall_consolidation(per_conv: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Pooled counts for facts and loops; workstream V-measure and ARI averaged over conversations (a clustering
    is scored within its own conversation)."""
    facts = [c["facts"] for c in per_conv]
    types: Counter[str] = Counter()
    for f in facts:
        types.update(f["current_by_type"])
    ws = [c["workstreams"] for c in per_conv]
    lps = [c["loops"] for c in per_conv]
    matched, detected, labelled = (sum(lp[k] for lp in lps) for k in ("matched", "detected", "labelled"))
    return {
        "facts": {
            "precision": _sum_ratio([f["precision"] for f in facts]),
            "recall": _sum_ratio([f["recall"] for f in facts]),
            "supersession": _sum_ratio([f["supersession"] for f in facts]),
            "false_supersessions": _sum_ratio([f["false_supersessions"] for f in facts]),
            "current_facts": sum(f["current_facts"] for f in facts),
            "all_facts": sum(f["all_facts"] for f in facts),
            "current_by_type": dict(types.most_common()),
        },
        "workstreams": {
            "v_measure": statistics.fmean(w["v_measure"] for w in ws),
            "homogeneity": statistics.fmean(w["homogeneity"] for w in ws),
            "completeness": statistics.fmean(w["completeness"] for w in ws),
            "ari": statistics.fmean(w["ari"] for w in ws),
            **{k: sum(w[k] for w in ws) for k in ("confirmed", "hypotheses", "threads", "sessions",
                                                  "sessions_in_confirmed", "sessions_with_thread")},
            "confirmed_minus_threads": sum(w["confirmed"] - w["threads"] for w in ws),
            "confirmed_within_one": statistics.fmean(abs(w["confirmed"] - w["threads"]) <= 1 for w in ws),
        },
        "loops": {
            **_prf(matched, detected, labelled),
            "detected": detected,
            "detected_closed": sum(lp["detected_closed"] for lp in lps),
            "labelled": labelled,
            "matched": matched,
            "closure_recall": _sum_ratio([lp["closure_recall"] for lp in lps]),
            "false_closures": sum(lp["false_closures"] for lp in lps),
            "false_closures_premature": sum(lp["false_closures_premature"] for lp in lps),
            "false_closure_share": _sum_ratio([lp["false_closure_share"] for lp in lps]),
            "on_distractors": sum(lp["on_distractors"] for lp in lps),
            "distractor_turns_raising": sum(lp["distractor_turns_raising"] for lp in lps),
            "distractor_turns": sum(lp["distractor_turns"] for lp in lps),
        },
    }


@dataclass
class SystemRun:
    name: str
    per_conv: dict[str, ConvRun] = field(default_factory=dict)
    error: str | None = None


def run_system(name: str, conversations: Sequence[TruthConversation], quiet: bool = False) -> SystemRun:
    run = SystemRun(name)
    for tc in conversations:
        try:
            start = time.perf_counter()
            run.per_conv[tc.conv_id] = RUNNERS[name](tc)
            if not quiet:
                print(f"[{name}] {tc.conv_id}: {len(tc.labels['slots'])} slots, "
                      f"{time.perf_counter() - start:.1f}s", file=sys.stderr)
        except Exception as exc:  # noqa: BLE001 - report and keep the other systems' numbers
            run.error = f"failed on {tc.conv_id}: {type(exc).__name__}: {exc}"
            traceback.print_exc()
            break
    return run


def summarise(run: SystemRun, per_slot: bool) -> dict[str, Any]:
    convs: dict[str, Any] = {}
    for conv_id, cr in run.per_conv.items():
        entry: dict[str, Any] = {"current_value": summarise_slots(cr.slots), "ingest_seconds": round(cr.ingest_seconds, 3)}
        if cr.consolidation is not None:
            entry.update(cr.consolidation)
            if not per_slot:
                entry["facts"] = {k: v for k, v in entry["facts"].items() if k != "supersession_by_slot"}
        if per_slot:
            entry["slots"] = [vars(o) for o in cr.slots]
        convs[conv_id] = entry
    all_slots = [o for cr in run.per_conv.values() for o in cr.slots]
    latencies = [ms for cr in run.per_conv.values() for ms in cr.latencies_ms]
    first_kinds = Counter(o.first_kind for o in all_slots if o.first_kind)
    overall: dict[str, Any] = {"current_value": summarise_slots(all_slots), "first_value_hit_kinds": dict(first_kinds)}
    consolidation = [cr.consolidation for cr in run.per_conv.values() if cr.consolidation is not None]
    if consolidation:
        overall.update(overall_consolidation(consolidation))
    out: dict[str, Any] = {
        "overall": overall,
        "conversations": convs,
        "ingest_seconds": round(sum(cr.ingest_seconds for cr in run.per_conv.values()), 3),
        "median_recall_ms": statistics.median(latencies) if latencies else None,
    }
    if run.error:
        out["error"] = run.error
    return out


# --------------------------------------------------------------------------- tables


def _r(ratio: dict[str, Any] | None) -> str:
    if not ratio or ratio.get("value") is None:
        return "-"
    return f"{ratio['value']:.3f} ({ratio['hits']}/{ratio['n']})"


def _get(d: dict[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


_VALUE_ROWS = [
    ("current-first (all slots)", "current_first"),
    ("current-first (changed)", "current_first_changed"),
    ("current-first (unchanged)", "current_first_unchanged"),
    ("top1", "top1"),
    ("stale-first (changed)", "stale_first"),
    ("value@10", "value_at_10"),
    ("value@10 (unchanged)", "value_at_10_unchanged"),
]


def overall_table(summaries: dict[str, dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    names = list(summaries)
    header = ["metric", *[n + (" (error)" if summaries[n].get("error") else "") for n in names]]
    with_ref = "bm25s" in names
    if with_ref:
        header.append("bm25s, data README")
    rows: list[list[str]] = []

    def row(label: str, cells: list[str], ref: str = "") -> None:
        rows.append([label, *cells, *([ref] if with_ref else [])])

    for label, key in _VALUE_ROWS:
        ref = BM25S_REFERENCE.get(key)
        row(label, [_r(_get(s, "overall", "current_value", key)) for s in summaries.values()],
            f"{ref:.3f}" if ref is not None else "")

    def cons(label: str, fmt: Any, *path: str) -> None:
        row(label, [fmt(_get(s, "overall", *path)) for s in summaries.values()])

    cons("facts: precision (current, cite a durable turn)", _r, "facts", "precision")
    cons("facts: recall (durable turns cited)", _r, "facts", "recall")
    cons("facts: supersession (changed slots)", _r, "facts", "supersession")
    cons("facts: false supersessions (durable facts replaced by no later value)", _r, "facts", "false_supersessions")
    row("facts: current / all (with superseded)",
        [f"{_get(s, 'overall', 'facts', 'current_facts')} / {_get(s, 'overall', 'facts', 'all_facts')}"
         if _get(s, "overall", "facts") else "-" for s in summaries.values()])
    cons("facts: current by type", lambda t: ", ".join(f"{k} {v}" for k, v in t.items()) if t else "-",
         "facts", "current_by_type")
    cons("workstreams: V-measure (mean of conversations)", fmt, "workstreams", "v_measure")
    cons("workstreams: adjusted Rand (mean)", fmt, "workstreams", "ari")
    row("workstreams: confirmed / threads",
        [f"{_get(s, 'overall', 'workstreams', 'confirmed')} / {_get(s, 'overall', 'workstreams', 'threads')}"
         if _get(s, "overall", "workstreams") else "-" for s in summaries.values()])
    cons("loops: precision", fmt, "loops", "precision")
    cons("loops: recall", fmt, "loops", "recall")
    cons("loops: F1", fmt, "loops", "f1")
    row("loops: matched / detected / labelled",
        [f"{_get(s, 'overall', 'loops', 'matched')} / {_get(s, 'overall', 'loops', 'detected')} / "
         f"{_get(s, 'overall', 'loops', 'labelled')}" if _get(s, "overall", "loops") else "-"
         for s in summaries.values()])
    cons("loops: closure recall", _r, "loops", "closure_recall")
    cons("loops: false closures (share of matched)", _r, "loops", "false_closure_share")
    row("loops: raised on distractors (loops; distractor turns)",
        [f"{_get(s, 'overall', 'loops', 'on_distractors')}; {_get(s, 'overall', 'loops', 'distractor_turns_raising')}"
         f"/{_get(s, 'overall', 'loops', 'distractor_turns')}" if _get(s, "overall", "loops") else "-"
         for s in summaries.values()])
    row("ingest s", [fmt(s.get("ingest_seconds"), 1) for s in summaries.values()])
    row("median recall ms", [fmt(s.get("median_recall_ms"), 1) for s in summaries.values()])
    return header, rows


def per_conversation_table(summaries: dict[str, dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    header = ["system", "conv", "cur-first", "cf changed", "top1", "stale-first", "value@10",
              "fact P", "fact R", "supersession", "facts", "WS V", "WS ARI", "WS conf/threads",
              "loop P", "loop R", "loop F1", "closure R", "false closures", "on distractors"]
    rows = []
    for name, s in summaries.items():
        for conv_id, c in s.get("conversations", {}).items():
            cv = c["current_value"]
            has = "facts" in c
            rows.append([
                name, conv_id, fmt(cv["current_first"]["value"]), fmt(cv["current_first_changed"]["value"]),
                fmt(cv["top1"]["value"]), fmt(cv["stale_first"]["value"]), fmt(cv["value_at_10"]["value"]),
                *([
                    fmt(c["facts"]["precision"]["value"]), fmt(c["facts"]["recall"]["value"]),
                    _r(c["facts"]["supersession"]), str(c["facts"]["current_facts"]),
                    fmt(c["workstreams"]["v_measure"]), fmt(c["workstreams"]["ari"]),
                    f"{c['workstreams']['confirmed']}/{c['workstreams']['threads']}",
                    fmt(c["loops"]["precision"]), fmt(c["loops"]["recall"]), fmt(c["loops"]["f1"]),
                    _r(c["loops"]["closure_recall"]), str(c["loops"]["false_closures"]),
                    str(c["loops"]["on_distractors"]),
                ] if has else ["-"] * 13),
            ])
    return header, rows


# --------------------------------------------------------------------------- main


def llm_in_use() -> dict[str, Any]:
    info: dict[str, Any] = {"EPISODIC_LLM__BACKEND": os.environ.get("EPISODIC_LLM__BACKEND")}
    try:
        from episodic_memory import llm

        info["backend"] = llm.describe()
    except Exception as exc:  # noqa: BLE001 - metadata only
        info["backend"] = f"unknown ({type(exc).__name__})"
    return info


# --------------------------------------------------------------------------- sets: dev, fresh seeds, untuned

#: what `python bench/truth.py` reports side by side. truth-dev is what the rules were first tuned on; dev@901
#: is the same phrase bank with seeds nothing was tuned or trained on (training uses 1..40); untuned@901 and the
#: four other never-tuned banks (`bench/truthgen.py` UNTUNED_BANKS) were written from the generator's README
#: alone, never tuned or trained on — pooled, they are the "never tuned" column the targets are read on.
DEFAULT_SETS = ("truth-dev", "dev@901x4", "dev@902x4", "untuned@901x4", "untuned@902x4", "texter@901x4",
                "formal@901x4", "chatty@901x4", "slack@901x4", "caregiver@901x4", "caregiver@902x4",
                "foreman@901x4", "foreman@902x4")
UNTUNED_PREFIX = "untuned"
NEVER_TUNED = "never tuned"   # every never-tuned bank's sets, pooled
HOLD_OUT = "hold-out"         # the hold-out banks' sets (`bench/truthgen.py` HOLD_OUT_BANKS), pooled


def parse_set(spec: str) -> tuple[str, int, int] | None:
    """"bank@seed" or "bank@seedxN" (N conversations, default 4) → (bank, seed, n); "truth-dev" → None."""
    if spec == "truth-dev":
        return None
    m = re.fullmatch(r"([\w-]+)@(\d+)(?:x(\d+))?", spec)
    if m is None:
        raise argparse.ArgumentTypeError(f"a set is truth-dev or BANK@SEED[xN], not {spec!r}")
    return m.group(1), int(m.group(2)), int(m.group(3) or 4)


def load_set(spec: str, cache: Path) -> list[TruthConversation]:
    """The conversations of one set: truth-dev from ../shared/data, a bank and seed from the generator."""
    parsed = parse_set(spec)
    if parsed is None:
        return load_truth(TRUTH_DEFAULT)
    from bench import truthgen

    bank, seed, n = parsed
    folder = cache / f"{bank}-{seed}-{n}"
    if not (folder / f"conv_{n - 1:03d}.labels.json").exists():
        truthgen.write(bank, seed, n, folder)
    convs = load_truth(folder)
    for tc in convs:
        tc.conv.conv_id = f"{bank}@{seed}/{tc.conv.conv_id}"
    return convs


def group_of(spec: str) -> str:
    """Sets are reported in groups: truth-dev, each bank's fresh seeds together."""
    parsed = parse_set(spec)
    return "truth-dev" if parsed is None else parsed[0]


def pooled_groups(spec: str) -> list[str]:
    """The groups a set counts in: its own, and the pool of never-tuned (or of hold-out) banks when it is one of
    them."""
    from bench.truthgen import HOLD_OUT_BANKS, UNTUNED_BANKS

    parsed = parse_set(spec)
    bank = parsed[0] if parsed is not None else None
    return [group_of(spec), *([NEVER_TUNED] if bank in UNTUNED_BANKS else []),
            *([HOLD_OUT] if bank in HOLD_OUT_BANKS else [])]


SIDE_BY_SIDE = [
    ("changed slots: current first", ("overall", "current_value", "current_first_changed", "value"), ">=", 0.95),
    ("changed slots: stale first", ("overall", "current_value", "stale_first", "value"), "<=", 0.05),
    ("top1", ("overall", "current_value", "top1", "value"), None, None),
    ("fact precision", ("overall", "facts", "precision", "value"), ">=", 0.85),
    ("fact recall", ("overall", "facts", "recall", "value"), ">=", 0.70),
    ("supersession recall", ("overall", "facts", "supersession", "value"), ">=", 0.80),
    ("false supersessions (durable facts replaced by no later value)",
     ("overall", "facts", "false_supersessions", "value"), None, None),
    ("workstream V-measure", ("overall", "workstreams", "v_measure"), ">=", 0.70),
    ("confirmed − threads (all conversations)", ("overall", "workstreams", "confirmed_minus_threads"), None, None),
    ("conversations with confirmed within ±1", ("overall", "workstreams", "confirmed_within_one"), ">=", 1.0),
    ("loops F1", ("overall", "loops", "f1"), ">=", 0.80),
    ("loops precision", ("overall", "loops", "precision"), None, None),
    ("loops recall", ("overall", "loops", "recall"), None, None),
    ("closure recall", ("overall", "loops", "closure_recall", "value"), ">=", 0.70),
    ("false closures", ("overall", "loops", "false_closure_share", "value"), "<=", 0.05),
    ("loops on distractors", ("overall", "loops", "on_distractors"), None, None),
]


def side_by_side(groups: dict[str, dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """One column per group of sets; the target, and the gap between dev and the never-tuned banks (pooled; the
    untuned bank alone when it is the only one), and between dev and the hold-out banks when they were measured."""
    names = list(groups)
    unseen = [NEVER_TUNED if NEVER_TUNED in groups else UNTUNED_PREFIX, *([HOLD_OUT] if HOLD_OUT in groups else [])]
    header = ["metric", *names, "target", *(f"gap dev↔{u}" for u in unseen)]
    rows = []
    for label, path, op, target in SIDE_BY_SIDE:
        values = [_get(groups[n], *path) for n in names]
        cells = [fmt(v) if isinstance(v, float) else str(v) if v is not None else "-" for v in values]
        goal = "" if op is None else f"{'≥' if op == '>=' else '≤'} {target:.2f}"
        dev = _get(groups.get("dev", {}), *path)
        gaps = [f"{abs(dev - other):.2f}" if isinstance(dev, float) and isinstance(other, float) else "-"
                for other in (_get(groups.get(u, {}), *path) for u in unseen)]
        rows.append([label, *cells, goal, *gaps])
    return header, rows


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="Consolidation quality (current truth): truth-dev, fresh dev seeds and "
                                "the untuned bank side by side.")
    p.add_argument("--data", type=Path, default=None, help="one truth-dev-format folder or conv_NNN.jsonl instead "
                   "of the sets")
    p.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS), help="truth-dev and BANK@SEED[xN] "
                   "(default: %(default)s)")
    p.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "episodic-truth-sets",
                   help="where generated sets are kept between runs")
    p.add_argument("--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS))
    p.add_argument("--limit-conversations", type=int, default=None, metavar="N")
    p.add_argument("--quick", action="store_true", help="smoke run: 1 conversation")
    p.add_argument("--out", type=Path, default=None,
                   help="results JSON (default: bench/results/truth.json, or truth-quick.json with --quick)")
    p.add_argument("--per-slot", action="store_true", help="also store each slot's outcome in the JSON")
    p.add_argument("--details", action="store_true", help="with the sets: every group's full table too")
    p.add_argument("--lobo", type=Path, default=None, metavar="DIR",
                   help="each training bank with the models trained without it (DIR/no-BANK.npz)")
    p.add_argument("--lobo-seeds", nargs="+", type=int, default=[901], metavar="SEED")
    p.add_argument("--ablate", action="store_true", help="switch each rule of episodic_memory.heuristics off in "
                   "turn and report what it is worth on dev and on the untuned bank")
    p.add_argument("--rules", nargs="+", default=[], help="with --ablate: only these rules")
    p.add_argument("--config", nargs="+", default=[], metavar="KEY=VALUE",
                   help="Config overrides for every store, group.field=VALUE (JSON values: 0.5, false, \"path\")")
    return p


def measure_sets(specs: Sequence[str], cache: Path, systems: Sequence[str] = ("episodic",),
                 quiet: bool = False) -> dict[str, dict[str, Any]]:
    """Every set run through the systems; summaries pooled per group (truth-dev, then one per bank), keyed
    "group" for the episodic system and "group/system" for the others."""
    by_group: dict[str, dict[str, SystemRun]] = {}
    for spec in specs:
        convs = load_set(spec, cache)
        for name in systems:
            run = run_system(name, convs, quiet=quiet)
            for group in pooled_groups(spec):
                pooled = by_group.setdefault(group, {}).setdefault(name, SystemRun(name))
                pooled.per_conv.update(run.per_conv)
                pooled.error = pooled.error or run.error
    out: dict[str, dict[str, Any]] = {}
    for group, runs in by_group.items():
        for name, run in runs.items():
            out[group if name == "episodic" else f"{group}/{name}"] = summarise(run, per_slot=False)
    return out


def run_held_out(args: argparse.Namespace) -> int:
    """Each training bank measured with the models trained without it (`train_consolidation.py --lobo DIR`
    writes DIR/no-BANK.npz): how the learned decisions do on phrasings they never saw, on banks we may read."""
    from bench.truthgen import TRAIN_BANKS

    groups: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    import_episodic()
    for bank in TRAIN_BANKS:
        if not (args.lobo / f"no-{bank}.npz").exists():
            continue
        CONFIG_OVERRIDES["consolidation.learned_models_path"] = str(args.lobo / f"no-{bank}.npz")
        specs = [f"{bank}@{seed}x4" for seed in args.lobo_seeds]
        groups.update({f"{bank} held out": v for v in measure_sets(specs, args.cache, quiet=True).values()})
    CONFIG_OVERRIDES.pop("consolidation.learned_models_path", None)
    header, rows = side_by_side(groups)
    print_table(f"held-out banks ({args.lobo}), seeds {args.lobo_seeds}", header[:-1], [r[:-1] for r in rows])
    print(f"({time.perf_counter() - started:.0f}s)", file=sys.stderr)
    if args.out:
        args.out.write_text(json.dumps({"results": groups}, indent=2, default=str) + "\n")
    return 0


#: the figures an ablation compares (higher is better, but for the ones marked lower)
ABLATION_METRICS = [
    ("cur-first", ("overall", "current_value", "current_first_changed", "value"), 1),
    ("fact P", ("overall", "facts", "precision", "value"), 1),
    ("fact R", ("overall", "facts", "recall", "value"), 1),
    ("supersession", ("overall", "facts", "supersession", "value"), 1),
    ("WS V", ("overall", "workstreams", "v_measure"), 1),
    ("loops F1", ("overall", "loops", "f1"), 1),
    ("closure", ("overall", "loops", "closure_recall", "value"), 1),
    ("false closures", ("overall", "loops", "false_closure_share", "value"), -1),
]


def rule_worth(base: dict[str, Any], off: dict[str, Any]) -> tuple[list[float], float]:
    """What a rule is worth in one group: per metric, how much better it is with the rule on (off → on, sign-adjusted
    so that positive means the rule helps), and their sum."""
    deltas = []
    for _, path, sign in ABLATION_METRICS:
        a, b = _get(base, *path), _get(off, *path)
        deltas.append(sign * (a - b) if isinstance(a, float) and isinstance(b, float) else 0.0)
    return deltas, sum(deltas)


def run_ablate(args: argparse.Namespace) -> int:
    """Each rule of the registry switched off in turn (episodic_memory.heuristics), on the dev sets and the untuned
    bank: what it is worth on each. A rule worth nothing (or less) on the untuned bank does not earn its keep."""
    episodic = import_episodic()
    from episodic_memory.heuristics import REGISTRY

    specs = args.sets if args.sets != list(DEFAULT_SETS) else ["truth-dev", "dev@901x4", "untuned@901x4",
                                                                "untuned@902x4"]
    rules = [r for r in REGISTRY if not args.rules or r.name in args.rules]
    started = time.perf_counter()
    base = measure_sets(specs, args.cache, quiet=True)
    results: dict[str, Any] = {"base": base, "rules": {}}
    rows = []
    for rule in rules:
        CONFIG_OVERRIDES.update(rule.off())
        try:
            episodic.Config.from_env(CONFIG_OVERRIDES)
            off = measure_sets(specs, args.cache, quiet=True)
        finally:
            for key in rule.off():
                CONFIG_OVERRIDES.pop(key, None)
        cells, worth = [], {}
        for group in ("truth-dev", "dev", UNTUNED_PREFIX):
            if group in base and group in off:
                deltas, total = rule_worth(base[group], off[group])
                worth[group] = {"deltas": dict(zip([m[0] for m in ABLATION_METRICS], deltas, strict=True)),
                                "total": total}
                cells.append(f"{total:+.3f}")
            else:
                cells.append("-")
        untuned = worth.get(UNTUNED_PREFIX, {})
        changed = ", ".join(f"{k} {v:+.3f}" for k, v in untuned.get("deltas", {}).items() if abs(v) >= 0.005)
        verdict = "earns its keep" if untuned.get("total", 0.0) > 0 else "no effect" if not changed else "costs"
        results["rules"][rule.name] = {"does": rule.does, "switch": rule.off(), "worth": worth, "verdict": verdict}
        rows.append([rule.name, *cells, changed or "-", verdict])
        print(f"[ablate] {rule.name}: {' '.join(cells)} ({verdict})", file=sys.stderr)
    header = ["rule", "worth on truth-dev", "on dev (fresh seeds)", "on untuned", "untuned: metric deltas (on − off)",
              "verdict"]
    title = f"what each rule is worth (sum over {len(ABLATION_METRICS)} figures, on − off): {', '.join(specs)}"
    print_table(title, header, rows)
    out: Path = args.out or ROOT / "bench" / "results" / "truth-ablate.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"meta": {"sets": specs, "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                                        "git_commit": git_commit(), "metrics": [m[0] for m in ABLATION_METRICS],
                                        "wall_seconds": round(time.perf_counter() - started)},
                               "results": results}, indent=2, default=str) + "\n")
    out.with_suffix(".md").write_text(f"**{title}**\n\n{markdown_table(header, rows)}\n", encoding="utf-8")
    print(f"wrote {out} ({time.perf_counter() - started:.0f}s)", file=sys.stderr)
    return 0


def run_sets(args: argparse.Namespace) -> int:
    """The default report: truth-dev, fresh seeds of the dev bank and the untuned bank, side by side."""
    out: Path = args.out or ROOT / "bench" / "results" / "truth.json"
    started = time.perf_counter()
    import_episodic()
    groups = measure_sets(args.sets, args.cache, args.systems)
    wall = time.perf_counter() - started
    header, rows = side_by_side({k: v for k, v in groups.items() if "/" not in k})
    title = f"consolidation quality, no LLM: {', '.join(args.sets)}"
    print_table(title, header, rows)
    if args.details:
        for name, summary in groups.items():
            h, r = overall_table({name: summary})
            print_table(name, h, r)
    payload = {"meta": {"sets": list(args.sets), "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                        "git_commit": git_commit(), "git_dirty": git_dirty(), "llm": llm_in_use(),
                        "config_overrides": {**INLINE, **CONFIG_OVERRIDES}, "wall_seconds": round(wall, 1),
                        "python": platform.python_version()},
               "results": groups}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(f"**{title}**\n\n{markdown_table(header, rows)}\n", encoding="utf-8")
    print(f"wrote {out} and {out.with_suffix('.md').name} ({wall:.0f}s)", file=sys.stderr)
    return 1 if any(g.get("error") for g in groups.values()) else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for item in args.config:
        key, _, value = item.partition("=")
        try:
            CONFIG_OVERRIDES[key] = json.loads(value)
        except json.JSONDecodeError:
            CONFIG_OVERRIDES[key] = value
    if args.lobo is not None:
        return run_held_out(args)
    if args.ablate:
        return run_ablate(args)
    if args.data is None and not args.quick:
        if args.systems == list(SYSTEMS):
            args.systems = ["episodic"]
        return run_sets(args)
    args.data = args.data or TRUTH_DEFAULT
    if args.quick:
        args.limit_conversations = args.limit_conversations or 1
    default_out = ROOT / "bench" / "results" / "truth.json"
    out: Path = args.out or (default_out.with_name("truth-quick.json") if args.quick else default_out)
    data_path = args.data.resolve()
    conversations = load_truth(data_path)[: args.limit_conversations]
    n_slots = sum(len(tc.labels["slots"]) for tc in conversations)
    n_turns = sum(len(tc.turns) for tc in conversations)
    print(f"[truth] {len(conversations)} conversations, {n_turns} turns, {n_slots} slots; "
          f"systems: {', '.join(args.systems)}", file=sys.stderr)

    commit, dirty = git_commit(), git_dirty()
    started = time.perf_counter()
    runs = []
    for name in args.systems:
        if name == "episodic":
            try:
                import_episodic()
            except Exception as exc:  # noqa: BLE001
                runs.append(SystemRun(name, error=f"unavailable: {type(exc).__name__}: {exc}"))
                print(f"[{name}] {runs[-1].error}", file=sys.stderr)
                continue
        runs.append(run_system(name, conversations))
    wall = time.perf_counter() - started
    summaries = {run.name: summarise(run, args.per_slot) for run in runs}

    title = f"truth-dev: current truth ({n_slots} slots, {len(conversations)} conversations, top {TOP_K})"
    header, rows = overall_table(summaries)
    print_table(title, header, rows)
    c_header, c_rows = per_conversation_table(summaries)
    print_table("per conversation", c_header, c_rows)

    config: dict[str, Any] | None = None
    if "episodic" in args.systems:
        try:
            config = import_episodic().Config.from_env().model_dump()
        except Exception:  # noqa: BLE001 - metadata only
            config = None
    payload = {
        "meta": {
            "dataset": "truth-dev",
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "git_commit": commit,
            "git_dirty": dirty,
            "data_path": str(data_path),
            "systems": args.systems,
            "conversations": [tc.conv_id for tc in conversations],
            "n_slots": n_slots,
            "n_turns": n_turns,
            "top_k": TOP_K,
            "limit_conversations": args.limit_conversations,
            "llm": llm_in_use(),
            "episodic_config": config,
            "wall_seconds": round(wall, 1),
            "python": platform.python_version(),
            "versions": {p: _package_version(p) for p in ("episodic-memory-layer", "bm25s", "numpy")},
            "bm25s_reference": BM25S_REFERENCE,
        },
        "results": summaries,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
    md = (f"**{title}**\n\n{markdown_table(header, rows)}\n\n**per conversation**\n\n"
          f"{markdown_table(c_header, c_rows)}\n")
    out.with_suffix(".md").write_text(md, encoding="utf-8")
    print(f"wrote {out} and {out.with_suffix('.md').name} ({wall:.0f}s)", file=sys.stderr)
    return 1 if any(run.error for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
