"""Issue 42, item 3: an LLM that cannot be reached costs nothing.

Read commands never wait on the LLM; after a failed call the client backs off, remembered in the store (the next
process does not retry at once) and says when it asks again; a 404 or a 401 is reported as what it is.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import llm
from episodic_memory.cli import main
from episodic_memory.config import Config
from episodic_memory.llm.backoff import backoff_after
from episodic_memory.llm.clients import OpenAICompatibleBackend
from episodic_memory.memory import Memory
from tests.fake_llm_server import FakeLLMServer, Reply, openai_reply

READS = (["stats"], ["brief"], ["sessions"], ["recall", "Airflow pipeline"])
CHAT = [{"role": "user", "content": "We decided to migrate the pipeline to Airflow.", "session_id": "s1"},
        {"role": "assistant", "content": "Noted: Airflow it is.", "session_id": "s1"}]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_chat(path: Path, session: str = "s1") -> Path:
    path.write_text("".join(json.dumps({**t, "session_id": session}) + "\n" for t in CHAT))
    return path


def flat(text: str) -> str:
    """`text` on one line (the console wraps at 80 columns)."""
    return " ".join(text.split())


def best_of(runner: CliRunner, env: dict[str, str], db: Path, args: list[str], n: int = 3) -> float:
    """The fastest of `n` in-process runs of `episodic --db DB ARGS` (after one warm-up run)."""
    times = []
    for _ in range(n + 1):
        started = time.perf_counter()
        result = runner.invoke(main, ["--db", str(db), *args], env=env, catch_exceptions=False)
        times.append(time.perf_counter() - started)
        assert result.exit_code == 0, result.output
    return min(times[1:])


def test_read_commands_do_not_wait_on_an_unreachable_llm(tmp_path: Path) -> None:
    runner = CliRunner()
    base = {"EPISODIC_MODELS__EMBEDDER": "off", "EPISODIC_LLM__BACKOFF_S": "0.01", "EPISODIC_LLM__RETRIES": "2"}
    down = {**base, "EPISODIC_LLM__BACKEND": "openai", "EPISODIC_LLM__MODEL": "llama3", "OPENAI_API_KEY": "sk-bogus",
            "OPENAI_BASE_URL": f"http://127.0.0.1:{closed_port()}/v1"}
    none = {**base, "EPISODIC_LLM__BACKEND": "none"}
    db, copy = tmp_path / "m.db", tmp_path / "none.db"
    done = runner.invoke(main, ["--db", str(db), "ingest", str(write_chat(tmp_path / "chat.jsonl"))], env=down)
    assert done.exit_code == 0 and "postponed" in done.output and "not asked again before" in flat(done.output)
    with Memory(db, config=Config(capture={"consolidate_on_open": False}, models={"embedder": "off"})) as mem:
        mem.backup(copy)  # the same store, for the runs without an LLM (which consolidate it with the rules)
        for row in mem.store._query("SELECT backend FROM llm_backoff"):  # type: ignore[attr-defined]
            mem.store.clear_llm_backoff(row[0])  # no back-off to lean on: the reads must not ask at all
    measured = {}
    for args in READS:
        measured[args[0]] = (best_of(runner, down, db, args), best_of(runner, none, copy, args))
    print("\nread command: unreachable LLM vs none (s)")
    for name, (unreachable, without) in measured.items():
        print(f"  {name:9s} {unreachable:.3f} vs {without:.3f} (+{unreachable - without:.3f})")
    for name, (unreachable, without) in measured.items():
        assert unreachable - without < 1.0, f"{name}: {unreachable:.2f}s with an unreachable LLM, {without:.2f}s without"
    with Memory(db, config=Config(capture={"consolidate_on_open": False}, models={"embedder": "off"})) as mem:  # nothing lost, nothing asked
        assert mem.sessions()[0].needs_consolidation and mem.stats()["turns"] == 2
        assert mem.store._query("SELECT count(*) FROM llm_backoff")[0][0] == 0  # type: ignore[attr-defined]
    found = runner.invoke(main, ["--db", str(db), "recall", "Airflow pipeline", "--json"], env=down)
    assert [h["kind"] for h in json.loads(found.output)][:1] == ["turn"]


def fake_config(server: FakeLLMServer, **extra: object) -> Config:
    return Config(llm={"backend": "openai", "base_url": f"{server.url}/v1", "model": "llama3", "retries": 0, "backoff_s": 0.01}, models={"embedder": "off"}).replace(**extra)


def test_the_backoff_is_remembered_across_opens_and_ends_with_a_success(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with FakeLLMServer() as server:
        server.script(Reply(503, {"error": {"message": "overloaded"}}))
        cfg = fake_config(server)
        with Memory(db, config=cfg) as mem:
            mem.add_turn("user", "We decided to migrate the pipeline to Airflow.", session_id="s1")
            mem.end_session("s1", wait=True)
            asked = len(server.requests)
            outage = mem.llm_outage()
            assert asked >= 1 and outage is not None and outage.kind == "unreachable" and "overloaded" in outage.reason
            assert 55 < outage.until - time.time() <= 60 and "not asked again before" in outage.retry_note()
        with Memory(db, config=cfg) as mem:  # another open (a new client, as in a new process): still backing off
            assert len(server.requests) == asked and mem.sessions()[0].needs_consolidation
            assert mem.llm_outage() == outage
            mem.add_turn("user", "Dev owns the DAGs.", session_id="s2")
            mem.end_session("s2", wait=True)  # a new session is not sent either
            assert len(server.requests) == asked
            key = mem.llm.describe()
            mem.store.record_llm_backoff(key, time.time() - 1, outage.failures, outage.kind, outage.reason)
        server.script(openai_reply("[]"))
        with Memory(db, config=cfg) as mem:  # the back-off is over: the open retries, and the success ends it
            assert len(server.requests) > asked
            assert not any(s.needs_consolidation for s in mem.sessions())
            assert mem.llm_outage() is None and mem.store.llm_backoff(key) is None


def test_the_backoff_doubles_up_to_its_cap() -> None:
    cfg = Config(llm={"outage_backoff_s": 60, "outage_backoff_max_s": 900})
    assert [backoff_after(cfg, n) for n in (1, 2, 3, 4, 5, 6)] == [60, 120, 240, 480, 900, 900]


def episodic(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("EPISODIC_", "ANTHROPIC_", "OPENAI_"))}
    src = str(Path(__file__).resolve().parents[1] / "src")
    return subprocess.run([sys.executable, "-m", "episodic_memory.cli", "--db", str(tmp_path / "m.db"), *args],
                          env={**base, "PYTHONPATH": src, "EPISODIC_MODELS__EMBEDDER": "off", "EPISODIC_LLM__BACKOFF_S": "0.01",
                               **env}, capture_output=True, text=True, timeout=120)


def test_the_next_process_does_not_retry_at_once(tmp_path: Path) -> None:
    with FakeLLMServer() as server:
        server.script(Reply(503, {"error": {"message": "overloaded"}}))
        env = {"EPISODIC_LLM__BACKEND": "openai", "EPISODIC_LLM__MODEL": "llama3", "OPENAI_BASE_URL": f"{server.url}/v1"}
        first = episodic(tmp_path, env, "ingest", str(write_chat(tmp_path / "a.jsonl", "s1")))
        assert first.returncode == 0 and "not asked again before" in flat(first.stdout)
        asked = len(server.requests)
        assert asked == 3  # one call and its two retries
        second = episodic(tmp_path, env, "ingest", str(write_chat(tmp_path / "b.jsonl", "s2")))
        assert second.returncode == 0 and "consolidation of 1 session(s) is postponed" in flat(second.stdout)
        assert len(server.requests) == asked  # the back-off in the store held the second process back
        assert "backing off" in second.stderr and "not asked again before" in second.stderr


@pytest.mark.parametrize("status,base,expected", [
    (404, "", "the LLM endpoint answered 404 at http://127.0.0.1:{port}/chat/completions: does the base URL end in /v1?"),
    (401, "/v1", "401: the API key was refused (check OPENAI_API_KEY)"),
])
def test_a_404_or_401_is_reported_as_what_it_is(tmp_path: Path, status: int, base: str, expected: str) -> None:
    with FakeLLMServer() as server:
        server.script(Reply(status, {"error": {"message": "nope"}}))
        port = server.url.rsplit(":", 1)[1]
        cfg = Config(llm={"retries": 2, "backoff_s": 0.01})
        client = llm.LLMClient(OpenAICompatibleBackend("llama3", base_url=server.url + base, api_key="sk-x"), cfg)
        with pytest.raises(llm.LLMFailed) as failed:
            client.run(client.ask("s", "u", purpose="extract facts", fail=True))
        assert failed.value.kind == "refused" and expected.format(port=port) in str(failed.value)
        assert len(server.requests) == 1  # not retried
        env = {"EPISODIC_LLM__BACKEND": "openai", "EPISODIC_LLM__MODEL": "llama3", "OPENAI_API_KEY": "sk-x",
               "OPENAI_BASE_URL": server.url + base}
        done = episodic(tmp_path, env, "ingest", str(write_chat(tmp_path / "chat.jsonl")))
        assert done.returncode == 0 and "postponed" in done.stdout
        assert "the LLM turned the request away" in done.stderr and "unreachable" not in done.stderr + done.stdout
        assert expected.format(port=port) in " ".join(done.stderr.split())
        asked = len(server.requests)
        again = episodic(tmp_path, env, "ingest", str(write_chat(tmp_path / "more.jsonl", "s2")))
        assert again.returncode == 0 and len(server.requests) == asked  # the whole LLM is backed off from too


def test_a_bad_request_does_not_back_off_the_whole_llm(tmp_path: Path) -> None:
    with FakeLLMServer() as server:
        server.script(Reply(400, {"error": {"message": "context too long"}}))
        with Memory(tmp_path / "m.db", config=fake_config(server)) as mem:
            mem.add_turn("user", "We decided to migrate the pipeline to Airflow.", session_id="s1")
            mem.end_session("s1", wait=True)
            assert server.requests and mem.llm_outage() is None
