"""The assistant's answer as a second reader of a turn (consolidate/learned.py `Replies`): the reply models read an
answer's opening; a to-do taken on, one reported done in other words, a value changed and a recap asked for are
decided with the answer as they are not without it (`Config.loops.read_replies`). The phrasings here are in none of
the banks the models were trained on."""

from __future__ import annotations

from typing import Any

import pytest

from episodic_memory import Config, Memory
from episodic_memory.consolidate import learned
from episodic_memory.models.embedder import load_embedder

OFF = {"loops": {"read_replies": False}}


def run(turns: list[tuple[str, str, str]], **config: Any) -> Memory:
    """A memory that took `turns` (session, role, text), one minute apart, every session ended."""
    mem = Memory(":memory:", config=Config(**config))
    for i, (session, role, text) in enumerate(turns):
        mem.add_turn(role, text, session_id=session, timestamp=f"2026-11-{2 + 3 * int(session[1:]):02d}T10:{i:02d}:00Z")
    for session in dict.fromkeys(t[0] for t in turns):
        mem.end_session(session)
    return mem


def loops(turns: list[tuple[str, str, str]], **config: Any) -> list[tuple[str, str]]:
    with run(turns, **config) as mem:
        return [(lp.text, lp.status) for lp in mem.loops(status="all")]


def test_the_reply_models_ship_and_read_an_answers_opening() -> None:
    models = learned.load_models()
    assert models is not None and set(learned.REPLY_HEADS) <= set(models.heads)
    assert learned.reply_opening("Brilliant, that's done. Anything else for today?") == "Brilliant, that's done."
    assert learned.reply_opening("  ") == ""
    assert len(learned.reply_opening("x" * 500)) == 200
    judge = learned.judge_for(load_embedder(None))
    assert judge is not None
    done = judge.reply("Superb - that's sorted then, I'll mark it complete.")
    todo = judge.reply("Right, I'll remind you about it on Thursday.")
    change = judge.reply("Noted: 16 now, not 14.")
    chatter = judge.reply("Sunny spells later, apparently.")
    assert done and todo and change and chatter
    line = {h: models.heads[h].threshold for h in learned.REPLY_HEADS}
    assert done["reply_done"] >= line["reply_done"] > done["reply_todo"]
    assert todo["reply_todo"] >= line["reply_todo"] > todo["reply_done"]
    assert change["reply_change"] >= line["reply_change"]
    assert all(chatter[h] < line[h] for h in learned.REPLY_HEADS)


def test_an_answer_is_the_next_assistant_turn_of_the_same_session() -> None:
    judge = learned.judge_for(load_embedder(None))
    assert judge is not None
    with run([("s1", "user", "I have to get the boiler serviced."), ("s1", "assistant", "On your list now."),
              ("s2", "user", "The boiler is purring.")]) as mem:
        turns = mem.session_turns("s1") + mem.session_turns("s2")
    replies = learned.Replies(judge, turns)
    assert list(replies.answers.values()) == ["On your list now."]
    assert replies.probability(turns[2], "reply_done") is None   # no answer yet: nothing to read
    assert not replies.says(turns[2], "reply_done")


BOILER = [("s1", "user", "I have to get the boiler serviced before winter."),
          ("s1", "assistant", "Okay, I'll keep that one on your list."),
          ("s2", "user", "The engineer was round this morning and the boiler is purring."),
          ("s2", "assistant", "Brilliant, I'll strike that off your list.")]


def test_a_report_of_the_resulting_state_closes_its_loop_when_the_answer_takes_it_as_done() -> None:
    assert loops(BOILER) == [("get the boiler serviced before winter", "closed")]
    assert loops(BOILER, **OFF) == [("get the boiler serviced before winter", "open")]
    # the same report answered as news, not as a to-do done, leaves the loop open
    as_news = [*BOILER[:3], ("s2", "assistant", "Glad to hear the engineer came.")]
    assert loops(as_news) == [("get the boiler serviced before winter", "open")]


