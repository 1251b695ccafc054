"""The learned ranker (retrieve/ranker.py) and list-question coverage (retrieve/coverage.py), issue 17."""

from __future__ import annotations

import json
from datetime import datetime
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from episodic_memory import Config, Memory
from episodic_memory.retrieve.coverage import diversify, is_list_question
from episodic_memory.retrieve.ranker import (
    FEATURES,
    FIXED,
    INDEX,
    LearnedRanker,
    RankerWeightsError,
    load_ranker,
)
from episodic_memory.retrieve.retriever import RecallFilters

# The order of the hand-set scoring (as at aec4e02, before the learned ranker, but for currency's narrower slots:
# "28-person startup" is no longer superseded by "all 15 jobs"), on the shipped sample conversation,
# recalled at a fixed moment: Config.retrieval.ranker = "fused" must keep it.
FUSED_AT_AEC4E02 = {
    'Where is Lumen Analytics based?': ['fact:1', 'turn:14', 'turn:32', 'turn:31', 'turn:54', 'turn:13', 'turn:22', 'turn:20'],
    'How many people work at the startup?': ['fact:2', 'fact:47', 'turn:23', 'turn:2', 'turn:24', 'turn:49', 'fact:36', 'turn:22'],
    'What did Maya decide about the Series B?': ['turn:3', 'fact:20', 'turn:4', 'turn:21', 'turn:15', 'turn:22', 'episode:1', 'turn:23'],
    'When is the board meeting?': ['fact:48', 'turn:26', 'fact:40', 'turn:24', 'turn:23', 'episode:2', 'turn:44', 'turn:46'],
    'What does Maya prefer for reports?': ['fact:9', 'turn:6', 'turn:9', 'turn:15', 'fact:1', 'turn:37', 'turn:39', 'turn:2'],
    'Who is the co-founder?': ['fact:1', 'turn:14', 'turn:54', 'turn:13', 'turn:31', 'turn:22', 'turn:2', 'fact:40'],
    'what about hiring': ['turn:8', 'fact:12', 'episode:1', 'turn:9', 'fact:36', 'fact:54', 'turn:34', 'fact:47'],
    'pricing change for customers': ['turn:38', 'fact:23', 'turn:8', 'fact:50', 'turn:22', 'fact:29', 'turn:20', 'fact:11']
}
NOW = datetime.fromisoformat("2026-12-01T00:00:00+00:00").timestamp()


def _sample_memory(path: Path, **config: object) -> Memory:
    mem = Memory(path, config=Config(capture={"consolidate_in_background": "off"}, **config))  # type: ignore[arg-type]
    text = resources.files("episodic_memory").joinpath("data/sample_conversation.jsonl").read_text(encoding="utf-8")
    sessions: list[str] = []
    for line in text.splitlines():
        t = json.loads(line)
        mem.add_turn(t["role"], t["content"], session_id=t["session_id"], speaker=t.get("speaker"),
                     timestamp=t["timestamp"], turn_id=t["id"])
        sessions += [t["session_id"]] if t["session_id"] not in sessions else []
    for session in sessions:
        mem.end_session(session)
    mem.index()
    return mem


def _ranked(mem: Memory, query: str, k: int = 8) -> list[str]:
    return [h.id for h in mem.retriever.recall(query, k, RecallFilters(user_id=mem.user_id), now=NOW)]


def test_shipped_weights_load_and_validate() -> None:
    model = load_ranker()
    assert model is load_ranker()  # read once per process
    assert model.mean.shape == model.std.shape == (len(FEATURES),)
    assert model.scale > 0 and (model.std > 0).all()
    assert set(model.meta["trained_on"]["datasets"]) == {"locomo", "beam"}
    cv = model.meta["cv"]["per_dataset"]
    assert set(cv) == {"locomo", "beam"} and all(0 < cv[d]["learned"] <= 1 for d in cv)
    if model.hidden is None:  # the features it cannot learn are left to their hand-set weights
        assert all(model.weights[INDEX[name]] == 0 for name in FIXED)


