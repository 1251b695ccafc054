"""The LLM seam and its built-in clients, against a scripted HTTP server on loopback (never the real network)."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from email.utils import formatdate

import pytest

from episodic_memory import llm
from episodic_memory.config import Config
from episodic_memory.llm.clients import (
    AnthropicBackend,
    OpenAICompatibleBackend,
    _retry_after,
    backend_from_config,
)
from tests.fake_llm_server import FakeLLMServer, Reply, anthropic_reply, openai_reply

FAST = Config(llm={"timeout_s": 2.0, "retries": 2, "backoff_s": 0.01})


@pytest.fixture
def server():
    with FakeLLMServer() as s:
        yield s


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="episodic_memory.llm")
    return caplog


def anthropic(server: FakeLLMServer, **config: object) -> AnthropicBackend:
    cfg = FAST.replace(**config)
    backend = AnthropicBackend("sk-test", base_url=server.url, max_tokens=cfg.llm.max_tokens,
                               timeout_s=cfg.llm.timeout_s)
    llm.set_backend(backend, cfg)
    return backend


def openai(server: FakeLLMServer, api_key: str | None = "sk-local", **config: object) -> OpenAICompatibleBackend:
    cfg = FAST.replace(**config)
    backend = OpenAICompatibleBackend("llama3", base_url=f"{server.url}/v1", api_key=api_key,
                                      max_tokens=cfg.llm.max_tokens, timeout_s=cfg.llm.timeout_s)
    llm.set_backend(backend, cfg)
    return backend


def ask(purpose: str = "test-call") -> str | None:
    return llm.run(llm.ask("You extract facts.", "Maya: the deck needs 14 slides.", purpose=purpose))


# --- the two wire formats ---------------------------------------------------------------------------------


def test_anthropic_success_sends_the_messages_api_and_reads_usage(server, logs):
    backend = anthropic(server, llm={"max_tokens": 321})
    server.script(Reply(body={"content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "Hel"},
                                          {"type": "text", "text": "lo"}],
                              "stop_reason": "end_turn", "usage": {"input_tokens": 42, "output_tokens": 9}}))
    assert ask("extract-facts") == "Hello"
    (req,) = server.requests
    assert req.path == "/v1/messages"
    assert req.headers["x-api-key"] == "sk-test"
    assert req.headers["anthropic-version"] == "2023-06-01"
    assert req.body == {"model": "claude-haiku-4-5", "max_tokens": 321, "system": "You extract facts.",
                        "messages": [{"role": "user", "content": "Maya: the deck needs 14 slides."}]}
    assert backend.last_usage == {"input_tokens": 42, "output_tokens": 9}
    line = next(r.getMessage() for r in logs.records if "replied" in r.getMessage())
    assert "extract-facts" in line and "anthropic:claude-haiku-4-5" in line and "in=42 out=9" in line


def test_openai_success_sends_chat_completions_and_reads_usage(server, logs):
    backend = openai(server, llm={"max_tokens": 77})
    server.script(openai_reply("Hi there", usage=(30, 4)))
    assert ask("summarise") == "Hi there"
    (req,) = server.requests
    assert req.path == "/v1/chat/completions"
    assert req.headers["authorization"] == "Bearer sk-local"
    assert req.body == {"model": "llama3", "max_tokens": 77,
                        "messages": [{"role": "system", "content": "You extract facts."},
                                     {"role": "user", "content": "Maya: the deck needs 14 slides."}]}
    assert backend.last_usage == {"input_tokens": 30, "output_tokens": 4}
    assert any("summarise" in r.getMessage() and "in=30 out=4" in r.getMessage() for r in logs.records)


def test_openai_without_a_key_sends_no_authorization_and_model_override_is_used(server):
    backend = openai(server, api_key=None)
    server.script(openai_reply("ok", usage=None))
    assert llm.run(llm.ask("s", "u", purpose="p", model="qwen2.5")) == "ok"
    assert "authorization" not in server.requests[0].headers
    assert server.requests[0].body["model"] == "qwen2.5"
    assert backend.last_usage is None


def test_openai_content_parts_are_joined(server):
    openai(server)
    server.script(openai_reply([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]))
    assert ask() == "ab"


# --- failures: retried, not retried, timed out, malformed ---------------------------------------------------


def test_500_then_200_is_retried(server, logs):
    anthropic(server)
    server.script(Reply(500, {"type": "error", "error": {"type": "api_error", "message": "boom"}}),
                  anthropic_reply("second time lucky"))
    assert ask() == "second time lucky"
    assert len(server.requests) == 2
    assert any("HTTP 500: boom" in r.getMessage() and "retry 1 of 2" in r.getMessage() for r in logs.records)


def test_429_is_retried_after_the_servers_retry_after(server):
    openai(server)
    server.script(Reply(429, {"error": {"message": "slow down"}}, headers={"retry-after": "0.3"}),
                  openai_reply("done"))
    started = time.perf_counter()
    assert ask() == "done"
    assert time.perf_counter() - started >= 0.3  # the backoff alone is 0.01 s
    assert len(server.requests) == 2


def test_overloaded_529_and_html_502_are_retried(server):
    anthropic(server)
    server.script(Reply(529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
                  Reply(502, "<html>Bad Gateway</html>"), anthropic_reply("fine"))
    assert ask() == "fine"
    assert len(server.requests) == 3


@pytest.mark.parametrize("make,body,message", [
    (anthropic, {"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}},
     "invalid x-api-key"),
    (openai, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}},
     "Incorrect API key provided"),
])
def test_401_is_not_retried_and_says_why(server, logs, make, body, message):
    backend = make(server)
    server.script(Reply(401, body))
    assert ask("extract-facts") is None
    assert len(server.requests) == 1
    assert any("extract-facts" in r.getMessage() and message in r.getMessage() and "not retried" in r.getMessage()
               for r in logs.records)
    with pytest.raises(llm.LLMRefused, match=f"HTTP 401: {message}"):
        llm.run(backend.ask("s", "u"))


@pytest.mark.parametrize("status", [400, 403, 404])
def test_other_client_errors_are_refusals(server, status):
    openai(server)
    server.script(Reply(status, {"error": "model 'llama3' not found"}))  # Ollama's error shape
    assert ask() is None
    assert len(server.requests) == 1


class Stalled:
    """A backend that never replies: every call waits until it is cancelled (by the client's timeout)."""

    name, model = "stalled", "s-1"

    def __init__(self) -> None:
        self.started = 0
        self.cancelled = 0

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        self.started += 1
        try:
            await asyncio.Event().wait()  # nothing ever sets it: no reply, however fast or slow the machine
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        return "never"


def test_a_reply_slower_than_the_timeout_is_retried_then_given_up(logs):
    # No wall clock in the assertions: the reply never comes, so every attempt ends by the timeout, on any load.
    backend = Stalled()
    llm.set_backend(backend, FAST.replace({"llm.timeout_s": 0.05}))
    assert ask("slow") is None
    assert backend.started == 3 and backend.cancelled == 3  # the first try and two retries, each cut off
    messages = [r.getMessage() for r in logs.records]
    assert any("timed out after 0.05s" in m and "giving up after 3 attempts" in m for m in messages)
    assert sum("timed out" in m and "retry" in m for m in messages) == 2


def test_the_clients_own_timeout_maps_to_a_retryable_error(server):
    backend = AnthropicBackend("k", base_url=server.url, timeout_s=0.2)
    server.script(Reply(delay=3.0, body={}))
    with pytest.raises(llm.LLMError, match="timed out"):
        llm.run(backend.ask("s", "u"))


@pytest.mark.parametrize("reply", [
    Reply(200, "this is not json{"),
    Reply(200, ["a", "list"]),
    Reply(200, {"unexpected": "shape"}),
    Reply(200, {"choices": []}),
])
def test_malformed_bodies_are_retryable_errors(server, logs, reply):
    backend = openai(server) if reply.body != {"unexpected": "shape"} else anthropic(server)
    server.script(reply)
    with pytest.raises(llm.LLMError, match="malformed reply body"):
        llm.run(backend.ask("s", "u"))
    server.requests.clear()
    assert ask() is None
    assert len(server.requests) == 3
    assert any("malformed" in r.getMessage() and "giving up" in r.getMessage() for r in logs.records)


def test_a_closed_port_is_a_retryable_network_error():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    backend = OpenAICompatibleBackend("m", base_url=f"http://127.0.0.1:{port}/v1", timeout_s=1.0)
    with pytest.raises(llm.LLMError, match="openai: Connect"):
        llm.run(backend.ask("s", "u"))


# --- empty and refused replies ----------------------------------------------------------------------------


@pytest.mark.parametrize("make,reply,why", [
    (anthropic, anthropic_reply("I can't help with that", stop_reason="refusal"), "refused"),
    (anthropic, anthropic_reply(), "empty reply"),
    (openai, openai_reply(None, refusal="I can't help with that"), "refused"),
    (openai, openai_reply(None, finish_reason="content_filter"), "refused"),
    (openai, openai_reply("   \n"), "empty reply"),
])
def test_empty_or_refused_replies_are_rejected_with_a_reason(server, logs, make, reply, why):
    make(server)
    server.script(reply)
    assert ask("extract-facts") is None
    assert len(server.requests) == 1  # a refusal is an answer: not retried
    assert any(f"reply rejected: {why}" in r.getMessage() for r in logs.records)


def test_anthropic_refusal_reads_as_empty_text(server):
    backend = anthropic(server)
    server.script(anthropic_reply("partial text", stop_reason="refusal"))
    assert llm.run(backend.ask("s", "u")) == ""
    assert backend.last_finish == "refusal"


# --- what real models return, through ask_json --------------------------------------------------------------


@pytest.mark.parametrize("text,expected", [
    ('Sure! Here are the facts you asked for:\n[{"fact": "deck has 14 slides"}]\nAnything else?',
     [{"fact": "deck has 14 slides"}]),
    ('```json\n[\n  {"fact": "a"},\n  {"fact": "b"},\n]\n```', [{"fact": "a"}, {"fact": "b"}]),
    ('[{"fact": "a"}, {"fact": "b"}, {"fact": "c is cut of', [{"fact": "a"}, {"fact": "b"}]),
    ('{"facts": [{"fact": "a"}, {"fact": "b", "tags": ["x", "y', [{"fact": "a"}]),
    ("<think>The user wants [a list]...</think>\n[{'fact': 'a', 'durable': True}]", [{"fact": "a", "durable": True}]),
])
def test_ask_json_reads_json_the_way_models_write_it(server, text, expected):
    anthropic(server)
    server.script(anthropic_reply(text))
    assert llm.run(llm.ask_json("s", "u", purpose="extract-facts", expect=list)) == expected


@pytest.mark.parametrize("text,reason", [
    ("I'm sorry, I can't produce that.", "no JSON array in the reply"),
    ('[{"fact": "the only fact was cut o', "no JSON array in the reply"),
    ("<think>just thinking</think>", "only <think> reasoning"),
])
def test_ask_json_rejects_unusable_replies_with_a_logged_reason(server, logs, text, reason):
    openai(server)
    server.script(openai_reply(text))
    assert llm.run(llm.ask_json("s", "u", purpose="extract-facts", expect=list)) is None
    assert any("extract-facts: reply rejected" in r.getMessage() and reason in r.getMessage() for r in logs.records)


def test_parse_json_keeps_the_complete_part_of_cut_off_values():
    assert llm.parse_json("[1, 2, 3") == [1, 2]
    assert llm.parse_json('{"summary": "s", "facts": [{"a": 1}, {"b": 2}, {"c": 1, "d": "x', dict) == {
        "summary": "s", "facts": [{"a": 1}, {"b": 2}]}
    assert llm.parse_json('{"a": 1, "b": {"x": 1, "y": "tr') == {"a": 1, "b": {"x": 1}}
    with pytest.raises(llm.ParseError):  # fragments of a cut-off first element are not the answer
        llm.parse_json('[{"text": "x", "tags": ["a", "b', list)


# --- choosing a backend -----------------------------------------------------------------------------------


def test_nothing_configured_means_none(monkeypatch):
    assert isinstance(llm.get_backend(), llm.NoneBackend)
    assert not llm.enabled()
    assert llm.describe() == llm.NONE_DESCRIPTION
    assert llm.run(llm.ask("s", "u", purpose="p")) is None


def test_episodic_llm_none_and_config_override(monkeypatch):
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "none")
    assert llm.describe() == llm.NONE_DESCRIPTION
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "anthropic")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    llm.set_backend(None, Config(llm={"backend": "none"}))  # a config choice wins over the environment
    assert not llm.enabled()


