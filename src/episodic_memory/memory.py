"""`Memory`: the front door. Every other entry point (CLI, servers, the compatibility APIs) goes through it;
when consolidation runs is `Memory.scheduler`'s to decide (docs/architecture.md, "Threads and processes")."""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from . import llm, portable, vault
from .brief import Brief, build_brief
from .capture.journal import ForgetScope, Journal
from .capture.recorder import NewTurn, Recorder, RecoveryReport
from .clients import MemoryClients
from .config import DEFAULT_USER, MEMORY_PATH, Config, default_db_path
from .consolidate import ConsolidationStep, default_steps
from .consolidate.fact_types import FACT_TYPES
from .consolidate.lease import ConsolidationLease
from .consolidate.scheduler import ConsolidationScheduler
from .faults import fault_point
from .heuristics import rules_off
from .llm import Backend, LLMClient, client_for
from .llm.backoff import BackingOffClient, Outage
from .models.ids import bundled_model_id
from .retrieve.hit import Hit
from .retrieve.indexer import Indexer
from .retrieve.kinds import REGISTRY
from .scopes import agent_owner, check_agent, check_agents, check_user, scope_of
from .store import Store, is_postgres_url, open_store
from .store.location import store_file_at, store_files
from .store.records import Entity, Episode, Fact, Loop, NewFact, NewLoop, SessionInfo, StoredTurn, Workstream
from .util import (
    ROLES,
    TEXT_MEMOS,
    Role,
    check_id,
    check_metadata,
    check_source,
    check_tags,
    forget_remembered_texts,
    give_back_freed_memory,
    has_words,
    to_datetime,
    to_epoch,
)
from .util import check_unicode as _check_unicode

if TYPE_CHECKING:  # imported where first used: opening a Memory (every `episodic` command) needs no numpy or model
    from .judgments.memory import Judgment, JudgmentMemory, SearchResult
    from .models.embedder import Embedder
    from .models.reranker import Reranker
    from .retrieve.retriever import Retriever

log = logging.getLogger(__name__)
T = TypeVar("T")

