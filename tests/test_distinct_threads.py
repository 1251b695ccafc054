"""Workstreams from what is distinctive: statements weighed against the user's own vocabulary, chit-chat in no
thread, names from keyphrases, attach as a session goes on (consolidate/distinct.py, consolidate/workstreams.py)."""

from __future__ import annotations

from typing import Any

from episodic_memory import Memory
from episodic_memory.consolidate.distinct import idf, is_statement, session_words
from episodic_memory.store.records import StoredTurn

from .fakes import hashing_memory as memory
from .fakes import play_session as session

KITCHEN_1 = ["ok, the kitchen stuff again", "> Go ahead.",
             "The kitchen renovation should be done by July, Ridgeway Carpentry is doing the cabinets.",
             "> Noted.", "We picked terrazzo for the kitchen countertops.", "> Got it."]
LAUNCH_1 = ["evening, long day", "> Welcome back.",
            "310 people signed up for the Skylark beta, and the Skylark launch is set for March.",
            "> Nice.", "Imogen owns the launch announcement for Skylark.", "> Understood."]
KITCHEN_2 = ["quick kitchen update", "> Sure.",
             "Ridgeway Carpentry says the kitchen cabinets arrive late, the countertops are terrazzo still.",
             "> Okay.", "The kitchen renovation budget went up to forty thousand.", "> Logged."]
LAUNCH_2 = ["morning!", "> Morning.",
            "We booked a venue for the Skylark launch party, and the Skylark pricing is final.",
            "> Good call.", "Imogen drafted the launch announcement already.", "> Great."]
CHITCHAT_1 = ["hi again", "> Hey! Go ahead.", "translate 'good morning' into Spanish", "> Buenos días.",
              "lol thanks, that's all", "> Bye for now!"]
CHITCHAT_2 = ["hello hello", "> Welcome back.", "what's a good name for a cat?", "> Miso, maybe.",
              "perfect, talk later", "> Talk soon."]


def workstream_of(mem: Memory, sid: str) -> int | None:
    mem.wait_for_consolidation()  # a session left open may have a run under way in the background
    episode = mem.store.session_episode(mem.user_id, sid)
    assert episode is not None
    return episode.workstream_id


def _turn(content: str, role: str = "user") -> StoredTurn:
    return StoredTurn(id=1, user_id="u", session_id="s", seq=0, role=role, content=content, ts=0.0, ingested_at=0.0,
                      speaker=None, turn_id=None)


def test_a_statement_is_what_a_person_said_that_is_neither_a_question_nor_a_request() -> None:
    assert is_statement(_turn("We picked terrazzo for the countertops."))
    assert not is_statement(_turn("how do people live through a kitchen remodel?"))
    assert not is_statement(_turn("give me a packing list for a 9-day trip"))
    assert not is_statement(_turn("Could you translate this into Spanish"))
    assert not is_statement(_turn("Terrazzo is a good choice.", role="assistant"))


def test_names_weigh_more_and_common_words_weigh_nothing() -> None:
    words = session_words([_turn("The launch of Skylark slipped a week.")], name_boost=3.0)
    assert words.tf["skylark"] == 3.0 and words.tf["launch"] == 1.0
    # a word stated in more than half of the user's ten sessions is common; a rare one is not
    assert idf("launch", {"launch": 6}, 10, 0.5) == 0.0
    assert idf("skylark", {"skylark": 2}, 10, 0.5) > 1.5
    assert idf("launch", {"launch": 3}, 4, 0.5) > 0   # too few sessions to call anything common


def test_two_interleaved_threads_and_chit_chat() -> None:
    with memory() as mem:
        for day, (sid, lines) in enumerate([("k1", KITCHEN_1), ("c1", CHITCHAT_1), ("l1", LAUNCH_1),
                                            ("k2", KITCHEN_2), ("c2", CHITCHAT_2), ("l2", LAUNCH_2)]):
            session(mem, sid, lines, day=day)
        kitchen, launch = workstream_of(mem, "k1"), workstream_of(mem, "l1")
        assert kitchen is not None and launch is not None and kitchen != launch
        assert workstream_of(mem, "k2") == kitchen and workstream_of(mem, "l2") == launch
        assert workstream_of(mem, "c1") is None and workstream_of(mem, "c2") is None   # chit-chat: no thread
        confirmed = {w.id: w for w in mem.workstreams()}
        assert set(confirmed) == {kitchen, launch}
        assert all(w.sessions == 2 for w in confirmed.values())


def test_workstreams_are_named_from_their_distinctive_keyphrases() -> None:
    with memory() as mem:
        for day, (sid, lines) in enumerate([("k1", KITCHEN_1), ("c1", CHITCHAT_1), ("l1", LAUNCH_1),
                                            ("k2", KITCHEN_2), ("c2", CHITCHAT_2), ("l2", LAUNCH_2)]):
            session(mem, sid, lines, day=day)
        names = {w.id: w.name.lower() for w in mem.workstreams()}
        kitchen_name, launch_name = names[workstream_of(mem, "k1")], names[workstream_of(mem, "l1")]
        assert any(w in kitchen_name for w in ("kitchen", "ridgeway", "countertop", "terrazzo"))
        assert any(w in launch_name for w in ("skylark", "launch", "imogen"))
        for name in names.values():   # never the filler every session shares
            assert not any(w in name.split() for w in ("again", "morning", "evening", "thanks", "update"))


