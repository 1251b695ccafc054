"""The shared helpers in `episodic_memory.util`."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from episodic_memory.util import chunks, to_epoch, to_iso


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
