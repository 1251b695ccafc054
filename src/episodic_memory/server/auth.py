"""Who a REST request acts for: its bearer token's user, settled before the request may wait for a place.

`TokenAuth` is Starlette's `AuthenticationMiddleware` backend: a missing, unknown or revoked token gets 401 at
once, looked up on threads of its own (`ServerLimits.auth_threads`); docs/security.md, "Auth" and "Limits".
The user lands in ``scope["user"]``, the agent scopes the token may use in ``scope["auth"].scopes``.
"""

from __future__ import annotations

from collections.abc import Iterable

import anyio
from starlette.authentication import AuthCredentials, AuthenticationBackend, AuthenticationError, SimpleUser
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response

from .tokens import TokenStore

OPEN_PATHS = frozenset({"/v1/health"})
READ_ANY, WRITE_ANY = "read:*", "write:*"   # auth off: the one local user reads and writes every agent
MISSING = "missing bearer token"
INVALID = "invalid or revoked token"


class TokenAuth(AuthenticationBackend):
    def __init__(self, tokens: TokenStore | None, user_id: str, threads: int) -> None:
        self.tokens = tokens
        self.user_id = user_id
        self.limiter = anyio.CapacityLimiter(threads)

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, SimpleUser] | None:
        if self.tokens is None:
            return AuthCredentials(["user", READ_ANY, WRITE_ANY]), SimpleUser(self.user_id)
        path = conn.scope.get("path", "")
        if not path.startswith("/v1/") or path in OPEN_PATHS:
            return None   # the inspector's pages have their own login (ui/sessions.py); /docs is public
        scheme, _, token = conn.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise AuthenticationError(MISSING)
        record = await anyio.to_thread.run_sync(self.tokens.record_for, token.strip(), limiter=self.limiter)
        if record is None:
            raise AuthenticationError(INVALID)
        return AuthCredentials(grants(record.read_agents, record.write_agents)), SimpleUser(record.user_id)


def grants(read_agents: Iterable[str], write_agents: Iterable[str]) -> list[str]:
    """A token's credentials: ``user``, then ``read:<agent>`` and ``write:<agent>`` for its agent scopes."""
    return ["user", *(f"read:{a}" for a in read_agents), *(f"write:{a}" for a in write_agents)]


def may(credentials: Iterable[str], agent: str, *, write: bool) -> bool:
    """Whether credentials (`grants`) allow reading (or writing) an agent's scope; writing allows reading."""
    held = set(credentials)
    if WRITE_ANY in held or f"write:{agent}" in held:
        return True
    return not write and (READ_ANY in held or f"read:{agent}" in held)


def refused(_: HTTPConnection, exc: AuthenticationError) -> Response:
    """The 401 (the connection closes: a body the caller may still be sending is never read)."""
    challenge = "Bearer" if str(exc) == MISSING else 'Bearer error="invalid_token"'
    return JSONResponse({"detail": str(exc)}, status_code=401,
                        headers={"WWW-Authenticate": challenge, "Connection": "close"})
