"""Consolidation's work not redone must give what redoing it gave (issue 16, this round): each shortcut against the
plain computation it replaces, on random inputs, and the bench's row-for-row store comparison itself."""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from bench.consolidation_cost import compare_exports, export_store

from episodic_memory import Config, Memory
from episodic_memory.consolidate import durable, episodes, keyphrases, loops
from episodic_memory.consolidate.distinct import idf, profile_cosine, profile_weights, weighted_cosine
from episodic_memory.llm import RULES_ONLY
from episodic_memory.store.records import StoredTurn

from .fakes import HashingEmbedder

NAMES = ["Sarah", "Dev", "Maya", "Priya", "Tom", "Caroline", "Melanie"]
WORDS = ("the series b deck needs slides proposed airflow cutover monday budget plan signed lease berlin office "
         "wants said Sarah's Dev's with for and report tiles are slate now pottery class painted").split()


def _sentence(rng: random.Random) -> str:
    tokens = [rng.choice(WORDS + NAMES) for _ in range(rng.randint(2, 14))]
    return " ".join(tokens).capitalize() + rng.choice([".", "!", ", and more."])


def test_a_sentence_split_at_the_people_it_names_is_split_as_at_everyone() -> None:
    rng = random.Random(16)
    plain = keyphrases._sentence_phrases.__wrapped__   # type: ignore[attr-defined]
    for _ in range(400):
        sentence = _sentence(rng)
        people = frozenset(n.lower() for n in rng.sample(NAMES + ["series", "deck", "dev's"], rng.randint(0, 6)))
        assert keyphrases._sentence_phrases(sentence, keyphrases._run_words(sentence) & people) == plain(
            sentence, people)


def test_keyphrases_read_incrementally_are_what_reading_everything_gave(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    texts = [" ".join(_sentence(rng) for _ in range(rng.randint(1, 3))) for _ in range(40)]
    calls: list[tuple[int, list[str]]] = []
    for n in range(1, len(texts) + 1, 3):   # a growing session, read again at each run
        calls.append((n, NAMES[:2] if n < 20 else NAMES[:3]))   # a speaker joins halfway
        calls.append((n, NAMES[:2] if n < 20 else NAMES[:3]))   # a run with no new turn (the session's end)
    calls += [(10, NAMES[:2]), (40, []), (40, NAMES[:2])]        # shorter again, other names
    runs = [keyphrases.keyphrases(texts[:n], names=names) for n, names in calls]
    kept = keyphrases._TALLIES.get((texts[0], frozenset(n.lower() for n in NAMES[:2])))
    assert kept is not None and len(kept.texts) == 40   # the tallies were in use

    class Everyone:   # the code before this round: each sentence split at every person of the session, uncached
        def __and__(self, people: frozenset[str]) -> frozenset[str]:
            return people
    monkeypatch.setattr(keyphrases, "_run_words", lambda _sentence: Everyone())
    monkeypatch.setattr(keyphrases, "TALLIES_KEPT", 0)   # and every text read at every call
    monkeypatch.setattr(keyphrases, "_sentence_phrases", keyphrases._sentence_phrases.__wrapped__)  # type: ignore
    for (n, names), got in zip(calls, runs, strict=True):
        assert keyphrases.keyphrases(texts[:n], names=names) == got
    assert all(runs)


def _plain_profile_cosine(a: Mapping[str, float], b: Mapping[str, float], df: Mapping[str, int], n: int,
                          share: float) -> float:
    """profile_cosine as it was written before this round."""
    def weigh(p: Mapping[str, float]) -> dict[str, float]:
        return {t: (1 + math.log(x)) * w for t, x in p.items() if x >= 1 and (w := idf(t, df, n, share)) > 0}
    wa, wb = weigh(a), weigh(b)
    num = sum(x * wb.get(t, 0.0) for t, x in wa.items())
    na = math.sqrt(sum(x * x for x in wa.values()))
    nb = math.sqrt(sum(x * x for x in wb.values()))
    return num / (na * nb) if na and nb else 0.0


def test_profile_weights_give_the_very_floats_of_profile_cosine() -> None:
    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(60)]
    for _ in range(300):
        n = rng.randint(0, 40)
        df = {t: rng.randint(0, n + 2) for t in rng.sample(vocab, 40)}
        a = {t: rng.choice([0.5, 1.0, 2.0, 3.5, 7.0]) for t in rng.sample(vocab, rng.randint(0, 25))}
        b = {t: rng.choice([0.5, 1.0, 2.0, 9.0]) for t in rng.sample(vocab, rng.randint(0, 50))}
        share = rng.choice([0.05, 0.2, 0.5])
        expected = _plain_profile_cosine(a, b, df, n, share)
        assert profile_cosine(a, b, df, n, share) == expected   # exactly: the same floats, not close ones
        assert weighted_cosine(profile_weights(a, df, n, share), profile_weights(b, df, n, share)) == expected


