"""Plain records passed between the layers and returned by the store (no SQL, no I/O)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ..util import to_iso

if TYPE_CHECKING:  # numpy is imported by what uses these columns: opening a store does not need it
    import numpy as np


@dataclass(frozen=True)
class TurnRecord:
    """One conversation turn as journaled and stored."""

    uid: str                     # the journal record's id: replaying a journal is idempotent on it
    user_id: str
    session_id: str
    seq: int                     # order within the session
    role: str
    content: str
    ts: float                    # when the turn happened (UTC epoch seconds)
    ingested_at: float           # when it was journaled
    speaker: str | None = None
    turn_id: str | None = None   # the caller's own id
    source: str | None = None
    tags: tuple[str, ...] | None = None
    metadata: str | None = None  # a JSON object's text, exactly as it is stored

    def to_json(self) -> dict[str, Any]:
        """A journal line: `source`, `tags` and `metadata` only when set (a plain turn's line is as before they
        existed)."""
        data = asdict(self)
        for key in ("source", "tags", "metadata"):
            if not data[key]:
                del data[key]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnRecord:
        fields = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        if fields.get("tags") is not None:
            fields["tags"] = tuple(fields["tags"])
        return cls(**fields)


@dataclass
class StoredTurn:
    """A turn read back from the store."""

    id: int
    user_id: str
    session_id: str
    seq: int
    role: str
    content: str
    ts: float
    ingested_at: float
    speaker: str | None
    turn_id: str | None
    source: str | None = None
    tags: list[str] = field(default_factory=list)
    metadata: dict[str, Any] | None = None  # what the caller kept with the turn (`add_turn(metadata=…)`)

    @property
    def source_id(self) -> str:
        """The caller's id, or the internal one when the caller gave none."""
        return self.turn_id if self.turn_id is not None else str(self.id)


@dataclass
class SessionInfo:
    user_id: str
    session_id: str
    status: str
    started_at: float | None
    last_turn_at: float | None
    turn_count: int
    consolidated_turns: int
    needs_consolidation: bool
    ended_at: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "session_id": self.session_id,
            "status": self.status,
            "started_at": to_iso(self.started_at),
            "last_turn_at": to_iso(self.last_turn_at),
            "ended_at": to_iso(self.ended_at),
            "turns": self.turn_count,
            "consolidated_turns": self.consolidated_turns,
            "needs_consolidation": self.needs_consolidation,
        }


# --- turn heads (what ranking reads of many turns) -------------------------------------------------

@dataclass
class HeadColumns:
    """Heads of some turns, one row per turn found (`ids`), in the order asked."""

    found: np.ndarray          # bool per id asked: is it among `ids`
    ids: np.ndarray            # int64 turn ids
    sessions: np.ndarray       # int32 codes: `HeadTable.session_names[code]`
    seqs: np.ndarray           # int64 position in the session
    speakers: np.ndarray       # int32 codes: `HeadTable.speaker_names[code]`, −1 for none
    ts: np.ndarray             # float64 epoch seconds
    session_names: list[str]   # what the session codes stand for
    speaker_names: list[str]   # what the speaker codes stand for

    def session_ids(self) -> list[str]:
        return [self.session_names[code] for code in self.sessions.tolist()]

    def speaker_of(self) -> dict[int, str | None]:
        """Turn id -> its speaker's name (None: no speaker)."""
        names = self.speaker_names
        return {i: (names[code] if code >= 0 else None)
                for i, code in zip(self.ids.tolist(), self.speakers.tolist(), strict=True)}


# --- facts and entities ------------------------------------------------------------------------------

@dataclass
class Fact:
    id: int
    user_id: str
    session_id: str
    type: str
    text: str
    route: str                  # durable | episodic
    salience: float
    confidence: float
    recurrence: int
    event_ts: float | None
    created_at: float
    valid_from: float
    valid_to: float | None      # None while current
    supersedes: int | None
    superseded_by: int | None
    source_ids: list[int]       # turn row ids
    extractor: str
    entities: list[str] = field(default_factory=list)

    @property
    def current(self) -> bool:
        return self.valid_to is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "type": self.type, "text": self.text, "route": self.route,
            "salience": round(self.salience, 3), "confidence": round(self.confidence, 3),
            "recurrence": self.recurrence, "session_id": self.session_id,
            "event_time": to_iso(self.event_ts), "created_at": to_iso(self.created_at),
            "valid_from": to_iso(self.valid_from), "valid_to": to_iso(self.valid_to),
            "supersedes": self.supersedes, "superseded_by": self.superseded_by,
            "source_turns": list(self.source_ids), "entities": list(self.entities), "extractor": self.extractor,
        }


@dataclass
class NewFact:
    user_id: str
    session_id: str
    type: str
    text: str
    route: str
    salience: float
    confidence: float
    event_ts: float | None
    created_at: float
    source_ids: list[int]
    origin: str
    extractor: str


@dataclass
class Entity:
    id: int
    name: str
    aliases: list[str]
    facts: int
    profile: str | None
    related: list[tuple[str, int]] = field(default_factory=list)  # (name, facts naming both)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "aliases": self.aliases, "facts": self.facts,
                "profile": self.profile, "related": [{"name": n, "weight": w} for n, w in self.related]}


