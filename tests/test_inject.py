"""EpisodicInjector: [Recalled context] with dedup that lets a topic resurface after 30 turns, [Ongoing work] once
per session on the first turn, and the token budget."""

from __future__ import annotations

import re
from pathlib import Path

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
GARDEN_AGAIN = ["The blighted tomato plants are out of the garden; next year the tomatoes will be Crimson Crush.",
                "> Crimson Crush tomatoes resist blight; keep the garden leaves dry."]
TRIP = ["We are planning the Porto offsite for late January, about 28 people for two days at a quinta.",
        "> For the Porto offsite: shortlist three quintas and book a coach from Lisbon."]
TRIP_AGAIN = ["For the Porto offsite we picked Quinta da Pacheca, and the coach from Lisbon is booked.",
              "> Quinta da Pacheca for the Porto offsite, coach from Lisbon booked."]


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
    session(mem, "g2", GARDEN_AGAIN, day=7)   # a workstream is confirmed once most of its sessions left something
    session(mem, "t1", TRIP, day=8)
    session(mem, "t2", TRIP_AGAIN, day=9)
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
    small = Memory(":memory:", config=Config(inject={"token_budget": 45}), embedder=HashingEmbedder(dim=256))
    with small:
        session(small, "s1", DECK, day=0)
        session(small, "s2", DECK_AGAIN, day=5)
        injector = EpisodicInjector(small)
        question = "how many slides does the Northgate deck need?"
        block = injector.get_context(question)
        assert 0 < estimate_tokens(block.rstrip("\n")) <= 45
        shown = recalled_lines(block)
        injector.config = small.config.replace({"inject.token_budget": 2000})
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


PARADE = [("Melanie", "Did you go to the pride parade last weekend?"),
          ("Caroline", "Yes! It was amazing, so many people showed up."),
          ("Melanie", "I'm painting a lake sunrise for the art show next month."),
          ("Caroline", "The adoption agency called back about the interview on Friday.")]


def _chat(db: str, turns: list[tuple[str, str]], user: str = "default", **config: object) -> Memory:
    """One chat session of `turns` (speaker, text), stored for `user` (one store file can hold several chats)."""
    mem = Memory(db, user_id=user, embedder=HashingEmbedder(dim=256),
                 config=Config(capture={"consolidate_in_background": "off"}, inject={"max_memories": 1}).replace(**config))
    for speaker, text in turns:
        mem.add_turn("user", text, speaker=speaker, session_id="chat")
    return mem


def _reply_lines(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.startswith("  ↳ ")]


def test_a_short_reply_is_shown_with_the_question_it_answers(db_path: Path) -> None:
    with _chat(str(db_path), PARADE) as mem:
        block = EpisodicInjector(mem).get_context("so many people showed up, amazing")
        lines = recalled_lines(block)
        assert lines[0].endswith("Caroline: Yes! It was amazing, so many people showed up.")
        assert _reply_lines(block) == ["  ↳ replying to Melanie: “Did you go to the pride parade last weekend?”"]
        assert lines[1] == _reply_lines(block)[0]  # right under the memory it explains


def test_a_reply_leaning_back_is_shown_with_the_turn_before_even_without_a_question(db_path: Path) -> None:
    turns = [("Melanie", "I finally finished the lake sunrise painting for the show."),
             ("Caroline", "That's wonderful, the colours must look incredible at dawn.")]
    with _chat(str(db_path), turns) as mem:
        block = EpisodicInjector(mem).get_context("wonderful colours incredible at dawn")
        assert _reply_lines(block) == [
            "  ↳ replying to Melanie: “I finally finished the lake sunrise painting for the show.”"]


def test_turns_that_stand_alone_get_no_reply_line(db_path: Path) -> None:
    alone = [("Melanie", "I finally finished the lake sunrise painting for the show."),
             ("Caroline", "My adoption interview with the agency is on Friday afternoon.")]  # no question, no lean
    same = [("Caroline", "Did I tell you about the parade?"), ("Caroline", "Yes, it was amazing, so many people.")]
    long = [("Melanie", "How was the parade?"),
            ("Caroline", "Yes, it was amazing: " + "people, music and flags everywhere along the river, " * 5)]
    for user, turns, query in (("alone", alone, "adoption interview agency Friday"),
                               ("same", same, "amazing so many people"), ("long", long, "amazing people music flags")):
        with _chat(str(db_path), turns, user=user) as mem:
            block = EpisodicInjector(mem).get_context(query)
            assert recalled_lines(block) and not _reply_lines(block), block


