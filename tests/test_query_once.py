"""A recall analyses its query once (issue 44): `analyze` builds one `QueryInfo`, and every pass — the BM25 legs,
the exact lookups, the dense query, list coverage, the phase, currency — reads it instead of the text again; a query
in Chinese, … is split into its pairs once, and a recall over several scopes analyses it once for all of them."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from episodic_memory import Config, Memory
from episodic_memory.retrieve import (
    coverage,
    currency,
    currency_pass,
    exact,
    fts,
    query,
    retriever,
    timing,
)
from episodic_memory.retrieve.currency import Question
from episodic_memory.retrieve.query import analyze
from episodic_memory.retrieve.retriever import RecallFilters
from episodic_memory.scopes import agent_owner
from episodic_memory.store import scripts

from .fakes import HashingEmbedder

# every function that reads a query's text, in the module that defines it
ANALYSERS: dict[str, Any] = {
    "analyze": query, "classify": query, "find_names": query, "time_range": query, "strip_names": query,
    "query_terms": fts, "words_and_terms": fts, "fts_query": fts, "lookups": fts, "is_list_question": coverage,
    "asked_kind": currency, "asks_between": currency, "asks_several": currency, "query_phase": timing,
    "script_of": scripts,
}
T0 = datetime(2023, 11, 14, tzinfo=timezone.utc)
# the modules of the read path that may have imported one of them by name
READERS = (query, fts, exact, coverage, currency, currency_pass, retriever, timing)


def _count_calls(monkeypatch: pytest.MonkeyPatch, text: str) -> Counter[str]:
    """Calls of each analyser with `text` as its first argument, whatever its other arguments."""
    counts: Counter[str] = Counter()

    def counting(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            if args and args[0] == text:
                counts[name] += 1
            return fn(*args, **kwargs)
        return call

    for name, home in ANALYSERS.items():
        original = getattr(home, name)
        wrapped = counting(name, original)
        for module in {home, *READERS}:
            if getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, wrapped)
    return counts


@pytest.mark.parametrize("text", [
    "How much did Caroline say the ZQ-6614 repair would cost, and which cities has she visited?",
    "When did Caroline finish the ZQ-6614 repair?",
])
def test_one_recall_analyses_its_query_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    config = Config(experimental={"list_coverage": True}, capture={"consolidate_every": 10**9})
    with Memory(tmp_path / "m.db", config=config, embedder=HashingEmbedder()) as mem:
        for day, said in enumerate(["the ZQ-6614 repair will cost $400 on 3 March", "I visited Paris and Rome",
                                    "actually the ZQ-6614 repair will cost $450, finished it on 9 March"]):
            mem.add_turn("user", said, session_id=f"s{day}", speaker="Caroline",
                         timestamp=T0 + timedelta(days=day))
        mem.recall("warm up", k=3)  # the index and the dense matrix are built before counting
        counts = _count_calls(monkeypatch, text)
        hits = mem.recall(text, k=3, now=T0 + timedelta(days=40))
    assert hits
    assert counts and all(n == 1 for n in counts.values()), counts
    for name in ("analyze", "classify", "words_and_terms", "find_names", "time_range", "script_of", "lookups",
                 "is_list_question", "asked_kind", "asks_between", "asks_several", "strip_names"):
        assert counts[name] == 1, (name, counts)
    assert counts["fts_query"] == counts["query_terms"] == 0  # read from QueryInfo.match, .words and .terms
    if text.startswith("When"):
        assert counts["query_phase"] == 1


def test_what_the_passes_read_is_what_the_helpers_give() -> None:
    text = 'Did Ben say "blue hour" about ZQ-6614 or v2.3.1, and which cities has Ben visited?'
    info = analyze(text, ["Ben"])
    assert info.match == fts.fts_query(text)
    assert info.lookups == fts.lookups(text)
    assert info.whole_forms == fts.whole_forms(fts.lookups(text))
    assert info.dense_text == query.strip_names(text, ["Ben"]) != text
    assert info.list_question is coverage.is_list_question(text) is True
    assert info.question == Question.of(text)
    assert (info.question.kind, info.question.between, info.question.several) == (
        currency.asked_kind(text), currency.asks_between(text), currency.asks_several(text))
    assert info.lookups is info.lookups  # worked out once, then kept


def test_currency_reads_a_question_as_it_reads_its_text() -> None:
    statements = [currency.Statement("The rent is $900 a month.", 1.0, 2.0),
                  currency.Statement("Update: the rent is now $950 a month.", 2.0, 1.0)]
    for text in ("How much is the rent?", "How many days between the rent going up and the move?"):
        assert currency.currency_scores(statements, Question.of(text)) == currency.currency_scores(statements, text)


@pytest.mark.parametrize("text", ["what is  it", "Who is Caroline?", "Where is caroline's  dog?", "王小明上周说了什么？",
                                  "我的 the 猫 ZQ-6614", "İstanbul with Ben", "the 3 things", "!!!"])
def test_the_words_read_once_are_the_words_each_helper_reads(text: str) -> None:
    """The query's words, read once (`QueryInfo.words`), give each pass what reading the text again would."""
    known = ["Caroline", "Ben", "王小明"]
    info = analyze(text, known)
    assert list(info.terms) == fts.query_terms(text)
    assert list(info.words or ()) == fts.query_terms(text, keep_stopwords=True, singles=False)
    assert list(info.names) == query.find_names(text, known)
    assert info.dense_text == query.strip_names(text, list(info.names))


