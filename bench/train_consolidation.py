"""Train the learned decisions of consolidation (src/episodic_memory/consolidate/learned.py).

    python bench/train_consolidation.py [--seeds 12] [--per-seed 2] [--cache /tmp/episodic-consolidation]
                                        [--no-write] [--out src/episodic_memory/data/consolidation_models.npz]
                                        [--replies-only] [--verify FILE] [--heads H ...]
                                        [--written [JSONL ...]] [--written-replies [JSONL ...]] [--written-repeat N]
                                        [--score-written FILE] [--generic-only]

1. Conversations from the truth-bench generator, for every training bank (`bench/truthgen.py` TRAIN_BANKS: the
   shared dev bank and the two written here), seeds 1..--seeds, --per-seed conversations each. Each user utterance
   comes labelled by the generator (`truthgen.utterances`): a to-do taken on, a to-do reported done, a value given
   or changed, a fact, chit-chat, a request, a distractor, …
2. Sentence examples (split as consolidation splits turns), with a typo'd copy of some (a dropped or swapped
   letter, no capital: what users write). Heads: durable, commitment, completion, change.
3. Pair examples, walking each conversation in order: (a sentence, each loop open at that time) → does it close
   that loop; (a durable statement, each earlier durable statement still current) → does it give a new value for
   that one's slot. The sentence scores in the pair features come from models that did not see that bank.
4. Leave one bank out: each head trained on two banks is scored on the third (AUC, F1 at its best line, and at the
   line chosen from the other folds). The L2 strength and the decision line are chosen here, never on the bank
   kept for testing (`untuned`: bench/truth.py reports it; nothing here reads it).
5. Trained on all training banks, the weights and their cross-validated figures are written as one .npz.
6. The reply heads (`learned.REPLY_HEADS`): the assistant's answer to each user part (its opening), labelled by what
   the part was (a to-do taken on, one reported done, a value changed). `--replies-only` trains just these and adds
   them to an existing file, every other head left byte for byte (the models written with `--lobo-out` have none:
   a held-out bank is then measured without the answer read).

7. Hand-written examples (`bench/data/sentences/*.jsonl`, `bench/data/replies/*.jsonl`: sentences and answers
   written by helpers who had read neither the code nor any bank, each labelled todo / done / other, or for answers
   todo / done / change / generic / other). `--written` and `--written-replies` add them to the training of the
   heads they label (in every fold, never held out: the line is still chosen on the banks), `--written-repeat`
   times each. `--heads commitment completion` trains only those sentence heads into `--out`, every other array
   left as it is. `--score-written FILE` reads the written files with FILE's heads (a held-out check when FILE was
   trained without them). Of the shipped heads only `reply_generic` has learned from them (docs/consolidation.md,
   "Sentences written by hand, and a generic answer").
8. The generic-acknowledgement head (`learned.GENERIC_REPLY_HEAD`): each bank answer's opening labelled by the list
   gen.py drew it from — `ACK`, the acknowledgement any statement gets, against the lists that say what the turn
   was (`SPECIFIC_ACKS`) — leaving one bank out, with the written answers in every fold. `--generic-only` trains
   just this head into `--out`; the shipped one: `--generic-only --seeds 16 --written-replies`.

numpy only: logistic regression fitted by Newton's method with an L2 penalty; features standardised.

Reproducing the shipped file: its `meta.*` entries are the options it was trained with (`--seeds 12`, the
defaults here). At those options the four sentence heads come out bit for bit (`--verify FILE` trains them alone and
compares, a few minutes once the sentence vectors are cached); the reply heads come out bit for bit with
`--replies-only --seeds 16` (they were trained apart, at 16 seeds); the pair heads are recorded from consolidation as the code runs it today (under `PAIR_CONFIG`),
so they follow the code and come within a few hundredths of the shipped figures, not bit for bit
(docs/consolidation.md, "Retraining reproduces the shipped heads").
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.harness import ROOT, git_commit, import_episodic  # noqa: E402
from bench.truthgen import (  # noqa: E402
    HOLD_OUT_BANKS,
    TRAIN_BANKS,
    UNTUNED_BANKS,
    LabelledConversation,
    Utterance,
    _gen,
    utterances,
)

import_episodic()
from episodic_memory.consolidate import learned  # noqa: E402
from episodic_memory.consolidate.extract import sentences  # noqa: E402
from episodic_memory.models.embedder import load_embedder  # noqa: E402

DEFAULT_OUT = ROOT / "src" / "episodic_memory" / learned.MODEL_FILE
#: the settings consolidation runs under while the pair rows are recorded: the completion gate as low as when the
#: shipped pair heads were recorded (every sentence that could report something done meets every open loop; the
#: gate's own line, 0.77, would keep the rows to what today's models already call a report)
PAIR_CONFIG: dict[str, Any] = {"loops.completion_gate": 0.05}
L2_GRIDS = {"logistic": (30.0, 100.0, 300.0, 1000.0), "mlp": (3.0, 30.0, 300.0)}


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --- 1-2. sentences -------------------------------------------------------------------------------------------

@dataclass
class SentenceExample:
    text: str
    bank: str
    labels: dict[str, int]          # head → 0/1; a head missing here does not learn from this sentence


def typo(text: str, rng: random.Random) -> str:
    """A slip as people make them: a dropped or swapped letter in a long word, or no capital at the start."""
    words = [(m.start(), m.end()) for m in re.finditer(r"(?<![\w'])[a-z]{6,}(?![\w'])", text)]
    if words and rng.random() < 0.7:
        a, z = rng.choice(words)
        w = text[a:z]
        i = rng.randrange(1, len(w) - 2)
        w = rng.choice([w[:i] + w[i + 1:], w[:i] + w[i + 1] + w[i] + w[i + 2:]])
        text = text[:a] + w + text[z:]
    if rng.random() < 0.5:
        text = text[:1].lower() + text[1:]
    return text


def sentence_labels(u: Utterance, sentence: str, n_sentences: int) -> dict[str, int]:
    """The heads' labels for one sentence of an utterance."""
    labels = {"commitment": int(u.kind == "open"), "completion": int(u.kind == "close"),
              "change": int(u.kind == "slot" and u.value_index > 0)}
    if not u.durable:
        labels["durable"] = 0
    elif u.kind == "slot" and n_sentences > 1:
        gen = _gen()
        if gen.mentions(gen.norm(sentence), gen.value_key(u.value, u.slot_kind)):
            labels["durable"] = 1        # the sentence with the value; a cue before it ("Had a call.") is unlabelled
    else:
        labels["durable"] = 1
    return labels


