"""The store interface, as `typing.Protocol`s grouped by concern (docs/architecture.md, "The store
interface"): records, builtins and numpy arrays cross it, no connection, cursor or transaction. Every read
that takes a `user_id` returns only that user's rows; the maintenance reads that span users say so."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..config import Config
from .records import (
    Entity,
    Episode,
    Fact,
    HeadColumns,
    JudgmentRow,
    Loop,
    NewEpisode,
    NewFact,
    NewLoop,
    SessionInfo,
    StoredTurn,
    TokenRecord,
    TurnRecord,
    VerdictRow,
    Workstream,
)

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np


class TurnStore(Protocol):
    """Sessions, their journal offsets, and the turns captured in them."""

    # --- sessions ------------------------------------------------------------------------------------
    def session(self, user_id: str, session_id: str) -> SessionInfo | None:
        """One session; None when unknown."""
        ...

    def sessions(self, user_id: str, limit: int | None = None) -> list[SessionInfo]:
        """A user's sessions, most recently active first."""
        ...

    def end_session(self, user_id: str, session_id: str, *, owed: bool = False) -> bool:
        """Mark a session ended, flagged for consolidation if it has new turns (always, when its final run is
        `owed` and has not happened yet). False when unknown."""
        ...

    def mark_for_consolidation(self, user_id: str, session_id: str, *, behind_only: bool = False) -> None:
        """Flag a session for consolidation (after a failed run, or by recovery); with `behind_only`, only when it
        has turns not consolidated yet."""
        ...

    def mark_idle_sessions(self, idle_before: float) -> int:
        """Flag open sessions with unconsolidated turns and no activity since `idle_before` (all users)."""
        ...

    def claim_consolidation(self, user_id: str, session_id: str, owner: str, *, until: float, now: float,
                            replacing: str | None = None) -> str | None:
        """Claim (or renew) the right to consolidate a session until `until`: None when `owner` holds it now (or
        there is no such session), else the owner that does. A lapsed claim, or `replacing`'s, is taken over."""
        ...

    def release_consolidation(self, user_id: str, session_id: str, owner: str) -> None:
        """Give up `owner`'s claim on a session (nothing when it holds none)."""
        ...

    def sessions_needing_consolidation(self) -> list[tuple[str, str]]:
        """(user_id, session_id) pairs flagged for consolidation, across users (a maintenance read)."""
        ...

    def sessions_owed(self, every: int, idle_before: float, now: float, limit: int = 1000
                      ) -> list[tuple[str, str, bool]]:
        """(user_id, session_id, ended) of sessions owed a consolidation — flagged, `every` or more turns not
        consolidated, or ended with any — untouched since `idle_before` and claimed by no one (or by a lapsed
        claim) at `now`, oldest first, across users (a maintenance read)."""
        ...

    def record_consolidated(self, user_id: str, session_id: str, upto_seq: int) -> None:
        """Consolidation has handled every turn with seq < `upto_seq`."""
        ...

    def record_consolidation_failure(self, user_id: str, session_id: str) -> float:
        """A consolidation run of the session failed: flag it, count the failure and put the next retry off
        (`Config.consolidation.retry_after`); listings of flagged or owed sessions skip it until then. A run that
        succeeds clears the count. Returns when it may be retried."""
        ...

    # --- journal offsets -------------------------------------------------------------------------------
    def journal_state(self, user_id: str, session_id: str) -> tuple[str | None, int, int]:
        """(journal file, bytes already stored, the next turn's seq: one past the highest stored) of a session;
        (None, 0, 0) when unknown."""
        ...

    def journal_offsets(self) -> dict[str, int]:
        """Every session's journal file and the bytes of it already stored (all users: used by recovery)."""
        ...

    def advance_journal_offset(self, user_id: str, session_id: str, journal_file: str, offset: int) -> None:
        """Record that a session's journal is stored up to `offset` bytes (never moves back)."""
        ...

    # --- turns ---------------------------------------------------------------------------------------
    def insert_turns(self, records: Sequence[TurnRecord], journal_file: str, journal_offset: int) -> int:
        """Store journaled turns of one session (idempotent on `uid`) and advance its journal offset, at once.
        Returns how many were new."""
        ...

    def pop_turn(self, user_id: str, session_id: str) -> StoredTurn | None:
        """Delete the session's latest turn (with its index entries and vectors) and return it; None when the session
        has none. The session's counts follow; its consolidation watermark steps back before the turn."""
        ...

    def known_turn_ids(self, user_id: str, session_id: str) -> set[str]:
        """The caller ids already stored in a session."""
        ...

    def stored_turns(self, user_id: str, session_id: str, turn_ids: Sequence[str]
                     ) -> dict[tuple[str, str, str], tuple[str, int]]:
        """The turns of a session with these caller ids: (turn_id, role, content) → (uid, seq)."""
        ...

    def ids_for_uids(self, uids: Sequence[str]) -> dict[str, int]:
        """Journal record uid → turn row id, for those stored."""
        ...

    def session_turns(self, user_id: str, session_id: str, from_seq: int = 0,
                      before_seq: int | None = None) -> list[StoredTurn]:
        """A session's turns with seq ≥ `from_seq` (and < `before_seq`, when given), in order."""
        ...

    def turns_by_id(self, user_id: str, ids: Iterable[int]) -> dict[int, StoredTurn]:
        """The user's turns among `ids`, by row id."""
        ...

    def turns_since(self, user_id: str, since: float, limit: int | None = None) -> list[StoredTurn]:
        """The user's turns said at or after `since` (epoch seconds), newest first."""
        ...

    def turn_ids_with(self, user_id: str, *, source: str | None = None, tags: Sequence[str] = ()) -> list[int]:
        """Row ids of the user's turns from `source` (any when None) carrying every one of `tags`, ascending."""
        ...

    def previous_turns(self, ids: Sequence[int]) -> dict[int, StoredTurn]:
        """For each turn id, the turn just before it in its session (when there is one)."""
        ...

    def source_ids(self, user_id: str, ids: Iterable[int]) -> dict[int, str]:
        """Turn row id → the caller's id (the row id as text where none): what a hit's `source_ids` show."""
        ...

    def turn_heads(self, user_id: str, ids: Iterable[int] | np.ndarray) -> HeadColumns:
        """Session, position, speaker and time of many turns (those of `user_id` that exist), without their text:
        what ranking reads. May be cached per process; a deleted turn must not be served from the cache."""
        ...

    def speakers(self, user_id: str) -> list[tuple[str, int]]:
        """Names the store knows for a user, with how many turns each spoke."""
        ...

    def counts(self, user_id: str) -> dict[str, int]:
        """A user's turns, sessions, open sessions and sessions pending consolidation."""
        ...


