"""bench/harness.py's check that the fused recall is never below its own legs alone (issue 43)."""

from __future__ import annotations

from bench.harness import SYSTEMS, best_leg_check, make_system


def _run(r10: float, mrr: float) -> dict[str, object]:
    return {"overall": {"R@10": r10, "MRR": mrr, "n": 10}}


def test_the_fused_figure_is_held_to_the_better_leg() -> None:
    summaries = {"episodic": _run(0.80, 0.60), "episodic-keyword": _run(0.79, 0.65), "episodic-dense": _run(0.55, 0.4)}
    check = best_leg_check(summaries, [10])
    assert check["R@10"] == {"fused": 0.80, "best_leg": 0.79, "leg": "episodic-keyword", "ok": True}
    assert check["MRR"]["ok"] is False and check["MRR"]["leg"] == "episodic-keyword"
    assert best_leg_check({"episodic": _run(0.8, 0.6)}, [10]) == {}  # without both legs: nothing to say


def test_the_legs_are_systems_of_every_bench() -> None:
    assert {"episodic-keyword", "episodic-dense"} <= set(SYSTEMS)
    keyword, dense = make_system("episodic-keyword"), make_system("episodic-dense")
    assert (keyword.name, dense.name) == ("episodic-keyword", "episodic-dense")
