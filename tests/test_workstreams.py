"""Workstreams: attach / judge / spawn, hypothesis → confirmed, names, and the no-embedder path."""

from __future__ import annotations

import json
from datetime import timedelta

import numpy as np

from episodic_memory import Config, Memory
from episodic_memory.store.rows import workstream_status

from .fakes import T0, ScriptedBackend
from .fakes import hashing_memory as memory
from .fakes import play_session as session

DECK = ["The Series B deck needs twelve slides for Northgate, with traction and unit economics up front.",
        "> Noted: twelve slides for the Northgate deck, traction and unit economics first.",
        "Sarah is finishing the financial model for the deck, the sensitivity table comes last.",
        "> The deck outline: traction, unit economics, financial model, sensitivity table, the ask."]
DECK_AGAIN = ["Back to the Series B deck: Northgate wants fourteen slides now, not twelve.",
              "> Updated the deck outline to fourteen slides for Northgate.",
              "Sarah reran the financial model, the sensitivity table in the deck is nearly done.",
              "> Good, the deck traction slide and unit economics slide are final."]
GARDEN = ["My tomatoes got blight again, the leaves are yellow with brown spots.",
          "> Blight spreads in wet weather; remove the spotted leaves and water the soil, not the leaves.",
          "Should I spray copper on the tomatoes or just pull the plants out of the garden bed?",
          "> Copper helps early; badly spotted plants are better pulled and binned, not composted."]





def workstream_of(mem: Memory, sid: str) -> int | None:
    mem.wait_for_consolidation()  # a session left open may have a run under way in the background
    episode = mem.store.session_episode(mem.user_id, sid)
    assert episode is not None
    return episode.workstream_id


def test_a_second_session_on_the_same_thread_attaches_and_confirms() -> None:
    with memory() as mem:
        session(mem, "s1", DECK, day=0)
        [ws] = mem.workstreams(include_hypotheses=True)
        assert ws.status == "hypothesis" and ws.sessions == 1
        assert mem.workstreams() == []                     # hypotheses never surface
        session(mem, "s2", DECK_AGAIN, day=7)
        assert workstream_of(mem, "s2") == workstream_of(mem, "s1") == ws.id
        [ws] = mem.workstreams()
        assert ws.status == "confirmed" and ws.sessions == 2
        assert ws.last_activity == (T0 + timedelta(days=7, minutes=3)).timestamp()
        # the centroid is the normalised mean of its episodes' thread vectors: attaching nudged it
        vecs = [mem.store.episode_vector(mem.store.session_episode("default", s).id)[0]
                for s in ("s1", "s2")]
        _, matrix = mem.store.centroids("default", "hashing-64+distinct")
        mean = np.mean(vecs, axis=0)
        assert np.allclose(matrix[0], mean / np.linalg.norm(mean), atol=1e-6)
        assert "deck" in ws.name.lower() or "slide" in ws.name.lower()   # keyphrases name it without an LLM
        assert json.dumps(ws.to_dict())


def test_an_unrelated_session_spawns_its_own_hypothesis() -> None:
    with memory() as mem:
        session(mem, "s1", DECK, day=0)
        session(mem, "s2", DECK_AGAIN, day=1)
        session(mem, "garden", GARDEN, day=2)
        assert workstream_of(mem, "garden") != workstream_of(mem, "s1")
        by_status = {w.status: w for w in mem.workstreams(include_hypotheses=True)}
        assert set(by_status) == {"confirmed", "hypothesis"}
        garden_words = " ".join(GARDEN).lower()
        assert all(w in garden_words for w in by_status["hypothesis"].name.lower().replace("·", " ").split())
        assert [w.id for w in mem.workstreams()] == [by_status["confirmed"].id]


def test_the_ambiguous_band_goes_to_the_judge(backend: ScriptedBackend) -> None:
    # every candidate lands in the judge's band: attach needs 0.999, the band starts at 0
    with memory(workstreams={"attach": 0.999, "judge_floor": 0.0}) as mem:
        session(mem, "s1", DECK, day=0)
        ws1 = workstream_of(mem, "s1")
        backend.replies = {"workstream judge": [json.dumps({"attach": ws1, "reason": "same deck"})]}
        session(mem, "s2", DECK_AGAIN, day=7)
        assert workstream_of(mem, "s2") == ws1
        [(system, prompt)] = backend.calls_for("workstream judge")[-1:]
        assert f"id {ws1}:" in prompt and "twelve slides" in prompt   # it sees the candidate and its episodes
        # the judge says "new": spawn
        backend.replies = {"workstream judge": ['{"attach": null, "reason": "a different thread"}']}
        session(mem, "garden", GARDEN, day=8)
        assert workstream_of(mem, "garden") not in (None, ws1)


