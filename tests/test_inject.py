"""EpisodicInjector: [Recalled context] with dedup that lets a topic resurface after 30 turns, [Ongoing work] once
per session on the first turn, and the token budget."""

from __future__ import annotations

import re

import pytest

from episodic_memory import Config, EpisodicInjector, Memory
from episodic_memory.default import default_memory
from episodic_memory.inject import estimate_tokens

from .fakes import HashingEmbedder
from .fakes import play_session as session

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

LINE = re.compile(r"^- \[(turn|fact|episode|workstream), (just now|\d+(m|h|d|mo|y) ago)\] \S")



DECK = ["The Series B deck for Northgate needs twelve slides, traction and unit economics first.",
        "Remind me to send the Northgate deck to Sarah by Friday.",
        "> Noted: twelve slides for the Northgate deck, traction and unit economics first, to Sarah by Friday."]
DECK_AGAIN = ["Northgate deck update: fourteen slides now, traction and unit economics stay first.",
              "> Fourteen slides for the Northgate deck; the sensitivity table is still pending Sarah's sign-off."]
GARDEN = ["The tomatoes have blight again, yellow leaves everywhere in the garden.",
          "> Pull the blighted tomato plants and keep the garden leaves dry."]
TRIP = ["We are planning the Porto offsite for late January, about 28 people for two days at a quinta.",
        "> For the Porto offsite: shortlist three quintas and book a coach from Lisbon."]


def recalled_lines(block: str) -> list[str]:
    if "[Recalled context]" not in block:
        return []
    section = block.split("[Recalled context]\n", 1)[1].split("\n\n", 1)[0]
    return [line for line in section.splitlines() if line.strip()]


@pytest.fixture
def mem():
    with Memory(":memory:", embedder=HashingEmbedder(dim=256)) as m:
        session(m, "s1", DECK, day=0)
        session(m, "s2", DECK_AGAIN, day=5)
        session(m, "g1", GARDEN, day=6)
        yield m


def test_recalled_context_has_at_most_five_memories_each_with_kind_and_age(mem: Memory) -> None:
    block = EpisodicInjector(mem).get_context("how many slides does the Northgate deck need?")
    lines = recalled_lines(block)
    assert 1 <= len(lines) <= 5
    assert all(LINE.match(line) for line in lines), lines
    assert any("twelve slides" in line or "fourteen slides" in line for line in lines)
    assert block.endswith("\n\n")   # ready to prepend to the user's message


def test_an_injected_memory_is_not_repeated_until_30_turns_have_passed(mem: Memory) -> None:
    injector = EpisodicInjector(mem)
    question = "how many slides does the Northgate deck need?"
    first = recalled_lines(injector.get_context(question))
    second = recalled_lines(injector.get_context(question))
    assert first and set(first).isdisjoint(second)               # turn 2: nothing from turn 1 again
    for _ in range(27):                                          # turns 3..29 talk about nothing stored
        injector.get_context("")
    assert set(first).isdisjoint(recalled_lines(injector.get_context(question)))   # turn 30: 29 turns later
    resurfaced = recalled_lines(injector.get_context(question))                     # turn 31: 30 turns later
    assert set(first) <= set(resurfaced)
    assert set(second).isdisjoint(resurfaced)                    # turn 2's are only 29 turns old


def test_ongoing_work_once_per_session_on_the_first_turn(mem: Memory) -> None:
    injector = EpisodicInjector(mem)
    first = injector.get_context("good morning")
    assert first.startswith("[Ongoing work]\n▸ ")
    [ws] = mem.workstreams()
    assert f"▸ {ws.name}  (2 sessions, last active " in first
    assert "  · send the Northgate deck to Sarah by Friday" in first
    assert "tomato" not in first.split("[Recalled context]")[0].lower()    # a hypothesis does not surface
    assert "[Ongoing work]" not in injector.get_context("good morning")
    assert "[Ongoing work]" not in injector.get_context("")
    assert EpisodicInjector(mem).get_context("").startswith("[Ongoing work]")   # a new agent session: again
    injector.reset()
    assert injector.get_context("").startswith("[Ongoing work]")


