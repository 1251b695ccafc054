"""The shared helpers in `episodic_memory.util`."""

from __future__ import annotations

import gc
import json
import tracemalloc
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

import episodic_memory
from episodic_memory import Config, Memory, util
from episodic_memory.consolidate import keyphrases
from episodic_memory.retrieve import currency
from episodic_memory.util import (
    TEXT_MEMOS,
    TextMemos,
    chunks,
    footprint,
    forget_remembered_texts,
    memo_text,
    to_epoch,
    to_iso,
)


def test_to_iso_and_to_epoch_round_trip() -> None:
    assert to_iso(None) is None
    assert to_iso(0) == "1970-01-01T00:00:00+00:00"
    assert to_epoch(to_iso(1_700_000_000.5)) == 1_700_000_000.5
    assert to_epoch("2026-05-01T00:00:00Z") == datetime(2026, 5, 1, tzinfo=timezone.utc).timestamp()
    assert to_epoch(datetime(2026, 5, 1)) == datetime(2026, 5, 1, tzinfo=timezone.utc).timestamp()
    with pytest.raises(ValueError, match="when: 'soon' is not an ISO-8601 date-time"):
        to_epoch("soon", "when")
    with pytest.raises(TypeError):
        to_epoch(True)


def test_chunks() -> None:
    assert [len(c) for c in chunks(list(range(1201)))] == [500, 500, 201]
    assert list(chunks("abcde", 2)) == [["a", "b"], ["c", "d"], ["e"]]
    assert list(chunks([])) == []


# -- the text memos: one byte budget for every per-text analysis of the process ------------------------------


@pytest.fixture
def memos_budget() -> Iterator[None]:
    """Leave the process's memo budget as the test found it."""
    budget = TEXT_MEMOS.budget
    yield
    TEXT_MEMOS.set_budget(budget)


def _sample_texts() -> list[str]:
    path = Path(episodic_memory.__file__).parent / "data" / "sample_conversation.jsonl"
    turns = [json.loads(line)["content"] for line in path.read_text().splitlines()]
    return [f"{text} (take {n})" for n in range(8) for text in turns]  # 432 distinct texts


def test_text_memos_keep_the_newest_entries_within_the_budget() -> None:
    memos = TextMemos(budget=10 * (TextMemos.ENTRY_BYTES + footprint((1, 2))))
    first, second = memos.new_memo(), memos.new_memo()
    for i in range(8):
        memos.keep(first, f"text {i}", (1, 2))
    for i in range(8):
        memos.keep(second, f"text {i}", (1, 2))
    assert memos.used <= memos.budget and memos.entries() == 10
    assert sorted(first) == ["text 6", "text 7"]  # the oldest entries went first, whichever memo held them
    assert len(second) == 8
    memos.keep(second, "text 7", (3, 4))  # already held: kept as it was
    assert second["text 7"] == (1, 2) and memos.entries() == 10
    memos.set_budget(3 * (TextMemos.ENTRY_BYTES + footprint((1, 2))))
    assert sorted(second) == ["text 5", "text 6", "text 7"] and first == {}
    memos.keep(first, "huge", tuple(range(1000)))  # more than the whole budget: not kept
    assert "huge" not in first
    memos.clear()
    assert memos.used == 0 and memos.entries() == 0 and second == {}


def test_text_memos_size_a_sample_of_the_entries_and_count_the_rest_at_their_mean(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Sizing every entry cost more than some analyses: past its first entries a memo sizes one in eight."""
    sized: list[object] = []
    monkeypatch.setattr(util, "footprint", lambda value, depth=2: sized.append(value) or 8 * len(value))
    memos = TextMemos(budget=1 << 30)
    memo = memos.new_memo()
    for i in range(1000):
        memos.keep(memo, f"text {i}", (i,) * (1 + i % 4))  # 8–32 bytes in a period a modulo would alias
    assert len(sized) <= TextMemos.EXACT_FIRST + 2 * 1000 // TextMemos.SAMPLE_EVERY
    exact = sum(TextMemos.ENTRY_BYTES + 8 * (1 + i % 4) for i in range(1000))
    assert abs(memos.used - exact) <= 0.02 * exact
    for i in range(1000, 2000):  # larger results after small ones (long texts after short): the mean follows
        memos.keep(memo, f"text {i}", (i,) * 100)
    exact += 1000 * (TextMemos.ENTRY_BYTES + 800)
    assert abs(memos.used - exact) <= 0.05 * exact  # a mean of everything since the start: 0.55× here
    before = memos.used
    other = memos.new_memo()  # each memo its own mean: a new one sizes its entries
    memos.keep(other, "a", tuple(range(100)))
    assert memos.used - before == TextMemos.ENTRY_BYTES + 800


def test_memo_text_gives_the_same_result_and_keeps_only_short_texts(memos_budget: None) -> None:
    calls: list[str] = []

    @memo_text(longest=10)
    def shout(text: str, times: int = 1) -> str:
        calls.append(text)
        return text.upper() * times

    assert shout("hello") == shout("hello") == "HELLO" and calls == ["hello"]
    assert shout("hello", 2) == "HELLOHELLO" and calls == ["hello", "hello"]  # other arguments, another entry
    assert shout("a longer text") == shout("a longer text") and calls.count("a longer text") == 2
    forget_remembered_texts()
    shout("hello")
    assert calls.count("hello") == 3


def test_the_budget_bounds_what_the_analyses_really_hold(memos_budget: None) -> None:
    """The estimate (`footprint`) is checked against what the analyses of real texts allocate (tracemalloc):
    the budget is a bound on memory, not on a count."""
    texts = _sample_texts()
    TEXT_MEMOS.set_budget(1 << 30)
    forget_remembered_texts()
    gc.collect()
    tracemalloc.start()
    try:
        known = currency.known_names(texts)
        for text in texts:
            currency.signature(text, known)
            currency.values_in(text)
            keyphrases.content_stems(text)
            keyphrases.sentences(text)
        gc.collect()
        held, estimated = tracemalloc.get_traced_memory()[0], TEXT_MEMOS.used
        forget_remembered_texts()
        gc.collect()
        freed = held - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert TEXT_MEMOS.entries() == 0
    assert freed > 100_000, "the analyses held next to nothing: the check would prove nothing"
    assert freed <= estimated <= 3 * freed, f"estimated {estimated} bytes for {freed} held"
    TEXT_MEMOS.set_budget(estimated // 4)
    for text in texts:
        currency.signature(text, known)
        currency.values_in(text)
        keyphrases.content_stems(text)
        keyphrases.sentences(text)
    assert 0 < TEXT_MEMOS.used <= estimated // 4


def test_a_memory_sets_the_budget_from_its_config(tmp_path: Path, memos_budget: None) -> None:
    with Memory(tmp_path / "m.db", config=Config(retrieval={"text_memo_mb": 0.25}, models={"embedder": "off"})) as mem:
        assert TEXT_MEMOS.budget == 1 << 18
        for i, text in enumerate(_sample_texts()[:120]):
            mem.add_turn("user", text, session_id=f"s{i // 40}")
        mem.end_session("s2")
        mem.recall("how many slides does the deck need?")
        assert 0 < TEXT_MEMOS.used <= 1 << 18