def sentence_examples(convs: list[LabelledConversation], rng: random.Random) -> list[SentenceExample]:
    seen: set[tuple[str, str]] = set()
    out: list[SentenceExample] = []
    for conv in convs:
        for u in conv.utterances:
            parts = sentences(u.text)
            for s in parts:
                for text in (s, typo(s, rng)) if rng.random() < 0.3 else (s,):
                    if (conv.bank, text) in seen:
                        continue
                    seen.add((conv.bank, text))
                    out.append(SentenceExample(text, conv.bank, sentence_labels(u, s, len(parts))))
    return out


#: the bank name of the hand-written sentences (`written_examples`): always trained on, never held out
WRITTEN = "written"
WRITTEN_DIR = ROOT / "bench" / "data" / "sentences"
WRITTEN_REPLIES_DIR = ROOT / "bench" / "data" / "replies"
#: a hand-written label → the sentence heads it teaches (the others do not learn from a written sentence)
WRITTEN_LABELS = {"todo": {"commitment": 1, "completion": 0}, "done": {"commitment": 0, "completion": 1},
                  "other": {"commitment": 0, "completion": 0}}
#: a hand-written answer's label → the reply heads' labels: "generic" is an acknowledgement any statement could get
GENERIC_HEAD = learned.GENERIC_REPLY_HEAD
WRITTEN_REPLY_LABELS = {
    label: {"reply_todo": int(label == "todo"), "reply_done": int(label == "done"),
            "reply_change": int(label == "change"), GENERIC_HEAD: int(label == "generic")}
    for label in ("todo", "done", "change", "generic", "other")}


def written_examples(paths: list[Path], repeat: int = 1,
                     labels_of: dict[str, dict[str, int]] = WRITTEN_LABELS) -> list[SentenceExample]:
    """Hand-written labelled sentences (`bench/data/sentences/*.jsonl`: {"text", "label": todo|done|other,
    "kind"}; with `labels_of=WRITTEN_REPLY_LABELS` the assistant's answers of `bench/data/replies/*.jsonl`), each
    `repeat` times; written by people who had read neither the code nor any bank, so that the heads meet wordings
    no generator bank has."""
    out: list[SentenceExample] = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                labels = labels_of[row["label"]]
                text = str(row["text"]).strip()
            except (ValueError, KeyError, TypeError) as e:
                raise SystemExit(f"{path}:{number}: not a written example ({type(e).__name__}: {e})") from e
            if text:
                out += [SentenceExample(text, WRITTEN, dict(labels))] * repeat
    return out


#: the lines a written file is scored at: the shipped loop settings (`Config.loops.commitment_line`, the completion
#: gate at the completion head's trained line) and each reply head's own line
SCORE_LINES = {"commitment": 0.8}


def score_written(models_path: Path, cache: VectorCache) -> dict[str, dict[str, dict[str, float]]]:
    """`--score-written`: each written file read by the heads it labels — AUC, and F1 / precision / recall at the
    line consolidation uses."""
    models = learned.load_models(models_path)
    if models is None:
        raise SystemExit(f"{models_path}: no models file")
    out: dict[str, dict[str, dict[str, float]]] = {}
    files = [(p, WRITTEN_LABELS) for p in sorted(WRITTEN_DIR.glob("*.jsonl"))] + [
        (p, WRITTEN_REPLY_LABELS) for p in sorted(WRITTEN_REPLIES_DIR.glob("*.jsonl"))]
    for path, labels_of in files:
        examples = written_examples([path], labels_of=labels_of)
        texts = [e.text for e in examples]
        x = learned.sentence_inputs(cache.vectors(texts), texts)
        for head in examples[0].labels if examples else ():
            if head not in models.heads:
                continue
            y = np.array([e.labels[head] for e in examples])
            p = models.heads[head].probability(x)
            line = SCORE_LINES.get(head, float(models.heads[head].threshold))
            f1, precision, recall = f1_at(y, p, line)
            out.setdefault(path.name, {})[head] = {"auc": auc(y, p), "f1": f1, "precision": precision,
                                                    "recall": recall, "line": line, "n": len(y)}
            print(f"{path.name:<14} {head:<13} AUC {auc(y, p):.3f}  at {line:.2f}: F1 {f1:.3f}  P {precision:.3f}"
                  f"  R {recall:.3f}  ({int(y.sum())} of {len(y)})")
    cache.save()
    return out