def test_ongoing_work_shows_the_top_two_confirmed_workstreams_by_recent_activity(mem: Memory) -> None:
    session(mem, "g2", GARDEN, day=7)
    session(mem, "t1", TRIP, day=8)
    session(mem, "t2", TRIP, day=9)
    assert len(mem.workstreams()) == 3
    block = EpisodicInjector(mem).get_context("")
    headers = [line for line in block.splitlines() if line.startswith("▸ ")]
    top_two = [w.name for w in mem.workstreams()[:2]]
    assert [h[2:].split("  (")[0] for h in headers] == top_two
    assert "Porto" in block or "offsite" in block.lower()


def test_nothing_to_say_is_an_empty_string() -> None:
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        injector = EpisodicInjector(mem)
        assert injector.get_context("anything at all?") == ""
        with pytest.raises(TypeError):
            injector.get_context(None)  # type: ignore[arg-type]


def test_the_token_budget_caps_the_block_and_what_is_cut_can_come_later(mem: Memory) -> None:
    small = Memory(":memory:", config=Config(inject_token_budget=45), embedder=HashingEmbedder(dim=256))
    with small:
        session(small, "s1", DECK, day=0)
        session(small, "s2", DECK_AGAIN, day=5)
        injector = EpisodicInjector(small)
        question = "how many slides does the Northgate deck need?"
        block = injector.get_context(question)
        assert 0 < estimate_tokens(block.rstrip("\n")) <= 45
        shown = recalled_lines(block)
        injector.config = small.config.model_copy(update={"inject_token_budget": 2000})
        roomy = recalled_lines(injector.get_context(question))
        assert roomy and set(shown).isdisjoint(roomy)   # what did not fit was not counted as injected
    wide = EpisodicInjector(mem).get_context("how many slides does the Northgate deck need?")
    assert estimate_tokens(wide) > 45


def test_the_agents_own_session_is_not_recalled_back_to_it(mem: Memory) -> None:
    lines = recalled_lines(EpisodicInjector(mem, session_id="s2").get_context("fourteen slides sensitivity table"))
    turns = [line for line in lines if line.startswith("- [turn")]
    assert all("fourteen" not in line.lower() for line in turns)


def test_the_default_store_is_used_when_none_is_given() -> None:
    mem = default_memory()
    session(mem, "s1", DECK, day=0)
    block = EpisodicInjector().get_context("where were we on the Northgate deck?")
    assert "[Recalled context]" in block and "Northgate" in block
    assert EpisodicInjector(user_id="nobody").get_context("where were we on the Northgate deck?") == ""


def test_past_judgments_appear_once_they_have_proven_themselves(mem: Memory) -> None:
    jid = mem.judgments.store(trigger="Maya asks to send the investor deck before Sarah has signed off",
                              judgment="Hold the deck until the CFO signs off the financials",
                              reasoning="A deck went out with stale numbers once; investors noticed.")
    message = "Can I send the investor deck to Northgate before Sarah signs off?"
    assert "[Past judgments]" not in EpisodicInjector(mem).get_context(message)  # unproven: utility 0.5
    for _ in range(3):
        mem.judgments.verify(jid, adopted=True)
    mem.judgments.verify(jid, adopted=False, user_correction="unless Sarah says the numbers are final")
    injector = EpisodicInjector(mem)
    block = injector.get_context(message)
    section = block.split("[Past judgments]\n", 1)[1]
    assert section.startswith("- Hold the deck until the CFO signs off the financials")
    assert "why: A deck went out with stale numbers" in section
    assert "corrected: unless Sarah says the numbers are final" in section
    assert "[judgment" not in block  # not also repeated under [Recalled context]
    assert "[Past judgments]" not in injector.get_context(message)  # not repeated in the same session


def test_a_corrected_value_is_injected_without_the_turn_that_stated_the_old_one() -> None:
    from .test_facts import _sample_memory  # the bundled sample: 12 slides, later corrected to 14

    with _sample_memory() as mem:
        block = EpisodicInjector(mem).get_context("How many slides does the Series B deck need?")
        assert "14 slides" in block and "(previously: 12)" in block
        assert "The Series B deck needs 12 slides" not in block  # Maya's turn behind the superseded fact
        hits = mem.recall("How many slides does the Series B deck need?", k=20)
        assert any("The Series B deck needs 12 slides" in h.text for h in hits if h.kind == "turn")  # still recalled
