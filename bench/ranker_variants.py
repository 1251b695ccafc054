"""Rankers the read path does not ship, cross-validated like the shipped one (issue 17's "learned ranker").

    python bench/ranker_variants.py [--cache /tmp/episodic-ranker] [--variants linear trees text]
                                    [--top 100] [--trees 150] [--depth 3] [--out bench/results/ranker_variants.json]

Reads the feature dumps `bench/train_ranker.py` caches (building them if absent, ~5 minutes) and runs the same
cross-validation over conversations (each LoCoMo conversation a fold, BEAM's 20 in 5): every model is trained on
the other folds and ranks the held-out fold's candidates; R@10 is counted as `train_ranker.recall_at` counts it.

- `linear`: the shipped model (`train_ranker.train`), the baseline of every other row.
- `trees`: gradient-boosted regression trees (histogram splits, depth `--depth`, `--trees` of them, shrinkage 0.1)
  on the same listwise softmax loss (gradient p − t, hessian p(1 − p) per candidate), re-ranking each question's
  first `--top` candidates by the linear score. numpy only.
- `text`: the linear model with three features that need the candidate's text, which the shipped features avoid
  (a recall would read every candidate's text): it gives a value of the kind asked (`currency.gives_answer` of
  `currency.asked_kind`), the share of the question's content words it holds (5-letter prefixes), log length.
  Derived memories (facts, episodes: several source turns) get 0 for all three.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.harness import ROOT, git_commit  # noqa: E402
from bench.train_ranker import (  # noqa: E402
    DATASETS,
    Model,
    Question,
    fold_of,
    listwise_rows,
    load_questions,
    log,
    ranked_rows,
    recall_at,
    train,
)
from episodic_memory.retrieve.currency import asked_kind, gives_answer  # noqa: E402
from episodic_memory.retrieve.fts import STOPWORDS  # noqa: E402
from episodic_memory.retrieve.ranker import FIXED  # noqa: E402
from episodic_memory.retrieve.ranker import INDEX as FEATURE_INDEX  # noqa: E402

_NOT_LEARNED = [FEATURE_INDEX[name] for name in FIXED]
_WORD = re.compile(r"[a-z0-9']+")


# --- gradient-boosted trees -----------------------------------------------------------------------------------

class Trees:
    """Regression trees of one depth, stored level by level: split feature and threshold per inner node (heap
    order), a value per leaf."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.trees: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def predict(self, x: np.ndarray) -> np.ndarray:
        x = x.astype(np.float64, copy=True)
        x[:, _NOT_LEARNED] = 0.0
        out, rows = np.zeros(len(x)), np.arange(len(x))
        for feature, threshold, leaf in self.trees:
            node = np.zeros(len(x), np.int64)
            for level in range(self.depth):
                i = 2**level - 1 + node
                node = node * 2 + (x[rows, feature[i]] >= threshold[i])
            out += leaf[node]
        return out


def fit_trees(questions: list[Question], first: list[np.ndarray], *, trees: int, depth: int, rate: float = 0.1,
              bins: int = 32, lam: float = 1.0, min_hessian: float = 1.0) -> Trees:
    """Boosted trees on the listwise softmax loss over each question's rows `first` (the candidates it re-ranks)."""
    x, t, group = listwise_rows(questions, first)
    x = x.astype(np.float64)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    n, n_features = x.shape
    edges = [np.unique(np.quantile(x[:, f], np.linspace(0, 1, bins + 1)[1:-1])) for f in range(n_features)]
    binned = np.stack([np.searchsorted(edges[f], x[:, f], side="right") for f in range(n_features)], 1)
    offsets = (np.arange(n_features) * (bins + 1))[None, :]
    score, model, rows = np.zeros(n), Trees(depth), np.arange(n)
    for _ in range(trees):
        e = np.exp(score - np.maximum.reduceat(score, starts)[group])
        p = e / np.add.reduceat(e, starts)[group]
        grad, hess = p - t, np.maximum(p * (1 - p), 1e-6)
        node = np.zeros(n, np.int64)
        feature, threshold = np.zeros(2**depth - 1, np.int64), np.zeros(2**depth - 1)
        for level in range(depth):
            nodes, base = 2**level, 2**level - 1
            index = (node[:, None] * (n_features * (bins + 1)) + offsets + binned).ravel()
            size = nodes * n_features * (bins + 1)
            g_hist = np.bincount(index, np.repeat(grad, n_features), size).reshape(nodes, n_features, bins + 1)
            h_hist = np.bincount(index, np.repeat(hess, n_features), size).reshape(nodes, n_features, bins + 1)
            g_left, h_left = np.cumsum(g_hist, 2)[:, :, :-1], np.cumsum(h_hist, 2)[:, :, :-1]
            g_all, h_all = g_hist.sum(2, keepdims=True), h_hist.sum(2, keepdims=True)
            gain = (g_left**2 / (h_left + lam) + (g_all - g_left) ** 2 / (h_all - h_left + lam)
                    - g_all**2 / (h_all + lam))
            gain[(h_left < min_hessian) | (h_all - h_left < min_hessian)] = -np.inf
            for k in range(nodes):
                f, b = np.unravel_index(int(np.argmax(gain[k])), gain[k].shape)
                feature[base + k] = f
                threshold[base + k] = edges[f][b] if np.isfinite(gain[k, f, b]) and b < len(edges[f]) else np.inf
            node = node * 2 + (x[rows, feature[base + node]] >= threshold[base + node])
        g_leaf = np.bincount(node, grad, 2**depth)
        h_leaf = np.bincount(node, hess, 2**depth)
        leaf = -rate * g_leaf / (h_leaf + lam)
        score += leaf[node]
        model.trees.append((feature, threshold, leaf))
    return model


