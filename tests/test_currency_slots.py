"""Currency's notion of "the same slot": a later turn that carries the question's words and some other number is no
change of the value asked about (BEAM: in a one-subject conversation every later turn does), a real change is."""

from __future__ import annotations

from datetime import datetime, timezone

from episodic_memory import Config
from episodic_memory.retrieve.currency import (
    Params,
    Statement,
    asked_values,
    asks_between,
    changed_values,
    currency_scores,
    local_contexts,
    number_units,
    same_unit,
)

DAY = 86_400.0
T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc).timestamp()


def _superseded(old: str, new: str, query: str, params: Params | None = None) -> bool:
    """Whether `new` (said a month later by the same person, scored lower) puts `old` below it."""
    statements = [Statement(old, T0, 1.0, speaker="user"), Statement(new, T0 + 30 * DAY, 0.5, speaker="user")]
    scores, newest = currency_scores(statements, query, params)
    return newest.get(0) == 1 and scores[0] < scores[1]


# --- reading a value with its own words ------------------------------------------------------------------------------


def test_a_long_sentence_is_read_phrase_by_phrase() -> None:
    long = ("I've been reworking my resume for the UK applications all week, and I adjusted my relocation budget "
            "to $3,500 to cover the extra visa fees, but the portfolio still needs work")
    parts = local_contexts(long, 12)
    assert any("$3,500" in p and "resume" not in p for p in parts)  # the amount is read with the budget
    assert local_contexts("The kitchen budget is 40k, we said.", 12) == ("The kitchen budget is 40k, we said",)
    assert local_contexts("It's $12.99 a month.", 12) == ("It's $12.99 a month",)  # a decimal point ends nothing
    assert local_contexts(long, 0) == (long,)  # 0: the whole sentence, as before


def test_what_a_number_counts() -> None:
    assert ("num:12.99", "money") in number_units("my $12.99/month Canva Pro plan")
    assert ("num:22", "percent") in number_units("keyword density went up by 22%")
    assert {("num:8", "ratio"), ("num:10", "ratio")} <= number_units("scored 8/10")
    assert ("num:16", "distance") in number_units("my long run is 16 km")
    assert ("num:47", "duration") in number_units("the slot is 47 min")
    assert number_units("we're at 163 beta testers") == frozenset()  # a bare count
    assert not same_unit("num:12.99", "$12.99 a month", "num:22", "up by 22%")
    assert same_unit("num:1800", "rent is $1,800", "num:1950", "paying $1,950")
    assert same_unit("num:172", "172 users", "num:163", "163 beta testers")
    assert same_unit("num:30", "$30 a month", "num:30", "30 of them")  # a bare number: any …
    assert not same_unit("num:30", "$30 a month", "num:30", "30 of them", strict=True)  # … unless strict


def test_values_said_in_a_question_or_request_are_asked_not_stated() -> None:
    assert asked_values("I'm worried $3,500 won't cover the move, can you help me plan it?") == {"num:3500"}
    assert asked_values("Is $3,500 enough?") == {"num:3500"}
    assert asked_values("The move costs $3,500. Can you help me plan it?") == frozenset()
    assert asked_values("We moved the finish date to the 28th of September.") == frozenset()


def test_a_change_word_applies_to_the_values_of_its_phrase() -> None:
    long = ("I've been polishing my resume for the UK roles all week, and the new AI tool increased keyword density "
            "by 22%, while my Canva plan still costs $12.99 a month for the templates")
    changed = changed_values(long, 12)
    assert "num:22" in changed and "num:12.99" not in changed
    assert changed_values("The landlord bumped it up. We pay $1,950.", 12) == {"num:1950"}  # short: anywhere


def test_time_between_two_events_is_no_value_question() -> None:
    assert asks_between("How many days are there between when I logged 3,600 words and my deadline?")
    assert asks_between("How many months passed between the move and the wedding?")
    assert not asks_between("How many people are in the Lumo beta?")
    assert not asks_between("When is the reno supposed to wrap up?")


# --- another slot does not supersede ------------------------------------------------------------------------------


SUBSCRIPTION = ("I'm kinda worried that my $12.99/month Canva Pro subscription might not be enough to make my resume "
                "ATS compatible by March 30, can you help me with that?")
QUERY = "How much does my subscription to the service I'm using for my resume cost each month?"


