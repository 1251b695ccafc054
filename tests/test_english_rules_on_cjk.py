"""English-only rules stay in English (issue 43): stop words, time phrases, name stripping, exact lookups of words
and the currency pass read English; on Chinese, Japanese or Korean text they must do nothing — one test each."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from episodic_memory import Memory
from episodic_memory.config import Config
from episodic_memory.retrieve.exact import coined, exact_tiers
from episodic_memory.retrieve.fts import STOPWORDS, lookups, query_terms
from episodic_memory.retrieve.query import analyze, find_names, strip_names

pytestmark = pytest.mark.both_backends

LEXICAL = Config(models={"embedder": "off"}, capture={"consolidate_in_background": "off"})
NOW = datetime(2026, 12, 6, 12, tzinfo=timezone.utc)
QUESTIONS = ["我昨天去了哪里？", "上周三的会议是几点？", "明日は何時に会う？", "지난주에 누구를 만났어?", "那个预算最后是多少？"]


def test_stop_words_leave_chinese_japanese_and_korean_alone() -> None:
    for q in QUESTIONS:
        assert query_terms(q) == query_terms(q, keep_stopwords=True), q  # nothing of theirs is an English stop word
    assert query_terms("我的 the 猫") == ["我的", "我", "的", "猫"]  # the English word goes, the Chinese stay


def test_time_phrases_find_no_time_in_chinese() -> None:
    for q in QUESTIONS:
        info = analyze(q, now=NOW)
        assert (info.time_range, info.phase, info.kind) == (None, None, "general"), q
        assert info.script == "unsegmented"
    assert analyze("我昨天 met Anna yesterday", now=NOW).time_range is not None  # the English phrase still counts


def test_name_stripping_leaves_chinese_alone() -> None:
    english = ["Caroline", "Mel", "I", "Al"]
    for q in QUESTIONS:
        assert find_names(q, english) == [], q
        assert strip_names(q, english) == q, q


def test_exact_lookups_count_no_chinese_word_inside_a_question(db_path: Path) -> None:
    """A run of Chinese inside a question is no "coined" English word; an identifier inside it still is one."""
    with Memory(db_path, config=LEXICAL) as mem:
        mem.add_turn("user", "我女儿朵朵发烧了，三十八度五。", session_id="s")
        mem.add_turn("user", "王总的手机号是13910237788请帮我存一下", session_id="s")
        for q in ("朵朵 发烧 多少度？", "我女儿 朵朵 怎么了"):
            assert not any(coined(x.text) for x in lookups(q)), q
            assert exact_tiers(mem.store, mem.config, lookups(q), "default", want_turns=True, kinds=[]) == {}, q
        tiers = exact_tiers(mem.store, mem.config, lookups("13910237788是谁的号码？"), "default", want_turns=True, kinds=[])
        assert len(tiers) == 1  # digits are no language's: the number is looked up exactly


def test_the_currency_pass_leaves_a_chinese_ranking_alone(db_path: Path) -> None:
    """Later Chinese turns with other numbers: the order and the hits are those of recall without currency."""
    turns = ["厨房装修的预算是40000元。", "我们在看厨房的瓷砖。", "厨房装修的预算改成48000元了。", "预算里不含家电。",
             "The budget is 40k.", "We looked at tiles.", "Actually the budget is 48k now."]
    results = []
    for config in (LEXICAL, LEXICAL.replace({"currency.pool": 0})):
        with Memory(db_path, config=config) as mem:
            if not results:
                for i, text in enumerate(turns):
                    mem.add_turn("user", text, session_id="s", timestamp=1_700_000_000 + 3600 * i)
                english = mem.recall("what is the budget?", k=2)  # the pass is on: the English change outranks
                assert [h.text for h in english] == [turns[6], turns[4]] and "superseded" in english[1].details
            hits = mem.recall("厨房装修的预算是多少？", k=4)
            assert not any("superseded" in h.details for h in hits)
            results.append([h.text for h in hits])
    assert results[0] == results[1]


def test_english_stop_words_hold_no_cjk() -> None:
    assert not any(any("\u3040" <= c <= "\ud7af" for c in w) for w in STOPWORDS)
