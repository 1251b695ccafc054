"""Who a sentence is said to (consolidate/address.py): a name that addresses the listener is not what the fact is
about, and a reaction to the listener (thanks, praise, sympathy) is no fact at all."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import pytest

from episodic_memory import Config, Memory
from episodic_memory.consolidate.address import (
    addressees,
    is_reaction,
    leans_back,
    participant_named,
    without_address,
)
from episodic_memory.consolidate.extract import extract_rules, find_entities, sentences
from episodic_memory.consolidate.keyphrases import keyphrases
from episodic_memory.store.records import StoredTurn

PEOPLE = ["Caroline", "Melanie", "Mel Smith"]
NOV_17 = datetime(2026, 11, 17, 14, 9, tzinfo=timezone.utc)


def turn(content: str, speaker: str, id: int = 1) -> StoredTurn:
    return StoredTurn(id, "default", "s", id, "user", content, NOV_17.timestamp(), NOV_17.timestamp(), speaker, None)


@contextmanager
def chat_memory(tmp_path: Path, chat: list[tuple[str, str]], **config: object) -> Iterator[Memory]:
    """A store holding `chat` (speaker, text) as one session, a minute a turn, consolidated without an embedder."""
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"}, **config)) as mem:  # type: ignore[arg-type]
        for i, (who, text) in enumerate(chat):
            mem.add_turn("user", text, session_id="s1", speaker=who, timestamp=1_700_000_000 + 60 * i)
        mem.end_session("s1")
        mem.wait_for_consolidation()
        yield mem


@pytest.mark.parametrize(("sentence", "names", "bare"), [
    ("Caroline, my family's been great lately.", ["Caroline"], "My family's been great lately."),
    ("That's great news, Caroline!", ["Caroline"], "That's great news!"),
    ("The deck needs 14 slides, Mel.", ["Mel"], "The deck needs 14 slides."),  # a participant's short form
    ("Hey Mel Smith, how are you", ["Mel Smith"], "Hey Mel Smith, how are you"),  # in the middle: read around
    ("Wow, Caroline, that looks amazing!", ["Caroline"], "Wow, Caroline, that looks amazing!"),
    ("Thanks Melanie - love the blue vase!", ["Melanie"], "Thanks Melanie - love the blue vase!"),
    ("Caroline said the deck needs 14 slides.", [], "Caroline said the deck needs 14 slides."),  # the subject
    ("I met Caroline, Melanie and Jon at the park.", [], "I met Caroline, Melanie and Jon at the park."),  # a list
    ("Dana, the deck is done.", [], "Dana, the deck is done."),  # nobody in the conversation
    # closing without a comma: only after a word that cannot take the name as its object
    ("That's really cool Caroline!", ["Caroline"], "That's really cool!"),
    ("Miss you Mel!", ["Mel"], "Miss you!"),
    ("That is so sweet Melanie :)", ["Melanie"], "That is so sweet :)"),
    ("I had lunch with Caroline!", [], "I had lunch with Caroline!"),
    ("Yesterday I finally called Melanie.", [], "Yesterday I finally called Melanie."),
])
def test_a_name_at_the_edge_of_a_sentence_addresses_a_participant(sentence: str, names: list[str], bare: str) -> None:
    assert addressees(sentence, PEOPLE) == names
    assert without_address(sentence, PEOPLE) == bare


def test_no_participants_no_addresses() -> None:
    assert addressees("Caroline, my family's been great.", []) == []
    assert without_address("Caroline, my family's been great.", []) == "Caroline, my family's been great."


@pytest.mark.parametrize("sentence", [
    "That's great news, Caroline!", "You're right, Caroline.", "Thanks for the tip, Caroline.", "I hope you're okay.",
    "I'm so happy for you, Caroline.", "Wow, Caroline, that looks amazing!", "That must have been tough for you, Mel.",
    "That's so peaceful and calming, Melanie!", "It was awesome, Melanie!", "Congrats on the new team!",
    "I'm so proud of you for spreading awareness.", "What a sweet idea.", "That sounds great! [photo attached]",
    "Proud of you for starting your own business!", "Wow, Caroline, you must be so excited!",
    "Your support, Melanie, means a lot too.", "Wow Caroline, they're adorable!", "Woah Melanie, nice work!",
    "You're the best for supporting me in my writing journey.", "Wow, Caroline, your group sounds awesome!",
    "Wow, Caroline, sounds like the parade was an awesome experience!", "Whoa, Mel, that sign looks serious.",
    "Wow, Caroline, way to go!", "Wow, Caroline, you're doing an awesome job of inspiring others.",
    "Mel, you're gonna kill it at the competition.",
])
def test_reactions_to_the_listener(sentence: str) -> None:
    assert is_reaction(sentence, PEOPLE)


@pytest.mark.parametrize("sentence", [
    "It's hard to run a business when you don't have faith in yourself.",
    "That's the format Northgate Ventures asked for.", "It was made for a local church and shows time passing.",
    "It's downtown which is awesome cuz it's easy to get to.", "You're moving to Lisbon in May.",
    "I'm happy with the new team lead.", "I hope the venue has parking.", "The deck needs 14 slides, Mel.",
    "Caroline, my family's been great - their support helped me through tough times.",
    "You must be at the airport by 6.", "Your rent goes up to $1,950 in March.", "They're moving to Lisbon.",
    "Great news: the lease is signed.", "Good morning team, the launch is on May 4.",
    "The venue looks great and holds 200 people.", "It sounds like a great plan: book the venue for May 3.",
    "Sounds like the meeting moved to 3pm.", "Your flight looks like it leaves at 6.",
])
def test_statements_are_no_reactions(sentence: str) -> None:
    assert not is_reaction(sentence, PEOPLE)


def test_rule_facts_leave_out_reactions_and_are_about_their_speaker_not_the_listener() -> None:
    turns = [turn("Caroline, my family's been great - they helped me move to Porto in May.", "Melanie", 1),
             turn("That's great news, Caroline! Thanks for the tip, Caroline.", "Melanie", 2),
             turn("I passed the adoption agency interviews last Friday with Dana!", "Caroline", 3)]
    facts = {f.sources[0].id: f for f in extract_rules(turns, {})}
    assert set(facts) == {1, 3}  # turn 2 only reacts
    assert facts[1].text.startswith("My family's been great")
    assert "Caroline" not in facts[1].entities and "Melanie" in facts[1].entities
    assert "Caroline" in facts[3].entities and "Dana" in facts[3].entities


def test_a_bracketed_note_on_a_message_is_not_read_for_facts() -> None:
    turns = [turn("Here's my latest painting! [shares an image: A photo of a horse painted on a wall]", "Melanie", 1),
                turn("[photo: Lake Tahoe at dawn]", "Melanie", 2),
                turn("The config sets retries = [3, 5] and we ship v2 on May 3.", "Melanie", 3),
                turn("Read [the RFC](https://example.org) before the review on May 5.", "Melanie", 4)]
    texts = [f.text for f in extract_rules(turns, {})]
    assert not any("photo" in t.lower() or t.endswith("]") for t in texts), texts
    assert any("the RFC" in t for t in texts)  # a markdown link's text is the sentence's own
    assert any("[3, 5]" in t for t in texts)  # and a list of numbers
    assert sentences("Nice! [edited] See items[0] and [the docs](x).") == ["Nice!", "See items[0] and [the docs](x)."]


@pytest.mark.parametrize("sentence", ["That is so sweet Melanie :)", "So cool 😊", "Thanks a lot Caroline."])
def test_a_reaction_closed_by_a_name_or_a_face_is_a_reaction(sentence: str) -> None:
    assert is_reaction(sentence, PEOPLE)
    assert not is_reaction("I got a dog :)", PEOPLE)


def test_a_sentence_adverb_opening_a_message_is_no_entity() -> None:
    for text in ("Thankfully, the rain held off for the hike.", "Unfortunately the venue cancelled on us.",
                 "Hopefully the deck is done by Friday."):
        assert not find_entities(text, {}), text
        assert not any("fully" in shown.lower() or "unfortunately" in shown.lower() for shown, _, _ in keyphrases(
            [text, text]))


def test_time_words_and_interjections_are_no_entities() -> None:
    assert find_entities("Wow, Last week I met Dana.", {}, speaker="Mel") == ["Mel", "Dana"]
    assert find_entities("Now I volunteer at the Youth Center.", {}, speaker="Mel") == ["Mel", "Youth Center"]
    assert find_entities("Oh and Here's the plan for Dana.", {}) == ["Dana"]
    assert find_entities("We went there During Thanksgiving with Max- fun!", {}) == ["Thanksgiving", "Max"]


def test_a_name_said_to_the_listener_mid_sentence_is_no_entity() -> None:
    asked = turn("How is your family doing, Melanie?", "Caroline", 2)
    [fact] = extract_rules([turn("Wow, Caroline, my sister Dana moved to Porto on May 3.", "Melanie"), asked], {})
    assert fact.text.startswith("Wow, Caroline") and "Caroline" not in fact.entities and "Dana" in fact.entities
    [fact] = extract_rules([turn("Wow, Caroline, Caroline's sister moved to Porto on May 3.", "Melanie"), asked], {})
    assert "Caroline" in fact.entities  # named as well as addressed


def test_a_participants_short_form_is_the_participant() -> None:
    assert participant_named("Mel", PEOPLE) == "Mel"  # the start of Melanie's and of Mel Smith's names: whose?
    assert participant_named("Caro", PEOPLE) == "Caroline"
    assert participant_named("Caroline", PEOPLE) == "Caroline" and participant_named("Dana", PEOPLE) == "Dana"
    said = "I drove Mel's kids to swimming lessons at Oak Pool on June 9."
    [fact] = extract_rules([turn(said, "Caroline")], {})
    assert "Mel" in fact.entities  # nobody in the conversation is a Mel… (Caroline talks alone)
    [fact, *_] = extract_rules([turn(said, "Caroline"), turn("Yes, they loved it at Oak Pool on June 9!", "Melanie", 2)],
                               {})
    assert "Melanie" in fact.entities and "Mel" not in fact.entities  # …until Melanie talks


@pytest.mark.parametrize(("sentence", "names"), [
    ("No doubt, Melanie you've got this.", ["Melanie"]),   # a name then "you": said to them
    ("Oof, Caroline, that's really sad.", ["Caroline"]),   # more interjections
    ("Wow Jo, you're killing it!", ["Jo"]),                # a two-letter short form …
    ("So, what did you do?", []),                          # … but not a common word ("So" is not Sophie)
    ("I told Melanie you were coming.", []),               # the object, then "you"
])
def test_more_ways_to_address_the_listener(sentence: str, names: list[str]) -> None:
    assert addressees(sentence, [*PEOPLE, "Joanna", "Sophie"]) == names


def test_everyone_who_spoke_in_the_session_is_a_participant(tmp_path: Path) -> None:
    """A consolidation run of 8 turns may hold only one person's: the speakers of the session's turns before it
    count too, so "Caroline" there is still the listener."""
    places = ["Porto", "Lisbon", "Madrid", "Seville", "Bilbao", "Valencia", "Granada", "Malaga", "Cadiz", "Toledo"]
    chat = [("Caroline", "I finally booked the pottery class for May 3."),
            *[("Melanie", f"Caroline, my cousin number {i} moved to {place} on June {i + 1}.")
              for i, place in enumerate(places)]]
    late = {"Toledo", "Cadiz"}   # said in the second run, which holds only Melanie's turns
    with chat_memory(tmp_path, chat) as mem:
        facts = [f for f in mem.facts() if any(p in f.text for p in late)]
        assert facts and all("Caroline" not in f.entities and not f.text.startswith("Caroline") for f in facts)
    with chat_memory(tmp_path / "without", chat, consolidation={"participant_lookback": 0}) as mem:  # the run's own speakers only
        facts = [f for f in mem.facts() if any(p in f.text for p in late)]
        assert facts and all(f.text.startswith("Caroline") for f in facts)


def test_a_persons_profile_holds_what_they_said_not_what_was_said_to_them(tmp_path: Path) -> None:
    chat = [("Caroline", "I signed up for a pottery class in Porto on May 3."),
            ("Melanie", "That's great news, Caroline! You're right, Caroline."),
            ("Melanie", "Caroline, my family went camping at Lake Tahoe on June 2."),
            ("Caroline", "Thanks, Melanie! My counselling course starts on July 1."),
            ("Melanie", "I'm so happy for you, Caroline. My kids start swimming at Oak Pool on June 9.")]
    with chat_memory(tmp_path, chat) as mem:
        speaker_of = {t.id: t.speaker for t in mem.store.turns_by_id("default", list(range(1, 6))).values()}
        profile = mem.profile("Caroline")
        assert profile is not None and profile["facts_list"]
        assert {speaker_of[t] for f in profile["facts_list"] for t in f["source_turns"]} == {"Caroline"}
        assert all("great news" not in f.text and "happy for you" not in f.text for f in mem.facts())


def test_a_first_person_fact_says_whose_it_is(tmp_path: Path) -> None:
    """A fact read from one person's turn carries that speaker; recall's line and the injector's name them when the
    fact says "I" (whose kids?), not when it says who it is about."""
    from episodic_memory.inject import EpisodicInjector
    from episodic_memory.retrieve.hit import Hit

    chat = [("Melanie", "I took my kids to the Oak Park zoo on June 9."),
            ("Caroline", "The Porto aquarium opens its shark tunnel on July 2.")]
    with chat_memory(tmp_path, chat) as mem:
        facts = {h.text: h for h in mem.recall("kids zoo aquarium shark tunnel", k=10, kind="fact")}
        mine = next(h for t, h in facts.items() if t.startswith("I took my kids"))
        theirs = next(h for t, h in facts.items() if t.startswith("The Porto aquarium"))
        assert (mine.speaker, theirs.speaker) == ("Melanie", "Caroline")
        assert mine.said_by() == "Melanie: " and theirs.said_by() == ""
        block = EpisodicInjector(mem).get_context("When did the kids go to the Oak Park zoo?")
        assert "Melanie: I took my kids to the Oak Park zoo" in block
    assert Hit("fact:1", "fact", "We moved to Porto.", 0.0, None, None, [], speaker="Mel").said_by() == "Mel: "
    assert Hit("episode:1", "episode", "I …", 0.0, None, None, [], speaker="Mel").said_by() == ""


@pytest.mark.parametrize(("then", "replaced"), [
    ("The Oak Park zoo closes on June 30 for repairs.", False),          # another date of the zoo: her news
    ("Sorry about the zoo trip, but the zoo sounds awesome now!", False),  # a reply, "now" or not
    ("Actually the Oak Park zoo trip was on June 10, not June 9.", True),  # a correction crosses people
])
def test_one_persons_news_replaces_anothers_only_when_it_corrects_it(tmp_path: Path, then: str,
                                                                      replaced: bool) -> None:
    chat = [("Melanie", "I took my kids to the Oak Park zoo trip on June 9."), ("Caroline", then)]
    with chat_memory(tmp_path, chat) as mem:
        current = [f.text for f in mem.facts()]
    assert any(t.startswith("I took my kids") for t in current) is not replaced, current


def test_sorry_to_hear_is_a_reaction() -> None:
    assert is_reaction("Sorry to hear about your job, Jon.", ["Jon", "Gina"])
    assert not is_reaction("Sorry, the venue moved to Porto.", ["Jon", "Gina"])


@pytest.mark.parametrize("sentence", ["They give me the strength to keep going.", "It was a huge jump, but worth it.",
                                      "Wow, Caroline, it was amazing up on that stage!", "Mel, those bowls are gorgeous.",
                                      "That's the format Northgate asked for.", "She's been my rock since college."])
def test_a_sentence_opening_with_a_pronoun_for_what_was_said_leans_back(sentence: str) -> None:
    assert leans_back(sentence, PEOPLE)


@pytest.mark.parametrize("sentence", ["There is a standup on Friday.", "Italy was great.", "Thesis draft is due.",
                                      "The deck has 14 slides.", "Caroline, my family's been great."])
def test_a_sentence_with_a_subject_of_its_own_does_not_lean_back(sentence: str) -> None:
    assert not leans_back(sentence, PEOPLE)


def test_a_reply_opening_with_a_pronoun_is_no_fact_unless_it_brings_a_value_or_goes_on_from_the_turn() -> None:
    turns = [turn("My kids are my whole world, they keep me grounded.", "Caroline", 1),
             turn("They give me the strength to keep going, honestly, every single day.", "Melanie", 2),
             turn("It was a huge jump for our family, but totally worth it in the end.", "Melanie", 3),
             turn("It's 14 slides now, not 12, after the review.", "Melanie", 4),
             turn("It was the moment I decided to become a counselor.", "Caroline", 6),
             turn("I started a new job at the Getty museum. It's a part-time position, 20 hours a week.", "Melanie", 5)]
    class KeepAll:  # an exemplar vote that keeps every statement: what the rule itself drops is left out
        def margins(self, texts: list[str]) -> list[float]:
            return [1.0] * len(texts)

    facts = [(f.sources[0].id, f.text) for f in extract_rules(turns, {}, vote=KeepAll())]  # type: ignore[arg-type]
    ids = [i for i, _ in facts]
    assert 1 in ids
    assert 2 not in ids and 3 not in ids                        # about what the other person said: nothing alone
    assert 4 in ids                                             # a value it brings is kept ("it's 14 now")
    assert 6 in ids                                             # and a cue says what it is about
    assert [t for i, t in facts if i == 5] == ["I started a new job at the Getty museum.",
                                               "It's a part-time position, 20 hours a week."]  # goes on from the turn
