"""Reading one thing and changing it by hand: show, a session's turns, fact edit|forget|pin, loop reopen|add,
judge list."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from episodic_memory import Memory
from episodic_memory.cli import main

pytestmark = pytest.mark.both_backends


@pytest.fixture
def deck(mem: Memory) -> Memory:
    mem.add_turn("user", "The Series B deck needs 12 slides.", session_id="s1", speaker="Maya", turn_id="t1",
                 timestamp="2026-11-02T10:00:00Z")
    mem.add_turn("user", "Remind me to send the deck to Sarah by Friday.", session_id="s1", speaker="Maya",
                 turn_id="t2", timestamp="2026-11-02T10:01:00Z")
    mem.end_session("s1")
    mem.add_turn("user", "Actually, the deck needs 14 slides, not 12.", session_id="s2", speaker="Maya",
                 turn_id="t1", timestamp="2026-11-09T10:00:00Z")
    mem.end_session("s2")
    return mem


def _cli(mem: Memory, *args: str) -> Any:
    return CliRunner().invoke(main, ["--db", mem.path, *args])


def _current_slides(mem: Memory) -> Any:
    return next(f for f in mem.facts() if "slides" in f.text)


def test_show_finds_a_turn_by_its_id_in_every_session(deck: Memory) -> None:
    out = _cli(deck, "show", "t1", "--json")
    assert out.exit_code == 0
    shown = json.loads(out.output)
    assert [(t["session_id"], t["id"]) for t in shown] == [("s1", "t1"), ("s2", "t1")]
    assert shown[1]["content"] == "Actually, the deck needs 14 slides, not 12." and shown[1]["speaker"] == "Maya"
    assert any("14 slides" in f["text"] for f in shown[1]["facts"])  # what consolidation drew from it
    row_id = str(shown[0]["row_id"])
    assert [t.turn_id for t in deck.find_turns(row_id)] == ["t1"]  # the internal number works too
    missing = _cli(deck, "show", "nope")
    assert missing.exit_code == 1 and "no turn 'nope'" in missing.output


def test_sessions_with_an_id_lists_its_turns(deck: Memory) -> None:
    out = _cli(deck, "sessions", "s1", "--json")
    data = json.loads(out.output)
    assert data["session_id"] == "s1" and [t["id"] for t in data["turns_list"]] == ["t1", "t2"]
    text = _cli(deck, "sessions", "s1").output
    assert "Remind me to send the deck to Sarah by Friday." in text and "#t2" in text
    assert _cli(deck, "sessions", "nope").exit_code == 1
    assert "s2" in _cli(deck, "sessions").output  # without an id: the list, as before


def test_fact_edit_keeps_the_history_and_forget_mends_it(deck: Memory) -> None:
    fact = _current_slides(deck)
    before = [f.text for f in deck.fact_history(fact.id)]
    out = _cli(deck, "fact", "edit", str(fact.id), "The deck needs 15 slides")
    assert out.exit_code == 0 and f"supersedes #{fact.id}" in out.output
    edited = _current_slides(deck)
    assert edited.text == "The deck needs 15 slides" and edited.extractor == "user" and edited.type == fact.type
    assert [f.text for f in deck.fact_history(edited.id)] == ["The deck needs 15 slides", *before]
    assert deck.recall("how many slides", kind="fact")[0].text.startswith("The deck needs 15 slides")
    assert _cli(deck, "fact", "edit", str(fact.id), "again").exit_code == 1  # superseded: edit the current one
    out = _cli(deck, "fact", "forget", str(edited.id), "--yes")
    assert out.exit_code == 0
    assert _current_slides(deck).id == fact.id  # what it replaced is believed again
    assert [f.text for f in deck.fact_history(fact.id)] == before
    assert _cli(deck, "fact", "forget", "9999", "--yes").exit_code == 1


def test_forgetting_a_middle_fact_links_its_neighbours(deck: Memory) -> None:
    middle = _current_slides(deck)
    newest = deck.edit_fact(middle.id, "The deck needs 16 slides")
    oldest_id = middle.supersedes
    assert oldest_id is not None
    deck.forget_fact(middle.id)
    chain = deck.fact_history(newest.id)
    assert [f.id for f in chain] == [newest.id, oldest_id] and chain[0].supersedes == oldest_id
    assert chain[1].superseded_by == newest.id and not chain[1].current


def test_pinned_facts_open_the_briefing(deck: Memory) -> None:
    fact = _current_slides(deck)
    assert "Pinned" not in str(deck.brief(hours=1))
    assert _cli(deck, "fact", "pin", str(fact.id)).exit_code == 0
    brief = deck.brief(hours=1)  # nothing happened in the last hour: the pinned fact shows anyway
    assert [p["id"] for p in brief.pinned] == [fact.id] and "Pinned (1)" in str(brief)
    assert brief.to_dict()["pinned"][0]["text"] == fact.text
    edited = deck.edit_fact(fact.id, "The deck needs 15 slides")  # the pin follows the edit
    assert [p["id"] for p in deck.brief(hours=1).pinned] == [edited.id]
    assert _cli(deck, "fact", "pin", str(edited.id), "--off").exit_code == 0
    assert deck.brief(hours=1).pinned == []


def test_loop_reopen_and_add(deck: Memory) -> None:
    (lp,) = deck.loops()
    deck.close_loop(lp.id)
    assert deck.loops() == []
    out = _cli(deck, "loop", "reopen", str(lp.id))
    assert out.exit_code == 0 and "reopened" in out.output
    (again,) = deck.loops()
    assert again.id == lp.id and again.status == "open" and again.closed_by is None
    out = _cli(deck, "loop", "add", "book the Lisbon flight", "--due", "tonight")
    assert out.exit_code == 0
    added = next(x for x in deck.loops() if x.text == "book the Lisbon flight")
    assert added.due == "tonight" and added.detector == "user" and added.session_id == "manual"
    duplicate = _cli(deck, "loop", "add", "book  the Lisbon flight")
    assert duplicate.exit_code == 1 and "already a loop" in duplicate.output
    assert _cli(deck, "loop", "reopen", "999").exit_code == 1
    assert _cli(deck, "loop", "add", "x", "--workstream", "999").exit_code == 1


def test_judge_list(deck: Memory) -> None:
    assert "no judgments yet" in _cli(deck, "judge", "list").output
    a = deck.judgments.store("User asks to edit prod config", "Confirm first", "Outages", domain="ops")
    b = deck.judgments.store("User asks for a summary", "Lead with the decision", "They skim")
    deck.judgments.verify(a, adopted=True)
    listed = json.loads(_cli(deck, "judge", "list", "--json").output)
    assert [j["id"] for j in listed] == [a, b]
    assert listed[0]["adopted"] == 1 and listed[0]["utility_score"] == 1.0 and listed[1]["utility_score"] == 0.0
    assert [j["id"] for j in json.loads(_cli(deck, "judge", "list", "--domain", "ops", "--json").output)] == [a]
    assert "Confirm first" in _cli(deck, "judge", "list").output


def test_hand_edits_reach_the_export(deck: Memory, tmp_path: Path) -> None:
    fact = _current_slides(deck)
    deck.pin_fact(fact.id)
    deck.export(tmp_path / "e.jsonl")
    with Memory(tmp_path / "copy.db") as copy:
        copy.import_(tmp_path / "e.jsonl")
        assert [p["text"] for p in copy.brief(hours=1).pinned] == [fact.text]
