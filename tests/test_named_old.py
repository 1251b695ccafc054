"""A change that names the value it replaces ("…, not Bengaluru", "Shazia, never Harpreet", "from Araminta to
Ermengarde") replaces the fact holding that value, whatever that fact's wording; a statement whose head says what
its value is of ("On the dog trainer: Tariq.") keeps its head; "Would you believe …" with a full stop is news, not a
question. The phrasings here are in none of the banks the models were trained on."""

from __future__ import annotations

from typing import Any

import pytest

from episodic_memory import Config, Memory
from episodic_memory.consolidate.durable import QUESTION, STATEMENT, sentence_kind
from episodic_memory.consolidate.extract import clean
from episodic_memory.consolidate.facts import old_values
from episodic_memory.consolidate.supersede import named_old_values

OFF = {"consolidation": {"rules_off": ["facts.statement_names_old"]}}


def facts(turns: list[tuple[str, str, str]], **config: Any) -> list[tuple[str, bool]]:
    """(text, current) of every fact a memory made of `turns` (session, role, text), sessions three days apart."""
    with Memory(":memory:", config=Config(**config)) as mem:
        for i, (session, role, text) in enumerate(turns):
            mem.add_turn(role, text, session_id=session,
                         timestamp=f"2026-11-{2 + 3 * int(session[1:]):02d}T10:{i:02d}:00Z")
        for session in dict.fromkeys(t[0] for t in turns):
            mem.end_session(session)
        return [(f.text, f.current) for f in mem.facts(include_superseded=True)]


@pytest.mark.parametrize(("text", "changing", "names"), [
    ("The keynote goes to Oduya, never Castellane.", False, {"castellane"}),
    ("Booked the Larkspur Rooms (was Tidewater Hall).", False, {"tidewater hall"}),
    ("Okay, Brightledger replaces Sumfold.", False, {"sumfold"}),
    ("It's Porto now for the offsite, not Lisbon.", False, {"lisbon"}),
    ("The editor has gone from Ines to Marguerite.", True, {"ines"}),
    ("We flew from Boston to Denver.", False, set()),     # a move, not a change: no cue, no answer taking it as one
])
def test_the_values_a_change_names_as_the_old_ones(text: str, changing: bool, names: set[str]) -> None:
    assert named_old_values(text, changing).names == names


def test_a_date_swapped_out_and_a_number_not_kept_are_old_values() -> None:
    assert named_old_values("I've swapped 12 March out for 19 March.", True).dates == {(3, 12)}
    assert named_old_values("Forty seats now, not 36.", False).numbers == {36.0}


def test_old_values_come_from_the_statement_and_from_the_answer_taking_it_as_a_change() -> None:
    said = "The venue is the Larkspur Rooms now."
    assert old_values(said, None, True).empty()
    assert old_values(said, "Right, the Larkspur Rooms rather than Tidewater Hall.", True).names == {"tidewater hall"}
    assert old_values("The Larkspur Rooms, not Tidewater Hall.", None, False).names == {"tidewater hall"}


def test_a_change_naming_the_old_value_replaces_the_fact_holding_it() -> None:
    turns = [("s1", "user", "Grandma's flat in Lisbon is where the offsite crowd will stay."),
             ("s1", "assistant", "Lovely."),
             ("s1", "user", "Meryem is running the catering for it."), ("s1", "assistant", "Good to know."),
             ("s2", "user", "Bit of a shake-up: we're all bunking in Porto, never Lisbon."),
             ("s2", "assistant", "Ah, understood.")]
    on, off = dict(facts(turns)), dict(facts(turns, **OFF))
    old = "Grandma's flat in Lisbon is where the offsite crowd will stay."
    assert on.get(old) is False and off.get(old) is True   # the words alone do not make them one slot
    assert [t for t, current in on.items() if current and "Porto" in t]
    assert on.get("Meryem is running the catering for it.") is True


def test_a_head_that_says_what_the_value_is_of_is_kept() -> None:
    assert clean("Correcting myself on the dog walker: Idris.", "knowledge")[0] == \
        "Correcting myself on the dog walker: Idris."
    assert clean("Some context before we dig in: I run a bakery in Leith.", "knowledge")[0] == \
        "I run a bakery in Leith."


def test_would_you_believe_with_a_full_stop_is_news() -> None:
    assert sentence_kind("Would you believe the recital got moved to 9 May.") == STATEMENT
    assert sentence_kind("Can you believe they moved it again.") == STATEMENT
    assert sentence_kind("Would you believe it?") == QUESTION
    assert sentence_kind("Would you book the table for me") == QUESTION


def test_news_of_another_date_replaces_nothing_unless_the_pair_model_is_sure() -> None:
    turns = [("s1", "user", "I've joined a sailing club this autumn."), ("s1", "assistant", "Nice."),
             ("s1", "user", "Open mic is the 28th of November."), ("s1", "assistant", "Noted."),
             ("s1", "user", "My sister Odile plays bass in the band."), ("s1", "assistant", "Fun."),
             ("s2", "user", "Regatta is 6 December, all day apparently."), ("s2", "assistant", "Sounds like a long day.")]
    assert dict(facts(turns)).get("Open mic is the 28th of November.") is True
    # at the cued line the regatta's date replaced the open mic's: news is held to a higher one
    loose = dict(facts(turns, consolidation={"news_supersedes_line": 0.9}))
    assert loose.get("Open mic is the 28th of November.") is False
    # a change said as one still replaces the fact at the trained line
    changed = turns[:6] + [("s2", "user", "Open mic got moved to the 5th of December."), ("s2", "assistant", "Ok.")]
    assert dict(facts(changed)).get("Open mic is the 28th of November.") is False


def test_a_number_named_as_the_old_one_is_not_enough_to_pick_the_fact() -> None:
    cats = [("s1", "user", "We adopted 2 cats from the shelter in May."), ("s1", "assistant", "Lovely."),
            ("s2", "user", "Honestly the meeting ran 3 hours, not 2."), ("s2", "assistant", "Oof.")]
    assert dict(facts(cats)).get("We adopted 2 cats from the shelter in May.") is True
    meeting = [("s1", "user", "The meeting usually runs 2 hours."), ("s1", "assistant", "Okay.")] + cats[2:]
    assert dict(facts(meeting)).get("The meeting usually runs 2 hours.") is False