def reply_examples(convs: list[LabelledConversation]) -> list[SentenceExample]:
    """The assistant's answer to each thing the user said (its opening, as consolidation reads it), labelled by
    what the user's part was: a to-do taken on, one reported done, a value changed. Every answer is kept, repeats
    too, so that a reply said after anything ("Noted.") learns how little it tells."""
    out: list[SentenceExample] = []
    for conv in convs:
        for u in conv.utterances:
            opening = learned.reply_opening(u.reply)
            if opening:
                out.append(SentenceExample(opening, conv.bank, {
                    "reply_done": int(u.kind == "close"), "reply_todo": int(u.kind == "open"),
                    "reply_change": int(u.kind == "slot" and u.value_index > 0)}))
    return out


def train_reply_heads(convs: list[LabelledConversation], cache: VectorCache, kind: str,
                      written: Sequence[SentenceExample] = ()
                      ) -> tuple[list[HeadReport], dict[str, tuple[Fitted, float]]]:
    """The reply heads, each chosen by leaving one bank out (the `written` answers in every fold's training),
    then fitted on all."""
    examples = reply_examples(convs) + list(written)
    texts = [e.text for e in examples]
    x = learned.sentence_inputs(cache.vectors(texts), texts)
    banks = np.array([e.bank for e in examples])
    reports, final = [], {}
    for head in learned.REPLY_HEADS:
        y = np.array([e.labels[head] for e in examples])
        report, _ = cross_validate(head, x, y, banks, kind)
        reports.append(report)
        final[head] = (fit(x, y, report.l2, kind), report.line)
        log(f"{head}: {len(y)} replies, {int(y.sum())} positive; L2 {report.l2}, line {report.line:.2f}")
    return reports, final


#: which of a bank's answer lists say what the turn was (gen.py: a to-do, a value, a change, a completion) and
#: which is the acknowledgement any statement gets (`ACK`: after a fact, after 40 % of to-dos and values)
SPECIFIC_ACKS = ("ACK_TODO", "ACK_DONE", "ACK_CHANGE", "ACK_VALUE")


def _list_pattern(entries: list[str]) -> re.Pattern[str]:
    """A bank's answer list as one pattern matching an opening made from any of its entries."""
    alts = [re.escape(learned.reply_opening(e)).replace(r"\{", "{").replace(r"\}", "}") for e in entries]
    return re.compile("|".join(f"(?:{re.sub(r'{[^}]*}', '.+?', a)})" for a in alts if a), re.IGNORECASE)


def generic_examples(convs: list[LabelledConversation]) -> list[SentenceExample]:
    """Each bank answer's opening labelled by the list it came from: generic (`ACK`) or telling (`SPECIFIC_ACKS`);
    one of each distinct opening per bank (the lists are short: repeats would only weigh the commonest)."""
    out: list[SentenceExample] = []
    seen: set[tuple[str, str]] = set()
    patterns: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {}
    for conv in convs:
        if conv.bank not in patterns:
            bank = importlib.import_module(f"banks.{conv.bank}")
            patterns[conv.bank] = (_list_pattern(bank.ACK),
                                   _list_pattern([e for name in SPECIFIC_ACKS for e in getattr(bank, name)]))
        generic, specific = patterns[conv.bank]
        for u in conv.utterances:
            opening = learned.reply_opening(u.reply)
            if not opening or (conv.bank, opening) in seen:
                continue
            is_generic, is_specific = generic.fullmatch(opening), specific.fullmatch(opening)
            if bool(is_generic) != bool(is_specific):   # from exactly one of the lists
                seen.add((conv.bank, opening))
                out.append(SentenceExample(opening, conv.bank, {GENERIC_HEAD: int(bool(is_generic))}))
    return out


def train_generic_head(convs: list[LabelledConversation], cache: VectorCache, kind: str,
                       written: Sequence[SentenceExample] = ()) -> tuple[HeadReport, tuple[Fitted, float]]:
    """The generic-acknowledgement head (`learned.GENERIC_REPLY_HEAD`): the banks' answer lists, leaving one bank
    out, with the written answers (generic against to-do, done, change) in every fold."""
    examples = generic_examples(convs) + [SentenceExample(e.text, WRITTEN, {GENERIC_HEAD: e.labels[GENERIC_HEAD]})
                                          for e in written]
    texts = [e.text for e in examples]
    x = learned.sentence_inputs(cache.vectors(texts), texts)
    y = np.array([e.labels[GENERIC_HEAD] for e in examples])
    report, _ = cross_validate(GENERIC_HEAD, x, y, np.array([e.bank for e in examples]), kind)
    log(f"{GENERIC_HEAD}: {len(y)} answers, {int(y.sum())} generic; L2 {report.l2}, line {report.line:.2f}")
    return report, (fit(x, y, report.l2, kind), report.line)


def stamp(heads: Sequence[str], seeds: int, written: Sequence[Path] | None, repeat: int = 1) -> dict[str, Any]:
    """The meta entries of heads trained apart (`add_heads`): when, at which commit, from how many seeds, and the
    written files they also learned from."""
    what = {"trained": datetime.now(timezone.utc).isoformat(timespec="seconds"), "commit": git_commit() or "",
            "seeds": seeds, "written": ",".join(p.name for p in written or ()), "written_repeat": repeat}
    return {f"{h}_{k}": v for h in heads for k, v in what.items()}


