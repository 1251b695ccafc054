"""Corrections as a new user makes them: a trailing clause, "what is X" answered with the current value first, and
forgetting the session that corrected something (issue 40, item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from episodic_memory import Memory
from episodic_memory.inject import EpisodicInjector
from episodic_memory.store.chains import Mend, mend

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL


def _say(mem: Memory, session: str, when: str, *turns: tuple[str, str]) -> None:
    for i, (role, text) in enumerate(turns):
        mem.add_turn(role, text, session_id=session, timestamp=f"{when}T10:00:{i:02d}Z")
    mem.end_session(session)


@pytest.mark.parametrize("tail", ["", " - Sarah changed it", " — Sarah changed it", ", Sarah changed it"])
def test_a_correction_with_a_trailing_clause_is_a_correction(db_path: Path, tail: str) -> None:
    with Memory(db_path) as mem:
        _say(mem, "s1", "2026-11-02", ("user", "The deck needs 14 slides."))
        _say(mem, "s2", "2026-11-05", ("user", f"Actually, the deck needs 16 slides, not 14{tail}."))
        current = [f for f in mem.facts() if "slides" in f.text]
        assert len(current) == 1 and "16" in current[0].text and "14" not in current[0].text
        assert current[0].type == "correction"
        history = mem.fact_history(current[0].id)
        assert any("14 slides" in f.text and not f.current for f in history)
        hit = mem.recall("how many slides does the deck need", k=1)[0]
        assert "16" in hit.text and "(previously: 14)" in hit.text


KITCHEN = [("user", "We're planning the kitchen renovation."), ("assistant", "Exciting! What's the budget?"),
           ("user", "The kitchen budget is 40k."), ("assistant", "Got it, 40k for the kitchen."),
           ("user", "We want a big island and open shelving."), ("assistant", "Noted.")]


@pytest.mark.parametrize("change", ["Actually the kitchen budget is 48k now, not 40k.",
                                    "Update: the kitchen budget's 48k.",
                                    "We bumped the kitchen budget to 48k, can you redo the plan?"])
def test_what_is_x_puts_the_current_value_first_in_recall_and_in_the_injected_block(db_path: Path,
                                                                                     change: str) -> None:
    with Memory(db_path) as mem:
        _say(mem, "s1", "2026-10-01", *KITCHEN)
        _say(mem, "s2", "2026-10-20", ("user", "Quick update on the kitchen."), ("assistant", "Go ahead."),
             ("user", change), ("assistant", "Updated."))
        hits = mem.recall("what is the kitchen budget", k=10)
        with_value = [h.text for h in hits if "40k" in h.text or "48k" in h.text]
        assert with_value and "48k" in with_value[0], with_value
        block = EpisodicInjector(memory=mem, session_id="s3").get_context("what is the kitchen budget")
        lines = [line for line in block.splitlines() if "40k" in line or "48k" in line]
        assert lines and "48k" in lines[0], block
        assert not any("40k" in line and "48k" not in line and "previously" not in line for line in lines), block


def test_forgetting_the_correcting_session_makes_the_old_value_current_again(db_path: Path) -> None:
    with Memory(db_path) as mem:
        _say(mem, "s1", "2026-11-02", ("user", "The deck needs 14 slides."))
        _say(mem, "s2", "2026-11-05", ("user", "Actually, the deck needs 16 slides, not 14."))
        assert mem.stats()["superseded_facts"] == 1 and mem.stats()["routes"]["superseded"] == 1
        mem.forget(session_id="s2")
        facts = mem.facts()
        assert [f.text for f in facts if "slides" in f.text] == ["The deck needs 14 slides."]
        stats = mem.stats()
        assert stats["superseded_facts"] == 0 and "superseded" not in stats["routes"]
        assert stats["facts"] == len(facts)
        assert sum(n for route, n in stats["routes"].items() if route in ("durable", "episodic")) == len(
            mem.facts(include_superseded=True))


def test_forgetting_the_correcting_session_is_the_same_as_forgetting_its_fact(tmp_path: Path) -> None:
    """`forget --session` and `fact forget` leave the same current value."""
    with Memory(tmp_path / "a.db") as a, Memory(tmp_path / "b.db") as b:
        for mem in (a, b):
            _say(mem, "s1", "2026-11-02", ("user", "The deck needs 14 slides."))
            _say(mem, "s2", "2026-11-05", ("user", "Actually, the deck needs 16 slides, not 14."))
        a.forget(session_id="s2")
        b.forget_fact(next(f.id for f in b.facts() if "16" in f.text))
        assert [f.text for f in a.facts()] == [f.text for f in b.facts() if f.session_id == "s1"]


def test_a_chain_is_mended_past_every_deleted_fact() -> None:
    # 1 ← 2 ← 3 ← 4 (4 current); deleting 2 and 3 links 1 and 4; deleting 4 makes 1 current again
    gone = {2: (1, 3), 3: (2, 4)}
    assert sorted(mend(gone, {1: (None, 2), 4: (3, None)})) == [Mend(1, None, 4, False), Mend(4, 1, None, False)]
    assert mend({3: (1, None)}, {1: (None, 3)}) == [Mend(1, None, None, True)]
    assert mend({2: (1, 3), 3: (2, None)}, {1: (None, 2)}) == [Mend(1, None, None, True)]
    assert mend({5: (None, None)}, {}) == []


@pytest.mark.parametrize("learned", [True, False])
def test_a_standing_rule_is_replaced_by_itself_said_anew_not_by_another_rule(tmp_path: Path, learned: bool) -> None:
    """BEAM: "Always combine formulas with diagrams …" replaced "Always include tree diagrams …" (two rules, each
    with its own marker number); the same rule with another value does replace it."""
    from episodic_memory import Config

    with Memory(tmp_path / "m.db", config=Config(consolidation={"learned": learned})) as mem:
        _say(mem, "s1", "2026-11-02", ("user", "Always include visual aids like tree diagrams when I ask about "
                                               "dependent event probability problems. (rule 2)"))
        _say(mem, "s2", "2026-11-05", ("user", "Always combine algebraic formulas with visual diagrams when I ask "
                                               "about complex probability problems. (rule 3)"))
        _say(mem, "s3", "2026-11-06", ("user", "Always show 3 options when I ask about restaurants."))
        _say(mem, "s4", "2026-11-08", ("user", "Always show 5 options when I ask about restaurants."))
        current = " | ".join(f.text for f in mem.facts())
        assert "tree diagrams" in current and "algebraic formulas" in current
        assert "5 options" in current and "3 options" not in current
