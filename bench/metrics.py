"""Retrieval metrics over evidence turn ids.

A ranked result is a list of hits, each reduced to its `source_ids` (the turn ids it was built from).
- recall@k: |evidence ∩ (union of source_ids of the first k hits)| / |evidence|
- MRR: 1 / rank of the first hit whose source_ids intersect the evidence (0 if none)
- NDCG@k: binary gains; a hit gains 1 if it contributes an evidence id not already covered by an earlier
  hit; ideal DCG assumes one new evidence id per hit, so IDCG = sum_{i<=min(|evidence|, k)} 1/log2(i+1)

Also clustering agreement between two labelings (V-measure, adjusted Rand index), for bench/truth.py.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Ranked = Sequence[Iterable[str]]  # one entry per hit: that hit's source ids


def recall_at_k(ranked: Ranked, evidence: Iterable[str], k: int) -> float:
    gold = set(evidence)
    if not gold:
        raise ValueError("evidence is empty")
    seen: set[str] = set()
    for sources in list(ranked)[:k]:
        seen.update(sources)
    return len(gold & seen) / len(gold)


def reciprocal_rank(ranked: Ranked, evidence: Iterable[str]) -> float:
    gold = set(evidence)
    for rank, sources in enumerate(ranked, start=1):
        if gold.intersection(sources):
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Ranked, evidence: Iterable[str], k: int = 10) -> float:
    gold = set(evidence)
    if not gold:
        raise ValueError("evidence is empty")
    covered: set[str] = set()
    dcg = 0.0
    for rank, sources in enumerate(list(ranked)[:k], start=1):
        new = (gold & set(sources)) - covered
        if new:
            dcg += 1.0 / math.log2(rank + 1)
            covered |= new
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(gold), k) + 1))
    return dcg / ideal


@dataclass
class QuestionResult:
    qid: str
    category: str
    recall: dict[int, float]
    rr: float
    ndcg10: float
    latency_ms: float
    n_hits: int = 0
    evidence: list[str] = field(default_factory=list)
    retrieved: list[list[str]] = field(default_factory=list)


def score_question(
    qid: str,
    category: str,
    ranked: Sequence[Sequence[str]],
    evidence: Sequence[str],
    ks: Sequence[int],
    latency_ms: float,
) -> QuestionResult:
    return QuestionResult(
        qid=qid,
        category=category,
        recall={k: recall_at_k(ranked, evidence, k) for k in ks},
        rr=reciprocal_rank(ranked, evidence),
        ndcg10=ndcg_at_k(ranked, evidence, 10),
        latency_ms=latency_ms,
        n_hits=len(ranked),
        evidence=list(evidence),
        retrieved=[list(s) for s in ranked],
    )


def _summary(results: Sequence[QuestionResult], ks: Sequence[int]) -> dict[str, float]:
    n = len(results)
    if n == 0:
        return {"n": 0}
    out: dict[str, float] = {f"R@{k}": sum(r.recall[k] for r in results) / n for k in ks}
    out["MRR"] = sum(r.rr for r in results) / n
    out["NDCG@10"] = sum(r.ndcg10 for r in results) / n
    out["n"] = n
    return out


def aggregate(results: Sequence[QuestionResult], ks: Sequence[int]) -> dict[str, object]:
    """Mean metrics overall and per category (questions weighted equally), plus recall latency."""
    by_category: dict[str, list[QuestionResult]] = defaultdict(list)
    for r in results:
        by_category[r.category].append(r)
    latencies = sorted(r.latency_ms for r in results)
    return {
        "overall": _summary(results, ks),
        "per_category": {c: _summary(rs, ks) for c, rs in sorted(by_category.items())},
        "median_recall_ms": statistics.median(latencies) if latencies else None,
        "p95_recall_ms": latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        if latencies
        else None,
    }


# --------------------------------------------------------------------------- clusterings (truth bench)
# Two labelings of the same items (e.g. session -> thread vs session -> workstream); label names are arbitrary.


def _contingency(truth: Sequence[object], pred: Sequence[object]) -> dict[tuple[object, object], int]:
    if len(truth) != len(pred):
        raise ValueError(f"labelings differ in length: {len(truth)} vs {len(pred)}")
    table: dict[tuple[object, object], int] = defaultdict(int)
    for t, p in zip(truth, pred, strict=True):
        table[(t, p)] += 1
    return table


def _entropy(counts: Iterable[int], n: int) -> float:
    return -sum(c / n * math.log(c / n) for c in counts if c)


def v_measure(truth: Sequence[object], pred: Sequence[object], beta: float = 1.0) -> dict[str, float]:
    """Homogeneity, completeness and V-measure (Rosenberg & Hirschberg 2007; scikit-learn's conventions).

    homogeneity h = 1 - H(C|K) / H(C) (1 when H(C) = 0), completeness c = 1 - H(K|C) / H(K) (1 when H(K) = 0),
    V = (1 + beta) h c / (beta h + c) (0 when h + c = 0). C = true classes, K = predicted clusters.
    """
    n = len(truth)
    if n == 0:
        raise ValueError("empty labelings")
    table = _contingency(truth, pred)
    class_sizes: dict[object, int] = defaultdict(int)
    cluster_sizes: dict[object, int] = defaultdict(int)
    for (t, p), c in table.items():
        class_sizes[t] += c
        cluster_sizes[p] += c
    h_c, h_k = _entropy(class_sizes.values(), n), _entropy(cluster_sizes.values(), n)
    h_c_given_k = -sum(c / n * math.log(c / cluster_sizes[p]) for (_, p), c in table.items())
    h_k_given_c = -sum(c / n * math.log(c / class_sizes[t]) for (t, _), c in table.items())
    homogeneity = 1.0 if h_c == 0 else 1.0 - h_c_given_k / h_c
    completeness = 1.0 if h_k == 0 else 1.0 - h_k_given_c / h_k
    denom = beta * homogeneity + completeness
    v = 0.0 if denom == 0 else (1 + beta) * homogeneity * completeness / denom
    return {"homogeneity": homogeneity, "completeness": completeness, "v_measure": v}


def adjusted_rand_index(truth: Sequence[object], pred: Sequence[object]) -> float:
    """Hubert & Arabie's ARI over pairs of items: (index - expected) / (max - expected).

    index = sum C(n_ij, 2) over the contingency table, expected = sum C(a_i, 2) * sum C(b_j, 2) / C(n, 2),
    max = (sum C(a_i, 2) + sum C(b_j, 2)) / 2; 1.0 when max == expected (e.g. both sides one group, or all
    singletons), as scikit-learn does.
    """
    n = len(truth)
    if n == 0:
        raise ValueError("empty labelings")
    table = _contingency(truth, pred)
    rows: dict[object, int] = defaultdict(int)
    cols: dict[object, int] = defaultdict(int)
    for (t, p), c in table.items():
        rows[t] += c
        cols[p] += c
    index = sum(math.comb(c, 2) for c in table.values())
    sum_rows = sum(math.comb(c, 2) for c in rows.values())
    sum_cols = sum(math.comb(c, 2) for c in cols.values())
    pairs = math.comb(n, 2)
    expected = sum_rows * sum_cols / pairs if pairs else 0.0
    maximum = (sum_rows + sum_cols) / 2
    if maximum == expected:
        return 1.0
    return (index - expected) / (maximum - expected)
