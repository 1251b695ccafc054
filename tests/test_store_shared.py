"""Store verbs of the shared SQL (`store/sql/`) that no other test runs on both backends: the LLM back-off, a
restated fact, entity profiles, the portable columns, a workstream renamed and left, turns since a time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from episodic_memory.store import open_store
from episodic_memory.store.records import NewEpisode, NewFact, TurnRecord

pytestmark = pytest.mark.both_backends


@pytest.fixture
def store(db_path: Path | str) -> Iterator[Any]:
    s = open_store(db_path)
    try:
        yield s
    finally:
        s.close()


def _fact(text: str, origin: str, created_at: float = 1000.0, source_ids: list[int] | None = None) -> NewFact:
    return NewFact(user_id="u", session_id="s1", type="preference", text=text, route="episodic", salience=0.4,
                   confidence=0.9, event_ts=None, created_at=created_at, source_ids=source_ids or [1],
                   origin=origin, extractor="test")


def _episode(session_id: str, summary: str, ended_at: float) -> NewEpisode:
    return NewEpisode(user_id="u", session_id=session_id, summary=summary, summarizer="extractive",
                      keyphrases=[("deck review", "deck review", 1.0)], source_ids=[], turns=2,
                      started_at=ended_at - 60, ended_at=ended_at, vec=None, vec_model=None,
                      terms={"deck": 1.0, "review": 0.5})


def test_llm_backoff_is_recorded_replaced_and_cleared(store: Any) -> None:
    assert store.llm_backoff("openai:gpt") is None
    store.record_llm_backoff("openai:gpt", 2000.0, 1, "rate_limit", "429")
    assert store.llm_backoff("openai:gpt") == (2000.0, 1, "rate_limit", "429")
    store.record_llm_backoff("openai:gpt", 2600.0, 2, "outage", "503")
    assert store.llm_backoff("openai:gpt") == (2600.0, 2, "outage", "503")
    store.clear_llm_backoff("openai:gpt")
    assert store.llm_backoff("openai:gpt") is None


def test_a_restated_fact_recurs_gains_salience_and_sources(store: Any) -> None:
    fact_id = store.insert_fact(_fact("likes tea", "o1", source_ids=[1, 2]))
    store.bump_fact("u", fact_id, [2, 3], salience_add=0.3, durable_floor=0.9)
    fact = store.facts_by_id("u", [fact_id])[fact_id]
    assert (fact.recurrence, round(fact.salience, 6), fact.source_ids, fact.route) == (2, 0.7, [1, 2, 3], "episodic")
    store.bump_fact("u", fact_id, [4], salience_add=0.3, durable_floor=0.9)
    fact = store.facts_by_id("u", [fact_id])[fact_id]
    assert (fact.recurrence, fact.source_ids, fact.route) == (3, [1, 2, 3, 4], "durable")
    store.bump_fact("other", fact_id, [5], salience_add=1.0, durable_floor=0.0)  # not the user's: nothing changes
    assert store.facts_by_id("u", [fact_id])[fact_id].recurrence == 3


def test_entities_of_facts_and_their_profiles(store: Any) -> None:
    a = store.insert_fact(_fact("Maya leads the deck", "o1"))
    b = store.insert_fact(_fact("Tomás reviews it", "o2"))
    maya, tomas = store.link_entities("u", a, ["Maya"])[0], store.link_entities("u", b, ["Tomás", "maya"])[0]
    assert sorted(store.entities_of_facts([a, b, a])) == sorted({maya, tomas})
    assert store.entities_of_facts([]) == []
    assert store.profile_state(maya) == ("Maya", None, [])
    store.set_profile(maya, "Maya leads the Series B deck.", [a, b])
    assert store.profile_state(maya) == ("Maya", "Maya leads the Series B deck.", [a, b])
    entity = store.entity("u", "MAYA")
    assert entity is not None and entity.id == maya and entity.profile == "Maya leads the Series B deck."


def test_portable_columns_leave_local_ones_out(store: Any) -> None:
    columns = store.portable_columns()
    assert set(columns) >= {"session", "turn", "entity", "fact", "episode", "judgment", "route_count"}
    assert {"session_id", "turn_count"} <= columns["session"] and "journal_file" not in columns["session"]
    assert {"content", "uid", "metadata"} <= columns["turn"] and "segmented" not in columns["turn"]
    assert "aliases" in columns["entity"] and "entities" in columns["fact"] and "terms" in columns["episode"]
    assert "verdicts" in columns["judgment"]


def test_a_workstream_is_renamed_then_left(store: Any) -> None:
    first, _ = store.upsert_episode(_episode("s1", "Reviewed the deck.", 1000.0))
    second, _ = store.upsert_episode(_episode("s2", "Reviewed the deck again.", 2000.0))
    ws = store.create_workstream("u", first)
    store.attach_episode(second, ws)
    assert store.workstream_size(ws) == 2 and store.needs_name(ws)
    store.rename_workstream(ws, "Series B deck")
    assert not store.needs_name(ws)
    [named] = store.workstreams("u", include_hypotheses=True, ids=[ws])
    assert (named.name, named.name_source, named.sessions) == ("Series B deck", "llm", 2)
    store.detach_episode(second)
    assert store.session_episode("u", "s2").workstream_id is None
    [left] = store.workstreams("u", include_hypotheses=True, ids=[ws])
    assert (left.sessions, left.last_activity) == (1, 1000.0)
    assert store.needs_name(ws)  # its sessions changed since the LLM named it
    store.detach_episode(second)  # in no workstream: nothing to do
    store.detach_episode(first)  # the last one: the workstream goes
    assert store.workstreams("u", include_hypotheses=True, ids=[ws]) == []


def test_turns_since_newest_first(store: Any) -> None:
    records = [TurnRecord(uid=f"u{i}", user_id="u", session_id="s1", seq=i, role="user", content=f"turn {i}",
                          ts=1000.0 + i, ingested_at=1000.0 + i) for i in range(5)]
    store.insert_turns(records, "journal.jsonl", 0)
    assert [t.content for t in store.turns_since("u", 1002.0)] == ["turn 4", "turn 3", "turn 2"]
    assert [t.content for t in store.turns_since("u", 1000.0, limit=2)] == ["turn 4", "turn 3"]
    assert store.turns_since("other", 0.0) == []
