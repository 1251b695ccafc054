"""The REST server and the inspector under attack (issue 41, items 1, 2, 9, 10, 13 and 15): real `episodic serve`
processes on free loopback ports, driven by raw sockets and httpx as an attacker would; in-process checks for the
rest. What the server promises: docs/security.md."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urljoin

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from fastapi.testclient import TestClient  # noqa: E402

from episodic_memory import Config, Memory  # noqa: E402
from episodic_memory.server.hosts import AllowedHosts, split_host  # noqa: E402
from episodic_memory.server.rest import create_app  # noqa: E402
from episodic_memory.server.tokens import TokenStore  # noqa: E402
from episodic_memory.server.ui.pages import url_part  # noqa: E402
from episodic_memory.server.ui.sessions import BrowserSessions, LoginForms  # noqa: E402

from .test_rest import serving  # noqa: E402
from .test_serve_stop import free_port, wait_until  # noqa: E402

pytestmark = [pytest.mark.skipif(os.name != "posix", reason="child server processes"),
              pytest.mark.sqlite_only("runs `episodic serve` processes on a SQLite file")]

SRC = str(Path(__file__).resolve().parents[1] / "src")
HOSTILE_ID = "../loops/{loop}/close?"     # an imported judgment id aimed at another form's action
BODY_TIMEOUT_S = 3


@dataclass
class Served:
    url: str
    port: int
    db: Path
    tokens: dict[str, str]
    loop_id: int = 0
    judgment_id: str = ""

    def client(self, user: str | None = None, **kw: object) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.tokens[user]}"} if user else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=kw.pop("timeout", 10), **kw)  # type: ignore[arg-type]


def _serve(db: Path, *args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("EPISODIC_", "ANTHROPIC_", "OPENAI_"))}
    clean.update(PYTHONPATH=SRC, EPISODIC_MODELS__EMBEDDER="off", EPISODIC_LLM__BACKEND="none", **(env or {}))
    proc = subprocess.Popen([sys.executable, "-m", "episodic_memory.cli", "serve", "--port", str(port), "--db",
                             str(db), *args], env=clean, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)

    def up() -> bool:
        assert proc.poll() is None, "the server process ended"
        try:
            return httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(up, 60, "the server to start")
    except BaseException:
        proc.kill()
        raise
    return proc, port


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`episodic serve` with tokens for alice and bob, 4 request threads, one heavy place, a 3 s body deadline and
    room for 5 inspector logins; alice has an open loop and a judgment whose id aims at that loop's close form."""
    db = tmp_path_factory.mktemp("guarded") / "m.db"
    tokens = TokenStore.open(db)
    secrets = {user: tokens.create(user)[0] for user in ("alice", "bob")}
    tokens.close()
    with Memory(db, user_id="alice", config=Config(models={"embedder": "off"}, llm={"backend": "none"})) as mem:
        loop_id = mem.add_loop("send the deck to Priya").id
        stored = mem.judgments.store("a flaky test blocks the release", "quarantine it", "unblocks everyone")
    hostile = HOSTILE_ID.format(loop=loop_id)
    with sqlite3.connect(db) as raw:  # as an import (that did not check ids yet) would have stored it
        assert raw.execute("UPDATE judgments SET memory_id = ? WHERE memory_id = ?", (hostile, stored)).rowcount == 1
    proc, port = _serve(db, "--threads", "4", env={"EPISODIC_SERVER__HEAVY_RUNNING": "1",
                                                  "EPISODIC_SERVER__BODY_TIMEOUT_S": str(BODY_TIMEOUT_S),
                                                  "EPISODIC_SERVER__UI_MAX_SESSIONS": "5"})
    try:
        yield Served(f"http://127.0.0.1:{port}", port, db, secrets, loop_id, hostile)
    finally:
        _stop(proc)


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`episodic serve --no-auth`, one stored turn."""
    db = tmp_path_factory.mktemp("open") / "m.db"
    with Memory(db, config=Config(models={"embedder": "off"}, llm={"backend": "none"})) as mem:
        mem.add_turn("user", "the launch code is 0000", session_id="s1")
    proc, port = _serve(db, "--no-auth")
    try:
        yield Served(f"http://127.0.0.1:{port}", port, db, {})
    finally:
        _stop(proc)


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "no anti-forgery token on the page"
    return found.group(1)


def _log_in(served: Served, user: str) -> httpx.Client:
    browser = httpx.Client(base_url=served.url, timeout=10)
    page = browser.get("/login")
    done = browser.post("/login", data={"token": served.tokens[user], "csrf": _csrf(page.text), "next": "/"})
    assert done.status_code == 303 and done.headers["location"] == "/", done.text
    return browser


# --- item 1: the Host header (DNS rebinding) ------------------------------------------------------------------

def test_a_foreign_host_gets_421_from_a_no_auth_server(open_server: Served) -> None:
    port = open_server.port
    with open_server.client() as http:
        foreign = {"Host": f"attacker.example:{port}"}
        refused = http.get("/v1/recall", params={"q": "launch code"}, headers=foreign)
        assert refused.status_code == 421 and "0000" not in refused.text
        assert "--allowed-host" in refused.json()["detail"]
        # the inspector gives a rebinding page neither a session nor an anti-forgery token, and forgets nothing
        login = http.get("/login", headers=foreign)
        assert login.status_code == 421 and "episodic_ui" not in login.headers.get("set-cookie", "")
        assert http.post("/forget", data={"target": "everything", "confirm": "default"},
                         headers=foreign).status_code == 421
        assert http.get("/v1/recall", params={"q": "x"}, headers={"Host": f"localhost:{port + 1}"}).status_code == 421
        for name in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}"):
            answered = http.get("/v1/recall", params={"q": "launch code"}, headers={"Host": name})
            assert answered.status_code == 200 and "0000" in answered.text, name
        assert http.get("/v1/stats").json()["turns"] == 1  # nothing was forgotten


def test_a_foreign_host_gets_421_with_auth_too(guarded: Served) -> None:
    with guarded.client("alice") as alice:
        assert alice.get("/v1/stats", headers={"Host": f"attacker.example:{guarded.port}"}).status_code == 421
        assert alice.get("/v1/stats").status_code == 200


def test_allowed_hosts_are_configurable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert split_host("[::1]:8765") == ("::1", 8765) and split_host("Example.ORG") == ("example.org", None)
    assert split_host("a.example:x") == ("a.example", -1)
    monkeypatch.setenv("EPISODIC_SERVER__ALLOWED_HOSTS", "memory.example, b.example:8443")
    assert Config.from_env().server.allowed_hosts == ["memory.example", "b.example:8443"]
    gate = AllowedHosts(lambda *a: None, ["memory.example", "b.example:8443"])
    server = ("127.0.0.1", 8765)
    assert gate.allows("memory.example", server) and gate.allows("memory.example:443", server)
    assert gate.allows("b.example:8443", server) and not gate.allows("b.example:8444", server)
    assert gate.allows("127.0.0.1:8765", server) and gate.allows("localhost", server)
    assert not gate.allows("evil.example:8765", server) and not gate.allows("127.0.0.1:8766", server)
    assert not gate.allows("localhost:8765", ("192.168.1.5", 8765))  # loopback names only on loopback
    assert gate.allows("192.168.1.5:8765", ("192.168.1.5", 8765))
    app = create_app(tmp_path / "m.db", auth=False, config=Config(models={"embedder": "off"}),
                     allowed_hosts=["memory.example"])
    with TestClient(app, base_url="http://127.0.0.1:8765") as http:
        assert http.get("/v1/stats", headers={"host": "memory.example"}).status_code == 200
        assert http.get("/v1/stats", headers={"host": "evil.example"}).status_code == 421
        assert http.get("/v1/health", headers={"host": "evil.example"}).status_code == 421
    app = create_app(tmp_path / "m.db", auth=False, config=Config(models={"embedder": "off"}), allowed_hosts=["*"])
    with TestClient(app, base_url="http://127.0.0.1:8765") as http:
        assert http.get("/v1/stats", headers={"host": "anything.example"}).status_code == 200


# --- item 2: junk tokens and slow bodies ----------------------------------------------------------------------

def _open(port: int, head: str, first: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=15)
    sock.sendall(head.encode() + first)
    return sock


def _answer(sock: socket.socket, seconds: float) -> str:
    """The status line of what the server sent on `sock` within `seconds` ('' if nothing)."""
    sock.settimeout(seconds)
    try:
        data = sock.recv(4096)
    except TimeoutError:
        return ""
    return data.split(b"\r\n", 1)[0].decode()


def test_junk_tokens_and_slow_bodies_cannot_stall_the_server(guarded: Served) -> None:
    port = guarded.port
    head = ("POST /v1/turns HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
            "Content-Type: application/json\r\n{length}\r\n")
    junk = [_open(port, head.format(port=port, token=f"junk-{i}", length="Content-Length: 1000\r\n"), b'{"ro')
            for i in range(9)]
    slow = _open(port, head.format(port=port, token=guarded.tokens["alice"], length="Transfer-Encoding: chunked\r\n"),
                 b"4\r\n{\"ro\r\n")   # alice's own chunked body, sent slowly: it holds no place meanwhile
    try:
        started = time.monotonic()
        with guarded.client("bob", timeout=5) as bob:
            assert bob.get("/v1/stats").status_code == 200
            big = {"role": "user", "content": "word " * 14_000, "session_id": "big"}  # 70 kB: a heavy request
            assert bob.post("/v1/turns", json=big).status_code == 201
        assert time.monotonic() - started < 5
        for sock in junk:  # every junk token was refused at once, its body never read
            assert _answer(sock, 5).startswith("HTTP/1.1 401"), "a junk token was not refused"
        assert _answer(slow, BODY_TIMEOUT_S + 5).startswith("HTTP/1.1 408")
        assert time.monotonic() - started >= BODY_TIMEOUT_S - 0.5
        with guarded.client("alice", timeout=5) as alice:  # alice's place was given back
            assert alice.post("/v1/turns", json={"role": "user", "content": "quick", "session_id": "q"}
                              ).status_code == 201
            assert "slow" not in [s["session_id"] for s in alice.get("/v1/sessions").json()["sessions"]]
    finally:
        for sock in [*junk, slow]:
            sock.close()


# --- item 9: ids in the inspector's URLs ----------------------------------------------------------------------

def test_a_hostile_judgment_id_cannot_aim_a_form_at_another_action(guarded: Served) -> None:
    with closing(_log_in(guarded, "alice")) as browser, guarded.client("alice") as api:
        page = browser.get("/judgments")
        actions = re.findall(r'action="([^"]*)"', page.text)
        adopted = next(a for a in actions if a.startswith("/judgments/"))
        target = urljoin(page.url.raw_path.decode(), adopted)   # as a browser resolves it
        done = browser.post(target, data={"csrf": _csrf(page.text), "adopted": "true"})  # the "Adopted" button
        assert [lp["id"] for lp in api.get("/v1/loops").json()["loops"]] == [guarded.loop_id]  # still open
        assert done.status_code == 303 and done.headers["location"] == "/judgments"
        assert adopted == f"/judgments/{quote(guarded.judgment_id, safe='')}/verify"
        judgment = api.get(f"/v1/judgments/{quote(guarded.judgment_id, safe='')}")
        assert judgment.status_code == 200 and judgment.json()["adopted"] == 1


def test_the_url_filter_keeps_every_id_one_segment() -> None:
    assert url_part("../loops/1/close?") == "..%2Floops%2F1%2Fclose%3F"
    assert url_part("a#b%c d") == "a%23b%25c%20d"
    assert url_part("..") == "%2E%2E" and url_part(".") == "%2E" and url_part(7) == "7"


# --- item 10: no one logs anyone else out ---------------------------------------------------------------------

def test_anonymous_login_pages_log_no_one_out(guarded: Served) -> None:
    with closing(_log_in(guarded, "alice")) as alice, httpx.Client(base_url=guarded.url, timeout=10) as stranger:
        for _ in range(20):  # the server keeps 5 logins here: each of these would have pushed one out
            page = stranger.get("/login")
            assert page.status_code == 200 and "episodic_ui" not in page.headers.get("set-cookie", "")
        assert alice.get("/").status_code == 200
        # a link to /login (another site's, say) keeps alice's session and sends her home
        again = alice.get("/login")
        assert again.status_code == 303 and again.headers["location"] == "/"
        assert "episodic_ui" not in again.headers.get("set-cookie", "")
        assert alice.get("/").status_code == 200
        # a login form's token is good only with the cookie it came with
        form = stranger.get("/login")
        forged = httpx.post(guarded.url + "/login", data={"token": guarded.tokens["bob"], "csrf": _csrf(form.text),
                                                          "next": "/"})
        assert forged.status_code == 303 and forged.headers["location"].startswith("/login")
        assert "episodic_ui" not in forged.headers.get("set-cookie", "")


def test_one_users_logins_cannot_push_out_another_users() -> None:
    sessions = BrowserSessions(max_sessions=10, per_user=2)
    bob = sessions.new("bob", "h")
    alice = [sessions.new("alice", "h") for _ in range(30)]
    assert sessions.get(bob.sid) is bob
    assert [sessions.get(s.sid) is not None for s in alice[-3:]] == [False, True, True]
    forms = LoginForms(max_age_s=60)
    nonce, token = forms.issue()
    assert forms.check(nonce, token)
    assert not forms.check("another", token) and not forms.check(nonce, token + "0") and not forms.check(None, token)
    assert not LoginForms().check(nonce, token)  # another server's key


# --- item 13: every stored session id routes; one id, one turn ------------------------------------------------

def _path_id(value: str) -> str:
    return url_part(value)


@pytest.fixture()
def http(tmp_path: Path) -> Iterator[httpx.Client]:
    """A no-auth app under uvicorn (TestClient decodes a path twice: `%2520` would reach the app as a space)."""
    app = create_app(tmp_path / "m.db", auth=False, config=Config(models={"embedder": "off"}, llm={"backend": "none"}))
    with serving(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        yield client


@pytest.mark.parametrize("session_id", ["conv-1/session_2", "a/b", ".", "..", "x/turns", "q?x=1#f%20"])
def test_every_stored_session_id_routes(http: httpx.Client, session_id: str) -> None:
    assert http.post("/v1/turns", json={"role": "user", "content": "hello there", "session_id": session_id,
                                        "id": "t1"}).status_code == 201
    turns = http.get(f"/v1/sessions/{_path_id(session_id)}/turns")
    assert turns.status_code == 200, turns.text
    assert turns.json()["session_id"] == session_id and [t["id"] for t in turns.json()["turns"]] == ["t1"]
    ended = http.post(f"/v1/sessions/{_path_id(session_id)}/end")
    assert ended.status_code == 200 and ended.json()["session_id"] == session_id


@pytest.mark.parametrize("bad", ["a\x00b", "line\nbreak", "tab\there", "\x85", " ", "x" * 257])
def test_an_id_with_a_control_character_is_a_422(http: httpx.Client, bad: str) -> None:
    for field in ("session_id", "id", "source"):
        turn = {"role": "user", "content": "hi", "session_id": "s1", field: bad}
        assert http.post("/v1/turns", json=turn).status_code == 422, (field, bad)
    assert http.get(f"/v1/sessions/{quote(bad, safe='')}/turns").status_code in (404, 422)
    assert http.get("/v1/sessions").json()["sessions"] == []


def test_one_turn_id_names_one_turn_in_its_session(http: httpx.Client) -> None:
    turn = {"role": "user", "content": "the deck needs 14 slides", "session_id": "s1", "id": "t1"}
    assert http.post("/v1/turns", json=turn).status_code == 201
    assert http.post("/v1/turns", json=turn).status_code == 201          # sent again: stored once
    reused = http.post("/v1/turns", json={**turn, "content": "something else"})
    assert reused.status_code == 409 and "t1" in reused.json()["detail"]
    batch = http.post("/v1/turns/batch", json={"turns": [
        {**turn, "id": "t2", "content": "one"}, {**turn, "id": "t2", "content": "two"}]})
    assert batch.status_code == 409
    assert [t["content"] for t in http.get("/v1/sessions/s1/turns").json()["turns"]] == ["the deck needs 14 slides"]
    assert http.post("/v1/turns", json={**turn, "session_id": "s2", "content": "other"}).status_code == 201


# --- item 15: what /v1/stats tells ----------------------------------------------------------------------------

def test_stats_show_no_paths_or_file_size_to_a_token(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    tokens = TokenStore.open(db)
    alice, bob = tokens.create("alice")[0], tokens.create("bob")[0]
    tokens.close()
    with TestClient(create_app(db, config=Config(models={"embedder": "off"}, llm={"backend": "none"}))) as http:
        before = http.get("/v1/stats", headers={"Authorization": f"Bearer {alice}"}).json()
        assert not {"db", "journal", "file_bytes"} & before.keys() and str(tmp_path) not in str(before)
        assert http.post("/v1/turns", headers={"Authorization": f"Bearer {bob}"},
                         json={"role": "user", "content": "bob writes " * 2000, "session_id": "b"}).status_code == 201
        after = http.get("/v1/stats", headers={"Authorization": f"Bearer {alice}"}).json()
        assert after == before   # bob's write shows nowhere in alice's figures
    with TestClient(create_app(db, auth=False, config=Config(models={"embedder": "off"}, llm={"backend": "none"}))) as http:
        local = http.get("/v1/stats").json()   # auth off: the file's one local user sees where it is
        assert local["db"] == str(db) and local["file_bytes"] > 0
