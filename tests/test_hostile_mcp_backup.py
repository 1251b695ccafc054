"""Issue 41, items 8 and 12: a backup never replaces one of the store's own files; the MCP server answers every
request, a lone surrogate included (a JSON-RPC error naming the field), and refuses `k: true`, empty content and
ids no door accepts."""

from __future__ import annotations

import hashlib
import json
import os
import select
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main

pytestmark = pytest.mark.sqlite_only("the store's companion files and the MCP child process are a SQLite file's")


# --- item 8: backup ----------------------------------------------------------------------------------
def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


@pytest.fixture
def held(tmp_path: Path) -> Iterator[tuple[Memory, str]]:
    """A store held open by a writer (so its -wal and -shm exist), with a stored judgment."""
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as mem:
        judgment = mem.judgments.store("a flaky test", "quarantine it", "it blocks the release")
        mem.add_turn("user", "The release is on Friday.", session_id="s")
        assert (tmp_path / "m.db-wal").is_file()
        yield mem, judgment


def _still_whole(mem: Memory, judgment: str, db: Path) -> None:
    assert mem.judgments.get(judgment).judgment == "quarantine it"
    with Memory(db, config=Config(models={"embedder": "off"})) as other:  # another process's view of the file
        assert other.judgments.get(judgment).judgment == "quarantine it"
        assert other.recall("when is the release")[0].text == "The release is on Friday."
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_backup_onto_the_stores_wal_is_refused_at_the_cli(held: tuple[Memory, str], tmp_path: Path) -> None:
    mem, judgment = held
    db, wal = tmp_path / "m.db", tmp_path / "m.db-wal"
    before = _digest(wal)
    out = CliRunner().invoke(main, ["--db", str(db), "backup", str(wal), "--force"])
    assert out.exit_code != 0
    assert "a file of the store" in out.output + str(out.exception or "")
    assert _digest(wal) == before
    _still_whole(mem, judgment, db)


@pytest.mark.parametrize("dest", ["m.db", "m.db-wal", "m.db-shm", "m.db-journal", "m.db.lock", "m.db.journal",
                                  "m.db.journal/copy.db", "m.db.vectors/copy.db", "sub/../m.db-wal",
                                  "link-to-wal", "link-to-db", "hard-link-to-wal", "hard-link-to-shm",
                                  "linked-folder/m.db-shm"])
def test_backup_onto_any_file_of_the_store_is_refused(held: tuple[Memory, str], tmp_path: Path, dest: str) -> None:
    mem, judgment = held
    (tmp_path / "sub").mkdir()
    (tmp_path / "link-to-wal").symlink_to(tmp_path / "m.db-wal")
    (tmp_path / "link-to-db").symlink_to(tmp_path / "m.db")
    os.link(tmp_path / "m.db-wal", tmp_path / "hard-link-to-wal")
    os.link(tmp_path / "m.db-shm", tmp_path / "hard-link-to-shm")
    (tmp_path / "linked-folder").symlink_to(tmp_path, target_is_directory=True)
    files = {p: _digest(p) for p in tmp_path.glob("m.db*")}
    with pytest.raises(ValueError, match="a file of the store"):
        mem.backup(tmp_path / dest)
    assert {p: _digest(p) for p in tmp_path.glob("m.db*")} == files
    assert not (tmp_path / "m.db.journal" / "copy.db").exists()
    _still_whole(mem, judgment, tmp_path / "m.db")


def test_a_backup_beside_the_store_still_works(held: tuple[Memory, str], tmp_path: Path) -> None:
    mem, judgment = held
    mem.backup(tmp_path / "m.db-wal.bak")
    with Memory(tmp_path / "m.db-wal.bak", config=Config(models={"embedder": "off"})) as copy:
        assert copy.judgments.get(judgment).judgment == "quarantine it"


