"""Issue 18: what `Memory` itself refuses (every door goes through it): roles outside the chat vocabulary, text that
is not valid Unicode, a turn over `Config.capture.max_turn_chars`; and a blank query recalls nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from episodic_memory import Config, Memory


@pytest.fixture
def mem(tmp_path: Path):
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"}, capture={"max_turn_chars": 50})) as m:
        m.add_turn("user", "already here: the deck needs 14 slides", session_id="s0")
        yield m


@pytest.mark.parametrize(("turn", "message"), [
    ({"role": "robot"}, r"role must be one of user, assistant, system, tool, got 'robot'"),
    ({"content": "half a pair \ud800 here"}, r"content is not valid Unicode text: a lone surrogate '\\ud800' at "
                                             r"character 12"),
    ({"speaker": "\udfff"}, "speaker is not valid Unicode text"),
    ({"session_id": "s\ud83d"}, "session_id is not valid Unicode text"),
    ({"turn_id": "t\udc00"}, "turn_id is not valid Unicode text"),
    ({"content": "x" * 51}, r"content is 51 characters, over the limit of 50 \(Config.capture.max_turn_chars\)"),
])
def test_a_bad_turn_is_refused_by_name_and_nothing_of_its_batch_is_stored(
        mem: Memory, turn: dict, message: str) -> None:
    good = {"role": "user", "content": "fine", "session_id": "s1"}
    with pytest.raises(ValueError, match=f"turn 1: {message}"):
        mem.add_turns([good, {**good, **turn}])
    assert mem.stats()["turns"] == 1


def test_roles_are_taken_in_any_case_and_stored_in_lower_case(mem: Memory) -> None:
    for role in ("USER", " Assistant ", "system", "tool"):
        mem.add_turn(role, "x" * 50, session_id="s2")
    assert [t.role for t in mem.session_turns("s2")] == ["user", "assistant", "system", "tool"]


@pytest.mark.parametrize("query", ["", " ", "\n\t ", "\u200b", "???", "-"])
def test_a_query_with_nothing_to_search_for_recalls_nothing(tmp_path: Path, query: str) -> None:
    # the real embedder: an empty text still has a vector, and the turns nearest it came back as "hits"
    with Memory(tmp_path / "e.db", config=Config(capture={"consolidate_every": 100})) as mem:
        for text in ("the deck needs 14 slides", "hello there", "ok", "I like tea", "yes", "..."):
            mem.add_turn("user", text, session_id="s")
        assert mem.recall("deck slides")
        assert mem.recall(query) == []


def test_a_query_that_is_not_valid_unicode_is_refused(mem: Memory) -> None:
    with pytest.raises(ValueError, match="query is not valid Unicode text"):
        mem.recall("deck \ud800")