def test_a_to_do_taken_on_in_passing_opens_a_loop_when_the_answer_takes_it_as_one() -> None:
    turns = [("s1", "user", "I need to ring Aunt Maeve about what she can eat at the wedding."),
             ("s1", "assistant", "Okay, I'll keep that one on your list.")]
    assert loops(turns) == [("ring Aunt Maeve about what she can eat at the wedding", "open")]
    assert loops(turns, **OFF) == []


def test_a_recap_asked_for_raises_no_loop() -> None:
    turns = [("s1", "user", "Could you remind me about the house move, where are we?"),
             ("s1", "assistant", "Here's where the move stands: boxes packed, van booked for Saturday.")]
    assert loops(turns) == []
    assert loops(turns, **OFF) == [("the house move, where are we", "open")]
    # "remind me where/what/how …" is a recap asked for by its words: no loop, answer read or not
    asked = [("s1", "user", "Could you remind me where we are with the house move?"), turns[1]]
    assert loops(asked) == loops(asked, **OFF) == []


@pytest.mark.parametrize("config", [{}, OFF])
def test_a_new_value_is_linked_to_the_old_one_when_the_answer_takes_it_as_a_change(config: dict[str, Any]) -> None:
    turns = [("s1", "user", "Priya is running the stall at the fair."), ("s1", "assistant", "Good to know."),
             ("s2", "user", "Tom's running the stall at the fair, Priya's off sick."),
             ("s2", "assistant", "Noted, that replaces what I had.")]
    with run(turns, **config) as mem:
        current = {f.text: f.current for f in mem.facts(include_superseded=True)}
    assert current["Tom's running the stall at the fair, Priya's off sick."]
    assert current["Priya is running the stall at the fair."] is (config == OFF)


def test_an_answer_names_the_old_value_a_change_replaces() -> None:
    from episodic_memory.consolidate.supersede import holds_any, old_values_named

    def names_old_value(answer: str, said: str, old: str) -> bool:
        return holds_any(old_values_named(answer, said), old)

    assert names_old_value("Got it - 16 slides, not 14.", "The deck needs 16 slides.", "The deck needs 14 slides.")
    assert names_old_value("Okay, changing the fitting from May 3 to May 5.", "Fitting is May 5 now.",
                           "The fitting is on May 3.")
    # the statement itself names the old date; the answer marks it as the old one
    assert names_old_value("Updated - the fitting is May 5, not May 3.", "May 5 for the fitting, May 3 fell through.",
                           "The fitting is on May 3.")
    assert names_old_value("Right, Tom rather than Priya then.", "Tom is running the stall.",
                           "Priya is running the stall.")
    assert not names_old_value("Got it - 16 slides.", "The deck needs 16 slides.", "The deck needs 14 slides.")
    assert not names_old_value("Okay, Tom it is.", "Tom is running the stall.", "Priya is running the stall.")


def test_a_change_said_without_its_subject_replaces_the_fact_its_answer_names() -> None:
    """Among many facts with amounts, "capping it at £8k" is the car budget because the answer says so."""
    turns = [("s1", "user", "The grant bid is for £231k."), ("s1", "assistant", "Noted."),
             ("s1", "user", "Budget for the car is £11,000 max."), ("s1", "assistant", "Noted."),
             ("s1", "user", "Rent for the allotment plot is £77 a year."), ("s1", "assistant", "Noted."),
             ("s2", "user", "Numbers updated, capping it at £8k."),
             ("s2", "assistant", "Okay, your car budget is now £8k.")]
    with run(turns) as mem:
        replaced = [f.text for f in mem.facts(include_superseded=True) if not f.current]
    assert replaced == ["Budget for the car is £11,000 max."]