def test_episodic_llm_anthropic(monkeypatch):
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "Anthropic")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant")
    backend = llm.get_backend()
    assert isinstance(backend, AnthropicBackend)
    assert (backend.name, backend.model, backend.base_url) == ("anthropic", "claude-haiku-4-5",
                                                                "https://api.anthropic.com")
    assert llm.enabled()
    assert llm.describe() == "anthropic:claude-haiku-4-5"


def test_anthropic_base_url_and_model_from_the_environment_reach_the_server(monkeypatch, server):
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "anthropic")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-env")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url + "/")
    monkeypatch.setenv("EPISODIC_LLM__MODEL", "claude-sonnet-4-5")
    monkeypatch.setenv("EPISODIC_LLM__BACKOFF_S", "0.01")
    server.script(anthropic_reply("from env"))
    assert ask() == "from env"
    assert server.requests[0].headers["x-api-key"] == "sk-env"
    assert server.requests[0].body["model"] == "claude-sonnet-4-5"
    assert llm.describe() == f"anthropic:claude-sonnet-4-5@{server.url}"


def test_anthropic_without_a_key_fails_on_first_use_naming_the_variable(monkeypatch):
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "anthropic")
    with pytest.raises(llm.LLMConfigError, match="ANTHROPIC_API_KEY"):
        llm.get_backend()
    with pytest.raises(ValueError, match="ANTHROPIC_API_KEY"):
        llm.enabled()
    with pytest.raises(llm.LLMConfigError, match="ANTHROPIC_API_KEY"):
        llm.run(llm.ask("s", "u", purpose="p"))
    assert llm.describe().startswith("error: ") and "ANTHROPIC_API_KEY" in llm.describe()


