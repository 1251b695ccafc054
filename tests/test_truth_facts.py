"""Facts worth keeping without an LLM: the exemplar vote, plain statements, requests, cue-less corrections,
out-of-order ingestion by event time, entity filtering. Sentences here are written for the tests."""

from __future__ import annotations

from datetime import datetime, timezone

import numpy as np
import pytest

from episodic_memory import Config, Memory
from episodic_memory.consolidate.durable import (
    HYPOTHETICAL_KIND,
    QUESTION,
    REQUEST_KIND,
    STATEMENT,
    ExemplarVote,
    load_exemplars,
    sentence_kind,
    stated_part,
    strip_memo,
)
from episodic_memory.consolidate.extract import classify_statement, extract_rules, find_entities
from episodic_memory.consolidate.supersede import compare, has_change_cue, read_slot, rewrite_value
from episodic_memory.store.records import StoredTurn

NOV_17 = datetime(2026, 11, 17, 14, 9, tzinfo=timezone.utc)


def turn(content: str, role: str = "user", id: int = 1) -> StoredTurn:
    return StoredTurn(id, "default", "s", id, role, content, NOV_17.timestamp(), NOV_17.timestamp(), "Ana", None)


# --- what a sentence is ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("sentence", "kind"), [
    ("turn this into bullet points: the venue holds 200 and costs $9,000", REQUEST_KIND),
    ("Draft an email to Piotr saying the audit moved to Thursday", REQUEST_KIND),
    ("can you summarise this: 'Revenue grew 14% in Q3'", REQUEST_KIND),
    ("please proofread: 'our office has 40 desks'", REQUEST_KIND),
    ("how long does paint take to dry?", QUESTION),
    ("any tips for a first marathon", QUESTION),
    ("Can you provide a step-by-step diagram for the proof", QUESTION),         # no question mark: still asked
    ("We can meet on Friday at the studio.", STATEMENT),
    ("If we had more budget we'd hire a second designer.", HYPOTHETICAL_KIND),
    ("maybe one day I'll open a bookshop, who knows", HYPOTHETICAL_KIND),
    ("The fund model uses a 9% discount rate.", STATEMENT),
    ("DevConf is in Berlin on June 4.", STATEMENT),
])
def test_requests_questions_and_hypotheticals_are_told_apart(sentence: str, kind: str) -> None:
    assert sentence_kind(sentence) == kind


@pytest.mark.parametrize(("sentence", "stated"), [
    ("We bumped the kitchen budget to 48k, can you redo the plan?", "We bumped the kitchen budget to 48k."),
    ("I'm stuck on the truss loads - could you check my numbers", "I'm stuck on the truss loads."),
    ("I'm trying to understand SSA, so can you explain it", "I'm trying to understand SSA."),
    ("Also, can you check this", "Also, can you check this"),             # nothing stated before the ask
    ("What is SSA, can you explain?", "What is SSA, can you explain?"),   # a question from its start
    ("I told Dana you can take the 9am slot.", "I told Dana you can take the 9am slot."),
])
def test_what_a_sentence_states_before_it_asks_the_assistant(sentence: str, stated: str) -> None:
    assert stated_part(sentence) == stated


def test_a_value_stated_before_an_ask_is_a_fact_and_the_ask_is_not() -> None:
    facts = extract_rules([turn("We bumped the kitchen budget to 48k, can you redo the plan? I'm Christina, a "
                                "colour technologist at Farrow Labs.")], {})
    assert [f.text for f in facts] == ["We bumped the kitchen budget to 48k.",
                                       "I'm Christina, a colour technologist at Farrow Labs."]


def test_what_the_person_asks_to_remember_is_kept_without_the_request() -> None:
    assert strip_memo("Can you keep track that I need Ravi's sign-off on the budget") == (
        "I need Ravi's sign-off on the budget")


@pytest.mark.parametrize(("sentence", "expected"), [
    ("The fund model uses a 9% discount rate.", "knowledge"),
    ("DevConf is in Berlin on June 4.", "knowledge"),
    ("The roof repair starts next week.", "plan"),
    ("We picked slate for the roof.", "decision"),
    ("Olga runs the night shift.", "relationship"),
    ("The boiler failed twice over the winter.", "event"),
])
def test_plain_declarative_statements_are_typed(sentence: str, expected: str) -> None:
    found = classify_statement(sentence)
    assert found is not None and found[0] == expected


