"""Standing instructions reach the recalls they apply to, however long the history (retrieve/standing.py)."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from episodic_memory import Config, Memory
from episodic_memory.models.embedder import load_embedder

standing = importlib.import_module("episodic_memory.retrieve.standing")

pytestmark = pytest.mark.both_backends

INSTRUCTION = "Always include version numbers when I ask about software dependencies."
REQUEST = "What packages should I add to requirements.txt for YAML parsing?"


@pytest.mark.parametrize(("text", "scope"), [
    (INSTRUCTION, "software dependencies"),
    ("Whenever we discuss the quarterly budget, show the numbers in a table.", "the quarterly budget"),
    ("If I'm working on the Rust parser, remind me to run clippy before committing.", "the Rust parser"),
    ("When it comes to travel plans, always list train options before flights.", "travel plans"),
    ("Please answer in Spanish whenever cooking comes up.", "cooking"),
    ("Never use semicolons in JavaScript examples.", "JavaScript"),
    ("For SQL questions, explain the query plan too.", "SQL"),
    ("When I ask you about my health, keep it short.", "my health"),
    ("Any time I mention my garden, ask how the tomatoes are doing.", "my garden"),
    ("Always answer in German.", None),
    ("I prefer short answers.", None),
    ("I love hiking in the Alps.", None),
])
def test_the_scope_an_instruction_names_is_read(text: str, scope: str | None) -> None:
    assert standing.scope_of(text) == scope


@pytest.mark.parametrize(("text", "instruction"), [
    ("Always answer in German.", True),
    ("Please never use semicolons in examples.", True),
    ("Don't use emojis.", True),
    ("So, from now on keep it brief.", True),
    ("Whenever we discuss the budget, show a table.", True),
    ("I love hiking in the Alps.", False),
    ("Harry Potter is my favourite book.", False),
    ("I prefer tea to coffee.", False),
    ("Always been curious about other cultures.", False),
    ("Never saw this coming.", False),
    ("Never used semicolons in JavaScript.", False),
    ("Never use semicolons in JavaScript.", True),
])
def test_an_instruction_tells_the_assistant_what_to_do(text: str, instruction: bool) -> None:
    assert standing.is_instruction(text) is instruction


def test_a_standing_instruction_takes_a_place_just_inside_the_top_k() -> None:
    scores = np.asarray([5.0, 4.0, 3.0, 2.0, 1.0, 0.1], np.float64)
    valid = np.ones(6, bool)
    standing.place_standing(scores, valid, [5], k=3)
    assert np.argsort(-scores)[:3].tolist() == [0, 1, 5]  # above the third of the others, below the first two
    scores = np.asarray([5.0, 0.1], np.float64)
    standing.place_standing(scores, np.ones(2, bool), [1], k=3)  # fewer candidates than k: in the top k already
    assert scores.tolist() == [5.0, 0.1]


def _crowded(mem: Memory) -> None:
    """The instruction, said once, then a long history about Python libraries: many turns nearer the request than
    the instruction is, so the legs' pools fill without it."""
    mem.add_turn("user", INSTRUCTION, session_id="rules", timestamp="2026-01-05T10:00:00Z")
    mem.add_turn("assistant", "Noted: version numbers with every dependency.", session_id="rules",
                 timestamp="2026-01-05T10:00:05Z")
    mem.end_session("rules")
    topics = ["YAML parsing", "JSON schema validation", "HTTP clients", "Python packaging", "config files",
              "parser errors", "service logging", "Python type hints", "TOML versus YAML", "async services"]
    for s in range(24):
        sid = f"work-{s}"
        for t in range(10):
            topic = topics[(s + t) % len(topics)]
            mem.add_turn("user", f"For the Python service, how should we handle {topic} in module {s}-{t}?",
                         session_id=sid, timestamp=f"2026-02-{1 + s % 27:02d}T{8 + t:02d}:00:00Z")
        mem.end_session(sid)
    mem.wait_for_consolidation()


def _rank_of_instruction(mem: Memory, request: str, **options: object) -> int | None:
    hits = mem.recall(request, k=10, **options)
    return next((i for i, h in enumerate(hits) if "version numbers" in h.text and h.kind == "fact"), None)


@pytest.fixture(scope="module")
def embedder():
    return load_embedder("default")


def test_an_instruction_reaches_a_request_on_its_topic_in_a_long_history(db_path: Path | str, embedder) -> None:
    with Memory(db_path, embedder=embedder) as mem:
        _crowded(mem)
        found = _rank_of_instruction(mem, REQUEST)
        assert found is not None
    # without the look at every standing instruction (only what a leg found, as before), it is not there
    with Memory(db_path, embedder=embedder, config=Config(retrieval={"standing_limit": 0})) as mem:
        assert _rank_of_instruction(mem, REQUEST) is None


