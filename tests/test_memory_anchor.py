"""The Memory Anchor compatibility layer (`memory_system`, issue 19): its snippet runs unchanged from an installed
wheel, exchanges are durable before any flush, curated memories are facts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import memory_system
from episodic_memory import Memory
from episodic_memory.consolidate.fact_types import FACT_TYPES, describe_types
from episodic_memory.memory import journal_dir_for
from episodic_memory.models.quantize import cache_dir

pytestmark = pytest.mark.sqlite_only("runs child processes that --store-backend=postgres does not redirect")

ROOT = Path(__file__).resolve().parents[1]

SNIPPET = '''\
from memory_system import init_db, log_exchange, flush_buffer, recall_recent
init_db()
log_exchange("What's the weather?", "It's sunny and 72°")   # during conversation
flush_buffer()                                               # on heartbeat
context = recall_recent(hours=24)                            # next session
print(f"Loaded {context['count']} memories from last session")
'''


def _isolated_env(home: Path, **extra: str) -> dict[str, str]:
    """A child's environment with its own HOME and store; the converted models are shared (not the user's data)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EPISODIC_", "PYTHON"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"), EPISODIC_DB=str(home / "memory.db"),
               EPISODIC_CACHE_DIR=str(cache_dir().parent), **extra)
    return env


@pytest.fixture
def anchor(tmp_path: Path) -> Iterator[Memory]:
    mem = memory_system.init_db(tmp_path / "anchor.db")
    yield mem
    memory_system.close()


