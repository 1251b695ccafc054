"""`bench/rss_account.py` takes a server-like process's memory apart: its rows must come from a real run."""

from __future__ import annotations

import sys

import pytest
from bench import rss_account

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and glibc's mallinfo2")


def test_a_short_run_reports_the_heap_the_vectors_and_the_memos(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EPISODIC_MODELS__EMBEDDER", "off")  # the model is not what is measured here
    rows = rss_account.run(operations=60, every=30, users=2, trim=True, seed=3)
    assert [r["operations"] for r in rows] == [0, 30, 60]
    last = rows[-1]
    assert 0 < last["turns"] <= 61 and last["rss_anon_mb"] > 0 and last["heap_in_use_mb"] > 0
    assert last["python_objects"] > 1000 and last["text_memos_mb"] >= 0
    assert "| 60 (" in rss_account.table(rows)