# --- text features ---------------------------------------------------------------------------------------------

def with_text_features(questions: list[Question], datasets: list[str]) -> list[Question]:
    """The questions with three more feature columns read from each single-source candidate's text."""
    text: dict[tuple[str, str, str], str] = {}
    for dataset in datasets:
        for conv in DATASETS[dataset](verbose=False):
            for session in conv.sessions:
                for turn in session.turns:
                    text[(dataset, conv.conv_id, turn.turn_id)] = turn.text

    def stems(s: str) -> set[str]:
        return {w[:5] for w in _WORD.findall(s.lower()) if len(w) > 2 and w not in STOPWORDS}

    out = []
    for q in questions:
        kind, asked = asked_kind(q.text), stems(q.text)
        extra = np.zeros((len(q.hand), 3), np.float32)
        for i, sources in enumerate(q.sources):
            body = text.get((q.dataset, q.conv, sources[0])) if len(sources) == 1 else None
            if body is None:
                continue
            body = body[:4000]
            extra[i] = (float(kind is not None and gives_answer(kind, body)),
                        len(asked & stems(body)) / len(asked) if asked else 0.0, np.log1p(len(body)))
        out.append(Question(q.dataset, q.conv, q.category, q.text, q.evidence,
                            np.concatenate([q.features, extra], 1), q.hand, q.tiers, q.sources, q.sessions, q.gain))
    return out


# --- cross-validation ------------------------------------------------------------------------------------------

def cross_validate(questions: list[Question], variants: list[str], args: argparse.Namespace) -> dict[str, dict]:
    texts = with_text_features(questions, args.datasets) if "text" in variants else None
    folds = fold_of(questions, args.beam_folds)
    scores: dict[str, dict[str, list[float]]] = {}
    for fold in sorted(set(folds.values())):
        held = [i for i, q in enumerate(questions) if folds[(q.dataset, q.conv)] == fold]
        rest = [i for i, q in enumerate(questions) if folds[(q.dataset, q.conv)] != fold]
        linear = train([questions[i] for i in rest])
        models: dict[str, Model | Trees] = {}
        if "trees" in variants:
            firsts = [_first(linear, questions[i], args.top) for i in rest]
            models["trees"] = fit_trees([questions[i] for i in rest], firsts, trees=args.trees, depth=args.depth)
        if texts is not None:
            models["text"] = train([texts[i] for i in rest])
        for i in held:
            q = questions[i]
            bucket = scores.setdefault(q.dataset, {})
            bucket.setdefault("hand", []).append(recall_at(q, ranked_rows(q, q.hand)))
            bucket.setdefault("linear", []).append(recall_at(q, ranked_rows(q, linear.raw(q.features.astype(float)))))
            if "trees" in models:
                rows = _first(linear, q, args.top)
                score = np.full(len(q.hand), -1e9)
                score[rows] = models["trees"].predict(q.features[rows])
                bucket.setdefault("trees", []).append(recall_at(q, ranked_rows(q, score)))
            if texts is not None:
                tq = texts[i]
                bucket.setdefault("text", []).append(
                    recall_at(tq, ranked_rows(tq, models["text"].raw(tq.features.astype(float)))))
        dataset = questions[held[0]].dataset
        log(f"fold {fold}: " + " ".join(f"{k} {np.mean(v[-len(held):]):.3f}" for k, v in scores[dataset].items()))
    return {ds: {name: round(float(np.mean(v)), 4) for name, v in vals.items()} | {"n": len(vals["hand"])}
            for ds, vals in scores.items()}


def _first(model: Model, q: Question, top: int) -> np.ndarray:
    return np.argsort(-model.raw(q.features.astype(np.float64)), kind="stable")[:top]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "episodic-ranker")
    p.add_argument("--datasets", nargs="+", choices=list(DATASETS), default=list(DATASETS))
    p.add_argument("--variants", nargs="+", choices=["trees", "text"], default=["trees", "text"])
    p.add_argument("--top", type=int, default=100, help="trees: candidates re-ranked, by the linear score")
    p.add_argument("--trees", type=int, default=150)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--beam-folds", type=int, default=5)
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "ranker_variants.json")
    args = p.parse_args(argv)
    started = time.perf_counter()
    questions = load_questions(args.cache, False, args.datasets)
    summary = cross_validate(questions, args.variants, args)
    columns = ["hand", "linear", *args.variants]
    print("| held-out R@10 | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for ds, vals in summary.items():
        print(f"| {ds} ({vals['n']} q.) | " + " | ".join(f"{vals[c]:.3f}" for c in columns) + " |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"commit": git_commit(), "settings": {k: (str(v) if isinstance(v, Path) else v)
                                                                         for k, v in vars(args).items()},
                                    "cv_r10": summary, "seconds": round(time.perf_counter() - started)},
                                   indent=1) + "\n", encoding="utf-8")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