def test_another_amount_next_to_other_words_does_not_supersede() -> None:
    other = ("I've been rewriting my resume for the UK applications, and I've increased my relocation budget to "
             "$3,500 now to cover the extra visa processing fees and the deposit on a flat in London.")
    assert not _superseded(SUBSCRIPTION, other, QUERY)
    # the rules as they were (the whole sentence read as one, every value an answer) let it supersede
    before = Params(phrase_words=0, slot_pairs=False, cue_near=False, units=False, stated=False, tie_share=1.0)
    assert _superseded(SUBSCRIPTION, other, QUERY, before)


def test_another_kind_of_number_does_not_supersede() -> None:
    other = ("My resume subscription workflow changed: I switched on the new AI keyword tool and it increased "
             "keyword density by 22% each month now.")
    assert not _superseded(SUBSCRIPTION, other, QUERY)


def test_a_request_mentioning_another_amount_does_not_supersede() -> None:
    request = ("I'm now planning my monthly costs around the resume and the subscription, so could you check "
               "whether $250 for the new laptop fits in?")
    assert not _superseded(SUBSCRIPTION, request, QUERY)


def test_a_shared_bare_number_ties_nothing() -> None:
    query = "When is my talk?"
    old, new = "My talk is on May 4, with 12 slides.", "The workshop is on June 20 for 12 people."
    assert not _superseded(old, new, query)
    assert _superseded(old, new, query, Params(units=False))  # tied by the "12" both say
    # a date both say still ties two statements ("talk date: June 1" … "put me on June 1 … with Rita")
    assert _superseded("Put me on June 1 with Rita sharing the stage.", "Co-speaker: Pablo; talk date: June 1.",
                       "Who am I co-presenting with?")


# --- a real change still does ------------------------------------------------------------------------------------


def test_a_change_in_other_words_still_supersedes() -> None:
    assert _superseded("Rent on the flat is $1,800.", "The landlord bumped it up, we're paying $1,950 from March.",
                       "How much is my rent?")
    assert _superseded(SUBSCRIPTION, "Canva bumped the Pro subscription up, it's $14.99 a month now.", QUERY)


def test_a_new_count_of_the_same_thing_in_a_long_turn_still_supersedes() -> None:
    query = "How many classification problems have I completed?"
    old = ("I'm trying to classify triangles by sides and angles, and I've completed 10 classification problems, "
           "scoring well on the isosceles ones, but the scalene ones with the Law of Cosines still trip me up.")
    new = ("Quick progress note on the triangle work, since the last session went well: I've now completed 15 "
           "classification problems, and the scalene ones finally make sense to me.")
    assert _superseded(old, new, query)


def test_a_correction_in_a_request_still_supersedes_by_its_subject() -> None:
    # a restated subject ("the kitchen budget") is a change whatever else the turn asks
    assert _superseded("The kitchen budget is 40k.", "We bumped the kitchen budget to 48k, can you redo the plan?",
                       "How much is the kitchen budget?")


def test_config_carries_the_new_knobs() -> None:
    cfg = Config()
    params = cfg.currency
    assert params.phrase_words == cfg.currency.phrase_words == 12
    assert params.slot_pairs and params.cue_near and params.units and params.stated and params.skip_between
    assert params.tie_share == cfg.currency.tie_share


def test_the_answer_is_in_the_phrase_naming_most_of_the_question() -> None:
    query = "How many books am I aiming to read in my winter reading challenge?"
    old = ("I'm trying to decide on a fiction series for winter evenings, and I've extended my reading challenge goal "
           "to 12 books by March 1, which means I need to increase my weekly reading pace to 2 more hours")
    new = ("I've committed to reading the first 4 Outlander books, which are around 3,200 pages, by June 30, and I'm "
           "pacing myself at 40 pages daily.")
    assert not _superseded(old, new, query)  # "4 Outlander books" is no new challenge goal
    assert _superseded(old, new, query, Params(best_slot=False))  # "weekly reading pace" would have tied them
    change = ("Quick update on the winter reading challenge: I've raised my reading challenge goal to 15 books now, "
              "since the first weeks went so well.")
    assert _superseded(old, change, query)


def test_the_currency_pass_takes_its_knobs_from_config_currency() -> None:
    """One list of knobs and defaults: `Params` is Config's currency group."""
    assert Params is type(Config().currency)
    assert Params(best_slot=False) == Config(currency={"best_slot": False}).currency