def test_a_session_attaches_once_it_says_what_it_is_about() -> None:
    with memory(capture={"consolidate_every": 4}) as mem:
        session(mem, "k1", KITCHEN_1, day=0)
        session(mem, "l1", LAUNCH_1, day=1)
        session(mem, "k2", KITCHEN_2, day=2)
        kitchen = workstream_of(mem, "k1")
        assert workstream_of(mem, "k2") == kitchen
        # a new session opens with small talk: consolidated after four turns, it belongs to no thread yet
        session(mem, "k3", ["hey there", "> Hi!", "long week, honestly", "> Sorry to hear."], day=3, end=False)
        assert workstream_of(mem, "k3") is None
        # then it gets to the kitchen: the next consolidation attaches it
        session(mem, "k3", ["Ridgeway Carpentry finished the kitchen cabinets today.", "> Great news.",
                            "The terrazzo countertops go in next week, then the kitchen renovation is done.",
                            "> Noted."], day=3)
        assert workstream_of(mem, "k3") == kitchen
        assert {w.id: w.sessions for w in mem.workstreams()}[kitchen] == 3


def test_the_store_keeps_the_users_vocabulary_and_detaches_an_episode() -> None:
    with memory() as mem:
        session(mem, "k1", KITCHEN_1, day=0)
        session(mem, "k2", KITCHEN_2, day=1)
        session(mem, "l1", LAUNCH_1, day=2)
        store = mem.store
        n, df = store.term_frequencies("default", ["kitchen", "skylark", "nowhere"])
        assert n == 3 and df == {"kitchen": 2, "skylark": 1}
        k2 = store.session_episode("default", "k2")
        assert "ridgeway" in store.session_terms(k2.id) and "imogen" not in store.session_terms(k2.id)
        profiles = store.workstream_terms("default", ["ridgeway"])
        assert list(profiles) == [k2.workstream_id] and profiles[k2.workstream_id]["kitchen"] == 6.0
        store.detach_episode(k2.id)
        assert workstream_of(mem, "k2") is None
        [ws] = [w for w in mem.workstreams(include_hypotheses=True) if w.id == workstream_of(mem, "k1")]
        assert ws.sessions == 1 and ws.status == "hypothesis"
        mem.forget(session_id="k2")   # its words go with it
        assert store.term_frequencies("default", ["ridgeway"]) == (2, {"ridgeway": 1})


GARDEN_1 = ["garden notes", "> Go ahead.",
            "The tomatoes went into the raised beds on Saturday, eight Brandywine seedlings.",
            "> Noted.", "Brandywine tomatoes need staking by June.", "> Got it."]
GARDEN_2 = ["more garden stuff", "> Sure.",
            "Ordered a drip irrigation kit from Rainbird for the allotment.",
            "> Okay.", "The compost bin at the allotment is finally full, Rainbird drip lines go in next week.",
            "> Logged."]
GARDEN_3 = ["garden again", "> Go on.",
            "The Rainbird drip irrigation now waters the raised beds, and the Brandywine tomatoes love it.",
            "> Nice.", "The allotment compost goes on the Brandywine tomatoes in July.", "> Understood."]


def test_a_bridging_session_merges_two_hypotheses_of_one_thread() -> None:
    # garden 1 and 2 share no distinctive word: two hypotheses; garden 3 names what both said and links them
    with memory() as mem:
        for day, (sid, lines) in enumerate([("g1", GARDEN_1), ("c1", CHITCHAT_1), ("g2", GARDEN_2)]):
            session(mem, sid, lines, day=day)
        assert workstream_of(mem, "g1") != workstream_of(mem, "g2")
        assert mem.workstreams() == []   # two hypotheses, nothing confirmed
        session(mem, "g3", GARDEN_3, day=3)
        garden = workstream_of(mem, "g3")
        assert garden is not None and workstream_of(mem, "g1") == garden == workstream_of(mem, "g2")
        assert [(w.id, w.sessions) for w in mem.workstreams()] == [(garden, 3)]


def test_without_bridging_the_hypothesis_stays_apart() -> None:
    with memory(workstreams={"bridge": False, "recheck": 0}) as mem:
        for day, (sid, lines) in enumerate([("g1", GARDEN_1), ("c1", CHITCHAT_1), ("g2", GARDEN_2),
                                            ("g3", GARDEN_3)]):
            session(mem, sid, lines, day=day)
        assert workstream_of(mem, "g1") != workstream_of(mem, "g2")
        assert len({workstream_of(mem, s) for s in ("g1", "g2", "g3")}) == 2