def test_the_snippet_runs_unchanged_from_the_installed_wheel(tmp_path: Path) -> None:
    """`pip install .` ships `memory_system` beside `episodic_memory`: the wheel is built from a copy of the project,
    installed into a folder, and the snippet runs against it in a fresh process."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "src", project / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(project), "-w", str(wheels)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = wheels.glob("episodic_memory_layer-*.whl")
    assert "memory_system/__init__.py" in zipfile.ZipFile(wheel).namelist()
    target = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                                str(wheel)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr[-2000:]
    home = tmp_path / "home"
    home.mkdir()
    script = home / "snippet.py"
    script.write_text(SNIPPET + "import episodic_memory, memory_system\n"
                      "print(episodic_memory.__file__, memory_system.__file__)\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], cwd=home, capture_output=True, text=True, timeout=300,
                         env=_isolated_env(home, PYTHONPATH=str(target)))
    assert run.returncode == 0, run.stderr[-3000:]
    loaded, files = run.stdout.splitlines()[-2:]
    assert loaded == "Loaded 2 memories from last session"
    assert all(f.startswith(str(target)) for f in files.split()), files  # the installed copy, not the source tree
    with Memory(home / "memory.db") as mem:  # the temporary HOME's store got the exchange
        assert [t.content for t in mem.turns_since(0)] == ["It's sunny and 72°", "What's the weather?"]


def test_an_exchange_is_durable_before_any_flush(tmp_path: Path) -> None:
    """Logged, never flushed, the process killed: the journal has both turns and the next open stores them."""
    db = tmp_path / "anchor.db"
    code = ("import os, memory_system as m\n"
            f"m.init_db({str(db)!r})\n"
            "m.log_exchange('The deck needs 14 slides', 'Noted, 14', source='telegram', tags=['deck'])\n"
            "os._exit(9)\n")  # no flush, no close, no atexit
    env = _isolated_env(tmp_path, PYTHONPATH=str(ROOT / "src"))
    assert subprocess.run([sys.executable, "-c", code], env=env, timeout=300).returncode == 9
    assert any(journal_dir_for(db).rglob("*.jsonl"))
    memory_system.init_db(db)
    try:
        recent = memory_system.recall_recent(hours=1)
        raw = [m for m in recent["memories"] if m["layer"] == "raw"]
        assert [(m["role"], m["content"], m["source"], m["tags"]) for m in raw] == [
            ("assistant", "Noted, 14", "telegram", ["deck"]), ("user", "The deck needs 14 slides", "telegram", ["deck"])]
    finally:
        memory_system.close()


def test_flush_consolidates_what_was_logged_and_counts_it(anchor: Memory) -> None:
    memory_system.log_exchange("We decided to ship the beta on Friday.", "Great, Friday it is.")
    memory_system.log_exchange("Remind me to email Sarah about the deck by Monday.", "Will do.", session_id="other")
    assert anchor.facts() == []  # not consolidated yet (every 8 turns, or at a flush)
    assert memory_system.flush_buffer() == 4
    assert memory_system.flush_buffer() == 0
    assert {f.type for f in anchor.facts()} >= {"decision"}
    assert [lp.text for lp in anchor.loops()]  # the reminder became an open loop
    assert [s.status for s in anchor.sessions()] == ["open", "open"]  # later exchanges join them


def test_recall_recent_has_exchanges_and_curated_memories_newest_first(anchor: Memory) -> None:
    memory_system.log_exchange("What's the weather?", "It's sunny and 72°", source="cli", tags=["smalltalk"])
    lesson = memory_system.remember("Always run the tests before pushing", category="lesson", importance=9)
    user = memory_system.remember("Prefers answers in bullet points", category="user")
    context = memory_system.recall_recent(hours=24)
    assert context["count"] == len(context["memories"]) == 4
    assert [(m["layer"], m["content"]) for m in context["memories"]] == [
        ("curated", "Prefers answers in bullet points"), ("curated", "Always run the tests before pushing"),
        ("raw", "It's sunny and 72°"), ("raw", "What's the weather?")]
    first, second = context["memories"][:2]
    assert (first["id"], first["category"], first["type"], first["importance"]) == (user, "user", "preference", 5)
    assert (second["id"], second["category"], second["type"], second["importance"]) == (lesson, "lesson", "lesson", 9)
    assert context["memories"][2]["source"] == "cli" and context["memories"][2]["tags"] == ["smalltalk"]
    assert context["briefing"] == anchor.brief(hours=24).render()
    assert context["briefing"].startswith("Briefing: the last 24 hours")
    assert memory_system.recall_recent(hours=24, limit=1)["count"] == 1


def test_recall_recent_leaves_out_what_is_older_than_the_window(anchor: Memory) -> None:
    anchor.add_turn("user", "an old remark", session_id="old", timestamp="2020-01-01T00:00:00Z")
    memory_system.log_exchange("a new question", "a new answer")
    assert [m["content"] for m in memory_system.recall_recent(hours=1)["memories"]] == ["a new answer",
                                                                                         "a new question"]


def test_curated_memories_are_facts_with_importance_as_salience(anchor: Memory) -> None:
    ids = {c: memory_system.remember(f"a {c} memory worth keeping", category=c, importance=7)
           for c in ("identity", "user", "lesson", "goal", "fact")}
    facts = {f.id: f for f in anchor.facts()}
    assert {c: facts[i].type for c, i in ids.items()} == {
        "identity": "identity", "user": "preference", "lesson": "lesson", "goal": "goal", "fact": "knowledge"}
    assert all(facts[i].salience == pytest.approx(0.7) and facts[i].route == "durable" for i in ids.values())
    assert memory_system.remember(" a lesson  memory worth keeping", "lesson") == ids["lesson"]
    assert anchor.facts(types=["lesson"])[0].recurrence == 2  # the same memory again: counted, not duplicated
    goal = memory_system.remember("Ship the walrus tracker before spring", category="goal", importance=8)
    hits = anchor.recall("when is the walrus tracker due", kind="fact")
    assert hits and (hits[0].id, hits[0].details["type"]) == (f"fact:{goal}", "goal")
    assert memory_system.remember("a decision, by its type name", category="decision", importance=10) in {
        f.id for f in anchor.facts(types=["decision"])}


@pytest.mark.parametrize(("args", "message"), [
    (("x", "mood"), "unknown fact type"), (("x", "fact", 11), "importance"), (("x", "fact", 0), "importance"),
    (("", "fact"), "non-empty"), (("x", "fact", True), "importance"),
])
def test_bad_curated_memories_are_refused(anchor: Memory, args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        memory_system.remember(*args)
    assert anchor.facts() == []


def test_lesson_and_goal_are_never_offered_to_the_extractor() -> None:
    assert {"lesson", "goal"} <= set(FACT_TYPES)
    assert "lesson" not in describe_types() and "goal" not in describe_types()
    assert "decision" in describe_types()