def add_heads(path: Path, heads: dict[str, tuple[Fitted, float]], meta: dict[str, Any]) -> None:
    """Write `heads` into the models file at `path`, every other array kept as it is."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    staged = path.with_suffix(".new.npz")
    write_models(staged, heads, str(arrays["embedder_id"]), meta)
    with np.load(staged, allow_pickle=False) as data:
        arrays.update({k: data[k] for k in data.files if k != "embedder_id"})
    staged.unlink()
    np.savez_compressed(path, **arrays)


# --- embeddings, cached ---------------------------------------------------------------------------------------

class VectorCache:
    """Sentence vectors of the default embedder, kept on disk between runs (keyed by the text's hash)."""

    def __init__(self, folder: Path) -> None:
        self.embedder = load_embedder(None)
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"vectors-{self.embedder.model_id}.npz"
        self.known: dict[str, np.ndarray] = {}
        if self.path.exists():
            with np.load(self.path) as data:
                self.known = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
        self.added = 0

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(text.encode()).hexdigest()[:20]

    def vectors(self, texts: list[str]) -> np.ndarray:
        missing = sorted({t for t in texts if self._key(t) not in self.known})
        if missing:
            log(f"embedding {len(missing)} new sentences")
            for i in range(0, len(missing), 512):
                chunk = missing[i:i + 512]
                for t, v in zip(chunk, self.embedder.embed_once(chunk), strict=True):
                    self.known[self._key(t)] = np.asarray(v, np.float32)
            self.added += len(missing)
        return np.stack([self.known[self._key(t)] for t in texts]) if texts else np.zeros((0, 384), np.float32)

    def save(self) -> None:
        if self.added:
            keys = list(self.known)
            np.savez(self.path, keys=np.array(keys), vectors=np.stack([self.known[k] for k in keys]))


# --- logistic regression ------------------------------------------------------------------------------------

@dataclass
class Fitted:
    weights: np.ndarray
    bias: float
    mean: np.ndarray
    scale: np.ndarray
    hidden: np.ndarray | None = None
    hidden_bias: np.ndarray | None = None

    def probability(self, x: np.ndarray) -> np.ndarray:
        return learned.Head(self.weights, self.bias, self.mean, self.scale, 0.5, self.hidden,
                            self.hidden_bias).probability(x)


def fit_mlp(x: np.ndarray, y: np.ndarray, l2: float, units: int = 32, epochs: int = 300, seed: int = 0) -> Fitted:
    """One tanh hidden layer, balanced log-loss plus L2 on the weights, full-batch Adam (deterministic)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = ((x - mean) / scale).astype(np.float32)
    n, d = z.shape
    rng = np.random.default_rng(seed)
    params = [rng.normal(0, 1 / np.sqrt(d), (d, units)).astype(np.float32), np.zeros(units, np.float32),
              rng.normal(0, 1 / np.sqrt(units), units).astype(np.float32), np.zeros(1, np.float32)]
    pos = max(1, int(y.sum()))
    sample = np.where(y > 0, n / (2 * pos), n / (2 * max(1, n - pos))).astype(np.float32) / n
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2 = 0.01, 0.9, 0.999
    for t in range(1, epochs + 1):
        w1, c1, w2, c2 = params
        h = np.tanh(z @ w1 + c1)
        p = 1 / (1 + np.exp(-np.clip(h @ w2 + c2[0], -30, 30)))
        g_out = sample * (p - y)                       # d loss / d logit
        grads = [None, None, h.T @ g_out + l2 / n * w2, np.array([g_out.sum()], np.float32)]
        g_h = np.outer(g_out, w2) * (1 - h * h)
        grads[0] = z.T @ g_h + l2 / n * w1
        grads[1] = g_h.sum(axis=0)
        for i, g in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            params[i] -= lr * (m[i] / (1 - b1 ** t)) / (np.sqrt(v[i] / (1 - b2 ** t)) + 1e-8)
    w1, c1, w2, c2 = params
    return Fitted(w2.astype(np.float32), float(c2[0]), mean.astype(np.float32), scale.astype(np.float32),
                  w1.astype(np.float32), c1.astype(np.float32))


def fit(x: np.ndarray, y: np.ndarray, l2: float, kind: str) -> Fitted:
    return fit_mlp(x, y, l2) if kind == "mlp" else fit_logistic(x, y, l2)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float, iterations: int = 15) -> Fitted:
    """Newton's method on the L2-penalised log-loss (the bias is not penalised); classes weighted to balance."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = (x - mean) / scale
    n, d = z.shape
    a = np.hstack([z, np.ones((n, 1), np.float32)]).astype(np.float64)
    pos = max(1, int(y.sum()))
    sample = np.where(y > 0, n / (2 * pos), n / (2 * max(1, n - pos)))
    w = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-np.clip(a @ w, -30, 30)))
        grad = a.T @ (sample * (p - y)) + penalty * w
        hess = (a * (sample * p * (1 - p))[:, None]).T @ a + np.diag(penalty + 1e-6)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-4:
            break
    return Fitted(w[:-1].astype(np.float32), float(w[-1]), mean.astype(np.float32), scale.astype(np.float32))


def auc(y: np.ndarray, p: np.ndarray) -> float:
    order = np.argsort(p)
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    pos = y > 0
    n_pos, n_neg = pos.sum(), (~pos).sum()
    if not n_pos or not n_neg:
        return float("nan")
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def f1_at(y: np.ndarray, p: np.ndarray, line: float) -> tuple[float, float, float]:
    pred = p >= line
    tp = float((pred & (y > 0)).sum())
    precision = tp / max(1, pred.sum())
    recall = tp / max(1, (y > 0).sum())
    return (2 * precision * recall / max(1e-9, precision + recall)), precision, recall


def best_line(y: np.ndarray, p: np.ndarray) -> float:
    lines = np.linspace(0.05, 0.95, 91)
    return float(lines[int(np.argmax([f1_at(y, p, t)[0] for t in lines]))])


@dataclass
class HeadReport:
    name: str
    l2: float = 0.0
    kind: str = "logistic"
    line: float = 0.5
    folds: dict[str, dict[str, float]] = field(default_factory=dict)


