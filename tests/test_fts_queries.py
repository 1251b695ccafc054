"""FTS5 syntax never leaks to users: any query returns hits or none, never an error."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from episodic_memory import Memory
from episodic_memory.retrieve.fts import fts_query, query_terms

HOSTILE = ['"', '"unbalanced', 'a "b', "*", "deck*", "-deck", "deck -slides", "col:deck", "content:deck", "NEAR",
           "NEAR(deck slides)", "deck NEAR slides", "AND", "deck AND", "OR OR", "NOT deck", "(deck", "deck)", "()",
           "^deck", "deck + slides", "{content speaker}: deck", "", "   ", "'", "\\", "\x00", "🙂 deck", "é", "d'oh"]


@pytest.fixture(scope="module")
def store():
    with Memory(":memory:") as mem:
        mem.add_turn("user", "The Series B deck needs 14 slides", session_id="s", speaker="Maya")
        mem.add_turn("user", "NEAR the harbour AND the café, d'oh", session_id="s")
        yield mem


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries(store: Memory, query: str) -> None:
    hits = store.recall(query)
    assert isinstance(hits, list)


def test_operators_are_plain_words(store: Memory) -> None:
    assert [h.text for h in store.recall("NEAR")] == ["NEAR the harbour AND the café, d'oh"]
    assert store.recall("deck*")[0].text.startswith("The Series B deck")
    assert store.recall("cafe")  # diacritics folded


def test_query_terms() -> None:
    assert query_terms("What did Caroline research?") == ["caroline", "research"]
    assert query_terms("what is it") == ["what", "is", "it"]  # all stopwords: keep them
    assert fts_query("!!!") is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_fuzzed_queries_never_raise(store: Memory, query: str) -> None:
    assert isinstance(store.recall(query), list)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(HOSTILE + ["deck", "slides", "harbour"]), max_size=8).map(" ".join))
def test_fuzzed_operator_soup_never_raises(store: Memory, query: str) -> None:
    assert isinstance(store.recall(query), list)
