"""Claude Code hooks (issue 46): `episodic hooks install claude-code` and `episodic hook EVENT`, driven with the
payloads of Claude Code's hooks reference and a transcript as Claude Code writes it (tests/fixtures/claude_code/;
its README says where each comes from). Only `transcript_path` and `cwd` are changed in a payload, to point at this
test's files."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.ingest import parse_file, sample_path
from episodic_memory.integrations.claude_code import ProjectFirst
from episodic_memory.integrations.claude_code_io import HookState, new_entries, project_of
from episodic_memory.integrations.claude_code_settings import FAST_CLIENT, is_ours

FIXTURES = Path(__file__).parent / "fixtures" / "claude_code"
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd", "PreCompact")
FIRST_PROMPT = "The nightly billing sync fails on staging since yesterday. Can you find out why and fix it?"
SLIDES = "How many slides does the Series B deck need?"


@pytest.fixture(autouse=True)
def _hook_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hook state, log and Claude Code's settings in the test's folder; no server; BM25 only (fast)."""
    monkeypatch.setenv("EPISODIC_HOOKS__STATE_DIR", str(tmp_path / "hook-state"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-home"))
    monkeypatch.setenv("EPISODIC_MODELS__EMBEDDER", "off")
    for name in ("EPISODIC_HOOKS__SERVER_URL", "EPISODIC_HOOKS__SERVER_TOKEN", "EPISODIC_HOOKS__TIMEOUT_S"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample conversation (the deck's 12 slides, corrected to 14; a confirmed workstream with open
    loops), consolidated once; each test gets a copy."""
    folder = tmp_path_factory.mktemp("sample")
    parsed = parse_file(str(sample_path()))
    with Memory(folder / "memory.db", config=Config(models={"embedder": "off"})) as mem:
        mem.add_turns(parsed.turns)
        for session_id in dict.fromkeys(t["session_id"] for t in parsed.turns):
            mem.end_session(session_id, wait=True)
    return folder


@pytest.fixture
def db(sample_store: Path, tmp_path: Path) -> Path:
    shutil.copytree(sample_store, tmp_path / "store")
    return tmp_path / "store" / "memory.db"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A working directory inside a git repository named northgate-billing."""
    repo = tmp_path / "northgate-billing"
    (repo / ".git").mkdir(parents=True)
    (repo / "billing").mkdir()
    return repo / "billing"


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    path = tmp_path / "00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl"
    shutil.copy(FIXTURES / "transcript.jsonl", path)
    return path


def payload(name: str, **changes: Any) -> dict[str, Any]:
    return {**json.loads((FIXTURES / name).read_text(encoding="utf-8")), **changes}


def hook(event: str, event_json: dict[str, Any] | str, db: Path, *args: str) -> Result:
    text = event_json if isinstance(event_json, str) else json.dumps(event_json)
    return CliRunner().invoke(main, ["hook", event, "--db", str(db), *args], input=text, catch_exceptions=False)


def answer(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout) if result.stdout.strip() else {}


def session_turns(db: Path, session_id: str = "abc123") -> list[Any]:
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        return mem.session_turns(session_id)


def log_lines(tmp_path: Path) -> list[str]:
    path = tmp_path / "hook-state" / "hooks.log"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


# --- the installer ---------------------------------------------------------------------------------------------
def install(*args: str) -> Result:
    return CliRunner().invoke(main, ["hooks", "install", "claude-code", *args], catch_exceptions=False)


def test_install_writes_each_event_once_and_installing_again_changes_nothing(tmp_path: Path) -> None:
    result = install("--user")
    assert result.exit_code == 0, result.output
    path = tmp_path / "claude-home" / "settings.json"
    first = path.read_bytes()
    settings = json.loads(first)
    assert list(settings) == ["hooks"] and list(settings["hooks"]) == list(EVENTS)
    for event in EVENTS:
        (group,) = settings["hooks"][event]
        (entry,) = group["hooks"]
        assert entry["type"] == "command"  # the store named as $EPISODIC_DB names it now (conftest's)
        assert entry["command"].endswith(f"episodic hook {event} --db {tmp_path / 'default' / 'memory.db'}")
        assert entry["timeout"] == (52 if event in ("SessionEnd", "PreCompact") else 10)
    assert first.decode().startswith('{\n  "hooks": {\n')  # indented: a person can read it
    again = install()
    assert again.exit_code == 0 and "nothing changed" in again.stdout
    assert path.read_bytes() == first


def test_install_merges_with_what_is_there_and_uninstall_removes_exactly_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / ".claude" / "settings.local.json"
    path.parent.mkdir()
    before = json.loads((FIXTURES / "settings_before.json").read_text(encoding="utf-8"))
    path.write_text(json.dumps(before, indent=2), encoding="utf-8")
    assert install("--project").exit_code == 0
    merged = json.loads(path.read_text(encoding="utf-8"))
    assert merged["permissions"] == before["permissions"] and merged["env"] == before["env"]
    assert merged["hooks"]["PostToolUse"] == before["hooks"]["PostToolUse"]
    theirs, ours = merged["hooks"]["UserPromptSubmit"]
    assert theirs == before["hooks"]["UserPromptSubmit"][0] and is_ours(ours["hooks"][0]["command"], "UserPromptSubmit")
    assert install("--project", "--uninstall").exit_code == 0
    assert json.loads(path.read_text(encoding="utf-8")) == before
    assert "nothing changed" in install("--project", "--uninstall").stdout


def test_installing_for_another_store_replaces_the_entry_instead_of_adding_a_second(tmp_path: Path) -> None:
    assert install("--db", str(tmp_path / "a.db")).exit_code == 0
    result = install("--db", str(tmp_path / "b.db"))
    assert "updated" in result.stdout
    settings = json.loads((tmp_path / "claude-home" / "settings.json").read_text(encoding="utf-8"))
    for event in EVENTS:
        (group,) = settings["hooks"][event]
        assert group["hooks"][0]["command"].endswith(f"hook {event} --db {tmp_path / 'b.db'}")


def test_install_with_a_server_writes_the_fast_client_and_uninstall_finds_it(tmp_path: Path) -> None:
    assert install("--server", "http://127.0.0.1:8765").exit_code == 0
    path = tmp_path / "claude-home" / "settings.json"
    command = json.loads(path.read_text(encoding="utf-8"))["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert str(FAST_CLIENT) in command and "Stop --server http://127.0.0.1:8765 --timeout 8" in command
    assert install("--uninstall").exit_code == 0
    assert json.loads(path.read_text(encoding="utf-8")) == {}


def test_install_refuses_a_settings_file_it_cannot_read(tmp_path: Path) -> None:
    path = tmp_path / "claude-home" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"hooks": {"Stop": "not a list"}}', encoding="utf-8")
    result = install()
    assert result.exit_code == 1 and "nothing was written" in result.stderr
    assert path.read_text(encoding="utf-8") == '{"hooks": {"Stop": "not a list"}}'


def test_is_ours_knows_our_commands_and_no_one_elses() -> None:
    assert is_ours("/venv/bin/episodic hook Stop --db /x/memory.db", "Stop")
    assert is_ours("'/usr/bin/python3' -m episodic_memory hook PreCompact", "PreCompact")
    assert is_ours(f"/usr/bin/python3 {FAST_CLIENT} SessionEnd --server http://127.0.0.1:8765", "SessionEnd")
    assert not is_ours("/venv/bin/episodic hook Stop", "SessionEnd")
    assert not is_ours("/path/to/prompt-validator.py", "UserPromptSubmit")
    assert not is_ours("echo episodic hook", "Stop")


# --- the events ------------------------------------------------------------------------------------------------
def test_session_start_answers_with_ongoing_work_and_the_last_days_brief(db: Path, transcript: Path) -> None:
    out = answer(hook("SessionStart", payload("session_start.json", transcript_path=str(transcript)), db))
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = out["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("[Ongoing work]\n▸ Series B deck")           # the confirmed workstream, its loops
    assert "  · decide on the Airflow hosting" in context
    assert "Briefing: the last 24 hours" in context and "Open loops (3)" in context


def test_user_prompt_submit_captures_the_prompt_and_answers_with_recalled_context(db: Path, project: Path) -> None:
    event = payload("user_prompt_submit.json", cwd=str(project))
    out = answer(hook("UserPromptSubmit", event, db))
    if out:  # the reference's prompt (a factorial) has little to recall from the sample; the shape is checked
        assert set(out) == {"hookSpecificOutput"} and out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    out = answer(hook("UserPromptSubmit", {**event, "prompt": SLIDES}, db))
    context = out["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("[Recalled context]\n- [fact, ")
    assert "[Ongoing work]" not in context  # that was the session start's
    turns = session_turns(db)
    assert [(t.role, t.content, t.source) for t in turns] == [
        ("user", event["prompt"], "northgate-billing"), ("user", SLIDES, "northgate-billing")]


def test_recalled_context_never_shows_a_superseded_value_beside_the_current_one(db: Path, project: Path) -> None:
    out = answer(hook("UserPromptSubmit", payload("user_prompt_submit.json", cwd=str(project), prompt=SLIDES), db))
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "14 slides" in context and "(previously: 12)" in context
    assert "The Series B deck needs 12 slides" not in context  # the turn that stated the old value
    again = answer(hook("UserPromptSubmit", payload("user_prompt_submit.json", cwd=str(project), prompt=SLIDES), db))
    assert "The deck needs 14 slides" not in json.dumps(again)  # injected in this session: not again at once


def test_stop_captures_the_reply_with_its_tool_calls_summarised_not_stored_whole(
        db: Path, project: Path, transcript: Path) -> None:
    answer(hook("UserPromptSubmit", payload("user_prompt_submit.json", cwd=str(project), prompt=FIRST_PROMPT), db))
    assert answer(hook("Stop", payload("stop.json", transcript_path=str(transcript)), db)) == {}
    user, reply = session_turns(db)
    assert (user.role, user.content) == ("user", FIRST_PROMPT)  # captured at UserPromptSubmit, not again from Stop
    last = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()][-1]
    assert reply.role == "assistant" and reply.source_id == last["uuid"]  # read again, it is stored once
    text = reply.content
    assert text.startswith("I'll start by running the sync tests to see the failure.\n\n"
                           "[Bash: pytest tests/test_sync.py -q → error: 1 failed, 11 passed in 0.42s (68 lines)]\n"
                           "[Read: /home/maya/src/northgate-billing/billing/sync.py → 117 lines]\n\n"
                           "Found it: `DSN` is read")
    assert "[Edit: /home/maya/src/northgate-billing/billing/sync.py]" in text
    assert text.endswith("all 12 sync tests pass.")
    assert "frame in billing/sync.py" not in text and "create_engine(DSN)" not in text  # outputs summarised
    assert "I should run the sync tests first" not in text   # thinking is not kept
    assert "other modules that read BILLING_DSN" not in text  # a subagent's sidechain is not this conversation


def test_stop_reads_only_what_the_last_capture_left(db: Path, project: Path, transcript: Path) -> None:
    stop = payload("stop.json", transcript_path=str(transcript))
    answer(hook("Stop", stop, db))
    turns = session_turns(db)
    assert [t.role for t in turns] == ["user", "assistant"]  # the prompt from the transcript: no UserPromptSubmit ran
    answer(hook("Stop", stop, db))
    assert len(session_turns(db)) == 2  # nothing new
    more = (FIXTURES / "transcript_more.jsonl").read_text(encoding="utf-8")
    half = more.index("\n") // 2
    with transcript.open("a", encoding="utf-8") as f:
        f.write(more[:half])  # the next prompt's line, still being written
    answer(hook("Stop", stop, db))
    assert len(session_turns(db)) == 2
    with transcript.open("a", encoding="utf-8") as f:
        f.write(more[half:])
    answer(hook("Stop", stop, db))
    new = session_turns(db)[2:]
    assert [(t.role, t.content) for t in new] == [
        ("user", "Thanks. Also add a note to the README about BILLING_DSN_STAGING."),
        ("assistant", "[Edit: /home/maya/src/northgate-billing/README.md]\n\nAdded a Staging section to the README: "
                      "BILLING_DSN_STAGING overrides BILLING_DSN when APP_ENV=staging.")]


def test_a_reply_the_event_carries_is_taken_when_the_transcript_lags_and_not_twice(
        db: Path, project: Path, transcript: Path) -> None:
    stop = payload("stop.json", transcript_path=str(transcript))
    answer(hook("Stop", stop, db))
    second = "Thanks. Also add a note to the README about BILLING_DSN_STAGING."
    answer(hook("UserPromptSubmit", payload("user_prompt_submit.json", cwd=str(project), prompt=second), db))
    lagging = payload("stop_last_assistant_message.json", transcript_path=str(transcript), cwd=str(project))
    answer(hook("Stop", lagging, db))  # the transcript does not have the reply yet; the event does
    with transcript.open("a", encoding="utf-8") as f:
        f.write((FIXTURES / "transcript_more.jsonl").read_text(encoding="utf-8"))
    answer(hook("Stop", stop, db))
    contents = [t.content for t in session_turns(db)]
    assert sum(lagging["last_assistant_message"] in c for c in contents) == 1
    assert contents.count(second) == 1
    assert contents[-1] == "[Edit: /home/maya/src/northgate-billing/README.md]"


@pytest.mark.parametrize("event_file", ["session_end.json", "pre_compact.json"])
def test_session_end_and_pre_compact_capture_the_rest_then_end_and_consolidate(
        db: Path, transcript: Path, event_file: str) -> None:
    event = json.loads((FIXTURES / event_file).read_text(encoding="utf-8"))["hook_event_name"]
    assert answer(hook(event, payload(event_file, transcript_path=str(transcript)), db)) == {}
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        info = mem.session("abc123")
        assert info is not None and info.status == "ended"
        assert info.consolidated_turns == info.turn_count == 2 and not info.needs_consolidation


def test_sessions_are_the_harness_sessions_and_recall_takes_the_projects_memories_first() -> None:
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem:
        mem.add_turn("user", "We deploy the billing service with make deploy-staging", session_id="s1",
                     source="northgate-billing")
        for i in range(6):
            mem.add_turn("user", f"To deploy the website run npm run deploy number {i}", session_id="s2",
                         source="website")
        plain = [h.source for h in mem.recall("how do we deploy", k=4)]
        first = [h.source for h in ProjectFirst(mem, "northgate-billing").recall("how do we deploy", k=4)]
    assert plain.count("northgate-billing") <= 1 and first[0] == "northgate-billing"
    assert "website" in first  # preferred, not alone


# --- a hook never fails the harness ----------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["broken", "missing", "not json", "no session"])
def test_a_broken_or_missing_store_or_a_bad_event_gives_an_empty_answer_and_a_log_line(
        tmp_path: Path, project: Path, kind: str) -> None:
    db = tmp_path / "memory.db"
    event: dict[str, Any] | str = payload("user_prompt_submit.json", cwd=str(project), prompt=SLIDES)
    if kind == "broken":
        db.write_bytes(b"this is not a SQLite database" * 100)
    elif kind == "missing":
        (tmp_path / "a-file").write_text("x")
        db = tmp_path / "a-file" / "memory.db"  # its folder cannot be made
    elif kind == "not json":
        event = "{not json"
    else:
        event = {"hook_event_name": "UserPromptSubmit", "prompt": SLIDES}
    result = hook("UserPromptSubmit", event, db)
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""
    (line,) = log_lines(tmp_path)
    assert " UserPromptSubmit " in line


def test_a_locked_store_answers_nothing_within_the_budget(db: Path, project: Path, tmp_path: Path) -> None:
    holder = sqlite3.connect(db)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing, and not letting go
    try:
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "episodic_memory", "hook", "UserPromptSubmit", "--db", str(db)],
                              input=json.dumps(payload("user_prompt_submit.json", cwd=str(project), prompt=SLIDES)),
                              capture_output=True, text=True, timeout=60,
                              env={**_env(tmp_path), "EPISODIC_HOOKS__TIMEOUT_S": "1"})
        took = time.monotonic() - started
    finally:
        holder.rollback()
        holder.close()
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    assert took < 10  # the budget, plus starting Python under a loaded machine
    lines = log_lines(tmp_path)  # "no answer within 1s", or the lock's error if it came first (or both)
    assert lines and all("UserPromptSubmit abc123: " in line for line in lines)


def test_the_packages_warnings_go_to_the_hook_log_not_to_standard_error(
        db: Path, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    from episodic_memory.integrations import claude_code

    def warns(*args: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        logging.getLogger("episodic_memory.consolidate").warning("consolidation of %s postponed", "abc123")
        raise RuntimeError("the store went away")

    monkeypatch.setattr(claude_code, "handle", warns)
    result = hook("UserPromptSubmit", payload("user_prompt_submit.json", cwd=str(project)), db)
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""
    assert [line.split(": ", 1)[1] for line in log_lines(tmp_path)] == [
        "warning: consolidation of abc123 postponed", "RuntimeError: the store went away"]


def _env(tmp_path: Path) -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("EPISODIC_HOOK_SERVER")} | {
        "EPISODIC_HOOKS__STATE_DIR": str(tmp_path / "hook-state"), "EPISODIC_MODELS__EMBEDDER": "off"}


# --- other harnesses with the same contract ------------------------------------------------------------------
def test_gemini_cli_events_fit_the_same_commands(db: Path, project: Path) -> None:
    """Gemini CLI's BeforeAgent / AfterAgent (docs/hooks/reference.md there) through `hook UserPromptSubmit` and
    `hook Stop`: its transcript is not Claude Code's, the reply comes from `prompt_response`."""
    base = {"session_id": "gem-1", "transcript_path": str(project / "gemini-transcript.json"), "cwd": str(project),
            "timestamp": "2026-11-02T10:00:00Z"}
    out = answer(hook("UserPromptSubmit", {**base, "hook_event_name": "BeforeAgent", "prompt": SLIDES}, db))
    assert out["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"
    assert "14 slides" in out["hookSpecificOutput"]["additionalContext"]
    answer(hook("Stop", {**base, "hook_event_name": "AfterAgent", "prompt": SLIDES,
                         "prompt_response": "Fourteen slides: Sarah confirmed it."}, db))
    assert [(t.role, t.content) for t in session_turns(db, "gem-1")] == [
        ("user", SLIDES), ("assistant", "Fourteen slides: Sarah confirmed it.")]


def test_codex_events_fit_the_same_commands(db: Path, project: Path, tmp_path: Path) -> None:
    """Codex's UserPromptSubmit and Stop (its hook schemas, codex-rs/hooks/schema/generated): the answer keeps to
    its output schema (no extra keys; hookEventName the event's); its transcript is not Claude Code's, so Stop takes
    `last_assistant_message`."""
    rollout = tmp_path / "rollout.jsonl"
    rollout.write_text('{"timestamp":"2026-11-02T10:00:00.000Z","type":"session_meta","payload":{}}\n', encoding="utf-8")
    prompt = payload("codex_user_prompt_submit.json", cwd=str(project), transcript_path=str(rollout))
    out = answer(hook("UserPromptSubmit", prompt, db))
    assert set(out) == {"hookSpecificOutput"} and set(out["hookSpecificOutput"]) == {"hookEventName", "additionalContext"}
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert "14 slides" in out["hookSpecificOutput"]["additionalContext"]
    stop = payload("codex_stop.json", cwd=str(project), transcript_path=str(rollout))
    assert answer(hook("Stop", stop, db)) == {}
    assert [(t.role, t.content) for t in session_turns(db, prompt["session_id"])] == [
        ("user", prompt["prompt"]), ("assistant", stop["last_assistant_message"])]


# --- through a server ------------------------------------------------------------------------------------------
@contextmanager
def serving(db: Path) -> Iterator[str]:
    uvicorn = pytest.importorskip("uvicorn")
    from episodic_memory.server.rest import create_app

    app = create_app(db, auth=False, config=Config(models={"embedder": "off"}))  # `episodic serve`'s app has the hook route
    assert any(getattr(r, "path", "") == "/v1/hooks/claude-code/{event}" for r in app.routes)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(20)


def fast_client(event: str, event_json: dict[str, Any], server: str, tmp_path: Path, *args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(FAST_CLIENT), event, "--server", server, *args],
                          input=json.dumps(event_json), capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else {}


def test_through_a_server_the_fast_client_answers_and_captures(
        db: Path, project: Path, transcript: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "not-the-store.db"  # with a server, `episodic hook` does not open its --db
    with serving(db) as url:
        out = fast_client("UserPromptSubmit", payload("user_prompt_submit.json", cwd=str(project), prompt=SLIDES),
                          url, tmp_path)
        assert "14 slides" in out["hookSpecificOutput"]["additionalContext"]
        assert fast_client("Stop", payload("stop.json", transcript_path=str(transcript)), url, tmp_path) == {}
        assert fast_client("Stop", payload("stop.json", transcript_path=str(transcript)), url, tmp_path) == {}
        monkeypatch.setenv("EPISODIC_HOOKS__SERVER_URL", url)
        assert answer(hook("SessionEnd", payload("session_end.json", transcript_path=str(transcript)), elsewhere)) == {}
    turns = session_turns(db)
    assert [t.role for t in turns] == ["user", "user", "assistant"] and turns[0].source == "northgate-billing"
    assert turns[2].content.endswith("all 12 sync tests pass.")
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        info = mem.session("abc123")
        assert info is not None and info.status == "ended" and info.consolidated_turns == 3
    assert log_lines(tmp_path) == [] and not elsewhere.exists()


def test_with_no_server_answering_the_fast_client_opens_the_store(db: Path, project: Path, tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{sock.getsockname()[1]}"  # bound, not listening: refused
        out = fast_client("UserPromptSubmit", payload("user_prompt_submit.json", cwd=str(project), prompt=SLIDES),
                          closed, tmp_path, "--db", str(db))
    assert "14 slides" in out["hookSpecificOutput"]["additionalContext"]
    assert [t.content for t in session_turns(db)] == [SLIDES]
    (line,) = log_lines(tmp_path)
    assert "no server at" in line and "opening the store instead" in line


# --- the pieces ------------------------------------------------------------------------------------------------
def test_the_transcript_is_read_from_the_offset_in_whole_lines(transcript: Path) -> None:
    entries, offset = new_entries(str(transcript), 0)
    assert offset == transcript.stat().st_size
    assert [e["type"] for e in entries][:3] == ["user", "user", "user"]  # the snapshot line is not an entry
    assert not any(b.get("type") == "thinking" for e in entries if isinstance(e["content"], list) for b in e["content"])
    assert new_entries(str(transcript), offset) == ([], offset)
    assert new_entries(str(transcript.with_name("gone.jsonl")), 7) == ([], 7)
    assert new_entries(str(transcript), offset + 10)[1] == offset  # shorter than the offset: read again from 0


def test_the_project_is_the_repository_of_the_working_directory(project: Path, tmp_path: Path) -> None:
    assert project_of(str(project)) == "northgate-billing"
    assert project_of(str(tmp_path / "plain")) == "plain"
    assert project_of(None) is None and project_of("") is None


def test_the_clients_http_reads_plain_and_chunked_answers() -> None:
    from episodic_memory.integrations.claude_code_io import _response

    plain = b'HTTP/1.1 200 OK\r\ncontent-length: 14\r\ncontent-type: application/json\r\n\r\n{"output": {}}'
    chunked = b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n{"outp\r\n8\r\nut": {}}\r\n0\r\n\r\n'
    assert _response(plain)[::2] == (200, b'{"output": {}}') and _response(chunked)[2] == b'{"output": {}}'


def test_a_state_file_written_by_hand_reads_as_a_fresh_state() -> None:
    state = HookState.from_dict({"offset": -4, "turn": "x", "injected": {"fact:1": True}, "prompts": [3]}, "s")
    assert state == HookState("s")