def test_model_prefers_what_every_leg_found_first() -> None:
    model = load_ranker()
    x = np.zeros((2, len(FEATURES)))
    strong = {"fused": 1.0, "fused_rel": 1.0, "rrf_bm25": 1.0, "rrf_dense": 1.0, "log_bm25": 1.0, "log_dense": 1.0,
              "bm25_rel": 1.0, "sim": 0.7, "sim_gap": 0.0, "legs": 2, "session": 1.0, "session_rank": 1.0}
    weak = {"fused": 0.2, "fused_rel": 0.2, "rrf_dense": 0.4, "log_dense": 0.3, "sim": 0.3, "sim_gap": 0.4,
            "legs": 1, "session": 0.2, "session_rank": 0.2}
    for row, values in enumerate((strong, weak)):
        for name, value in values.items():
            x[row, INDEX[name]] = value
    first, second = model.score(x, Config())
    assert first > second


def test_learned_ranker_puts_the_planted_answer_first(tmp_path: Path) -> None:
    mem = Memory(tmp_path / "m.db", config=Config(capture={"consolidate_in_background": "off"}, retrieval={"ranker": "learned"}))
    distractors = [
        "We watched a documentary about Canadian wildlife last night",
        "My sister sent me photos from her garden, the tomatoes are huge this year",
        "The train to the airport was delayed again this morning",
        "I still need to renew my passport before the summer",
        "Work has been hectic, three deadlines in one week",
        "I tried a new recipe for maple pancakes on Sunday",
    ]
    for i, text in enumerate(distractors):
        mem.add_turn("user", text, session_id=f"s{i}", speaker="Ana")
        mem.add_turn("assistant", "That sounds like quite a week.", session_id=f"s{i}")
    mem.add_turn("user", "Big news: my sister Priya moved to Montreal for her new job at the hospital",
                 session_id="planted", speaker="Ana")
    hits = mem.recall("Where did Ana's sister move?", k=5)
    assert hits and "Montreal" in hits[0].text
    mem.close()


def test_fused_reproduces_the_hand_set_ordering(tmp_path: Path) -> None:
    assert Config().retrieval.ranker == "learned"  # the default since the truth bench holds with it (docs/retrieval.md)
    # the pin holds the facts the rules made of the sample then (their ids); the learned consolidation makes others
    mem = _sample_memory(tmp_path / "m.db", retrieval={"ranker": "fused"}, experimental={"list_coverage": False}, consolidation={"learned": False})
    try:
        # The pin was taken on a CPU with int8 dot-product instructions (VNNI); where they are missing (AVX2 only)
        # the embedder's arithmetic rounds differently and near-ties among the top 8 swap: 5 of the 8 pinned
        # queries moved by one or two places there, and in two of them one hit changed. So: the same hits but at
        # most one, each within two places of its pinned one (a change to the hand-set scoring moves more).
        for query, pinned in FUSED_AT_AEC4E02.items():
            got = _ranked(mem, query)
            assert len(set(got) & set(pinned)) >= len(pinned) - 1, (query, got)
            assert all(abs(got.index(h) - pinned.index(h)) <= 2 for h in set(got) & set(pinned)), (query, got)
    finally:
        mem.close()


def test_learned_ranking_keeps_every_kind(tmp_path: Path) -> None:
    mem = _sample_memory(tmp_path / "m.db", retrieval={"ranker": "learned"})
    try:
        kinds = {h.split(":")[0] for q in FUSED_AT_AEC4E02 for h in _ranked(mem, q)}
        assert {"turn", "fact", "episode"} <= kinds
        assert [h.kind for h in mem.recall("board meeting", kind="fact", k=3)] == ["fact"] * 3
    finally:
        mem.close()


@pytest.mark.parametrize("content", ["{not json", json.dumps({"format": 1, "features": ["fused"]}),
                                     json.dumps([1, 2]), None])
def test_bad_weights_file_is_a_clear_error(tmp_path: Path, content: str | None) -> None:
    weights = tmp_path / "weights.json"
    if content is not None:
        weights.write_text(content, encoding="utf-8")
    mem = Memory(tmp_path / "m.db", config=Config(capture={"consolidate_in_background": "off"}, retrieval={"ranker": "learned", "ranker_path": str(weights)}))
    mem.add_turn("user", "the garden needs watering", session_id="s")
    with pytest.raises(RankerWeightsError, match="weights.json"):
        mem.recall("garden")
    mem.close()


