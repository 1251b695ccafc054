"""Workstream names and keyphrases without an LLM: pure functions over episodes' keyphrases (no SQL)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any


def rollup_keyphrases(per_episode: Sequence[Sequence[Sequence[Any]]], limit: int = 8,
                      distinct: Callable[[str], float] | None = None) -> list[str]:
    """A workstream's keyphrases from its episodes' [[phrase, key, score], ...]: a phrase that recurs across
    sessions outranks one said often in a single session, and (given `distinct`: a key → 0..1, how particular its
    words are to this user's threads) a phrase of distinctive words outranks one of words every session uses
    ("gotta run", "perfect")."""
    score: dict[str, float] = defaultdict(float)
    seen_in: Counter[str] = Counter()
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    for phrases in per_episode:
        for phrase, key, s in phrases:
            score[key] += float(s)
            seen_in[key] += 1
            forms[key][phrase] += 1
    def rank(k: str) -> float:
        r = score[k] * (1 + 0.5 * (seen_in[k] - 1))
        if distinct is not None:
            r *= distinct(k) ** 2
            if " " not in k and forms[k].most_common(1)[0][0].islower():
                r *= 0.5   # one common word ("left", "buy") names nothing; a name ("Fernway") or a phrase does
        return r
    ranked = sorted(score, key=lambda k: (-rank(k), k))
    kept: list[str] = []
    for key in ranked:
        words = set(key.split())
        if any(words <= set(k.split()) or set(k.split()) <= words for k in kept):
            continue
        kept.append(key)
        if len(kept) == limit:
            break
    return [forms[k].most_common(1)[0][0] for k in kept]


def keyphrase_name(phrases: Sequence[str], summary: str = "") -> str:
    """A name without an LLM: its top two keyphrases ("Sensitivity table · Airflow")."""
    if not phrases:
        return " ".join(summary.split()[:6]) or "(untitled)"
    picked: list[str] = []
    for phrase in phrases:   # two phrases that do not share a word ("spotted leaves", not "… · spotted plants")
        if not any(set(phrase.lower().split()) & set(p.lower().split()) for p in picked):
            picked.append(phrase)
        if len(picked) == 2:
            break
    name = " · ".join(picked)
    return name[:1].upper() + name[1:]