class SearchStore(Protocol):
    """Lexical (BM25) search. `match` is a match expression from `retrieve.fts`, as built there."""

    def search_turns(
        self,
        match: str,
        user_id: str,
        *,
        limit: int,
        session_id: str | None = None,
        since: float | None = None,
        until: float | None = None,
        source: str | None = None,
        tags: Sequence[str] = (),
    ) -> list[tuple[int, float]]:
        """BM25 over a user's turns: (turn id, score) best first, higher is better. `source` and `tags` keep the
        turns from that source carrying every one of the tags."""
        ...

    def search_memories(self, match: str, user_id: str, *, limit: int, kinds: Sequence[str] | None = None
                        ) -> list[tuple[str, int, float]]:
        """BM25 over derived memories (facts, episodes, workstreams, judgments): (kind, item_id, score), best
        first."""
        ...

    def exact_turns(self, match: str, user_id: str, *, limit: int, session_id: str | None = None,
                    since: float | None = None, until: float | None = None) -> list[int]:
        """Ids of a user's turns that `match` finds, unranked, at most `limit`: who holds an exact lookup."""
        ...

    def exact_memories(self, match: str, user_id: str, *, limit: int, kinds: Sequence[str] | None = None
                       ) -> list[tuple[str, int]]:
        """(kind, item_id) of a user's derived memories that `match` finds, unranked, at most `limit`."""
        ...

    def common_terms(self, terms: Sequence[str], *, floor: int, share: float, user_id: str | None = None
                     ) -> set[str]:
        """The terms too common to rank on: found in more than max(floor, share × turns) turns. Counted where BM25
        spends its time: over the whole store where ranking reads every user's matches, over `user_id`'s turns
        where it reads only theirs (each backend says which)."""
        ...

    def search_turns_filtered(self, match: str, user_id: str, *, limit: int, session_id: str | None = None,
                              since: float | None = None, until: float | None = None, source: str | None = None,
                              tags: Sequence[str] = ()) -> list[tuple[int, float]]:
        """`search_turns`, for filters that keep a small share of the matches (the turns said after a moment, in a
        big store): the same rows, ranked and filtered in one pass."""
        ...


