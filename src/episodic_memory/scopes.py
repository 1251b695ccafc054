"""Agent scopes (issue 46): memory that belongs to an agent rather than to one user, stored under the owner
``agent:<name>``, a prefix no user id may take (README, "Agent scopes")."""

from __future__ import annotations

from collections.abc import Iterable

from .util import MAX_ID_CHARS, check_id

AGENT_PREFIX = "agent:"
USER_SCOPE = "user"


def check_user(value: object, name: str = "user_id") -> str:
    """A user id (`util.check_id`) that is not an agent scope's owner id."""
    uid = check_id(value, name)
    if uid.startswith(AGENT_PREFIX):
        raise ValueError(f"{name} {uid!r} starts with {AGENT_PREFIX!r}, which is reserved for agent scopes "
                         "(open the agent's scope with agent=NAME)")
    return uid


def check_agent(value: object, name: str = "agent") -> str:
    """An agent name: an id (`util.check_id`) short enough to stay one with the prefix."""
    agent = check_id(value, name)
    if agent == "*":
        raise ValueError(f"{name} '*' is not an agent name (it stands for every agent in a server's grants)")
    if len(AGENT_PREFIX) + len(agent) > MAX_ID_CHARS:
        raise ValueError(f"{name} is {len(agent)} characters long: at most {MAX_ID_CHARS - len(AGENT_PREFIX)}")
    return agent


def agent_owner(name: object) -> str:
    """The owner id an agent's memories are stored under."""
    return AGENT_PREFIX + check_agent(name)


def agent_of(owner: str) -> str | None:
    """The agent whose scope `owner` is; None for a user."""
    return owner[len(AGENT_PREFIX):] if owner.startswith(AGENT_PREFIX) else None


def scope_of(owner: str) -> str:
    """What a memory says of where it came from: ``"user"`` or ``"agent:<name>"``."""
    return owner if owner.startswith(AGENT_PREFIX) else USER_SCOPE


def check_agents(value: Iterable[str] | None, name: str = "agents") -> tuple[str, ...]:
    """Agent names as given, each once, in order; a bare string is refused (it would be a list of letters)."""
    if value is None:
        return ()
    if isinstance(value, str):
        raise TypeError(f"{name} must be a list of agent names, not a string: {name}=[{value!r}]")
    return tuple(dict.fromkeys(check_agent(v, name) for v in value))