def test_loop_stems_are_kept_per_text_and_handed_out_fresh() -> None:
    text = "I still need to send the signed lease to the landlord by Friday."
    plain = loops._loop_stems.__wrapped__(text)   # type: ignore[attr-defined]
    first = loops.loop_stems(text)
    assert first == set(plain) and "leas" in first
    first.add("mutated")
    assert loops.loop_stems(text) == set(plain)
    turn = StoredTurn(1, "u", "s", 1, "user", "I sent the lease. I booked the movers too.", 0.0, 0.0, "Maya", None)
    done = loops.done_statements(turn, None)
    assert len(done) == 2 and done[0].context == done[1].context
    done[0].context.add("mutated")
    assert "mutated" not in done[1].context   # each statement's context is its own set


def test_the_extractive_summary_scores_no_salient_turns_for_an_llm_it_does_not_have(
        monkeypatch: pytest.MonkeyPatch) -> None:
    turns = [StoredTurn(i, "u", "s", i, "user", text, float(i), float(i), "Maya", None) for i, text in enumerate([
        "We decided to move the offsite to Lisbon in May.", "The budget for the offsite is 4000 euros now.",
        "Priya will book the venue by Friday."])]
    expected = episodes.extractive_summary(turns, [], 3)

    def fail(*_: object) -> list[StoredTurn]:
        raise AssertionError("salient turns scored without an LLM")
    monkeypatch.setattr(episodes, "salient_turns", fail)
    assert episodes.summarize(RULES_ONLY, turns, [], 3) == expected


def test_the_exemplar_vote_multiplies_on_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    entered: list[int] = []

    @contextlib.contextmanager
    def counting() -> Iterator[None]:
        entered.append(1)
        yield
    monkeypatch.setattr(durable, "one_blas_thread", counting())
    vote = durable.ExemplarVote(HashingEmbedder(model_id="hashing-vote-test"), k=3)
    margins = vote.margins(["I moved to Berlin in March.", "hi!", "Can you write me a poem?"] * 5)
    assert margins.shape == (15,) and entered == [1]


def test_the_store_comparison_finds_a_changed_fact(tmp_path: object) -> None:
    import pathlib

    root = pathlib.Path(str(tmp_path))
    exports = []
    for name, city in (("a", "Berlin"), ("b", "Berlin"), ("c", "Lisbon")):
        with Memory(root / f"{name}.db", config=Config(capture={"consolidate_in_background": "off"}),
                    embedder=HashingEmbedder()) as mem:
            mem.add_turn("user", f"I moved to {city} last March with my partner.", session_id="s1",
                         timestamp="2026-03-01T10:00:00Z")
            mem.add_turn("user", "My sister Priya is visiting next weekend.", session_id="s1",
                         timestamp="2026-03-01T10:01:00Z")
            mem.end_session("s1")
        exports.append(export_store(str(root / f"{name}.db")))
    same = compare_exports(exports[0], exports[1])
    assert all(v.startswith("same") for v in same.values()) and int(same["facts"].split("(")[1].split()[0]) > 0
    differs = compare_exports(exports[0], exports[2])
    assert differs["facts"].startswith("DIFFERENT")


def test_the_bench_replays_the_vectors_a_run_computed_bit_for_bit(tmp_path: Path) -> None:
    """`consolidation_cost.py --replay` (issue 45): the vectors a recording run's model computed, read back in
    place of the model: the same bits, and the model not run for them (a text it never saw still is)."""
    import pickle

    import numpy as np
    from bench.consolidation_cost import replay_model

    from episodic_memory.models.base import VectorCaches

    class Model(VectorCaches):
        model_id, dim = "hashing-8", 8

        def __init__(self) -> None:
            self._init_caches(0, 0)
            self.runs: list[str] = []

        def _embed_texts(self, texts: list[str]) -> np.ndarray:
            self.runs.extend(texts)
            return np.random.default_rng(len(self.runs)).random((len(texts), self.dim), np.float32)

    path = tmp_path / "vectors.pickle"
    recording = Model()
    seen = replay_model(recording, path, replay=False)
    first = recording.embed(["a", "b", "a"])
    assert seen is not None and recording.runs == ["a", "b"] and np.array_equal(first[0], first[2])
    path.write_bytes(pickle.dumps(seen))
    replaying = Model()
    replay_model(replaying, path, replay=True)
    again = replaying.embed_once(["b", "a"])
    assert replaying.runs == [] and again.tobytes() == first[[1, 0]].tobytes()
    assert replaying.embed(["c"]).shape == (1, 8) and replaying.runs == ["c"]