# --- episodes, workstreams, open loops ------------------------------------------------------------

LOOP_STATUSES = ("open", "closed", "all")


@dataclass
class Episode:
    """One session in 1-3 sentences, with the facts extracted from it."""

    id: int
    user_id: str
    session_id: str
    summary: str
    summarizer: str                 # llm | extractive
    keyphrases: list[str]
    source_ids: list[int]           # turn row ids the summary rests on
    turns: int
    started_at: float | None
    ended_at: float | None
    workstream_id: int | None
    created_at: float
    updated_at: float
    facts: list[dict[str, Any]] = field(default_factory=list)
    source_turns: list[str] = field(default_factory=list)   # the caller's ids of `source_ids`

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "session_id": self.session_id, "summary": self.summary, "summarizer": self.summarizer,
            "keyphrases": list(self.keyphrases), "turns": self.turns, "started_at": to_iso(self.started_at),
            "ended_at": to_iso(self.ended_at), "workstream_id": self.workstream_id,
            "facts": [dict(f) for f in self.facts], "source_ids": list(self.source_turns),
        }


@dataclass
class Workstream:
    """A thread of work across sessions. A hypothesis until a second session attaches."""

    id: int
    user_id: str
    name: str
    name_source: str                # llm | keyphrases
    status: str                     # hypothesis | confirmed
    keyphrases: list[str]
    sessions: int
    first_activity: float | None
    last_activity: float | None
    created_at: float
    facts: int = 0                  # current facts of its sessions
    open_loops: int = 0

    @property
    def confirmed(self) -> bool:
        return self.status == "confirmed"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "status": self.status, "sessions": self.sessions,
            "facts": self.facts, "open_loops": self.open_loops, "keyphrases": list(self.keyphrases),
            "first_activity": to_iso(self.first_activity), "last_activity": to_iso(self.last_activity),
            "named_by": self.name_source,
        }


@dataclass
class Loop:
    """Something left to do. Closed only on clear evidence (quoted), or by hand."""

    id: int
    user_id: str
    session_id: str
    workstream_id: int | None
    text: str
    due: str | None
    status: str                     # open | closed
    detector: str                   # rules | llm
    source_ids: list[int]
    mentions: int
    created_at: float
    last_mentioned: float
    closed_at: float | None = None
    closed_session: str | None = None
    closed_by: str | None = None    # rules | llm | user
    evidence: str | None = None
    note: str | None = None
    workstream: str | None = None   # the workstream's name, when it is confirmed
    source_turns: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "text": self.text, "status": self.status, "due": self.due,
            "workstream_id": self.workstream_id, "workstream": self.workstream, "session_id": self.session_id,
            "opened_at": to_iso(self.created_at), "last_mentioned": to_iso(self.last_mentioned),
            "mentions": self.mentions, "detector": self.detector, "source_ids": list(self.source_turns),
            "closed_at": to_iso(self.closed_at), "closed_session": self.closed_session, "closed_by": self.closed_by,
            "evidence": self.evidence, "note": self.note,
        }


@dataclass
class NewEpisode:
    user_id: str
    session_id: str
    summary: str
    summarizer: str
    keyphrases: list[tuple[str, str, float]]
    source_ids: list[int]
    turns: int
    started_at: float | None
    ended_at: float | None
    vec: bytes | None
    vec_model: str | None
    terms: dict[str, float] | None = None   # distinctive-word stems → weight (None: leave the stored ones)


@dataclass
class NewLoop:
    user_id: str
    session_id: str
    workstream_id: int | None
    text: str
    due: str | None
    detector: str
    source_ids: list[int]
    origin: str
    created_at: float


# --- judgments -------------------------------------------------------------------------------------

JUDGMENT_KIND = "judgment"  # the kind of judgments in `vectors`, `memory_fts` and recall hits


@dataclass(frozen=True)
class JudgmentRow:
    id: int                 # internal row id (vectors.item_id)
    memory_id: str          # the public id
    user_id: str
    trigger: str
    judgment: str
    reasoning: str
    domain: str | None
    metadata: str           # JSON object
    stored: int
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class VerdictRow:
    judgment_id: int
    adopted: bool
    correction: str | None
    ts: float


# --- REST API tokens -------------------------------------------------------------------------------

@dataclass
class TokenRecord:
    """A stored token, without the token (which is never stored)."""

    id: int
    user_id: str
    label: str | None
    created_at: float
    last_used: float | None
    revoked_at: float | None
    read_agents: tuple[str, ...] = ()    # the agent scopes its requests may read (episodic_memory.scopes)
    write_agents: tuple[str, ...] = ()   # … and write (and so read) and forget

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "user_id": self.user_id, "label": self.label, "created_at": to_iso(self.created_at),
                "last_used": to_iso(self.last_used), "revoked": self.revoked, "revoked_at": to_iso(self.revoked_at),
                "read_agents": list(self.read_agents), "write_agents": list(self.write_agents)}