def cross_validate(name: str, x: np.ndarray, y: np.ndarray, banks: np.ndarray,
                   kind: str = "logistic") -> tuple[HeadReport, dict[str, np.ndarray]]:
    """Leave one bank out over the L2 grid: the strength with the best mean held-out F1 (at each fold's line from
    the other folds' best lines). Returns the report and the out-of-fold probabilities per bank."""
    names = sorted(set(banks.tolist()) - {WRITTEN})    # written sentences: in every fold's training, never held
    best: tuple[float, HeadReport, dict[str, np.ndarray]] | None = None
    for l2 in L2_GRIDS[kind]:
        probs: dict[str, np.ndarray] = {}
        lines: dict[str, float] = {}
        for held in names:
            train = banks != held
            model = fit(x[train], y[train], l2, kind)
            probs[held] = model.probability(x[banks == held])
            lines[held] = best_line(y[banks == held], probs[held])
        report = HeadReport(name, l2, kind)
        report.line = float(np.mean(list(lines.values())))
        for held in names:
            yy, pp = y[banks == held], probs[held]
            other_line = float(np.mean([v for k, v in lines.items() if k != held])) if len(names) > 1 else 0.5
            f1, precision, recall = f1_at(yy, pp, other_line)
            report.folds[held] = {"auc": auc(yy, pp), "f1": f1, "precision": precision, "recall": recall,
                                  "line": other_line, "best_f1": f1_at(yy, pp, lines[held])[0],
                                  "positives": int(yy.sum()), "n": int(len(yy))}
        score = float(np.mean([f["f1"] for f in report.folds.values()]))
        if best is None or score > best[0]:
            best = (score, report, probs)
    assert best is not None
    return best[1], best[2]


# --- 3. pairs -------------------------------------------------------------------------------------------------

@dataclass
class PairSet:
    x: list[np.ndarray] = field(default_factory=list)
    y: list[int] = field(default_factory=list)
    bank: list[str] = field(default_factory=list)
    group: list[str] = field(default_factory=list)     # one decision: the candidates of one sentence

    def add(self, features: np.ndarray, label: int, bank: str, group: str) -> None:
        self.x.append(features)
        self.y.append(label)
        self.bank.append(bank)
        self.group.append(group)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return np.stack(self.x), np.array(self.y), np.array(self.bank), np.array(self.group)


def write_models(path: Path, heads: dict[str, tuple[Fitted, float]], embedder_id: str,
                 meta: dict[str, Any] | None = None) -> None:
    arrays: dict[str, Any] = {"format_version": np.array(learned.FORMAT_VERSION), "embedder_id": np.array(embedder_id),
                              "grammar_dim": np.array(learned.GRAMMAR_DIM)}
    for name, (model, line) in heads.items():
        arrays.update({f"{name}.weights": model.weights, f"{name}.bias": np.array(model.bias, np.float32),
                       f"{name}.mean": model.mean, f"{name}.scale": model.scale,
                       f"{name}.threshold": np.array(line, np.float32)})
        if model.hidden is not None:
            arrays.update({f"{name}.hidden": model.hidden, f"{name}.hidden_bias": model.hidden_bias})
    for k, v in (meta or {}).items():   # strings (None and lists too): the file loads without pickle
        arrays[f"meta.{k}"] = np.array(",".join(map(str, v)) if isinstance(v, list) else str(v))
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


def differing_heads(path: Path, heads: dict[str, tuple[Fitted, float]]) -> list[str]:
    """The arrays of `heads` (as `write_models` writes them) that `path` holds otherwise or not at all."""
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / "heads.npz"
        write_models(staged, heads, "")
        with np.load(staged, allow_pickle=False) as new, np.load(path, allow_pickle=False) as old:
            names = [k for k in new.files if "." in k and not k.startswith("meta.")]
            return [k for k in names if k not in old.files or not np.array_equal(new[k], old[k])]


def pair_examples(bank: str, seeds: range, per_seed: int, models_path: Path, folder: Path) -> tuple[PairSet, PairSet]:
    """Pair features as consolidation computes them, recorded from real runs of `Memory` over the bank's
    conversations (sentence models that never saw this bank), labelled from the generator's labels: a sentence
    closes a loop when its turn is the to-do's closing turn and the loop was raised within one turn of where the
    to-do was taken on; a new fact supersedes an earlier one when their turns hold a slot's value and an earlier
    value of it."""
    from bench import truthgen
    from bench.truth import load_truth

    closes, supersedes = PairSet(), PairSet()
    episodic = import_episodic()
    for seed in seeds:
        out = folder / f"{bank}-{seed}-{per_seed}"
        if not (out / f"conv_{per_seed - 1:03d}.labels.json").exists():
            truthgen.write(bank, seed, per_seed, out)
        for tc in load_truth(out):
            config = episodic.Config.from_env({**PAIR_CONFIG, "consolidation.learned_models_path": str(models_path)})
            with tempfile.TemporaryDirectory() as tmp, learned.collecting() as records:
                mem = episodic.Memory(Path(tmp) / "mem.db", config=config)
                try:
                    for session in tc.conv.sessions:
                        for t in session.turns:
                            mem.add_turn(t.role, t.text, session_id=session.session_id, speaker=t.speaker,
                                         timestamp=t.timestamp, turn_id=t.turn_id)
                        mem.end_session(session.session_id)
                    mem.stats()   # settled: every session consolidated
                    caller = {st.id: st.turn_id for session in tc.conv.sessions
                              for st in mem.session_turns(session.session_id)}
                finally:
                    mem.close()
                label_records(list(records), caller, tc, bank, f"{bank}/{seed}/{tc.conv_id}", closes, supersedes)
    return closes, supersedes


