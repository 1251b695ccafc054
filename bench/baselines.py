"""Baseline retrievers over raw turns (one document per turn, text "speaker: text")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from bench.datasets import Conversation


@dataclass
class RetrievedHit:
    source_ids: list[str]
    text: str
    score: float
    kind: str = "turn"


class Retriever(Protocol):
    name: str

    def index(self, conv: Conversation) -> None: ...

    def search(self, query: str, k: int) -> list[RetrievedHit]: ...

    def close(self) -> None: ...


def turn_documents(conv: Conversation) -> tuple[list[str], list[str]]:
    ids, texts = [], []
    for turn in conv.turns():
        ids.append(turn.turn_id)
        texts.append(f"{turn.speaker}: {turn.text}")
    return ids, texts


class BM25sBaseline:
    """bm25s (Lucene BM25, k1=1.5, b=0.75) over raw turns; English stopwords removed, no stemming."""

    name = "bm25s"

    def __init__(self, stopwords: str | None = "en", stemmer: Any = None) -> None:
        import bm25s

        self._bm25s = bm25s
        self._stopwords = stopwords
        self._stemmer = stemmer
        self._ids: list[str] = []
        self._texts: list[str] = []

    def index(self, conv: Conversation) -> None:
        from bm25s.tokenization import Tokenizer

        self._ids, self._texts = turn_documents(conv)
        self._tokenizer = Tokenizer(stopwords=self._stopwords, stemmer=self._stemmer)
        corpus = self._tokenizer.tokenize(
            self._texts, update_vocab=True, return_as="ids", show_progress=False
        )
        self._retriever = self._bm25s.BM25()
        self._retriever.index(corpus, show_progress=False)

    def search(self, query: str, k: int) -> list[RetrievedHit]:
        tokens = self._tokenizer.tokenize([query], update_vocab=False, return_as="ids", show_progress=False)
        docs, scores = self._retriever.retrieve(tokens, k=min(k, len(self._ids)), show_progress=False)
        return [
            RetrievedHit([self._ids[d]], self._texts[d], float(s))
            for d, s in zip(docs[0], scores[0], strict=True)
            if s > 0  # zero score = no query term matched; a real index would not return it
        ]

    def close(self) -> None:
        pass


def load_default_embedder() -> Any:
    """The embedder the library is configured with (EPISODIC_MODELS__EMBEDDER; the bundled MiniLM by default)."""
    from episodic_memory import Config
    from episodic_memory.models.embedder import load_embedder

    return load_embedder(Config.from_env().models.embedder)


class DenseBaseline:
    """Cosine similarity between the query and each raw turn, using the embedder the library is configured with."""

    name = "dense"

    def __init__(self, embedder: Any = None) -> None:
        self._embedder = embedder if embedder is not None else load_default_embedder()
        self._ids: list[str] = []
        self._texts: list[str] = []
        self._matrix = np.zeros((0, 0), dtype=np.float32)

    def index(self, conv: Conversation) -> None:
        self._ids, self._texts = turn_documents(conv)
        self._matrix = np.asarray(self._embedder.embed(self._texts), dtype=np.float32)

    def search(self, query: str, k: int) -> list[RetrievedHit]:
        q = np.asarray(self._embedder.embed_query(query), dtype=np.float32)
        scores = self._matrix @ q
        top = np.argsort(-scores, kind="stable")[:k]
        return [RetrievedHit([self._ids[i]], self._texts[i], float(scores[i])) for i in top]

    def close(self) -> None:
        pass



_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"  # kana, Han, Hangul syllables
_CJK_RUN = re.compile(f"[{_CJK}]+")
_CJK_OR_WORD = re.compile(f"[{_CJK}]+|(?:(?![{_CJK}])[^\\W_])+")


def bigram_tokens(text: str, stopwords: frozenset[str] = frozenset()) -> list[str]:
    """Each run of Han, kana or Hangul as its overlapping character pairs (a lone character as itself); every other
    word lower-cased, `stopwords` dropped."""
    out: list[str] = []
    for m in _CJK_OR_WORD.finditer(text):
        part = m.group()
        if _CJK_RUN.fullmatch(part):
            out.extend([part] if len(part) == 1 else [part[i : i + 2] for i in range(len(part) - 1)])
        elif part.lower() not in stopwords:
            out.append(part.lower())
    return out


class BigramBM25sBaseline:
    """bm25s over character bigrams (`bigram_tokens`), English stopwords removed: the usual lexical baseline for
    text without spaces between words. Written here on its own, not through the library's `store.scripts`."""

    name = "bm25s-bigrams"

    def __init__(self) -> None:
        import bm25s
        from bm25s.stopwords import STOPWORDS_EN

        self._bm25s = bm25s
        self._stop = frozenset(STOPWORDS_EN)
        self._ids: list[str] = []
        self._texts: list[str] = []

    def index(self, conv: Conversation) -> None:
        self._ids, self._texts = turn_documents(conv)
        self._retriever = self._bm25s.BM25()
        self._retriever.index([bigram_tokens(t, self._stop) or [""] for t in self._texts], show_progress=False)

    def search(self, query: str, k: int) -> list[RetrievedHit]:
        vocab = self._retriever.vocab_dict
        tokens = [t for t in bigram_tokens(query, self._stop) if t in vocab]
        if not tokens:
            return []
        docs, scores = self._retriever.retrieve([tokens], k=min(k, len(self._ids)), show_progress=False)
        return [RetrievedHit([self._ids[d]], self._texts[d], float(s)) for d, s in zip(docs[0], scores[0], strict=True)
                if s > 0]

    def close(self) -> None:
        pass
