"""The workstream step of consolidation: which thread of work does this session's episode belong to?

A session is matched on what is distinctive about it (`_rank`): at or above `attach` it attaches, in the band
from `judge_floor` the LLM judges (without one: `decisive`), below it spawns a hypothesis; one alone in its
workstream is matched again at each run. See docs/consolidation.md, "Workstreams from what is distinctive".
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import numpy as np

from ..store.records import Episode, SessionInfo, StoredTurn
from .distinct import idf, profile_weights, weighted_cosine
from .episodes import LEXICAL_MODEL
from .recluster import recluster_user

if TYPE_CHECKING:
    from ..clients import MemoryClients

log = logging.getLogger(__name__)

JUDGE_SYSTEM = """You are the workstream judge of a long-term memory. A workstream is one thread of work that
runs across conversation sessions (a project, a deal, a migration). Given a new session's episode summary and a
few candidate workstreams (each with recent episode summaries), decide whether the session continues one of them.
Attach only when it is clearly the same thread of work; otherwise start a new workstream.
Reply with JSON only: {"attach": <the workstream id> or null for a new workstream, "reason": "a few words"}"""

NAME_SYSTEM = """You name workstreams in a long-term memory. A workstream is one thread of work across sessions.
Given its episode summaries and keyphrases, give it a short name of 2 to 6 words, like a project title
("Series B deck", "Airflow migration"). Reply with JSON only: {"name": "..."}"""


def consolidate_workstream(clients: MemoryClients, info: SessionInfo, new_turns: list[StoredTurn]) -> None:
    """Consolidation step: attach the session's episode to a workstream, ask the judge, spawn one, or (nothing
    distinctive said) leave it in none; at the session's end, without an LLM, re-cluster the episodes."""
    _attach(clients, info)
    cfg = clients.config
    # once per session: the run that reaches its last turn (a late worker consolidates an ended session in windows)
    last = info.consolidated_turns + len(new_turns) >= info.turn_count
    if cfg.workstreams.recluster and info.status == "ended" and last and not clients.llm.enabled():
        recluster_user(clients, info.user_id)


def _attach(clients: MemoryClients, info: SessionInfo) -> None:
    """The incremental step: this session's episode against the workstreams as they are."""
    store, cfg = clients.store, clients.config
    episode = store.session_episode(info.user_id, info.session_id)
    if episode is None:
        return
    current = episode.workstream_id
    if current is not None and store.workstream_size(current) > 1:
        store.refresh_workstream(current)   # settled: its centroid follows the updated episode
        return
    ranking = _rank(clients, episode, current)
    if ranking is None:   # nothing distinctive: no thread of work
        if current is not None:
            store.detach_episode(episode.id)
            log.info("episode %s (session %s) left workstream %s: nothing distinctive", episode.id,
                     info.session_id, current)
        return
    model, ranked, above, eligible = ranking
    target = above[0] if above else _judge_band(clients, episode, ranked, model, eligible)
    if target is not None:
        store.attach_episode(episode.id, target)
        log.info("episode %s (session %s) attached to workstream %s", episode.id, info.session_id, target)
        if cfg.workstreams.bridge:
            _bridge(clients, info.user_id, target, above[1:])
        if cfg.workstreams.recheck:
            bridged = set(above[1:]) if cfg.workstreams.bridge else set()
            near = [ws for ws, _ in ranked if ws != target and ws not in bridged]
            _recheck(clients, info.user_id, target, near[: cfg.workstreams.recheck])
    elif current is None:
        target = store.create_workstream(info.user_id, episode.id)
        log.info("episode %s (session %s) spawned workstream %s", episode.id, info.session_id, target)
    else:
        store.refresh_workstream(current)
        target = current
    if clients.llm.enabled():
        _name(clients, info.user_id, target)


def _judge_band(clients: MemoryClients, episode: Episode, ranked: list[tuple[int, float]], model: str,
                eligible: set[int] | None = None) -> int | None:
    """Below the attach line: the LLM judges the workstreams in the band. Without one, the nearest workstream when
    it is decisive (`decisive`), else None (spawn)."""
    attach, floor = _lines(clients, model)
    band = [(ws, s) for ws, s in ranked if floor <= s < attach]
    if not band:
        return None   # nothing close: spawn
    if not clients.llm.enabled():
        return decisive(clients, ranked, model, eligible)
    return judge(clients, episode, band[: clients.config.workstreams.judge_candidates])


def decisive(clients: MemoryClients, ranked: list[tuple[int, float]], model: str, eligible: set[int] | None
             ) -> int | None:
    """Without a judge, a session in the band [judge floor, attach) joins its nearest workstream when that one is
    clearly the nearest: a distinctive word in common and a match at least `workstream_decisive_ratio` times the
    runner-up's. Only with an embedder: bag-of-words matches are too flat for the ratio."""
    ratio = clients.config.workstreams.decisive_ratio
    if ratio <= 0 or model == LEXICAL_MODEL or not ranked:
        return None
    best, score = ranked[0]
    _, floor = _lines(clients, model)
    if eligible is not None and best not in eligible:
        return None
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    return best if score >= floor and score >= ratio * runner_up else None


def _lines(clients: MemoryClients, model: str) -> tuple[float, float]:
    cfg = clients.config
    return ((cfg.workstreams.attach_lexical, cfg.workstreams.judge_floor_lexical) if model == LEXICAL_MODEL
            else (cfg.workstreams.attach, cfg.workstreams.judge_floor))