def test_the_exemplar_bank_is_balanced_and_hand_written() -> None:
    bank = load_exemplars()
    labels = {e.label for e in bank}
    assert labels == {"durable", "noise"}
    assert min(sum(e.label == label for e in bank) for label in labels) >= 80
    kinds = {e.kind for e in bank if e.label == "noise"}
    assert {"request", "question", "chitchat", "hypothetical", "greeting", "filler"} <= kinds


class _TopicEmbedder:
    """A stand-in embedder: a sentence's vector is its share of "world" words versus "chat" words."""

    model_id = "topic-test"
    dim = 2
    WORLD = {"budget", "rate", "conference", "berlin", "model", "discount", "uses", "is", "on", "in"}
    CHAT = {"lol", "weather", "tired", "ugh", "haha", "so", "today", "awful"}

    def embed(self, texts: list[str]) -> np.ndarray:
        rows = []
        for text in texts:
            words = [w.strip(".,!?'").lower() for w in text.split()]
            v = np.array([sum(w in self.WORLD for w in words), sum(w in self.CHAT for w in words)], dtype=np.float32)
            v = v if v.any() else np.array([0.5, 0.5], dtype=np.float32)
            rows.append(v / np.linalg.norm(v))
        return np.stack(rows)


def test_the_vote_keeps_world_statements_and_drops_chit_chat() -> None:
    vote = ExemplarVote(_TopicEmbedder(), k=3)  # type: ignore[arg-type]
    margins = vote.margins(["The fund model uses a 9% discount rate.", "ugh the weather is awful today lol"])
    assert margins[0] > margins[1]
    facts = extract_rules([turn("The fund model uses a 9% discount rate."),
                           turn("ugh, the weather today is so awful lol, haha", id=2)], {}, vote=vote)
    assert [f.text for f in facts] == ["The fund model uses a 9% discount rate."]


def test_requests_to_the_assistant_yield_no_facts_about_the_world() -> None:
    facts = extract_rules([
        turn("turn this into bullet points: we decided the venue holds 200. The budget is $9,000."),
        turn("Draft an email to Piotr: I'll send the contract by Friday.", id=2),
        turn("We decided to use Postgres 16.", id=3),
    ], {})
    assert [f.text for f in facts] == ["We decided to use Postgres 16."]


# --- corrections -------------------------------------------------------------------------------------------
def _memory(embedder: bool = True) -> Memory:
    """The default Memory (bundled MiniLM), or one with no embedder (the rules fall back to word overlap)."""
    return Memory(":memory:") if embedder else Memory(":memory:", config=Config(models={"embedder": "off"}))


def _two_sessions(first: str, second: str, *, embedder: bool = True) -> Memory:
    mem = _memory(embedder)
    mem.add_turn("user", first, session_id="x", timestamp="2026-03-01T10:00:00Z")
    mem.end_session("x")
    mem.add_turn("user", second, session_id="y", timestamp="2026-03-05T10:00:00Z")
    mem.end_session("y")
    return mem


@pytest.mark.parametrize(("first", "second", "current"), [
    ("We decided to use Postgres 16.", "Actually it's Postgres 17, not 16.", "Postgres 17"),
    ("The deck has 12 slides.", "Actually it's 14 not 12.", "14 slides"),
    ("The offsite is in Porto on May 3.", "Change of plan: the offsite is in Lisbon instead.", "Lisbon"),
    ("The budget for the garden is 18k.", "Sorry, I misspoke earlier — the budget is 22k now.", "22k"),
    ("The warehouse lease costs $4,200 a month.", "The warehouse lease costs $4,600 a month.", "$4,600"),
    ("The vendor review is on March 10.", "We pushed the vendor review to March 17.", "March 17"),
    ("The team dinner is for 24 people.", "Make that 30 people for the dinner.", "30 people"),
    ("The quarterly review is in room 4B.", "On second thought, the quarterly review is in room 6A.", "6A"),
])
@pytest.mark.parametrize("embedder", [True, False])
def test_a_changed_value_supersedes_with_history(first: str, second: str, current: str, embedder: bool) -> None:
    with _two_sessions(first, second, embedder=embedder) as mem:
        facts = mem.facts()
        assert len(facts) == 1 and current in facts[0].text
        history = mem.fact_history(facts[0].id)
        assert len(history) == 2 and history[1].text == first and not history[1].current


