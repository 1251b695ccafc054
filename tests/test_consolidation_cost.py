"""Consolidation made cheaper must say the same (issue 16): the incremental novelty gate scores as the plain one,
memoised word helpers hand out fresh lists, and an episode's summary is embedded only when its vector is stored."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from episodic_memory import Config, Memory
from episodic_memory.consolidate.gate import NoveltySample, novelty
from episodic_memory.consolidate.keyphrases import content_stems, keyphrases, sentences, words

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
