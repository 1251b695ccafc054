"""Learned decisions of consolidation: small logistic models over the embedder's sentence vectors, per
sentence (`SentenceJudge`), per pair (`pair_head`) and per reply (`SentenceJudge.reply`); see
docs/consolidation.md, "The models". Trained by `bench/train_consolidation.py` over one embedder family: with
another, or none, the rules decide alone.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..lang.english import FUNCTION_WORDS, MONTHS, WEEKDAYS
from ..util import one_blas_thread

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
MODEL_FILE = "data/consolidation_models.npz"
MINILM_FAMILY = "minilm-l6-v2"
SENTENCE_HEADS = ("durable", "commitment", "completion", "change")
PAIR_HEADS = ("closes", "supersedes")
REPLY_HEADS = ("reply_done", "reply_todo", "reply_change")
#: an acknowledgement any statement could get ("Noted.", "Logged it."): when the models have this head, an answer it
#: reads as generic does not say the turn changed a value (`Replies.says`). Only for that reading: read for a to-do
#: or a completion too, it lost closures on banks never tuned on (docs/consolidation.md, "Sentences written by hand,
#: and a generic answer").
GENERIC_REPLY_HEAD = "reply_generic"
GENERIC_SILENCES = ("reply_change",)

# --- grammar: closed-class words, endings and punctuation -----------------------------------------------------
# (the closed-class words are lang/english.py's FUNCTION_WORDS: their order is the models' input)
_FW_INDEX = {w: i for i, w in enumerate(FUNCTION_WORDS)}
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[?!:\"]")
_WHEN_WORDS = frozenset(MONTHS) | frozenset(WEEKDAYS)
_SHAPE = ("first_is_function", "first_is_capital", "second_is_me", "ends_question", "has_exclaim", "has_colon",
          "has_quote", "has_digit", "has_when_word", "has_money", "n_ed", "n_ing", "n_en", "n_s", "n_mid_capitals",
          "length", "starts_lower", "imperative", "first_person_modal", "third_person_modal", "deadline",
          "first_person_past", "still_not", "modal_to")
GRAMMAR_DIM = len(FUNCTION_WORDS) + len(_SHAPE)


#: chat shorthand read as the words it stands for (grammar only: "b4 monday" is "before monday")
SHORTHAND = {
    "b4": "before", "tmrw": "tomorrow", "tmr": "tomorrow", "tomoz": "tomorrow", "2moro": "tomorrow",
    "tonite": "tonight", "wk": "week", "wknd": "weekend", "hafta": "have to", "hav": "have", "gotta": "got to",
    "gonna": "going to", "wanna": "want to", "u": "you", "ur": "your", "r": "are", "pls": "please", "plz": "please",
    "rn": "now", "thx": "thanks", "ty": "thanks", "im": "i 'm", "ive": "i 've", "ill": "i 'll", "dont": "do n't",
    "didnt": "did n't", "havent": "have n't", "hasnt": "has n't", "cant": "can n't", "wont": "will n't",
    "isnt": "is n't", "nope": "no", "yep": "yes", "eod": "end of day", "eow": "end of week", "cob": "end of day",
    "asap": "soon", "w": "with", "thru": "through", "til": "until", "till": "until", "cuz": "because",
    "bc": "because", "tho": "though", "pic": "picture", "msg": "message", "appt": "appointment",
}
_CONTRACTION_HEADS = {"wo": "will", "ca": "can", "sha": "shall", "ai": "is"}


def tokens(text: str) -> list[str]:
    """Lower-case word tokens with contractions split off ("I'll" → i 'll, "don't" → do n't) and chat shorthand
    read as the words it stands for ("b4" → before)."""
    out: list[str] = []
    for t in _TOKEN.findall(text.lower().replace("’", "'").replace("‘", "'")):
        if "'" in t:
            head, tail = t.split("'", 1)
            if tail == "t" and head.endswith("n"):
                out += [_CONTRACTION_HEADS.get(head[:-1], head[:-1]), "n't"]
            else:
                out += [head, "'" + tail]
        elif t in SHORTHAND:
            out += SHORTHAND[t].split()
        else:
            out.append(t)
    return [t for t in out if t]


_FIRST = frozenset("i we".split())
_THIRD = frozenset("he she they it".split())
_MODAL = frozenset("will 'll shall must should need needs have has got going 'm ought can could".split())
_TIME = frozenset("tomorrow tonight today week weekend month monday tuesday wednesday thursday friday saturday sunday "
                  "mon tue tues wed thu thur thurs fri sat sun morning afternoon evening end day soon later next "
                  "january february march april may june july august september october november december".split())
_DEADLINE_LEAD = frozenset("by before until due".split())
_PAST_AUX = frozenset("was were had did 've".split())


def _person_modal(toks: list[str], people: frozenset[str]) -> bool:
    """A subject of `people` followed within three words by a modal or an obligation ("I really need to",
    "we'll", "she has to")."""
    return any(t in people and any(u in _MODAL for u in toks[i + 1:i + 4]) for i, t in enumerate(toks))


def _deadline(toks: list[str]) -> bool:
    """"by Friday", "before the end of the month", "tomorrow", "this week": a time the thing is due."""
    return any((t in _DEADLINE_LEAD and any(u in _TIME for u in toks[i + 1:i + 5]))
               or t in ("tomorrow", "tonight")
               or (t in ("this", "next") and i + 1 < len(toks) and toks[i + 1] in _TIME)
               for i, t in enumerate(toks))


@lru_cache(maxsize=8192)
def grammar_features(text: str) -> np.ndarray:
    """The closed-class words present (one flag each) and a few shape signals of `text`."""
    toks = tokens(text)
    words = [t for t in toks if t[0].isalpha() or t[0] == "'"]
    fw = np.zeros(len(FUNCTION_WORDS), np.float32)
    for t in toks:
        if (i := _FW_INDEX.get(t)) is not None:
            fw[i] = 1.0
    raw = re.findall(r"[A-Za-z][\w'’-]*", text)
    content = [w for w in words if w not in _FW_INDEX]
    first = words[0] if words else ""
    shape = np.array([
        first in _FW_INDEX,
        bool(raw) and raw[0][:1].isupper() and raw[0].lower() not in _FW_INDEX,
        len(words) > 1 and words[1] in ("me", "us"),
        text.rstrip(" \"')").endswith("?"),
        "!" in text,
        ":" in text,
        any(q in text for q in "\"“”") or bool(re.search(r"(?:^|\s)'\w", text)),
        bool(re.search(r"\d", text)),
        any(w in _WHEN_WORDS for w in words),
        bool(re.search(r"[$€£]\s?\d|\d\s?k\b", text)),
        min(3, sum(len(w) > 4 and w.endswith("ed") for w in content)) / 3,
        min(3, sum(len(w) > 5 and w.endswith("ing") for w in content)) / 3,
        min(3, sum(len(w) > 4 and w.endswith(("en", "wn", "ne")) for w in content)) / 3,
        min(3, sum(len(w) > 3 and w.endswith("s") and not w.endswith("ss") for w in content)) / 3,
        min(3, sum(w[:1].isupper() for w in raw[1:])) / 3,
        min(40, len(words)) / 40,
        text[:1].islower(),
        bool(first) and first not in _FW_INDEX and not (raw and raw[0][:1].isupper() and len(raw) > 1
                                                        and raw[1][:1].isupper()),
        _person_modal(words, _FIRST) or (bool(words) and words[0] in _MODAL),
        _person_modal(words, _THIRD) or (bool(raw) and raw[0][:1].isupper() and len(words) > 1
                                         and words[1] in _MODAL),
        _deadline(words),
        any(t in _FIRST and (u in _PAST_AUX or (len(u) > 4 and u.endswith("ed")))
            for t, u in zip(words, words[1:], strict=False)),
        any(t in ("still", "yet") for t in words) and any(t in ("n't", "not", "no", "nothing", "never")
                                                          for t in words),
        any(t in ("need", "needs", "have", "has", "got", "ought", "going") and u == "to"
            for t, u in zip(words, words[1:], strict=False)),
    ], np.float32)
    out = np.concatenate([fw, shape])
    out.flags.writeable = False
    return out


# --- the models -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Head:
    """p = σ(w · h + b) with h = standardise(x), or with one hidden layer h = tanh(W · standardise(x) + c)."""
    weights: np.ndarray
    bias: float
    mean: np.ndarray
    scale: np.ndarray
    threshold: float   # the decision line chosen when training (cross-validated over banks)
    hidden: np.ndarray | None = None        # W, inputs × units
    hidden_bias: np.ndarray | None = None   # c

    def probability(self, x: np.ndarray) -> np.ndarray:
        h = (x - self.mean) / self.scale
        if self.hidden is not None:
            h = np.tanh(h @ self.hidden + self.hidden_bias)
        z = h @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


@dataclass(frozen=True)
class Models:
    embedder_id: str
    heads: dict[str, Head]
    meta: dict[str, Any]


_LOADED: dict[str, Models | None] = {}
_LOCK = threading.Lock()


def load_models(path: Any = None) -> Models | None:
    """The shipped weights (or those at `path`), read once per process; None when missing or of another format."""
    key = str(path or MODEL_FILE)
    with _LOCK:
        if key not in _LOADED:
            _LOADED[key] = _read(path)
        return _LOADED[key]


def _read(path: Any) -> Models | None:
    try:
        source = resources.files("episodic_memory").joinpath(MODEL_FILE) if path is None else Path(path)
        with source.open("rb") as fh:
            data = np.load(fh, allow_pickle=False)
            arrays = {k: data[k] for k in data.files}
    except FileNotFoundError:
        log.warning("no learned consolidation models (%s): the rules decide alone", path or MODEL_FILE)
        return None
    except Exception as exc:  # a damaged or foreign file: the rules decide, consolidation goes on
        log.warning("cannot read the learned consolidation models %s (%s: %s): the rules decide alone",
                    path or MODEL_FILE, type(exc).__name__, exc)
        return None
    if int(arrays["format_version"]) != FORMAT_VERSION:
        log.warning("learned consolidation models are format %s, not %s: not used", arrays["format_version"],
                    FORMAT_VERSION)
        return None
    if int(arrays.get("grammar_dim", -1)) != GRAMMAR_DIM:
        log.warning("learned consolidation models were trained with other sentence features (%s, not %s): not used",
                    arrays.get("grammar_dim"), GRAMMAR_DIM)
        return None
    heads = {}
    for name in (*SENTENCE_HEADS, *PAIR_HEADS, *REPLY_HEADS, GENERIC_REPLY_HEAD):
        if f"{name}.weights" in arrays:
            hidden = arrays.get(f"{name}.hidden")
            heads[name] = Head(
                arrays[f"{name}.weights"].astype(np.float32), float(arrays[f"{name}.bias"]),
                arrays[f"{name}.mean"].astype(np.float32), arrays[f"{name}.scale"].astype(np.float32),
                float(arrays[f"{name}.threshold"]), None if hidden is None else hidden.astype(np.float32),
                None if hidden is None else arrays[f"{name}.hidden_bias"].astype(np.float32))
    meta = {k.removeprefix("meta."): v.item() if v.shape == () else v.tolist() for k, v in arrays.items()
            if k.startswith("meta.")}
    return Models(str(arrays["embedder_id"]), heads, meta)


def pair_head(models: Models, name: str, n_features: int) -> Head | None:
    """The pair model `name` when it reads `n_features` features (the features of this version), else None."""
    head = models.heads.get(name)
    if head is None or head.mean.shape[0] != n_features:
        if head is not None and (name, id(models)) not in _WARNED:
            _WARNED.add((name, id(models)))
            log.warning("the %s model reads %d features, not %d: not used", name, head.mean.shape[0], n_features)
        return None
    return head


_WARNED: set[tuple[str, int]] = set()


def sentence_inputs(vectors: np.ndarray, texts: Sequence[str]) -> np.ndarray:
    """What the sentence heads read: each sentence's embedding beside its grammar features."""
    grammar = np.stack([grammar_features(t) for t in texts]) if texts else np.zeros((0, GRAMMAR_DIM), np.float32)
    return np.concatenate([np.asarray(vectors, np.float32), grammar], axis=1)


class SentenceJudge:
    """Sentence-level probabilities with the shipped models, over one embedder's vectors."""

    def __init__(self, models: Models, embedder: Any) -> None:
        self.models = models
        self.embedder = embedder

    def scores(self, texts: Sequence[str], vectors: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """head → probability per text, for every sentence head the models have."""
        texts = list(texts)
        if not texts:
            return {h: np.zeros(0, np.float32) for h in SENTENCE_HEADS if h in self.models.heads}
        if vectors is None:
            vectors = self.embedder.embed(texts)
        x = sentence_inputs(vectors, texts)
        with one_blas_thread:
            return {h: self.models.heads[h].probability(x) for h in SENTENCE_HEADS if h in self.models.heads}

    def head(self, name: str) -> Head | None:
        return self.models.heads.get(name)

    def reply(self, text: str, whole: bool = False) -> dict[str, float] | None:
        """How the assistant's answer takes the turn before it: reply head → probability, read from its
        opening (`reply_opening`), or with `whole` the highest over its first sentences and lines
        (`reply_parts`); None when the models have no reply heads or the answer is empty."""
        parts = [p for p in (reply_parts(text) if whole else [reply_opening(text)]) if p]
        if not parts or not all(h in self.models.heads for h in REPLY_HEADS):
            return None
        x = sentence_inputs(np.asarray(self.embedder.embed(parts), np.float32), parts)
        heads = [h for h in (*REPLY_HEADS, GENERIC_REPLY_HEAD) if h in self.models.heads]
        with one_blas_thread:
            return {h: float(self.models.heads[h].probability(x).max()) for h in heads}


class Replies:
    """The assistant's answer to each person's turn of a batch, read only when a decision needs it."""

    def __init__(self, judge: SentenceJudge, turns: Sequence[Any]) -> None:
        self.judge = judge
        self.answers = {t.id: n.content for t, n in zip(turns, turns[1:], strict=False)
                        if t.role != "assistant" and n.role == "assistant" and n.session_id == t.session_id}
        self._read: dict[tuple[int, bool], dict[str, float] | None] = {}

    def says(self, turn: Any, head: str) -> bool:
        """The answer to `turn` takes it as `head` says (at that head's trained line)."""
        h = self.judge.head(head)
        p = self.probability(turn, head)
        return h is not None and p is not None and p >= h.threshold and not (
            head in GENERIC_SILENCES and self.generic(turn))

    def generic(self, turn: Any) -> bool:
        """The answer to `turn` opens with an acknowledgement any statement could get (`GENERIC_REPLY_HEAD`, when
        the models have it): it tells nothing of what the turn was."""
        h = self.judge.head(GENERIC_REPLY_HEAD)
        p = self.probability(turn, GENERIC_REPLY_HEAD) if h is not None else None
        return h is not None and p is not None and p >= h.threshold

    def answer(self, turn: Any) -> str | None:
        return self.answers.get(turn.id)

    def probability(self, turn: Any, head: str, whole: bool = False) -> float | None:
        """The reply head's probability for the answer to `turn` (its opening; with `whole`, anywhere in its first
        sentences); None when there is no answer (yet) to read."""
        if turn.id not in self.answers:
            return None
        if (turn.id, whole) not in self._read:
            self._read[turn.id, whole] = self.judge.reply(self.answers[turn.id], whole)
        scores = self._read[turn.id, whole]
        return None if scores is None else scores[head]


_OPENING = re.compile(r"(?<=[.!?])\s+")
_PARTS = re.compile(r"(?<=[.!?:])\s+|\n+")


def reply_parts(text: str, most: int = 6) -> list[str]:
    """An answer's first `most` sentences and lines, each at most 200 characters."""
    return [p.strip().lstrip("-•*·>").strip()[:200] for p in _PARTS.split(text.strip())[:most] if p.strip()]


def reply_opening(text: str) -> str:
    """An answer's first sentence, where an acknowledgement sits ("Nice, crossing that off. Next …"); at most 200
    characters, so a long answer costs one short embedding."""
    return _OPENING.split(text.strip(), maxsplit=1)[0][:200]


def same_family(model_id: str | None, trained_on: str) -> bool:
    """The bundled MiniLM in any of its builds (as shipped, int8, fused int8: cosine 0.9996 between them) is one
    embedder to the models; any other is not."""
    return model_id is not None and model_id.startswith(MINILM_FAMILY) and trained_on.startswith(MINILM_FAMILY)


def models_for(embedder: Any, path: str | None = None) -> Models | None:
    """The shipped models (or those at `path`) when `embedder` is of the family they were trained over."""
    models = None if embedder is None else load_models(path)
    if models is None or not same_family(getattr(embedder, "model_id", None), models.embedder_id):
        return None
    return models


def judge_for(embedder: Any, path: str | None = None) -> SentenceJudge | None:
    """The sentence judge for `embedder`, or None when there is none or the models were trained over another."""
    models = models_for(embedder, path)
    return None if models is None else SentenceJudge(models, embedder)


# --- pairs ------------------------------------------------------------------------------------------------------

class ThreadVectors:
    """Sessions' thread vectors (their episodes'), read once per consolidation run: how alike two sessions' threads
    are is evidence that a report in one is about a loop raised in the other."""

    def __init__(self, store: Any, user_id: str,
                 unsettled: dict[str, Callable[[], np.ndarray | None]] | None = None) -> None:
        """`unsettled`: for a session whose episode has no vector yet, how to read its thread from its turns."""
        self.store, self.user_id = store, user_id
        self.known: dict[str, np.ndarray | None] = {}
        self.unsettled = unsettled or {}

    def of(self, session_id: str) -> np.ndarray | None:
        if session_id not in self.known:
            episode = self.store.session_episode(self.user_id, session_id)
            found = self.store.episode_vector(episode.id) if episode is not None else None
            vec = None if found is None else np.asarray(found[0], np.float32)
            if vec is None and session_id in self.unsettled:
                vec = self.unsettled[session_id]()
            self.known[session_id] = vec
        return self.known[session_id]

    def cosine(self, a: str, b: str) -> float | None:
        va, vb = self.of(a), self.of(b)
        if va is None or vb is None or va.shape != vb.shape:
            return None
        return float(va @ vb / max(1e-9, float(np.linalg.norm(va) * np.linalg.norm(vb))))


# --- a sink for training: the pair features consolidation computes, with what they were computed on ---------

@dataclass
class PairRecord:
    head: str                   # closes | supersedes
    features: np.ndarray
    turn_ids: list[int]         # the deciding sentence's turn (closes) or the new fact's source turns (supersedes)
    other_ids: list[int]        # the loop's or the earlier fact's source turns
    group: str                  # one decision: the candidates of one sentence or one new fact
    text: str = ""              # the deciding sentence


_SINK: list[PairRecord] | None = None   # module-wide: consolidation may run on a worker thread
_SINK_LOCK = threading.Lock()


@contextmanager
def collecting() -> Iterator[list[PairRecord]]:
    """Within it, consolidation records every pair feature row it computes (`bench/train_consolidation.py`
    learns the pair models from real runs); the pair features are computed even when no pair model is loaded."""
    global _SINK
    with _SINK_LOCK:
        _SINK = []
        sink = _SINK
    try:
        yield sink
    finally:
        with _SINK_LOCK:
            _SINK = None


def recording() -> bool:
    return _SINK is not None


def record(head: str, rows: list[np.ndarray], turn_ids: list[int], others: list[list[int]], group: str,
           text: str = "") -> None:
    with _SINK_LOCK:
        if _SINK is not None:
            _SINK.extend(PairRecord(head, f, list(turn_ids), list(o), group, text)
                         for f, o in zip(rows, others, strict=True))