def test_a_bare_correction_takes_the_old_fact_words() -> None:
    assert rewrite_value("Actually it's 14 not 12.", "The deck has 12 slides.") == "The deck has 14 slides."
    assert rewrite_value("Actually it's Postgres 17, not 16.", "We decided to use Postgres 16.") == (
        "We decided to use Postgres 17.")
    # the name, not the words it opens with ("It's Alasdair"); an article stays with its name
    assert rewrite_value("It's Alasdair, actually, not Owain.", "Owain will do the rigging.") == (
        "Alasdair will do the rigging.")
    assert rewrite_value("The Plaza, not The Ritz.", "We booked The Ritz.") == "We booked The Plaza."


@pytest.mark.parametrize("embedder", [True, False])
def test_a_correction_naming_only_the_name_it_replaces_changes_that_fact(embedder: bool) -> None:
    """"It's Alasdair, actually, not Owain." reads as filler alone (2 words once cleaned, no number): it is kept as
    the change of the fact holding Owain, in that fact's words; with no such fact it leaves nothing behind."""
    with _two_sessions("Lachlan put me in touch with Owain, who'll do the standing rigging.",
                       "It's Alasdair, actually, not Owain.", embedder=embedder) as mem:
        facts = mem.facts()
        assert [f.text for f in facts] == ["Lachlan put me in touch with Alasdair, who'll do the standing rigging."]
        history = mem.fact_history(facts[0].id)
        assert [h.current for h in history] == [True, False] and "Owain" in history[1].text
    with _two_sessions("The new rigging costs £900.", "It's Alasdair, actually, not Owain.",
                       embedder=embedder) as mem:
        assert [f.text for f in mem.facts(include_superseded=True)] == ["The new rigging costs £900."]


def test_slots_compare_subject_and_values() -> None:
    assert read_slot("The permit takes 29 business days.").numbers == {29.0}
    assert read_slot("Kickoff is on the 4th of June.").dates == {(6, 4)}
    same = compare("The permit takes 31 business days.", "The permit takes 29 business days.", cued=False,
                   min_overlap=0.6, cued_overlap=0.25)
    other = compare("The gym costs 31 a month.", "The permit takes 29 business days.", cued=False,
                    min_overlap=0.6, cued_overlap=0.25)
    restated = compare("The permit takes 29 business days.", "Permit takes 29 business days!", cued=False,
                       min_overlap=0.6, cued_overlap=0.25)
    assert same.changes and not other.changes and not restated.changes
    assert has_change_cue("Scratch that, it's Ruth.") and has_change_cue("My race shoe is Pegasus now.")
    assert not has_change_cue("Quick update on launch prep: we're pricing it at $39.")


def test_unrelated_statements_do_not_supersede() -> None:
    with _two_sessions("The team offsite is in Porto.", "My sister lives in Lyon.") as mem:
        assert len(mem.facts()) == 2 and len(mem.facts(include_superseded=True)) == 2


