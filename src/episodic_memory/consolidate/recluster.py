"""Batch re-clustering of a user's workstreams: the latest episodes grouped at once, mapped onto the existing ids.

Incremental attach decisions depend on the order sessions arrive in: at each session end without an LLM, the
latest episodes are clustered again (average linkage over the match of `workstreams._rank`); only those that
move are written. See docs/consolidation.md, "Round 3: re-clustering a user's episodes at once".
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from ..util import one_blas_thread
from .distinct import MIN_SESSIONS_FOR_COMMON, idf

if TYPE_CHECKING:
    from ..clients import MemoryClients
    from ..config import Config

log = logging.getLogger(__name__)


def recluster_user(clients: MemoryClients, user_id: str) -> int:
    """Re-cluster the user's latest episodes and apply what changed. Returns how many episodes moved."""
    store, cfg = clients.store, clients.config
    rows = store.thread_window(user_id, cfg.workstreams.recluster_window)
    model = next((m for _, _, vec, m in reversed(rows) if vec is not None), None)
    if model is None:
        return 0
    current = {e: ws for e, ws, _, _ in rows}
    placed = [(e, np.frombuffer(vec, np.float32)) for e, _, vec, m in rows if vec is not None and m == model]
    if len(placed) < max(MIN_SESSIONS_FOR_COMMON, cfg.workstreams.recluster_min_sessions):
        # too few to tell what every session shares: centred on the mean of two, they point apart; and in a young
        # store a thread's own words are in half the sessions, so idf calls them common
        return 0
    terms = store.episodes_terms([e for e, _ in placed])
    vocab = {t for p in terms.values() for t in p}
    n, df = store.term_frequencies(user_id, vocab)
    common = cfg.workstreams.common_share
    weight = {t: w for t in vocab if (w := idf(t, df, n, common)) > 0}
    eligible = [k for k, (e, _) in enumerate(placed)
                if sum(t in weight for t in terms.get(e, {})) >= max(1, cfg.workstreams.min_terms)]
    ids = [placed[k][0] for k in eligible]
    # a session stating too few distinctive words (now) is not moved: the incremental step placed it
    clusters: list[list[int]] = []
    if ids:
        with one_blas_thread:   # one BLAS thread: small products split over threads wait ~30 ms for them on a busy machine
            clusters = _cluster(cfg, [v for _, v in placed], eligible, [terms.get(e, {}) for e in ids], weight)
    groups = _map_ids([[ids[k] for k in c] for c in clusters], current)
    changed = [(ws, members) for ws, members in groups if ws is None or any(current[e] != ws for e in members)]
    if not changed:
        return 0
    moved = sum(current[e] != ws for ws, members in changed for e in members)
    store.regroup_episodes(user_id, changed)
    log.info("re-clustered %d episodes of user %s: %d moved, %d groups changed", len(rows), user_id, moved,
             len(changed))
    return moved


def _cluster(cfg: Config, vectors: list[np.ndarray], eligible: list[int], profiles: list[dict[str, float]],
             weight: dict[str, float]) -> list[list[int]]:
    """Clusters (lists of indices into `eligible`) of the eligible sessions; `vectors` are every placed session's
    thread vectors (the centre is their mean)."""
    share = cfg.workstreams.lexical_share
    matrix = np.stack(vectors).astype(np.float64)
    matrix -= matrix.mean(axis=0)   # centred on the window's mean: what every session shares weighs nothing
    dense = _normalise(matrix[eligible])
    lexical = _normalise(_tfidf(profiles, weight))
    words = lexical @ lexical.T
    sim = (1 - share) * (dense @ dense.T) + share * words
    clusters = _average_linkage(sim, words > 0, cfg.workstreams.recluster_link)
    clusters = _join_small(sim, words > 0, clusters, cfg.workstreams.recluster_small_floor,
                           cfg.workstreams.recluster_small_ratio)
    return _dissolve_loose(sim, clusters, cfg.workstreams.recluster_cohesion)


def _normalise(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)


def _tfidf(profiles: list[dict[str, float]], weight: dict[str, float]) -> np.ndarray:
    """Rows of sublinear tf × idf over the distinctive words (as `distinct.profile_cosine` weighs them)."""
    index = {t: i for i, t in enumerate(sorted(weight))}
    out = np.zeros((len(profiles), max(1, len(index))))
    for row, profile in enumerate(profiles):
        for t, x in profile.items():
            if x >= 1 and t in index:
                out[row, index[t]] = (1 + math.log(x)) * weight[t]
    return out