def test_weights_of_the_wrong_shape_are_refused() -> None:
    good = {"format": 1, "features": list(FEATURES), "mean": [0.0] * len(FEATURES), "std": [1.0] * len(FEATURES),
            "weights": [0.1] * len(FEATURES), "bias": 0.0}
    assert isinstance(LearnedRanker.from_dict(good, "x.json"), LearnedRanker)
    for bad in ({**good, "weights": [0.1]}, {**good, "std": [0.0] * len(FEATURES)},
                {**good, "features": list(reversed(FEATURES))}, {**good, "format": 99},
                {**good, "hidden": [[0.1]], "hidden_bias": [0.0]}):
        with pytest.raises(RankerWeightsError, match="x.json"):
            LearnedRanker.from_dict(bad, "x.json")


@pytest.mark.parametrize("question", [
    "Which cities has Jon visited?", "What activities does Melanie partake in?", "What are Caroline's hobbies?",
    "What kinds of books does she read?", "What books has Melanie read?", "In what ways is Jon helping the team?",
    "What are some of the tools we use for deployment?",
])
def test_list_questions_are_detected(question: str) -> None:
    assert is_list_question(question)


@pytest.mark.parametrize("question", [
    "What is Caroline's job?", "When did Melanie paint a sunrise?", "Where does Jon live?",
    "What does Melanie think of this?", "What was the status of the migration?", "How long has she been running?",
])
def test_other_questions_are_not_list_questions(question: str) -> None:
    assert not is_list_question(question)


def test_diversify_lets_a_new_session_overtake_near_duplicates() -> None:
    score = np.array([1.0, 0.97, 0.95, 0.9, 0.5])
    sessions = {0: "a", 1: "a", 2: "a", 3: "b", 4: "c"}
    tier = np.zeros(5, np.int64)
    cfg = Config(experimental={"coverage_penalty": 0.1, "coverage_pool": 30})
    assert diversify([0, 1, 2, 3, 4], sessions, score, tier, cfg) == [0, 3, 1, 2, 4]
    assert diversify([0, 1, 2, 3, 4], sessions, score, tier, Config(experimental={"coverage_penalty": 0.0})) == [0, 1, 2, 3, 4]
    assert diversify([0, 1, 2, 3, 4], sessions, score, tier, Config(experimental={"coverage_penalty": 0.1, "coverage_pool": 2})
                     ) == [0, 1, 2, 3, 4]  # only the pool is re-picked
    tier[2] = 1  # an exact lookup's holder stays above everything
    assert diversify([2, 0, 1, 3, 4], sessions, score, tier, cfg)[0] == 2
    assert diversify([0, 1, 2, 3, 4], {}, score, np.zeros(5, np.int64), cfg) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("dense", [{"models.embedder": "off"}, {"retrieval.dense_floor": 1.01}],
                         ids=["no-embedder", "none-over-floor"])
def test_without_the_dense_leg_the_hand_set_scores_stand(tmp_path: Path, dense: dict[str, object]) -> None:
    """The model was fitted on recalls where both legs found turns: with no embedder, or nothing over the dense
    floor, its inputs are unlike anything it saw (a turn found by BM25 alone lost to a derived memory's hand-set
    score), so the hand-set scores are used."""
    texts = ["王总的手机号是13910237788请帮我存一下", "I need to buy milk and eggs tomorrow.",
             "Meeting with 王总 at 国贸 about the APP launch"]
    scores = {}
    for ranker in ("fused", "learned"):
        with Memory(tmp_path / f"{ranker}.db", config=Config(capture={"consolidate_in_background": "off"}, retrieval={"ranker": ranker}).replace(dense)) as mem:
            for i, text in enumerate(texts):
                mem.add_turn("user", text, session_id="s1", turn_id=f"t{i}")
            scores[ranker] = [(h.text, h.score) for h in mem.recall("王总的电话", k=5)]
    assert [t for t, _ in scores["learned"]] == [t for t, _ in scores["fused"]]
    # the same hand-set scores (recency moves by ~1e-8 between the two stores' recalls)
    assert [s for _, s in scores["learned"]] == pytest.approx([s for _, s in scores["fused"]], abs=1e-6)
    assert scores["learned"][0][0] == texts[0]