def test_a_long_answer_is_read_whole_before_it_vetoes_a_loop() -> None:
    """An answer that lists what it took on further down ("- To-do: …") acknowledges the to-do."""
    said = "I'll send the updated model to Sarah by Friday, after the hiring plan tab is done."
    listed = ("- Sensitivity table stays, with retention on one axis\n- The second axis could be the hiring pace\n"
              "- To-do: send the updated model to Sarah by Friday")
    assert loops([("s1", "user", said), ("s1", "assistant", listed)]) == [
        ("send the updated model to Sarah by Friday, after the hiring plan tab is done", "open")]
    judge = learned.judge_for(load_embedder(None))
    assert judge is not None
    opening, whole = judge.reply(listed), judge.reply(listed, whole=True)
    assert opening is not None and whole is not None
    assert opening["reply_todo"] < Config().loops.reply_veto_line <= whole["reply_todo"]
    assert learned.reply_parts("Two reminders set:\n- Tonight: book the flight. Then rest.") == [
        "Two reminders set:", "Tonight:", "book the flight.", "Then rest."]


def test_a_question_asking_for_a_reminder_opens_a_loop_when_the_answer_takes_it_on() -> None:
    turns = [("s1", "user", "Could you nudge me to renew the parking permit tomorrow?"),
             ("s1", "assistant", "Okay, I'll remind you tomorrow.")]
    assert [status for _, status in loops(turns)] == ["open"]
    # the request read as a statement raises it too (`loops.request`); with neither reader, a question raises none
    assert [status for _, status in loops(turns, **OFF)] == ["open"]
    assert loops(turns, loops={"read_replies": False}, consolidation={"rules_off": ["loops.request"]}) == []


@pytest.mark.parametrize("news", [
    "Marisol is our landlady and honestly she's been lovely about the moving out.",
    "Copper Kettle Bakery upped the October order to 40 loaves.",
    "Hollis in the grants office is handling the draft budget.",
])
def test_news_about_a_loops_people_or_things_closes_nothing_unless_the_answer_takes_it_as_done(news: str) -> None:
    todo = {"Marisol": "I still have to tell Marisol we're moving out.",
            "Copper": "I've got to invoice Copper Kettle Bakery for the October order this week.",
            "Hollis": "I'll send the draft budget to Hollis for sign-off by Monday."}[news.split()[0]]
    turns = [("s1", "user", todo), ("s1", "assistant", "Noted."), ("s2", "user", news), ("s2", "assistant", "Good to know.")]
    assert [status for _, status in loops(turns)] == ["open"]
    # the pair model alone (the old gate, 0.05) took the shared names for a report of it done
    assert [status for _, status in loops(turns, loops={"completion_gate": 0.05})] == ["closed"]
    done = turns[:2] + [("s2", "user", news), ("s2", "assistant", "Lovely, I'll tick that off.")]
    if news.startswith("Hollis"):
        assert [status for _, status in loops(done)] == ["closed"]


def test_a_lead_in_with_nothing_to_do_in_it_is_not_the_loops_text() -> None:
    from episodic_memory.consolidate.loops import loop_text

    said = "Quick thing before it slips my mind, it is down to me to renew the van insurance."
    assert loop_text(said) == "it is down to me to renew the van insurance"
    assert loop_text("Quick thing before it slips my mind.") == "Quick thing before it slips my mind"   # nothing else
    assert loops([("s1", "user", said), ("s1", "assistant", "Okay, that's on your list.")]) == [
        ("it is down to me to renew the van insurance", "open")]


def test_a_generic_acknowledgement_is_read_as_one_and_a_telling_answer_is_not() -> None:
    models = learned.load_models()
    assert models is not None and learned.GENERIC_REPLY_HEAD in models.heads
    judge = learned.judge_for(load_embedder(None))
    assert judge is not None
    line = models.heads[learned.GENERIC_REPLY_HEAD].threshold
    for answer in ("Right, noted down.", "Cool, thanks for telling me.", "Understood."):
        read = judge.reply(answer)
        assert read is not None and read[learned.GENERIC_REPLY_HEAD] >= line, answer
    for answer in ("Okay, I've moved the fitting to May 5.", "I'll remind you on Thursday.",
                   "Great, crossing that off your list."):
        read = judge.reply(answer)
        assert read is not None and read[learned.GENERIC_REPLY_HEAD] < line, answer


