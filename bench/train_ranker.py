"""Train the learned ranker (src/episodic_memory/retrieve/ranker.py) on LoCoMo dev and BEAM-100K.

    python bench/train_ranker.py [--cache /tmp/episodic-ranker] [--model linear|mlp] [--hidden 8]
                                 [--no-write] [--out src/episodic_memory/data/ranker.json]

1. Builds one store per conversation (5 LoCoMo, 20 BEAM), fed as `bench/harness.py` feeds them, consolidated and
   embedded, and caches them under --cache (BEAM takes ~5 minutes the first time).
2. Asks every question through `Memory.recall` with the hand-set scoring (`Config.retrieval.ranker = "fused"`) and a feature
   sink on the retriever: per question, every candidate's features (ranker.FEATURES), hand-set score, exact tier,
   session and source turns. Labels: a candidate is relevant when it holds an evidence turn. Cached as well.
3. Cross-validation over conversations: for each conversation, a model trained on all the others (both datasets)
   ranks its candidates; R@10 is measured on those candidates (exact tiers first, near-duplicate source sets
   collapsed, as recall does) for the learned and the hand-set scores, per dataset. Also the list-question
   coverage pass (retrieve/coverage.py) on top of each, per penalty.
4. Trains on everything and writes the weights with the CV figures (unless --no-write).

numpy only: a listwise softmax loss (each question's candidates, the evidence holders as targets), Adam, L2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import pickle
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import Conversation, load_beam, load_locomo  # noqa: E402
from bench.harness import ROOT, git_commit, import_episodic  # noqa: E402

episodic_memory = import_episodic()
from episodic_memory.config import Config  # noqa: E402
from episodic_memory.retrieve.coverage import diversify, is_list_question  # noqa: E402
from episodic_memory.retrieve.ranker import FEATURES, FIXED, FORMAT_VERSION  # noqa: E402
from episodic_memory.retrieve.ranker import INDEX as FEATURE_INDEX  # noqa: E402
from episodic_memory.retrieve.retriever import FeatureDump  # noqa: E402

DATASETS: dict[str, Callable[..., list[Conversation]]] = {"locomo": load_locomo, "beam": load_beam}
K = 10
DUMP_VERSION = 1  # bump when what a dump holds changes


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --- 1. stores ------------------------------------------------------------------------------------------------

def build_store(conv: Conversation, folder: Path) -> None:
    """The conversation fed as bench/harness.py feeds it, then consolidated and embedded to the end."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    mem = episodic_memory.Memory(folder / "mem.db")
    try:
        for session in conv.sessions:
            for turn in session.turns:
                mem.add_turn(turn.role, turn.text, session_id=session.session_id,
                             speaker=turn.speaker if conv.named_speakers else None, timestamp=turn.timestamp,
                             turn_id=turn.turn_id)
            mem.end_session(session.session_id)
        mem.wait_for_consolidation()
        mem.index()
    finally:
        mem.close()
    (folder / "done").write_text("ok", encoding="utf-8")


# --- 2. feature dumps ----------------------------------------------------------------------------------------

class _Dumped(Exception):
    """Raised by the feature sink: the rest of recall (currency pass, hits) is not needed for training."""


@dataclass
class Question:
    dataset: str
    conv: str
    category: str
    text: str
    evidence: set[str]
    features: np.ndarray        # (candidates, features)
    hand: np.ndarray            # hand-set scores
    tiers: np.ndarray
    sources: list[tuple[str, ...]]   # each candidate's source turn ids (dataset ids)
    sessions: list[str | None]
    gain: np.ndarray            # evidence turns each candidate holds

    @property
    def positive(self) -> np.ndarray:
        return self.gain > 0


