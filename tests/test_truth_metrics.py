"""The pure helpers of bench/truth.py and the clustering metrics of bench/metrics.py (no data needed)."""

from __future__ import annotations

import math

import pytest
from bench.metrics import adjusted_rand_index, v_measure
from bench.truth import dates_in, explains, match_loops, names_value, numbers_in, score_slot, summarise_slots

# --- value normalisation (the data README's examples) -------------------------------------------------


@pytest.mark.parametrize("text", ["March 14", "14 March", "Mar 14th", "the 14th of March", "Mar. 14", "march 14th"])
def test_date_forms_are_one_date(text: str) -> None:
    assert dates_in(f"The deadline is {text}.") == {(3, 14)}
    assert names_value(f"moved to {text}", "March 14", "date")


def test_dates_are_not_confused() -> None:
    assert dates_in("Monday, May 11 and Sept 4") == {(5, 11), (9, 4)}
    assert dates_in("in May 2026 we may 3x it") == set()
    assert not names_value("the talk date: 24 November", "November 22", "date")


@pytest.mark.parametrize("text", ["$48k", "$48,000", "48000", "$48K a year", "forty-eight thousand"])
def test_money_forms_are_one_number(text: str) -> None:
    assert 48_000 in numbers_in(text)
    assert names_value(f"the cap is {text}", "$48k", "number")


def test_number_slot_matches_on_its_number() -> None:
    assert names_value("my long run is 22 kilometres", "22 km", "number")
    assert names_value("sixteen km this block", "16 km", "number")
    assert names_value("$335 a head", "$335 per person", "number")
    assert not names_value("the offer deadline: 22 August", "22 km", "number")  # a day of the month is no number
    assert not names_value("16 km", "$16k", "number")  # "km" is no thousand
    assert numbers_in("three hundred and ten people, twenty two km, five six") == {310, 22, 5, 6}


def test_names_match_whole_words_any_case() -> None:
    assert names_value("I'm racing in the PEGASUS.", "Pegasus", "thing")
    assert names_value("We hired Hearth and Beam.", "Hearth & Beam", "name")
    assert names_value("Pablo's running comms", "Pablo", "name")
    assert not names_value("Pablos", "Pablo", "name")
    assert not names_value("the backsplash tile is penny tile", "encaustic cement tile", "thing")


# --- current value ---------------------------------------------------------------------------------------

SLOT = {"id": "x.price", "kind": "number", "values": [{"value": "$39"}, {"value": "$66"}, {"value": "$42"}]}


def test_first_value_bearing_hit_decides() -> None:
    # a fact naming the current and an old value counts as current
    o = score_slot(SLOT, ["hello", "It's $42 a month (previously: $66 a month)", "$39"])
    assert (o.first_rank, o.current_first, o.stale_first, o.top1, o.value_at_10) == (2, True, False, False, True)
    o = score_slot(SLOT, ["$66 a month", "$42 a month"])
    assert (o.current_first, o.stale_first, o.top1) == (False, True, False)
    o = score_slot(SLOT, ["nothing here"] * 10 + ["$42"])  # rank 11 is beyond the top 10
    assert (o.current_first, o.stale_first, o.value_at_10) == (False, False, False)


def test_summary_splits_changed_and_unchanged() -> None:
    unchanged = {"id": "y", "kind": "name", "values": [{"value": "Priya"}]}
    s = summarise_slots([score_slot(SLOT, ["$66"]), score_slot(unchanged, ["Priya leads"])])
    assert s["current_first"] == {"value": 0.5, "hits": 1, "n": 2}
    assert s["stale_first"]["value"] == 1.0 and s["current_first_unchanged"]["value"] == 1.0


# --- loops -----------------------------------------------------------------------------------------------


def test_loops_match_within_one_turn_one_to_one() -> None:
    todos = [("s1", 4), ("s1", 6), ("s2", 0)]
    detected = [[("s1", 5)], [("s1", 5)], [("s2", 2)], [("s3", 0)]]
    match = match_loops(detected, todos)
    assert sorted(match.values()) == [0, 1]  # both s1 loops matched, one to-do each; s2 is two turns away
    assert match_loops([[("s1", 4)], [("s1", 4)]], [("s1", 4)]) == {0: 0}


# --- clusterings (hand-computed) --------------------------------------------------------------------------