CJK_TURNS = ["王小明下周三去上海出差", "我的iPhone密码改成了新的", "王小明说周末想去爬山", "明日東京タワーに行きます"]


@pytest.mark.parametrize("text", ["王小明下周去哪里出差？", "我的iPhone密码是什么", "東京タワーに行くのはいつ？"])
def test_a_cjk_recall_splits_its_query_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """Its words (pairs) and its terms (pairs and single characters) come from one reading, not two."""
    with Memory(tmp_path / "m.db", config=Config(capture={"consolidate_every": 10**9}),
                embedder=HashingEmbedder()) as mem:
        for day, said in enumerate(CJK_TURNS):
            mem.add_turn("user", said, session_id=f"s{day}", speaker="王小明", timestamp=T0 + timedelta(days=day))
        mem.recall("热身", k=3)
        counts = _count_calls(monkeypatch, text)
        hits = mem.recall(text, k=3, now=T0 + timedelta(days=40))
    assert hits
    assert counts and all(n == 1 for n in counts.values()), counts
    assert counts["words_and_terms"] == counts["analyze"] == counts["lookups"] == 1, counts
    assert counts["query_terms"] == 0, counts


@pytest.mark.parametrize("text", ["王小明下周去哪里出差？", "我的iPhone密码是什么", "東京タワーに行くのはいつ？",
                                  "김지훈이 지난주에 뭐라고 했어?", "ราคาเท่าไหร่"])
def test_the_analysis_splits_each_run_once(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """Every token with Chinese, … in it is expanded into its pairs once, and its single characters read once."""
    calls: Counter[tuple[str, str]] = Counter()
    for name in ("expand", "singles"):
        original = getattr(scripts, name)

        def counting(token: str, _name: str = name, _fn: Callable[..., Any] = original) -> Any:
            calls[_name, token] += 1
            return _fn(token)
        for module in (scripts, fts):
            for attr, value in list(vars(module).items()):
                if value is original:
                    monkeypatch.setattr(module, attr, counting)
    info = analyze(text, ["王小明", "김지훈"])
    assert info.terms and calls and all(n == 1 for n in calls.values()), calls


_PIECES = [*"王小明上周说东京タワー에김지훈ราคา,.?！　々", " ", "iPhone", "13", "the", "of", "'s", "ZQ-6614", "Ｉｓ１２"]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=16).map("".join)


