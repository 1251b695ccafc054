"""Recall reads consolidation's supersession links (`Config.experimental.stored_links`, off by default: it cost
BEAM recall): a turn stating a value a stored fact has since replaced ranks below the current fact, which joins the
candidates when no leg found it (retrieve/currency_pass.py `replaced_values`)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from episodic_memory import Config, Memory
from episodic_memory.store.records import NewFact

from .fakes import T0, HashingEmbedder, play_session

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

RECAP = "Where it stands: the offsite venue is Hotel Lumen; the budget is 40k."
STATED = "The offsite venue is Hotel Lumen."
CHANGE = "Change of plan, we booked the Old Mill instead."


def _fact(mem: Memory, sid: str, text: str, day: float, sources: list[int], supersedes: int | None = None) -> int:
    return mem.store.insert_fact(NewFact(
        user_id="default", session_id=sid, type="decision", text=text, route="durable", salience=0.8,
        confidence=0.9, event_ts=None, created_at=(T0 + timedelta(days=day)).timestamp(), source_ids=sources,
        origin=f"{sid}{text}", extractor="rules"), supersedes=supersedes)


def _memory(db_path: str, stored_links: bool = True) -> Memory:
    """Turns stored, facts written by hand (no consolidation): the venue changed from Hotel Lumen to the Old Mill
    in a turn that names no venue, so no leg finds it for "what is the offsite venue?"."""
    config = Config(capture={"consolidate_every": 1000}, experimental={"stored_links": stored_links})
    mem = Memory(db_path, config=config, embedder=HashingEmbedder(dim=256))
    play_session(mem, "s1", [RECAP, STATED], day=0, end=False)
    play_session(mem, "s2", ["Quick update on the offsite.", CHANGE], day=5, end=False)
    ids = {t.content: t.id for sid in ("s1", "s2") for t in mem.session_turns(sid)}
    old = _fact(mem, "s1", "The offsite venue is Hotel Lumen", 0, [ids[STATED]])
    _fact(mem, "s2", "We booked the Old Mill instead", 5, [ids[CHANGE]], supersedes=old)
    return mem


def _first_venue(hits: list) -> str:
    return next(h.text for h in hits if "Lumen" in h.text or "Old Mill" in h.text)


def test_the_current_value_comes_before_the_turns_stating_the_replaced_one(db_path: str) -> None:
    with _memory(db_path) as mem:
        hits = mem.recall("what is the offsite venue?", k=5)
        assert "Old Mill" in _first_venue(hits)
        stale = [h for h in hits if h.kind == "turn" and "Lumen" in h.text]
        assert stale and all("Old Mill" in h.details.get("superseded", "") for h in stale)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_off_by_default_the_replaced_value_comes_first(db_path: str) -> None:
    assert not Config().experimental.stored_links
    with _memory(db_path, stored_links=False) as mem:
        hits = mem.recall("what is the offsite venue?", k=5)
        assert "Lumen" in _first_venue(hits)


def test_a_turn_is_stale_only_for_the_value_replaced(db_path: str) -> None:
    """The recap also states the budget, which nothing replaced: asked about the budget, it stays where it is."""
    with _memory(db_path) as mem:
        hits = mem.recall("what is the offsite budget?", k=5)
        assert hits[0].text == RECAP
        assert "superseded" not in hits[0].details


def test_recall_as_of_before_the_change_is_left_alone(db_path: str) -> None:
    with _memory(db_path) as mem:
        before = (T0 + timedelta(days=1)).timestamp()
        hits = mem.recall("what is the offsite venue?", k=5, as_of=before)
        assert "Lumen" in _first_venue(hits)


def test_forgetting_the_change_makes_the_old_value_current_again(db_path: str) -> None:
    with _memory(db_path) as mem:
        assert "Old Mill" in _first_venue(mem.recall("what is the offsite venue?", k=5))
        mem.forget(session_id="s2")
        hits = mem.recall("what is the offsite venue?", k=5)
        assert "Lumen" in _first_venue(hits)
        assert not any("Old Mill" in h.text or "Old Mill" in h.details.get("superseded", "") for h in hits)


def test_the_store_lists_each_chain_once_by_its_current_fact(db_path: str) -> None:
    with _memory(db_path) as mem:
        chains = mem.store.replacements("default")
        assert [(new.text, [f.text for f in olds]) for new, olds in chains] == [
            ("We booked the Old Mill instead", ["The offsite venue is Hotel Lumen"])]
        assert mem.store.replacements("someone-else") == []
