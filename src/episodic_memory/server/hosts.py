"""Which Host headers the REST server answers (421 for any other): the guard against DNS rebinding (issue 41).

The rule, and why it is on with auth too: docs/security.md, "Allowed hosts: 421".
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from .limits import send_json

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def split_host(value: str) -> tuple[str, int | None]:
    """``"[::1]:8765"`` → ``("::1", 8765)``; ``"Example.org"`` → ``("example.org", None)``. A port that is not a
    number gives port -1 (matching nothing)."""
    value = value.strip().lower()
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else None
    elif value.count(":") == 1:
        host, _, port_text = value.partition(":")
    else:
        host, port_text = value, None   # no port (or a bare IPv6 address)
    if port_text is None:
        return host, None
    return host, int(port_text) if port_text.isdigit() else -1


def is_loopback(host: str) -> bool:
    """Whether `host` (a name, an address, an IPv6 address in brackets) is this machine's loopback."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class AllowedHosts:
    """ASGI middleware: 421 for a request whose Host is not served here (see the module's docstring)."""

    def __init__(self, app: Callable[..., Awaitable[None]], allowed: Sequence[str] = ()) -> None:
        self.app = app
        self.any_host = "*" in allowed
        self.names = {split_host(a) for a in allowed if a != "*"}

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[dict[str, Any]]],
                       send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] not in ("http", "websocket") or self.any_host:
            await self.app(scope, receive, send)
            return
        raw = dict(scope.get("headers") or []).get(b"host")
        host = raw.decode("latin-1") if raw is not None else None
        if host is not None and self.allows(host, scope.get("server")):
            await self.app(scope, receive, send)
            return
        await send_json(send, 421, {"detail": f"this server does not answer for Host {host!r}: name it in "
                                              "--allowed-host (Config.server.allowed_hosts) if it is yours"})

    def allows(self, host_header: str, server: Sequence[Any] | None) -> bool:
        name, port = split_host(host_header)
        if (name, None) in self.names or (name, port) in self.names:
            return True
        if not server or not server[0]:
            return False
        address, local_port = str(server[0]).lower(), server[1]
        if port is not None and port != local_port:
            return False
        return name == address or (is_loopback(address) and name in LOOPBACK_NAMES)