def test_v_measure_and_ari_by_hand() -> None:
    # classes {a,a,b,c}, clusters {x,x,y,y}: H(C) = 1.5 bits, H(C|K) = 0.5 -> h = 2/3; c = 1; V = 0.8.
    # ARI: index 1, expected 1 * 2 / 6, max 1.5 -> (1 - 1/3) / (1.5 - 1/3) = 4/7.
    v = v_measure(list("aabc"), list("xxyy"))
    assert math.isclose(v["homogeneity"], 2 / 3) and v["completeness"] == 1.0
    assert math.isclose(v["v_measure"], 0.8)
    assert math.isclose(adjusted_rand_index(list("aabc"), list("xxyy")), 4 / 7)
    # label names do not matter
    assert v_measure(list("aabb"), list("yyxx"))["v_measure"] == 1.0
    assert adjusted_rand_index(list("aabb"), list("yyxx")) == 1.0
    # everything in one cluster: homogeneity 0, V 0, ARI 0; crossed pairs: ARI -0.5
    assert v_measure(list("aabb"), list("xxxx"))["v_measure"] == 0.0
    assert adjusted_rand_index(list("aabb"), list("xxxx")) == 0.0
    assert math.isclose(adjusted_rand_index(list("aabb"), list("xyxy")), -0.5)
    with pytest.raises(ValueError):
        v_measure(["a"], ["x", "y"])


def test_the_never_tuned_banks_are_pooled_and_the_gap_is_read_on_them() -> None:
    """Every never-tuned bank counts in its own column and in the pooled "never tuned" one; the dev↔unseen gap
    is read on the pool; no never-tuned bank is ever a training bank."""
    from bench.truth import NEVER_TUNED, pooled_groups, side_by_side
    from bench.truthgen import TRAIN_BANKS, UNTUNED_BANKS

    assert not set(TRAIN_BANKS) & set(UNTUNED_BANKS)
    assert pooled_groups("texter@901x4") == ["texter", NEVER_TUNED]
    assert pooled_groups("slack@901x4") == ["slack", NEVER_TUNED]
    assert pooled_groups("dev@901x4") == ["dev"] and pooled_groups("truth-dev") == ["truth-dev"]
    from bench.truth import HOLD_OUT
    from bench.truthgen import HOLD_OUT_BANKS

    assert not set(HOLD_OUT_BANKS) & {*TRAIN_BANKS, *UNTUNED_BANKS}
    assert pooled_groups("foreman@901x4") == ["foreman", HOLD_OUT]
    assert pooled_groups("caregiver@902x2") == ["caregiver", HOLD_OUT]

    def summary(f1: float) -> dict:
        return {"overall": {"loops": {"f1": f1}}}

    header, rows = side_by_side({"dev": summary(0.9), "untuned": summary(0.5), NEVER_TUNED: summary(0.7)})
    assert header[-1] == f"gap dev↔{NEVER_TUNED}"
    [loops] = [r for r in rows if r[0] == "loops F1"]
    assert loops[-1] == "0.20"
    header, rows = side_by_side({"dev": summary(0.9), "untuned": summary(0.5)})
    assert header[-1] == "gap dev↔untuned" and [r for r in rows if r[0] == "loops F1"][0][-1] == "0.40"
    header, rows = side_by_side({"dev": summary(0.9), NEVER_TUNED: summary(0.7), HOLD_OUT: summary(0.6)})
    assert header[-2:] == [f"gap dev↔{NEVER_TUNED}", f"gap dev↔{HOLD_OUT}"]
    assert [r for r in rows if r[0] == "loops F1"][0][-2:] == ["0.20", "0.30"]


def test_a_supersession_is_explained_only_by_a_later_value_of_the_same_slot() -> None:
    slots = [["t1", "t5", "t9"], ["t2", "t6"]]
    assert explains(slots, {"t5"}, {"t1"}) and explains(slots, {"t9"}, {"t1", "t3"}) and explains(slots, {"t6"}, {"t2"})
    assert not explains(slots, {"t1"}, {"t5"})        # backwards
    assert not explains(slots, {"t6"}, {"t1"})        # another slot's value
    assert not explains(slots, {"t7"}, {"t1"})        # news of no slot


def test_a_draw_the_generator_cannot_write_is_named(tmp_path, monkeypatch) -> None:
    """gen.py failing for one draw (the shared planner has such seeds) is an error naming bank, seed and count,
    with the generator's own last line, not a bare CalledProcessError."""
    import pytest
    from bench import truthgen

    fake = tmp_path / "gen"
    fake.mkdir()
    (fake / "gen.py").write_text("import sys\nsys.stderr.write('Traceback\\nValueError: zip() argument 2 is "
                                 "shorter than argument 1\\n')\nsys.exit(1)\n")
    monkeypatch.setattr(truthgen, "generator_dir", lambda: fake)
    with pytest.raises(truthgen.GeneratorError, match=r"bank 'dev', seed 27, 2 conversations: ValueError: zip"):
        truthgen.write("dev", 27, 2, tmp_path / "out")
