"""Reciprocal-rank fusion (`retrieve.fusion`): the formula by hand, and judgment search ranked by it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from episodic_memory import Config, Memory
from episodic_memory.retrieve.fts import fts_query
from episodic_memory.retrieve.fusion import reciprocal_rank_fusion
from episodic_memory.retrieve.query import classify

from .fakes import HashingEmbedder


def test_fusion_is_the_rrf_formula_written_out() -> None:
    k = 15
    bm25, dense = [10, 20, 30], [30, 40, 10]
    fused = reciprocal_rank_fusion([(np.array(bm25), 1.3), (np.array(dense), 0.8)], k)
    best = 1.3 / (k + 1) + 0.8 / (k + 1)
    expected = {
        10: (1.3 / (k + 1) + 0.8 / (k + 3)) / best,
        20: (1.3 / (k + 2)) / best,
        30: (1.3 / (k + 3) + 0.8 / (k + 1)) / best,
        40: (0.8 / (k + 2)) / best,
    }
    assert fused.keys.tolist() == [10, 20, 30, 40]  # first appearance, leg by leg
    assert fused.scores.tolist() == pytest.approx([expected[key] for key in fused.keys.tolist()], rel=1e-15)
    assert [fused.keys[rows].tolist() for rows in fused.rows] == [bm25, dense]
    # first in every leg is 1.0; an explicit `best` (one leg split over two lists) replaces the default
    assert reciprocal_rank_fusion([([7], 1.0), ([7], 2.0)], k).scores.tolist() == [1.0]
    split = reciprocal_rank_fusion([([1, 2], 1.0), ([3], 1.0)], k, best=1.0 / (k + 1))
    assert split.scores.tolist() == pytest.approx([1.0, (k + 1) / (k + 2), 1.0])


def test_judgment_search_ranks_by_the_fused_ranks() -> None:
    """Similarity is the RRF of the BM25 and dense ranks, summed by hand here (exactly equal: the same sums in the
    same order); results are ordered by it, ties broken by cosine, then id."""
    texts = [("User asks agent to modify config.json in production", "confirm first", "outages"),
             ("User asks agent to change a production config value", "apply directly", "low risk"),
             ("User wants a deploy on Friday", "avoid Friday deploys", "weekend incidents"),
             ("Production database migration requested", "take a backup first", "data loss"),
             ("config change staging", "just do it", "staging is safe")]
    config = Config(capture={"consolidate_on_open": False}, judgments={"utility_half_life_days": math.inf})
    k = config.retrieval.rrf_k
    with Memory(":memory:", embedder=HashingEmbedder(), config=config) as mem:
        jm = mem.judgments
        for trigger, judgment, reasoning in texts:
            jm.store(trigger=trigger, judgment=judgment, reasoning=reasoning)
        memory_id = {jid: row.memory_id for jid, row in jm.rows.judgments_by_id(jm.user_id, list(range(1, 100))).items()}
        both_legs = 0
        for query in ("production config", "config change", "deploy database", "Why did the deploy fail?"):
            w_bm25, w_dense = config.retrieval.leg_weights.get(classify(query), (1.0, 1.0))
            match = fts_query(query)
            assert match is not None
            bm25 = [jid for jid, _ in jm.rows.search_judgments(match, jm.user_id, limit=300)]
            dense_hits = jm._dense_hits(query, 300, None)
            assert dense_hits is not None
            hits, cosine_of = dense_hits
            dense, cosine = [jid for jid, _ in hits], dict(hits)
            cosine.update(cosine_of([jid for jid in bm25 if jid not in cosine]))  # BM25-only: their true cosine
            best = w_bm25 / (k + 1) + w_dense / (k + 1)
            by_hand = {}
            for jid in dict.fromkeys(bm25 + dense):
                total = 0.0
                if jid in bm25:
                    total += w_bm25 / (k + bm25.index(jid) + 1)
                if jid in dense:
                    total += w_dense / (k + dense.index(jid) + 1)
                by_hand[memory_id[jid]] = total / best
            found = jm.search(query, top_k=10)
            assert {r.id: r.similarity for r in found} == by_hand
            jid_of = {mid: jid for jid, mid in memory_id.items()}
            ranked = sorted(by_hand, key=lambda mid: (-by_hand[mid], -cosine.get(jid_of[mid], 0.0), mid))
            assert [r.id for r in found] == ranked
            both_legs += len(set(bm25) & set(dense))
    assert both_legs  # the example exercises the sum over two legs
