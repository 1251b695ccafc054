"""Batch re-clustering of workstreams (consolidate/recluster.py): a split thread is merged back under the id most
of it had, chit-chat joins nothing, loops and episodes follow, and forgetting still cleans up."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from episodic_memory import Config, Memory
from episodic_memory.consolidate.recluster import (
    _average_linkage,
    _dissolve_loose,
    _join_small,
    _map_ids,
    recluster_user,
)

from .fakes import HashingEmbedder
from .fakes import play_session as session

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

# Three threads of work, four sessions each, every session naming its thread in words of its own; two chit-chat
# sessions that state nothing distinctive.
KITCHEN = [
    ["kitchen again", "> Go ahead.", "Ridgeway Carpentry starts the kitchen cabinets in walnut on Monday.", "> Noted.",
     "The terrazzo countertops for the kitchen come from Brescia Stoneworks.", "> Got it."],
    ["quick update", "> Sure.", "Brescia Stoneworks cut the terrazzo slab, the countertops arrive Thursday.",
     "> Okay.", "Ridgeway Carpentry hung the walnut cabinets and the kitchen island frame.", "> Good."],
    ["hey", "> Hi.", "The kitchen plumber moved the sink into the island, Ridgeway Carpentry fixed the walnut trim.",
     "> Logged.", "I need to call the electrician about the kitchen island sockets by Friday.", "> Noted."],
    ["evening", "> Evening.", "The terrazzo countertops are in, Brescia Stoneworks sealed the slab twice.",
     "> Nice.", "The walnut cabinets and the island sink are done, the kitchen plumber signed off.", "> Great."],
]
LAUNCH = [
    ["morning", "> Morning.", "The Skylark beta has 310 signups and Imogen owns the launch announcement.",
     "> Noted.", "Skylark pricing goes to the Halvorsen board in March.", "> Got it."],
    ["hi", "> Hi.", "Imogen drafted the Skylark announcement, the Halvorsen board liked the pricing tiers.",
     "> Good.", "The Skylark beta waitlist passed 400 signups.", "> Nice."],
    ["back", "> Welcome back.", "Halvorsen approved the Skylark pricing tiers, Imogen books the launch venue.",
     "> Okay.", "The Skylark press kit needs the beta signups chart.", "> Noted."],
    ["hello", "> Hello.", "Imogen booked the Skylark launch venue at the Foundry, the press kit is out.",
     "> Great.", "The beta signups chart went into the Halvorsen deck as well.", "> Got it."],
]
MARATHON = [
    ["ok", "> Go on.", "My half marathon training plan has tempo runs on Tuesdays with coach Okafor.",
     "> Noted.", "The Lakeshore half marathon is in October, my long run is twelve kilometres.", "> Good."],
    ["hey", "> Hey.", "Coach Okafor moved the tempo runs to Wednesday, the long run is fourteen kilometres now.",
     "> Okay.", "My Lakeshore race bib arrived in the mail.", "> Nice."],
    ["hi", "> Hi.", "The tempo runs felt easier, coach Okafor added hill repeats before the Lakeshore race.",
     "> Logged.", "My long run reached sixteen kilometres with the new trail shoes.", "> Great."],
    ["morning", "> Morning.", "Coach Okafor says taper starts two weeks before the Lakeshore half marathon.",
     "> Noted.", "The hill repeats and tempo runs are done for this block, trail shoes broken in.", "> Good."],
]
CHITCHAT = [["hi again", "> Hey! Go ahead.", "translate 'good morning' into Spanish", "> Buenos días.",
             "lol thanks, that's all", "> Bye for now!"],
            ["hello hello", "> Welcome back.", "what's a good name for a cat?", "> Miso, maybe.",
             "perfect, talk later", "> Talk soon."]]
ORDER = [("k0", KITCHEN[0]), ("l0", LAUNCH[0]), ("m0", MARATHON[0]), ("c0", CHITCHAT[0]), ("k1", KITCHEN[1]),
         ("l1", LAUNCH[1]), ("m1", MARATHON[1]), ("k2", KITCHEN[2]), ("l2", LAUNCH[2]), ("c1", CHITCHAT[1]),
         ("m2", MARATHON[2]), ("k3", KITCHEN[3]), ("l3", LAUNCH[3]), ("m3", MARATHON[3])]
THREADS = {"k": "kitchen", "l": "launch", "m": "marathon"}


def _memory(db_path: Path | str, **overrides: object) -> Memory:
    return Memory(db_path, config=Config(capture={"consolidate_in_background": "off"}, **overrides),
                  embedder=HashingEmbedder(dim=256))


def _episode_id(mem: Memory, sid: str) -> int:
    episode = mem.store.session_episode(mem.user_id, sid)
    assert episode is not None
    return episode.id


def _ws(mem: Memory, sid: str) -> int | None:
    episode = mem.store.session_episode(mem.user_id, sid)
    assert episode is not None
    return episode.workstream_id


def _fill(mem: Memory, sessions: list[tuple[str, list[str]]] = ORDER) -> None:
    for day, (sid, lines) in enumerate(sessions):
        session(mem, sid, lines, day=day)


def _assert_consistent(mem: Memory) -> None:
    """Every episode's workstream exists and counts it; every loop points at its session's episode's workstream;
    no workstream is empty."""
    wss = {w.id: w for w in mem.workstreams(include_hypotheses=True)}
    episodes = mem.store.episodes(mem.user_id, with_facts=False)
    members: dict[int, int] = {}
    for e in episodes:
        if e.workstream_id is not None:
            assert e.workstream_id in wss
            members[e.workstream_id] = members.get(e.workstream_id, 0) + 1
    assert {ws: w.sessions for ws, w in wss.items()} == members
    by_session = {e.session_id: e.workstream_id for e in episodes}
    for status in ("open", "closed"):
        for loop in mem.store.loops(mem.user_id, status):
            assert loop.workstream_id == by_session.get(loop.session_id)


def test_threads_come_out_one_workstream_each_and_chit_chat_in_none(db_path: Path | str) -> None:
    with _memory(db_path) as mem:
        _fill(mem)
        recluster_user(mem.clients, mem.user_id)
        for prefix in THREADS:
            ids = {_ws(mem, f"{prefix}{i}") for i in range(4)}
            assert len(ids) == 1 and None not in ids, (prefix, ids)
        assert len({_ws(mem, f"{p}0") for p in THREADS}) == 3
        assert _ws(mem, "c0") is None and _ws(mem, "c1") is None
        assert len(mem.workstreams()) == 3
        _assert_consistent(mem)


def test_a_split_thread_is_merged_back_and_ids_stay(db_path: Path | str) -> None:
    with _memory(db_path, workstreams={"recluster": False}) as mem:
        _fill(mem)
        kitchen, launch, marathon = (_ws(mem, f"{p}0") for p in THREADS)
        assert kitchen is not None and launch is not None and marathon is not None
        assert {_ws(mem, f"k{i}") for i in range(4)} == {kitchen}
        # the early split an incremental decision makes: k2 and k3 confirmed on their own, before any bridge
        split = mem.store.create_workstream(mem.user_id, _episode_id(mem, "k2"))
        mem.store.attach_episode(_episode_id(mem, "k3"), split)
        [loop] = [lp for lp in mem.store.loops(mem.user_id) if lp.session_id == "k2"]
        assert loop.workstream_id == split
        assert len(mem.workstreams()) == 4

        assert recluster_user(mem.clients, mem.user_id) == 2          # k2 and k3 move back, nothing else
        assert {_ws(mem, f"k{i}") for i in range(4)} == {kitchen}      # a tie goes to the older id
        assert _ws(mem, "l0") == launch and _ws(mem, "m0") == marathon  # the others keep theirs
        assert split not in {w.id for w in mem.workstreams(include_hypotheses=True)}   # left empty: gone
        assert len(mem.workstreams()) == 3
        [loop] = [lp for lp in mem.store.loops(mem.user_id) if lp.session_id == "k2"]
        assert loop.workstream_id == kitchen
        _assert_consistent(mem)
        assert recluster_user(mem.clients, mem.user_id) == 0          # settled: nothing written again

        # the larger part keeps its id: k1, k2, k3 moved out first, k0 joins them
        moved = mem.store.create_workstream(mem.user_id, _episode_id(mem, "k1"))
        for sid in ("k2", "k3"):
            mem.store.attach_episode(_episode_id(mem, sid), moved)
        assert recluster_user(mem.clients, mem.user_id) == 1
        assert {_ws(mem, f"k{i}") for i in range(4)} == {moved}
        _assert_consistent(mem)


def test_reclustering_runs_at_session_end_and_keeps_ids_stable(db_path: Path | str) -> None:
    with _memory(db_path) as mem:
        _fill(mem, ORDER[:-1])
        before = {sid: _ws(mem, sid) for sid, _ in ORDER[:-1]}
        session(mem, "m3", MARATHON[3], day=len(ORDER))   # one more session end: its thread grows, no id changes
        assert _ws(mem, "m3") == before["m0"]
        assert {sid: _ws(mem, sid) for sid, _ in ORDER[:-1]} == before
        _assert_consistent(mem)


def test_a_young_store_keeps_the_incremental_decisions(db_path: Path | str) -> None:
    with _memory(db_path, workstreams={"recluster_min_sessions": 10}) as mem:
        _fill(mem, ORDER[:6])
        split = mem.store.create_workstream(mem.user_id, _episode_id(mem, "k1"))
        assert recluster_user(mem.clients, mem.user_id) == 0   # 5 sessions with words: too few to re-cluster
        assert _ws(mem, "k1") == split


def test_forgetting_a_session_after_a_recluster_cleans_up(db_path: Path | str) -> None:
    with _memory(db_path) as mem:
        _fill(mem)
        recluster_user(mem.clients, mem.user_id)
        kitchen = _ws(mem, "k0")
        for sid in ("k0", "k1", "k2"):
            mem.forget(session_id=sid)
        [ws] = [w for w in mem.workstreams(include_hypotheses=True) if w.id == kitchen]
        assert ws.sessions == 1 and ws.status == "hypothesis"
        assert not [lp for lp in mem.store.loops(mem.user_id) if lp.session_id == "k2"]
        mem.forget(session_id="k3")
        assert kitchen not in {w.id for w in mem.workstreams(include_hypotheses=True)}
        recluster_user(mem.clients, mem.user_id)
        _assert_consistent(mem)


def test_regroup_moves_episodes_and_loops_in_one_go(db_path: Path | str) -> None:
    with _memory(db_path, workstreams={"recluster": False}) as mem:
        _fill(mem, ORDER[:8])
        k0, k1, k2 = (_episode_id(mem, f"k{i}") for i in range(3))
        kitchen = _ws(mem, "k0")
        [new, kept] = mem.store.regroup_episodes(mem.user_id, [(None, [k1, k2]), (kitchen, [k0])])
        assert new not in (kitchen, None) and kept == kitchen
        assert _ws(mem, "k1") == _ws(mem, "k2") == new and _ws(mem, "k0") == kitchen
        [loop] = [lp for lp in mem.store.loops(mem.user_id) if lp.session_id == "k2"]
        assert loop.workstream_id == new
        [w] = mem.store.workstreams(mem.user_id, include_hypotheses=True, ids=[new])
        assert w.status == "confirmed" and w.sessions == 2 and w.keyphrases
        mem.store.regroup_episodes(mem.user_id, [], detach=[k1, k2])
        assert _ws(mem, "k1") is None and loop.id in {lp.id for lp in mem.store.loops(mem.user_id)}
        assert new not in {w.id for w in mem.workstreams(include_hypotheses=True)}   # left empty: deleted
        gone = mem.store.regroup_episodes(mem.user_id, [(new, [k1])])   # a workstream that is gone: a new one
        assert gone[0] != new and _ws(mem, "k1") == gone[0]
        _assert_consistent(mem)


def test_average_linkage_needs_the_line_and_a_shared_word() -> None:
    sim = np.array([[1.0, 0.5, 0.0, 0.0], [0.5, 1.0, 0.1, 0.0], [0.0, 0.1, 1.0, 0.6], [0.0, 0.0, 0.6, 1.0]])
    shares = np.ones((4, 4), bool)
    assert sorted(_average_linkage(sim, shares, 0.2)) == [[0, 1], [2, 3]]
    assert sorted(_average_linkage(sim, shares, 0.02)) == [[0, 1, 2, 3]]   # the two pairs' mean match: 0.025
    shares[2, 3] = shares[3, 2] = False
    assert sorted(_average_linkage(sim, shares, 0.2)) == [[0, 1], [2], [3]]


def test_small_clusters_join_a_decisive_thread_and_loose_ones_dissolve() -> None:
    sim = np.full((7, 7), 0.0)
    for a, b in [(0, 1), (0, 2), (1, 2)]:
        sim[a, b] = sim[b, a] = 0.5
    for a, b in [(3, 4), (3, 5), (4, 5)]:
        sim[a, b] = sim[b, a] = 0.5
    sim[6, [0, 1, 2]] = sim[[0, 1, 2], 6] = 0.1    # near the first thread only
    shares = np.ones((7, 7), bool)
    joined = _join_small(sim, shares, [[0, 1, 2], [3, 4, 5], [6]], 0.02, 1.5)
    assert sorted(joined) == [[0, 1, 2, 6], [3, 4, 5]]
    sim[6, [3, 4, 5]] = sim[[3, 4, 5], 6] = 0.09   # near both: not decisive, stays alone
    assert sorted(_join_small(sim, shares, [[0, 1, 2], [3, 4, 5], [6]], 0.02, 1.5)) == [[0, 1, 2], [3, 4, 5], [6]]
    pair = np.array([[1.0, 0.05], [0.05, 1.0]])
    assert _dissolve_loose(pair, [[0, 1]], 0.12) == [[0], [1]]
    assert _dissolve_loose(pair, [[0, 1]], 0.04) == [[0, 1]]
    three = np.array([[1.0, 0.3, 0.0], [0.3, 1.0, 0.0], [0.0, 0.0, 1.0]])   # mean match 0.1: loose
    assert _dissolve_loose(three, [[0, 1, 2]], 0.12) == [[0], [1], [2]]
    assert _dissolve_loose(three, [[0, 1, 2]], 0.08) == [[0, 1, 2]]


def test_ids_go_to_the_cluster_holding_most_of_a_workstream() -> None:
    current: dict[int, int | None] = {1: 10, 2: 10, 3: 11, 4: 11, 5: 11, 6: None, 7: 10, 8: 12}
    groups = _map_ids([[1, 3, 4, 5], [2, 7], [6], [8]], current)
    assert groups == [(11, [1, 3, 4, 5]), (10, [2, 7]), (None, [6]), (12, [8])]
    # a cluster whose workstream another (larger) cluster took gets a new one; a lone session whose workstream was
    # taken becomes a hypothesis of its own
    groups = _map_ids([[1, 2, 3], [7, 4], [5]], {1: 10, 2: 10, 3: 11, 4: 11, 5: 10, 7: 10})
    assert groups == [(10, [1, 2, 3]), (11, [7, 4]), (None, [5])]


def test_a_workstream_is_confirmed_while_most_of_its_sessions_left_a_memory(db_path: Path | str) -> None:
    with _memory(db_path) as mem:
        _fill(mem)
        kitchen = _ws(mem, "k0")
        assert kitchen in {w.id for w in mem.workstreams()}
        sessions = {f"k{i}" for i in range(4)}
        assert any(f.session_id in sessions for f in mem.facts())
        with_loops = {lp.session_id for lp in mem.store.loops(mem.user_id, "all") if lp.session_id in sessions}
        assert with_loops == {"k2"}       # "I need to call the electrician … by Friday"
        for fact in mem.facts(include_superseded=True):   # forget what the thread's sessions taught
            if fact.session_id in sessions:
                mem.forget_fact(fact.id)
        [ws] = [w for w in mem.workstreams(include_hypotheses=True) if w.id == kitchen]
        assert (ws.sessions, ws.status) == (4, "hypothesis")   # one session of four (its loop) left a memory
        assert kitchen not in {w.id for w in mem.workstreams()}
        _assert_consistent(mem)


def test_recurring_small_talk_that_leaves_nothing_is_no_workstream(db_path: Path | str) -> None:
    noise = [["ugh", "> Oh no.", "the neighbours are drilling again, my headphones with brown noise barely help",
              "> Brown noise might save your afternoon.", "lol whatever", "> Hang in there."],
             ["hey", "> Hey.", "neighbours drilling again today, brown noise headphones on",
              "> Headphones and brown noise, then.", "haha ok", "> Good luck."],
             ["hi", "> Hi.", "drilling next door again, back to the brown noise headphones",
              "> Brown noise it is.", "sigh", "> Bye for now."]]
    order = [*ORDER[:5], ("n0", noise[0]), *ORDER[5:10], ("n1", noise[1]), *ORDER[10:], ("n2", noise[2])]
    with _memory(db_path) as mem:
        _fill(mem, order)
        small_talk = {f"n{i}" for i in range(3)}
        # the test embedder's durable vote is arbitrary: it keeps one of these lines, a real one keeps none
        left = {f.session_id for f in mem.facts(include_superseded=True) if f.session_id in small_talk}
        assert len(left) <= 1, left
        ids = {_ws(mem, s) for s in small_talk}
        confirmed = {w.id for w in mem.workstreams()}
        assert not ids & confirmed        # whether they cluster or not, they surface as no thread of work
        assert len(confirmed) == 3
        _assert_consistent(mem)