@given(_TEXT)
def test_one_reading_gives_what_two_readings_gave(text: str) -> None:
    words, terms = fts.words_and_terms(text)
    assert words == fts.query_terms(text, keep_stopwords=True, singles=False)
    assert terms == fts.query_terms(text)


AGENTS = ["support", "planner"]


def _scoped_memory(db: Path) -> Memory:
    """A user's turns (Caroline's) and two agents' (Melanie's, the assistant's), the dense matrices built."""
    config = Config(experimental={"list_coverage": True}, capture={"consolidate_every": 10**9})
    for agent in AGENTS:
        with Memory(db, config=config, agent=agent, embedder=HashingEmbedder()) as bot:
            for day, said in enumerate([f"Melanie said the ZQ-6614 repair was finished on 9 March ({agent})",
                                        f"the ZQ-6614 repair will cost $450, says {agent}"]):
                bot.add_turn("assistant", said, session_id="ops", speaker="Melanie" if day == 0 else None,
                             timestamp=T0 + timedelta(days=day))
    mem = Memory(db, config=config, embedder=HashingEmbedder())
    for day, said in enumerate(["the ZQ-6614 repair will cost $400 on 3 March", "I visited Paris and Rome",
                                "actually the ZQ-6614 repair will cost $450, finished it on 9 March"]):
        mem.add_turn("user", said, session_id=f"s{day}", speaker="Caroline", timestamp=T0 + timedelta(days=day))
    mem.recall("warm up", k=3, agents=AGENTS)
    return mem


def test_a_recall_over_several_scopes_analyses_its_query_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "When did Caroline and Melanie say the ZQ-6614 repair was finished, and which cities were visited?"
    with _scoped_memory(tmp_path / "m.db") as mem:
        counts = _count_calls(monkeypatch, text)
        hits = mem.recall(text, k=6, now=T0 + timedelta(days=40), agents=AGENTS)
    assert {h.details["scope"] for h in hits} == {"user", "agent:support", "agent:planner"}
    # each scope finds its own speakers' names in the words read once, and leaves them out of its dense query
    assert counts["find_names"] == counts["strip_names"] == 3, counts
    for name, n in counts.items():
        assert n == (3 if name in ("find_names", "strip_names") else 1), (name, counts)
    for name in ("analyze", "words_and_terms", "time_range", "lookups", "is_list_question", "query_phase"):
        assert counts[name] == 1, (name, counts)


@pytest.mark.parametrize("text", ["When did Caroline and Melanie say the ZQ-6614 repair was finished?",
                                  "How much will the repair cost, Melanie?", "which cities did Caroline visit"])
def test_a_recall_over_several_scopes_finds_what_each_scope_found_alone(tmp_path: Path, text: str) -> None:
    """The query analysed once gives the hits, order and scores that each scope's own analysis gave."""
    now = (T0 + timedelta(days=40)).timestamp()
    with _scoped_memory(tmp_path / "m.db") as mem:
        hits = mem.recall(text, k=6, now=now, agents=AGENTS)
        alone = [h for owner in [mem.user_id, *map(agent_owner, AGENTS)]
                 for h in mem.retriever.recall(text, 6, RecallFilters(user_id=owner), now=now)]
    alone = sorted(alone, key=lambda h: -h.score)[:6]
    assert [(h.id, h.score) for h in hits] == [(h.id, h.score) for h in alone]


def test_another_scope_s_names_share_what_was_read() -> None:
    info = analyze("Did Ben say Ann visited ZQ-6614?", now=T0)
    ben, ann = info.for_names(["Ben", "Zoe"]), info.for_names(["Ann"])
    assert (info.names, ben.names, ann.names) == ((), ("Ben",), ("Ann",))
    assert ben == analyze(info.text, ["Ben", "Zoe"], now=T0) and info.for_names(["Zoe"]) is info
    assert ben.lookups is ann.lookups is info.lookups and ann.question is info.question
    assert (ben.dense_text, ann.dense_text) == ("Did say Ann visited ZQ-6614?", "Did Ben say visited ZQ-6614?")