def test_the_judge_naming_a_workstream_it_was_not_shown_spawns(backend: ScriptedBackend) -> None:
    backend.replies = {"workstream judge": ['{"attach": 9999}']}
    with memory(workstreams={"attach": 0.999, "judge_floor": 0.0}) as mem:
        session(mem, "s1", DECK, day=0)
        session(mem, "s2", DECK_AGAIN, day=7)
        assert backend.calls_for("workstream judge")
        assert workstream_of(mem, "s2") != workstream_of(mem, "s1")


def test_without_an_llm_the_band_spawns_unless_the_nearest_is_decisive() -> None:
    with memory(workstreams={"attach": 0.999, "judge_floor": 0.0, "decisive_ratio": 0}) as mem:
        session(mem, "s1", DECK, day=0)
        session(mem, "s2", DECK_AGAIN, day=7)
        assert workstream_of(mem, "s2") != workstream_of(mem, "s1")
        assert mem.workstreams() == []
    with memory(workstreams={"attach": 0.999, "judge_floor": 0.0}) as mem:   # the only candidate: decisive
        session(mem, "s1", DECK, day=0)
        session(mem, "s2", DECK_AGAIN, day=7)
        assert workstream_of(mem, "s2") == workstream_of(mem, "s1")


def test_below_the_judge_floor_spawns_without_asking(backend: ScriptedBackend) -> None:
    with memory(workstreams={"attach": 0.999, "judge_floor": 0.999}) as mem:
        session(mem, "s1", DECK, day=0)
        session(mem, "garden", GARDEN, day=1)
        assert backend.calls_for("workstream judge") == []
        assert len(mem.workstreams(include_hypotheses=True)) == 2


def test_the_llm_names_a_workstream_and_renames_it_when_a_session_joins(backend: ScriptedBackend) -> None:
    # the extractor finds a fact in each session: a workstream is confirmed only when its sessions left a memory
    fact = {"text": "The Northgate deck has a sensitivity table.", "type": "knowledge", "entities": ["Northgate"],
            "confidence": 0.9, "when": None, "turns": [1]}
    again = {**fact, "text": "The Northgate deck needs fourteen slides.", "turns": [1]}
    backend.replies = {"name workstreams": ['{"name": "Northgate deck"}', '{"name": "Series B deck for Northgate"}'],
                       "fact extractor": [json.dumps([fact]), json.dumps([again])]}
    with memory() as mem:
        session(mem, "s1", DECK, day=0)
        [ws] = mem.workstreams(include_hypotheses=True)
        assert ws.name == "Northgate deck" and ws.to_dict()["named_by"] == "llm"
        calls = len(backend.calls_for("name workstreams"))
        session(mem, "s2", DECK_AGAIN, day=7)
        [ws] = mem.workstreams()
        assert ws.name == "Series B deck for Northgate"
        assert len(backend.calls_for("name workstreams")) == calls + 1   # once per membership change


def test_a_lone_episode_moves_when_its_session_turns_out_to_continue_a_thread() -> None:
    with memory(capture={"consolidate_every": 4}) as mem:
        session(mem, "s1", DECK + DECK_AGAIN, day=0)
        ws1 = workstream_of(mem, "s1")
        # s2 opens with gardening (first consolidation spawns), then spends its time on the deck
        session(mem, "s2", GARDEN, day=5, end=False)
        lone = workstream_of(mem, "s2")
        assert lone != ws1
        session(mem, "s2", DECK_AGAIN + DECK + DECK_AGAIN, day=6)
        assert workstream_of(mem, "s2") == ws1
        assert lone not in {w.id for w in mem.workstreams(include_hypotheses=True)}   # the empty one is gone


