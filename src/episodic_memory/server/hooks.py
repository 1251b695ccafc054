"""``POST /v1/hooks/claude-code/{event}``: a coding agent's hook event, handled by the server's memory of the
token's user — the fast path of the Claude Code hooks (docs/hooks.md, "Faster: through a running server").

The body is what `claude_code_io.prepare` made on the harness's machine: the server reads no file a request
names.
"""

# no `from __future__ import annotations`: FastAPI reads the route's annotations, and the dependency they name is
# local to `add_hook_routes`

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from ..integrations.claude_code import handle

HookEvent = Literal["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd", "PreCompact"]


class HookIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    payload: dict[str, Any] = Field(description="the hook event's JSON, as the harness sent it on standard input")
    project: str | None = Field(None, description="the project (the repository of the event's cwd): the turns' source")
    state: dict[str, Any] = Field(default_factory=dict, description="the session's hook state, as last answered")
    entries: list[dict[str, Any]] = Field(
        default_factory=list, description="the transcript's new user and assistant lines (Stop, SessionEnd, PreCompact)")


def add_hook_routes(app: FastAPI, user: Callable[..., Awaitable[str]]) -> None:
    """Add the hook route to `app`; `user` is the dependency that gives the request's user id."""

    @app.post("/v1/hooks/claude-code/{event}", tags=["hooks"])
    def claude_code_hook(event: HookEvent, body: HookIn, request: Request,
                         user_id: Annotated[str, Depends(user)]) -> dict[str, Any]:
        """One Claude Code hook event: `{"output": …, "state": …}` — the hook's output (`{}`: print nothing) and
        the session's state to keep for its next event. SessionEnd and PreCompact return once the session is
        consolidated."""
        with request.app.state.pool.lease(user_id) as mem:
            output, state = handle(mem, event, body.model_dump())
        return {"output": output, "state": state}
