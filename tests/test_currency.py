"""Currency at recall time: a later statement about the same subject with a different value outranks the earlier."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from episodic_memory import Config, Memory
from episodic_memory.retrieve.currency import (
    Question,
    Statement,
    announces_change,
    asked_kind,
    asks_several,
    competing_answers,
    corrects,
    currency_scores,
    follows_up,
    followup_seeds,
    gives_answer,
    names_in,
    plain,
    signature,
    spread_supersession,
    subject_terms,
    supersedes,
    values_in,
)

DAY = 86_400.0
T0 = datetime(2024, 1, 10, 9, 0, tzinfo=timezone.utc).timestamp()


# --- values ------------------------------------------------------------------------------------------------------


def test_values_money_and_units_read_as_numbers() -> None:
    assert "num:48000" in values_in("We bumped the kitchen budget to 48k.")
    assert "num:48000" in values_in("the budget is $48,000 now")
    assert "num:1500000" in values_in("it sold for 1.5 million")
    assert "num:16" in values_in("My long run is 16 km")
    assert "num:40" in values_in("forty people signed up")


def test_values_dates_in_any_order_are_one_date() -> None:
    for text in ("due March 14", "due 14 March", "due Mar 14th", "due the 14th of March"):
        assert values_in(text) == {"date:3-14"}, text
    assert not any(v.startswith("num:") for v in values_in("due March 14")), "a date's day is no number"


def test_names_skip_sentence_openers_greetings_and_weekdays() -> None:
    assert names_in("We booked Glasshouse Loft for the launch party.") == {"glasshouse loft"}
    assert names_in("Carlos is coaching me.") == {"carlos"}        # a name doing something
    assert names_in("Check this out. Thanks!") == set()           # an imperative is no name
    assert names_in("Hey Mel! Last Friday was fun") == {"mel"}    # the greeting and the weekday go
    assert names_in("I'm sure It's fine") == set()


def test_asked_kind() -> None:
    assert asked_kind("How much is the kitchen budget?") == "num"
    assert asked_kind("When is the launch?") == "date"
    assert asked_kind("Who is coaching me?") == "name"
    assert asked_kind("Which tile are we using?") is None


# --- subject grouping ----------------------------------------------------------------------------------------------


def test_same_subject_new_value_supersedes() -> None:
    old = signature("The kitchen budget is 40k.")
    new = signature("We bumped the kitchen budget to 48k.")
    assert supersedes(old, new)


def test_other_subject_or_no_new_value_does_not_supersede() -> None:
    old = signature("The kitchen budget is 40k.")
    assert not supersedes(old, signature("The garden shed cost 3k to build."))     # another subject
    assert not supersedes(old, signature("Remember the kitchen budget is 40k."))   # the same value again
    assert not supersedes(old, signature("The kitchen budget is tight."))          # no value at all


def test_a_restated_old_value_ties_the_subject() -> None:
    old = signature("This year's Northbound Dev happens in Tallinn.")
    new = signature("Plans changed: it is in Ljubljana now rather than Tallinn.")
    assert supersedes(old, new, min_overlap=1.0)


def test_values_said_to_no_longer_hold() -> None:
    sig = signature("Okay, changing the Skylark price from $66 to $42.")
    assert sig.replaced == {"num:66"} and "num:42" in sig.asserted
    sig = signature("FYI the recruiting agency is Brightpath Recruiting now, not Keystone Search anymore.")
    assert sig.replaced == {"name:keystone search"}
    assert "name:brightpath recruiting" in sig.asserted
    # a note's "(was X)": the old value in brackets
    sig = signature("Changed it: Zdeněk (was Dohyun).")
    assert sig.replaced == {"name:dohyun"} and "name:zdenek" in sig.asserted
    assert signature("Budget is 48k (formerly 40k).").replaced == {"num:40000"}
    # "X replaces Y", "X in place of Y": Y a name or a number ("replaces the old one" names no value)
    assert signature("Latest on the procurement lead: Melisande replaces Pavlina.").replaced == {"name:pavlina"}
    assert signature("Swapped it: Skatt & Co in place of Kamphuis Fiscaal.").replaced == {"name:kamphuis fiscaal"}
    assert signature("The new boiler replaces the old one.").replaced == frozenset()
    # a value dropped by name, up to the clause's comma
    sig = signature("Disregard the $408 a van monthly I gave you, finance modelled it at $723 per van per month.")
    assert sig.replaced == {"num:408"} and "num:723" in sig.asserted
    assert signature("Scratch 97 samples, sampling plan: 49 items.").replaced == {"num:97"}
    assert signature("I forget the name of the place.").replaced == frozenset()


def test_two_answers_to_one_question_compete_unless_they_agree() -> None:
    query = signature("How many slides does the deck need?")
    old = signature("The deck needs 14 slides, not 12.")
    assert competing_answers(old, signature("The deck needs 16 slides now."), query, "num")
    assert not competing_answers(old, signature("13 of the 14 slides are final."), query, "num")  # 14 agreed


def test_answers_next_to_different_things_do_not_compete() -> None:
    def focus(text: str, query: str):
        from episodic_memory.retrieve.currency import focused
        return focused(signature(text), text, signature(query), frozenset())

    q = "How many slides does the deck need?"
    old = focus("The deck needs 14 slides - Sarah confirmed.", q)
    assert not competing_answers(old, focus("Great. Good luck with the two new slides.", q), signature(q), "num")
    q = "When is the wedding?"
    old = focus("My sister's wedding is on June 14.", q)
    assert competing_answers(old, focus("They pushed the wedding back to August 2.", q), signature(q), "date")


def test_a_correction_right_after_swaps_the_answer() -> None:
    old = Statement("We're heading to Hollow Pines Lodge for the offsite.", T0, 1.0, session="s1", seq=4)
    new = Statement("Actually no, Larkfield Manor, I had that wrong.", T0 + 60, 0.1, session="s1", seq=6)
    assert corrects(old, new, signature(old.text), signature(new.text), "name", 2)
    far = Statement(new.text, T0 + 600, 0.1, session="s1", seq=9)
    assert not corrects(old, far, signature(old.text), signature(far.text), "name", 2)
    other = Statement(new.text, T0 + 60, 0.1, session="s2", seq=6)
    assert not corrects(old, other, signature(old.text), signature(other.text), "name", 2)


def test_answers_are_followed_forward_by_what_they_are_the_value_of() -> None:
    assert subject_terms("Quick recap of the reno: the finish date: July 12; the tile: slate", "date") == [
        "reno", "finish", "date"]
    best = Statement("Quick recap: the finish date: July 12.", T0, 2.0)
    seeds = followup_seeds([Statement("so, the reno", T0, 3.0), best], Question.of("When is the reno done?"), 3)
    assert seeds == [(T0, ["finish", "date"])]
    assert followup_seeds([best], Question.of("Which tile are we using?"), 3) == []   # no kind of value asked for


# --- demotion order ------------------------------------------------------------------------------------------------


def _order(statements: list[Statement], query: str = "") -> list[str]:
    scores, _ = currency_scores(statements, query)
    return [s.text for _, s in sorted(zip(scores, statements, strict=True), key=lambda p: -p[0])]


def test_the_newer_statement_goes_above_the_older_one() -> None:
    old = Statement("The kitchen budget is 40k.", T0, 1.2)
    new = Statement("We bumped the kitchen budget to 48k.", T0 + 20 * DAY, 0.7)
    other = Statement("The plumber comes on Tuesday.", T0 + 5 * DAY, 0.9)
    scores, newest = currency_scores([old, new, other], "kitchen budget")
    assert scores[1] >= 1.2 > scores[0]          # the newer takes the older one's place, the older goes just below
    assert scores[2] == 0.9                      # others keep their score
    assert newest == {0: 1}


def test_event_time_decides_not_the_order_given() -> None:
    a = Statement("The kitchen budget is 40k.", T0, 1.0)
    b = Statement("We bumped the kitchen budget to 48k.", T0 + 20 * DAY, 0.8)
    c = Statement("Kitchen budget update: it's 52k now.", T0 + 40 * DAY, 0.6)
    forward = _order([a, b, c], "kitchen budget")
    assert forward[0] == c.text and forward.index(b.text) < forward.index(a.text)
    assert _order([c, a, b], "kitchen budget") == forward
    assert _order([b, c, a], "kitchen budget") == forward


def test_equal_or_unknown_times_are_left_alone() -> None:
    a = Statement("The kitchen budget is 40k.", T0, 1.0)
    b = Statement("We bumped the kitchen budget to 48k.", T0, 0.8)
    c = Statement("We bumped the kitchen budget to 50k.", None, 0.7)
    scores, newest = currency_scores([a, b, c], "kitchen budget")
    assert scores == [1.0, 0.8, 0.7] and newest == {}


def test_summaries_never_supersede_and_people_do_not_supersede_each_other() -> None:
    old = Statement("The kitchen budget is 40k.", T0, 1.0, speaker="Ann")
    summary = Statement("Ann: the kitchen budget is 48k now.", T0 + DAY, 0.5, summary=True)
    bob = Statement("Our kitchen budget is 30k.", T0 + 2 * DAY, 0.4, speaker="Bob")
    scores, newest = currency_scores([old, summary, bob], "kitchen budget")
    assert 0 not in newest and scores[0] == 1.0          # Ann's statement stands
    assert newest.get(1) != 0                            # (a summary may itself be superseded)
    assistant = Statement("Got it, the kitchen budget is 48k.", T0 + 3 * DAY, 0.3)   # speaks for no one
    _, newest = currency_scores([old, assistant], "kitchen budget")
    assert newest == {0: 1}


def test_a_replaced_value_spreads_to_earlier_echoes() -> None:
    sigs = [signature(t) for t in (
        "Carlos is coaching me.",                       # 0: the statement replaced
        "Great, Carlos it is.",                         # 1: an echo with no subject words
        "Jamal writes my training plan and coaching now.",  # 2: the new value
    )]
    superseded = {0: [2]}
    spread_supersession(sigs, [T0, T0 + 60, T0 + 30 * DAY], superseded)
    assert superseded == {0: [2], 1: [2]}


# --- end to end ----------------------------------------------------------------------------------------------------

FIRST = datetime(2023, 3, 1, 10, 0, tzinfo=timezone.utc)   # long ago: recency adds next to nothing to either
LATER = FIRST + timedelta(days=30)


def _budget_memory(reverse: bool) -> Memory:
    mem = Memory(":memory:", config=Config(models={"embedder": "off"}))
    sessions = [
        ("s1", FIRST, ["The kitchen budget is 40k.", "We also want open shelving in the kitchen."]),
        ("s2", LATER, ["We bumped the kitchen budget to 48k.", "The tiles arrive next week."]),
    ]
    for session_id, start, texts in (reversed(sessions) if reverse else sessions):
        for i, text in enumerate(texts):
            mem.add_turn("user", text, session_id=session_id, timestamp=start + timedelta(minutes=i))
        mem.end_session(session_id)
    return mem


@pytest.mark.parametrize("reverse", [False, True], ids=["in-order", "reverse-ingest"])
def test_recall_ranks_the_later_value_first(reverse: bool) -> None:
    with _budget_memory(reverse) as mem:
        texts = [h.text for h in mem.recall("kitchen budget", k=10)]
        new = next(i for i, t in enumerate(texts) if "48k" in t)
        old = next(i for i, t in enumerate(texts) if "40k" in t and "48k" not in t)  # not "48k (previously: 40k)"
        assert new < old, texts
        superseded = [h for h in mem.recall("kitchen budget", k=10) if "40k" in h.text]
        assert any("superseded" in h.details and "48k" in h.details["superseded"] for h in superseded)


def test_currency_off_leaves_the_ranking_alone() -> None:
    with _budget_memory(False) as mem:
        mem.config.currency.pool = 0
        assert not any("superseded" in h.details for h in mem.recall("kitchen budget", k=10))


def _offsite_answer_then_correction(mem: Memory) -> None:
    """An answer, an acknowledgement, then a correction that shares no word with "Where is the team offsite?"."""
    for i, text in enumerate(["We're heading to Hollow Pines Lodge for the offsite.", "Nice, sounds great.",
                              "Actually no, Larkfield Manor, I had that wrong."]):
        mem.add_turn("assistant" if i == 1 else "user", text, session_id="s1", timestamp=FIRST + timedelta(minutes=i))
    mem.end_session("s1")


def test_a_correction_no_leg_finds_is_read_after_the_answer() -> None:
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem:
        _offsite_answer_then_correction(mem)
        # the turns (the session's episode names both)
        texts = [h.text for h in mem.recall("Where is the team offsite?", k=5) if h.kind == "turn"]
        assert any("Larkfield" in t for t in texts), texts
        assert min(i for i, t in enumerate(texts) if "Larkfield" in t) < min(
            i for i, t in enumerate(texts) if "Hollow Pines" in t)


def test_the_turns_after_the_best_answers_are_read_not_after_the_best_matches() -> None:
    """Turns that match the question better but answer nothing ("so, the team offsite") rank above the answer:
    the correction after the answer is still read (it follows an answer, not a match)."""
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem:
        for i, text in enumerate(["so, the team offsite", "where is the team offsite going to be, the team offsite?",
                                  "The team offsite, the team offsite!", "team offsite: where, the team offsite",
                                  "Where, where is the team offsite", "the team offsite again"]):
            mem.add_turn("user", text, session_id="s0", timestamp=FIRST - timedelta(days=3, minutes=-10 * i))
        mem.end_session("s0")
        _offsite_answer_then_correction(mem)
        texts = [h.text for h in mem.recall("Where is the team offsite?", k=10) if h.kind == "turn"]
        answer = texts.index("We're heading to Hollow Pines Lodge for the offsite.")
        assert answer >= 5, texts  # below five better matches: the case this is about
        assert "Actually no, Larkfield Manor, I had that wrong." in texts[:answer], texts


def test_an_answer_gives_a_value_of_the_kind_asked() -> None:
    assert gives_answer("name", "We're heading to Hollow Pines Lodge for the offsite.")
    assert not gives_answer("name", "so, the team offsite")
    assert gives_answer("num", "The deck needs 14 slides.") and not gives_answer("date", "The deck needs 14 slides.")
    assert gives_answer(None, "The deck needs 14 slides.") and not gives_answer(None, "sounds good")

# --- changes in other words, and two values that both hold (bench/currency_probe.py) ---------------------------


def test_abbreviations_keep_one_sentence_and_one_name() -> None:
    assert names_in("My dentist is Dr. Okafor.") == {"okafor"}
    assert names_in("Dr. Okafor retired. I signed up with Dr. Haldane.") == {"okafor", "haldane"}
    assert plain("see Dr. Okafor on St. Mary's Rd, e.g. Monday") == "see Dr  Okafor on St  Mary's Rd, e g  Monday"
    assert values_in("Lovely canals.") == set(), "a remark names no doer"


def test_clock_times_are_values_not_numbers() -> None:
    assert values_in("school starts at 8:45") == {"time:8-45"}
    assert values_in("the train leaves at 10:15pm") == {"time:22-15"}
    assert values_in("meet at 7 am") == {"time:7-00"}
    assert asked_kind("What time does the school start?") == "time"
    assert asked_kind("What is the wedding budget?") == "num"


def _scores(texts: list[str], query: str) -> dict[int, int]:
    statements = [Statement(t, T0 + i * 20 * DAY, 1.0 - 0.01 * i, speaker="user") for i, t in enumerate(texts)]
    return currency_scores(statements, query)[1]


def test_a_change_announced_without_the_subjects_words() -> None:
    texts = ["Rent on the flat is $1,800 a month, due on the first.",
             "ugh. The landlord bumped it up, we're paying $1,950 from March."]
    assert _scores(texts, "How much rent do we pay for the flat?") == {0: 1}
    assert follows_up(signature(texts[0]), signature(texts[1]), texts[1], signature("rent flat"), "num") is False, \
        "without a clause next to the question's subject there is no earlier answer"
    # no word saying something changed: two numbers, no change
    assert _scores([texts[0], "We're paying $1,950 for the car insurance."], "How much rent do we pay?") == {}


def test_a_name_said_to_be_gone_is_replaced() -> None:
    texts = ["We take Biscuit to Paws Clinic for checkups.",
             "Paws Clinic closed down. Biscuit's registered at Greenfield Vets now."]
    assert "name:paws clinic" in signature(texts[1]).replaced
    assert _scores(texts, "Which vet do we take the dog to?") == {0: 1}
    dentist = ["My dentist is Dr. Okafor.", "Dr. Okafor retired, I've signed up with Dr. Haldane."]
    assert _scores(dentist, "Who is my dentist?") == {0: 1}


def test_history_and_two_things_are_no_change() -> None:
    assert _scores(["I weigh 82 kg these days.", "Funny, I was 91 kg two years ago."], "How much do I weigh?") == {}
    assert _scores(["Maya goes to bed at 7:30.", "Leo goes to bed at 8:30 since he's older."],
                   "What time does everyone go to bed?") == {}
    assert asks_several("When are the cars' MOT dates?") and asks_several("How often do I water the plants?")
    assert not asks_several("How many guests are coming to the party?")
    assert _scores(["The ferns need water every 3 days.", "The cacti need water every 10 days."],
                   "How often do I water the plants?") == {}
    # a word announcing a change still counts in a plural question
    assert _scores(["Internet bill is 55 a month with Vodaline.", "Switched provider. Paying 39 a month now with Fibrex."],
                   "How much is the internet bill?") == {0: 1}


def test_an_assistants_reply_right_after_corrects_nothing() -> None:
    old = Statement("The team offsite is in Bruges this year.", T0, 1.0, speaker="user", session="s", seq=1)
    reply = Statement("Lovely canals, Ghent is nicer though.", T0 + 60, 0.9, session="s", seq=2, assistant=True)
    assert currency_scores([old, reply], "Where is the team offsite?")[1] == {}


def _said_then_changed(first: str, later: str, **currency: bool) -> Memory:
    """A store (no embedder) where the user said `first` in one session and, a month later, `later` in another."""
    mem = Memory(":memory:", config=Config(models={"embedder": "off"}, currency=currency))
    for sid, when, text in (("s1", FIRST, first), ("s2", LATER, later)):
        mem.add_turn("user", text, session_id=sid, timestamp=when)
        mem.end_session(sid)
    return mem


def test_recall_puts_a_change_in_other_words_first() -> None:
    with _said_then_changed("Our rent for the flat is $1,800 a month.",
                            "The landlord raised it, we're paying $1,950 now.") as mem:
        hits = mem.recall("How much rent do we pay for the flat?", k=10)
        texts = [h.text for h in hits]
        assert min(i for i, t in enumerate(texts) if "1,950" in t) < min(i for i, t in enumerate(texts) if "1,800" in t)


def test_a_which_question_follows_a_name_changed_with_a_cue() -> None:
    texts = ["Piano lessons with Mr. Kowalski every Wednesday.", "He stopped teaching. My lessons are with Mrs. Adeyemi now."]
    assert _scores(texts, "Who teaches me piano?") == {0: 1}
    assert _scores(["We booked the Alpenhof for the ski week.", "For the Naples leg we booked Hotel Sirena."],
                   "Which hotels did we book?") == {}, "a plural question: both hold"
    assert not asks_several("What time does Leo's school start?")


def test_a_value_word_refers_back() -> None:
    texts = ["Reading challenge: 52 books this year, one a week.", "Way behind. Lowering the target to 30, still a stretch."]
    assert _scores(texts, "How many books do I want to read this year?") == {0: 1}


# --- the pairs of rule d at once (issue 45) --------------------------------------------------------------------------

_THING_WORDS = ("deck slides budget launch invoice meeting garden bicycle python server latency queue journal tile "
                "penny slate kitchen renovation camera lens concert ticket thesis chapter Carlos Oslo").split()


def _thing_statements(seed: int, n: int = 30) -> list[Statement]:
    import random

    rng = random.Random(seed)
    out = []
    for i in range(n):
        words = [rng.choice(_THING_WORDS) for _ in range(rng.randint(3, 14))]
        tail = rng.choice(["", " not slate", " from penny to slate", " two years ago", " rather than the deck",
                           " it was 14 slides", ""])
        out.append(Statement(" ".join(words).capitalize() + tail + ".", ts=T0 + rng.choice([0, 1, 2, 3, i]) * DAY,
                             score=rng.random(), speaker=rng.choice([None, None, "Ann", "Bo"]),
                             summary=rng.random() < 0.05))
    return out


def test_thing_test_answers_as_competing_things_and_subject_overlap_for_every_pair() -> None:
    from episodic_memory.retrieve.currency import ThingTest, competing_things, rarity, subject_overlap

    for seed in range(20):
        sigs = [signature(s.text, frozenset({"carlos", "oslo"})) for s in _thing_statements(seed)]
        query = signature(" ".join(_THING_WORDS[seed % 7: seed % 7 + 3]))
        weight = rarity(sigs)
        for min_shared in (1, 2, 3):
            test = ThingTest(sigs, query, min_shared, weight, 0.5)
            for old in range(len(sigs)):
                for new in range(len(sigs)):
                    competing = competing_things(sigs[old], sigs[new], query, min_shared)
                    overlap = subject_overlap(sigs[old], sigs[new], weight)[1]
                    assert test.competing(old, new) == competing
                    assert test.overlap(old, new) == overlap  # to the last bit
                    assert test(old, new) == (competing and overlap >= 0.5)
            assert test._passes is not None  # the answers came from the matrices


def test_thing_test_at_the_overlap_threshold_and_with_a_word_that_is_also_a_value() -> None:
    from episodic_memory.retrieve.currency import (
        Signature,
        ThingTest,
        competing_things,
        rarity,
        subject_overlap,
    )

    sigs = [signature(s.text) for s in _thing_statements(3)]
    query = signature("deck slides budget")
    weight = rarity(sigs)
    overlaps = sorted({subject_overlap(a, b, weight)[1] for a in sigs for b in sigs} - {0.0})
    for threshold in overlaps[:: max(1, len(overlaps) // 12)]:  # a pair exactly at it: decided by the exact sum
        test = ThingTest(sigs, query, 1, weight, threshold)
        for old in range(len(sigs)):
            for new in range(len(sigs)):
                assert test(old, new) == (competing_things(sigs[old], sigs[new], query, 1)
                                          and subject_overlap(sigs[old], sigs[new], weight)[1] >= threshold)
    odd = [Signature(frozenset({"deck", "num:3", "tile"}), frozenset()),
           Signature(frozenset({"deck", "slate"}), frozenset({"num:3"}))]
    test = ThingTest(odd, Signature(frozenset({"deck"}), frozenset({"num:3"})), 2, rarity(odd), 0.1)
    assert test._passes is None  # "num:3" a word of one and a value of the other: the pairs one by one
    assert test(0, 1) == competing_things(odd[0], odd[1], Signature(frozenset({"deck"}), frozenset({"num:3"})), 2)


def test_currency_scores_the_same_with_and_without_the_loop_of_rule_d(monkeypatch: pytest.MonkeyPatch) -> None:
    from episodic_memory.retrieve import currency

    queries = ["deck slides budget", "which tile for the kitchen", "penny slate", "what did Carlos say about Oslo",
               "how many slides in the deck", "camera lens concert"]
    runs = [(_thing_statements(seed), queries[seed % len(queries)]) for seed in range(30)]
    fast = [currency_scores(statements, query, ignore_names=["Ann"]) for statements, query in runs]
    monkeypatch.setattr(currency, "ThingTest", lambda *_: None)  # every pair through the general loop
    slow = [currency_scores(statements, query, ignore_names=["Ann"]) for statements, query in runs]
    assert fast == slow
    assert any(newest for _, newest in fast)  # the pairs did supersede something


def test_a_plural_question_follows_a_statement_naming_the_value_it_replaces() -> None:
    """'Which shoes …' reads as asking about several things, where two answers may both hold; a later statement
    that names the earlier one's value as replaced still supersedes it (`currency.named_old`)."""
    texts = ["Race shoes will be the Novablast.", "Sorry, I misspoke earlier - race shoes will be the Endorphin Speed, "
             "not the Novablast."]
    question = "Which shoes am I racing in?"
    assert asks_several(question)
    assert _scores(texts, question) == {0: 1}
    statements = [Statement(t, T0 + i * 20 * DAY, 1.0 - 0.01 * i, speaker="user") for i, t in enumerate(texts)]
    # without "I misspoke" (a change cue of its own), it is the value named as replaced that decides
    plain_texts = [texts[0], "Race shoes will be the Endorphin Speed, not the Novablast."]
    plain_statements = [Statement(t, T0 + i * 20 * DAY, 1.0 - 0.01 * i, speaker="user")
                        for i, t in enumerate(plain_texts)]
    assert _scores(plain_texts, question) == {0: 1}
    assert currency_scores(plain_statements, question, Config(currency={"named_old": False}).currency)[1] == {}
    assert currency_scores(statements, question, Config(currency={"named_old": False}).currency)[1] == {0: 1}
    # a long request's "not" names no value it replaces (`currency.named_old_max_words`)
    long = ("I'm thinking about which race shoes to bring, maybe the Endorphin Speed, but I'm not sure the Novablast "
            "would not be better for the hilly course and the long training runs I still have planned this month.")
    assert len(long.split()) > Config().currency.named_old_max_words
    assert _scores([texts[0], long], question) == {}
    unbounded = Config(currency={"named_old_max_words": 1000}).currency
    assert currency_scores([statements[0], Statement(long, T0 + 20 * DAY, 0.99, speaker="user")], question,
                           unbounded)[1] == {0: 1}   # what the bound is for
    # naming no replaced value, a plural question still takes two answers as both holding
    assert _scores(["We booked the Alpenhof for the ski week.", "For the Naples leg we booked Hotel Sirena."],
                   "Which hotels did we book?") == {}


