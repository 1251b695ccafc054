"""Consolidation made cheaper must say the same (issue 16): the incremental novelty gate scores as the plain one,
memoised word helpers hand out fresh lists, and an episode's summary is embedded only when its vector is stored."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from episodic_memory import Config, Memory
from episodic_memory.consolidate import learned
from episodic_memory.consolidate.gate import NoveltySample, novelty
from episodic_memory.consolidate.keyphrases import content_stems, keyphrases, sentences, words
from episodic_memory.models.base import VectorCaches
from episodic_memory.models.ids import FUSED_MODEL_ID

from .fakes import HashingEmbedder, play_session

WORDS = ("the series b deck needs 12 slides dev proposed airflow cutover monday november maya budget €4,000 q3 "
         "plan signed lease berlin office").split()


def test_the_incremental_novelty_sample_scores_exactly_as_the_plain_gate() -> None:
    rng = random.Random(16)

    def text() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 14)))

    for _ in range(60):
        plain = [text() for _ in range(rng.randint(0, 40))]
        sample = NoveltySample(plain)
        plain = list(plain)
        for _ in range(5):
            candidate = text()
            assert sample.novelty(candidate) == novelty(candidate, plain)
            # the text just scored, appended, makes the body the size it was scored with (not compressed again);
            # another text, or two, does not
            appended = {0: [candidate], 1: [text()], 2: [candidate, text()]}.get(rng.randrange(4), [])
            for t in appended:
                sample.append(t)
                plain.append(t)
    assert NoveltySample().novelty("anything at all") == 1.0


def test_memoised_word_helpers_hand_out_lists_of_their_own() -> None:
    text = "Dev proposed the Airflow cutover. The cutover is Monday!"
    first = content_stems(text)
    first.append("mutated")
    assert content_stems(text) == [s for s in first if s != "mutated"]
    parts = sentences(text)
    parts.clear()
    assert sentences(text) == ["Dev proposed the Airflow cutover.", "The cutover is Monday!"]
    tokens = words(text)
    tokens.pop()
    assert words(text)[-1] == "Monday"
    stated = ["Sarah's deck for the Series B needs work.", "The Series B deck is due Friday.", "Sarah wants charts."]
    assert keyphrases(stated, names=["Sarah"]) == keyphrases(list(stated), names=["Sarah"])
    assert keyphrases(stated)[0][1] == "series b deck"


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return super().embed(texts)


def test_an_episode_summary_is_embedded_only_when_its_recall_vector_is_written() -> None:
    embedder = CountingEmbedder()
    turns = ["We decided the Skylark launch slips to March because the vendor missed two deliveries.",
             "Priya signed the Berlin office lease for three years at 4,200 euros a month.",
             "The Airflow cutover is Monday 30 November, cron goes off that morning.",
             "Our churn report shows enterprise accounts renewing at 94 percent this quarter.",
             "Dev will rewrite the pricing page copy before the board meeting.",
             "The security audit found two expired certificates on the staging cluster.",
             "Marco booked the offsite venue near Lisbon for the second week of May.",
             "Hiring plan: two backend engineers and one designer before summer.",
             "The partner contract with Vantage Foods renews automatically unless cancelled in June.",
             "Series B deck needs twelve slides and a clearer revenue chart.",
             "Legal wants the privacy policy updated for the new analytics vendor.",
             "Customer support moved to a follow-the-sun rota across three time zones."]
    with Memory(":memory:", config=Config(capture={"consolidate_every": 4, "consolidate_in_background": "off"}), embedder=embedder) as mem:
        summaries: list[str] = []
        written: list[int] = []
        upsert, write = mem.store.upsert_episode, mem.store.set_recall_vector

        def recording_upsert(new: Any) -> Any:
            summaries.append(new.summary)
            return upsert(new)

        def counting_write(episode: Any, model: str, vec: bytes) -> None:
            written.append(episode.id)
            write(episode, model, vec)

        mem.store.upsert_episode = recording_upsert  # type: ignore[method-assign]
        mem.store.set_recall_vector = counting_write  # type: ignore[method-assign]
        play_session(mem, "s1", turns, end=False)   # three runs: the first writes the vector, the others do not
        assert len(summaries) == 3
        assert len(written) == 1
        assert sum(t in summaries for t in embedder.texts) == 1   # it was one summary embedded per run
        mem.end_session("s1")
        [final] = mem.episodes()
        assert mem.store.has_recall_vector(final.id, embedder.model_id)
        assert sum(t in summaries for t in embedder.texts) == len(written) <= 2


class ComputedOnce(VectorCaches):
    """A MiniLM-family embedder (so the learned models read its vectors) of hashed words, behind the bundled
    embedders' text cache; counts the texts its model computes for `embed` (`embed_once`, the indexer's, apart)."""

    model_id = FUSED_MODEL_ID

    def __init__(self) -> None:
        self.dim = 384
        self._init_caches(64, 4096)
        self.hashing = HashingEmbedder(dim=self.dim)
        self.computed: Counter[str] = Counter()
        self.asked: list[str] = []
        self.once: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.asked.extend(texts)
        return super().embed(texts)

    def _embed_texts(self, texts: list[str]) -> np.ndarray:
        self.computed.update(texts)
        return self.hashing.embed(texts)

    def embed_once(self, texts: Sequence[str]) -> np.ndarray:
        self.once.extend(texts)
        return self.hashing.embed(list(texts))

    def _embed_query_text(self, text: str) -> np.ndarray:
        return self.hashing.embed([text])[0]


def test_consolidation_computes_each_text_once_whatever_steps_ask_it() -> None:
    """Facts, loops, episodes and the learned models ask the embedder for the same sentences many times a run
    (issue 45: ~17 texts a LoCoMo turn asked, ~3.5 computed): the text cache computes each once, across steps and
    runs; the turns the indexer embeds leave it as it was."""
    embedder = ComputedOnce()
    lines = ["I decided to move the Skylark launch to March. The vendor missed two deliveries.",
             "> Noted, March it is.",
             "I need to send the revised deck to Sarah by Friday.",
             "> I'll remind you.",
             "Priya signed the Berlin office lease for three years. It costs 4,200 euros a month.",
             "Actually the launch is in April now, not March.",
             "> Got it, April.",
             "I sent the deck to Sarah this morning. The cutover is Monday."]
    cfg = Config(capture={"consolidate_every": 3, "consolidate_in_background": "off"})
    with Memory(":memory:", config=cfg, embedder=embedder) as mem:
        play_session(mem, "s1", lines)
        play_session(mem, "s2", lines[4:] + lines[:4], day=1)
        assert mem.facts() and mem.episodes()
    assert learned.judge_for(embedder) is not None   # the learned models were in play (same family)
    assert embedder.once and len(embedder.computed) > len(lines)   # the steps asked for texts of their own …
    assert "I need to send the revised deck to Sarah by Friday." in embedder.computed   # (sentences, frames)
    assert len(embedder.asked) > 3 * len(embedder.computed)   # … most of them many times
    assert [t for t, n in embedder.computed.items() if n > 1] == []   # and each was computed once
