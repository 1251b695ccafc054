"""Consolidation with an LLM, driven by recorded replies: extraction, the referee, profiles, every failure mode."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from episodic_memory import Config, Memory, llm
from episodic_memory.llm import LLMError, LLMRefused
from episodic_memory.pipeline import consolidate_buffer
from episodic_memory.session_buffer import SessionBuffer

from .fakes import HashingEmbedder, ScriptedBackend

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

TUESDAY = datetime(2026, 11, 17, 14, 0, tzinfo=timezone.utc)
FAST = Config(llm={"retries": 1, "backoff_s": 0.01, "timeout_s": 5})


@pytest.fixture
def backend():
    scripted = ScriptedBackend()
    llm.set_backend(scripted, FAST)
    yield scripted
    llm.set_backend(None)


def facts_reply(*items: dict) -> str:
    return "Here are the facts:\n```json\n" + json.dumps(list(items)) + "\n```"


def say(mem: Memory, session: str, *contents: str, day: int = 17) -> None:
    for i, content in enumerate(contents):
        mem.add_turn("user", content, session_id=session, speaker="Maya",
                     timestamp=datetime(2026, 11, day, 14, i, tzinfo=timezone.utc))


def test_a_contradiction_supersedes_with_walkable_history(backend: ScriptedBackend) -> None:
    backend.replies = {
        "fact extractor": [
            facts_reply({"text": "The Series B deck for Northgate has 12 slides", "type": "knowledge",
                         "entities": ["Northgate"], "confidence": 0.9, "turns": [1]}),
            facts_reply({"text": "The Series B deck for Northgate has 14 slides", "type": "correction",
                         "entities": ["Northgate"], "confidence": 0.9, "turns": [1]}),
        ],
        "referee": ['{"action": "update", "reason": "the slide count changed"}'],
    }
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "The Series B deck needs 12 slides.", day=2)
        mem.end_session("s1", wait=True)
        say(mem, "s2", "Actually make it 14 slides, Sarah confirmed.", day=17)
        mem.end_session("s2", wait=True)
        assert len(backend.calls_for("referee")) == 1
        [current] = mem.facts()
        chain = mem.fact_history(current.id)
        assert [f.text for f in chain] == ["The Series B deck for Northgate has 14 slides",
                                          "The Series B deck for Northgate has 12 slides"]
        assert chain[1].valid_to == current.valid_from and chain[1].superseded_by == current.id
        hit = mem.recall("how many slides in the deck", kind="fact")[0]
        assert hit.text == "The Series B deck for Northgate has 14 slides (previously: 12)"
        assert mem.recall("slides in the deck", kind="fact", as_of="2026-11-10")[0].text.endswith("12 slides")
        assert mem.stats()["routes"]["referee_update"] == 1


def test_a_restatement_only_bumps_recurrence(backend: ScriptedBackend) -> None:
    fact = {"text": "Maya prefers bullet points over long paragraphs", "type": "preference", "turns": [1]}
    backend.replies = {"fact extractor": [facts_reply(fact)]}
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "I prefer bullet points over long paragraphs.", day=2)
        mem.end_session("s1", wait=True)
        say(mem, "s2", "Remember, bullets please, not paragraphs.", day=9)
        mem.end_session("s2", wait=True)
        [only] = mem.facts(include_superseded=True)
        assert only.recurrence == 2 and len(only.source_ids) == 2
        assert not backend.calls_for("referee")  # decided by the cheap gates, no LLM referee
        routes = mem.stats()["routes"]
        assert routes.get("restated", 0) + routes.get("duplicate", 0) == 1 and routes["durable"] == 1


def test_filler_is_dropped_and_bad_items_are_rejected(backend: ScriptedBackend, caplog) -> None:
    backend.replies = {"fact extractor": [facts_reply(
        {"text": "ok, thanks!", "type": "knowledge", "turns": [1]},
        {"text": "Maya is flying to London on Monday evening", "type": "plan", "turns": [2]},
        {"text": "Mystery", "type": "gossip", "turns": [1]},
        {"type": "event"},
        "not an object",
    )]}
    with caplog.at_level(logging.WARNING), Memory(":memory:", embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "ok, thanks!", "I'll fly to London on Monday evening.")
        mem.end_session("s1", wait=True)
        assert [f.text for f in mem.facts()] == ["Maya is flying to London on Monday evening"]
        assert mem.stats()["routes"]["dropped"] == 1
    assert "unknown type 'gossip'" in caplog.text and "no text" in caplog.text and "not an object" in caplog.text


@pytest.mark.parametrize(("ruling", "facts_after"), [("add", 2), ("skip", 1), ("update", 1)])
def test_the_referee_rules_in_the_ambiguous_band(backend: ScriptedBackend, ruling: str, facts_after: int) -> None:
    backend.replies = {
        "fact extractor": [
            facts_reply({"text": "Dev owns the Airflow migration", "type": "commitment"}),
            facts_reply({"text": "Sarah owns the Airflow migration", "type": "commitment"}),
        ],
        "referee": [json.dumps({"action": ruling, "reason": "recorded"})],
    }
    a = HashingEmbedder().embed(["Dev owns the Airflow migration", "Sarah owns the Airflow migration"])
    similarity = float(a[0] @ a[1])
    assert Config().consolidation.supersede_cosine <= similarity < Config().consolidation.duplicate_cosine  # the band, by construction
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "Dev runs the migration.")
        mem.end_session("s1", wait=True)
        say(mem, "s2", "Sarah runs the migration now.", day=18)
        mem.end_session("s2", wait=True)
        assert len(mem.facts()) == facts_after
        assert len(backend.calls_for("referee")) == 1
        assert len(mem.facts(include_superseded=True)) == (1 if ruling == "skip" else 2)


def test_relative_dates_are_resolved_against_the_turn(backend: ScriptedBackend) -> None:
    backend.replies = {"fact extractor": [facts_reply(
        {"text": "Sarah spoke to Tomás", "type": "event", "when": "yesterday", "turns": [1]},
        {"text": "Maya flew to Porto", "type": "event", "when": "last Saturday", "turns": [1]},
        {"text": "The partner meeting is in London", "type": "plan", "when": "2026-12-01", "turns": [1]},
        {"text": "Dev gets quotes", "type": "commitment", "when": "next Friday", "turns": [1]},
    )]}
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        mem.add_turn("user", "Lots happened.", session_id="s", timestamp=TUESDAY)
        mem.end_session("s", wait=True)
        when = {f.text: datetime.fromtimestamp(f.event_ts, timezone.utc).date().isoformat() for f in mem.facts()}
        assert when == {"Sarah spoke to Tomás": "2026-11-16", "Maya flew to Porto": "2026-11-14",
                        "The partner meeting is in London": "2026-12-01", "Dev gets quotes": "2026-11-27"}


@pytest.mark.parametrize("reply", ["", "   ", "I cannot help with that.", "```json\n{\"oops\": \n```"])
def test_a_backend_saying_nothing_usable_means_no_facts_and_no_crash(backend: ScriptedBackend, reply: str) -> None:
    backend.replies = {"fact extractor": [reply]}
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "We decided to ship on Friday.")
        mem.end_session("s1", wait=True)
        assert mem.facts() == []
        assert mem.sessions()[0].needs_consolidation is False  # consolidated: there was nothing to keep


def test_a_truncated_reply_keeps_the_complete_facts(backend: ScriptedBackend) -> None:
    backend.replies = {"fact extractor": [
        '[{"text": "Maya decided to use Airflow", "type": "decision", "turns": [1]}, {"text": "Dev owns the mig']}
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "We decided to use Airflow; Dev owns the migration.")
        mem.end_session("s1", wait=True)
        assert [f.text for f in mem.facts()] == ["Maya decided to use Airflow"]


def test_a_failing_backend_leaves_the_turns_and_retries_at_next_open(backend: ScriptedBackend, tmp_path: Path
                                                                      ) -> None:
    backend.replies = {"fact extractor": [LLMError("503 overloaded")]}
    db = tmp_path / "m.db"
    with Memory(db, embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "We decided to migrate the pipeline to Airflow.")
        mem.end_session("s1", wait=True)
        assert len(backend.calls_for("fact extractor")) == 2  # one retry, then give up for now
        assert mem.facts() == [] and mem.sessions()[0].needs_consolidation
        assert mem.recall("Airflow")[0].kind == "turn"  # the turn is intact and recallable
    backend.replies = {"fact extractor": [facts_reply(
        {"text": "Maya decided to migrate the pipeline to Airflow", "type": "decision", "turns": [1]})]}
    with Memory(db, embedder=HashingEmbedder()) as mem:  # within the LLM's back-off (issue 42): not asked
        assert mem.facts() == [] and len(backend.calls_for("fact extractor")) == 2
        backoff = mem.llm_outage()
        assert backoff is not None and backoff.kind == "unreachable" and "503 overloaded" in backoff.reason
        mem.store.record_llm_backoff(mem.llm.describe(), time.time() - 1, 1, "unreachable", backoff.reason)
    with Memory(db, embedder=HashingEmbedder()) as mem:  # the next open after the back-off retries
        assert [f.text for f in mem.facts()] == ["Maya decided to migrate the pipeline to Airflow"]
        assert mem.llm_outage() is None and mem.store.llm_backoff(mem.llm.describe()) is None
        assert not mem.sessions()[0].needs_consolidation


def test_an_llm_down_long_enough_falls_back_to_the_rules(backend: ScriptedBackend, tmp_path: Path) -> None:
    backend.replies = {"fact extractor": [LLMError("connection refused")]}
    db = tmp_path / "m.db"
    with Memory(db, config=FAST.replace({"llm.outage_rules_after_s": 3600}),
                embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "We decided to migrate the pipeline to Airflow.")
        mem.end_session("s1", wait=True)
        assert mem.facts() == [] and mem.sessions()[0].needs_consolidation   # just written: postponed
    with Memory(db, config=FAST.replace({"llm.outage_rules_after_s": 0}),
                embedder=HashingEmbedder()) as mem:                             # still down, waited long enough
        facts = mem.facts()
        assert facts and all(f.extractor != "llm" for f in facts) and "Airflow" in facts[0].text
        assert not mem.sessions()[0].needs_consolidation


@pytest.mark.parametrize("error", [RuntimeError("bug in a custom backend"), LLMRefused("HTTP 401: invalid key")])
def test_a_backend_that_raises_or_turns_us_away_is_contained(backend: ScriptedBackend, error: Exception) -> None:
    backend.replies = {"fact extractor": [error]}
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "We decided to migrate the pipeline to Airflow.")
        mem.end_session("s1", wait=True)
        assert mem.sessions()[0].needs_consolidation and mem.stats()["turns"] == 1


def test_the_referee_failing_falls_back_to_rules(backend: ScriptedBackend) -> None:
    backend.replies = {
        "fact extractor": [
            facts_reply({"text": "The deck for Northgate has 12 slides", "type": "knowledge"}),
            facts_reply({"text": "The deck for Northgate has 14 slides", "type": "correction"}),
        ],
        "referee": ["no idea, sorry"],
    }
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "The deck needs 12 slides.")
        mem.end_session("s1", wait=True)
        say(mem, "s2", "Correction: 14 slides.", day=18)
        mem.end_session("s2", wait=True)
        [current] = mem.facts()
        assert current.text.endswith("14 slides") and current.supersedes is not None  # a correction supersedes


def test_profiles_are_written_by_the_llm_and_refreshed_when_facts_change(backend: ScriptedBackend) -> None:
    backend.replies = {
        "fact extractor": [
            facts_reply({"text": "Sarah is the CFO of Lumen Analytics", "type": "relationship",
                         "entities": ["Sarah", "Lumen Analytics"]}),
            facts_reply({"text": "Sarah wants 2.2% monthly churn for SMB customers", "type": "preference",
                         "entities": ["Sarah"]}),
        ],
        "profile writer": ["Sarah is Lumen Analytics' CFO.", "Sarah is the CFO; she is conservative on churn."],
    }
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        say(mem, "s1", "Sarah, our CFO, owns the model.")
        mem.end_session("s1", wait=True)
        assert mem.profile("sarah")["profile"] == "Sarah is Lumen Analytics' CFO."
        say(mem, "s2", "Sarah wants 2.2% churn for SMB.", day=18)
        mem.end_session("s2", wait=True)
        assert mem.profile("Sarah")["profile"] == "Sarah is the CFO; she is conservative on churn."
        assert ("Lumen Analytics", 1) in next(e for e in mem.entities() if e.name == "Sarah").related


def test_consolidate_buffer_runs_the_pipeline(backend: ScriptedBackend) -> None:
    backend.replies = {"fact extractor": [facts_reply(
        {"text": "The Series B deck needs 14 slides", "type": "decision", "entities": ["Sarah"], "turns": [1]})]}
    buf = SessionBuffer("session-1")
    buf.append_turn("user", "The Series B deck needs 14 slides, Sarah confirmed.")
    buf.append_turn("assistant", "Noted — updating the outline to 14.")
    added = asyncio.run(consolidate_buffer(buf))
    assert [f.text for f in added] == ["The Series B deck needs 14 slides"]
    assert asyncio.run(consolidate_buffer(buf)) == []  # idempotent
    assert "[1] (" in backend.calls_for("fact extractor")[0][1]  # turns are numbered with their dates


def test_consolidate_buffer_without_an_llm_uses_the_rules() -> None:
    buf = SessionBuffer("session-1")
    buf.append_turn("user", "The Series B deck needs 14 slides, Sarah confirmed.")
    buf.append_turn("assistant", "Noted — updating the outline to 14.")
    added = asyncio.run(consolidate_buffer(buf))
    assert [(f.type, f.text) for f in added] == [("knowledge", "The Series B deck needs 14 slides, Sarah confirmed.")]


def test_a_broken_llm_configuration_falls_back_to_rules(monkeypatch, caplog) -> None:
    monkeypatch.setenv("EPISODIC_LLM__BACKEND", "anthropic")  # and no ANTHROPIC_API_KEY
    monkeypatch.setattr("episodic_memory.llm.client._warned", set())  # said once per process: from a fresh one
    llm.set_backend(None)
    try:
        with caplog.at_level(logging.WARNING), Memory(":memory:", embedder=HashingEmbedder()) as mem:
            say(mem, "s1", "We decided to migrate the pipeline to Airflow.")
            mem.end_session("s1", wait=True)
            say(mem, "s2", "We decided to keep the old scheduler for reports.")
            mem.end_session("s2", wait=True)
            assert [f.type for f in mem.facts()] == ["decision", "decision"]
            assert not any(s.needs_consolidation for s in mem.sessions())  # consolidated, not pending forever
            assert sorted(e.session_id for e in mem.episodes()) == ["s1", "s2"]
        [warning] = caplog.records  # one line for the two sessions, and no traceback
        assert "ANTHROPIC_API_KEY" in warning.getMessage() and warning.exc_info is None
    finally:
        llm.set_backend(None)


def test_profiles_wait_for_the_end_of_the_session(backend: ScriptedBackend) -> None:
    backend.replies = {
        "fact extractor": [facts_reply({"text": "Sarah is the CFO of Lumen Analytics", "type": "relationship",
                                        "entities": ["Sarah"]})],
        "profile writer": ["Sarah is Lumen Analytics' CFO."],
    }
    sync = Config(capture={"consolidate_every": 2, "consolidate_in_background": "off"})
    with Memory(":memory:", embedder=HashingEmbedder(), config=sync) as mem:
        say(mem, "s1", "Sarah, our CFO, owns the model.", "She is careful with churn.")
        assert mem.facts() and not backend.calls_for("profile writer")  # consolidated mid-session, no profile yet
        mem.end_session("s1", wait=True)
        assert len(backend.calls_for("profile writer")) == len(mem.entities())  # one each, at the end
        assert mem.profile("Sarah")["profile"] == "Sarah is Lumen Analytics' CFO."


class SlowBackend(ScriptedBackend):
    """Extracts facts after `delay` seconds, like a real model (its other replies are instant)."""

    def __init__(self, delay: float, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.delay = delay

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        if "fact extractor" in system_prompt:
            await asyncio.sleep(self.delay)
        return await super().ask(system_prompt, user_prompt, model=model)


def test_with_an_llm_consolidation_runs_off_the_capture_path(tmp_path: Path) -> None:
    slow = SlowBackend(0.4, replies={"fact extractor": [facts_reply(
        {"text": "Maya decided to migrate the pipeline to Airflow", "type": "decision", "turns": [1]})]})
    llm.set_backend(slow, FAST)
    try:
        with Memory(tmp_path / "m.db", embedder=HashingEmbedder(), config=Config(capture={"consolidate_every": 2})) as mem:
            started = time.perf_counter()
            say(mem, "s1", "We decided to migrate the pipeline to Airflow.", "Dev owns it.")
            assert time.perf_counter() - started < 0.3  # the 8th (here 2nd) turn does not wait for the model
            mem.wait_for_consolidation("s1")
            assert [f.text for f in mem.facts()] == ["Maya decided to migrate the pipeline to Airflow"]
            say(mem, "s1", "Sarah will review the DAGs.", "That is all for today.")
            mem.end_session("s1", wait=True)  # waits for the queued run, then the final one
            s1 = {s.session_id: s for s in mem.sessions()}["s1"]
            assert not s1.needs_consolidation and s1.consolidated_turns == 4
            say(mem, "s2", "We decided to hire a second data engineer.", "Budget is approved.")
            mem.forget(session_id="s2")  # waits: nothing half-consolidated writes back what was forgotten
            assert {f.session_id for f in mem.facts()} == {"s1"}
            say(mem, "s3", "We decided to try Astronomer.", "Quotes by Friday.")
        with Memory(tmp_path / "m.db", embedder=HashingEmbedder(), config=Config(capture={"consolidate_on_open": False})) as mem:
            s3 = {s.session_id: s for s in mem.sessions()}["s3"]
            assert s3.consolidated_turns == 2  # close() finished the queued run
    finally:
        llm.set_backend(None)


def test_background_mode_can_be_forced_either_way() -> None:
    with Memory(":memory:", config=Config(capture={"consolidate_in_background": "on", "consolidate_every": 1}, models={"embedder": "off"})) as mem:
        mem.add_turn("user", "We decided to ship on Friday.", session_id="s")
        mem.wait_for_consolidation()
        assert [f.type for f in mem.facts()] == ["decision"]
    with pytest.raises(ValueError, match="consolidate_in_background"):
        Config(capture={"consolidate_in_background": "sometimes"})


# --- a misconfigured or unreachable LLM (issue 18, item 16) ----------------------------------------------------


def closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def episodic(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("EPISODIC_", "ANTHROPIC_", "OPENAI_"))}
    src = str(Path(__file__).resolve().parents[1] / "src")
    return subprocess.run([sys.executable, "-m", "episodic_memory.cli", "--db", str(tmp_path / "m.db"), *args],
                          env={**base, "PYTHONPATH": src, "EPISODIC_MODELS__EMBEDDER": "off", "EPISODIC_LLM__BACKOFF_S": "0.01",
                               **env}, capture_output=True, text=True, timeout=120)


def test_a_missing_key_is_one_warning_line_and_the_rules_consolidate(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text(json.dumps({"role": "user", "content": "We decided to migrate the pipeline to Airflow."}) + "\n")
    no_key = {"EPISODIC_LLM__BACKEND": "anthropic"}
    done = episodic(tmp_path, no_key, "ingest", str(chat))
    assert done.returncode == 0 and "ingested 1 turn(s)" in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "ANTHROPIC_API_KEY" in lines[0] and "consolidating with rules" in lines[0]
    stats = episodic(tmp_path, no_key, "stats", "--json")  # nothing pending: nothing to complain about again
    assert stats.returncode == 0 and stats.stderr == ""
    data = json.loads(stats.stdout)
    assert data["turns"] == 1 and data["pending_consolidation"] == 0 and data["facts"] >= 1


def test_an_unreachable_llm_is_one_warning_line_and_the_session_is_retried(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text(json.dumps({"role": "user", "content": "We decided to migrate the pipeline to Airflow."}) + "\n")
    down = {"EPISODIC_LLM__BACKEND": "openai", "EPISODIC_LLM__MODEL": "llama3",
            "OPENAI_BASE_URL": f"http://127.0.0.1:{closed_port()}/v1"}
    done = episodic(tmp_path, down, "ingest", str(chat))
    assert done.returncode == 0 and "ingested 1 turn(s)" in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "the LLM is unreachable" in lines[0] and "retried" in lines[0]
    recall = episodic(tmp_path, down, "recall", "Airflow pipeline", "--json")  # the turn is safe and found
    assert [h["kind"] for h in json.loads(recall.stdout)] == ["turn"]
    assert recall.stderr == ""  # a read command does not wait on the LLM: it leaves the session to a writer
    # once the LLM is back (here: none configured, the rules), the retry consolidates it
    data = json.loads(episodic(tmp_path, {}, "stats", "--json").stdout)
    assert data["pending_consolidation"] == 0 and data["facts"] >= 1