def label_records(records: list[Any], caller: dict[int, str], tc: Any, bank: str, conv: str, closes: PairSet,
                  supersedes: PairSet) -> None:
    """Label one run's records (see `pair_examples`)."""
    labels = tc.labels

    def near(a: str | None, b: str | None) -> bool:
        return (a is not None and b is not None and a in tc.session_of and b in tc.session_of
                and tc.session_of[a] == tc.session_of[b] and abs(tc.position[a] - tc.position[b]) <= 1)

    closing = {t["closed_turn"]: t["opened_turn"] for t in labels["loops"] if t["closed_turn"]}
    earlier: dict[str, set[str]] = {}   # a value's turn → the turns of the slot's earlier values
    for slot in labels["slots"]:
        turns = [v["turn_id"] for v in slot["values"]]
        for j, t in enumerate(turns):
            earlier.setdefault(t, set()).update(turns[:j])
    best_cosine: dict[tuple[str, str], float] = {}   # (turn, loop) → the best cosine of the turn's sentences
    close_rows = [r for r in records if r.head == "closes"]
    for r in close_rows:
        key = (str(r.turn_ids), str(r.other_ids))
        best_cosine[key] = max(best_cosine.get(key, -1.0), float(r.features[0]))
    for r in close_rows:
        turn = caller.get(r.turn_ids[0])
        opened = closing.get(turn)
        source = [caller.get(i) for i in r.other_ids]
        positive = (opened is not None and any(near(opened, s) for s in source)
                    and float(r.features[0]) >= best_cosine[(str(r.turn_ids), str(r.other_ids))])
        closes.add(r.features, int(positive), bank, f"{conv}/{r.group}")
    for r in records:
        if r.head != "supersedes":
            continue
        new = {caller.get(i) for i in r.turn_ids}
        old = {caller.get(i) for i in r.other_ids}
        positive = any(earlier.get(t, set()) & old for t in new if t)
        supersedes.add(r.features, int(positive), bank, f"{conv}/{r.group}")


def group_accuracy(y: np.ndarray, p: np.ndarray, groups: np.ndarray, line: float) -> dict[str, float]:
    """As consolidation decides: per sentence, the best candidate if it clears the line. Precision, recall."""
    by: dict[str, list[int]] = defaultdict(list)
    for i, g in enumerate(groups):
        by[g].append(i)
    tp = fp = positives = 0
    for rows in by.values():
        rows_a = np.array(rows)
        positives += int(y[rows_a].max() > 0)
        top = rows_a[int(np.argmax(p[rows_a]))]
        if p[top] >= line:
            if y[top] > 0:
                tp += 1
            else:
                fp += 1
    precision = tp / max(1, tp + fp)
    recall = tp / max(1, positives)
    return {"precision": precision, "recall": recall, "f1": 2 * precision * recall / max(1e-9, precision + recall),
            "decisions": tp + fp, "positives": positives}


def cross_validate_pairs(name: str, pairs: PairSet, kind: str = "logistic", grid: Sequence[float] | None = None
                         ) -> tuple[HeadReport, dict[str, tuple[Fitted, float]]]:
    """Leave one bank out; the decision is per sentence (its best candidate over the line), so the line is chosen
    on that decision's F1. Returns the report and, per bank, the model trained without it with the line of the
    other folds."""
    x, y, banks, groups = pairs.arrays()
    names = sorted(set(banks.tolist()))
    best: tuple[float, HeadReport, dict[str, tuple[Fitted, float]]] | None = None
    lines = np.linspace(0.1, 0.95, 35)
    for l2 in grid or L2_GRIDS[kind]:
        probs = {}
        fold_models = {}
        for held in names:
            model = fold_models[held] = fit(x[banks != held], y[banks != held], l2, kind)
            probs[held] = model.probability(x[banks == held])
        chosen: dict[str, float] = {}
        for held in names:
            m = banks == held
            chosen[held] = float(lines[int(np.argmax([group_accuracy(y[m], probs[held], groups[m], t)["f1"]
                                                      for t in lines]))])
        report = HeadReport(name, l2, kind, float(np.mean(list(chosen.values()))))
        for held in names:
            m = banks == held
            line = float(np.mean([v for k, v in chosen.items() if k != held])) if len(names) > 1 else 0.5
            report.folds[held] = {"auc": auc(y[m], probs[held]), "line": line,
                                  **group_accuracy(y[m], probs[held], groups[m], line)}
        score = float(np.mean([f["f1"] for f in report.folds.values()]))
        if best is None or score > best[0]:
            best = (score, report, {b: (m, report.folds[b]["line"]) for b, m in fold_models.items()})
    assert best is not None
    return best[1], best[2]


# --- main -----------------------------------------------------------------------------------------------------