def _rank(clients: MemoryClients, episode: Episode, exclude: int | None
          ) -> tuple[str, list[tuple[int, float]], list[int], set[int]] | None:
    """None when the session has no thread vector or states fewer than `workstream_min_terms` distinctive
    words; else (its vector's model; every candidate workstream with its match, best first; those at or above
    the attach line it may attach to, best first; those it may attach to at all: a distinctive word in
    common). The match: (1 - s) × the thread vector's cosine with the centroid + s × the tf-idf cosine of
    their distinctive words, s = `workstream_lexical_share`."""
    cfg = clients.config
    found = clients.store.episode_vector(episode.id)
    terms = clients.store.session_terms(episode.id)
    n, df = clients.store.term_frequencies(episode.user_id, terms)
    tf = {t: terms[t] for t in terms if idf(t, df, n, cfg.workstreams.common_share) > 0}
    if found is None or len(tf) < max(1, cfg.workstreams.min_terms):
        return None
    vec, model = found
    ids, matrix = clients.store.centroids(episode.user_id, model, exclude=exclude)
    share = cfg.workstreams.lexical_share
    scores: dict[int, float] = {}
    if ids:
        dense = matrix @ vec.astype(np.float32)
        scores = {ws: (1 - share) * float(x) for ws, x in zip(ids, dense, strict=True)}
    profiles: dict[int, dict[str, float]] = {}
    if share > 0:
        profiles = clients.store.workstream_terms(episode.user_id, tf, exclude=exclude)
        missing = {t for p in profiles.values() for t in p} - set(df)
        df = dict(df)
        if missing:
            df.update(clients.store.term_frequencies(episode.user_id, missing)[1])
        mine = profile_weights(tf, df, n, cfg.workstreams.common_share)   # weighed once, not per ws
        for ws, profile in profiles.items():
            lexical = weighted_cosine(mine, profile_weights(profile, df, n, cfg.workstreams.common_share))
            scores[ws] = scores.get(ws, 0.0) + share * lexical
    ranked = sorted(scores.items(), key=lambda x: (-x[1], x[0]))
    eligible = [ws for ws, _ in ranked if ws in profiles or not cfg.workstreams.attach_needs_shared_word or share == 0]
    attach, _ = _lines(clients, model)
    return model, ranked, [ws for ws in eligible if scores[ws] >= attach], set(eligible)


def judge(clients: MemoryClients, episode: Episode, band: list[tuple[int, float]]) -> int | None:
    """Ask the LLM: does this episode continue one of these workstreams? None (spawn) unless it names one."""
    candidates = clients.store.workstreams(episode.user_id, include_hypotheses=True, ids=[i for i, _ in band])
    lines = [f"New session ({episode.session_id}): {episode.summary}", "", "Candidate workstreams:"]
    for ws in candidates:
        recent = clients.store.episodes(episode.user_id, workstream_id=ws.id, limit=3, with_facts=False)
        lines.append(f"- id {ws.id}: {ws.name} (keyphrases: {', '.join(ws.keyphrases[:5])})")
        lines.extend(f"    · {e.summary}" for e in recent)
    reply: Any = clients.llm.run(clients.llm.ask_json(JUDGE_SYSTEM, "\n".join(lines), purpose="workstream judge",
                                                    expect=dict))
    choice = reply.get("attach") if isinstance(reply, dict) else None
    allowed = {ws.id for ws in candidates}
    try:
        picked = int(choice) if choice is not None and not isinstance(choice, bool) else None
    except (TypeError, ValueError):
        picked = None
    if picked is not None and picked not in allowed:
        log.warning("workstream judge named %r, not one of the candidates %s: spawning", choice, sorted(allowed))
        return None
    return picked


def _bridge(clients: MemoryClients, user_id: str, target: int, others: list[int]) -> None:
    """The session just attached to `target` also matches `others` above the attach line: a hypothesis (a
    workstream of one session) among them is the same thread, and its session joins `target`."""
    for ws in others:
        if clients.store.workstream_size(ws) != 1:
            continue   # two settled workstreams are not merged on one session's word (measured: worse)
        for e in clients.store.episodes(user_id, workstream_id=ws, with_facts=False):
            clients.store.attach_episode(e.id, target)
            log.info("episode %s (a hypothesis) joins workstream %s: session bridged them", e.id, target)


def _recheck(clients: MemoryClients, user_id: str, target: int, near: list[int]) -> None:
    """The hypotheses (workstreams of one session) among `near` are matched again now that `target` grew: one
    that now attaches to `target` above the attach line (not by the decisive rule) joins it."""
    store = clients.store
    for ws in near:
        if store.workstream_size(ws) != 1:
            continue
        members = store.episodes(user_id, workstream_id=ws, with_facts=False)
        if len(members) != 1:
            continue
        ranking = _rank(clients, members[0], ws)
        if ranking is not None and ranking[2] and ranking[2][0] == target:
            store.attach_episode(members[0].id, target)
            log.info("episode %s (a hypothesis) re-matched into workstream %s", members[0].id, target)


def _name(clients: MemoryClients, user_id: str, workstream_id: int) -> None:
    """Name a workstream with the LLM when its membership changed since it was last named (or never was)."""
    found = clients.store.workstreams(user_id, include_hypotheses=True, ids=[workstream_id])
    if not found or not clients.store.needs_name(workstream_id):
        return
    ws = found[0]
    recent = clients.store.episodes(user_id, workstream_id=ws.id, limit=5, with_facts=False)
    user = "Episodes:\n" + "\n".join(f"- {e.summary}" for e in recent) + f"\nKeyphrases: {', '.join(ws.keyphrases)}"
    reply: Any = clients.llm.run(clients.llm.ask_json(NAME_SYSTEM, user, purpose="workstream name", expect=dict))
    name = reply.get("name") if isinstance(reply, dict) else None
    if isinstance(name, str) and 0 < len(name.split()) <= 8 and len(name) <= 80:
        clients.store.rename_workstream(ws.id, " ".join(name.split()).strip(" .\"'"))
