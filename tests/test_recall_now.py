"""Recall told what time it is (issue 17): recency and time phrases count from `now`, `as_of` implies it, a bad
`now` is refused at every door, and a question about an end (a start) favours the turn that reports it."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.retrieve.query import analyze, time_range
from episodic_memory.retrieve.timing import BOTH, END, START, query_phase, reports

UTC = timezone.utc
NOW = datetime(2023, 5, 10, 13, 0, tzinfo=UTC)  # a Wednesday


def quiet(**overrides: Any) -> Config:
    return Config(models={"embedder": "off"}, capture={"consolidate_in_background": "off"}).replace(**overrides)


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def span(text: str, now: datetime = NOW) -> tuple[datetime, datetime] | None:
    found = time_range(text, now)
    return None if found is None else (datetime.fromtimestamp(found[0], UTC), datetime.fromtimestamp(found[1], UTC))


# --- time phrases against a fixed now ------------------------------------------------------------------
@pytest.mark.parametrize("phrase, start, end", [
    ("what did we do yesterday", "2023-05-09", "2023-05-10"),
    ("what did I eat last night", "2023-05-09", "2023-05-10"),
    ("anything planned today", "2023-05-10", "2023-05-11"),
    ("what happened the day before yesterday", "2023-05-08", "2023-05-09"),
    ("what did we talk about last week", "2023-04-30", "2023-05-09"),     # Mon 1 – Sun 7 May, a day of slack
    ("what is on this week", "2023-05-07", "2023-05-16"),
    ("what is due next week", "2023-05-14", "2023-05-23"),
    ("what did I do the week before last", "2023-04-23", "2023-05-02"),   # Mon 24 – Sun 30 April
    ("what did I do last weekend", "2023-05-05T12:00", "2023-05-08T12:00"),
    ("what happened last month", "2023-04-01", "2023-05-01"),
    ("goals for this month", "2023-05-01", "2023-06-01"),
    ("what is planned next month", "2023-06-01", "2023-07-01"),
    ("what did I read earlier this month", "2023-05-01", "2023-05-11T01:00"),
    ("books I read last year", "2022-01-01", "2023-01-01"),
    ("books I read this year", "2023-01-01", "2024-01-01"),
    ("what did we decide in March last year", "2022-03-01", "2022-04-01"),
    ("what did I cook 3 days ago", "2023-05-06T13:00", "2023-05-08T13:00"),
    ("who called two weeks ago", "2023-04-23T01:00", "2023-04-30T01:00"),
    ("what did we fix a couple of days ago", "2023-05-07T13:00", "2023-05-09T13:00"),
    ("what did I buy in the past two weeks", "2023-04-25T13:00", "2023-05-11T13:00"),
    ("what happened in May", "2023-05-01", "2023-06-01"),                 # the May of now: not after it
    ("what happened in June", "2022-06-01", "2022-07-01"),                # the most recent June not after now
    ("what happened last May", "2022-05-01", "2022-06-01"),               # said in May: a year back
    ("what happened in April", "2023-04-01", "2023-05-01"),
    ("what did we do last Friday", "2023-05-04", "2023-05-07"),           # Fri 5 May, a day of slack
    ("what did we do on Monday", "2023-05-07", "2023-05-10"),             # Mon 8 May
    ("what did we do on Wednesday", "2023-05-02", "2023-05-05"),          # a week back: today is Wednesday
    ("what is on this Friday", "2023-05-11", "2023-05-14"),
    ("what is on next Friday", "2023-05-18", "2023-05-21"),
    ("what did we say on 9 November, 2022", "2022-11-08", "2022-11-11"),  # absolute dates ignore now
    ("what happened in 2021", "2021-01-01", "2022-01-01"),
])
def test_time_phrases_resolve_against_now(phrase: str, start: str, end: str) -> None:
    assert span(phrase) == (day(start), day(end))


@pytest.mark.parametrize("text", ["I may come by", "the last day of the trip", "every Friday we swim",
                                  "what do I do on Fridays", "how are you"])
def test_no_time_phrase_no_range(text: str) -> None:
    assert span(text) is None


def test_the_same_phrase_moves_with_now() -> None:
    assert span("last week", day("2023-01-04"))[0] < span("last week", NOW)[0]  # type: ignore[index]
    assert span("in May", day("2023-04-30")) == (day("2022-05-01"), day("2022-06-01"))
    assert analyze("what did we cook last week", now=NOW).time_range == time_range("last week", NOW)


# --- recency and time phrases in recall ------------------------------------------------------------------
def test_recency_ordering_flips_with_now(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", config=quiet(retrieval={"recency_weight": 1.0, "recency_half_life_days": 10})) as mem:
        mem.add_turn("user", "We hiked up to the lake by the old mill", session_id="jan",
                     timestamp="2023-01-10T10:00:00Z", turn_id="jan")
        mem.add_turn("user", "We hiked to the lake near the old mill again", session_id="jun",
                     timestamp="2023-06-10T10:00:00Z", turn_id="jun")
        first = [mem.recall("hike to the lake by the mill", kind="turn", now=when)[0].source_ids[0]
                 for when in ("2023-01-11T00:00:00Z", "2023-06-11T00:00:00Z", 1_673_395_200.0,
                              datetime(2023, 6, 12))]
        assert first == ["jan", "jun", "jan", "jun"]
        # recalled as of a moment between them, the later one is no more recent than the earlier
        assert mem.recall("hike to the lake by the mill", kind="turn", now="2023-01-20")[0].source_ids == ["jan"]


def cooking(mem: Memory) -> None:
    """Two cooking turns: one in March (the better match for the words) and one on 2 May 2023."""
    mem.add_turn("user", "I cooked a big pot of lentil soup, lentil soup is my favourite thing to cook",
                 session_id="march", timestamp="2023-03-01T18:00:00Z", turn_id="march")
    mem.add_turn("user", "Tried a new risotto recipe tonight, I cooked it with mushrooms", session_id="may",
                 timestamp="2023-05-02T18:00:00Z", turn_id="may")


def test_last_week_resolves_against_now(tmp_path: Path) -> None:
    query = "what did I cook last week"
    with Memory(tmp_path / "m.db", config=quiet(retrieval={"recency_weight": 0.0})) as mem:
        cooking(mem)
        assert mem.recall(query, kind="turn", now=NOW)[0].source_ids == ["may"]
        assert mem.recall(query, kind="turn", now="2023-03-08T12:00:00Z")[0].source_ids == ["march"]
        assert mem.recall(query, kind="turn")[0].source_ids == ["march"]  # the wall clock's last week: neither


def test_as_of_implies_now(tmp_path: Path) -> None:
    query = "what did I cook last week"
    with Memory(tmp_path / "m.db", config=quiet(retrieval={"recency_weight": 0.0})) as mem:
        cooking(mem)
        assert mem.recall(query, kind="turn", as_of="2023-05-10T12:00:00Z")[0].source_ids == ["may"]
        # an explicit now wins over as_of
        assert mem.recall(query, kind="turn", as_of="2023-05-10T12:00:00Z", now=datetime(2026, 1, 1)
                          )[0].source_ids == ["march"]


def test_compat_retrieve_passes_now(tmp_path: Path) -> None:
    from episodic_memory.default import retrieve

    with Memory(tmp_path / "m.db", config=quiet(retrieval={"recency_weight": 0.0})) as mem:
        cooking(mem)
        assert retrieve("what did I cook last week", mem, k=1, kind="turn", now=NOW)[0].source_ids == ["may"]


# --- a bad now at every door -------------------------------------------------------------------------------
@pytest.mark.parametrize("bad, error", [("last tuesday", ValueError), ("2023-13-01", ValueError),
                                        (float("nan"), ValueError), (True, TypeError), ([2023], TypeError)])
def test_a_bad_now_is_refused_naming_it(tmp_path: Path, bad: object, error: type[Exception]) -> None:
    with Memory(tmp_path / "m.db", config=quiet()) as mem:
        mem.add_turn("user", "the deck needs 14 slides", session_id="s")
        with pytest.raises(error, match="now"):
            mem.recall("deck", now=bad)  # type: ignore[arg-type]


def test_the_cli_takes_now_and_refuses_a_bad_one(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, config=quiet(retrieval={"recency_weight": 0.0})) as mem:
        cooking(mem)
    env = {"EPISODIC_MODELS__EMBEDDER": "off"}
    ok = CliRunner().invoke(main, ["recall", "--db", str(db), "what did I cook last week", "--now",
                                   "2023-05-10T13:00", "--json"], env=env)
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)[0]["source_ids"] == ["may"]
    bad = CliRunner().invoke(main, ["recall", "--db", str(db), "cook", "--now", "next tuesday"], env=env)
    assert bad.exit_code == 2 and "now" in bad.output and "ISO-8601" in bad.output


def test_the_rest_route_takes_now_and_refuses_a_bad_one_with_a_400(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from episodic_memory.server.rest import create_app

    db = tmp_path / "m.db"
    with Memory(db, config=quiet(retrieval={"recency_weight": 0.0})) as mem:
        cooking(mem)
    app = create_app(db, auth=False, config=quiet(retrieval={"recency_weight": 0.0}))
    with TestClient(app, raise_server_exceptions=False) as http:
        ok = http.get("/v1/recall", params={"q": "what did I cook last week", "now": "2023-05-10T13:00:00Z"})
        assert ok.status_code == 200 and ok.json()["hits"][0]["source_ids"] == ["may"]
        bad = http.get("/v1/recall", params={"q": "cook", "now": "yesterday"})
        assert bad.status_code == 400 and "now" in bad.json()["detail"]


def test_the_mcp_recall_tool_takes_now_and_refuses_a_bad_one(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    import asyncio

    from episodic_memory.server.mcp_server import MemoryTools, create_server

    with Memory(tmp_path / "m.db", config=quiet(retrieval={"recency_weight": 0.0})) as mem:
        cooking(mem)
        server = create_server(MemoryTools(mem))
        result = asyncio.run(server.call_tool("recall", {"query": "what did I cook last week", "k": 1,
                                                         "now": "2023-05-10T13:00:00Z"}))
        assert json.loads(result.content[0].text)["hits"][0]["source_ids"] == ["may"]
        with pytest.raises(Exception, match="now: 'soon' is not an ISO-8601"):
            asyncio.run(server.call_tool("recall", {"query": "cook", "now": "soon"}))


# --- state changes -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("query, phase", [
    ("When did Joanna finish her first screenplay?", END), ("When did Jon start to go to the gym?", START),
    ("When did Maria take up community work?", START), ("When did Melanie sign up for a pottery class?", START),
    ("When did they move to Berlin?", END), ("When did she quit her job?", END),
    ("How many days between the end of my sprint and starting the analytics work?", BOTH),
    ("What did Anthony and John end up playing?", None), ("When did Tim leave for Ireland?", END),
    ("How many scenes had I filmed by July 5 and how many were left to film?", None), ("How long did it take to get there?", None),
    ("What is my favourite colour?", None)])
def test_query_phase(query: str, phase: str | None) -> None:
    assert query_phase(query) == phase


@pytest.mark.parametrize("text, end, start", [
    ("I finally finished the portrait!", True, False), ("The portrait is done, it's hanging in the hall", True, False),
    ("We wrapped up the project on Friday", True, False), ("I started a portrait of my grandmother", False, True),
    ("I'm starting pottery classes", False, True), ("I signed up for a pottery class", False, True),
    ("I want to finish the portrait soon", False, False), ("We finally left Paris on Sunday", True, False),
    ("There are two slices left", False, False), ("My back is killing me", False, False)])
def test_what_a_text_reports(text: str, end: bool, start: bool) -> None:
    assert reports(text) == (end, start)


def plant(mem: Memory, begun: str, done: str) -> None:
    """A planted conversation: a portrait begun in January, an unrelated February, the portrait done in March."""
    for session, ts, text in (("jan", "2023-01-14T10:00:00Z", begun),
                              ("feb", "2023-02-14T10:00:00Z", "Work is busy, I barely had time for anything"),
                              ("mar", "2023-03-14T10:00:00Z", done)):
        mem.add_turn("user", text, session_id=session, timestamp=ts, turn_id=session)
        mem.end_session(session)


# each pair of texts is one where, without the phase bonus, the other turn ranks first for that question
@pytest.mark.parametrize("begun, done, query, wanted", [
    ("I began a portrait of my grandmother", "The portrait of my grandmother is done, framed it yesterday",
     "When did I finish the portrait of my grandmother?", "mar"),
    ("I began painting a portrait of my grandmother", "The portrait of my grandmother is done",
     "When did I start the portrait of my grandmother?", "jan"),
])
def test_a_question_about_an_end_or_a_start_favours_the_turn_reporting_it(
        tmp_path: Path, begun: str, done: str, query: str, wanted: str) -> None:
    first = {}
    for bonus in (Config().retrieval.phase_bonus, 0.0):
        with Memory(tmp_path / f"{bonus}.db", config=quiet(retrieval={"phase_bonus": bonus, "recency_weight": 0.0})) as mem:
            plant(mem, begun, done)
            first[bonus] = mem.recall(query, kind="turn", k=1, now="2023-04-01")[0].source_ids[0]
            if bonus:  # every kind of memory, not only turns
                assert wanted in [s for h in mem.recall(query, k=1, now="2023-04-01") for s in h.source_ids]
    assert first == {Config().retrieval.phase_bonus: wanted, 0.0: "jan" if wanted == "mar" else "mar"}
