"""The LangGraph store over a Memory, with the real `langgraph` package (the `langgraph` extra)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TypedDict

import pytest

pytest.importorskip("langgraph", reason='the langgraph extra is not installed: pip install ".[langgraph]"')

from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.store.base import BaseStore  # noqa: E402

from episodic_memory import Memory  # noqa: E402
from episodic_memory.integrations.langgraph import EpisodicStore  # noqa: E402


@pytest.fixture
def store(db_path: Path):
    with Memory(db_path) as mem:
        yield EpisodicStore(mem)


def test_put_get_update_delete(store: EpisodicStore, db_path: Path) -> None:
    assert isinstance(store, BaseStore)
    assert store.get(("maya", "prefs"), "format") is None
    store.put(("maya", "prefs"), "format", {"text": "Maya prefers bullet points", "strength": 2})
    first = store.get(("maya", "prefs"), "format")
    assert first is not None and first.value == {"text": "Maya prefers bullet points", "strength": 2}
    assert first.namespace == ("maya", "prefs") and first.key == "format"
    store.put(("maya", "prefs"), "format", {"text": "Maya prefers numbered lists", "strength": 3})
    second = store.get(("maya", "prefs"), "format")
    assert second is not None and second.value["text"] == "Maya prefers numbered lists"
    assert second.created_at == first.created_at and second.updated_at >= first.updated_at
    store.put(("maya", "prefs"), "tone", {"text": "Maya likes a dry tone"})
    store.delete(("maya", "prefs"), "format")
    assert store.get(("maya", "prefs"), "format") is None
    assert store.get(("maya", "prefs"), "tone") is not None
    gone = store.memory.recall("bullet points numbered lists", user_id="maya")  # every version was forgotten
    assert not [h for h in gone if "format" in (h.session_id or "")]
    store.memory.close()
    with Memory(db_path) as again:  # a put that returned is in the file
        reopened = EpisodicStore(again).get(("maya", "prefs"), "tone")
        assert reopened is not None and reopened.value == {"text": "Maya likes a dry tone"}


def test_search_is_recall_scoped_to_the_namespace(store: EpisodicStore) -> None:
    store.put(("maya", "facts"), "deck", {"text": "The Series B deck needs 14 slides", "topic": "fundraising"})
    store.put(("maya", "facts"), "airflow", {"text": "The Airflow cutover is on Monday 30 November",
                                             "topic": "infra"})
    store.put(("maya", "facts"), "secret", {"text": "The deck password is hunter2"}, index=False)
    store.put(("maya", "notes"), "deck", {"text": "Slides for the deck are in the shared drive"})
    store.put(("bo", "facts"), "deck", {"text": "Bo's deck needs 30 slides"})
    hits = store.search(("maya", "facts"), query="how many slides does the deck need")
    assert hits[0].key == "deck" and hits[0].namespace == ("maya", "facts") and hits[0].score is not None
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(h.namespace == ("maya", "facts") and h.key != "secret" for h in hits)  # index=False: not searched
    everywhere = store.search(("maya",), query="slides deck")
    assert {(h.namespace, h.key) for h in everywhere} >= {(("maya", "facts"), "deck"), (("maya", "notes"), "deck")}
    assert all(h.namespace[0] == "maya" for h in everywhere)
    listed = store.search(("maya", "facts"))
    assert {h.key for h in listed} == {"deck", "airflow", "secret"}
    assert [h.key for h in store.search(("maya", "facts"), filter={"topic": "infra"})] == ["airflow"]
    assert [h.key for h in store.search(("maya", "facts"), filter={"topic": {"$ne": "infra"}}, limit=5)
            if h.key == "deck"] == ["deck"]
    assert len(store.search(("maya", "facts"), limit=1, offset=1)) == 1


def test_list_namespaces(store: EpisodicStore) -> None:
    store.put(("maya", "prefs"), "a", {"x": 1})
    store.put(("maya", "projects", "deck"), "b", {"x": 2})
    store.put(("bo", "prefs"), "c", {"x": 3})
    store.memory.add_turn("user", "an ordinary conversation turn", session_id="chat", user_id="maya")
    assert store.list_namespaces() == [("bo", "prefs"), ("maya", "prefs"), ("maya", "projects", "deck")]
    assert store.list_namespaces(prefix=("maya",)) == [("maya", "prefs"), ("maya", "projects", "deck")]
    assert store.list_namespaces(suffix=("prefs",)) == [("bo", "prefs"), ("maya", "prefs")]
    assert store.list_namespaces(prefix=("*", "prefs")) == [("bo", "prefs"), ("maya", "prefs")]
    assert store.list_namespaces(max_depth=2) == [("bo", "prefs"), ("maya", "prefs"), ("maya", "projects")]


def test_bad_input_is_refused(store: EpisodicStore) -> None:
    with pytest.raises(ValueError, match="non-empty"):
        store.put(("maya",), "", {"x": 1})
    with pytest.raises(ValueError, match="JSON"):
        store.put(("maya",), "k", {"x": object()})
    store.put(("maya",), "k", {"x": 1})
    with pytest.raises(ValueError, match="operator"):
        store.search(("maya",), filter={"x": {"$regex": "1"}})


def test_async_and_a_real_graph(store: EpisodicStore) -> None:
    async def roundtrip() -> object:
        await store.aput(("maya", "prefs"), "lang", {"text": "Maya writes in British English"})
        item = await store.aget(("maya", "prefs"), "lang")
        return None if item is None else item.value

    assert asyncio.run(roundtrip()) == {"text": "Maya writes in British English"}

    class State(TypedDict):
        question: str
        answer: str

    def remember(state: State, *, store: BaseStore) -> dict[str, str]:
        store.put(("maya", "questions"), "last", {"text": state["question"]})
        hits = store.search(("maya", "prefs"), query="which English spelling does Maya use")
        return {"answer": hits[0].value["text"] if hits else ""}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", END)
    graph = builder.compile(store=store)
    out = graph.invoke({"question": "Colour or color?", "answer": ""})
    assert out["answer"] == "Maya writes in British English"
    last = store.get(("maya", "questions"), "last")
    assert last is not None and last.value == {"text": "Colour or color?"}


def test_async_methods_run_on_the_async_memorys_threads(tmp_path: Path) -> None:
    import threading

    from episodic_memory import AsyncMemory, Config

    async def main() -> list[str]:
        async with AsyncMemory(tmp_path / "m.db", config=Config(models={"embedder": "off"}, capture={"async_threads": 2})) as mem:
            store = EpisodicStore(mem)
            assert store.memory is mem.memory
            names: list[str] = []
            batch = store.batch

            def spy(ops: list[object]) -> list[object]:
                names.append(threading.current_thread().name)
                return batch(ops)  # type: ignore[arg-type]

            store.batch = spy  # type: ignore[method-assign]
            await store.aput(("maya", "prefs"), "lang", {"text": "Maya writes in British English"})
            item = await store.aget(("maya", "prefs"), "lang")
            found = await store.asearch(("maya",), query="which English does Maya write")
            assert item is not None and found and found[0].key == "lang"
            return names

    names = asyncio.run(main())
    assert len(names) == 3 and all(n.startswith("episodic-async") for n in names), names
