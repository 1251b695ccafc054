"""Browser sessions of the inspector: who is looking, and the anti-forgery token of their forms.

The cookie carries only a random session id, never the API token; only a successful login makes a session (the
login form's token is `LoginForms`' signed double-submit cookie). What is promised: docs/inspector.md, "Who
can see what", and docs/security.md, "Inspector: logins and forms".
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

COOKIE = "episodic_ui"
LOGIN_COOKIE = "episodic_login"   # the login form's nonce (path /login): see LoginForms


@dataclass
class BrowserSession:
    sid: str
    user_id: str | None               # None: not logged in yet (the login form's session)
    token_hash: str | None = None     # the API token it was opened with (None with auth off)
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    last_seen: float = field(default_factory=time.time)


class BrowserSessions:
    """Sessions by id, in memory: at most `max_sessions` (the least recently seen go first) and `per_user` of one
    user (that user's least recently seen go first), each ending after `idle_s` seconds unused. A server restart
    logs everyone out, which is the safe direction."""

    def __init__(self, idle_s: float = 12 * 3600, max_sessions: int = 10_000, per_user: int = 32) -> None:
        self.idle_s = idle_s
        self.max_sessions = max_sessions
        self.per_user = per_user
        self._sessions: OrderedDict[str, BrowserSession] = OrderedDict()
        self._lock = threading.Lock()

    def new(self, user_id: str | None, token_hash: str | None = None) -> BrowserSession:
        session = BrowserSession(secrets.token_urlsafe(32), user_id, token_hash)
        with self._lock:
            mine = [sid for sid, s in self._sessions.items() if s.user_id == user_id]  # least recently seen first
            for sid in mine[:max(0, len(mine) - self.per_user + 1)]:
                del self._sessions[sid]
            self._sessions[session.sid] = session
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
        return session

    def get(self, sid: str | None) -> BrowserSession | None:
        if not sid:
            return None
        now = time.time()
        with self._lock:
            session = self._sessions.get(sid)
            if session is None:
                return None
            if now - session.last_seen > self.idle_s:
                del self._sessions[sid]
                return None
            session.last_seen = now
            self._sessions.move_to_end(sid)
            return session

    def end(self, sid: str | None) -> None:
        with self._lock:
            self._sessions.pop(sid or "", None)

    def end_user(self, user_id: str) -> int:
        """End every browser session of `user_id` (after forgetting the user). Returns how many."""
        with self._lock:
            gone = [sid for sid, s in self._sessions.items() if s.user_id == user_id]
            for sid in gone:
                del self._sessions[sid]
        return len(gone)


@dataclass(frozen=True)
class SharedInspector:
    """What the processes of one server share for the inspector: the browser sessions' file and the login forms' key."""

    sessions_db: str
    login_key: bytes


class SharedBrowserSessions(BrowserSessions):
    """`BrowserSessions` kept in a SQLite file that every process of one `episodic serve --processes N` opens: a
    login made on one process is known to the others (the kernel hands each connection to any of them). Same
    bounds, same order of eviction (least recently seen first). The file is made by the supervisor in a folder of its
    own (`server/processes.py`) and removed with it: a restart still logs everyone out."""

    SCHEMA = ("CREATE TABLE IF NOT EXISTS browser_sessions (sid TEXT PRIMARY KEY, user_id TEXT, token_hash TEXT, "
              "csrf TEXT NOT NULL, last_seen REAL NOT NULL)")

    def __init__(self, path: str | Path, idle_s: float = 12 * 3600, max_sessions: int = 10_000,
                 per_user: int = 32) -> None:
        super().__init__(idle_s, max_sessions, per_user)
        # one connection, under the lock (pages are few); BEGIN IMMEDIATE orders the processes
        self._db = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
        with self._tx() as db:
            db.execute(self.SCHEMA)

    @classmethod
    def create(cls, path: str | Path) -> None:
        """Make the file (WAL: the processes' reads do not wait for a write)."""
        with sqlite3.connect(str(path), isolation_level=None) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(cls.SCHEMA)
        db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def new(self, user_id: str | None, token_hash: str | None = None) -> BrowserSession:
        session = BrowserSession(secrets.token_urlsafe(32), user_id, token_hash)
        with self._tx() as db:
            mine = [sid for (sid,) in db.execute("SELECT sid FROM browser_sessions WHERE user_id IS ? "
                                                 "ORDER BY last_seen, rowid", (user_id,))]
            db.executemany("DELETE FROM browser_sessions WHERE sid = ?",
                           [(sid,) for sid in mine[:max(0, len(mine) - self.per_user + 1)]])
            db.execute("INSERT INTO browser_sessions VALUES (?, ?, ?, ?, ?)",
                       (session.sid, user_id, token_hash, session.csrf, session.last_seen))
            db.execute("DELETE FROM browser_sessions WHERE sid IN (SELECT sid FROM browser_sessions "
                       "ORDER BY last_seen, rowid LIMIT max(0, (SELECT count(*) FROM browser_sessions) - ?))",
                       (self.max_sessions,))
        return session

    def get(self, sid: str | None) -> BrowserSession | None:
        if not sid:
            return None
        now = time.time()
        with self._tx() as db:
            row = db.execute("SELECT user_id, token_hash, csrf, last_seen FROM browser_sessions WHERE sid = ?",
                             (sid,)).fetchone()
            if row is None:
                return None
            if now - row[3] > self.idle_s:
                db.execute("DELETE FROM browser_sessions WHERE sid = ?", (sid,))
                return None
            db.execute("UPDATE browser_sessions SET last_seen = ? WHERE sid = ?", (now, sid))
        return BrowserSession(sid, row[0], row[1], row[2], now)

    def end(self, sid: str | None) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM browser_sessions WHERE sid = ?", (sid or "",))

    def end_user(self, user_id: str) -> int:
        with self._tx() as db:
            return db.execute("DELETE FROM browser_sessions WHERE user_id = ?", (user_id,)).rowcount


def csrf_ok(session: BrowserSession, sent: str | None) -> bool:
    return bool(sent) and secrets.compare_digest(session.csrf.encode(), (sent or "").encode())


class LoginForms:
    """The login form's anti-forgery token, kept by no one: a signed double-submit cookie (a random nonce in
    `LOGIN_COOKIE`, ``<issued>.<HMAC(key, nonce, issued)>`` in the form), good for `max_age_s`; the key is
    made at start (a restart voids open forms), or given (`key`: the one every process of one server signs with)."""

    def __init__(self, max_age_s: float = 3600.0, key: bytes | None = None) -> None:
        self.max_age_s = max_age_s
        self._key = key or secrets.token_bytes(32)

    def issue(self) -> tuple[str, str]:
        """(the cookie's nonce, the form's token)."""
        nonce, issued = secrets.token_urlsafe(24), str(int(time.time()))
        return nonce, f"{issued}.{self._sign(nonce, issued)}"

    def check(self, nonce: str | None, token: str | None) -> bool:
        issued, _, mac = (token or "").partition(".")
        if not nonce or not issued.isdigit() or not 0 <= time.time() - int(issued) <= self.max_age_s:
            return False
        return hmac.compare_digest(mac.encode("utf-8", "replace"), self._sign(nonce, issued).encode())

    def _sign(self, nonce: str, issued: str) -> str:
        message = f"{nonce}|{issued}".encode("utf-8", "replace")
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()