# --- item 12: the MCP server over stdio --------------------------------------------------------------
class Wire:
    """The MCP server as a child process, spoken to line by line (the SDK's client would not send a lone
    surrogate: this is what a careless or hostile client sends)."""

    def __init__(self, db: Path) -> None:
        env = {**os.environ, "EPISODIC_MODELS__EMBEDDER": "off", "EPISODIC_DB": str(db),
               "EPISODIC_CAPTURE__CONSOLIDATE_IN_BACKGROUND": "off"}
        self.proc = subprocess.Popen([sys.executable, "-m", "episodic_memory", "mcp", "--db", str(db)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.ids = iter(range(1, 1_000_000))

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def answer(self, timeout: float = 30) -> dict[str, Any] | None:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            if not select.select([self.proc.stdout], [], [], left)[0]:
                break
            line = self.proc.stdout.readline()
            if not line:
                break
            message = json.loads(line)
            if "id" in message:  # not a notification of the server's own
                return message
        return None

    def request(self, method: str, params: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        request_id = next(self.ids)
        self.send(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}))
        reply = self.answer(timeout)
        assert reply is not None, f"no answer to {method} in {timeout} s"
        assert reply["id"] == request_id
        return reply

    def close(self) -> str:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return self.proc.stderr.read().decode(errors="replace")


@pytest.fixture
def wire(tmp_path: Path) -> Iterator[Wire]:
    w = Wire(tmp_path / "m.db")
    try:
        reply = w.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                         "clientInfo": {"name": "hostile", "version": "1"}}, timeout=120)
        assert "result" in reply, reply
        w.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        yield w
    finally:
        if w.proc.poll() is None:
            w.close()


@pytest.mark.parametrize(("arguments", "field"), [
    ({"content": "\ud800"}, "params.arguments.content"),
    ({"content": "fine", "session_id": "trip \udfff"}, "params.arguments.session_id"),
    ({"content": "fine", "\ud800": "x"}, 'params.arguments["\\ud800"]'),
])
def test_a_lone_surrogate_is_answered_with_an_error_naming_the_field(
        wire: Wire, tmp_path: Path, arguments: dict[str, Any], field: str) -> None:
    reply = wire.request("tools/call", {"name": "remember", "arguments": arguments})
    assert reply["error"]["code"] == -32602 and reply["error"]["message"].startswith(f"{field} is not valid Unicode")
    ok = wire.request("tools/call", {"name": "remember", "arguments": {"content": "The offsite is in Lisbon"}})
    assert ok["result"]["isError"] is False  # the server is still there and answering
    assert "refused an MCP message" in wire.close()  # and it said so on stderr
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as mem:
        assert mem.stats()["turns"] == 1


def test_lines_that_are_not_json_rpc_are_answered_too(wire: Wire) -> None:
    wire.send("this is not json")
    assert wire.answer() == {"jsonrpc": "2.0", "id": None,
                             "error": {"code": -32700, "message": "Parse error: the message is not JSON"}}
    wire.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"x": "\ud800"}}))
    reply = wire.request("tools/call", {"name": "recall", "arguments": {"query": "\ud800"}})  # next one: answered
    assert "params.arguments.query" in reply["error"]["message"]


# --- item 12, also seen: what the tools accept --------------------------------------------------------
@pytest.fixture
def tools(tmp_path: Path) -> Iterator[Any]:
    from episodic_memory.server.mcp_server import MemoryTools

    t = MemoryTools(Memory(tmp_path / "t.db", config=Config(models={"embedder": "off"})))
    yield t
    t.memory.close()


def _refused(tools: Any, tool: str, **arguments: Any) -> str:
    from mcp.server.mcpserver.exceptions import ToolError

    from episodic_memory.server.mcp_server import create_server

    with pytest.raises(ToolError) as caught:
        anyio.run(create_server(tools).call_tool, tool, arguments)
    return str(caught.value)


@pytest.mark.parametrize(("tool", "arguments", "field"), [
    ("recall", {"query": "Lisbon", "k": True}, "k"),
    ("judgment_search", {"query": "flaky", "top_k": True}, "top_k"),
    ("brief", {"hours": True}, "hours"),
    ("remember", {"content": ""}, "content"),
    ("remember", {"content": " \n "}, "content"),
    ("remember", {"content": "fine", "session_id": "s" * 100_000}, "session_id"),
    ("remember", {"content": "fine", "session_id": "a\x00b"}, "session_id"),
    ("forget", {"session_id": "s" * 100_000}, "session_id"),
    ("forget", {"session_id": "a\nb"}, "session_id"),
    ("judgment_verify", {"judgment_id": "j" * 100_000, "adopted": True}, "judgment_id"),
    ("judgment_store", {"trigger": "\ud800", "judgment": "j", "reasoning": "r"}, "trigger"),
])
def test_the_tools_refuse_what_no_door_accepts_by_name(tools: Any, tool: str, arguments: dict[str, Any],
                                                      field: str) -> None:
    assert field in _refused(tools, tool, **arguments)
    assert tools.memory.stats()["turns"] == 0 and not tools.default_session_used
