"""Turns' optional `source` and `tags` (issue 19): stored, journaled, returned on hits, filterable at every door."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.memory import journal_dir_for
from episodic_memory.store.sqlite import SQLiteStore
from tests.fakes import HashingEmbedder

pytestmark = pytest.mark.both_backends


def _memory(path: Path) -> Memory:
    return Memory(path, config=Config(capture={"consolidate_every": 100}), embedder=HashingEmbedder())


def _fill(mem: Memory) -> None:
    mem.add_turn("user", "The walrus count is 7", session_id="s1", source="telegram", tags=["zoo", "count"])
    mem.add_turn("user", "The walrus pool is cold", session_id="s1", source="cli", tags=["zoo"])
    mem.add_turn("user", "The walrus keeper is Ana", session_id="s2")


def _texts(hits: list) -> list[str]:
    return sorted(h.text for h in hits)


def test_source_and_tags_are_stored_returned_and_filtered(db_path: Path) -> None:
    with _memory(db_path) as mem:
        _fill(mem)
        hits = {h.text: h for h in mem.recall("walrus", kind="turn")}
        assert (hits["The walrus count is 7"].source, hits["The walrus count is 7"].tags) == ("telegram", ["zoo", "count"])
        assert (hits["The walrus keeper is Ana"].source, hits["The walrus keeper is Ana"].tags) == (None, [])
        assert hits["The walrus pool is cold"].to_dict()["tags"] == ["zoo"]
        assert _texts(mem.recall("walrus", source="telegram")) == ["The walrus count is 7"]
        assert _texts(mem.recall("walrus", tags=["zoo"])) == ["The walrus count is 7", "The walrus pool is cold"]
        assert _texts(mem.recall("walrus", tags=["zoo", "count"])) == ["The walrus count is 7"]  # every tag
        assert mem.recall("walrus", source="cli", tags=["count"]) == []
        assert mem.recall("walrus", source="nowhere") == []
        assert [(t.source, t.tags) for t in mem.session_turns("s1")] == [("telegram", ["zoo", "count"]),
                                                                        ("cli", ["zoo"])]


def test_the_dense_leg_obeys_the_filters(db_path: Path) -> None:
    with _memory(db_path) as mem:
        _fill(mem)
        mem.index()
        dense = mem.retriever.dense_index()
        assert dense is not None
        query = HashingEmbedder().embed_query("walrus")
        allowed = np.asarray(mem.store.turn_ids_with(mem.user_id, tags=["zoo"]), np.int64)
        found = dense.search(mem.user_id, query, 10, turn_ids=allowed, kind="turn")
        assert sorted(h.item_id for h in found if h.kind == "turn") == allowed.tolist() == [1, 2]
        assert len([h for h in dense.search(mem.user_id, query, 10) if h.kind == "turn"]) == 3


def test_a_fact_passes_the_filter_when_a_turn_it_came_from_does(db_path: Path) -> None:
    with _memory(db_path) as mem:
        mem.add_turn("user", "We decided to move the walrus feeding to Monday mornings.", session_id="s1",
                     source="slack", tags=["ops"])
        mem.add_turn("user", "We decided to paint the walrus shed green next spring.", session_id="s2")
        mem.end_session("s1")
        mem.end_session("s2")
        assert len(mem.facts()) == 2
        facts = mem.recall("walrus decided", kind="fact", tags=["ops"])
        assert [h.details["type"] for h in facts] == ["decision"] and "feeding" in facts[0].text
        assert len(mem.recall("walrus decided", kind="fact")) == 2
        assert all("shed" not in h.text for h in mem.recall("walrus decided shed", source="slack"))


@pytest.mark.sqlite_only("reads the JSONL journal, which a PostgreSQL store does not keep")
def test_a_recovered_turn_keeps_its_source_and_tags(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with _memory(db_path) as mem:
        def boom(*args: object, **kwargs: object) -> None:
            raise RuntimeError("process died between journal and database")
        monkeypatch.setattr(SQLiteStore, "insert_turns", boom)
        with pytest.raises(RuntimeError):
            mem.add_turn("user", "the walrus count is 7", session_id="s1", source="telegram", tags=["zoo"])
        monkeypatch.undo()
        lines = [json.loads(x) for f in journal_dir_for(db_path).rglob("*.jsonl") for x in f.read_text().splitlines()]
        assert [(line["source"], line["tags"]) for line in lines] == [("telegram", ["zoo"])]
    with _memory(db_path) as mem:
        assert mem.last_recovery.turns_recovered == 1
        assert [(h.source, h.tags) for h in mem.recall("walrus", kind="turn", tags=["zoo"])] == [("telegram", ["zoo"])]


@pytest.mark.sqlite_only("reads the JSONL journal, which a PostgreSQL store does not keep")
def test_a_plain_turn_journals_as_before(db_path: Path) -> None:
    with _memory(db_path) as mem:
        mem.add_turn("user", "no labels here", session_id="s1")
    [line] = [json.loads(x) for f in journal_dir_for(db_path).rglob("*.jsonl") for x in f.read_text().splitlines()]
    assert "source" not in line and "tags" not in line


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"tags": "zoo"}, TypeError), ({"tags": ["zoo", ""]}, ValueError), ({"tags": [3]}, ValueError),
    ({"source": ""}, ValueError), ({"source": 5}, ValueError),
])
def test_bad_source_or_tags_are_refused_before_anything_is_stored(db_path: Path, kwargs: dict, error: type) -> None:
    with _memory(db_path) as mem:
        with pytest.raises(error):
            mem.add_turn("user", "x", session_id="s1", **kwargs)
        with pytest.raises(error):
            mem.recall("x", **kwargs)
        assert mem.stats()["turns"] == 0


def test_tags_are_kept_once_in_order_and_go_with_their_turn(db_path: Path) -> None:
    with _memory(db_path) as mem:
        mem.add_turn("user", "walrus one", session_id="s1", tags=[" zoo", "count", "zoo"])
        mem.add_turn("user", "walrus two", session_id="s2", tags=["zoo"])
        assert mem.session_turns("s1")[0].tags == ["zoo", "count"]
        mem.forget(session_id="s1")
        assert mem.store.turn_ids_with(mem.user_id, tags=["zoo"]) == [2]
        assert mem.store.turn_ids_with(mem.user_id, tags=["count"]) == []


def test_cli_add_and_recall_filter(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")

    def run(*args: str) -> str:
        result = CliRunner().invoke(main, [*args, "--db", db], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.stdout

    run("add", "The walrus count is 7", "--source", "telegram", "--tag", "zoo", "--session", "s1")
    run("add", "The walrus pool is cold", "--tag", "zoo", "--tag", "pool", "--session", "s1")
    out = run("add", "The walrus keeper is Ana")
    assert out.split()[1].startswith("cli-")  # the default session: one a day
    hits = json.loads(run("recall", "walrus", "--json", "--kind", "turn", "--tag", "zoo"))
    assert sorted(h["text"] for h in hits) == ["The walrus count is 7", "The walrus pool is cold"]
    hits = json.loads(run("recall", "walrus", "--json", "--source", "telegram"))
    assert [(h["text"], h["source"], h["tags"]) for h in hits] == [("The walrus count is 7", "telegram", ["zoo"])]
    assert "no memories matched" in run("recall", "walrus", "--tag", "zoo", "--tag", "nope")
    bad = CliRunner().invoke(main, ["add", "x", "--tag", " ", "--db", db])
    assert bad.exit_code == 2 and "tag" in bad.output


def test_rest_turn_fields_and_recall_filters(db_path: Path) -> None:
    pytest.importorskip("fastapi")
    from tests.test_rest import client, make_app, new_token, serving

    with serving(make_app(db_path)) as url, client(url, new_token(db_path, "maya")) as http:
        for body in ({"content": "The walrus count is 7", "source": "telegram", "tags": ["zoo", "count"]},
                     {"content": "The walrus pool is cold", "tags": ["zoo"]},
                     {"content": "The walrus keeper is Ana"}):
            assert http.post("/v1/turns", json={"role": "user", "session_id": "s1", **body}).status_code == 201
        def texts(**params: object) -> list[tuple[str, str | None, list[str]]]:
            r = http.get("/v1/recall", params={"q": "walrus", "kind": "turn", **params})
            assert r.status_code == 200, r.text
            return sorted((h["text"], h["source"], h["tags"]) for h in r.json()["hits"])
        assert texts(source="telegram") == [("The walrus count is 7", "telegram", ["zoo", "count"])]
        assert [t[0] for t in texts(tag="zoo")] == ["The walrus count is 7", "The walrus pool is cold"]
        assert [t[0] for t in texts(tag=["zoo", "count"])] == ["The walrus count is 7"]
        assert len(texts()) == 3
        turns = http.get("/v1/sessions/s1/turns").json()["turns"]
        assert [(t["source"], t["tags"]) for t in turns] == [("telegram", ["zoo", "count"]), (None, ["zoo"]),
                                                             (None, [])]
        for bad in ({"tags": "zoo"}, {"tags": [""]}, {"source": ""}):
            r = http.post("/v1/turns", json={"role": "user", "session_id": "s1", "content": "x", **bad})
            assert r.status_code == 422, (bad, r.text)


def test_ingest_reads_source_and_tags_and_refuses_bad_ones_before_storing(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    good = tmp_path / "chat.jsonl"
    good.write_text("\n".join(json.dumps(row) for row in [
        {"role": "user", "content": "The Skylark invoice is due in May.", "session_id": "a", "source": "email",
         "tags": ["billing", "skylark"]},
        {"role": "user", "content": "The Skylark offsite is in June.", "session_id": "a"},
    ]) + "\n")
    done = CliRunner().invoke(main, ["--db", str(db), "ingest", str(good)])
    assert done.exit_code == 0, done.output
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        hits = mem.recall("Skylark", kind="turn", tags=["billing"], source="email")
        assert [h.text for h in hits] == ["The Skylark invoice is due in May."]
        assert hits[0].tags == ["billing", "skylark"] and hits[0].source == "email"
    for line, problem in [({"role": "user", "content": "x", "tags": "billing"}, "field 'tags'"),
                          ({"role": "user", "content": "x", "tags": ["ok", ""]}, "field 'tags'"),
                          ({"role": "user", "content": "x", "source": 7}, "field 'source'")]:
        bad = tmp_path / "bad.jsonl"
        bad.write_text(json.dumps({"role": "user", "content": "fine"}) + "\n" + json.dumps(line) + "\n")
        result = CliRunner().invoke(main, ["--db", str(db), "ingest", str(bad)])
        assert result.exit_code == 1 and f"bad.jsonl:2: {problem}" in result.output, result.output
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        assert mem.stats()["turns"] == 2                     # nothing from the bad files
