"""Every hand-written rule left in consolidation and in currency at recall, as data: what it does, how to switch it
off, a case it decides (docs/consolidation.md, "The rules, as data", has what each was measured to be worth).

`rule_on(name)` is what a rule's site asks; `rules_off(names)` is set around each consolidation run and recall.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Rule:
    name: str                       # "facts.wish": area.rule
    does: str                       # one line
    probe: str                      # a case it decides (tests/test_heuristics.py runs each)
    decides: str                    # what it does with the probe
    switch: dict[str, Any] = field(default_factory=dict)   # Config overrides that turn it off

    def off(self) -> dict[str, Any]:
        return self.switch or {"consolidation.rules_off": [self.name]}


def _currency(setting: str, does: str) -> Rule:
    """A rule of currency at recall: named for its own Config `setting` (``currency.x``), which switches it off; it
    has no probe here (tests/test_currency*.py hold its cases)."""
    return Rule(setting, does, "", "", {setting: False})


REGISTRY: tuple[Rule, ...] = (
    # --- facts: what is a statement at all ----------------------------------------------------------------------
    Rule("facts.request", "a request to the assistant, and the material after it, states no fact",
         "Summarise this: Acme reported 523 tickets", "no fact from it"),
    Rule("facts.question", "a question states nothing (it ends with '?' or opens like one)",
         "Is the venue booked yet?", "no fact from it"),
    Rule("facts.hypothetical", "a musing ('In theory …', 'Someday …', 'In a perfect world …', 'What if …') states "
         "no fact, whatever the durable model says (a hedge such as 'Maybe …' or 'If …' is still the model's call)",
         "In theory the kit should be washed by the club, realistically parents do it.", "no fact from it"),
    Rule("facts.reaction", "thanks, praise or sympathy said to the other person is about nothing",
         "That's so cool, Caroline!", "no fact from it"),
    Rule("facts.stated_part", "a statement that turns to ask the assistant keeps what it states",
         "We bumped the budget to 48k, can you redo the plan?", "fact: We bumped the budget to 48k."),
    Rule("facts.memo", "'remember that X' keeps X", "Please remember that the venue is Pier Nine",
         "fact: the venue is Pier Nine"),
    Rule("facts.bare_cue", "a change cue alone marks the next sentence as the change",
         "Wait, I gave you the wrong one. It's 66.", "'It's 66.' is a correction"),
    Rule("facts.not_clause", "', not X' names the replaced value and leaves the fact's text",
         "The deck needs 16 slides, not 14.", "fact: The deck needs 16 slides. (replaces 14)"),
    Rule("facts.wrong_value_first", "a value named as wrong ('not X', 'rather than X') starts X, after at most a "
         "determiner: 'not doing more for Dad' negates a doing and names no value", "I feel guilty that I'm not "
         "doing more for Dad", "no change cue"),
    Rule("facts.wish", "a wish for a change is no change", "Sarah wants the chart moved to slide 3",
         "no supersession"),
    Rule("facts.type_cues", "cue words type a fact (decided → decision, prefer → preference, …)",
         "We decided to skip the waitlist.", "type decision"),
    # --- facts: which earlier fact a statement changes ----------------------------------------------------------
    Rule("facts.cued_kept", "a sentence a cue word typed (decided, prefer, always …, actually) is kept at a lower "
         "line of the durable model (Config.consolidation.durable_cued_line)", "Always include version numbers when I ask about "
         "libraries.", "kept as a preference"),
    Rule("facts.change_needs_a_value", "without a change cue, the supersedes model is asked only about facts that give "
         "a value of the same kind with another value", "Here's my current code: (after: Here's what I have so far:)",
         "no supersession"),
    Rule("facts.long_statements", "a statement longer than Config.consolidation.supersede_max_words neither changes nor is changed "
         "by the supersedes model (it holds many claims)", "I'm trying to implement a secure authentication system "
         "for my application, considering … (40 words)", "no supersession"),
    Rule("facts.long_turns", "a statement from a turn longer than Config.consolidation.learned_max_turn_words (a request with its "
         "context, code) is no change of one value", "I'm using Flask 2.3.1 … (in a 200-word turn, after: I'm "
         "currently using Gunicorn 20.1.0.)", "no supersession"),
    Rule("facts.part_of_whole", "a count of a part of a whole ('13 of the 14 slides are final') is progress on the "
         "whole, not a new value for it", "13 of the 14 slides are final. (after: The deck needs 14 slides)",
         "no supersession"),
    Rule("facts.answer_names_old", "a change the assistant's answer names the old value of ('Got it - 16, not 14.') "
         "replaces the fact holding that value", "Got it - 16 slides, not 14. (answering: The deck needs 16 slides; "
         "after: The deck needs 14 slides)", "that fact is the one replaced"),
    Rule("facts.statement_names_old", "a change that names the value it replaces ('It's Pune now, not Bengaluru', "
         "'Shazia, never Harpreet', 'from Araminta to Ermengarde') replaces a fact holding that value, whatever its "
         "shape (the pair model picks among several, at consolidation.reply_supersedes_line; a number alone is no "
         "name or date: its holders go to the pair model at its usual line)",
         "It's Pune now for our destination city, not Bengaluru. (after: We're moving to Bengaluru)",
         "that fact is the one replaced"),
    Rule("facts.another_persons", "one person's news never replaces another person's fact unless it corrects it",
         "Caroline: the zoo closes on June 30 (after Melanie: I took the kids on June 9)", "no supersession"),
    Rule("facts.standing_rule", "a standing instruction changes only when corrected, or said again reading the same "
         "with its values blanked (Config.consolidation.standing_frame_cosine): another rule on a near topic is no change",
         "We ended up with 5 options when I asked about restaurants", "the rule stays current"),
    Rule("facts.earlier_statement", "a cued change with no fact of the old value makes the earlier statement one",
         "Actually it's 66, not 60 (60 said in a turn no fact kept)", "the old statement becomes a fact, superseded"),
    Rule("facts.bare_name_correction", "a correction too short to stand alone that names the value it replaces is "
         "kept as the change of the fact holding that value (dropped when none does)",
         "It's Alasdair, actually, not Owain. (after: Lachlan put me in touch with Owain, who'll do the rigging.)",
         "fact: Lachlan put me in touch with Alasdair, who'll do the rigging."),
    Rule("facts.rewrite_value", "a bare correction is restated in the old fact's words with the new value",
         "Actually it's 14 not 12. (after: The deck needs 12 slides)", "fact: The deck needs 14 slides"),
    Rule("facts.values_differ", "a near-duplicate that gives another number, date or name is no restatement",
         "The plot costs £112 a year. (after: The plot costs £60 a year.)", "a new fact, not a recurrence bump"),
    # --- loops --------------------------------------------------------------------------------------------------
    Rule("loops.explicit_cues", "a sentence that names itself a to-do or asks to be reminded raises a loop, whatever "
         "the commitment model says", "Also remind me to book the Lisbon-London flight tonight, I keep forgetting.",
         "loop: book the Lisbon-London flight tonight"),
    Rule("loops.declined", "a sentence that opens by declining the task ('No need to …', 'Don't bother …') raises no "
         "loop, whatever the commitment model says", "No need to remind me about the bins, my neighbour always does "
         "it.", "no loop"),
    Rule("loops.request", "a question asking the assistant to do something ('Could you nudge me to …?') is read by "
         "the commitment model like a statement (any other question raises no loop but by an explicit cue)",
         "Could you nudge me to apply for the pavement licence tomorrow morning?",
         "loop: apply for the pavement licence tomorrow morning"),
    Rule("loops.musing", "a musing ('Someday we'll have to …', 'In theory …', 'Ideally …', 'What if …') takes no "
         "to-do on, whatever the commitment model says", "Someday we'll have to talk about selling his house, not yet.",
         "no loop"),
    Rule("loops.lemma_close", "besides the pair model, a report of the loop's own act on its own object closes it "
         "(by lemma: 'sent the model to Sarah' closes 'send the model to Sarah'; a short 'I did!' answers the question "
         "before it)", "I sent the model to Sarah last Friday. (open: send the model to Sarah by Friday)",
         "the loop closes"),
    Rule("loops.quoted", "a quoted passage is someone else's words: no loop from it",
         "proofread this: 'I need to send the invoice by Friday'", "no loop"),
    Rule("loops.question_closes_nothing", "a question never reports a loop done", "Did the bus get booked?",
         "the loop stays open"),
    Rule("loops.same_loop", "a loop said again is a mention of the stored one, not a second loop",
         "I still have to book the bus (after: need to book the bus by Friday)", "one loop, two mentions"),
    Rule("loops.object_text", "a loop's text is the object a cue names ('remind me to X' → X)",
         "remind me to send Dana the pilot agreement", "loop: send Dana the pilot agreement"),
    # --- currency at recall: a later statement of a value outranks the earlier one ------------------------------
    _currency("currency.restated", "a statement restating the current value is current too"),
    _currency("currency.typed", "values are compared by kind (number, date, name)"),
    _currency("currency.propagate", "a change carries to the statements that repeated the old value"),
    _currency("currency.answers", "two answers to the asked kind of value about one subject: the later wins"),
    _currency("currency.by_speaker", "one speaker's statement does not supersede another's"),
    _currency("currency.promote", "the later statement takes the score of what it superseded"),
    _currency("currency.followups_cued", "a change in other words needs a change cue"),
    _currency("currency.slot_pairs", "a statement's values are read per local context (slot pairs)"),
    _currency("currency.cue_near", "a change word must sit next to the value it changes"),
    _currency("currency.units", "a number's unit is part of its kind (16 km is not 16 slides)"),
    _currency("currency.stated", "only stated values count (not asked ones)"),
    _currency("currency.skip_between", "a question about the time between two things is left as ranked"),
    _currency("currency.best_slot", "a statement's answer is in the local context naming the most of the question"),
    _currency("currency.named_old", "a statement naming the value it replaces supersedes its holder, whatever "
              "the question"),
    _currency("currency.stale_loses_tier", "a superseded candidate is ranked no higher than the exact-lookup tier "
              "of the statement that superseded it"),
    _currency("currency.skip_dated", "a question with a time range is left as ranked"),
)
BY_NAME = {r.name: r for r in REGISTRY}

_OFF: ContextVar[frozenset[str]] = ContextVar("episodic_rules_off", default=frozenset())


def rule_on(name: str) -> bool:
    """Whether the rule `name` acts in this consolidation run or recall (`Config.consolidation.rules_off` names it, or not)."""
    return name not in _OFF.get()


@contextmanager
def rules_off(names: Any) -> Iterator[None]:
    """Within it, the rules `names` (from `Config.consolidation.rules_off`) do not act."""
    unknown = set(names) - set(BY_NAME)
    if unknown:
        raise ValueError(f"unknown rules in rules_off: {sorted(unknown)} (see episodic_memory.heuristics.REGISTRY)")
    token = _OFF.set(frozenset(names))
    try:
        yield
    finally:
        _OFF.reset(token)