@pytest.mark.parametrize("embedder", [True, False])
def test_out_of_order_ingestion_keeps_the_later_event_current(embedder: bool) -> None:
    mem = _memory(embedder)
    mem.add_turn("user", "The deck needs 14 slides.", session_id="late", timestamp="2026-03-09T10:00:00Z")
    mem.end_session("late")
    # an older file ingested afterwards: its value was already replaced when it arrives
    mem.add_turn("user", "The deck needs 12 slides.", session_id="early", timestamp="2026-03-01T10:00:00Z")
    mem.end_session("early")
    current = mem.facts()
    assert [f.text for f in current] == ["The deck needs 14 slides."]
    history = mem.fact_history(current[0].id)
    assert [f.text for f in history] == ["The deck needs 14 slides.", "The deck needs 12 slides."]
    assert history[1].valid_to == current[0].created_at and history[1].superseded_by == current[0].id
    # a third value between the two takes its place in the chain
    mem.add_turn("user", "The deck needs 13 slides.", session_id="middle", timestamp="2026-03-05T10:00:00Z")
    mem.end_session("middle")
    chain = [f.text for f in mem.fact_history(mem.facts()[0].id)]
    assert chain == ["The deck needs 14 slides.", "The deck needs 13 slides.", "The deck needs 12 slides."]
    # and one older than all of them goes to the bottom
    mem.add_turn("user", "The deck needs 10 slides.", session_id="first", timestamp="2026-02-20T10:00:00Z")
    mem.end_session("first")
    history = mem.fact_history(mem.facts()[0].id)
    assert [f.text for f in history] == ["The deck needs 14 slides.", "The deck needs 13 slides.",
                                         "The deck needs 12 slides.", "The deck needs 10 slides."]
    assert all(older.valid_to == newer.created_at for newer, older in zip(history[:-1], history[1:], strict=True))
    assert [f.text for f in mem.facts()] == ["The deck needs 14 slides."]
    mem.close()


# --- entities ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("We decided to grab lunch at the Thai place today.", []),
    ("Need Mateo's approval on the hiring plan.", ["Mateo"]),
    ('The talk is called "Tests That Earn Their Keep" now.', ["Tests That Earn Their Keep"]),
    ("We hired Hearth & Beam for the build.", ["Hearth & Beam"]),
    ("The kitchen is done by Jul 12 and Jonas's review is Apr 3.", ["Jonas"]),
    ("We run the cost-Optimized tier at Northgate Systems.", ["Northgate Systems"]),
])
def test_entities_are_names_not_fragments(text: str, expected: list[str]) -> None:
    assert find_entities(text, {}) == expected


def test_a_change_with_no_fact_of_the_old_value_finds_the_turn_that_said_it() -> None:
    with _memory(embedder=False) as mem:  # without an embedder a plain statement naming no value is not kept
        mem.add_turn("user", "The team offsite is by the sea this year.", session_id="x",
                     timestamp="2026-03-01T10:00:00Z")
        mem.end_session("x")
        assert mem.facts() == []
        mem.add_turn("user", "Change of plan: the team offsite is in the mountains instead.", session_id="y",
                     timestamp="2026-03-05T10:00:00Z")
        mem.end_session("y")
        [current] = mem.facts()
        assert "mountains" in current.text
        old = mem.fact_history(current.id)[1]
        assert old.text == "The team offsite is by the sea this year." and old.session_id == "x" and not old.current
        assert mem.stats()["routes"]["recovered"] == 1


@pytest.mark.parametrize("aside", ["I'll be honest, this part confuses me.", "I have to admit the new office is nice.",
                                   "I must say the food there was great."])
def test_asides_are_not_commitments(aside: str) -> None:
    from episodic_memory.consolidate.extract import classify_sentence

    found = classify_sentence(aside, NOV_17)
    assert found is None or found[0] != "commitment"


def test_a_wish_is_no_correction_and_a_verbless_note_with_a_value_is_a_statement() -> None:
    from episodic_memory.consolidate.extract import classify_sentence

    wish = classify_sentence("Sarah wants the chart moved to slide 3.", NOV_17)
    assert wish is None or wish[0] != "correction"
    assert not has_change_cue("Sarah wants the chart moved to slide 3.")
    assert has_change_cue("The chart moved to slide 3.")
    note = classify_statement("DevConf in Berlin on June 4.")
    assert note is not None and note[0] in ("plan", "knowledge")
    assert classify_statement("lunch at noon") is None


def test_a_change_said_before_an_ask_supersedes_the_old_value() -> None:
    with Memory(":memory:", config=Config(capture={"consolidate_in_background": "off"})) as mem:
        mem.add_turn("user", "The kitchen budget is 40k for the renovation.", session_id="s1")
        mem.end_session("s1")
        mem.add_turn("user", "We bumped the kitchen budget to 48k, can you redo the plan?", session_id="s2")
        mem.end_session("s2")
        current = [f.text for f in mem.facts()]
        assert current == ["We bumped the kitchen budget to 48k."]
        assert mem.recall("What is the kitchen budget?", k=1)[0].text.startswith("We bumped the kitchen budget to 48k")
