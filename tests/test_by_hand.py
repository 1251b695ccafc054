"""Corrections a person makes by hand: a fact corrected (its history keeps the old value), a loop reopened."""

from __future__ import annotations

import pytest

from episodic_memory import Memory


def test_a_corrected_fact_supersedes_the_old_one_and_recall_says_so(mem: Memory) -> None:
    mem.add_turn("user", "The Series B deck has 12 slides.", session_id="a")
    mem.end_session("a")
    old = next(f for f in mem.facts() if "12 slides" in f.text)
    new = mem.edit_fact(old.id, "The Series B deck has 15 slides.")
    assert new.current and new.supersedes == old.id and new.extractor == "user"
    assert [f.text for f in mem.fact_history(new.id)] == ["The Series B deck has 15 slides.",
                                                         "The Series B deck has 12 slides."]
    assert [f.id for f in mem.facts() if "slides" in f.text] == [new.id]
    top = mem.recall("how many slides does the deck have", k=3, kind="fact")[0]
    assert "15 slides" in top.text and "previously: 12" in top.text
    assert new.entities == old.entities


def test_only_a_current_fact_of_this_user_can_be_corrected(mem: Memory) -> None:
    mem.add_turn("user", "The Series B deck has 12 slides.", session_id="a")
    mem.end_session("a")
    old = mem.facts()[0]
    mem.edit_fact(old.id, "The Series B deck has 15 slides.")
    with pytest.raises(ValueError, match="superseded"):
        mem.edit_fact(old.id, "The Series B deck has 16 slides.")
    with pytest.raises(ValueError, match="text"):
        mem.edit_fact(mem.facts()[0].id, "   ")
    with pytest.raises(KeyError):
        mem.edit_fact(old.id, "x", user_id="someone-else")
    with pytest.raises(TypeError):
        mem.edit_fact("1", "x")  # type: ignore[arg-type]


def test_a_closed_loop_can_be_reopened(mem: Memory) -> None:
    mem.add_turn("user", "I need to write the rollback runbook by Friday.", session_id="a")
    mem.end_session("a")
    loop = mem.loops()[0]
    mem.close_loop(loop.id, note="done")
    assert mem.loops() == []
    reopened = mem.reopen_loop(loop.id, note="the review found gaps")
    assert reopened.status == "open" and reopened.closed_at is None and reopened.note == "the review found gaps"
    assert [x.id for x in mem.loops()] == [loop.id]
    assert mem.reopen_loop(loop.id).status == "open"       # reopening an open loop changes nothing
    with pytest.raises(KeyError):
        mem.reopen_loop(loop.id + 1000)