def test_the_turn_replied_to_is_not_repeated_when_it_is_recalled_itself(db_path: Path) -> None:
    with _chat(str(db_path), PARADE, inject={"max_memories": 5}) as mem:
        block = EpisodicInjector(mem).get_context("pride parade, so many people showed up")
        lines = recalled_lines(block)
        assert any("Melanie: Did you go to the pride parade" in line for line in lines)
        assert not _reply_lines(block)


def test_the_reply_line_can_be_turned_off_and_gives_way_to_the_budget(db_path: Path) -> None:
    with _chat(str(db_path), PARADE, inject={"reply_context_chars": 0}) as mem:
        assert not _reply_lines(EpisodicInjector(mem).get_context("so many people showed up, amazing"))
    with _chat(str(db_path), PARADE, user="tight", inject={"token_budget": 25}) as mem:
        block = EpisodicInjector(mem).get_context("so many people showed up, amazing")
        assert recalled_lines(block) and not _reply_lines(block)  # the memory fits, its reply line does not
    with _chat(str(db_path), PARADE, user="cut", inject={"reply_context_chars": 20}) as mem:
        assert _reply_lines(EpisodicInjector(mem).get_context("so many people showed up, amazing")) == [
            "  ↳ replying to Melanie: “Did you go to the…”"]


def test_turns_before_finds_the_turn_a_fact_was_said_after(db_path: Path) -> None:
    from episodic_memory.retrieve.hit import Hit

    with _chat(str(db_path), PARADE) as mem:
        turns = mem.session_turns("chat")
        reply, question = turns[1], turns[0]
        fact = Hit(id="fact:1", kind="fact", text="It was amazing.", score=1.0, timestamp=None, session_id="chat",
                   source_ids=[], details={"source_turns": [reply.id]})
        two = Hit(id="fact:2", kind="fact", text="It was amazing.", score=1.0, timestamp=None, session_id="chat",
                  source_ids=[], details={"source_turns": [reply.id, turns[2].id]})  # from two turns: no one turn
        first = Hit(id=f"turn:{question.id}", kind="turn", text=question.content, score=1.0, timestamp=None,
                    session_id="chat", source_ids=[])
        found = mem.turns_before([fact, two, first])
        assert set(found) == {"fact:1"} and found["fact:1"].content == question.content
        assert mem.turns_before([fact], user_id="someone-else") == {}


def test_a_reply_line_never_takes_the_place_of_a_memory(db_path: Path) -> None:
    query = "so many people showed up, amazing, adoption agency interview"
    with _chat(str(db_path), PARADE, inject={"max_memories": 2}) as mem:
        full = EpisodicInjector(mem).get_context(query)
    memories = [line for line in recalled_lines(full) if line.startswith("- ")]
    assert len(memories) == 2 and _reply_lines(full)
    just_the_memories = estimate_tokens("\n".join(["[Recalled context]", *memories]))
    with _chat(str(db_path), PARADE, user="tight", inject={"max_memories": 2, "token_budget": just_the_memories}) as mem:
        block = EpisodicInjector(mem).get_context(query)
    assert recalled_lines(block) == memories  # the second memory is there; the first one's reply line is not


def test_a_users_short_answer_comes_with_the_assistants_question(db_path: Path) -> None:
    with Memory(str(db_path), embedder=HashingEmbedder(dim=256),
                config=Config(capture={"consolidate_in_background": "off"}, inject={"max_memories": 1})) as mem:
        mem.add_turn("user", "Book me a flight to Lisbon for the offsite.", session_id="trip")
        mem.add_turn("assistant", "Should I book the 9am or the 2pm flight to Lisbon?", session_id="trip")
        mem.add_turn("user", "The 2pm one, the morning is packed with standups.", session_id="trip")
        block = EpisodicInjector(mem).get_context("morning packed with standups, 2pm")
    assert recalled_lines(block)[0].endswith("The 2pm one, the morning is packed with standups.")
    assert _reply_lines(block) == ["  ↳ replying to assistant: “Should I book the 9am or the 2pm flight to Lisbon?”"]
