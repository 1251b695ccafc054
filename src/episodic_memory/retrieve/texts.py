"""What each kind of memory is embedded as (the text its vector is made from)."""

from __future__ import annotations

from ..store.records import StoredTurn


def turn_text(turn: StoredTurn) -> str:
    return f"{turn.speaker}: {turn.content}" if turn.speaker else turn.content


def embedding_text(turn: StoredTurn, previous: StoredTurn | None = None, context_chars: int = 200,
                   short_turn_chars: int = 300) -> str:
    """What a turn is embedded as: its speaker (so "what did Caroline say" finds her turns) and, in a quick
    exchange of short turns, after the start of another party's turn before it (docs/retrieval.md)."""
    text = turn_text(turn)
    if (previous is None or len(turn.content) >= short_turn_chars or len(previous.content) >= short_turn_chars
            or (previous.role, previous.speaker) == (turn.role, turn.speaker)):
        return text
    return f"{turn_text(previous)[:context_chars]}\n{text}"


def judgment_embedding_text(trigger: str, judgment: str) -> str:
    """The situation and the decision. Reasoning is left out of the vector (it is in the BM25 text): it is
    long and general ("this caused outages before"), so it pulls judgments of unlike situations together."""
    return f"{trigger}\n{judgment}"