def print_report(reports: list[HeadReport]) -> None:
    banks = sorted({b for r in reports for b in r.folds})
    print(f"\n{'head':<12} {'L2':>5} {'line':>5}  " + "  ".join(f"{b:>28}" for b in banks))
    print(f"{'':<12} {'':>5} {'':>5}  " + "  ".join(f"{'AUC   F1   P    R':>28}" for _ in banks))
    for r in reports:
        cells = []
        for b in banks:
            f = r.folds.get(b)
            cells.append(f"{f['auc']:.3f} {f['f1']:.2f} {f['precision']:.2f} {f['recall']:.2f}".rjust(28)
                         if f else "-".rjust(28))
        print(f"{r.name:<12} {r.l2:>5} {r.line:>5.2f}  " + "  ".join(cells))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, default=12, help="seeds 1..N of each training bank (the shipped file: 12)")
    p.add_argument("--per-seed", type=int, default=2, help="conversations per seed")
    p.add_argument("--pair-seeds", type=int, default=6, help="seeds 1..N of each bank run through consolidation "
                   "for the pair models")
    p.add_argument("--banks", nargs="+", default=list(TRAIN_BANKS))
    p.add_argument("--cache", type=Path, default=Path("/tmp/episodic-consolidation"))
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument("--no-write", action="store_true")
    p.add_argument("--model", choices=("logistic", "mlp"), default="logistic", help="the sentence heads")
    p.add_argument("--pair-model", choices=("logistic", "mlp"), default="logistic", help="the pair heads")
    p.add_argument("--lobo", type=Path, default=None, metavar="DIR",
                   help="instead: one model per training bank left out, DIR/no-BANK.npz (bench/truth.py --lobo DIR)")
    p.add_argument("--held", nargs="+", default=None, help="with --lobo: only these banks left out in turn")
    p.add_argument("--replies-only", action="store_true",
                   help="train only the reply heads and add them to --out, every other head left as it is")
    p.add_argument("--lobo-out", type=Path, default=None, metavar="DIR",
                   help="also write, per bank, the models cross-validation trained without it (DIR/no-BANK.npz)")
    p.add_argument("--written", type=Path, nargs="*", default=None, metavar="JSONL",
                   help="hand-written labelled sentences the commitment and completion heads also learn from "
                        f"(none given: every {WRITTEN_DIR.relative_to(ROOT)}/*.jsonl)")
    p.add_argument("--written-repeat", type=int, default=1, help="how many times each written sentence counts")
    p.add_argument("--written-replies", type=Path, nargs="*", default=None, metavar="JSONL",
                   help="hand-written labelled answers the reply heads also learn from (none given: every "
                        f"{WRITTEN_REPLIES_DIR.relative_to(ROOT)}/*.jsonl)")
    p.add_argument("--generic-only", action="store_true",
                   help="train only the generic-acknowledgement head (with --written-replies: and the written "
                        "answers) and add it to --out, every other head left as it is")
    p.add_argument("--score-written", type=Path, default=None, metavar="FILE",
                   help="instead: score the written sentences and answers with FILE's heads (AUC, F1, P, R per file)")
    p.add_argument("--heads", nargs="+", choices=learned.SENTENCE_HEADS, default=None,
                   help="train only these sentence heads and write them into --out, every other head left as it "
                        "is")
    p.add_argument("--pair-heads", nargs="+", choices=learned.PAIR_HEADS, default=None,
                   help="train the sentence heads only as the pair runs need them (not written), and write just "
                        "these pair heads into the existing --out file (every other array kept)")
    p.add_argument("--pair-l2", type=float, nargs="+", default=None, metavar="L2",
                   help="the L2 strengths the pair heads may take (default: the grid of --pair-model)")
    p.add_argument("--verify", type=Path, default=None, metavar="FILE",
                   help="train only the sentence heads and compare them with FILE's, array for array (exit 1 if "
                        "any differs): does this checkout reproduce a models file?")
    args = p.parse_args(argv)
    # the written files: none (the option absent), or those named, or (named none) every file of the folder
    written_paths = None if args.written is None else args.written or sorted(WRITTEN_DIR.glob("*.jsonl"))
    reply_paths = (None if args.written_replies is None
                   else args.written_replies or sorted(WRITTEN_REPLIES_DIR.glob("*.jsonl")))
    if args.score_written is not None:
        scores = score_written(args.score_written, VectorCache(args.cache))
        out = ROOT / "bench" / "results" / "score_written.json"
        out.write_text(json.dumps({"models": str(args.score_written), "scores": scores}, indent=1) + "\n")
        log(f"wrote {out}")
        return 0
    if args.lobo is not None:
        for held in args.held or args.banks:
            rest = [b for b in args.banks if b != held]
            main(["--banks", *rest, "--seeds", str(args.seeds), "--per-seed", str(args.per_seed),
                  "--pair-seeds", str(args.pair_seeds),
                  "--cache", str(args.cache), "--out", str(args.lobo / f"no-{held}.npz"), "--model", args.model,
                  "--pair-model", args.pair_model])
        return 0
    if set(args.banks) & {*UNTUNED_BANKS, *HOLD_OUT_BANKS}:
        p.error(f"the never-tuned and hold-out banks ({', '.join((*UNTUNED_BANKS, *HOLD_OUT_BANKS))}) are for "
                "measuring only: never train on them")
    rng = random.Random(7)
    started = time.perf_counter()
    convs = [utterances(bank, seed, i) for bank in args.banks for seed in range(1, args.seeds + 1)
             for i in range(args.per_seed)]
    log(f"{len(convs)} conversations, {sum(len(c.utterances) for c in convs)} utterances")
    cache = VectorCache(args.cache)
    written_replies = [] if reply_paths is None else written_examples(reply_paths, args.written_repeat,
                                                                       WRITTEN_REPLY_LABELS)
    if args.generic_only:
        report, head = train_generic_head(convs, cache, args.model, written_replies)
        cache.save()
        print_report([report])
        if not args.no_write:
            add_heads(args.out, {GENERIC_HEAD: head}, stamp([GENERIC_HEAD], args.seeds, reply_paths))
            log(f"added {GENERIC_HEAD} to {args.out}")
        return 0
    sentence_only = args.verify is not None or args.heads is not None or args.pair_heads is not None
    reply_reports, reply_heads = ([], {}) if sentence_only else train_reply_heads(convs, cache, args.model,
                                                                                  written_replies)
    cache.save()
    if args.replies_only:
        print_report(reply_reports)
        meta = {"replies_trained": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "replies_commit": git_commit(), "replies_banks": args.banks}
        if not args.no_write:
            add_heads(args.out, reply_heads, meta)
            log(f"added {', '.join(reply_heads)} to {args.out}")
        return 0

    examples = sentence_examples(convs, rng)
    if written_paths is not None:
        written = written_examples(written_paths, args.written_repeat)
        log(f"{len(written)} written sentences")
        examples += written
    texts = [e.text for e in examples]
    x = learned.sentence_inputs(cache.vectors(texts), texts)
    banks = np.array([e.bank for e in examples])
    cache.save()
    log(f"{len(examples)} sentences")
    reports: list[HeadReport] = list(reply_reports)
    final: dict[str, tuple[Fitted, float]] = dict(reply_heads)
    out_of_fold: dict[str, dict[str, Fitted]] = defaultdict(dict)   # held-out bank → head → model without it
    for head in args.heads or learned.SENTENCE_HEADS:
        rows = np.array([head in e.labels for e in examples])
        y = np.array([e.labels.get(head, 0) for e in examples])[rows]
        report, _ = cross_validate(head, x[rows], y, banks[rows], args.model)
        reports.append(report)
        final[head] = (fit(x[rows], y, report.l2, args.model), report.line)
        for held in set(banks.tolist()) - {WRITTEN}:
            m = rows & (banks != held)
            out_of_fold[held][head] = fit(x[m], np.array([e.labels.get(head, 0) for e in examples])[m],
                                          report.l2, args.model)
        log(f"{head}: L2 {report.l2}, line {report.line:.2f}")
    if args.verify is not None:
        differing = differing_heads(args.verify, {h: final[h] for h in learned.SENTENCE_HEADS})
        print(f"{args.verify}: the sentence heads " + (f"differ: {', '.join(differing)}" if differing
                                                        else "are reproduced bit for bit"))
        return 1 if differing else 0
    if args.heads is not None:   # just these heads, into the existing file
        print_report(reports)
        if not args.no_write:
            add_heads(args.out, {h: final[h] for h in args.heads},
                      stamp(args.heads, args.seeds, written_paths, args.written_repeat))
            log(f"wrote {', '.join(args.heads)} into {args.out}")
        return 0

    # pair examples: real consolidation runs over each bank with sentence models that never saw it
    closes, supersedes = PairSet(), PairSet()
    for bank in args.banks:
        fold_path = args.cache / f"sentences-without-{bank}.npz"
        write_models(fold_path, {h: (m, final[h][1]) for h, m in out_of_fold[bank].items()}, cache.embedder.model_id)
        c, s_ = pair_examples(bank, range(1, args.pair_seeds + 1), args.per_seed, fold_path, args.cache / "convs")
        for into, part in ((closes, c), (supersedes, s_)):
            into.x += part.x
            into.y += part.y
            into.bank += part.bank
            into.group += part.group
        log(f"{bank}: {len(c.y)} closes rows ({sum(c.y)} positive), {len(s_.y)} supersedes rows ({sum(s_.y)})")
    held_out: dict[str, dict[str, tuple[Fitted, float]]] = {
        b: {h: (m, final[h][1]) for h, m in out_of_fold[b].items()} for b in args.banks}
    for name, pairs in (("closes", closes), ("supersedes", supersedes)):
        report, folds = cross_validate_pairs(name, pairs, args.pair_model, args.pair_l2)
        reports.append(report)
        px, py, _, _ = pairs.arrays()
        final[name] = (fit(px, py, report.l2, args.pair_model), report.line)
        for b, model_line in folds.items():
            held_out[b][name] = model_line
        log(f"{name}: {len(py)} pairs, {int(py.sum())} positive; L2 {report.l2}, line {report.line:.2f}")
    print_report(reports)
    if args.pair_heads is not None:   # just these pair heads, into the existing file
        if not args.no_write:
            add_heads(args.out, {h: final[h] for h in args.pair_heads},
                      {**stamp(args.pair_heads, args.pair_seeds, None),
                       **{f"{h}_config": json.dumps(PAIR_CONFIG, sort_keys=True) for h in args.pair_heads}})
            log(f"wrote {', '.join(args.pair_heads)} into {args.out}")
        return 0

    meta = {"trained": datetime.now(timezone.utc).isoformat(timespec="seconds"), "commit": git_commit(),
            "banks": args.banks, "seeds": args.seeds, "per_seed": args.per_seed, "sentences": len(examples),
            "closes_pairs": len(closes.y), "supersedes_pairs": len(supersedes.y), "pair_seeds": args.pair_seeds,
            "pair_config": json.dumps(PAIR_CONFIG, sort_keys=True)}
    results = {"meta": meta, "heads": {r.name: {"model": r.kind, "l2": r.l2, "line": r.line, "folds": r.folds}
                                       for r in reports}}
    results_path = (ROOT / "bench" / "results" / "train_consolidation.json" if args.out == DEFAULT_OUT
                    else args.out.with_suffix(".json"))
    results_path.parent.mkdir(parents=True, exist_ok=True)
    results_path.write_text(json.dumps(results, indent=1) + "\n")
    if not args.no_write:
        write_models(args.out, final, cache.embedder.model_id, meta)
        log(f"wrote {args.out} ({args.out.stat().st_size // 1024} kB)")
    if args.lobo_out is not None:   # every model trained without one bank: bench/truth.py --lobo DIR
        for b, heads in held_out.items():
            write_models(args.lobo_out / f"no-{b}.npz", heads, cache.embedder.model_id, {**meta, "held_out": b})
        log(f"wrote the held-out models to {args.lobo_out}")
    log(f"done in {time.perf_counter() - started:.0f}s; results in {results_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
