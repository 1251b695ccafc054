"""The columns each record is read with, and the row → record mappers, shared by every backend (a row comes back
in the same shape from SQLite and from PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .records import Episode, Fact, JudgmentRow, Loop, SessionInfo, StoredTurn, TokenRecord

TURN_COLUMNS = ("t.id, t.user_id, t.session_id, t.seq, t.role, t.content, t.ts, t.ingested_at, t.speaker, t.turn_id, "
                "t.source, t.tags, t.metadata")
SESSION_SELECT = (
    "SELECT user_id, session_id, status, started_at, last_turn_at, turn_count, consolidated_turns, "
    "needs_consolidation, ended_at FROM sessions"
)
FACT_COLUMNS = (
    "id, user_id, session_id, type, text, route, salience, confidence, recurrence, event_ts, created_at, "
    "valid_from, valid_to, supersedes, superseded_by, source_ids, extractor"
)
EPISODE_COLUMNS = ("id, user_id, session_id, summary, summarizer, keyphrases, source_ids, turns, started_at, "
                   "ended_at, workstream_id, created_at, updated_at")
WORKSTREAM_COLUMNS = ("w.id, w.user_id, w.name, w.name_source, w.status, w.keyphrases, w.sessions, "
                      "w.first_activity, w.last_activity, w.created_at")
LOOP_COLUMNS = ("l.id, l.user_id, l.session_id, l.workstream_id, l.text, l.due, l.status, l.detector, l.source_ids, "
                "l.mentions, l.created_at, l.last_mentioned, l.closed_at, l.closed_session, l.closed_by, l.evidence, "
                "l.note, CASE WHEN w.status = 'confirmed' THEN w.name END")
JUDGMENT_COLUMNS = ("id, memory_id, user_id, trigger, judgment, reasoning, domain, metadata, stored, created_at, "
                    "updated_at")
TOKEN_COLUMNS = "id, user_id, label, created_at, last_used, revoked_at, read_agents, write_agents"

CONFIRM_SESSIONS = 2   # a workstream is a hypothesis until a second session attaches (and see workstream_status)
#: how many of a workstream's sessions left a memory (a fact or a loop); `{mark}` is the backend's placeholder
MEMORABLE_SESSIONS = (
    "SELECT count(*) FROM episodes e WHERE e.workstream_id = {mark} AND ("
    "EXISTS (SELECT 1 FROM facts f WHERE f.user_id = e.user_id AND f.session_id = e.session_id) OR "
    "EXISTS (SELECT 1 FROM loops l WHERE l.user_id = e.user_id AND l.session_id = e.session_id))")


def workstream_status(sessions: int, memorable: int, share: float) -> str:
    """'confirmed' once a second session joins *and* at least `share` of the sessions left a memory (a fact
    or a loop), else 'hypothesis': small talk recurs like a thread but leaves little
    (docs/consolidation.md, Round 4)."""
    return "confirmed" if sessions >= CONFIRM_SESSIONS and memorable >= max(1.0, share * sessions) else "hypothesis"


def turn_row(row: Sequence[Any]) -> StoredTurn:
    (id_, user_id, session_id, seq, role, content, ts, ingested_at, speaker, turn_id, source, tags, metadata) = row[:13]
    return StoredTurn(id_, user_id, session_id, seq, role, content, ts, ingested_at, speaker, turn_id, source,
                      json.loads(tags) if tags else [], json.loads(metadata) if metadata else None)


def session_row(row: Sequence[Any]) -> SessionInfo:
    return SessionInfo(
        user_id=row[0], session_id=row[1], status=row[2], started_at=row[3], last_turn_at=row[4],
        turn_count=row[5], consolidated_turns=row[6], needs_consolidation=bool(row[7]), ended_at=row[8],
    )


def fact_row(row: Sequence[Any]) -> Fact:
    values = list(row)
    values[15] = json.loads(values[15])
    return Fact(*values)


def episode_row(row: Sequence[Any]) -> Episode:
    values = list(row)
    values[5] = [p[0] for p in json.loads(values[5])]
    values[6] = json.loads(values[6])
    return Episode(*values)


def loop_row(row: Sequence[Any]) -> Loop:
    values = list(row)
    values[8] = json.loads(values[8])
    return Loop(*values)


def judgment_row(r: Sequence[Any]) -> JudgmentRow:
    return JudgmentRow(*r[:11])


def token_row(row: Sequence[Any]) -> TokenRecord:
    return TokenRecord(row[0], row[1], row[2], row[3], row[4], row[5], tuple(json.loads(row[6] or "[]")),
                       tuple(json.loads(row[7] or "[]")))
