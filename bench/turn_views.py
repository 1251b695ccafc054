"""Dense-only R@10 on LoCoMo dev for views of a turn (issue 17, "two vectors where context matters").

    PYTHONPATH=src python bench/turn_views.py [--out bench/results/turn_views.json]

Each turn embedded alone, with the turn before it (the library's embedding text: only when both are shorter than
300 characters), with the turn after it, and combinations: the mean of two cosines, or one vector that is the
normalised sum of two views (what `Config.experimental.blend_turn_vector` stores). Questions embedded as they are; each
question's top 10 turns by cosine; R@10 is the share of its evidence turns among them, averaged over questions.
The full pipeline's figures (BM25, fusion, currency) are in docs/retrieval.md: this isolates the dense leg.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path[0] = str(ROOT)


def neighbour_view(turn, other, first: bool) -> str:  # noqa: ANN001 - bench.datasets.Turn
    """The library's rule (retrieve/texts.py): a neighbour's opening only when both turns are short."""
    own = f"{turn.speaker}: {turn.text}"
    if other is None or len(turn.text) >= 300 or len(other.text) >= 300:
        return own
    near = f"{other.speaker}: {other.text}"[:200]
    return f"{near}\n{own}" if first else f"{own}\n{near}"


def unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    from bench.datasets import load_locomo
    from episodic_memory import Config
    from episodic_memory.models.embedder import load_embedder

    cfg = Config()
    emb = load_embedder(cfg.models.embedder, cfg.models.threads)
    recall: dict[str, list[float]] = {}
    for conv in load_locomo(verbose=False):
        ids, alone, before, after = [], [], [], []
        for session in conv.sessions:
            turns = session.turns
            for i, t in enumerate(turns):
                ids.append(t.turn_id)
                alone.append(f"{t.speaker}: {t.text}")
                before.append(neighbour_view(t, turns[i - 1] if i else None, first=True))
                after.append(neighbour_view(t, turns[i + 1] if i + 1 < len(turns) else None, first=False))
        a, b, n = emb.embed(alone), emb.embed(before), emb.embed(after)
        questions = [q for q in conv.questions if q.evidence]
        qv = emb.embed([q.question for q in questions])
        variants = {"with the turn before (today)": b, "alone": a, "with the turn after": n,
                    "mean of two cosines (alone, before)": (a + b) / 2, "normalised sum (alone, before)": unit(a + b),
                    "normalised sum (alone, after)": unit(a + n), "normalised sum (all three)": unit(a + b + n)}
        all_scores = {name: qv @ matrix.T for name, matrix in variants.items()}
        all_scores["better of two cosines (alone, before)"] = np.maximum(qv @ a.T, qv @ b.T)
        for name, scores in all_scores.items():
            for row, q in enumerate(questions):
                top = {ids[j] for j in np.argsort(-scores[row])[:10]}
                recall.setdefault(name, []).append(len(set(q.evidence) & top) / len(set(q.evidence)))
    result = {name: round(float(np.mean(v)), 4) for name, v in recall.items()}
    for name, value in result.items():
        print(f"{value:.4f}  {name}")
    if args.out:
        args.out.write_text(json.dumps({"dense_only_r10": result, "questions": len(next(iter(recall.values())))},
                                       indent=1))


if __name__ == "__main__":
    main()
