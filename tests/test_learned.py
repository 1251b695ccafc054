"""The learned decisions of consolidation (consolidate/learned.py): the shipped models load and decide, a damaged or
foreign model file leaves the rules in charge, and the training sink records what consolidation computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from episodic_memory import Config, Memory
from episodic_memory.consolidate import learned
from episodic_memory.consolidate.loops import CLOSES_FEATURES
from episodic_memory.consolidate.supersede import SUPERSEDES_FEATURES, frame
from episodic_memory.models.embedder import load_embedder


def two_sessions(mem: Memory, first: str, second: str) -> None:
    """`first` said in session s1 (2 November), `second` in s2 three days later, each session ended."""
    for session, text, day in (("s1", first, "02"), ("s2", second, "05")):
        mem.add_turn("user", text, session_id=session, timestamp=f"2026-11-{day}T10:00:00Z")
        mem.end_session(session)


def test_grammar_features_read_shorthand_person_and_deadlines() -> None:
    assert learned.tokens("Ugh i hav to book Emi b4 monday, won't forget") == [
        "ugh", "i", "have", "to", "book", "emi", "before", "monday", "will", "n't", "forget"]
    f = learned.grammar_features("i hav to book Emi b4 monday")
    assert f.shape == (learned.GRAMMAR_DIM,) and not f.flags.writeable
    shape = dict(zip(learned._SHAPE, f[len(learned.FUNCTION_WORDS):], strict=True))
    assert shape["first_person_modal"] == 1 and shape["deadline"] == 1 and shape["modal_to"] == 1
    past = dict(zip(learned._SHAPE, learned.grammar_features("We booked the bus.")[len(learned.FUNCTION_WORDS):],
                    strict=True))
    assert past["first_person_past"] == 1 and past["deadline"] == 0


def test_the_shipped_models_load_for_the_bundled_embedder_only() -> None:
    models = learned.load_models()
    assert models is not None and models.embedder_id.startswith(learned.MINILM_FAMILY)
    assert set(learned.SENTENCE_HEADS) | set(learned.PAIR_HEADS) <= set(models.heads)
    assert learned.pair_head(models, "closes", len(CLOSES_FEATURES)) is not None
    assert learned.pair_head(models, "supersedes", len(SUPERSEDES_FEATURES)) is not None
    assert learned.judge_for(load_embedder(None)) is not None
    other = type("E", (), {"model_id": "hashing-64"})()
    assert learned.judge_for(other) is None and learned.judge_for(None) is None


def test_the_sentence_models_tell_a_to_do_from_a_musing() -> None:
    judge = learned.judge_for(load_embedder(None))
    assert judge is not None
    texts = ["I need to send the signed lease back to the landlord by Friday.",
             "Remind me to book the physio for my calf next week.",
             "If I had a spare week I'd finally sort my photos out.",
             "The weather today is absurd.",
             "We picked terrazzo for the counters."]
    p = judge.scores(texts)
    line = Config().loops.commitment_line
    assert p["commitment"][0] >= line and p["commitment"][1] >= line
    assert p["commitment"][2] < line and p["commitment"][3] < line
    assert p["durable"][4] > p["durable"][3]


def test_a_loop_taken_on_and_reported_done_in_other_words_closes() -> None:
    with Memory(":memory:") as mem:
        two_sessions(mem, "I need to get the pilot agreement over to Vantage Foods by Friday.",
                     "Vantage Foods has the pilot contract now.")
        [loop] = mem.loops(status="all")
        assert loop.detector == "learned" and "pilot agreement" in loop.text
        assert loop.status == "closed" and loop.closed_by == "learned"
        assert "has the pilot contract now" in (loop.evidence or "")


@pytest.mark.parametrize("request_on", [True, False])
def test_a_question_asking_the_assistant_to_keep_track_opens_a_loop_and_one_asking_for_help_now_does_not(
        request_on: bool) -> None:
    config = Config() if request_on else Config(consolidation={"rules_off": ["loops.request"]})
    with Memory(":memory:", config=config) as mem:
        for i, text in enumerate(["Could you nudge me to apply for the pavement licence tomorrow morning?",
                                  "Can u keep tabs on this for me: clear out my desk?",
                                  "Could you tell me what the budget was?",
                                  "Can you recommend a good running shoe?"]):
            mem.add_turn("user", text, session_id=f"s{i}")
            mem.add_turn("assistant", "Of course.", session_id=f"s{i}")  # neither a to-do taken nor a shrug
            mem.end_session(f"s{i}")
        texts = sorted(lp.text for lp in mem.loops(status="all"))
    if request_on:
        assert len(texts) == 2 and "pavement licence" in texts[1] and "desk" in texts[0]
    else:
        assert texts == []


def test_learned_consolidation_off_is_the_rules(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", config=Config(consolidation={"learned": False})) as mem:
        mem.add_turn("user", "Remind me to book the physio for my calf next week.", session_id="s1")
        mem.end_session("s1")
        assert [lp.detector for lp in mem.loops()] == ["rules"]


@pytest.mark.parametrize("content", [b"not a zip file", None])
def test_a_damaged_or_foreign_model_file_leaves_the_rules_in_charge(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "models.npz"
    if content is None:   # a file from another version: other sentence features
        np.savez(path, format_version=np.array(learned.FORMAT_VERSION), embedder_id=np.array("minilm-l6-v2-int8"),
                 grammar_dim=np.array(learned.GRAMMAR_DIM + 1))
    else:
        path.write_bytes(content)
    assert learned.load_models(str(path)) is None
    with Memory(tmp_path / "m.db", config=Config(consolidation={"learned_models_path": str(path)})) as mem:
        mem.add_turn("user", "Remind me to book the physio for my calf next week.", session_id="s1")
        mem.end_session("s1")
        assert [lp.detector for lp in mem.loops()] == ["rules"]


def test_the_training_sink_records_the_pair_features_consolidation_computes() -> None:
    with learned.collecting() as rows, Memory(":memory:") as mem:
        mem.add_turn("user", "The deck needs 14 slides.", session_id="s1", timestamp="2026-11-02T10:00:00Z")
        mem.add_turn("user", "I need to send Dana the deck by Friday.", session_id="s1",
                     timestamp="2026-11-02T10:01:00Z")
        mem.end_session("s1")
        mem.add_turn("user", "Actually the deck needs 16 slides. Dana has the deck now.", session_id="s2",
                     timestamp="2026-11-05T10:00:00Z")
        mem.end_session("s2")
    heads = {r.head for r in rows}
    assert heads == {"closes", "supersedes"}
    assert all(r.features.shape == (len(CLOSES_FEATURES if r.head == "closes" else SUPERSEDES_FEATURES),)
               for r in rows)
    assert not learned.recording()


@pytest.mark.parametrize("unsettled", [True, False])
def test_a_change_is_matched_by_thread_before_its_sessions_episode_is_written(unsettled: bool) -> None:
    """The facts step runs before the episode step: the session's thread is read from its turns so far
    (`consolidation.unsettled_thread`), so the supersedes model knows how alike the two sessions' threads are."""
    config = Config(consolidation={"unsettled_thread": unsettled})
    with learned.collecting() as rows, Memory(":memory:", config=config) as mem:
        two_sessions(mem, "The kitchen renovation budget is 40k, tiles from Mosaico.",
                     "Actually the kitchen renovation budget is 48k now.")
    pairs = [dict(zip(SUPERSEDES_FEATURES, r.features.tolist(), strict=True)) for r in rows if r.head == "supersedes"]
    assert pairs and all(p["same_session"] == 0 for p in pairs)
    assert all(p["has_thread"] == float(unsettled) for p in pairs)
    if unsettled:
        assert all(p["thread_cosine"] > 0.5 for p in pairs)   # one thread: the kitchen renovation


def test_thread_vectors_read_an_unsettled_session_from_its_turns_only_while_it_has_no_episode() -> None:
    calls: list[str] = []
    store = type("S", (), {"session_episode": lambda self, user, sid: None, "episode_vector": lambda self, i: None})()
    threads = learned.ThreadVectors(store, "u", {"s2": lambda: calls.append("s2") or np.ones(4, np.float32)})
    assert threads.of("s1") is None and threads.cosine("s1", "s2") is None
    assert threads.of("s2") is not None and threads.of("s2") is not None
    assert calls == ["s2"]   # read once


def test_a_frame_blanks_the_values_a_statement_gives() -> None:
    assert frame("The deck needs 14 slides, due March 3.") == "The deck needs a number slides, due a date ."
    assert frame("Sinéad says Fergus will be our compère.") == "someone says someone will be our compère."