OFF = {"off", "none", ""}
CURATED_SESSION = "curated"  # where facts stored by hand (`add_fact`) are filed: `forget(session_id=...)` drops them


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
        agent: str | None = None,
    ) -> None:
        """Open (or create) the store at `path`. `embedder`/`reranker` override the models named in `config`,
        `llm` (a backend or an `LLMClient`) the LLM (`episodic_memory.llm`); `agent` opens that agent's scope
        instead of a user's (README, "Agent scopes")."""
        self.config = config or Config.from_env()
        TEXT_MEMOS.set_budget(int(self.config.retrieval.text_memo_mb * (1 << 20)))  # process-wide, like the memos
        self.llm, self._owns_llm = client_for(config, llm)
        self._model_lock = threading.Lock()  # one load of each model when threads race to the first use
        self._embedder: Embedder | None = embedder
        self._embedder_failed = False
        self._reranker: Reranker | None = reranker
        self._reranker_failed = False
        self.agent = None if agent is None else check_agent(agent)
        self.user_id = check_user(user_id) if agent is None else agent_owner(agent)
        self.path = str(path) if path is not None else str(default_db_path())
        self.store: Store = open_store(self.path, self.config)
        # read-only: nothing to journal, nothing to recover; a server database is its own durable log
        if self.store.in_memory or self.config.store.read_only or is_postgres_url(self.store.path):
            self.journal, lock_path = Journal(None), None
        else:
            db_path = Path(self.store.path)
            self.journal = Journal(journal_dir_for(db_path), fsync=self.config.capture.fsync_journal)
            lock_path = db_path.with_name(db_path.name + ".lock")
        self.recorder = Recorder(self.store, self.journal, lock_path, self.config, scrub=self._scrub)
        self.indexer = Indexer(self.store, self.embedder, self.config)
        # consolidation's calls back off from an LLM that just failed, remembered in the store (`llm.backoff`)
        self.llm_backoff = BackingOffClient(self.llm, self.store)
        self.clients = MemoryClients(  # what consolidation, judgments and the briefing may use: never `self`
            store=self.store, config=self.config, embedder=self.embedder,
            dense_index=lambda: self.retriever.dense_index(), indexer=self.indexer, llm=self.llm_backoff,
            path=self.path, scrub=self._scrub)
        self.scheduler = ConsolidationScheduler(  # consolidation off the capture path or not: see Config
            lambda u, s, final: self.consolidate(u, s, final=final), lambda u, s: self.store.session(u, s),
            every=lambda: self.config.capture.consolidate_every, background=self._consolidates_in_background,
            pending=lambda: self.store.sessions_needing_consolidation(),
            run_in_windows=lambda u, s, final, points: self.consolidate_in_windows(u, s, final=final, points=points),
            nice=lambda: self.config.capture.background_nice, housekeeping=self.housekeeping)
        self._steps: list[ConsolidationStep] | None = None
        self._retriever: Retriever | None = None
        self._lazy_lock = threading.Lock()
        self.lease = ConsolidationLease(self.store, self.config)  # one consolidation of a session across processes
        self.last_recovery: RecoveryReport = self.recorder.recover()
        if self.config.capture.consolidate_on_open and not self.config.store.read_only:
            self._consolidate_at_open()

    def _scrub(self) -> bool:
        """`Store.scrub`, the dense index's cache beside the store reconciled with it first: nothing deleted stays in
        a file (`retrieve.sidecar.sweep`)."""
        from .retrieve.sidecar import sweep

        sweep(self.store)
        return self.store.scrub()

    @property
    def retriever(self) -> Retriever:
        """Recall's ranking (made at the first recall: it needs numpy). One per Memory, also when threads race."""
        if self._retriever is None:
            with self._lazy_lock:
                if self._retriever is None:
                    from .retrieve.retriever import Retriever

                    self._retriever = Retriever(self.store, self.config, embedder=self.embedder,
                                                reranker=self.reranker)
        return self._retriever

    @property
    def consolidation_steps(self) -> list[ConsolidationStep]:
        """The steps `consolidate` runs, in order (`consolidate.default_steps()` unless set; append to add one)."""
        if self._steps is None:
            self._steps = default_steps()
        return self._steps

    @consolidation_steps.setter
    def consolidation_steps(self, steps: list[ConsolidationStep]) -> None:
        self._steps = steps

    # --- models (loaded on first use; recall degrades to BM25 without an embedder) ---------------------
    def embedder(self) -> Embedder | None:
        """The embedder, loaded at the first call (one load when threads race: `AsyncMemory` calls from several)."""
        if self._embedder is None and not self._embedder_failed and self.config.models.embedder.lower() not in OFF:
            with self._model_lock:
                if self._embedder is None and not self._embedder_failed:
                    from .models.embedder import load_embedder

                    self._embedder, self._embedder_failed = self._load_model(
                        load_embedder, self.config.models.embedder, "embedder %r unavailable (%s); recall uses BM25 only")
        return self._embedder

    def _embedder_id(self) -> str | None:
        """The embedder's model id (None: off or failed to load); a bundled model is named without loading it."""
        if self._embedder is not None:
            return self._embedder.model_id
        if self._embedder_failed or self.config.models.embedder.lower() in OFF:
            return None
        known = bundled_model_id(self.config.models.embedder)
        if known is not None:
            return known
        embedder = self.embedder()
        return embedder.model_id if embedder else None

    def reranker(self) -> Reranker | None:
        """The cross-encoder, loaded at the first call (None when off or failed)."""
        if self._reranker is None and not self._reranker_failed and self.config.models.reranker:
            with self._model_lock:
                if self._reranker is None and not self._reranker_failed:
                    from .models.reranker import load_reranker

                    self._reranker, self._reranker_failed = self._load_model(
                        load_reranker, self.config.models.reranker,
                        "reranker %r unavailable (%s); recall runs without reranking")
        return self._reranker

    def _load_model(self, load: Callable[[str, int], T], spec: str, warning: str) -> tuple[T | None, bool]:
        """`load(spec, threads)` (`embedder`, `reranker`) and whether it failed: then None, and `warning` logged (a
        %-format of the spec and the error); recall goes on without the model."""
        try:
            return load(spec, self.config.models.threads), False
        except Exception as exc:
            log.warning(warning, spec, exc)
            return None, True

    def index(self, progress: Callable[[int], None] | None = None, user_id: str | None = None) -> int:
        """Embed every stored turn (of `user_id`, else of every user) that has no vector of the current model yet.
        Returns how many."""
        return self.indexer.embed_pending(progress, user_id=user_id)

    def reindex(self, progress: Callable[[int], None] | None = None) -> int:
        """After a model change: embed everything with the current model, then drop other models' vectors."""
        embedder = self.embedder()
        if embedder is None:
            raise RuntimeError("no embedder is configured (Config.models.embedder is off or failed to load)")
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
        source: str | None = None,
        tags: Iterable[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Record one turn: journaled and fsynced, then stored. Returns its id (`turn_id` when given).
        `source`, `tags` (recall filters on them) and `metadata` (a JSON object, never searched) are kept with
        it (README, "Library")."""
        return self.add_turns(
            [{"role": role, "content": content, "session_id": session_id, "speaker": speaker,
              "timestamp": timestamp, "turn_id": turn_id, "user_id": user_id, "source": source, "tags": tags,
              "metadata": metadata}]
        )[0]

    def add_turns(self, turns: Iterable[Mapping[str, Any]]) -> list[str]:
        """Record many turns with one lock, one fsync and one transaction per session (fast ingest).

        Each mapping has the keyword arguments of `add_turn`. Everything is validated before anything is written.
        """
        if self.config.store.read_only:
            raise PermissionError(f"{self.path} is open read-only (Config.store.read_only): it takes no turns")
        turns = list(turns)
        new = [self._new_turn(t, f"turn {i}: " if len(turns) > 1 else "") for i, t in enumerate(turns)]
        if not new:
            return []
        records = self.recorder.record(new)
        ids = self.store.ids_for_uids([r.uid for r in records])
        for user_id, session_id in dict.fromkeys((t.user_id, t.session_id) for t in new):
            self.scheduler.turns_added(user_id, session_id)
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
        if role.strip().lower() not in ROLES:
            raise ValueError(f"{where}role must be one of {', '.join(ROLES)}, got {role!r}")
        if not isinstance(content, str):
            raise TypeError(f"{where}content must be a string, got {type(content).__name__}")
        if len(content) > self.config.capture.max_turn_chars:
            raise ValueError(f"{where}content is {len(content):,} characters, over the limit of "
                             f"{self.config.capture.max_turn_chars:,} (Config.capture.max_turn_chars)")
        session_id = check_id(t.get("session_id"), f"{where}session_id")
        user_id = self._user(t.get("user_id"), f"{where}user_id")
        speaker, turn_id = t.get("speaker"), t.get("turn_id")
        for name, value in (("speaker", speaker), ("turn_id", turn_id)):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{where}{name} must be a string, got {type(value).__name__}")
        for name, value in (("content", content), ("session_id", session_id), ("user_id", user_id),
                            ("speaker", speaker), ("turn_id", turn_id)):
            _check_unicode(value, f"{where}{name}")
        return NewTurn(role=role.strip().lower(), content=content, session_id=session_id, user_id=user_id,
                       ts=to_epoch(t.get("timestamp"), f"{where}timestamp"), speaker=speaker, turn_id=turn_id,
                       source=check_source(t.get("source"), f"{where}source"),
                       tags=check_tags(t.get("tags"), f"{where}tags") or None,
                       metadata=check_metadata(t.get("metadata"), f"{where}metadata",
                                               max_chars=self.config.capture.max_turn_metadata_chars,
                                               max_depth=self.config.capture.max_json_depth))

    def pop_turn(self, session_id: str, user_id: str | None = None) -> StoredTurn | None:
        """Remove the session's latest turn and return it (None when it has none): an agent framework's undo.
        Its search entries and vectors go with it, after a consolidation of the session under way; facts drawn
        from it stay until the session is forgotten (`forget` promises the text is gone)."""
        if self.config.store.read_only:
            raise PermissionError(f"{self.path} is open read-only (Config.store.read_only): no turn can be removed")
        uid = self._user(user_id)
        session_id = check_id(session_id, "session_id")
        with self.scheduler.session_lock(uid, session_id), self.recorder.locked():
            turn = self.store.pop_turn(uid, session_id)
        if turn is not None and self._retriever is not None:
            self._retriever.forget_cached()
        return turn

    def end_session(self, session_id: str, user_id: str | None = None, *, wait: bool | None = None) -> None:
        """Close a session and have what it has not consolidated yet consolidated: by default it returns once
        the end is durable and the final run queued (the user's next read waits for it); `wait=True` or
        `Config.capture.end_session_waits` waits for the run (docs/write-path.md, "Session end")."""
        user_id = self._user(user_id)
        wait = self.config.capture.end_session_waits if wait is None else wait
        if wait or not self._consolidates_in_background():
            with self.scheduler.session_lock(user_id, session_id):  # after its running and queued runs, if any
                if not self.store.end_session(user_id, session_id):
                    raise KeyError(f"no session {session_id!r} for user {user_id!r}")
                fault_point("session.after_end")
                self.scheduler.run_now(user_id, session_id, final=True)
            return
        # flagged with the end, in one transaction: the final run is owed even with no new turn, and a crash
        # before it runs leaves it to the next open (a run of the session under way meanwhile re-flags it)
        if not self.store.end_session(user_id, session_id, owed=True):
            raise KeyError(f"no session {session_id!r} for user {user_id!r}")
        fault_point("session.after_end")
        self.scheduler.submit(user_id, session_id, final=True)

    def _user(self, user_id: str | None, name: str = "user_id") -> str:
        """`user_id` (or this memory's user or agent scope), checked as every door checks an id (`util.check_id`: a
        NUL or a newline in one would reach SQL and full-text queries); another agent's scope is refused
        (`scopes.check_user`): it is reached by `agent=`, never by a user id."""
        if not user_id or user_id == self.user_id:
            return self.user_id
        return check_user(user_id, name)

    def _scopes(self, uid: str, agents: Iterable[str] | None) -> list[str]:
        """The owners a read covers: `uid`, then the named agents' scopes (each once)."""
        return list(dict.fromkeys([uid, *(agent_owner(a) for a in check_agents(agents))]))

    def _settled(self, user_id: str | None) -> str:
        """`user_id` (or this memory's user), once the final runs of its ended sessions are done: what a read
        returns after `end_session` includes that session's consolidation. A scheduler shared by a server's
        Memories is not waited for (its reads never wait on consolidation)."""
        return self._settled_owner(self._user(user_id))

    def _across(self, user_id: str | None, agents: Iterable[str] | None, read: Callable[[str], list[T]], *,
                newest: Callable[[T], Any], limit: int | None = None) -> list[T]:
        """`read` of the user's scope, then of each of `agents`' (each once its ended sessions are consolidated:
        `_settled`); several scopes' rows merged in the order `newest` sorts them, the first `limit` kept."""
        owners = self._scopes(self._settled(user_id), agents)
        found = [row for owner in owners for row in read(self._settled_owner(owner))]
        if len(owners) > 1:
            found.sort(key=newest)
        return found[:limit] if limit is not None else found

    def _settled_owner(self, owner: str) -> str:
        """`_settled` for any scope's owner id (an agent's too: reads name them by `agents=`)."""
        if not self.scheduler.shared:
            self.scheduler.wait_ended(owner)
        return owner

    def _settled_all(self) -> None:
        """`_settled` for every user (before a whole-store copy)."""
        if not self.scheduler.shared:
            self.scheduler.wait()

    # --- consolidation -------------------------------------------------------------------------------
    def _llm_on(self) -> bool:
        """Whether consolidation would call an LLM (a configuration that cannot work takes the rules)."""
        try:
            return self.llm.enabled()
        except llm.LLMConfigError:
            return False

    def _consolidate_at_open(self) -> None:
        """The sessions pending consolidation, unless that would wait on the LLM and the config says not to
        (`Config.capture.consolidate_on_open_with_llm`: the CLI's read commands)."""
        if not self.config.capture.consolidate_on_open_with_llm:
            pending = self.store.sessions_needing_consolidation()
            if pending and self._llm_on():  # (the LLM's backend is looked at only when there is work for it)
                log.info("%d session(s) await consolidation with the LLM: left to the next writer", len(pending))
                return
        self.consolidate_pending()

    def _consolidates_in_background(self) -> bool:
        mode = self.config.capture.consolidate_in_background
        return self._llm_on() if mode == "auto" else mode == "on"

    def llm_outage(self) -> Outage | None:
        """The back-off in force from this store's LLM (`llm.backoff`): when it is asked again and why; None when
        it may be asked now."""
        return self.llm_backoff.outage() if self._llm_on() else None

    def housekeeping(self) -> None:
        """What the background worker does after each run (a server's, through any open Memory of the file): fold
        the WAL in, and now and then give the process's freed memory back (`Config.store.memory_trim_every_s`)."""
        self.store.checkpoint()
        if self.config.store.memory_trim_every_s:
            give_back_freed_memory(self.config.store.memory_trim_every_s)

    def wait_for_consolidation(self, session_id: str | None = None, user_id: str | None = None) -> None:
        """Block until background consolidation is done (of one session, or of all when `session_id` is None)."""
        self.scheduler.wait(None if session_id is None else self._user(user_id), session_id)

    def consolidate_in_windows(self, user_id: str, session_id: str, *, final: bool = False,
                               points: Sequence[int] = ()) -> bool:
        """`consolidate` in the windows inline runs would have had: up to each of `points` (the turn counts at
        which the session became due), or `consolidate_every` turns at a time; then the rest when the session
        is over or flagged, or this is its `final` run (docs/write-path.md, "Windows")."""
        every = self.config.capture.consolidate_every
        info = self.store.session(user_id, session_id)
        ends = iter(sorted(p for p in points if info is not None and p > info.consolidated_turns))
        while info is not None:
            end = next(ends, None) if points else info.consolidated_turns + every
            if end is None or end > info.turn_count:
                break
            if not self.consolidate(user_id, session_id, max_turns=end - info.consolidated_turns):
                return False
            before, info = info.consolidated_turns, self.store.session(user_id, session_id)
            if info is not None and info.consolidated_turns <= before:  # no progress (a gap in the seqs): stop
                break
        if info is None:
            return True
        if final or info.status == "ended" or info.needs_consolidation:
            return self.consolidate(user_id, session_id, final=final)
        return True

    def consolidate(self, user_id: str, session_id: str, *, final: bool = False, max_turns: int | None = None) -> bool:
        """Hand a session's unconsolidated turns to the consolidation steps. False if a step failed (the
        session is then flagged: `_consolidation_failed`) or another process consolidates the session.

        `final` (at session end) runs the steps even when no turn is new (entity profiles, the episode's final
        vector) and waits up to `Config.consolidation.lease_wait_s` for another process's run of the session.
        `max_turns` takes at most that many of the new turns (`consolidate_in_windows`).
        """
        if self.store.session(user_id, session_id) is None:
            return True
        if not self.lease.claim(user_id, session_id, wait=self.config.consolidation.lease_wait_s if final else 0):
            log.info("session %s/%s is being consolidated by another process; left flagged for later",
                     user_id, session_id)
            # not a final run: flagged only while turns wait. The holder may have recorded its run already (it
            # clears the flag as it records): a flag set then, with nothing left, would have the sweep run the
            # session's final steps a second time (two server processes, one session: tests/test_serve_processes.py)
            self.store.mark_for_consolidation(user_id, session_id, behind_only=not final)
            return False
        try:
            return self._consolidate(user_id, session_id, final, max_turns)
        finally:
            self.lease.release(user_id, session_id)

    def _consolidation_failed(self, user_id: str, session_id: str) -> None:
        """Flag the session for a retry after a back-off (`Config.consolidation.retry_s`), not at every open: a
        session that cannot be consolidated (bad data) must not cost every start of every process."""
        try:
            retry_at = self.store.record_consolidation_failure(user_id, session_id)
            log.info("consolidation of %s/%s is retried in %.0f s at the earliest", user_id, session_id,
                     retry_at - time.time())
        except Exception:
            log.exception("could not record the failed consolidation of %s/%s", user_id, session_id)

    def _consolidate(self, user_id: str, session_id: str, final: bool, max_turns: int | None = None) -> bool:
        """`consolidate`, holding the session's lease."""
        info = self.store.session(user_id, session_id)  # read under the lease: what another process did is in it
        if info is None:
            return True
        self._index_quietly(user_id)
        turns = self.store.session_turns(user_id, session_id, from_seq=info.consolidated_turns)
        if max_turns is not None:
            turns = turns[:max_turns]
        final = final or bool(turns and info.status == "ended")  # a late turn's run: the session is over
        if not turns and not final:
            self.store.record_consolidated(user_id, session_id, info.consolidated_turns)
            return True
        # an LLM configuration that cannot work takes the rules; an unreachable one postpones the run
        # (`_run_steps`) until its newest turn waited Config.llm.outage_rules_after_s (README, "Using an LLM")
        clients = self.clients if self.llm.usable() else replace(self.clients, llm=llm.RULES_ONLY)
        with rules_off(self.config.consolidation.rules_off):
            return self._run_steps(clients, user_id, session_id, info, turns, final)

    def _run_steps(self, clients: MemoryClients, user_id: str, session_id: str, info: SessionInfo,
                   turns: list[StoredTurn], final: bool) -> bool:
        """The consolidation steps over `turns`, in order (see `_consolidate`)."""
        from .consolidate.extract import ExtractionFailed

        for step in self.consolidation_steps:
            try:
                try:
                    step(clients, info, turns)
                except (ExtractionFailed, llm.LLMFailed) as exc:
                    waited = time.time() - max((t.ingested_at for t in turns), default=time.time())
                    failed = exc if isinstance(exc, llm.LLMFailed) else exc.__cause__
                    what = ("the LLM turned the request away" if getattr(failed, "kind", "") == "refused"
                            else "the LLM is unreachable")
                    if waited < self.config.llm.outage_rules_after_s:
                        llm.warn_once(log, f"{what} ({exc}): consolidation is postponed, the turns are stored and "
                                           "searchable, and it is retried at the next open", key=f"postponed: {what}")
                        self.store.mark_for_consolidation(user_id, session_id)
                        return False
                    llm.warn_once(log, f"{what} ({exc}) and session {session_id!r} has waited "
                                       f"{waited / 60:.0f} min: consolidating it with the rules",
                                  key=f"rules after: {what}")
                    clients = replace(self.clients, llm=llm.RULES_ONLY)
                    step(clients, info, turns)
            except Exception:
                log.exception("consolidation of session %s/%s failed in %s; it will be retried later",
                              user_id, session_id, getattr(step, "__name__", step))
                self._consolidation_failed(user_id, session_id)
                return False
            fault_point("consolidate.after_step")
            if not self.lease.renew(user_id, session_id):  # it lapsed and another process took it over
                log.warning("consolidation of %s/%s outlived its lease; left to the process that took it over",
                            user_id, session_id)
                return False
        self.store.record_consolidated(user_id, session_id, turns[-1].seq + 1 if turns else info.consolidated_turns)
        if not final:  # the session may have ended while this run went on: its final run is still owed
            now = self.store.session(user_id, session_id)
            if now is not None and now.status == "ended":
                self.store.mark_for_consolidation(user_id, session_id)
        self._sync_vault([user_id])
        return True

    def _index_quietly(self, user_id: str, limit: int | None = None) -> None:
        """Embed `user_id`'s new turns and facts, at most `limit` of them (only theirs: another user's backlog never
        runs in this call)."""
        if self.config.store.read_only:  # what has no vector yet is found by BM25
            return
        try:
            self.indexer.embed_pending(user_id=user_id, limit=limit)
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
        source: str | None = None,
        tags: Iterable[str] | None = None,
        now: datetime | str | float | None = None,
        agents: Iterable[str] | None = None,
    ) -> list[Hit]:
        """The `k` memories most relevant to `query`, best first.

        `agents` adds those agents' scopes to the user's, each recalled on its own, the hits merged by score;
        `details["scope"]` says whose a hit is (README, "Agent scopes").

        `kind` keeps one kind (turn, fact, …); `as_of` answers with what was believed then (the facts valid at
        that time, and only what had been said by then). `source` and `tags` keep the turns from that source
        carrying every one of the tags, and the memories distilled from such turns. A query without a letter or digit
        recalls nothing.

        `now` (a datetime, an ISO-8601 string or epoch seconds; naive means UTC) is the moment the question is
        asked: recency and time phrases ("last week") count from it; default the wall clock, or `as_of`. It
        filters nothing (docs/retrieval.md, "Time: now, relative dates and state changes").
        """
        from .retrieve.query import analyze
        from .retrieve.retriever import RecallFilters

        filters = RecallFilters(
            user_id=self._settled(user_id), kind=kind,
            session_id=None if session_id is None else check_id(session_id, "session_id"),
            since=None if since is None else to_epoch(since, "since"),
            until=None if until is None else to_epoch(until, "until"),
            as_of=None if as_of is None else to_epoch(as_of, "as_of"),
            source=check_source(source, "source"), tags=check_tags(tags, "tags"),
        )
        at = filters.as_of if now is None else to_epoch(now, "now")
        _check_unicode(query, "query")
        if not has_words(query):  # nothing asked, nothing recalled (not whatever sits nearest an empty vector)
            return []
        owners = self._scopes(filters.user_id, agents)
        for owner in owners[1:]:
            self._settled_owner(owner)
        hits: list[Hit] = []
        with self.store.read_snapshot(), rules_off(self.config.consolidation.rules_off):   # counters read once for the recall
            for owner in owners:
                self._index_quietly(owner, self.config.retrieval.embed_first())
            at = time.time() if at is None else at  # one moment for every scope: recency and time phrases count from it
            info = analyze(query, now=to_datetime(at))  # the query read once; each scope finds its own names in it
            for owner in owners:
                for hit in self.retriever.recall(query, k, replace(filters, user_id=owner), now=at, info=info):
                    hit = hit.copy()
                    hit.details["scope"] = scope_of(owner)
                    hits.append(hit)
        if len(owners) == 1:
            return hits
        return sorted(hits, key=lambda h: -h.score)[:k]

    # --- reading -------------------------------------------------------------------------------------
    def sessions(self, user_id: str | None = None, limit: int | None = None) -> list[SessionInfo]:
        return self.store.sessions(self._user(user_id), limit)

    def session(self, session_id: str, user_id: str | None = None) -> SessionInfo | None:
        """One session; None when the user has none with that id."""
        return self.store.session(self._settled(user_id), session_id)

    def episode(self, session_id: str, user_id: str | None = None) -> Episode | None:
        """A session's episode (its summary, keyphrases and workstream); None before consolidation made one."""
        return self.store.session_episode(self._settled(user_id), session_id)

    def derived_counts(self, user_id: str | None = None) -> dict[str, int]:
        """How many facts (current and superseded), episodes, workstreams (hypotheses too), loops, entities and
        judgments the user has."""
        return self.store.derived_counts(self._settled(user_id))

    def session_facts(self, session_ids: Iterable[str], user_id: str | None = None) -> dict[str, list[dict[str, Any]]]:
        """The facts each session yielded (current or superseded: `current`), oldest first."""
        return self.store.session_facts(self._settled(user_id), list(session_ids))

    def session_turns(self, session_id: str, user_id: str | None = None) -> list[StoredTurn]:
        return self.store.session_turns(self._user(user_id), session_id)

    def turns_before(self, hits: Iterable[Hit], user_id: str | None = None) -> dict[str, StoredTurn]:
        """For each hit said in one turn (a turn, or a fact drawn from one), by hit id: the turn said just before
        that one in its session, when there is one — what a short reply ("Yes! It was amazing.") answers."""
        user = self._user(user_id)
        said_in: dict[int, list[str]] = {}
        for hit in hits:
            if hit.kind == "turn" and hit.id.startswith("turn:"):
                sources = [int(hit.id.removeprefix("turn:"))]
            elif hit.kind == "fact":
                sources = hit.details.get("source_turns") or []
            else:
                continue
            if len(sources) == 1:
                said_in.setdefault(int(sources[0]), []).append(hit.id)
        if not said_in:
            return {}
        return {hit_id: turn for i, turn in self.store.previous_turns(sorted(said_in)).items()
                if turn.user_id == user for hit_id in said_in[i]}

    def turns_since(self, since: datetime | str | float, user_id: str | None = None, *, limit: int | None = None
                    ) -> list[StoredTurn]:
        """The turns said since then, newest first."""
        return self.store.turns_since(self._user(user_id), to_epoch(since, "since"), limit)

    def facts(self, user_id: str | None = None, include_superseded: bool = False, *,
              session_id: str | None = None, types: Iterable[str] | None = None,
              agents: Iterable[str] | None = None) -> list[Fact]:
        """Stored facts, newest first (current ones unless `include_superseded`); with `agents`, those agents'
        facts too (`Fact.user_id` is the owner: `scopes.scope_of` says whose)."""
        return self._across(user_id, agents, lambda owner: self.store.facts(
            owner, include_superseded=include_superseded, session_id=session_id, types=types),
            newest=lambda f: -f.created_at)

    def add_fact(self, text: str, *, type: str = "knowledge", importance: int | None = None,  # noqa: A002
                 session_id: str = CURATED_SESSION, user_id: str | None = None) -> int:
        """Store a fact by hand (a curated memory: the Memory Anchor layer's `remember`, docs/compat.md):
        durable, confidence 1, no source turns, its salience `importance` / 10 (without one, the type's
        prior). Returns its id; the same text and type again returns the same id and counts one more
        recurrence."""
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"text must be a non-empty string, got {text!r}")
        if type not in FACT_TYPES:
            raise ValueError(f"unknown fact type {type!r}: use one of {', '.join(FACT_TYPES)}")
        if importance is not None and (isinstance(importance, bool) or not isinstance(importance, int)
                                       or not 1 <= importance <= 10):
            raise ValueError(f"importance must be an int from 1 to 10, got {importance!r}")
        uid = self._user(user_id)
        text = " ".join(text.split())
        origin = "curated:" + hashlib.sha1(f"{type}|{text.lower()}".encode()).hexdigest()
        known = self.store.fact_id_by_origin(uid, origin)
        if known is not None:
            self.store.bump_fact(uid, known, [], salience_add=0.0, durable_floor=self.config.consolidation.durable_floor)
            return known
        now = self.clients.clock()
        salience = FACT_TYPES[type].prior if importance is None else importance / 10
        return self.store.insert_fact(NewFact(
            user_id=uid, session_id=check_id(session_id, "session_id"), type=type, text=text, route="durable",
            salience=salience, confidence=1.0, event_ts=None, created_at=now, source_ids=[], origin=origin,
            extractor="curated"))

    def fact_history(self, fact_id: int, user_id: str | None = None) -> list[Fact]:
        """The supersession chain through a fact, newest first. KeyError for an unknown id."""
        return self.store.fact_history(self._settled(user_id), int(fact_id))

    def entities(self, user_id: str | None = None) -> list[Entity]:
        """People, organisations and projects named in facts, most mentioned first, with aliases and edges."""
        return self.store.entities(self._settled(user_id))

    def profile(self, name: str, user_id: str | None = None) -> dict[str, Any]:
        """An entity's profile (the LLM's synthesis, or its durable facts) and its current facts.

        KeyError when no entity has that name or alias."""
        uid = self._settled(user_id)
        entity = self.store.entity(uid, name)
        if entity is None:
            raise KeyError(f"no entity named {name!r} for user {uid!r}")
        from .consolidate.facts import profile_text

        facts = self.store.entity_facts(uid, entity.id)
        return {**entity.to_dict(), "profile": profile_text(facts, entity.profile),
                "facts_list": [f.to_dict() for f in facts]}

    def stats(self, user_id: str | None = None) -> dict[str, Any]:
        stats: dict[str, Any] = dict(self.store.counts(self._settled(user_id)))
        stats.update(self.store.fact_counts(self._user(user_id)))
        # what the facts table holds is counted there (a forgotten session or fact leaves no stale count); what left
        # no fact (dropped, restated, duplicate, …) is the router's own tally
        routes = {k: v for k, v in self.store.route_counts(self._user(user_id)).items()
                  if k not in ("durable", "episodic", "superseded")}
        routes.update(self.store.facts_by_route(self._user(user_id)))
        if stats["superseded_facts"]:
            routes["superseded"] = stats["superseded_facts"]
        stats["routes"] = dict(sorted(routes.items()))
        stats.update(
            user_id=self._user(user_id),
            db=self.store.path,
            journal=str(self.journal.root) if self.journal.root else None,
            schema_version=self.store.schema_version,
            file_bytes=self.store.file_size(),
        )
        model = self._embedder_id()
        counts = self.store.vector_counts(self._user(user_id))
        stats["embedder"] = model or "off"
        stats["vectors"] = counts.get(model, 0) if model else 0
        stale = {m: n for m, n in counts.items() if m != model}
        if stale:
            stats["stale_vectors"] = stale  # made by another model: run `episodic reindex`
        reranker = self.reranker()
        stats["reranker"] = reranker.model_id if reranker else "off"
        stats["ranker"] = self.config.retrieval.ranker  # learned (the shipped model) or fused (the hand-set sum)
        return stats

    # --- where were we: episodes, workstreams, open loops, the briefing ------------------------------
    def episodes(self, user_id: str | None = None, limit: int | None = None, *, workstream_id: int | None = None,
                 with_facts: bool = True) -> list[Episode]:
        """One episode per consolidated session, newest first, with the session's facts attached (unless not
        `with_facts`); of one workstream when asked."""
        return self.store.episodes(self._settled(user_id), limit=limit, workstream_id=workstream_id,
                                   with_facts=with_facts)

    def workstreams(self, user_id: str | None = None, include_hypotheses: bool = False, *,
                    limit: int | None = None, agents: Iterable[str] | None = None) -> list[Workstream]:
        """Threads of work across sessions, most recently active first (confirmed ones unless asked); with
        `agents`, those agents' too (`Workstream.user_id` is the owner: `scopes.scope_of` says whose)."""
        return self._across(user_id, agents, lambda owner: self.store.workstreams(
            owner, include_hypotheses=include_hypotheses, limit=limit),
            newest=lambda w: (-(w.last_activity or 0.0), -w.id), limit=limit)

    def loops(self, user_id: str | None = None, status: str = "open", *, workstream_id: int | None = None,
              limit: int | None = None, agents: Iterable[str] | None = None) -> list[Loop]:
        """Open loops (or `status` "closed" / "all"), newest first; of one workstream when asked. With `agents`,
        those agents' loops too (`Loop.user_id` is the owner: `scopes.scope_of` says whose)."""
        return self._across(user_id, agents, lambda owner: self.store.loops(
            owner, status, workstream_id=workstream_id, limit=limit),
            newest=lambda lp: (-lp.created_at, -lp.id), limit=limit)

    def close_loop(self, loop_id: int, user_id: str | None = None, note: str | None = None) -> Loop:
        """Close a loop by hand. KeyError when the user has no loop with that id."""
        loop_id = _row_id(loop_id, "loop_id")
        return self.store.close_loop(self._settled(user_id), loop_id, closed_by="user", note=note)

    def brief(self, hours: float = 24, user_id: str | None = None, *, now: datetime | str | None = None,
              agents: Iterable[str] | None = None) -> Brief:
        """The startup briefing: the last `hours`' sessions, decisions and corrections, the open loops and the
        active workstreams (`now`: as of another time). With `agents`, each list holds those agents' items
        too, newest first (`_merge_briefs`)."""
        owners = self._scopes(self._settled(user_id), agents)
        at = None if now is None else to_epoch(now, "now")
        if len(owners) == 1:
            return build_brief(self.clients, owners[0], hours, now=at)
        at = self.clients.clock() if at is None else at  # one window for every scope
        briefs = [(owner, build_brief(self.clients, self._settled_owner(owner), hours, now=at)) for owner in owners]
        return _merge_briefs(briefs, self.config.inject.brief_max_items)

    # --- forgetting ----------------------------------------------------------------------------------
    def forget(
        self,
        *,
        session_id: str | None = None,
        user_id: str | None = None,
        all: bool = False,  # noqa: A002 - mirrors the CLI flag
        agent: str | None = None,
    ) -> dict[str, int]:
        """Delete a session, a user, or everything — rows, FTS entries and journals — then scrub the file.

        `forget(session_id=…)` acts on the memory's user unless `user_id` is given; `forget(user_id=…)`
        removes that user, `forget(all=True)` every user, `forget(agent=NAME)` (with `session_id=…`: one
        session of it) that agent's scope alone. The result counts what went; `scrubbed` is 0 when a reader
        kept the deleted bytes in the file. What forget promises: README, "How capture stays safe".
        """
        if all and (session_id or user_id or agent):
            raise ValueError("forget(all=True) takes no session_id, user_id or agent")
        if agent is not None and user_id is not None:
            raise ValueError("forget takes user_id or agent, not both")
        if not all and session_id is None and user_id is None and agent is None:
            raise ValueError("forget needs session_id=…, user_id=…, agent=… or all=True")
        uid = self._user(user_id) if agent is None else agent_owner(agent)
        user_id = uid if user_id is not None or agent is not None else None
        self.scheduler.wait(None if all else uid)  # nothing half-consolidated may write back what is being forgotten
        held = nullcontext() if all or session_id is None else self.scheduler.session_lock(uid, session_id)
        with held:
            if session_id is not None and not self.lease.claim(  # nor another process's run of it
                    uid, session_id, wait=self.config.consolidation.lease_wait_s):
                log.warning("forget: session %s/%s is still being consolidated by another process after %.0fs; "
                            "forgetting it anyway", uid, session_id, self.config.consolidation.lease_wait_s)
            try:
                result = self.recorder.forget(ForgetScope(None if all else uid, session_id))
            finally:
                if session_id is not None:
                    self.lease.release(uid, session_id)
            self.indexer.forget_watermarks()
            if self._retriever is not None:
                self._retriever.forget_cached()
            # the process's memos of texts, and the embedder's of vectors by text: nothing forgotten stays in memory
            forget_remembered_texts()
            clear = getattr(self._embedder, "cache_clear", None)
            if clear is not None:
                clear()
        self._sync_vault(None if all else [uid if session_id is not None else user_id or uid])
        return result

    # --- changes by hand -----------------------------------------------------------------------------
    def find_turns(self, turn_id: str, user_id: str | None = None) -> list[StoredTurn]:
        """The turns with this caller id (one per session at most), or with this internal id when none has it."""
        uid = self._user(user_id)
        found = self.store.turns_by_caller_id(uid, str(turn_id))
        if not found and str(turn_id).isdigit():
            found = list(self.store.turns_by_id(uid, [int(turn_id)]).values())
        return found

    def _current_fact(self, fact_id: int, uid: str) -> Fact:
        fact = self.store.facts_by_id(uid, [_row_id(fact_id, "fact_id")]).get(fact_id)
        if fact is None:
            raise KeyError(f"no fact {fact_id} for user {uid!r}")
        return fact

    def edit_fact(self, fact_id: int, text: str, user_id: str | None = None) -> Fact:
        """Correct a fact by hand: a new fact with `text` supersedes it (its history keeps the old wording), with
        the same type, session, sources and entities, pinned if it was. Only a current fact can be edited."""
        uid = self._settled(user_id)
        old = self._current_fact(fact_id, uid)
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"the new text must be a non-empty string, got {text!r}")
        if not old.current:
            raise ValueError(f"fact {fact_id} was superseded by fact {old.superseded_by}: edit the current one")
        pinned = any(p["id"] == old.id for p in self.store.pinned_facts(uid))
        now = time.time()
        origin = hashlib.sha256(f"edit\x1f{old.id}\x1f{text.strip()}\x1f{now}".encode()).hexdigest()
        new_id = self.store.insert_fact(NewFact(
            user_id=uid, session_id=old.session_id, type=old.type, text=text.strip(), route="durable",
            salience=max(old.salience, 1.0), confidence=1.0, event_ts=old.event_ts, created_at=max(now, old.created_at),
            source_ids=list(old.source_ids), origin=origin, extractor="user"), supersedes=old.id)
        if old.entities:
            self.store.link_entities(uid, new_id, old.entities)
        if pinned:
            self.store.pin_fact(uid, new_id, True)
        self._sync_vault([uid])
        return self.store.facts_by_id(uid, [new_id])[new_id]

    def forget_fact(self, fact_id: int, user_id: str | None = None) -> None:
        """Delete one fact, then scrub the file. Its supersession chain is mended (when it was the current fact,
        the one it replaced is current again). The turns it came from stay: forget their session for those."""
        uid = self._settled(user_id)
        self._current_fact(fact_id, uid)
        self.store.delete_fact(uid, fact_id)
        self._scrub()
        self._sync_vault([uid])

    def pinned_facts(self, user_id: str | None = None) -> list[dict[str, Any]]:
        """The user's current pinned facts, newest first (id, type, text, session_id, created_at)."""
        return self.store.pinned_facts(self._settled(user_id))

    def pin_fact(self, fact_id: int, pinned: bool = True, user_id: str | None = None) -> Fact:
        """Pin a fact (or unpin it): pinned current facts open the briefing, whatever their age."""
        uid = self._settled(user_id)
        self._current_fact(fact_id, uid)
        self.store.pin_fact(uid, fact_id, pinned)
        self._sync_vault([uid])
        return self.store.facts_by_id(uid, [fact_id])[fact_id]

    def reopen_loop(self, loop_id: int, user_id: str | None = None, note: str | None = None) -> Loop:
        """Open a closed loop again (closed by mistake, or the work came back; `note` says why). KeyError when the
        user has no loop with that id."""
        uid = self._settled(user_id)
        if not self.store.reopen_loop(uid, _row_id(loop_id, "loop_id"), note):
            raise KeyError(f"no loop {loop_id} for user {uid!r}")
        self._sync_vault([uid])
        return self.store.loops(uid, "all", ids=[loop_id])[0]

    def add_loop(self, text: str, *, due: str | None = None, session_id: str = "manual",
                 workstream_id: int | None = None, user_id: str | None = None) -> Loop:
        """Add an open loop by hand (to the session `session_id`, "manual" unless given). ValueError when the same
        text is already an open loop of that session."""
        uid = self._user(user_id)
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"a loop needs a non-empty text, got {text!r}")
        session_id = check_id(session_id, "session_id")
        if workstream_id is not None and not self.store.workstream_names(uid, [workstream_id],
                                                                         include_hypotheses=True):
            raise KeyError(f"no workstream {workstream_id} for user {uid!r}")
        folded = " ".join(text.split()).casefold()
        origin = hashlib.sha256(f"user\x1f{session_id}\x1f{folded}".encode()).hexdigest()
        loop_id = self.store.insert_loop(NewLoop(
            user_id=uid, session_id=session_id, workstream_id=workstream_id, text=" ".join(text.split()),
            due=due, detector="user", source_ids=[], origin=origin, created_at=time.time()))
        if loop_id is None:
            raise ValueError(f"{text!r} is already a loop of session {session_id!r}")
        self._sync_vault([uid])
        return self.store.loops(uid, "all", ids=[loop_id])[0]

    # --- the vault (episodic_memory.vault) ------------------------------------------------------------
    def write_vault(self, folder: str | Path, user_id: str | None = None) -> vault.VaultReport:
        """Write the user's memories as an Obsidian-friendly markdown vault in `folder` (idempotent; removes the
        notes it wrote earlier that no longer have anything to say). `vault.VaultError` when it cannot."""
        return vault.write_vault(self.store, self._settled(user_id), folder)

    def _sync_vault(self, users: list[str] | None) -> None:
        """Rewrite `Config.store.vault_dir`'s vaults of these users (None: every vault there, after forgetting all)."""
        if not self.config.store.vault_dir:
            return
        root = Path(self.config.store.vault_dir).expanduser()
        if users is None:
            users = [u for u in (vault.vault_owner(m.parent) for m in root.glob(f"*/{vault.MANIFEST}")) if u]
        for user in users:
            try:
                vault.write_user_vault(self.store, user, root)
            except Exception:
                log.exception("the vault of %s in %s could not be brought up to date (the memories are safe)",
                              user, root)

    # --- taking the store with you (episodic_memory.portable) ------------------------------------------
    def export(self, path: str | Path, *, user_id: str | None = None, all_users: bool = False) -> dict[str, int]:
        """Write this memory's user's memories (`user_id`'s; every user's with `all_users`) to a versioned JSON
        Lines file, gzipped when `path` ends in ``.gz``. Returns the records written per kind."""
        if all_users and user_id is not None:
            raise ValueError("export(all_users=True) takes no user_id")
        if all_users:
            self._settled_all()
        return portable.export_store(self.store, path, user_id=None if all_users else self._settled(user_id))

    def import_(self, path: str | Path, *, user_id: str | None = None) -> dict[str, int]:
        """Add an export file's memories: the whole file is checked first (`portable.PortableFormatError` with its
        line and field), then written at once; what the store already holds is kept. `user_id` imports a file of
        one user as that user. Embeds what it added (and brings `Config.store.vault_dir`'s vaults up to date). Returns
        the rows added per kind."""
        if self.config.store.read_only:
            raise PermissionError(f"{self.path} is open read-only (Config.store.read_only): it takes no import")
        records = portable.read_export(path, self.store, user_id=user_id)
        with self.recorder.locked():
            added = self.store.import_records(records)
        if self.embedder() is not None:
            self.indexer.embed_pending(kinds=REGISTRY)
        self._sync_vault(sorted({r["user_id"] for _, r in records if isinstance(r.get("user_id"), str)}))
        return added

    def backup(self, dest: str | Path) -> None:
        """A consistent copy of the whole store (every user) at `dest`, made while writers carry on (the SQLite
        online backup API); `dest` appears whole or not at all. The journals are not copied: the copy holds every
        acknowledged turn. ValueError when `dest` is the store or one of its files (`store_files`), through a
        symlink or a hard link too: replacing one under running writers would lose what they stored."""
        if not self.store.in_memory and not is_postgres_url(self.store.path):
            own = store_files(self.store.path) + [Path(p) for p in (self.journal.root, self.config.retrieval.vector_sidecar_dir)
                                                  if p is not None]
            clash = store_file_at(dest, own)
            if clash is not None:
                raise ValueError(f"cannot back up to {dest}: it is {clash}, a file of the store {self.store.path} "
                                 "(choose a destination outside the store's files)")
        self._settled_all()
        self.store.backup(str(dest))

    # --- judgments -----------------------------------------------------------------------------------
    def search_judgments(self, query: str, *, agents: Iterable[str] | None = None, top_k: int = 5,
                         domain: str | None = None, min_score: float = 0.0, use_utility: bool = False
                         ) -> list[SearchResult]:
        """`judgments.search` over this memory's scope and the named agents' (each searched on its own, the
        results merged by score; `SearchResult.scope` says whose)."""
        results = [r for owner in self._scopes(self.user_id, agents) for r in self._judgments_of(owner).search(
            query, top_k=top_k, domain=domain, min_score=min_score, use_utility=use_utility)]
        results.sort(key=lambda r: (-r.score, -r.similarity, r.id))
        return results[:top_k]

    def list_judgments(self, *, agents: Iterable[str] | None = None, domain: str | None = None,
                       limit: int | None = None) -> list[Judgment]:
        """`judgments.list_judgments` over this memory's scope and the named agents' (in the order stored, by
        `created_at` across scopes; `Judgment.scope` says whose)."""
        owners = self._scopes(self.user_id, agents)
        listed = [j for owner in owners for j in self._judgments_of(owner).list_judgments(domain=domain, limit=limit)]
        if len(owners) > 1:
            listed.sort(key=lambda j: (j.created_at is None, j.created_at or 0, j.scope != scope_of(self.user_id)))
        return listed[:limit] if limit is not None else listed

    def _judgments_of(self, owner: str) -> JudgmentMemory:
        """A scope's judgments: this memory's own (`judgments`), or an agent's that a read names."""
        from .judgments.memory import JudgmentMemory

        return self.judgments if owner == self.user_id else JudgmentMemory(self.clients, owner)

    @property
    def judgments(self) -> JudgmentMemory:
        """How to act, ranked by proven utility (`episodic_memory.judgments`): this memory's user's judgments, in
        this store, with this embedder. Created on first use."""
        if "_judgments" not in self.__dict__:
            from .judgments.memory import JudgmentMemory

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
        if self.agent is not None:
            return f"Memory({self.path!r}, agent={self.agent!r})"
        return f"Memory({self.path!r}, user_id={self.user_id!r})"


