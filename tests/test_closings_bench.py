"""bench/closings.py: hand-written closings read as consolidation reads them; a bad line is named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench.closings import DATA, load_groups, measure

from episodic_memory.consolidate import learned
from episodic_memory.models.embedder import load_embedder


def test_the_written_file_loads() -> None:
    groups = load_groups(DATA)
    assert len(groups) == 70
    assert {g["area"] for g in groups} == {"life", "work"}
    assert all(4 <= len(g["todos"]) <= 6 for g in groups)


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    good = {"group": "g", "area": "life", "todos": [{"take_on": ["a"], "done": ["b"]}] * 2}
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "area": "mars"}) + "\n")
    with pytest.raises(SystemExit, match=r"c\.jsonl:2:"):
        load_groups(path)


def test_reports_are_paired_with_their_own_to_do() -> None:
    """Two unrelated to-dos: each report ranks its own first, and a report said as done passes the gate."""
    judge = learned.judge_for(load_embedder(None))
    assert judge is not None
    group = {"group": "g", "area": "work", "todos": [
        {"take_on": ["I need to renew the domain name for the shop website"],
         "done": ["I renewed the shop's domain name this morning, it's done."]},
        {"take_on": ["Remind me to book the dentist for my daughter"],
         "done": ["Booked the dentist for my daughter, all done."]}]}
    result = measure([group], judge)
    assert result["work"]["reports"] == 4 and result["life"]["reports"] == 0
    assert result["all"]["cosine@1"] == 1.0 and result["all"]["head@1"] == 1.0
    assert result["all"]["gate"] > 0 and result["all"]["wrong"] == 0.0