class VectorStore(Protocol):
    """Embeddings of turns, facts, episodes and judgments, by model; the dense index reads them incrementally."""

    def max_turn_id(self) -> int:
        """The largest turn row id (any user); 0 when there is none."""
        ...

    def turns_missing_vectors(self, model: str, after_id: int, limit: int, user_id: str | None = None
                              ) -> list[StoredTurn]:
        """Turns (of `user_id`, else any user) with id > `after_id` and no vector of `model`, in id order."""
        ...

    def count_missing_vectors(self, model: str) -> int:
        """How many turns (any user) have no vector of `model`."""
        ...

    def add_vectors(self, model: str, rows: Sequence[tuple[str, int, str, str | None, float | None, bytes]]) -> int:
        """Store vectors: (kind, item_id, user_id, session_id, ts, float32 bytes). Existing ones are kept."""
        ...

    def vector_watermark(self, user_id: str, model: str) -> tuple[int, int]:
        """(newest vector id of this user and model, deletion generation): what a reader must sync to."""
        ...

    def load_vectors(self, user_id: str, model: str, after_id: int = 0, upto_id: int | None = None,
                     limit: int = -1) -> list[tuple[int, str, int, str, float, bytes]]:
        """(vector id, kind, item_id, session_id, ts, bytes) of a user's vectors with after_id < id ≤ upto_id, in id
        order, at most `limit` of them (−1: all)."""
        ...

    def count_vectors(self, user_id: str, model: str, after_id: int, upto_id: int) -> int:
        """How many vectors `load_vectors` has between the two ids."""
        ...

    def item_vectors(self, user_id: str, model: str, kind: str, item_ids: Sequence[int]) -> dict[int, bytes]:
        """item id -> the float32 bytes of its vector of `model`, for those of `item_ids` (of `kind`) that are this
        user's and have one."""
        ...

    def vector_counts(self, user_id: str) -> dict[str, int]:
        """A user's vectors per model."""
        ...

    def vector_ids(self, user_id: str, model: str, upto_id: int) -> np.ndarray:
        """The ids of a user's vectors of `model` up to `upto_id`, ascending."""
        ...

    def sidecar_dir(self) -> Path | None:
        """Where the dense index may keep its cache of these vectors (`retrieve.sidecar`), or None: nowhere."""
        ...

    def delete_vectors_not_of(self, model: str) -> int:
        """Drop vectors made by any other model (after a reindex)."""
        ...