# ROLES, Role, check_source and check_tags live in util (the doors share them); imported from here too
__all__ = ["Memory", "MEMORY_PATH", "ROLES", "Role", "check_source", "check_tags"]


def _row_id(value: int, name: str) -> int:
    """A fact's or a loop's id: an int (a bool is not one), else TypeError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    return value


def _merge_briefs(briefs: Sequence[tuple[str, Brief]], limit: int) -> Brief:
    """One briefing of several scopes' (the first is the reader's own): each list merged newest first and cut to
    `limit` (`Config.inject.brief_max_items`), as one scope's is; each dict item says its scope."""
    def tagged(name: str, key: str) -> list[dict[str, Any]]:
        items = [{**item, "scope": scope_of(owner)} for owner, b in briefs for item in getattr(b, name)]
        return sorted(items, key=lambda d: d.get(key) or "", reverse=True)[:limit]

    first = briefs[0][1]
    return replace(
        first,
        sessions=tagged("sessions", "last_turn_at"), decisions=tagged("decisions", "at"),
        corrections=tagged("corrections", "at"),
        pinned=sorted(({**p, "scope": scope_of(owner)} for owner, b in briefs for p in b.pinned),
                      key=lambda p: -p["created_at"])[:limit],
        open_loops=sorted((lp for _, b in briefs for lp in b.open_loops),
                          key=lambda lp: (-lp.created_at, -lp.id))[:limit],
        workstreams=sorted((w for _, b in briefs for w in b.workstreams),
                           key=lambda w: (-(w.last_activity or 0.0), -w.id))[:limit],
    )