def test_consolidating_again_changes_nothing() -> None:
    with memory() as mem:
        session(mem, "s1", DECK, day=0)
        session(mem, "s2", DECK_AGAIN, day=1)
        before = [w.to_dict() for w in mem.workstreams(include_hypotheses=True)]
        info = mem.store.session("default", "s2")
        for step in mem.consolidation_steps:
            step(mem, info, mem.session_turns("s2"))
        assert [w.to_dict() for w in mem.workstreams(include_hypotheses=True)] == before
        assert len(mem.episodes()) == 2


def test_without_an_embedder_words_decide() -> None:
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem:
        session(mem, "s1", DECK, day=0)
        session(mem, "s2", DECK_AGAIN, day=1)
        session(mem, "garden", GARDEN, day=2)
        assert workstream_of(mem, "s1") == workstream_of(mem, "s2") != workstream_of(mem, "garden")
        assert [w.sessions for w in mem.workstreams()] == [2]


def test_confirmation_needs_sessions_that_left_a_memory() -> None:
    from episodic_memory.store.rows import workstream_status

    assert workstream_status(1, 1, 0.5) == "hypothesis"          # one session is a hypothesis whatever it left
    assert workstream_status(2, 0, 0.5) == "hypothesis"          # recurring small talk: nothing worth keeping
    assert workstream_status(2, 1, 0.5) == "confirmed"
    assert workstream_status(5, 2, 0.5) == "hypothesis"          # mostly small talk with two stray facts
    assert workstream_status(6, 5, 0.5) == "confirmed"
    assert workstream_status(2, 0, 0.0) == "hypothesis"          # share 0 still needs one memory
    assert workstream_status(3, 1, 0.0) == "confirmed"


def test_a_thread_whose_sessions_leave_nothing_stays_a_hypothesis_until_they_do(backend: ScriptedBackend) -> None:
    fact = {"text": "Northgate wants fourteen slides in the Series B deck.", "type": "knowledge",
            "entities": ["Northgate"], "confidence": 0.9, "when": None, "turns": [1]}
    backend.replies = {"workstream judge": ['{"attach": null, "reason": "unsure"}']}
    with memory(workstreams={"confirm_share": 0.5}) as mem:
        session(mem, "s1", DECK, day=0)                 # the extractor finds nothing (the LLM replies [])
        session(mem, "s2", DECK_AGAIN, day=1)
        assert workstream_of(mem, "s2") == workstream_of(mem, "s1")
        [ws] = mem.workstreams(include_hypotheses=True)
        assert (ws.sessions, ws.status) == (2, "hypothesis") and mem.workstreams() == []
        backend.replies["fact extractor"] = [json.dumps([fact])]
        session(mem, "s3", DECK_AGAIN, day=2)           # one of three sessions left a fact: still below half
        [ws] = mem.workstreams(include_hypotheses=True)
        assert (ws.sessions, ws.status) == (3, "hypothesis")
        fact = {**fact, "text": "Sarah owns the financial model of the Northgate deck.", "type": "relationship"}
        backend.replies["fact extractor"] = [json.dumps([fact])]
        session(mem, "s4", DECK, day=3)                 # two of four
        [ws] = mem.workstreams()
        assert (ws.sessions, ws.status) == (4, "confirmed")


def test_by_default_most_of_a_workstreams_sessions_must_have_left_a_memory() -> None:
    """`confirm_share` 0.6: a pair of sessions needs both, four need three (docs/consolidation.md, "Confirmed when
    most sessions left something"); recurring small talk with one stray fact stays a hypothesis."""
    share = Config().workstreams.confirm_share
    assert share == 0.6
    assert [workstream_status(2, k, share) for k in (0, 1, 2)] == ["hypothesis", "hypothesis", "confirmed"]
    assert [workstream_status(4, k, share) for k in (2, 3)] == ["hypothesis", "confirmed"]
    assert [workstream_status(5, k, share) for k in (2, 3)] == ["hypothesis", "confirmed"]
    assert workstream_status(1, 1, share) == "hypothesis"   # one session is no thread yet


def test_keyphrases_read_sentences_with_no_words() -> None:
    """A sentence of punctuation or emoji alone (BEAM has them) has no people and no phrases; it fails nothing."""
    from episodic_memory.consolidate.keyphrases import _people_in, keyphrases

    assert _people_in("") == _people_in("...") == ()
    assert _people_in("Maya wants the deck by Friday.") == ("maya",)
    assert [p for _, p, _ in keyphrases(["...", "🙂", "Maya wants the deck by Friday."], names=set(), limit=3)] == [
        "deck", "maya"]
