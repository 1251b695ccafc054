"""`Memory`: the front door. Every other entry point (CLI, servers, the seed's names) goes through it.

Consolidation: `Memory.consolidate` runs the steps over one session; when it runs (every `Config.consolidate_every`
new turns, at `end_session`, for flagged sessions at open; inline or in a worker thread) is decided by
`consolidate.scheduler.ConsolidationScheduler`, `Memory.scheduler` (the REST server gives its Memories a shared one).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import llm
from .brief import Brief, build_brief
from .capture.journal import Journal
from .capture.recorder import NewTurn, Recorder, RecoveryReport
from .clients import MemoryClients
from .config import DEFAULT_USER, MEMORY_PATH, Config, default_db_path
from .consolidate import ConsolidationStep, default_steps
from .consolidate.facts import profile_text
from .consolidate.scheduler import ConsolidationScheduler
from .judgments.memory import JudgmentMemory
from .llm import Backend, LLMClient, client_for
from .models.embedder import Embedder, load_embedder
from .models.reranker import Reranker, load_reranker
from .retrieve.hit import Hit
from .retrieve.indexer import Indexer
from .retrieve.kinds import REGISTRY
from .retrieve.retriever import RecallFilters, Retriever
from .store import Store, is_postgres_url, open_store
from .store.records import Entity, Episode, Fact, Loop, SessionInfo, StoredTurn, Workstream
from .util import to_epoch

if TYPE_CHECKING:
    from .judgments.memory import JudgmentMemory

log = logging.getLogger(__name__)

OFF = {"off", "none", ""}


def journal_dir_for(db_path: Path) -> Path:
    """The journal folder that belongs to a database file: ``memory.db`` → ``memory.db.journal/``."""
    return db_path.with_name(db_path.name + ".journal")


class Memory:
    """Long-term memory in one SQLite file.

    >>> with Memory(":memory:") as mem:
    ...     _ = mem.add_turn("user", "The deck needs 14 slides", session_id="s1")
    ...     [h.text for h in mem.recall("how many slides")]
    ['The deck needs 14 slides']
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        user_id: str = DEFAULT_USER,
        config: Config | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        llm: LLMClient | Backend | None = None,
    ) -> None:
        """Open (or create) the store at `path`. `embedder`/`reranker` override the models named in `config`; `llm`
        (a backend or an `LLMClient`) the LLM (see `episodic_memory.llm` for which client a Memory uses)."""
        self.config = config or Config.from_env()
        self.llm, self._owns_llm = client_for(config, llm)
        self._embedder: Embedder | None = embedder
        self._embedder_failed = False
        self._reranker: Reranker | None = reranker
        self._reranker_failed = False
        self.user_id = _check_id(user_id, "user_id")
        self.path = str(path) if path is not None else str(default_db_path())
        self.store: Store = open_store(self.path, self.config)
        if self.store.in_memory or is_postgres_url(self.store.path):  # a server database is its own durable log
            journal, lock_path = Journal(None), None
        else:
            db_path = Path(self.store.path)
            journal = Journal(journal_dir_for(db_path), fsync=self.config.fsync_journal)
            lock_path = db_path.with_name(db_path.name + ".lock")
        self.journal = journal
        self.recorder = Recorder(self.store, journal, lock_path, self.config)
        self.retriever = Retriever(self.store, self.config, embedder=self.embedder, reranker=self.reranker)
        self.indexer = Indexer(self.store, self.embedder, self.config)
        self.clients = MemoryClients(  # what consolidation, judgments and the briefing may use: never `self`
            store=self.store, config=self.config, embedder=self.embedder, dense_index=self.retriever.dense_index,
            indexer=self.indexer, llm=self.llm, path=self.path)
        self.scheduler = ConsolidationScheduler(  # consolidation off the capture path or not: see Config
            lambda u, s, final: self.consolidate(u, s, final=final), lambda u, s: self.store.session(u, s),
            every=lambda: self.config.consolidate_every, background=self._consolidates_in_background,
            pending=lambda: self.store.sessions_needing_consolidation())
        self.consolidation_steps: list[ConsolidationStep] = default_steps()
        self.last_recovery: RecoveryReport = self.recorder.recover()
        if self.config.consolidate_on_open:
            self.consolidate_pending()

    # --- models (loaded on first use; recall degrades to BM25 without an embedder) ---------------------
    def embedder(self) -> Embedder | None:
        if self._embedder is None and not self._embedder_failed and self.config.embedder.lower() not in OFF:
            try:
                self._embedder = load_embedder(self.config.embedder, self.config.model_threads)
            except Exception as exc:
                self._embedder_failed = True
                log.warning("embedder %r unavailable (%s); recall uses BM25 only", self.config.embedder, exc)
        return self._embedder

    def reranker(self) -> Reranker | None:
        if self._reranker is None and not self._reranker_failed and self.config.reranker:
            try:
                self._reranker = load_reranker(self.config.reranker, self.config.model_threads)
            except Exception as exc:
                self._reranker_failed = True
                log.warning("reranker %r unavailable (%s); recall runs without reranking", self.config.reranker, exc)
        return self._reranker

    def index(self, progress: Callable[[int], None] | None = None) -> int:
        """Embed every stored turn that has no vector of the current model yet. Returns how many."""
        return self.indexer.embed_pending(progress)

    def reindex(self, progress: Callable[[int], None] | None = None) -> int:
        """After a model change: embed everything with the current model, then drop other models' vectors."""
        embedder = self.embedder()
        if embedder is None:
            raise RuntimeError("no embedder is configured (Config.embedder is off or failed to load)")
        done = self.indexer.embed_pending(progress, kinds=REGISTRY)
        self.store.delete_vectors_not_of(embedder.model_id)
        return done

    # --- capture -------------------------------------------------------------------------------------
    def add_turn(
        self,
        role: str,
        content: str,
        *,
        session_id: str,
        speaker: str | None = None,
        timestamp: datetime | str | None = None,
        turn_id: str | None = None,
        user_id: str | None = None,
    ) -> str:
        """Record one turn: journaled and fsynced, then stored. Returns its id (`turn_id` when given)."""
        return self.add_turns(
            [{"role": role, "content": content, "session_id": session_id, "speaker": speaker,
              "timestamp": timestamp, "turn_id": turn_id, "user_id": user_id}]
        )[0]

    def add_turns(self, turns: Iterable[Mapping[str, Any]]) -> list[str]:
        """Record many turns with one lock, one fsync and one transaction per session (fast ingest).

        Each mapping has the keyword arguments of `add_turn`. Everything is validated before anything is written.
        """
        turns = list(turns)
        new = [self._new_turn(t, f"turn {i}: " if len(turns) > 1 else "") for i, t in enumerate(turns)]
        if not new:
            return []
        records = self.recorder.record(new)
        ids = self.store.ids_for_uids([r.uid for r in records])
        for user_id, session_id in dict.fromkeys((t.user_id, t.session_id) for t in new):
            self._maybe_consolidate(user_id, session_id)
        return [r.turn_id if r.turn_id is not None else str(ids[r.uid]) for r in records]

    def unseen_turns(self, turns: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        """The turns whose `turn_id` is not already stored in their session (turns without an id are kept)."""
        known: dict[tuple[str, str], set[str]] = {}
        out = []
        for t in turns:
            key = (t.get("user_id") or self.user_id, str(t.get("session_id")))
            if key not in known:
                known[key] = self.store.known_turn_ids(*key)
            if t.get("turn_id") is None or t["turn_id"] not in known[key]:
                out.append(t)
        return out

    def _new_turn(self, t: Mapping[str, Any], where: str) -> NewTurn:
        role, content = t.get("role"), t.get("content")
        if not isinstance(role, str) or not role.strip():
            raise ValueError(f"{where}role must be a non-empty string, got {role!r}")
        if not isinstance(content, str):
            raise TypeError(f"{where}content must be a string, got {type(content).__name__}")
        session_id = _check_id(t.get("session_id"), f"{where}session_id")
        user_id = _check_id(t.get("user_id") or self.user_id, f"{where}user_id")
        speaker, turn_id = t.get("speaker"), t.get("turn_id")
        for name, value in (("speaker", speaker), ("turn_id", turn_id)):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{where}{name} must be a string, got {type(value).__name__}")
        return NewTurn(role=role.strip(), content=content, session_id=session_id, user_id=user_id,
                       ts=to_epoch(t.get("timestamp"), f"{where}timestamp"), speaker=speaker, turn_id=turn_id)

    def end_session(self, session_id: str, user_id: str | None = None) -> None:
        """Close a session and consolidate whatever it has not consolidated yet."""
        user_id = user_id or self.user_id
        with self.scheduler.session_lock(user_id, session_id):  # after its running and queued runs, if any
            if not self.store.end_session(user_id, session_id):
                raise KeyError(f"no session {session_id!r} for user {user_id!r}")
            self.scheduler.run_now(user_id, session_id, final=True)

    # --- consolidation -------------------------------------------------------------------------------
    def _maybe_consolidate(self, user_id: str, session_id: str) -> None:
        self.scheduler.turns_added(user_id, session_id)

    def _consolidates_in_background(self) -> bool:
        mode = self.config.consolidate_in_background
        if mode == "auto":
            try:
                return self.llm.enabled()
            except llm.LLMConfigError:
                return False
        return mode == "on"

    def wait_for_consolidation(self, session_id: str | None = None, user_id: str | None = None) -> None:
        """Block until background consolidation is done (of one session, or of all when `session_id` is None)."""
        if session_id is None:
            self.scheduler.wait()
        else:
            self.scheduler.wait(user_id or self.user_id, session_id)

    def consolidate(self, user_id: str, session_id: str, *, final: bool = False) -> bool:
        """Hand a session's unconsolidated turns to the consolidation steps. False if a step failed.

        A failed step leaves the turns untouched and the session flagged, so it is retried at the next open.
        `final` (at session end) runs the steps even when no turn is new, for the work done once a session is over
        (entity profiles, the episode's final vector).
        """
        info = self.store.session(user_id, session_id)
        if info is None:
            return True
        self._index_quietly()
        turns = self.store.session_turns(user_id, session_id, from_seq=info.consolidated_turns)
        if not turns and not final:
            self.store.record_consolidated(user_id, session_id, info.consolidated_turns)
            return True
        for step in self.consolidation_steps:
            try:
                step(self.clients, info, turns)
            except Exception:
                log.exception("consolidation of session %s/%s failed in %s; it will be retried at the next open",
                              user_id, session_id, getattr(step, "__name__", step))
                self.store.mark_for_consolidation(user_id, session_id)
                return False
        self.store.record_consolidated(user_id, session_id, turns[-1].seq + 1 if turns else info.consolidated_turns)
        return True

    def _index_quietly(self) -> None:
        try:
            self.index()
        except Exception:
            log.exception("embedding new turns failed; they stay searchable by BM25 and are retried later")

    def consolidate_pending(self) -> int:
        """Consolidate every session flagged by recovery, idleness, or an earlier failure. Returns how many."""
        return self.scheduler.consolidate_flagged()

    # --- recall --------------------------------------------------------------------------------------
    def recall(
        self,
        query: str,
        k: int = 10,
        user_id: str | None = None,
        *,
        session_id: str | None = None,
        kind: str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        as_of: datetime | str | None = None,
    ) -> list[Hit]:
        """The `k` memories most relevant to `query`, best first.

        `kind` keeps one kind (turn, fact, …); `as_of` answers with what was believed then (the facts valid at
        that time, and only what had been said by then).
        """
        filters = RecallFilters(
            user_id=user_id or self.user_id, session_id=session_id, kind=kind,
            since=None if since is None else to_epoch(since, "since"),
            until=None if until is None else to_epoch(until, "until"),
            as_of=None if as_of is None else to_epoch(as_of, "as_of"),
        )
        self._index_quietly()
        return self.retriever.recall(query, k, filters)

    # --- reading -------------------------------------------------------------------------------------
    def sessions(self, user_id: str | None = None, limit: int | None = None) -> list[SessionInfo]:
        return self.store.sessions(user_id or self.user_id, limit)

    def session_turns(self, session_id: str, user_id: str | None = None) -> list[StoredTurn]:
        return self.store.session_turns(user_id or self.user_id, session_id)

    def facts(self, user_id: str | None = None, include_superseded: bool = False, *,
              session_id: str | None = None, types: Iterable[str] | None = None) -> list[Fact]:
        """Stored facts, newest first (current ones unless `include_superseded`)."""
        return self.store.facts(user_id or self.user_id, include_superseded=include_superseded,
                                session_id=session_id, types=types)

    def fact_history(self, fact_id: int, user_id: str | None = None) -> list[Fact]:
        """The supersession chain through a fact, newest first. KeyError for an unknown id."""
        return self.store.fact_history(user_id or self.user_id, int(fact_id))

    def entities(self, user_id: str | None = None) -> list[Entity]:
        """People, organisations and projects named in facts, most mentioned first, with aliases and edges."""
        return self.store.entities(user_id or self.user_id)

    def profile(self, name: str, user_id: str | None = None) -> dict[str, Any]:
        """An entity's profile (the LLM's synthesis, or its durable facts) and its current facts.

        KeyError when no entity has that name or alias."""
        uid = user_id or self.user_id
        entity = self.store.entity(uid, name)
        if entity is None:
            raise KeyError(f"no entity named {name!r} for user {uid!r}")
        facts = self.store.entity_facts(uid, entity.id)
        return {**entity.to_dict(), "profile": profile_text(facts, entity.profile),
                "facts_list": [f.to_dict() for f in facts]}

    def stats(self, user_id: str | None = None) -> dict[str, Any]:
        stats: dict[str, Any] = dict(self.store.counts(user_id or self.user_id))
        stats.update(self.store.fact_counts(user_id or self.user_id))
        stats["routes"] = self.store.route_counts(user_id or self.user_id)
        stats.update(
            user_id=user_id or self.user_id,
            db=self.store.path,
            journal=str(self.journal.root) if self.journal.root else None,
            schema_version=self.store.schema_version,
            file_bytes=self.store.file_size(),
        )
        embedder = self.embedder()
        counts = self.store.vector_counts(user_id or self.user_id)
        stats["embedder"] = embedder.model_id if embedder else "off"
        stats["vectors"] = counts.get(embedder.model_id, 0) if embedder else 0
        stale = {model: n for model, n in counts.items() if not embedder or model != embedder.model_id}
        if stale:
            stats["stale_vectors"] = stale  # made by another model: run `episodic reindex`
        reranker = self.reranker()
        stats["reranker"] = reranker.model_id if reranker else "off"
        return stats

    # --- where were we: episodes, workstreams, open loops, the briefing ------------------------------
    def episodes(self, user_id: str | None = None, limit: int | None = None) -> list[Episode]:
        """One episode per consolidated session, newest first, with the session's facts attached."""
        return self.store.episodes(user_id or self.user_id, limit=limit)

    def workstreams(self, user_id: str | None = None, include_hypotheses: bool = False, *,
                    limit: int | None = None) -> list[Workstream]:
        """Threads of work across sessions, most recently active first (confirmed ones unless asked)."""
        return self.store.workstreams(user_id or self.user_id, include_hypotheses=include_hypotheses, limit=limit)

    def loops(self, user_id: str | None = None, status: str = "open", *, workstream_id: int | None = None,
              limit: int | None = None) -> list[Loop]:
        """Open loops (or `status` "closed" / "all"), newest first; of one workstream when asked."""
        return self.store.loops(user_id or self.user_id, status, workstream_id=workstream_id, limit=limit)

    def close_loop(self, loop_id: int, user_id: str | None = None, note: str | None = None) -> Loop:
        """Close a loop by hand. KeyError when the user has no loop with that id."""
        if isinstance(loop_id, bool) or not isinstance(loop_id, int):
            raise TypeError(f"loop_id must be an int, got {type(loop_id).__name__}")
        return self.store.close_loop(user_id or self.user_id, loop_id, closed_by="user", note=note)

    def brief(self, hours: float = 24, user_id: str | None = None, *, now: datetime | str | None = None) -> Brief:
        """The startup briefing: the last `hours`' sessions, decisions and corrections, the open loops and the
        active workstreams (`now` for a briefing as of another time)."""
        return build_brief(self.clients, user_id or self.user_id, hours,
                           now=None if now is None else to_epoch(now, "now"))

    # --- forgetting ----------------------------------------------------------------------------------
    def forget(
        self,
        *,
        session_id: str | None = None,
        user_id: str | None = None,
        all: bool = False,  # noqa: A002 - mirrors the CLI flag
    ) -> dict[str, int]:
        """Delete a session, a user, or everything — rows, FTS entries and journals — then scrub the file.

        `forget(session_id=…)` acts on the memory's user unless `user_id` is given; `forget(user_id=…)` removes that
        user; `forget(all=True)` removes every user.
        """
        if all and (session_id or user_id):
            raise ValueError("forget(all=True) takes no session_id or user_id")
        if not all and session_id is None and user_id is None:
            raise ValueError("forget needs session_id=…, user_id=… or all=True")
        uid = user_id or self.user_id
        self.scheduler.wait(None if all else uid)  # nothing half-consolidated may write back what is being forgotten
        held = nullcontext() if all or session_id is None else self.scheduler.session_lock(uid, session_id)
        with held, self.recorder.locked():
            if all:
                result = self.store.forget()
                self.journal.delete_all()
            elif session_id is not None:
                result = self.store.forget(user_id=uid, session_id=session_id)
                if self.journal.enabled:
                    self.journal.delete(self.journal.relative_path(uid, session_id))
            else:
                assert user_id is not None
                result = self.store.forget(user_id=user_id)
                if self.journal.enabled:
                    self.journal.delete_user(user_id)
            for file in result.pop("journal_files"):
                self.journal.delete(file)
            self.store.scrub()
            self.indexer.forget_watermarks()
            self.retriever.forget_cached()
        return result

    # --- judgments -----------------------------------------------------------------------------------
    @property
    def judgments(self) -> JudgmentMemory:
        """How to act, ranked by proven utility (`episodic_memory.judgments`): this memory's user's judgments, in
        this store, with this embedder. Created on first use."""
        if "_judgments" not in self.__dict__:
            self.__dict__.setdefault("_judgments", JudgmentMemory(self.clients, self.user_id))
        return self.__dict__["_judgments"]

    # --- lifecycle -----------------------------------------------------------------------------------
    def close(self) -> None:
        """Finish background consolidation (unless the scheduler is shared), then close the file."""
        if not self.scheduler.shared:
            self.scheduler.close()
        self.store.close()
        if self._owns_llm:
            self.llm.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory({self.path!r}, user_id={self.user_id!r})"


def _check_id(value: object, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value


__all__ = ["Memory", "MEMORY_PATH"]