def test_episodic_llm_openai_with_ollama_needs_no_key(monkeypatch):
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "openai")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
    monkeypatch.setenv("EPISODIC_LLM__MODEL", "llama3")
    backend = llm.get_backend()
    assert isinstance(backend, OpenAICompatibleBackend)
    assert backend.model == "llama3"
    assert llm.describe() == "openai:llama3@http://localhost:11434/v1"


def test_openai_config_fields_win_and_reach_the_server(server):
    cfg = FAST.replace(llm={"backend": "openai", "model": "qwen2.5", "base_url": f"{server.url}/v1"})
    llm.set_backend(None, cfg)
    server.script(openai_reply("via config"))
    assert ask() == "via config"
    assert server.requests[0].body["model"] == "qwen2.5"


def test_openai_hosted_api(monkeypatch):
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "openai")
    with pytest.raises(llm.LLMConfigError, match="OPENAI_API_KEY"):
        llm.get_backend()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    llm.set_backend(None)
    assert llm.describe() == "openai:gpt-4o-mini"


def test_a_local_server_without_a_model_name_is_a_clear_error():
    with pytest.raises(llm.LLMConfigError, match="EPISODIC_LLM__MODEL"):
        backend_from_config(Config(llm={"backend": "openai", "base_url": "http://localhost:8080/v1"}))