class FactStore(Protocol):
    """Facts with their supersession chains, the entities they name, and the router's counts."""

    # --- facts ---------------------------------------------------------------------------------------
    def has_fact_origin(self, user_id: str, origin: str) -> bool:
        """Whether a fact was already consolidated from these very turns (`NewFact.origin`)."""
        ...

    def fact_id_by_origin(self, user_id: str, origin: str) -> int | None:
        """The id of the user's fact with that `NewFact.origin`, if any."""
        ...

    def insert_fact(self, fact: NewFact, *, supersedes: int | None = None, superseded_by: int | None = None) -> int:
        """Store a fact (and close the validity of the one it supersedes, at once). Returns its id. With
        `superseded_by`, a late-ingested statement older than that fact: stored already superseded, in its chain."""
        ...

    def bump_fact(self, user_id: str, fact_id: int, source_ids: Iterable[int], *, salience_add: float,
                  durable_floor: float) -> None:
        """A restatement: one more recurrence, a little more salience, its turns added to the sources."""
        ...

    def facts_by_id(self, user_id: str, ids: Iterable[int], *, entities: bool = True) -> dict[int, Fact]:
        """The user's facts among `ids` (current or superseded), with their entities (without: `entities` left
        empty, one query fewer)."""
        ...

    def facts(self, user_id: str, *, include_superseded: bool = False, session_id: str | None = None,
              types: Iterable[str] | None = None, since: float | None = None, limit: int | None = None,
              entities: bool = True) -> list[Fact]:
        """Facts newest first: current ones only unless `include_superseded`; with their entities unless not
        `entities`."""
        ...

    def current_fact_texts(self, user_id: str, limit: int) -> list[str]:
        """The texts of the user's `limit` newest current facts, newest first (as `facts` orders them)."""
        ...

    def replacements(self, user_id: str) -> list[tuple[Fact, list[Fact]]]:
        """Each current fact that superseded others, with every fact its chain replaced (newest first)."""
        ...

    def fact_history(self, user_id: str, fact_id: int) -> list[Fact]:
        """The supersession chain through `fact_id`, newest first. KeyError when there is no such fact."""
        ...

    def facts_missing_vectors(self, model: str, limit: int, after: int = 0, user_id: str | None = None) -> list[Fact]:
        """Facts (of `user_id`, else every user) with id > `after` that have no vector of `model`, oldest first."""
        ...

    def max_fact_id(self) -> int:
        """The largest fact id (any user); 0 when there is none."""
        ...

    def fact_counts(self, user_id: str) -> dict[str, int]:
        """A user's current, durable and superseded facts."""
        ...

    def facts_by_route(self, user_id: str) -> dict[str, int]:
        """A user's facts (current and superseded) per route: durable, episodic."""
        ...

    # --- the router's counts ---------------------------------------------------------------------------
    def count_routes(self, user_id: str, routes: dict[str, int]) -> None:
        """Add to the user's counts of candidates per route (durable, episodic, dropped, …)."""
        ...

    def route_counts(self, user_id: str) -> dict[str, int]:
        """The user's candidates per route, so far."""
        ...

    # --- entities ------------------------------------------------------------------------------------
    def link_entities(self, user_id: str, fact_id: int, names: Iterable[str]) -> list[int]:
        """Attach `names` to a fact (each resolved through aliases or created; names together get an edge).
        Returns the entity ids."""
        ...

    def entities(self, user_id: str) -> list[Entity]:
        """A user's entities, most named first, with aliases and related entities."""
        ...

    def entity(self, user_id: str, name: str) -> Entity | None:
        """An entity by its name or any alias, case-insensitively."""
        ...

    def entity_facts(self, user_id: str, entity_id: int, *, include_superseded: bool = False) -> list[Fact]:
        """The facts that name an entity (current ones unless `include_superseded`), newest first."""
        ...

    def entities_of_facts(self, fact_ids: Iterable[int]) -> list[int]:
        """The ids of the entities these facts name."""
        ...

    def profile_state(self, entity_id: int) -> tuple[str, str | None, list[int]]:
        """(name, profile, ids of the facts the profile was written from) of an entity."""
        ...

    def set_profile(self, entity_id: int, profile: str, fact_ids: list[int]) -> None:
        """Store an entity's profile and the facts it was written from."""
        ...


