"""Every rule in the registry (episodic_memory.heuristics) is switchable and decides its probe case: with the rule
on, the probe comes out as the registry says; switched off (its `switch`), it comes out otherwise."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

import numpy as np
import pytest

from episodic_memory import Config, Memory
from episodic_memory.consolidate import learned
from episodic_memory.consolidate.extract import classify_sentence, clean, extract_rules
from episodic_memory.consolidate.facts import (
    counts_a_part,
    not_a_restatement,
    old_values,
    one_slot,
    short_turn,
    shows_a_change,
)
from episodic_memory.consolidate.loops import detect_learned, detect_rules, loop_text
from episodic_memory.consolidate.supersede import has_change_cue
from episodic_memory.heuristics import BY_NAME, REGISTRY, rule_on, rules_off
from episodic_memory.store.records import StoredTurn

NOW = datetime(2026, 11, 2, tzinfo=timezone.utc)


class _Line:
    threshold = 0.5


class StubJudge:
    """The sentence models' stand-in: keeps every statement (or those `keep` accepts) and scores nothing else, so a
    probe shows what the rule alone decides."""

    def __init__(self, keep: Callable[[str], bool] = lambda text: True, durable: float = 1.0) -> None:
        self.keep = keep
        self.durable = durable
        self.models = type("M", (), {"heads": {}})()

    def head(self, name: str) -> _Line:
        return _Line()

    def scores(self, texts: list[str], vectors: object = None) -> dict[str, np.ndarray]:
        n = len(texts)
        return {"durable": np.array([self.durable if self.keep(t) else 0.0 for t in texts]), "commitment": np.zeros(n),
                "completion": np.zeros(n), "change": np.zeros(n)}


class SureJudge(StubJudge):
    """A stand-in sure that every statement takes a to-do on: what the rule alone vetoes shows."""

    def scores(self, texts: list[str], vectors: object = None) -> dict[str, np.ndarray]:
        return {**super().scores(texts, vectors), "commitment": np.ones(len(texts))}


def _turn(text: str, turn_id: int = 1, role: str = "user", speaker: str = "Maya") -> StoredTurn:
    return StoredTurn(id=turn_id, user_id="default", session_id="s1", seq=turn_id, role=role, speaker=speaker,
                      content=text, ts=NOW.timestamp() + turn_id, ingested_at=NOW.timestamp(), turn_id=None)


def _facts(*texts: str, participants: tuple[str, ...] = ()) -> list[str]:
    turns = [_turn(t, i + 1) for i, t in enumerate(texts)]
    return [c.text for c in extract_rules(turns, {}, participants=participants, judge=StubJudge())]  # type: ignore[arg-type]


def _memory_facts(config: Config, *turns: tuple[str, str, str], keep: Callable[[str], bool] = lambda t: True
                  ) -> list[tuple[str, bool]]:
    """Facts of a store fed `turns` (session, speaker, text), the sentence models stubbed (`StubJudge(keep)`)
    and the pair models off: the rules of slot matching decide."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(learned, "judge_for", lambda *a, **k: StubJudge(keep))
        mp.setattr(learned, "models_for", lambda *a, **k: None)
        with Memory(":memory:", config=config) as mem:
            for session, speaker, text in turns:
                mem.add_turn("user", text, session_id=session, speaker=speaker)
                mem.end_session(session)
            return sorted((f.text, f.current) for f in mem.facts(include_superseded=True))


def _loops(config: Config, *texts: str) -> list[tuple[str, str, int]]:
    """Loops of a store fed `texts`, one session each, by the rules (no learned models)."""
    with Memory(":memory:", config=config.replace({"consolidation.learned": False})) as mem:
        for i, text in enumerate(texts):
            mem.add_turn("user", text, session_id=f"s{i}")
            mem.end_session(f"s{i}")
        return sorted((lp.text, lp.status, lp.mentions) for lp in mem.loops(status="all"))