@pytest.mark.parametrize("value", ["gpt", "claude", "ollama"])
def test_an_unknown_backend_name_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", value)
    with pytest.raises(llm.LLMConfigError, match=rf"unknown LLM backend '{value}' \(from EPISODIC_LLM__BACKEND\): "
                                                 r"use anthropic, openai, none"):
        llm.get_backend()


def test_a_custom_backend_is_described_by_its_name_and_model():
    class Mine:
        name, model = "mine", "tiny-1"

        async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
            return "[]"

    llm.set_backend(Mine())
    assert llm.describe() == "mine:tiny-1"
    with pytest.raises(TypeError, match="async ask"):
        llm.set_backend(object())


def test_the_none_backend_says_what_it_means_and_a_silent_describe_is_not_printed_as_none():
    assert llm.describe().startswith("none (no LLM: consolidation uses rules")

    class Quiet:
        name, model = "quiet", "q-1"

        def describe(self) -> None:
            return None

        async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
            return ""

    llm.set_backend(Quiet())
    assert llm.describe() == "quiet:q-1"


# --- run, the concurrency limit, retry-after ------------------------------------------------------------------


def test_run_works_from_inside_a_running_event_loop(server):
    anthropic(server)
    server.script(anthropic_reply("from a thread"))

    async def inside() -> str | None:
        asyncio.get_running_loop()  # a loop is running here: asyncio.run would refuse
        return llm.run(llm.ask("s", "u", purpose="nested"))

    assert asyncio.run(inside()) == "from a thread"
    assert ask() == "from a thread"  # and from plain sync code


class CountingBackend:
    """Counts calls in flight across threads; each call sleeps `delay` (the first `slow` calls sleep 10 s)."""

    name = "counting"

    def __init__(self, delay: float = 0.03, slow: int = 0) -> None:
        self.delay, self.slow = delay, slow
        self.in_flight = self.peak = self.calls = 0
        self._lock = threading.Lock()

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        with self._lock:
            self.calls += 1
            slow = self.calls <= self.slow
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(10 if slow else self.delay)
        finally:
            with self._lock:
                self.in_flight -= 1
        return user_prompt


def _batch(n: int) -> list[str | None]:
    async def go():
        return await asyncio.gather(*(llm.ask("s", str(i), purpose="batch") for i in range(n)))

    return llm.run(go())


def test_the_concurrency_limit_holds_in_one_loop():
    backend = CountingBackend()
    llm.set_backend(backend, FAST.replace(llm={"concurrency": 3}))
    assert _batch(12) == [str(i) for i in range(12)]
    assert backend.peak == 3
    assert llm.default_client()._limiter is not None and llm.default_client()._limiter.count == 0