def test_a_generic_answer_does_not_say_a_value_changed_but_a_telling_one_does() -> None:
    judge = learned.judge_for(load_embedder(None))
    assert judge is not None
    with run([("s1", "user", "The fitting is May 5 now."), ("s1", "assistant", "Got it, noted."),
              ("s2", "user", "The fitting is May 5 now."), ("s2", "assistant", "Got it - May 5, not May 3.")]) as mem:
        turns = mem.session_turns("s1") + mem.session_turns("s2")
    replies = learned.Replies(judge, turns)
    change = judge.head("reply_change")
    assert change is not None
    # the change model alone reads both answers as a change; the generic one is an acknowledgement any turn gets
    assert (replies.probability(turns[0], "reply_change") or 0) >= change.threshold
    assert replies.generic(turns[0]) and not replies.generic(turns[2])
    assert not replies.says(turns[0], "reply_change")
    assert replies.says(turns[2], "reply_change")


def test_without_the_generic_head_an_answer_is_read_as_before() -> None:
    models = learned.load_models()
    assert models is not None
    without = learned.Models(models.embedder_id, {k: v for k, v in models.heads.items()
                                                  if k != learned.GENERIC_REPLY_HEAD}, models.meta)
    judge = learned.SentenceJudge(without, load_embedder(None))
    with run([("s1", "user", "The fitting is May 5 now."), ("s1", "assistant", "Got it, noted.")]) as mem:
        turns = mem.session_turns("s1")
    replies = learned.Replies(judge, turns)
    assert not replies.generic(turns[0]) and replies.says(turns[0], "reply_change")
    read = judge.reply("Got it, noted.")
    assert read is not None and learned.GENERIC_REPLY_HEAD not in read


def test_an_answer_taking_a_statement_as_a_change_does_not_make_an_unrelated_fact_its_old_value() -> None:
    """The answer says a value changed, but the only earlier fact is another slot of another thread: the pair
    model is unsure of it, and that is not enough (`consolidation.reply_supersedes_line`)."""
    turns = [("s1", "user", "You know the boat engineer is Isidore now."),
             ("s1", "assistant", "Noted, Isidore is the engineer."),
             ("s2", "user", "Um the director this time is Henrike."),
             ("s2", "assistant", "Got it, the director is now Henrike.")]
    with run(turns) as mem:
        assert all(f.current for f in mem.facts(include_superseded=True))
    with run(turns, consolidation={"reply_supersedes_line": 0.5}) as mem:   # the line before: 0.5
        assert [f.text for f in mem.facts(include_superseded=True) if not f.current] == [
            "You know the boat engineer is Isidore now."]


def test_a_change_said_in_other_words_than_the_cue_words_is_held_to_the_change_line() -> None:
    """No cue word, no answer taking it as a change: the change head reads it as one, so the pair model's trained
    line decides, not the higher line for news (`consolidation.news_change_line`)."""
    turns = [("s1", "user", "The rent has been agreed at £30k a year, which Ronan insists is a bargain."),
             ("s1", "assistant", "Sounds like a fair deal."),
             ("s2", "user", "Things have changed since we last spoke - we've signed up to £36,000 a year for the unit."),
             ("s2", "assistant", "Thanks for letting me know.")]
    old = "The rent has been agreed at £30k a year, which Ronan insists is a bargain."
    with run(turns) as mem:
        assert [f.text for f in mem.facts(include_superseded=True) if not f.current] == [old]
    with run(turns, consolidation={"news_change_line": 1.01}) as mem:   # read as news
        assert all(f.current for f in mem.facts(include_superseded=True))
