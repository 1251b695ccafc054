"""MCP over stdio, where every request gets an answer: the SDK's transport drops a line it cannot read (a lone
surrogate, which `json` reads but pydantic refuses; a line that is not JSON-RPC), and the client waits for its
timeout. Here such a line is answered with a JSON-RPC error naming what was wrong, and logged (never the
line).
"""

from __future__ import annotations

import json
import logging
from types import TracebackType
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

log = logging.getLogger(__name__)


async def serve_stdio(server: MCPServer) -> None:
    """`server.run("stdio")`, answering the requests the SDK would drop."""
    lowlevel = server._lowlevel_server  # as MCPServer.run_stdio_async does (mcp 2), around one read stream
    async with stdio_server() as (read_stream, write_stream):
        await lowlevel.run(_Answering(read_stream, write_stream), write_stream,
                           lowlevel.create_initialization_options())


def refusal(exc: Exception) -> JSONRPCError | None:
    """The answer to a line the transport could not read (`exc`, as it passes it on); None for a notification (no
    id to answer) or an error that is not about the line."""
    if not isinstance(exc, ValidationError):
        return None
    raw = exc.errors()[0].get("input") if exc.errors() else None
    try:
        message = json.loads(raw) if isinstance(raw, (str, bytes)) else raw
    except ValueError:
        return _error(None, PARSE_ERROR, "Parse error: the message is not JSON")
    request_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(message, dict) and "method" in message and "id" not in message:
        return None  # a notification: nothing to answer
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)) or _lone_surrogate(request_id):
        request_id = None
    where = _lone_surrogate(message)
    if where is not None:
        return _error(request_id, INVALID_PARAMS,
                      f"{where} is not valid Unicode text: it holds a lone surrogate (\\ud800-\\udfff without its "
                      "pair); send UTF-8 text")
    return _error(request_id, INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 message")


def _error(request_id: int | str | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


def _lone_surrogate(value: Any, where: str = "") -> str | None:
    """Where in a decoded JSON value a lone surrogate sits (``params.arguments.content``), or None."""
    if isinstance(value, str):
        return (where or "the message") if any("\ud800" <= c <= "\udfff" for c in value) else None
    items = (value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ())
    for key, item in items:
        if isinstance(key, int):
            name = f"{where}[{key}]"
        elif key.isidentifier():
            name = f"{where}.{key}" if where else key
        else:  # ASCII-escaped, so a key with a lone surrogate can still be named
            name = f"{where}[{json.dumps(key)}]"
        if isinstance(key, str) and _lone_surrogate(key):
            return name
        found = _lone_surrogate(item, name)
        if found is not None:
            return found
    return None


class _Answering:
    """The transport's read stream, answering (on the write stream) each request the transport could not read."""

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner = inner
        self._write = write

    @property
    def last_context(self) -> Any:  # the sender context the SDK's read loop restores
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            reply = refusal(item)
            log.warning("refused an MCP message that cannot be read (%s)",
                        reply.error.message if reply is not None else type(item).__name__)
            if reply is None:
                return item
            try:
                await self._write.send(SessionMessage(reply))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return item

    def __aiter__(self) -> _Answering:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _Answering:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.aclose()