def test_the_concurrency_limit_holds_across_threads_and_loops():
    backend = CountingBackend()
    llm.set_backend(backend, FAST.replace(llm={"concurrency": 2}))
    results: list[list[str | None]] = []
    threads = [threading.Thread(target=lambda: results.append(_batch(6))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(results) == 3 and all(r == [str(i) for i in range(6)] for r in results)
    assert backend.calls == 18
    assert backend.peak == 2


def test_timeouts_and_cancellations_give_their_slots_back():
    backend = CountingBackend(slow=2)
    llm.set_backend(backend, Config(llm={"concurrency": 2, "timeout_s": 0.1, "retries": 0, "backoff_s": 0.01}))
    assert _batch(4) == [None, None, "2", "3"]  # two timed out while two waited for a slot

    async def cancel_waiters():
        tasks = [asyncio.ensure_future(llm.ask("s", str(i), purpose="c")) for i in range(6)]
        await asyncio.sleep(0.01)  # two running, four waiting
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    llm.run(cancel_waiters())
    assert llm.default_client()._limiter is not None and llm.default_client()._limiter.count == 0
    backend.peak = 0
    assert _batch(4) == ["0", "1", "2", "3"]
    assert backend.peak == 2


def test_a_long_retry_after_is_capped_by_the_timeout(server):
    openai(server, llm={"timeout_s": 0.3})
    server.script(Reply(503, {"error": {"message": "busy"}}, headers={"retry-after": "3600"}), openai_reply("ok"))
    started = time.perf_counter()
    assert ask() == "ok"
    assert 0.3 <= time.perf_counter() - started < 2.0


def test_retry_after_header_forms():
    assert _retry_after("2") == 2.0
    assert _retry_after("0.5") == 0.5
    assert _retry_after(None) is None
    assert _retry_after("soon") is None
    assert 8 <= _retry_after(formatdate(time.time() + 10, usegmt=True)) <= 10


def test_odd_usage_counts_do_not_fail_the_call(server):
    backend = anthropic(server)
    server.script(Reply(body={"content": [{"type": "text", "text": "ok"}], "usage": {"input_tokens": "many"}}))
    assert ask() == "ok"
    assert backend.last_usage == {"input_tokens": 0, "output_tokens": 0}


def test_fail_true_raises_on_an_outage_or_a_turned_away_request_but_not_on_a_model_refusal(server):
    anthropic(server, llm={"retries": 1})
    server.script(Reply(503, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}))
    with pytest.raises(llm.LLMFailed, match="extract-facts: anthropic: HTTP 503: Overloaded"):
        llm.run(llm.ask_json("s", "u", purpose="extract-facts", expect=list, fail=True))
    assert len(server.requests) == 2
    server.script(Reply(401, {"type": "error", "error": {"message": "invalid x-api-key"}}))
    with pytest.raises(llm.LLMFailed, match="invalid x-api-key"):
        llm.run(llm.ask("s", "u", purpose="p", fail=True))
    assert llm.run(llm.ask("s", "u", purpose="p")) is None  # without fail=True: logged, None
    server.script(anthropic_reply("", stop_reason="refusal"))
    assert llm.run(llm.ask("s", "u", purpose="p", fail=True)) is None


def test_a_base_url_without_a_scheme_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "openai")
    monkeypatch.setenv("OPENAI_BASE_URL", "localhost:11434/v1")
    monkeypatch.setenv("EPISODIC_LLM__MODEL", "llama3")
    with pytest.raises(llm.LLMConfigError, match="base URL must look like http://host:port/...: got 'localhost"):
        llm.get_backend()


def test_an_anthropic_key_alone_selects_anthropic_once_logged_and_none_refuses(monkeypatch, caplog):
    from episodic_memory.llm import clients

    monkeypatch.setattr(clients, "_announced_key", False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant")
    with caplog.at_level("INFO", logger="episodic_memory.llm.clients"):
        assert isinstance(llm.get_backend(), AnthropicBackend) and llm.enabled()
        llm.set_backend(None)
        assert isinstance(llm.get_backend(), AnthropicBackend)
    assert caplog.text.count("ANTHROPIC_API_KEY is set and EPISODIC_LLM__BACKEND is not") == 1
    llm.set_backend(None)
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "none")
    assert not llm.enabled() and llm.describe().startswith("none")
    monkeypatch.delenv("EPISODIC_LLM__BACKEND")
    llm.set_backend(None, Config(llm={"backend": "none"}))
    assert not llm.enabled()