class ThreadStore(Protocol):
    """Episodes (a session in a few sentences), workstreams (threads of sessions) and open loops."""

    # --- episodes ------------------------------------------------------------------------------------
    def upsert_episode(self, new: NewEpisode) -> tuple[int, bool]:
        """Create or update a session's one episode. Returns (episode id, whether its summary changed)."""
        ...

    def session_episode(self, user_id: str, session_id: str) -> Episode | None:
        """A session's episode; None before one is made."""
        ...

    def derived_counts(self, user_id: str) -> dict[str, int]:
        """How many facts (current and superseded), episodes, workstreams (hypotheses too), loops, entities and
        judgments the user has."""
        ...

    def episode_vector(self, episode_id: int) -> tuple[np.ndarray, str] | None:
        """An episode's thread vector and the model that made it."""
        ...

    def episodes(self, user_id: str, *, limit: int | None = None, ids: Iterable[int] | None = None,
                 workstream_id: int | None = None, with_facts: bool = True) -> list[Episode]:
        """Episodes newest first (by the time of their last turn), with their sessions' facts attached."""
        ...

    def session_facts(self, user_id: str, session_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """The facts extracted from each session (durable and demoted, current or superseded), oldest first."""
        ...

    def session_fact_counts(self, user_id: str, session_ids: Sequence[str]) -> dict[str, int]:
        """How many facts each session yielded (durable and demoted, current or superseded)."""
        ...

    def session_terms(self, episode_id: int) -> dict[str, float]:
        """An episode's distinctive-word profile (stem → weight)."""
        ...

    def term_frequencies(self, user_id: str, terms: Iterable[str], exclude_episode: int | None = None
                         ) -> tuple[int, dict[str, int]]:
        """(episodes of the user with distinctive words, document frequency of each of `terms`), one left out."""
        ...

    def workstream_terms(self, user_id: str, terms: Iterable[str], exclude: int | None = None,
                         limit: int = 20) -> dict[int, dict[str, float]]:
        """Word profiles of the workstreams that share any of `terms` (most shared first)."""
        ...

    def has_recall_vector(self, episode_id: int, model: str) -> bool:
        """Whether an episode's summary has a recall vector of `model`."""
        ...

    def episodes_missing_vectors(self, model: str, limit: int) -> list[tuple[int, str, str, float, str]]:
        """(id, user_id, session_id, ended_at, summary) of episodes (every user) with no recall vector of `model`."""
        ...

    def set_recall_vector(self, episode: Episode, model: str, vec: bytes) -> None:
        """Store (or replace) the embedding of an episode's summary, for recall."""
        ...

    # --- workstreams ---------------------------------------------------------------------------------
    def workstreams(self, user_id: str, *, include_hypotheses: bool = False,
                    ids: Iterable[int] | None = None, active_since: float | None = None,
                    limit: int | None = None) -> list[Workstream]:
        """Workstreams, most recently active first, with their fact and open-loop counts."""
        ...

    def workstream_names(self, user_id: str, ids: Iterable[int], *, include_hypotheses: bool = False
                         ) -> dict[int, str]:
        """id → name of workstreams (confirmed ones unless asked)."""
        ...

    def centroids(self, user_id: str, model: str, exclude: int | None = None
                  ) -> tuple[list[int], np.ndarray]:
        """(ids, matrix) of a user's workstream centroids made with `model`."""
        ...

    def workstream_size(self, workstream_id: int) -> int:
        """How many episodes (sessions) a workstream holds."""
        ...

    def create_workstream(self, user_id: str, episode_id: int) -> int:
        """Spawn a workstream (a hypothesis) around one episode. Returns its id."""
        ...

    def attach_episode(self, episode_id: int, workstream_id: int) -> None:
        """Move an episode (and the loops its session raised) into a workstream; the one it leaves is rolled up,
        and deleted when it is left empty."""
        ...

    def detach_episode(self, episode_id: int) -> None:
        """Take an episode (and its session's loops) out of its workstream (no thread of work)."""
        ...

    def refresh_workstream(self, workstream_id: int) -> None:
        """Recompute a workstream's centroid, status, activity, keyphrases and keyphrase name from its episodes."""
        ...

    def needs_name(self, workstream_id: int) -> bool:
        """True when the LLM has not named the workstream since its sessions last changed."""
        ...

    def thread_window(self, user_id: str, limit: int) -> list[tuple[int, int | None, bytes | None, str | None]]:
        """(episode id, workstream id, thread vector, its model) of the user's latest `limit` episodes, oldest
        first (batch re-clustering)."""
        ...

    def episodes_terms(self, episode_ids: Sequence[int]) -> dict[int, dict[str, float]]:
        """Each episode's distinctive-word profile (stem → weight), by episode id."""
        ...

    def regroup_episodes(self, user_id: str, groups: Sequence[tuple[int | None, Sequence[int]]],
                         detach: Sequence[int] = ()) -> list[int]:
        """Apply a re-clustering in one transaction: each group's episodes (and their sessions' loops) move into the
        group's workstream (None or gone: a new one), `detach` leave theirs; every workstream touched is rolled up
        (deleted when empty). Returns each group's workstream id."""
        ...

    def rename_workstream(self, workstream_id: int, name: str) -> None:
        """A name chosen by the LLM (kept until its sessions change, or a forget resets it to keyphrases)."""
        ...

    # --- loops ---------------------------------------------------------------------------------------
    def loops(self, user_id: str, status: str = "open", *, ids: Iterable[int] | None = None,
              workstream_id: int | None = None, limit: int | None = None) -> list[Loop]:
        """A user's loops (`status` open, closed or all), newest first, with their source turns' ids."""
        ...

    def recent_closed_loops(self, user_id: str, closed_since: float) -> list[Loop]:
        """A user's loops closed since `closed_since`, latest first."""
        ...

    def insert_loop(self, new: NewLoop) -> int | None:
        """Store a new loop; None when its origin is already stored (a re-run)."""
        ...

    def mention_loop(self, loop_id: int, when: float) -> None:
        """A loop said again (still open): counted, never duplicated."""
        ...

    def close_loop(self, user_id: str, loop_id: int, *, closed_by: str, closed_at: float | None = None,
                   session_id: str | None = None, evidence: str | None = None, evidence_ids: Sequence[int] = (),
                   note: str | None = None) -> Loop:
        """Close a loop. KeyError when the user has no loop with that id; a closed loop is returned unchanged."""
        ...

    # --- the startup briefing ------------------------------------------------------------------------
    def sessions_between(self, user_id: str, since: float, until: float, limit: int
                         ) -> list[tuple[SessionInfo, str | None]]:
        """Sessions with a turn in [since, until], newest first, with their episode summaries."""
        ...

    def facts_between(self, user_id: str, types: Sequence[str], since: float, until: float,
                      limit: int) -> list[dict[str, Any]]:
        """Current facts of `types` stated in [since, until], newest first."""
        ...


class JudgmentStore(Protocol):
    """Judgments (how to act) and the verdicts on them. Ranking and utility live in `episodic_memory.judgments`."""

    def insert_judgment_or_merge(self, *, user_id: str, memory_id: str, trigger: str, judgment: str,
                                 reasoning: str, domain: str | None, metadata: dict[str, Any], dedup_key: str,
                                 merge_metadata: Callable[[str | None, dict[str, Any]], str]
                                 ) -> tuple[JudgmentRow, bool]:
        """Store a judgment, or merge into the user's one with the same `dedup_key`. Returns (row, created).
        `merge_metadata(old JSON or None, new metadata)` returns the JSON to keep."""
        ...

    def add_verdict(self, user_id: str, memory_id: str, adopted: bool, correction: str | None,
                    ts: float) -> bool:
        """Record a verdict on one of the user's judgments. False when the user has no such judgment."""
        ...

    def delete_judgments(self, user_id: str, memory_ids: Sequence[str]) -> list[str]:
        """Delete judgments (with their verdicts, index entries and vectors). Returns the ids deleted."""
        ...

    def judgment(self, user_id: str, memory_id: str) -> JudgmentRow | None:
        """One of the user's judgments by its public id."""
        ...

    def judgments_by_id(self, user_id: str, ids: Sequence[int]) -> dict[int, JudgmentRow]:
        """The user's judgments among these row ids."""
        ...

    def iter_judgments(self, user_id: str, *, domain: str | None = None,
                       chunk: int = 500) -> Iterator[list[JudgmentRow]]:
        """A user's judgments in id order, `chunk` at a time (never the whole table in memory)."""
        ...

    def verdicts(self, ids: Sequence[int]) -> dict[int, list[VerdictRow]]:
        """Every verdict of these judgments (row ids), oldest first."""
        ...

    def judgment_count(self, user_id: str) -> int:
        """How many judgments the user has."""
        ...

    def search_judgments(self, match: str, user_id: str, *, limit: int,
                         domain: str | None = None) -> list[tuple[int, float]]:
        """BM25 over the user's judgments (trigger, judgment, reasoning): (row id, score) best first. `match` is a
        match expression from `retrieve.fts`."""
        ...

    def max_judgment_id(self) -> int:
        """The largest judgment row id (any user); 0 when there is none."""
        ...

    def judgments_missing_vectors(self, model: str, after_id: int, limit: int) -> list[JudgmentRow]:
        """Judgments (any user) with id > `after_id` and no vector of `model`, in id order."""
        ...

    def add_judgment_vectors(self, model: str, rows: Sequence[tuple[JudgmentRow, bytes]]) -> int:
        """Store the vectors (float32 bytes) of judgments."""
        ...


class EditStore(Protocol):
    """What a person changes by hand."""

    def turns_by_caller_id(self, user_id: str, turn_id: str) -> list[StoredTurn]:
        """The user's turns with this caller id (one per session at most), oldest first."""
        ...

    def pin_fact(self, user_id: str, fact_id: int, pinned: bool) -> bool:
        """Pin or unpin a fact; False when the user has no such fact."""
        ...

    def pinned_facts(self, user_id: str, limit: int | None = None) -> list[dict[str, Any]]:
        """The user's current pinned facts, newest first (id, type, text, session_id, created_at)."""
        ...

    def delete_fact(self, user_id: str, fact_id: int) -> bool:
        """Delete one fact, mending its supersession chain (what it replaced is current again when it was the
        current one); entities no fact names any more go too. False when the user has no such fact."""
        ...

    def reopen_loop(self, user_id: str, loop_id: int, note: str | None = None) -> bool:
        """Open a closed loop again (with `note`, why); False when the user has no such loop."""
        ...


class PortableStore(Protocol):
    """Taking a store with you: plain records out and back in, and a consistent copy of the whole store."""

    def users(self) -> list[str]:
        """Every user with a session, sorted (a maintenance read across users)."""
        ...

    def portable_columns(self) -> dict[str, set[str]]:
        """Record kind (session, turn, entity, fact, entity_edge, workstream, episode, loop, judgment, route_count)
        → the fields a record of it may carry in this store."""
        ...

    def id_owners(self, kind: str, ids: Sequence[str]) -> dict[str, str]:
        """The user holding each of `ids` here, for the ids a store holds once across users: a turn's journal uid
        (`kind` "turn"), a judgment's memory id ("judgment"). Ids not here are left out."""
        ...

    def export_records(self, user_id: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """Every row of one user (every user when None) as (kind, record), from one snapshot; references between
        records are this store's row ids."""
        ...

    def import_records(self, records: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, int]:
        """Write valid exported records at once, all or nothing: rows already present are kept and mapped, the
        others get fresh ids and every reference is mapped to them. Returns the rows added per kind."""
        ...

    def backup(self, dest: str) -> None:
        """A consistent copy of the whole store at `dest`, made while writers carry on; `dest` appears whole."""
        ...


class ApiTokenStore(Protocol):
    """The REST API's bearer tokens, by hash (the token itself is never stored)."""

    def insert_token(self, user_id: str, token_hash: str, label: str | None,
                     read_agents: Sequence[str] = (), write_agents: Sequence[str] = ()) -> TokenRecord:
        """Store a new token's hash for a user."""
        ...

    def token_by_hash(self, token_hash: str) -> TokenRecord | None:
        """The token with this hash (revoked or not)."""
        ...

    def list_tokens(self, user_id: str | None = None) -> list[TokenRecord]:
        """Tokens of a user (of everyone when None), in id order."""
        ...

    def revoke_token(self, token_id: int) -> TokenRecord | None:
        """Mark a token revoked (kept for the record). None when no token has that id."""
        ...

    def touch_token(self, token_id: int, when: float) -> None:
        """Record a token's last use."""
        ...


@runtime_checkable
class LLMBackoffStore(Protocol):
    """The LLM back-off (`llm.backoff`): when an LLM that just failed may be asked again, per backend description."""

    def llm_backoff(self, backend: str) -> tuple[float, int, str, str] | None:
        """(retry at, failures in a row, kind, reason) of the backend's back-off; None when it has none."""
        ...

    def record_llm_backoff(self, backend: str, until: float, failures: int, kind: str, reason: str) -> None:
        """Start or lengthen the backend's back-off."""
        ...

    def clear_llm_backoff(self, backend: str) -> None:
        """End the backend's back-off (a call succeeded)."""
        ...


class Store(TurnStore, SearchStore, VectorStore, FactStore, ThreadStore, JudgmentStore, ApiTokenStore, PortableStore,
            EditStore, LLMBackoffStore, Protocol):
    """Everything the library stores: the operations of every concern, and the store's own lifecycle."""

    @property
    def config(self) -> Config:
        """The configuration the store was opened with."""
        ...

    @property
    def path(self) -> str:
        """Where the store lives (`config.MEMORY_PATH` for a store in memory)."""
        ...

    @property
    def in_memory(self) -> bool:
        """True for a store that lives only as long as the process (opened at `config.MEMORY_PATH`)."""
        ...

    @property
    def schema_version(self) -> int:
        """The version of the schema the store is at: how many migrations it has applied (they are recorded by name,
        `store/schema.py`), the same for every store this version of the code has opened."""
        ...

    def derived_generation(self) -> tuple[int, ...]:
        """Counters that move whenever a derived memory changes or a turn is deleted (in any process): what a cache
        of derived memories' recall hits is valid for."""
        ...

    def read_snapshot(self) -> AbstractContextManager[None]:
        """A scope (one recall) within which the store's counters — the newest turn, fact and judgment ids and the
        change counters that caches are keyed on — are read once and then reused, in this thread and in threads
        started with a copy of its context (`contextvars`). Where asking costs a round trip to a server, a recall
        pays one instead of several; what the recall reads is one consistent view. A no-op where asking is local."""
        ...

    def forget(self, *, user_id: str | None = None, session_id: str | None = None) -> dict[str, Any]:
        """Delete a session (user_id + session_id), a user (user_id), or everything (neither), with every memory
        derived from it, at once. Returns the counts deleted and the journal files of the deleted sessions
        (`journal_files`)."""
        ...

    def scrub(self) -> bool:
        """Make deleted text unrecoverable from the storage's files. False when it could not be done within
        `Config.store.forget_scrub_wait_s` (a reader held on to old data): the bytes may still be there."""
        ...

    def file_size(self) -> int:
        """Bytes the store occupies."""
        ...

    def checkpoint(self) -> None:
        """Housekeeping off the callers' path (the background worker calls it after each run): fold the
        write-ahead log into the main file where the storage keeps one. Never blocks a writer."""
        ...

    def close(self) -> None:
        """Release the store; no call may follow."""
        ...