def dump_conversation(dataset: str, conv: Conversation, folder: Path) -> list[Question]:
    """Every question of `conv` through recall with the hand-set scoring and the feature sink on."""
    with tempfile.TemporaryDirectory(prefix="ranker-dump-") as tmp:
        for f in folder.iterdir():
            if f.is_file():
                shutil.copy2(f, Path(tmp) / f.name)
            else:
                shutil.copytree(f, Path(tmp) / f.name)
        mem = episodic_memory.Memory(Path(tmp) / "mem.db", config=Config(retrieval={"ranker": "fused"}, experimental={"list_coverage": False}, capture={"consolidate_on_open": False, "consolidate_in_background": "off"}))
        try:
            source_of = {t.id: t.source_id for s in mem.sessions() for t in mem.session_turns(s.session_id)}
            dumps: list[FeatureDump] = []

            def sink(dump: FeatureDump) -> None:  # what ranking saw is all we need: recall stops there
                dumps.append(dump)
                raise _Dumped

            mem.retriever.feature_sink = sink
            out: list[Question] = []
            for q in conv.questions:
                dumps.clear()
                with contextlib.suppress(_Dumped):
                    mem.recall(q.question, k=K)
                if not dumps:
                    continue
                d = dumps[-1]
                evidence = set(q.evidence)
                sources = [tuple(str(s) for s in d.sources[i]) if i in d.sources
                           else ((source_of.get(int(key) // 8, ""),) if int(key) % 8 == 0 else ())
                           for i, key in enumerate(d.keys.tolist())]
                gain = np.array([len(evidence.intersection(s)) for s in sources], np.float64)
                out.append(Question(dataset, conv.conv_id, q.category, q.question, evidence,
                                    d.features.astype(np.float32), d.fused_score, d.tiers, sources, d.sessions, gain))
        finally:
            mem.close()
    return out


def load_questions(cache: Path, rebuild: bool, datasets: list[str]) -> list[Question]:
    questions: list[Question] = []
    for dataset in datasets:
        loader = DATASETS[dataset]
        for conv in loader(verbose=False):
            folder = cache / "stores" / dataset / conv.conv_id
            if rebuild or not (folder / "done").exists():
                start = time.perf_counter()
                build_store(conv, folder)
                log(f"built {dataset} {conv.conv_id} in {time.perf_counter() - start:.0f} s")
            dump = cache / "dumps" / f"{dataset}-{conv.conv_id}-v{DUMP_VERSION}-{len(FEATURES)}.pkl"
            if rebuild or not dump.exists():
                start = time.perf_counter()
                part = dump_conversation(dataset, conv, folder)
                dump.parent.mkdir(parents=True, exist_ok=True)
                dump.write_bytes(pickle.dumps(part))
                log(f"dumped {dataset} {conv.conv_id}: {len(part)} questions in {time.perf_counter() - start:.0f} s")
            questions += pickle.loads(dump.read_bytes())
    return questions


# --- 3. the model ----------------------------------------------------------------------------------------------

@dataclass
class Model:
    mean: np.ndarray
    std: np.ndarray
    hidden: np.ndarray | None
    hidden_bias: np.ndarray | None
    weights: np.ndarray

    def raw(self, x: np.ndarray) -> np.ndarray:
        z = (x - self.mean) / self.std
        z[:, [FEATURE_INDEX[name] for name in FIXED]] = 0.0
        if self.hidden is not None and self.hidden_bias is not None:
            z = np.tanh(z @ self.hidden + self.hidden_bias)
        return z @ self.weights


def listwise_rows(questions: list[Question], rows: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The training rows of each question (`rows[i]` of `questions[i]`; a question none of whose rows holds evidence
    left out), stacked: features (the FIXED ones zeroed: not learned, added with their hand-set weights), targets
    (each question's evidence turns held, summing to 1) and the question's index (0, 1, … in order)."""
    xs, targets, groups = [], [], []
    for g, (q, picked) in enumerate(zip(questions, rows, strict=True)):
        if not q.positive[picked].any():
            continue
        xs.append(q.features[picked])
        t = q.gain[picked]
        targets.append(t / t.sum())
        groups.append(np.full(len(picked), g))
    x, t, group = np.concatenate(xs), np.concatenate(targets), np.concatenate(groups)
    x[:, [FEATURE_INDEX[name] for name in FIXED]] = 0.0
    _, group = np.unique(group, return_inverse=True)
    return x, t, group


def train(questions: list[Question], *, hidden: int = 0, l2: float = 1e-3, steps: int = 400, lr: float = 0.05,
          top: int | None = None, seed: int = 0) -> Model:
    """Listwise softmax over each question's candidates (the first `top` by hand-set score, if given), the
    evidence holders as targets (in proportion to how many evidence turns each holds); full-batch Adam."""
    x, t, group = listwise_rows(
        [q for q in questions if q.positive.any()],
        [np.arange(len(q.hand)) if top is None else np.argsort(-q.hand, kind="stable")[:top]
         for q in questions if q.positive.any()])
    n_groups = int(group.max()) + 1
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    mean, std = x.astype(np.float64).mean(axis=0), x.astype(np.float64).std(axis=0)
    std[std < 1e-6] = 1.0
    z = ((x - mean) / std).astype(np.float32)
    rng = np.random.default_rng(seed)
    n_features = z.shape[1]
    params: dict[str, np.ndarray] = {}
    if hidden:
        params["hidden"] = rng.normal(0, 0.3, (n_features, hidden))
        params["hidden_bias"] = np.zeros(hidden)
        params["weights"] = rng.normal(0, 0.3, hidden)
    else:
        params["weights"] = np.zeros(n_features)
    params = {k: v.astype(np.float32) for k, v in params.items()}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    for step in range(1, steps + 1):
        if hidden:
            h = np.tanh(z @ params["hidden"] + params["hidden_bias"])
            s = h @ params["weights"]
        else:
            s = z @ params["weights"]
        top_s = np.maximum.reduceat(s, starts)
        e = np.exp(s - top_s[group])
        p = e / np.add.reduceat(e, starts)[group]
        ds = (p - t) / n_groups               # d loss / d score, loss = mean over questions of cross-entropy
        grads: dict[str, np.ndarray] = {}
        if hidden:
            grads["weights"] = h.T @ ds
            dh = np.outer(ds, params["weights"]) * (1 - h * h)
            grads["hidden"] = z.T @ dh
            grads["hidden_bias"] = dh.sum(axis=0)
        else:
            grads["weights"] = z.T @ ds
        for k in params:
            grads[k] = grads[k] + l2 * params[k]
            m[k] = 0.9 * m[k] + 0.1 * grads[k]
            v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
            params[k] -= lr * (m[k] / (1 - 0.9**step)) / (np.sqrt(v[k] / (1 - 0.999**step)) + 1e-8)
    as64 = {k: v.astype(np.float64) for k, v in params.items()}
    return Model(mean, std, as64.get("hidden"), as64.get("hidden_bias"), as64["weights"])


# --- evaluation --------------------------------------------------------------------------------------------------

def ranked_rows(q: Question, score: np.ndarray) -> list[int]:
    order = np.lexsort((-score, -q.tiers))
    return order.tolist()


def recall_at(q: Question, ranked: list[int], k: int = K) -> float:
    """Evidence recall of the first k hits, a candidate whose source turns are all behind a hit above skipped."""
    covered: set[str] = set()
    hits = 0
    for r in ranked:
        sources = set(q.sources[r])
        if sources and sources <= covered:
            continue
        covered |= sources
        hits += 1
        if hits == k:
            break
    return len(q.evidence & covered) / len(q.evidence)


def with_coverage(q: Question, ranked: list[int], score: np.ndarray, penalty: float) -> list[int]:
    if penalty <= 0 or not is_list_question(q.text):
        return ranked
    sessions = {i: s for i, s in enumerate(q.sessions) if s is not None}
    return diversify(ranked, sessions, score, q.tiers, Config(experimental={"coverage_penalty": penalty}))


def fold_of(questions: list[Question], beam_folds: int) -> dict[tuple[str, str], str]:
    """Conversation -> its fold: each LoCoMo conversation is a fold; BEAM's 20 are dealt into `beam_folds`."""
    out: dict[tuple[str, str], str] = {}
    for dataset in sorted({q.dataset for q in questions}):
        convs = sorted({q.conv for q in questions if q.dataset == dataset}, key=lambda c: (len(c), c))
        for i, conv in enumerate(convs):
            out[(dataset, conv)] = f"{dataset} {conv}" if dataset != "beam" else f"beam {i % beam_folds + 1}/{beam_folds}"
    return out


def cross_validate(questions: list[Question], penalties: list[float], beam_folds: int = 5, **train_args: Any
                   ) -> tuple[dict[str, Any], dict[str, float]]:
    """Per dataset: R@10 of the hand-set and the learned scores on held-out conversations; list questions too."""
    folds = fold_of(questions, beam_folds)
    results: dict[str, dict[str, list[float]]] = {}
    for fold in sorted(set(folds.values())):
        held = [q for q in questions if folds[(q.dataset, q.conv)] == fold]
        model = train([q for q in questions if folds[(q.dataset, q.conv)] != fold], **train_args)
        dataset = held[0].dataset
        for q in held:
            learned = model.raw(q.features.astype(np.float64))
            bucket = results.setdefault(dataset, {})
            bucket.setdefault("hand", []).append(recall_at(q, ranked_rows(q, q.hand)))
            bucket.setdefault("learned", []).append(recall_at(q, ranked_rows(q, learned)))
            listq = is_list_question(q.text)
            bucket.setdefault("list_n", []).append(float(listq))
            for penalty in penalties:
                for name, score in (("hand", q.hand), ("learned", learned)):
                    scaled = score if name == "hand" else _to_hand_scale(learned, q.hand)
                    r = recall_at(q, with_coverage(q, ranked_rows(q, score), scaled, penalty))
                    bucket.setdefault(f"{name}+cov{penalty:g}", []).append(r)
        log(f"fold {fold}: hand {np.mean(results[dataset]['hand'][-len(held):]):.3f} "
            f"learned {np.mean(results[dataset]['learned'][-len(held):]):.3f} ({len(held)} q)")
    summary = {ds: {name: round(float(np.mean(v)), 4) for name, v in vals.items() if name != "list_n"}
               | {"n": len(vals["hand"]), "list_questions": int(sum(vals["list_n"]))}
               for ds, vals in results.items()}
    per_list: dict[str, float] = {}
    for ds, vals in results.items():
        mask = np.asarray(vals["list_n"], bool)
        for name, v in vals.items():
            if name != "list_n" and mask.any():
                per_list[f"{ds}:{name}"] = round(float(np.asarray(v)[mask].mean()), 4)
    return summary, per_list


def _to_hand_scale(raw: np.ndarray, hand: np.ndarray, top: int = 30) -> np.ndarray:
    """Learned scores mapped to the hand-set scale of this question's best candidates (mean and spread)."""
    best = np.argsort(-hand)[:top]
    mine = np.argsort(-raw)[:top]
    spread = float(raw[mine].std()) or 1.0
    return (raw - raw[mine].mean()) / spread * float(hand[best].std()) + float(hand[best].mean())


def scale_offset(model: Model, questions: list[Question], top: int = 30) -> tuple[float, float]:
    """One mapping of the raw model output to the hand-set scale: the spread and mean of the top `top` of each."""
    raw_top, hand_top = [], []
    for q in questions:
        raw = model.raw(q.features.astype(np.float64))
        raw_top.append(np.sort(raw)[::-1][:top])
        hand_top.append(np.sort(q.hand)[::-1][:top])
    raw_all, hand_all = np.concatenate(raw_top), np.concatenate(hand_top)
    scale = float(hand_all.std() / (raw_all.std() or 1.0))
    return scale, float(hand_all.mean() - scale * raw_all.mean())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "episodic-ranker")
    p.add_argument("--rebuild", action="store_true", help="build the stores and dumps again")
    p.add_argument("--datasets", nargs="+", choices=list(DATASETS), default=list(DATASETS))
    p.add_argument("--hidden", type=int, default=0, help="units of a tanh hidden layer (0: linear)")
    p.add_argument("--l2", type=float, default=1e-3)
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--top", type=int, default=None, help="train on each question's first N by hand-set score")
    p.add_argument("--penalties", type=float, nargs="*", default=[0.0, 0.05, 0.1, 0.2])
    p.add_argument("--beam-folds", type=int, default=5, help="BEAM's 20 conversations in this many folds")
    p.add_argument("--no-cv", action="store_true")
    p.add_argument("--no-write", action="store_true")
    p.add_argument("--out", type=Path, default=ROOT / "src" / "episodic_memory" / "data" / "ranker.json")
    args = p.parse_args(argv)
    questions = load_questions(args.cache, args.rebuild, args.datasets)
    log(f"{len(questions)} questions, {sum(len(q.hand) for q in questions)} candidates")
    train_args = {"hidden": args.hidden, "l2": args.l2, "steps": args.steps, "top": args.top}
    cv: dict[str, Any] = {}
    if not args.no_cv:
        summary, per_list = cross_validate(questions, args.penalties, args.beam_folds, **train_args)
        cv = {"per_dataset": summary, "list_questions": per_list}
        print(json.dumps(cv, indent=2))
    if args.no_write:
        return 0
    model = train(questions, **train_args)
    scale, offset = scale_offset(model, questions)
    payload = {
        "format": FORMAT_VERSION,
        "version": datetime.now(timezone.utc).strftime("%Y%m%d") + f"-{git_commit() or 'unknown'}"[:9],
        "features": list(FEATURES),
        "mean": model.mean.round(6).tolist(), "std": model.std.round(6).tolist(),
        "hidden": None if model.hidden is None else model.hidden.round(6).tolist(),
        "hidden_bias": None if model.hidden_bias is None else model.hidden_bias.round(6).tolist(),
        "weights": model.weights.round(6).tolist(), "bias": 0.0, "scale": round(scale, 6), "offset": round(offset, 6),
        "trained_on": {"datasets": sorted({q.dataset for q in questions}),
                       "conversations": len({(q.dataset, q.conv) for q in questions}), "questions": len(questions),
                       "loss": "listwise softmax", **train_args},
        "cv": cv,
    }
    args.out.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
