"""LLMClient: a Memory's own LLM, the process default it falls back to, pooled connections, closing."""

from __future__ import annotations

import asyncio

import pytest

from episodic_memory import Config, Memory, llm
from episodic_memory.llm.clients import OpenAICompatibleBackend
from tests.fake_llm_server import FakeLLMServer, openai_reply

from .fakes import ScriptedBackend, play_session

FAST = Config(llm={"timeout_s": 2.0, "retries": 0, "backoff_s": 0.01})
LINES = ["We decided to migrate the pipeline to Airflow.", "> Noted.", "Sarah will review the DAGs by Friday."]


@pytest.fixture
def server_a():
    with FakeLLMServer() as s:
        s.script(openai_reply("[]"))
        yield s


@pytest.fixture
def server_b():
    with FakeLLMServer() as s:
        s.script(openai_reply("[]"))
        yield s


def own(server: FakeLLMServer, model: str, **overrides: object) -> Config:
    """A Memory config naming its own OpenAI-compatible server."""
    return FAST.replace({"llm.backend": "openai", "llm.base_url": f"{server.url}/v1", "llm.model": model,
                         "models.embedder": "off"}, **overrides)


def ask(client: llm.LLMClient, text: str = "u") -> str | None:
    return client.run(client.ask("s", text, purpose="test"))


# --- one LLM per Memory ------------------------------------------------------------------------------------


def test_two_memories_use_their_own_backends(server_a, server_b, monkeypatch):
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "anthropic")  # a Config naming its backend does not consult the environment
    with Memory(":memory:", config=own(server_a, "model-a")) as a, \
            Memory(":memory:", config=own(server_b, "model-b")) as b, \
            Memory(":memory:", config=Config(llm={"backend": "none"}, models={"embedder": "off"})) as off:
        assert a.llm.describe() == f"openai:model-a@{server_a.url}/v1"
        assert b.llm.describe() == f"openai:model-b@{server_b.url}/v1"
        assert off.llm.describe() == llm.NONE_DESCRIPTION and not off.llm.enabled()
        assert llm.describe().startswith("error: ")  # the process default still follows EPISODIC_LLM__BACKEND

        play_session(a, "s1", LINES)  # consolidation through a's client only
        assert server_a.requests and not server_b.requests
        assert {r.body["model"] for r in server_a.requests} == {"model-a"}
        seen_a = len(server_a.requests)
        assert ask(b.llm) == "[]"
        assert len(server_b.requests) == 1 and server_b.requests[0].body["model"] == "model-b"
        assert len(server_a.requests) == seen_a
        play_session(off, "s1", LINES)  # rules: no server hears of it
        assert len(server_a.requests) == seen_a and len(server_b.requests) == 1


def test_a_memory_with_its_own_llm_ignores_the_process_default(server_a):
    scripted = ScriptedBackend()
    llm.set_backend(scripted, FAST)
    with Memory(":memory:", config=own(server_a, "model-a")) as a, \
            Memory(":memory:", config=Config(llm={"backend": "none"}, models={"embedder": "off"})) as off:
        play_session(a, "s1", LINES)
        play_session(off, "s1", LINES)
    assert server_a.requests and not scripted.calls


def test_the_problem_case_a_memory_config_llm_is_no_longer_ignored():
    with Memory(":memory:", config=Config(llm={"backend": "anthropic"}, models={"embedder": "off"})) as mem:  # no ANTHROPIC_API_KEY
        assert mem.llm.describe().startswith("error: ") and "ANTHROPIC_API_KEY" in mem.llm.describe()
        assert llm.describe() == llm.NONE_DESCRIPTION
        with pytest.raises(llm.LLMConfigError, match="ANTHROPIC_API_KEY"):
            mem.llm.enabled()
        play_session(mem, "s1", LINES)  # a broken configuration: the rules take over
        # (without an embedder, a plain statement that names a value is kept too: Sarah's review is a plan)
        assert [f.type for f in mem.facts()] == ["plan", "decision"]


def test_a_memory_without_llm_config_follows_set_backend_made_after_it():
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem, Memory(":memory:") as from_env:
        assert mem.llm.describe() == llm.NONE_DESCRIPTION and from_env.llm.describe() == llm.NONE_DESCRIPTION
        scripted = ScriptedBackend()
        llm.set_backend(scripted, FAST)
        assert mem.llm.enabled() and from_env.llm.enabled()
        assert mem.llm.backend() is scripted and mem.llm.config.llm.retries == 0
        play_session(mem, "s1", LINES)
        assert scripted.calls_for("fact extractor")
        llm.set_backend(None)
        assert not mem.llm.enabled()
    assert scripted.calls  # and closing the Memories closed nothing of the process default's


