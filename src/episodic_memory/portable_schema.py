"""What each record of an export file may hold (`episodic_memory.portable`): a pydantic model per kind, every
field checked with the rules of the front doors (docs/security.md, "Import")."""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo

from .consolidate.fact_types import FACT_TYPES
from .util import MAX_INT, ROLES, check_id, check_tags, in_range

MAX_COUNT = 2**31 - 1  # PostgreSQL's `integer`: a count or position that either backend can hold


def _id(value: str) -> str:
    try:
        return check_id(_non_blank(value), "")
    except ValueError as exc:
        raise ValueError(str(exc).strip()) from None


def _time(value: float) -> float:
    if not in_range(value):
        raise ValueError(f"is not a time in seconds since 1970 (years 1–9999), got {value!r}")
    return float(value)


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError(f"must be a finite number, got {value!r}")
    return float(value)


def _non_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


def _text(value: str, info: ValidationInfo) -> str:
    limit = (info.context or {}).get("max_chars", MAX_INT)
    if len(value) > limit:
        raise ValueError(f"is {len(value):,} characters, over the limit of {limit:,} (Config.capture.max_turn_chars)")
    return value


def _flag(value: object) -> int:
    """0/1 (SQLite's booleans) or true/false."""
    if value in (0, 1) and isinstance(value, int):
        return int(value)
    raise ValueError(f"must be 0 or 1, got {json.dumps(value)[:60]}")