def _stubbed_loops(config: Config, *texts: str) -> list[tuple[str, str]]:
    """Loops the learned path makes of `texts` (one session each) when the models say no to everything."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(learned, "judge_for", lambda *a, **k: StubJudge())
        with Memory(":memory:", config=config) as mem:
            for i, text in enumerate(texts):
                mem.add_turn("user", text, session_id=f"s{i}", timestamp=f"2026-11-0{i + 1}T10:00:00Z")
                mem.end_session(f"s{i}")
            return sorted((lp.text, lp.status) for lp in mem.loops(status="all"))


#: rule name → what its probe comes out as (called with the rule on, then off)
PROBES: dict[str, Callable[[Config], object]] = {
    "facts.request": lambda c: _facts("Summarise this: Acme reported 523 support tickets last quarter."),
    "facts.question": lambda c: _facts("Is the venue for the 14 guests booked yet?"),
    "facts.hypothetical": lambda c: _facts("In theory the kit should be washed by the club, realistically parents do it."),
    "facts.reaction": lambda c: _facts("That's great news, Caroline!", participants=("Caroline", "Maya")),
    "facts.stated_part": lambda c: _facts("We bumped the budget to 48k, can you redo the plan?"),
    "facts.memo": lambda c: _facts("Please remember that the venue is Pier Nine Hall."),
    "facts.bare_cue": lambda c: [(x.text, x.cued) for x in extract_rules(
        [_turn("Wait, I gave you the wrong one. The deck needs 66 slides.")], {})],
    "facts.not_clause": lambda c: clean("The deck needs 16 slides, not 14.", "correction"),
    "facts.wrong_value_first": lambda c: has_change_cue("I feel guilty that I'm not doing more for Dad"),
    "facts.wish": lambda c: has_change_cue("Sarah wants the chart moved to slide 3"),
    "facts.type_cues": lambda c: classify_sentence("We decided to skip the waitlist entirely.", NOW),
    "facts.another_persons": lambda c: _memory_facts(
        c, ("s1", "Melanie", "I took the kids to the Oak Park zoo on June 9."),
        ("s2", "Caroline", "The Oak Park zoo closes on June 30.")),
    "facts.standing_rule": lambda c: _memory_facts(
        c, ("s1", "Maya", "Always show me 3 options when I ask about restaurants."),
        ("s2", "Maya", "We ended up with 5 options when I asked about restaurants near the office.")),
    "facts.earlier_statement": lambda c: _memory_facts(
        c, ("s1", "Maya", "The trip budget is 60 per night."),
        ("s2", "Maya", "Actually the trip budget is 66 per night, not 60."), keep=lambda t: "66" in t),
    "facts.bare_name_correction": lambda c: _memory_facts(
        c, ("s1", "Maya", "Lachlan put me in touch with Owain, who'll do the rigging."),
        ("s2", "Maya", "It's Alasdair, actually, not Owain.")),
    "facts.rewrite_value": lambda c: _memory_facts(
        c, ("s1", "Maya", "The deck needs 12 slides."), ("s2", "Maya", "Actually it's 14, not 12.")),
    "facts.change_needs_a_value": lambda c: shows_a_change("Here's my current code:", "Here's what I have so far:"),
    "facts.answer_names_old": lambda c: old_values(
        "The deck needs 16 slides.", "Got it - 16 slides, not 14.", True).numbers,
    "facts.statement_names_old": lambda c: old_values(
        "It's Pune now for our destination city, not Bengaluru.", None, True).names,
    "facts.part_of_whole": lambda c: counts_a_part("13 of the 14 slides are final.", "The deck needs 14 slides."),
    "facts.long_statements": lambda c: one_slot("word " * 40, Config().consolidation.supersede_max_words),
    "facts.long_turns": lambda c: short_turn("word " * 100, Config().consolidation.learned_max_turn_words),
    "facts.cued_kept": lambda c: [x.text for x in extract_rules(
        [_turn("Always include version numbers when I ask about libraries.")], {}, config=c,
        judge=StubJudge(durable=0.3))],  # type: ignore[arg-type]
    "facts.values_differ": lambda c: not_a_restatement("The plot costs £112 a year.", "The plot costs £60 a year."),
    "loops.quoted": lambda c: [x.text for x in detect_rules(_turn(
        "proofread this: 'I need to send the invoice to Dana by Friday'"))] if rule_on("loops.quoted") else
    [x.text for x in detect_rules(_turn("I need to send the invoice to Dana by Friday"))],
    "loops.declined": lambda c: [x.text for x in detect_learned(
        _turn("No need to remind me about the bins, my neighbour always does it."), SureJudge(), c)],  # type: ignore[arg-type]
    "loops.request": lambda c: [x.text for x in detect_learned(
        _turn("Could you nudge me to apply for the pavement licence tomorrow morning?"), SureJudge(), c)],  # type: ignore[arg-type]
    "loops.musing": lambda c: [x.text for x in detect_learned(
        _turn("Someday we'll have to talk about selling his house, not yet."), SureJudge(), c)],  # type: ignore[arg-type]
    "loops.question_closes_nothing": lambda c: _loops(
        c, "Remind me to book the bus for the offsite.", "Did the bus for the offsite get booked?"),
    "loops.same_loop": lambda c: _loops(
        c, "I need to book the bus for the offsite by Friday.", "Still need to book the bus for the offsite."),
    "loops.object_text": lambda c: loop_text("remind me to send Dana the pilot agreement"),
    "loops.explicit_cues": lambda c: _stubbed_loops(c, "Also remind me to book the flight tonight, I keep forgetting."),
    "loops.lemma_close": lambda c: _stubbed_loops(c, "Remind me to send the model to Sarah by Friday.",
                                                  "I sent the model to Sarah last Friday."),
}


def _run(rule_name: str, config: Config) -> object:
    with rules_off(config.consolidation.rules_off):
        return PROBES[rule_name](config)


@pytest.mark.parametrize("name", sorted(PROBES))
def test_each_rule_decides_its_probe_and_its_switch_turns_it_off(name: str) -> None:
    rule = BY_NAME[name]
    on = _run(name, Config())
    off = _run(name, Config().replace(rule.off()))
    assert on != off, f"{name}: switching it off changed nothing on its probe ({on!r})"


def test_every_rule_has_a_line_a_switch_and_consolidation_rules_a_probe() -> None:
    for rule in REGISTRY:
        assert rule.does and rule.name.count(".") == 1
        Config().replace(rule.off())   # a valid override: group.field names that exist
        if not rule.name.startswith("currency."):
            assert rule.probe and rule.decides and rule.name in PROBES, rule.name


def test_unknown_rule_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown rules"):
        Config(consolidation={"rules_off": ["facts.nope"]})
    assert Config(consolidation={"rules_off": "facts.wish, loops.quoted"}).consolidation.rules_off == ["facts.wish", "loops.quoted"]