def test_memory_takes_a_backend_or_a_client(server_a):
    scripted = ScriptedBackend()
    with Memory(":memory:", config=FAST.replace(models={"embedder": "off"}), llm=scripted) as mem:
        assert mem.llm.backend() is scripted and mem.llm.config.llm.retries == 0
        play_session(mem, "s1", LINES)
        assert scripted.calls and llm.describe() == llm.NONE_DESCRIPTION
    client = llm.LLMClient(OpenAICompatibleBackend("m", base_url=f"{server_a.url}/v1"), FAST)
    with Memory(":memory:", config=Config(llm={"backend": "none"}, models={"embedder": "off"}), llm=client) as mem:  # llm= wins
        assert mem.llm is client
        assert ask(mem.llm) == "[]"
    backend = client.backend()
    assert backend._pools and not any(p.client.is_closed for p in backend._pools.values())  # the caller's to close
    with pytest.raises(TypeError, match="async ask"):
        Memory(":memory:", llm=object())  # type: ignore[arg-type]


# --- pooled connections -------------------------------------------------------------------------------------


def test_sequential_sync_calls_share_one_connection(server_a):
    client = llm.LLMClient(config=own(server_a, "m"))
    assert [ask(client, str(i)) for i in range(10)] == ["[]"] * 10
    assert len(server_a.requests) == 10
    assert len(server_a.connections) == 1
    llm.set_backend(None, own(server_a, "m"))  # the module functions: the same
    for _ in range(5):
        assert llm.run(llm.ask("s", "u", purpose="p")) == "[]"
    assert len(server_a.connections) == 2
    client.close()


def test_sync_calls_from_threads_and_running_loops_reuse_the_pool(server_a):
    client = llm.LLMClient(config=own(server_a, "m"))
    assert ask(client) == "[]"

    async def inside() -> list[str | None]:
        asyncio.get_running_loop()  # the caller's own loop is running: run() waits for the shared one
        return [ask(client) for _ in range(3)]

    assert asyncio.run(inside()) == ["[]"] * 3

    async def nested() -> str | None:  # run() from a coroutine already on the shared loop must not wait on itself
        return ask(client)

    assert client.run(nested()) == "[]"
    assert len(server_a.requests) == 5
    assert len(server_a.connections) == 2  # the nested call ran on a loop of its own
    client.close()


def test_calls_awaited_on_the_callers_loop_pool_there_and_close_with_it(server_a):
    client = llm.LLMClient(config=own(server_a, "m"))

    async def app() -> list[str | None]:
        return [await client.ask("s", "u", purpose="p") for _ in range(4)]

    assert asyncio.run(app()) == ["[]"] * 4
    assert len(server_a.connections) == 1
    backend = client.backend()
    assert [p.client.is_closed for p in backend._pools.values()] == [True]  # asyncio.run closed it with its loop
    assert ask(client) == "[]"  # the shared loop gets a pool of its own; the closed one is dropped
    assert len(backend._pools) == 1 and len(server_a.connections) == 2
    client.close()


# --- closing ---------------------------------------------------------------------------------------------------


def test_memory_close_closes_the_http_client_of_the_backend_it_owns(server_a):
    mem = Memory(":memory:", config=own(server_a, "m"))
    assert ask(mem.llm) == "[]"
    backend = mem.llm.backend()
    pooled = [p.client for p in backend._pools.values()]
    assert pooled and not any(c.is_closed for c in pooled)
    mem.close()
    assert all(c.is_closed for c in pooled) and not backend._pools
    assert ask(mem.llm) == "[]"  # a closed backend opens a new pool if used again
    mem.llm.close()


def test_aclose_from_the_callers_loop_closes_every_pool(server_a):
    client = llm.LLMClient(config=own(server_a, "m"))
    assert ask(client) == "[]"  # a pool on the shared loop

    async def app() -> None:
        assert await client.ask("s", "u", purpose="p") == "[]"  # and one on this loop
        backend = client.backend()
        pooled = [p.client for p in backend._pools.values()]
        assert len(pooled) == 2
        await client.aclose()
        assert all(c.is_closed for c in pooled) and not backend._pools

    asyncio.run(app())


def test_clients_keep_their_own_concurrency_limits():
    one = llm.LLMClient(ScriptedBackend(), FAST.replace(llm={"concurrency": 1}))
    two = llm.LLMClient(ScriptedBackend(), FAST.replace(llm={"concurrency": 3}))
    assert ask(one) == ask(two) == "[]"
    assert one._limiter is not None and two._limiter is not None and one._limiter is not two._limiter
    assert (one._limiter.limit, two._limiter.limit) == (1, 3)
    assert "scripted" in repr(one).lower()
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem:
        assert "process default" in repr(mem.llm)