def _binary(value: object) -> bytes | None:
    """A binary column travels as {"base64": …}: float32 values, so a whole number of 4 bytes."""
    if value is None:
        return None
    if not (isinstance(value, dict) and set(value) == {"base64"} and isinstance(value["base64"], str)):
        raise ValueError('must be {"base64": "…"} or null')
    try:
        data = base64.b64decode(value["base64"], validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("is not valid base64") from None
    if len(data) % 4:
        raise ValueError(f"holds {len(data)} bytes: not a vector of 4-byte floats")
    return data


def _json_text(value: str, what: str, example: str) -> Any:
    """`value` parsed; JSON text that does not parse is refused as not JSON text of `what`."""
    try:
        return json.loads(value)
    except (json.JSONDecodeError, RecursionError):
        raise ValueError(f"must be JSON text of {what}, e.g. {example}") from None


def _tags(value: str | None) -> str | None:
    """A turn's tags as stored: JSON text of a list of non-blank strings (what `add_turn(tags=…)` keeps)."""
    if value is None:
        return None
    try:
        tags = check_tags(_json_text(value, "a list of strings", '"[\\"work\\"]"'), "tags")
    except TypeError:
        raise ValueError(f"must be JSON text of a list of strings, got {value[:60]!r}") from None
    return json.dumps(list(tags), ensure_ascii=False) if tags else None


def _keyphrase(value: list[Any]) -> list[Any]:
    """An episode's keyphrase: [phrase, key, score]."""
    if not (len(value) == 3 and isinstance(value[0], str) and isinstance(value[1], str)
            and isinstance(value[2], int | float) and not isinstance(value[2], bool) and math.isfinite(value[2])):
        raise ValueError(f"must be [phrase, key, score], got {json.dumps(value)[:60]}")
    return value


def _metadata(value: str | None) -> str | None:
    """A turn's metadata as stored: JSON text of an object (what `add_turn(metadata=…)` keeps), kept as it is."""
    if value is not None and not isinstance(_json_text(value, "an object", '"{\\"item\\": 1}"'), dict):
        raise ValueError(f"must be JSON text of an object, got {value[:60]!r}")
    return value


def _one_of(names: tuple[str, ...]) -> Callable[[str], str]:
    def check(value: str) -> str:
        if value not in names:
            raise ValueError(f"must be one of {', '.join(names)}, got {value[:60]!r}")
        return value
    return check


Id = Annotated[str, AfterValidator(_id)]
Time = Annotated[float, AfterValidator(_time)]
Number = Annotated[float, AfterValidator(_finite)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Positive = Annotated[int, Field(ge=1, le=MAX_COUNT)]
RowId = Annotated[int, Field(ge=0, le=MAX_INT)]
Name = Annotated[str, AfterValidator(_non_blank), AfterValidator(_text)]  # a short label: blank is refused
Text = Annotated[str, AfterValidator(_text)]  # free text, up to Config.capture.max_turn_chars
Flag = Annotated[int, BeforeValidator(_flag)]
Binary = Annotated[bytes | None, BeforeValidator(_binary)]
Tags = Annotated[str | None, AfterValidator(_tags)]
Metadata = Annotated[str | None, AfterValidator(_metadata)]
Role = Annotated[str, AfterValidator(_one_of(ROLES))]
FactType = Annotated[str, AfterValidator(_one_of(tuple(FACT_TYPES)))]


class _Record(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class SessionRecord(_Record):
    user_id: Id
    session_id: Id
    status: Literal["open", "ended"]
    created_at: Time
    updated_at: Time
    started_at: Time | None = None
    last_turn_at: Time | None = None
    ended_at: Time | None = None
    turn_count: Count = 0
    consolidated_turns: Count = 0
    needs_consolidation: Flag = 0
    lease_owner: Text | None = None
    lease_until: Time | None = None


class TurnRecord(_Record):
    id: RowId
    uid: Id
    user_id: Id
    session_id: Id
    seq: Count
    role: Role
    content: Text
    ts: Time
    ingested_at: Time
    speaker: Text | None = None
    turn_id: Text | None = None
    source: Name | None = None
    tags: Tags = None
    metadata: Metadata = None


class EntityRecord(_Record):
    id: RowId
    user_id: Id
    name: Name
    updated_at: Time
    profile: Text | None = None
    profile_facts: list[RowId] | None = None
    aliases: list[Name] = []


class FactRecord(_Record):
    id: RowId
    user_id: Id
    session_id: Id
    type: FactType
    text: Name
    route: Literal["durable", "episodic"]
    salience: Number
    confidence: Number
    created_at: Time
    valid_from: Time
    source_ids: list[RowId]
    origin: Name
    extractor: Name
    updated_at: Time
    recurrence: Positive = 1
    event_ts: Time | None = None
    valid_to: Time | None = None
    supersedes: RowId | None = None
    superseded_by: RowId | None = None
    pinned: Flag = 0
    entities: list[RowId] = []


class EntityEdgeRecord(_Record):
    a: RowId
    b: RowId
    weight: Count


class WorkstreamRecord(_Record):
    id: RowId
    user_id: Id
    name: Name
    created_at: Time
    updated_at: Time
    name_source: Name = "keyphrases"
    named_sessions: Count = 0
    status: Literal["hypothesis", "confirmed"] = "hypothesis"
    keyphrases: list[Text] = []
    centroid: Binary = None
    centroid_model: Name | None = None
    sessions: Count = 0
    first_activity: Time | None = None
    last_activity: Time | None = None


class EpisodeRecord(_Record):
    id: RowId
    user_id: Id
    session_id: Id
    summary: Text
    summarizer: Name
    source_ids: list[RowId]
    turns: Count
    created_at: Time
    updated_at: Time
    keyphrases: list[Annotated[list[Any], AfterValidator(_keyphrase)]] = []
    started_at: Time | None = None
    ended_at: Time | None = None
    vec: Binary = None
    vec_model: Name | None = None
    workstream_id: RowId | None = None
    terms: dict[Name, Number] = {}


class LoopRecord(_Record):
    id: RowId
    user_id: Id
    session_id: Id
    text: Name
    detector: Name
    source_ids: list[RowId]
    origin: Name
    created_at: Time
    last_mentioned: Time
    updated_at: Time
    workstream_id: RowId | None = None
    due: Text | None = None
    status: Literal["open", "closed"] = "open"
    mentions: Positive = 1
    closed_at: Time | None = None
    closed_session: Id | None = None
    closed_by: Name | None = None
    evidence: Text | None = None
    evidence_ids: list[RowId] | None = None
    note: Text | None = None


class Verdict(_Record):
    adopted: bool
    ts: Time
    correction: Text | None = None


class JudgmentRecord(_Record):
    id: RowId
    memory_id: Id
    user_id: Id
    trigger: Name
    judgment: Name
    reasoning: Name
    dedup_key: Name
    created_at: Time
    updated_at: Time
    domain: Name | None = None
    metadata: dict[str, Any] = {}
    stored: Positive = 1
    verdicts: list[Verdict] = []


class RouteCountRecord(_Record):
    user_id: Id
    route: Name
    n: Count


MODELS: dict[str, type[_Record]] = {
    "session": SessionRecord, "turn": TurnRecord, "entity": EntityRecord, "fact": FactRecord,
    "entity_edge": EntityEdgeRecord, "workstream": WorkstreamRecord, "episode": EpisodeRecord, "loop": LoopRecord,
    "judgment": JudgmentRecord, "route_count": RouteCountRecord,
}