def test_a_bridging_session_does_not_merge_two_settled_workstreams() -> None:
    # kitchen and launch are confirmed (two sessions each); one session naming both joins one, merges nothing
    both = ["a mixed day", "> Go ahead.",
            "Ridgeway Carpentry finished the kitchen cabinets and the terrazzo countertops.", "> Noted.",
            "The Skylark launch party venue is booked and Imogen sent the Skylark announcement.", "> Great."]
    with memory() as mem:
        for day, (sid, lines) in enumerate([("k1", KITCHEN_1), ("l1", LAUNCH_1), ("k2", KITCHEN_2),
                                            ("l2", LAUNCH_2), ("b", both)]):
            session(mem, sid, lines, day=day)
        kitchen, launch = workstream_of(mem, "k1"), workstream_of(mem, "l1")
        assert kitchen != launch and workstream_of(mem, "b") in {kitchen, launch}
        assert {w.id for w in mem.workstreams()} == {kitchen, launch}


def test_without_a_judge_a_decisive_nearest_workstream_takes_a_session_from_the_band() -> None:
    from types import SimpleNamespace

    from episodic_memory import Config
    from episodic_memory.consolidate.episodes import LEXICAL_MODEL
    from episodic_memory.consolidate.workstreams import decisive

    clients: Any = SimpleNamespace(config=Config())   # attach 0.225, judge floor 0.165, ratio 1.5
    dense = "minilm+distinct"
    assert decisive(clients, [(7, 0.20), (3, 0.12)], dense, {7, 3}) == 7         # clearly the nearest
    assert decisive(clients, [(7, 0.20)], dense, {7}) == 7                        # the only one
    assert decisive(clients, [(7, 0.20), (3, 0.15)], dense, {7, 3}) is None      # near two: stays alone
    assert decisive(clients, [(7, 0.20), (3, 0.12)], dense, {3}) is None         # no distinctive word in common
    assert decisive(clients, [(7, 0.15), (3, 0.05)], dense, {7, 3}) is None      # below the band
    assert decisive(clients, [(7, 0.12), (3, 0.02)], LEXICAL_MODEL, {7, 3}) is None   # bags of words: never
    off: Any = SimpleNamespace(config=Config(workstreams={"decisive_ratio": 0}))
    assert decisive(off, [(7, 0.20), (3, 0.12)], dense, {7, 3}) is None


def test_a_hypothesis_is_matched_again_when_a_near_workstream_grows() -> None:
    # no bridging: garden 2 (alone) is matched again once garden 3 joined garden 1, and joins them
    with memory(workstreams={"bridge": False}) as mem:
        for day, (sid, lines) in enumerate([("g1", GARDEN_1), ("c1", CHITCHAT_1), ("g2", GARDEN_2),
                                            ("g3", GARDEN_3)]):
            session(mem, sid, lines, day=day)
        garden = workstream_of(mem, "g3")
        assert workstream_of(mem, "g1") == garden == workstream_of(mem, "g2")



class _CountingEmbedder:
    """Each sentence a fixed vector of its own; every text the model is asked for, counted."""

    model_id = "counting"
    dim = 3
    ROWS = {"We picked terrazzo for the countertops.": [1, 0, 0], "Ok so.": [0, 1, 0],
            "Imogen owns the Skylark launch.": [0, 0, 1]}

    def __init__(self) -> None:
        self.asked: list[str] = []

    def embed(self, texts: Any) -> Any:
        import numpy as np

        self.asked.extend(texts)
        return np.asarray([self.ROWS[t] for t in texts], np.float32)


def test_the_thread_vector_reads_sentences_weighed_by_their_distinctive_words() -> None:
    import numpy as np

    from episodic_memory.config import Config
    from episodic_memory.consolidate.distinct import sentence_weights
    from episodic_memory.consolidate.episodes import thread_vector
    from episodic_memory.store.records import SessionInfo

    turns = [_turn("We picked terrazzo for the countertops. Did Skylark pick a date? Ok so."),
             _turn("Imogen owns the Skylark launch."), _turn("Ok so.")]
    said = session_words(turns)
    df = {t: 1 for t in said.tf}
    embedder = _CountingEmbedder()

    class _Store:
        def term_frequencies(self, user_id: str, tf: Any, exclude_episode: Any = None) -> Any:
            return 0, {}

    class _Clients:
        config = Config()
        store = _Store()

        def embedder(self) -> Any:
            return embedder

    info = SessionInfo("u", "s", "open", None, None, 3, 0, False)
    vec, model = thread_vector(_Clients(), info, turns, said, None)  # type: ignore[arg-type]
    # the sentences the learned models embed (the embedder's text cache holds them), not whole turns; a sentence
    # (and a turn) with no distinctive word is left out, unembedded, and so is a question
    assert embedder.asked == ["We picked terrazzo for the countertops.", "Imogen owns the Skylark launch."]
    w = sentence_weights(["We picked terrazzo for the countertops.", "Ok so.", "Imogen owns the Skylark launch.",
                          "Did Skylark pick a date?"], df, 1, 0.5)
    assert w[1] == 0 and w[3] == 0 and w[0] > 0 and w[2] > 0
    expected = np.asarray([w[0], 0, w[2]], np.float32) / np.linalg.norm([w[0], w[2]])
    assert model == "counting+distinct" and vec is not None and np.allclose(vec, expected)
