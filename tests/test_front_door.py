"""The `Memory` contract."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from episodic_memory import Hit, Memory

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL


def test_add_turn_and_recall_contract(mem: Memory) -> None:
    t1 = mem.add_turn("user", "The Series B deck needs 14 slides", session_id="s1", speaker="Maya",
                      timestamp="2026-11-02T10:00:00+00:00", turn_id="s1-t1")
    t2 = mem.add_turn("assistant", "Noted, updating the outline", session_id="s1")
    assert t1 == "s1-t1"
    assert t2.isdigit()
    hits = mem.recall("how many slides in the deck", k=5)
    assert hits and isinstance(hits[0], Hit)
    hit = hits[0]
    assert (hit.kind, hit.text, hit.session_id, hit.source_ids) == (
        "turn", "The Series B deck needs 14 slides", "s1", ["s1-t1"])
    assert hit.timestamp == datetime(2026, 11, 2, 10, tzinfo=timezone.utc)
    assert hit.score > 0 and hit.id
    assert set(hit.to_dict()) >= {"id", "kind", "text", "score", "timestamp", "session_id", "source_ids"}
    outline = mem.recall("outline")[0]
    assert outline.source_ids == [t2]


def test_timestamps_accept_datetime_iso_and_naive(mem: Memory) -> None:
    aware = datetime(2025, 1, 2, 3, 4, tzinfo=timezone(timedelta(hours=2)))
    mem.add_turn("user", "aware zebra", session_id="s", timestamp=aware)
    mem.add_turn("user", "naive zebra", session_id="s", timestamp=datetime(2025, 1, 2, 3, 4))
    mem.add_turn("user", "zulu zebra", session_id="s", timestamp="2025-01-02T03:04:00Z")
    by_text = {h.text: h.timestamp for h in mem.recall("zebra")}
    assert by_text["aware zebra"] == aware
    assert by_text["naive zebra"] == datetime(2025, 1, 2, 3, 4, tzinfo=timezone.utc)
    assert by_text["zulu zebra"] == datetime(2025, 1, 2, 3, 4, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"role": "", "content": "x", "session_id": "s"}, "role"),
        ({"role": "user", "content": 3, "session_id": "s"}, "content"),
        ({"role": "user", "content": "x", "session_id": ""}, "session_id"),
        ({"role": "user", "content": "x", "session_id": "s", "timestamp": "yesterday-ish"}, "timestamp"),
        ({"role": "user", "content": "x", "session_id": "s", "speaker": 5}, "speaker"),
    ],
)
def test_bad_arguments_name_the_field_and_store_nothing(mem: Memory, kwargs: dict, message: str) -> None:
    kwargs = dict(kwargs)  # the parameter is shared by both backends' runs: pop from a copy
    role, content = kwargs.pop("role"), kwargs.pop("content")
    with pytest.raises((ValueError, TypeError), match=message):
        mem.add_turn(role, content, **kwargs)
    assert mem.stats()["turns"] == 0


def test_batch_is_validated_before_anything_is_written(mem: Memory) -> None:
    mem.add_turn("user", "already here", session_id="s0")
    with pytest.raises(ValueError, match="turn 1: timestamp"):
        mem.add_turns([{"role": "user", "content": "fine", "session_id": "s"},
                       {"role": "user", "content": "bad", "session_id": "s", "timestamp": "nope"}])
    assert mem.stats()["turns"] == 1


def test_recall_filters_and_order(mem: Memory) -> None:
    old = datetime(2024, 1, 1, tzinfo=timezone.utc)
    new = datetime.now(timezone.utc)
    mem.add_turn("user", "the lighthouse keeper retired", session_id="a", timestamp=old)
    mem.add_turn("user", "the lighthouse got a new lamp", session_id="b", timestamp=new)
    assert {h.session_id for h in mem.recall("lighthouse")} == {"a", "b"}
    assert [h.session_id for h in mem.recall("lighthouse", session_id="a")] == ["a"]
    assert [h.session_id for h in mem.recall("lighthouse", since="2025-01-01")] == ["b"]
    assert [h.session_id for h in mem.recall("lighthouse", until=datetime(2024, 6, 1))] == ["a"]
    assert mem.recall("lighthouse", kind="fact") == []
    assert len(mem.recall("lighthouse", k=1)) == 1
    scores = [h.score for h in mem.recall("lighthouse")]
    assert scores == sorted(scores, reverse=True)


def test_end_session_unknown_raises(mem: Memory) -> None:
    with pytest.raises(KeyError):
        mem.end_session("never-started")


def test_sessions_and_stats(mem: Memory) -> None:
    for i in range(3):
        mem.add_turn("user", f"turn {i}", session_id="s1")
    mem.add_turn("user", "other", session_id="s2")
    mem.end_session("s1")
    stats = mem.stats()
    assert (stats["turns"], stats["sessions"], stats["open_sessions"]) == (4, 2, 1)
    by_id = {s.session_id: s for s in mem.sessions()}
    assert by_id["s1"].status == "ended" and by_id["s1"].turn_count == 3
    assert [t.seq for t in mem.session_turns("s1")] == [0, 1, 2]
