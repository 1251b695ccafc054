"""A scripted HTTP server on 127.0.0.1 standing in for the Anthropic and OpenAI-compatible APIs in tests.

`server.script(Reply(...), ...)` queues replies, served in order (the last one repeats), or `server.responder`
answers each request from its content (recorded replies chosen by what is asked); every request is kept in
`server.requests`, with the client port it came from (`server.connections`: the distinct ones). Connections are
kept alive (HTTP/1.1), as real APIs keep them. Nothing here reaches past loopback.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted response: a dict/list body is sent as JSON, a str/bytes body as is; `delay` seconds first."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    port: int = 0  # the client's port: one per TCP connection


def anthropic_reply(*texts: str, stop_reason: str = "end_turn", usage: tuple[int, int] | None = (11, 7)) -> Reply:
    """A Messages API success: one text block per text."""
    body: dict[str, Any] = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
                            "content": [{"type": "text", "text": t} for t in texts], "stop_reason": stop_reason}
    if usage:
        body["usage"] = {"input_tokens": usage[0], "output_tokens": usage[1]}
    return Reply(body=body)


def openai_reply(content: Any, *, finish_reason: str = "stop", usage: tuple[int, int] | None = (13, 5),
                 refusal: str | None = None) -> Reply:
    """A Chat Completions success with one choice."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if refusal is not None:
        message["refusal"] = refusal
    body: dict[str, Any] = {"id": "chatcmpl-1", "object": "chat.completion",
                            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}]}
    if usage:
        body["usage"] = {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                         "total_tokens": usage[0] + usage[1]}
    return Reply(body=body)


class FakeLLMServer:
    """A threaded HTTP server on a free loopback port; use as a context manager."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self._queue: list[Reply] = [Reply(500, {"error": {"message": "nothing scripted"}})]
        self.responder: Callable[[Request], Reply] | None = None   # when set, it answers instead of the queue
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def connections(self) -> list[int]:
        """The client ports requests came from, each once, in order: how many TCP connections were used."""
        with self._lock:
            return list(dict.fromkeys(r.port for r in self.requests))

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._queue = list(replies)

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self.responder is None:
                return self._queue.pop(0) if len(self._queue) > 1 else self._queue[0]
        return self.responder(request)

    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()  # wakes handlers sleeping on a slow reply
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive: a client may send its next request on the same connection

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    body: Any = json.loads(raw)
                except ValueError:
                    body = raw
                reply = server._next(Request("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body,
                                             self.client_address[1]))
                if reply.delay and server._stopping.wait(reply.delay):
                    self.close_connection = True
                    return
                if isinstance(reply.body, (dict, list)):
                    payload, ctype = json.dumps(reply.body).encode(), "application/json"
                else:
                    payload = reply.body.encode() if isinstance(reply.body, str) else (reply.body or b"")
                    ctype = "text/plain"
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", reply.headers.get("content-type", ctype))
                    self.send_header("content-length", str(len(payload)))
                    for key, value in reply.headers.items():
                        if key.lower() != "content-type":
                            self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                    self.close_connection = True

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                pass

        return Handler