def _average_linkage(sim: np.ndarray, shares: np.ndarray, line: float) -> list[list[int]]:
    """Agglomerative clustering, average linkage: merge the two clusters with the highest mean pairwise `sim` while
    it is ≥ `line` and some pair across them shares a distinctive word (`shares`). Lists of row indices. After
    a merge only the merged cluster's row of means is recomputed from the kept sums."""
    n = len(sim)
    total = sim.astype(np.float64)
    link = shares.copy()
    size = np.ones(n)
    mean = np.where(link, total, -np.inf)
    np.fill_diagonal(mean, -np.inf)
    members = [[i] for i in range(n)]
    alive = np.ones(n, bool)
    while True:   # until the best mean is below the line (all -inf once one cluster is left)
        a, b = np.unravel_index(int(np.argmax(mean)), mean.shape)
        if mean[a, b] < line:
            break
        a, b = min(a, b), max(a, b)
        total[a, :] += total[b, :]
        total[:, a] = total[a, :]
        link[a, :] |= link[b, :]
        link[:, a] = link[a, :]
        size[a] += size[b]
        alive[b] = False
        members[a] += members[b]
        row = np.where(link[a, :] & alive, total[a, :] / (size[a] * size), -np.inf)
        row[a] = -np.inf
        mean[a, :] = row
        mean[:, a] = row
        mean[b, :] = -np.inf
        mean[:, b] = -np.inf
    return [sorted(members[i]) for i in range(n) if alive[i]]


def _join_small(sim: np.ndarray, shares: np.ndarray, clusters: list[list[int]], floor: float, ratio: float
                ) -> list[list[int]]:
    """A cluster of one or two sessions joins the cluster of three or more it matches best (mean match) when that
    is ≥ `floor`, ≥ `ratio` × the runner-up's, and a distinctive word is shared."""
    big = [c for c in clusters if len(c) >= 3]
    if not big:
        return clusters
    joined: list[list[int]] = [list(c) for c in big]
    kept: list[list[int]] = []
    for c in (c for c in clusters if len(c) < 3):
        scores = sorted(((float(sim[np.ix_(c, b)].mean()), k) for k, b in enumerate(big)), key=lambda x: (-x[0], x[1]))
        best, k = scores[0]
        runner_up = scores[1][0] if len(scores) > 1 else 0.0
        if best >= floor and best >= ratio * max(runner_up, 0.0) and shares[np.ix_(c, big[k])].any():
            joined[k] += c
        else:
            kept.append(c)
    return [sorted(c) for c in joined] + kept


def _dissolve_loose(sim: np.ndarray, clusters: list[list[int]], line: float) -> list[list[int]]:
    """A cluster of two or three sessions whose mean pairwise match is below `line` becomes single sessions: a
    chance pair, or small talk that recurs."""
    out: list[list[int]] = []
    for c in clusters:
        if 2 <= len(c) <= 3:
            block = sim[np.ix_(c, c)]
            if (block.sum() - np.trace(block)) / (len(c) * (len(c) - 1)) < line:
                out += [[i] for i in c]
                continue
        out.append(c)
    return out


def _map_ids(clusters: list[list[int]], current: dict[int, int | None]) -> list[tuple[int | None, list[int]]]:
    """(workstream id or None for a new one, episode ids) per cluster: clusters of two or more, largest first, take
    the existing workstream most of their episodes are in (each id once; ties: the older id); a single session
    keeps its workstream when no cluster took it and no other single kept it, else it becomes a hypothesis."""
    taken: set[int] = set()
    out: list[tuple[int | None, list[int]]] = []
    for c in sorted((c for c in clusters if len(c) >= 2), key=lambda c: (-len(c), c[0])):
        votes = Counter(current[e] for e in c if current[e] is not None)
        pick = min((ws for ws in votes if ws not in taken), key=lambda ws: (-votes[ws], ws), default=None)
        if pick is not None:
            taken.add(pick)
        out.append((pick, c))
    for c in (c for c in clusters if len(c) == 1):
        ws = current[c[0]]
        keep = ws is not None and ws not in taken
        if keep:
            taken.add(ws)   # type: ignore[arg-type]
        out.append((ws if keep else None, c))
    return out
