"""Accented Latin letters: the rules' ASCII patterns read "Marília" as one name (lang/latin.py)."""

from __future__ import annotations

from episodic_memory import Memory
from episodic_memory.lang.latin import fold_latin
from episodic_memory.retrieve.currency import names_in, plain, values_in


def test_each_accented_latin_letter_folds_to_one_base_letter_and_other_scripts_stay() -> None:
    text = "Marília, Zdeněk, Róisín, Søren, Björn, Łukasz, Ærø, Straße, Nguyễn; 李明 김민준 Ελένη"
    folded = fold_latin(text)
    assert folded == "Marilia, Zdenek, Roisin, Soren, Bjorn, Lukasz, Aro, Strase, Nguyen; 李明 김민준 Ελένη"
    assert len(folded) == len(text)            # offsets into the text hold
    assert fold_latin("plain ASCII") == "plain ASCII"
    assert len(plain("Dr. Zoë Ó Sé retired.")) == len("Dr. Zoë Ó Sé retired.")


def test_currency_reads_an_accented_name_as_one_name() -> None:
    said = "Latest on the head barista is that it's gone from Duarte to Marília."
    assert names_in(said) == {"duarte", "marilia"}
    assert values_in(said) == {"name:duarte", "name:marilia"}
    assert "name:zdenek" in values_in("The class teacher is Zdeněk now.")


def test_a_change_to_an_accented_name_is_recalled_first() -> None:
    with Memory(":memory:") as mem:
        mem.add_turn("user", "It turns out Duarte is free to start as our head barista.", session_id="s1",
                     timestamp="2026-05-01T10:00:00Z")
        mem.add_turn("assistant", "Great, Duarte it is.", session_id="s1", timestamp="2026-05-01T10:00:10Z")
        mem.end_session("s1")
        mem.add_turn("user", "Latest on the head barista is that it's gone from Duarte to Marília.", session_id="s2",
                     timestamp="2026-06-01T10:00:00Z")
        mem.add_turn("assistant", "Thanks for the update.", session_id="s2", timestamp="2026-06-01T10:00:10Z")
        mem.end_session("s2")
        first = mem.recall("Who's going to be head barista?", k=5)[0]
    assert "Marília" in first.text    # before, the name read as "lia": the old value's episode came first