def test_an_instruction_stays_out_of_requests_it_does_not_govern(db_path: Path | str, embedder) -> None:
    with Memory(db_path, embedder=embedder) as mem:
        _crowded(mem)
        assert _rank_of_instruction(mem, "What did my sister say about her trip to Porto?") is None


def test_a_recall_narrowed_to_a_session_or_a_time_leaves_standing_instructions_to_the_legs(
        db_path: Path | str, embedder) -> None:
    with Memory(db_path, embedder=embedder) as mem:
        _crowded(mem)
        assert _rank_of_instruction(mem, REQUEST, session_id="work-3") is None
        assert _rank_of_instruction(mem, REQUEST, since="2026-02-01T00:00:00Z") is None


def test_a_forgotten_instruction_is_gone_from_recall_and_from_memory(db_path: Path | str, embedder) -> None:
    with Memory(db_path, embedder=embedder) as mem:
        _crowded(mem)
        assert _rank_of_instruction(mem, REQUEST) is not None
        assert mem.retriever.standing._held  # read and kept
        mem.forget(session_id="rules")
        assert not mem.retriever.standing._held  # a forget empties what every process-level cache holds of it
        assert _rank_of_instruction(mem, REQUEST) is None
        assert all(INSTRUCTION not in f.text for f in mem.store.facts(mem.user_id, include_superseded=True))


def test_a_liking_is_not_brought_in_from_outside_the_legs(db_path: Path | str, embedder) -> None:
    """What someone likes is about them, not about how to answer: it keeps to what the legs find (brought in from
    outside them with the standing bonus, "my favourite book is …" outranked the turns that answered)."""
    with Memory(db_path, embedder=embedder) as mem:
        mem.add_turn("user", "I love YAML, it is my favourite config format.", session_id="likes",
                     timestamp="2026-01-05T10:00:00Z")
        mem.end_session("likes")
        _crowded(mem)
        facts = mem.store.facts(mem.user_id, types=["preference"])
        liking = next(f for f in facts if "favourite config format" in f.text)
        query = embedder.embed_query(REQUEST)
        matched = {m.fact_id for m in mem.retriever.standing.match(mem.user_id, query, embedder)}
        assert liking.id not in matched
        assert any("version numbers" in f.text for f in facts if f.id in matched)


def test_a_corrected_instruction_still_applies(db_path: Path | str, embedder) -> None:
    """A corrected instruction is filed as a correction fact; it is still a standing instruction."""
    with Memory(db_path, embedder=embedder) as mem:
        _crowded(mem)
        mem.add_turn("user", "Actually, include licence names instead of version numbers when I ask about software "
                     "dependencies.", session_id="fix", timestamp="2026-03-01T10:00:00Z")
        mem.end_session("fix")
        mem.wait_for_consolidation()
        hits = mem.recall(REQUEST, k=10)
        assert any("licence names" in h.text and h.kind == "fact" for h in hits)


def test_only_instructions_are_held_for_the_users_who_recalled_last(tmp_path: Path, embedder,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(standing.StandingFacts, "USERS_HELD", 2)
    with Memory(tmp_path / "m.db", embedder=embedder) as mem:
        for user in ("ana", "ben", "cyd"):
            mem.add_turn("user", INSTRUCTION, session_id=f"{user}-rules", user_id=user)
            mem.add_turn("user", "I love YAML, it is my favourite config format.", session_id=f"{user}-rules",
                         user_id=user)
            mem.end_session(f"{user}-rules", user_id=user)
        mem.wait_for_consolidation()
        for user in ("ana", "ben", "cyd"):
            mem.recall(REQUEST, user_id=user)
        held = mem.retriever.standing._held
        assert list(held) == ["ben", "cyd"]
        assert [len(h.ids) for h in held.values()] == [1, 1]  # the instruction; the liking is not held


def test_the_injector_carries_the_instruction_that_governs_the_message(db_path: Path | str, embedder) -> None:
    """Recall gives the instruction the last place of its top k; the injector, which shows only the first few
    memories of a longer recall, chooses it first (and keeps recall's order for the lines)."""
    from episodic_memory import EpisodicInjector

    with Memory(db_path, embedder=embedder) as mem:
        _crowded(mem)
        hits = mem.recall(REQUEST, k=20)
        placed = [h for h in hits if h.details.get("standing")]
        assert [h.text for h in placed] == [INSTRUCTION]
        assert "version numbers" in EpisodicInjector(mem).get_context(REQUEST)
        assert "version numbers" not in EpisodicInjector(mem).get_context("What did my sister say about Porto?")
    with Memory(db_path, embedder=embedder, config=Config(retrieval={"standing_limit": 0})) as mem:
        assert "version numbers" not in EpisodicInjector(mem).get_context(REQUEST)