def test_a_rare_word_of_the_question_does_not_keep_a_replaced_value_first() -> None:
    """'roaster' is in the old turn alone: an exact lookup's tier (retrieve/exact.py) puts its holder first; a later
    statement naming that value as replaced outranks it all the same (`currency.stale_loses_tier`)."""
    question = "Which roaster is supplying the café's coffee?"

    def places(**currency: bool) -> tuple[int, int]:
        first = "I think we've settled on Cairnbrook Coffee as the roaster."
        later = "Our coffee supplier is Velha Torra these days, not Cairnbrook Coffee."
        with _said_then_changed(first, later, **currency) as mem:
            hits = mem.recall(question, k=5)
        old = next(i for i, h in enumerate(hits) if h.text == first)
        assert hits[old].details.get("exact") == 1 and "superseded" in hits[old].details
        new = next(i for i, h in enumerate(hits) if "Velha Torra these days" in h.text and h.kind in ("turn", "fact"))
        return old, new

    old, new = places()
    assert new < old
    old, new = places(stale_loses_tier=False)
    assert old < new   # the tier held, as before


def test_an_identifier_keeps_its_holder_first_whatever_replaced_it() -> None:
    """An identifier asked for is looked up exactly: its holder stays first even when a later statement (not
    holding it) names its value as replaced — the tier is lost only to a question's words."""
    with _said_then_changed("Release ZQ-65468 ships with 14 slides in the deck.",
                            "The release deck has 16 slides now, not 14.") as mem:
        hits = mem.recall("how many slides for release ZQ-65468?", k=5)
        assert hits[0].text == "Release ZQ-65468 ships with 14 slides in the deck.", [h.text for h in hits]


def test_a_word_in_s_that_is_no_plural_asks_about_one_thing() -> None:
    """`asks_several` reads a plural after a determiner; "this", "campus", "thesis" end in s and are none."""
    for question in ("What's my filing deadline this year?", "Which campus do I study at?",
                     "What's the word count on the thesis now?", "Who's my accountant this year?"):
        assert not asks_several(question), question
    assert asks_several("When are my trips?") and asks_several("Which hotels did we book?")


def test_a_self_correction_is_a_change_at_recall_too() -> None:
    """The self-corrections consolidation reads as change cues ("I misspoke", "correct myself", "typo'd that") are
    ones to the currency pass as well: "Need to correct myself - the shop platform is Printnest." supersedes the
    earlier platform for a question asking none of their words but "platform"."""
    texts = ["Set up Paperfox Studio on Handmart, fees are ok.", "Need to correct myself - the shop platform is Printnest."]
    assert all(announces_change(t) for t in ("I misspoke earlier.", "Typo'd that earlier: 20 pages.",
                                               "That came out wrong before.", "Need to correct myself."))
    assert not announces_change("That's correct, thanks.")
    assert _scores(texts, "Which platform is Paperfox Studio selling on?") == {0: 1}
