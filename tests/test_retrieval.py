"""Hybrid recall: ranking sanity, filters, conversation awareness, recency, cross-process visibility, models."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.models.embedder import DEFAULT_MODEL_ID
from episodic_memory.retrieve.query import analyze, classify, find_names, time_range
from episodic_memory.retrieve.retriever import recency_bonus

from .fakes import HashingEmbedder
from .postgres.fixtures import sql_in_another_process, sql_rows

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

NOW = datetime.now(timezone.utc)
OLD = NOW - timedelta(days=400)


def test_dense_leg_finds_meaning_without_shared_words(mem: Memory) -> None:
    mem.add_turn("user", "I adopted a puppy from the shelter last weekend", session_id="s")
    mem.add_turn("user", "The quarterly tax filing is due in April", session_id="s")
    mem.add_turn("user", "Our office moved to a bigger building downtown", session_id="s")
    hits = mem.recall("new dog", k=3)
    assert hits[0].text.startswith("I adopted a puppy")
    assert "dense" in hits[0].details["legs"]
    assert mem.stats()["vectors"] == 3 and mem.stats()["embedder"] == DEFAULT_MODEL_ID


def test_bm25_and_dense_fuse(mem: Memory) -> None:
    mem.add_turn("user", "The Zephyr-9 release is blocked on the signing key", session_id="s")
    mem.add_turn("user", "Lunch was great today", session_id="s")
    hit = mem.recall("Zephyr-9 signing key")[0]
    assert hit.details["legs"] == {"bm25": 1, "dense": 1} and hit.details["fused"] == pytest.approx(1.0)


def test_filters_apply_to_both_legs(mem: Memory) -> None:
    mem.add_turn("user", "the garden needs watering", session_id="a", timestamp=OLD)
    mem.add_turn("user", "the garden has new tomatoes", session_id="b", timestamp=NOW)
    assert {h.session_id for h in mem.recall("garden plants")} == {"a", "b"}
    assert [h.session_id for h in mem.recall("garden plants", session_id="a")] == ["a"]
    assert [h.session_id for h in mem.recall("vegetables growing", since=NOW - timedelta(days=1))] == ["b"]
    assert [h.session_id for h in mem.recall("vegetables growing", until=NOW - timedelta(days=30))] == ["a"]
    assert mem.recall("garden", kind="episode") == []
    assert {h.kind for h in mem.recall("garden", kind="turn")} == {"turn"}


def test_recency_is_added_not_multiplied() -> None:
    cfg = Config()
    now = 1_000_000_000.0
    assert recency_bonus(now, now, cfg) == pytest.approx(cfg.retrieval.recency_weight)
    assert recency_bonus(now - 30 * 86400, now, cfg) == pytest.approx(cfg.retrieval.recency_weight / 2)
    # the hand-set sum with every other term at 0 (the learned ranker adds recency the same way, to its own score)
    quiet = Config(retrieval={"follow_weight": 0, "neighbour_weight": 0, "session_weight": 0, "speaker_bonus": 0, "time_bonus": 0, "ranker": "fused"})
    with Memory(":memory:", config=quiet) as mem:
        mem.add_turn("user", "alpha bravo charlie", session_id="s", timestamp=NOW)
        hit = mem.recall("alpha bravo charlie")[0]
        age = NOW.timestamp() - hit.timestamp.timestamp()
        assert age < 5
        # score = fused + recency: a hit with a fused score of 1 scores 1 + ~0.15, not 1 × something
        assert hit.score == pytest.approx(hit.details["fused"] + cfg.retrieval.recency_weight, abs=1e-3)


def test_a_fresh_item_overtakes_an_old_one_through_recency() -> None:
    def top(weight: float) -> str:
        with Memory(":memory:", config=Config(retrieval={"recency_weight": weight})) as mem:
            mem.add_turn("user", "project falcon deadline moved", session_id="a", timestamp=OLD)
            mem.add_turn("user", "project falcon deadline moved to friday", session_id="b", timestamp=NOW)
            return mem.recall("project falcon deadline moved")[0].session_id
    assert top(0.0) == "a"   # on relevance alone the shorter, exact old turn wins
    assert top(0.15) == "b"  # the recency term lifts the fresh one over it


def test_speaker_awareness_uses_known_names_not_capitals(mem: Memory) -> None:
    mem.add_turn("user", "I researched adoption agencies all week", session_id="s", speaker="Melanie")
    mem.add_turn("user", "I researched adoption agencies too", session_id="s", speaker="Caroline")
    for query in ("What did Caroline research?", "what did caroline research"):
        assert mem.recall(query)[0].speaker == "Caroline"
    assert find_names("what did caroline say", ["Caroline", "Mel"]) == ["Caroline"]
    assert find_names("tell me about the roadmap", ["Caroline"]) == []


def test_time_phrases_match_event_time(mem: Memory) -> None:
    mem.add_turn("user", "we went to the beach", session_id="s1", timestamp="2023-05-14T10:00:00Z")
    mem.add_turn("user", "we went to the beach again", session_id="s2", timestamp="2022-08-02T10:00:00Z")
    assert mem.recall("beach trip in May 2023")[0].session_id == "s1"
    assert mem.recall("beach trip in 2022")[0].session_id == "s2"
    assert mem.recall("beach on 2 August, 2022")[0].session_id == "s2"


def test_neighbouring_turn_context_finds_the_answer(mem: Memory) -> None:
    mem.add_turn("user", "Where did you go for your honeymoon?", session_id="s", speaker="Ann")
    mem.add_turn("assistant", "Lisbon, and then a week in the Azores.", session_id="s", speaker="Ben")
    for i in range(20):
        mem.add_turn("user", f"unrelated chatter number {i} about spreadsheets", session_id="s", speaker="Ann")
    hits = mem.recall("honeymoon destination", k=3)
    assert "Lisbon, and then a week in the Azores." in [h.text for h in hits]


def test_near_duplicates_collapse_into_one_hit(mem: Memory) -> None:
    mem.add_turn("user", "Remember to renew the passport!", session_id="s1", turn_id="a")
    mem.add_turn("user", "remember to renew the passport", session_id="s2", turn_id="b")
    hits = mem.recall("renew passport")
    assert len(hits) == 1 and sorted(hits[0].source_ids) == ["a", "b"]


def test_recall_works_without_an_embedder(db_path: Path) -> None:
    with Memory(db_path, config=Config(models={"embedder": "off"})) as mem:
        mem.add_turn("user", "the kettle is broken", session_id="s")
        hit = mem.recall("kettle")[0]
        assert hit.details["legs"] == {"bm25": 1}
        assert mem.stats()["embedder"] == "off" and mem.stats()["reranker"] == "off"
        assert mem.stats()["ranker"] == "learned"  # the default


def test_a_missing_model_degrades_to_bm25(db_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with Memory(db_path, config=Config(models={"embedder": str(tmp_path / "no-such-model")})) as mem:
        mem.add_turn("user", "the kettle is broken", session_id="s")
        assert mem.recall("kettle")[0].text == "the kettle is broken"
        assert "recall uses BM25 only" in caplog.text


def test_model_change_is_detected_and_reindex_reembeds(db_path: Path) -> None:
    old, new = HashingEmbedder("hash-old"), HashingEmbedder("hash-new", dim=32)
    with Memory(db_path, embedder=old) as mem:
        for i in range(5):
            mem.add_turn("user", f"note {i} about the boat engine", session_id="s")
        assert mem.stats()["vectors"] == 0  # below the consolidation threshold: not embedded yet
        assert mem.index() == 5 and mem.stats()["vectors"] == 5
    with Memory(db_path, embedder=new, config=Config(capture={"consolidate_on_open": False})) as mem:
        stats = mem.stats()
        assert stats["stale_vectors"] == {"hash-old": 5} and stats["vectors"] == 0
        assert mem.reindex() == 5
        stats = mem.stats()
        assert stats["vectors"] == 5 and "stale_vectors" not in stats
        assert "dense" in mem.recall("boat engine")[0].details["legs"]


def test_reindex_reembeds_every_kind_of_memory(db_path: Path) -> None:
    old, new = HashingEmbedder("hash-old"), HashingEmbedder("hash-new", dim=32)
    with Memory(db_path, embedder=old) as mem:
        mem.add_turn("user", "We decided to replace the boat engine before the summer.", session_id="s")
        mem.end_session("s", wait=True)  # a fact and an episode
        mem.judgments.store("the engine makes a noise", "check the impeller first", "it failed twice before")
        before = {kind for kind, in mem.store._query("SELECT DISTINCT kind FROM vectors")}
        assert before == {"turn", "fact", "episode", "judgment"}
    with Memory(db_path, embedder=new, config=Config(capture={"consolidate_on_open": False})) as mem:
        mem.reindex()
        rows = mem.store._query("SELECT kind, model FROM vectors")
        assert {kind for kind, _ in rows} == before and {model for _, model in rows} == {"hash-new"}
        assert "dense" in mem.recall("boat engine decision", kind="fact")[0].details["legs"]


def test_reindex_cli(db_path: Path) -> None:
    with Memory(db_path, config=Config(models={"embedder": "off"})) as mem:
        mem.add_turn("user", "the kettle is broken", session_id="s")
    result = CliRunner().invoke(main, ["reindex", "--db", str(db_path)])
    assert result.exit_code == 0 and f"embedded 1 memories with {DEFAULT_MODEL_ID}" in result.output


class _ReverseReranker:
    model_id = "reverse"

    def score(self, query: str, passages: list[str]):
        import numpy as np
        return np.array([len(p) / 10 - 2 for p in passages], dtype=np.float32)  # longest wins


def test_reranker_reorders_the_pool(mem: Memory) -> None:
    with Memory(":memory:", reranker=_ReverseReranker()) as reranked:
        for m in (mem, reranked):
            m.add_turn("user", "kiwi", session_id="s")
            m.add_turn("user", "kiwi fruit salad with extra long description", session_id="s")
        assert mem.recall("kiwi")[0].text == "kiwi"
        assert reranked.recall("kiwi")[0].text.startswith("kiwi fruit salad")
        assert reranked.stats()["reranker"] == "reverse"


def test_another_process_writes_are_seen_without_reopening(db_path: Path) -> None:
    with Memory(db_path) as mem:
        mem.add_turn("user", "first note about gardening", session_id="s")
        assert len(mem.recall("gardening")) == 1  # the dense matrix is loaded now
        child = textwrap.dedent(f"""
            from episodic_memory import Memory
            with Memory({str(db_path)!r}) as m:
                m.add_turn("user", "the orchid finally bloomed", session_id="other")
                m.index()
        """)
        subprocess.run([sys.executable, "-c", child], check=True)
        hits = mem.recall("flower blossomed")
        assert hits and hits[0].text == "the orchid finally bloomed"
        assert "dense" in hits[0].details["legs"]
        # deletions by another process are seen too
        subprocess.run([sys.executable, "-c", f"from episodic_memory import Memory\n"
                        f"Memory({str(db_path)!r}).forget(session_id='other')"], check=True)
        assert all(h.session_id != "other" for h in mem.recall("flower blossomed"))


def test_query_classifier() -> None:
    assert classify("When did Maya move to Lisbon?") == "temporal"
    assert classify('What is the "Zephyr-9" status?') == "exact"
    assert classify("Why would Sarah object to the plan?") == "reasoning"
    assert classify("favourite food") == "general"
    info = analyze("what did maya say last May", ["Maya"], now=datetime(2026, 11, 30, tzinfo=timezone.utc))
    assert info.names == ("Maya",) and info.time_range is not None
    assert datetime.fromtimestamp(info.time_range[0], timezone.utc) == datetime(2026, 5, 1, tzinfo=timezone.utc)
    assert time_range("I may come by") is None
    assert time_range("what did we do 3 weeks ago") is not None


def test_bm25_finds_a_users_rare_match_behind_another_users_many(tmp_path: Path) -> None:
    cfg = Config(models={"embedder": "off"}, retrieval={"candidate_pool": 5})
    with Memory(tmp_path / "m.db", config=cfg) as mem:
        mem.add_turns([{"role": "user", "content": f"apple apple pie number {i}", "session_id": "a",
                        "user_id": "alice"} for i in range(60)])
        mem.add_turn("user", "one apple, once, in a long sentence about many other things", session_id="b",
                     user_id="bob")
        hits = mem.recall("apple", k=3, user_id="bob")
        assert [h.user_id for h in hits] == ["bob"]
        assert len(mem.recall("apple", k=3, user_id="alice", session_id="a")) == 3


def test_embedding_text_carries_context_only_in_short_exchanges() -> None:
    from episodic_memory.retrieve.texts import embedding_text
    from episodic_memory.store.records import StoredTurn

    def turn(content: str, speaker: str | None = "Ann") -> StoredTurn:
        return StoredTurn(1, "u", "s", 0, "user", content, 0.0, 0.0, speaker, None)

    question, answer = turn("Where did you go?"), turn("Lisbon!", "Ben")
    assert embedding_text(answer, question) == "Ann: Where did you go?\nBen: Lisbon!"
    assert embedding_text(answer) == "Ben: Lisbon!"
    long_answer = turn("x" * 400, None)
    assert embedding_text(long_answer, question) == "x" * 400
    assert embedding_text(answer, turn("y" * 400)) == "Ben: Lisbon!"


@pytest.mark.parametrize("cap", [5_000_000, 2, 0])  # every turn read in one go; by id past the cap; no cache
def test_turn_heads_cache_respects_users_and_forgetting(db_path: Path, cap: int) -> None:
    """Ranking reads turns' positions through a cache: it must never answer for another user, a deletion in
    any process empties it, and a turn added later is found."""
    with Memory(db_path, config=Config(models={"embedder": "off"}, retrieval={"turn_head_cache": cap})) as mem:
        mem.add_turn("user", "alpha kept", session_id="keep", user_id="ann")
        mem.add_turn("user", "alpha gone", session_id="drop", user_id="ann")
        mem.add_turn("user", "alpha of bob", session_id="b", user_id="bob")
        ids = [i for (i,) in sql_rows(mem.store, "SELECT id FROM turns ORDER BY id")]
        assert sorted(mem.store.turn_heads("ann", ids).session_ids()) == ["drop", "keep"]
        assert mem.store.turn_heads("bob", ids).session_ids() == ["b"]  # cached, still per user
        assert len(mem.store._heads) == 3
        subprocess.run([sys.executable, "-c", f"from episodic_memory import Memory, Config\n"
                        f"Memory({str(db_path)!r}, config=Config(embedder='off')).forget(user_id='ann', "
                        "session_id='drop')"], check=True)
        assert mem.store.turn_heads("ann", ids).session_ids() == ["keep"]
        assert ids[1] not in mem.store._heads
        assert [h.text for h in mem.recall("alpha", user_id="ann")] == ["alpha kept"]
        mem.add_turn("user", "alpha later", session_id="keep", user_id="ann")
        ((later,),) = sql_rows(mem.store, "SELECT max(id) FROM turns")
        heads = mem.store.turn_heads("ann", [*ids, later])
        assert heads.session_ids() == ["keep", "keep"] and list(heads.seqs) == [0, 1]
        mem.forget(user_id="bob")
        assert len(mem.store._heads) == 0 and ids[0] not in mem.store._heads


def test_bm25_leaves_out_terms_most_turns_contain(db_path: Path) -> None:
    cfg = Config(retrieval={"bm25_common_floor": 5, "bm25_common_share": 0.0})
    with Memory(db_path, config=cfg, embedder=HashingEmbedder()) as mem:
        mem.add_turns([{"role": "user", "content": f"weekly meeting notes {i}", "session_id": "s"} for i in range(8)])
        mem.add_turn("user", "the zebra escaped during the meeting", session_id="t")
        assert mem.store.common_terms(["meeting", "zebra"], floor=5, share=0.0) == {"meeting"}
        hits = mem.recall("meeting zebra", k=10)
        assert hits[0].text == "the zebra escaped during the meeting"
        with_bm25 = [h.text for h in hits if "bm25" in h.details["legs"]]
        assert with_bm25 == ["the zebra escaped during the meeting"]  # "meeting" alone no longer ranks
        mem.end_session("s", wait=True)  # an episode about the meetings: the derived memories' BM25 leaves the term out too
        assert any(h.kind == "episode" and "meeting" in h.text for h in mem.recall("weekly meeting notes", k=20))
        alone = mem.recall("meeting", k=10)
        assert alone and all(not {"bm25", "bm25_memory"} & set(h.details["legs"]) for h in alone)  # dense alone
        mem.forget(session_id="s", user_id="default")  # a deletion drops the verdicts: "meeting" is rare now
        assert mem.store.common_terms(["meeting"], floor=5, share=0.0) == set()
    with Memory(db_path, config=cfg.replace({"models.embedder": "off"})) as mem:  # no dense leg: BM25 keeps all
        mem.add_turns([{"role": "user", "content": f"weekly meeting notes {i}", "session_id": "s"} for i in range(8)])
        assert len(mem.recall("meeting", k=3)) == 3


def test_coarse_to_fine_dense_scan_matches_the_exact_one(tmp_path: Path) -> None:
    """A big matrix is scanned on its principal directions first; the top hits, filters and rows added after the
    projection was fitted must come out as the exact scan has them."""
    import numpy as np

    words = [f"w{i}" for i in range(40)]
    rng = np.random.default_rng(3)

    def text() -> str:
        return " ".join(rng.choice(words, 6))

    emb = HashingEmbedder(dim=64)
    coarse = Config(retrieval={"dense_coarse_above": 100, "dense_coarse_dims": 24, "dense_coarse_factor": 4, "dense_coarse_block": 64})
    with Memory(tmp_path / "m.db", config=coarse, embedder=emb) as mem:
        mem.add_turns([{"role": "user", "content": text(), "session_id": f"s{i % 7}"} for i in range(400)])
        mem.wait_for_consolidation()  # nothing moves under the comparisons below
        mem.index()
        dense = mem.retriever.dense_index()
        assert dense is not None
        exact = type(dense)(mem.store, dense.model_id, dense.dim, coarse.replace({"retrieval.dense_coarse_above": 10**9}))
        m = dense.sync("default")
        assert m.basis is not None and m.basis.shape == (64, 24)
        assert m.coarse is not None and len(m.coarse.state[0]) == -(-len(m) // 64)  # all rows frozen
        assert len(m.coarse.state[1]) == 0
        frozen, frozen_rows = len(m.coarse.state[0]), len(m)
        for q in [text() for _ in range(20)]:
            qv = emb.embed([q])[0]
            got = [(h.item_id, round(h.similarity, 5)) for h in dense.search("default", qv, 10, floor=0.0)]
            want = [(h.item_id, round(h.similarity, 5)) for h in exact.search("default", qv, 10, floor=0.0)]
            # the same rows above the exact 10th similarity, the rest at it (rows tied there are equally good: which
            # of them fill the list depends on the order the arithmetic ran); the shortlist may miss one, rarely
            tenth = want[-1][1]
            assert len({h for h in want if h[1] > tenth} - set(got)) <= 1
            assert sum(sim < tenth for _, sim in got) <= 1
            in_s3 = dense.search("default", qv, 5, floor=0.0, session_id="s3", kind="turn")
            assert len(in_s3) == 5 and {mem.store.turns_by_id("default", [h.item_id])[h.item_id].session_id
                                         for h in in_s3} == {"s3"}
        mem.add_turn("user", "zebra quagga okapi", session_id="late")  # after the basis was fitted
        mem.index()
        hits = dense.search("default", emb.embed(["zebra quagga okapi"])[0], 3, floor=0.0)
        assert mem.store.turns_by_id("default", [hits[0].item_id])[hits[0].item_id].content == "zebra quagga okapi"
        # enough new rows to freeze another 4-bit block: every row still scored where it belongs
        mem.add_turns([{"role": "user", "content": text(), "session_id": "s9"} for _ in range(90)])
        mem.add_turn("user", "ibex gnu tapir", session_id="later")
        mem.index()
        dense.sync("default")
        added = len(m) - frozen_rows
        assert added >= 64 and len(m.coarse.state[0]) == frozen + added // 64
        assert len(m.coarse.state[1]) == added % 64
        for q in ["zebra quagga okapi", "ibex gnu tapir"]:
            hit = dense.search("default", emb.embed([q])[0], 3, floor=0.0)[0]
            assert mem.store.turns_by_id("default", [hit.item_id])[hit.item_id].content == q
        for q in [text() for _ in range(5)]:  # the 4-bit scores of every row, frozen or not, track float32's
            qv = emb.embed([q])[0]
            want = (m.matrix @ m.basis) @ (qv @ m.basis)
            assert np.corrcoef(m.coarse.scores(qv, len(m)), want)[0, 1] > 0.99


def test_top_rows_are_the_highest_scores() -> None:
    import numpy as np

    from episodic_memory.retrieve.dense import _top_rows

    rng = np.random.default_rng(5)
    for n, k in [(100_000, 300), (100_000, 2100), (5_000, 10), (50, 7)]:
        scores = np.round(rng.standard_normal(n), 2).astype(np.float32)  # many ties
        scores[rng.random(n) < 0.5] = -np.inf  # filtered-out rows
        rows = _top_rows(scores, k)
        assert len(rows) == len(set(rows.tolist())) == k
        assert np.array_equal(np.sort(scores[rows]), np.sort(scores)[-k:])
    ordered = np.arange(100_000, dtype=np.float32)  # a sample that sees only a trend still finds the top
    assert set(_top_rows(ordered, 300).tolist()) == set(range(99_700, 100_000))


def test_speaker_names_are_taken_out_of_the_embedded_query() -> None:
    from episodic_memory.retrieve.query import strip_names

    assert strip_names("What did Caroline research?", ["Caroline"]) == "What did research?"
    assert strip_names("Where is caroline's dog?", ["Caroline"]) == "Where is dog?"
    assert strip_names("Who is Caroline?", ["Caroline"]) == "Who is Caroline?"  # nothing but stopwords left
    assert strip_names("Carolinesque plans", ["Caroline"]) == "Carolinesque plans"  # whole words only


def test_dense_centring_sinks_items_close_to_everything(tmp_path: Path) -> None:
    import numpy as np

    emb = HashingEmbedder(dim=1024)
    with Memory(tmp_path / "m.db", config=Config(retrieval={"dense_floor": 0.0}), embedder=emb) as mem:
        # one session each: a turn is embedded alone (no start of the previous turn)
        mem.add_turns([{"role": "user", "content": f"okay sure thanks item{i}", "session_id": f"s{i}"}
                       for i in range(30)])
        mem.add_turn("user", "okay sure thanks", session_id="hub")                  # close to every turn
        mem.add_turn("user", "the garden party was lovely okay", session_id="garden")
        mem.index()
        dense = mem.retriever.dense_index()
        assert dense is not None
        q = emb.embed(["okay sure garden"])[0]
        raw = dense.search("default", q, 3, center=0.0)
        centred = dense.search("default", q, 3, center=1.0)
        text = {t.id: t.content for t in mem.store.turns_by_id("default", [h.item_id for h in raw + centred]).values()}
        assert text[raw[0].item_id] == "okay sure thanks"
        assert text[centred[0].item_id] == "the garden party was lovely okay"
        m = dense.sync("default")
        row = {int(i): r for r, i in enumerate(m.item_ids)}
        for h in centred:  # ranked by q·d − mean·d, reported as the raw cosine
            assert h.similarity == pytest.approx(float(m.matrix[row[h.item_id]] @ q), abs=1e-5)
        ranks = [float(m.matrix[row[h.item_id]] @ (q - m.mean)) for h in centred]
        assert ranks == sorted(ranks, reverse=True) and np.isfinite(ranks).all()


def test_recalls_from_many_threads_match_serial_ones(tmp_path: Path) -> None:
    """BM25 runs in a worker while the calling thread embeds and scans vectors: concurrent recalls must not mix."""
    from concurrent.futures import ThreadPoolExecutor

    with Memory(tmp_path / "m.db", embedder=HashingEmbedder(dim=256)) as mem:
        mem.add_turns([{"role": "user", "content": f"topic{i % 9} detail{i} about gardens and trains",
                        "session_id": f"s{i % 5}"} for i in range(120)])
        mem.wait_for_consolidation()  # nothing moves between the serial and the parallel recalls
        mem.index()
        queries = [f"topic{i} detail{i * 7}" for i in range(9)] * 4
        serial = [[h.id for h in mem.recall(q, k=5)] for q in queries]
        with ThreadPoolExecutor(6) as pool:
            parallel = list(pool.map(lambda q: [h.id for h in mem.recall(q, k=5)], queries))
        assert parallel == serial


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
def test_a_forked_child_can_recall_after_its_parent_did(tmp_path: Path) -> None:
    """Recall runs BM25 on a worker thread of a module-level pool; a child forked after the parent's recalls (a
    server's workers, say) opens its own Memory and must get workers of its own."""
    import multiprocessing
    import os

    path = tmp_path / "m.db"
    with Memory(path, embedder=HashingEmbedder()) as mem:
        mem.add_turn("user", "the lighthouse keeper paints the stairs", session_id="s")
        assert mem.recall("lighthouse stairs")

        def child() -> None:
            with Memory(path, embedder=HashingEmbedder()) as own:  # never the parent's connection across a fork
                found = own.recall("lighthouse stairs")
            os._exit(0 if found and found[0].text.startswith("the lighthouse") else 1)

        proc = multiprocessing.get_context("fork").Process(target=child)
        proc.start()
        proc.join(30)
        assert proc.exitcode == 0


def test_turn_scores_follow_the_formula_candidate_by_candidate() -> None:
    """The vectorised scoring of turns equals the documented formula written out one turn at a time: neighbours'
    fused scores, the session's three best turns, the speaker and time bonuses and recency."""
    import math

    import numpy as np

    from episodic_memory.retrieve.query import QueryInfo
    from episodic_memory.retrieve.retriever import Retriever, _Candidates
    from episodic_memory.store.heads import HeadColumns

    rng = np.random.default_rng(3)
    cfg = Config()
    n, now = 60, 1.9e9
    ids = rng.permutation(1000)[:n] + 1
    sessions = rng.integers(0, 6, n).astype(np.int32)
    seqs = rng.integers(0, 15, n)
    keep = np.unique(np.stack([sessions, seqs], 1), axis=0, return_index=True)[1]  # one turn per position
    ids, sessions, seqs = ids[np.sort(keep)], sessions[np.sort(keep)], seqs[np.sort(keep)]
    n = len(ids)
    speakers = rng.integers(-1, 3, n).astype(np.int32)
    ts = now - rng.uniform(0, 200, n) * 86_400
    fused = rng.uniform(0.05, 1.0, n)
    candidates = _Candidates(ids * 8, fused, np.full(n, np.nan), {}, np.zeros(n), np.zeros(n, bool))
    heads = HeadColumns(np.ones(n, bool), ids, sessions, seqs, speakers, ts, [f"s{i}" for i in range(6)], ["Ann", "Ben", "Cy"])
    info = QueryInfo("q", "general", [], names=["ben"], time_range=(now - 50 * 86_400, now - 20 * 86_400))
    Retriever(None, cfg)._score(candidates, np.arange(n), heads, info, now)  # type: ignore[arg-type]

    at = {(s, q): f for s, q, f in zip(sessions.tolist(), seqs.tolist(), fused.tolist(), strict=True)}
    strength = {s: sum(sorted((f for (t, _), f in at.items() if t == s), reverse=True)[:3]) for s in set(sessions.tolist())}
    for i in range(n):
        s, q = int(sessions[i]), int(seqs[i])
        expected = fused[i] + max(cfg.retrieval.follow_weight * at.get((s, q - 1), 0.0), cfg.retrieval.neighbour_weight * at.get((s, q + 1), 0.0))
        expected += cfg.retrieval.session_weight * strength[s] / max(strength.values())
        expected += cfg.retrieval.speaker_bonus * (speakers[i] == 1) + cfg.retrieval.time_bonus * (info.time_range[0] <= ts[i] < info.time_range[1])
        expected += cfg.retrieval.recency_weight * math.pow(0.5, (now - ts[i]) / 86_400 / cfg.retrieval.recency_half_life_days)
        assert candidates.score[i] == pytest.approx(expected, abs=1e-9)
    assert candidates.valid.all()


def test_derived_hits_are_cached_until_a_derived_memory_changes_in_any_process(db_path: Path) -> None:
    question = "how many slides does the deck need"
    with Memory(db_path, embedder=HashingEmbedder()) as mem:
        mem.add_turn("user", "The Series B deck needs 12 slides.", session_id="a", speaker="Maya")
        mem.end_session("a", wait=True)
        first = mem.recall(question, kind="fact")[0]
        assert first.text == "The Series B deck needs 12 slides." and mem.retriever._derived
        sources = list(first.source_ids)
        first.source_ids.append("tampered")  # a caller may mutate what it got: the cache keeps its own copy
        first.details["entities"] = ["tampered"]
        again = mem.recall(question, kind="fact")[0]
        assert again.source_ids == sources and "tampered" not in again.details["entities"]
        # another process changes the fact behind this process's cache
        sql_in_another_process(db_path, "UPDATE facts SET recurrence = 7")
        assert mem.recall(question, kind="fact")[0].details["recurrence"] == 7
        # and so does this one: a correction supersedes it
        mem.add_turn("user", "Actually, the deck needs 14 slides, not 12 — Sarah confirmed.", session_id="b",
                     speaker="Maya")
        mem.end_session("b", wait=True)
        texts = [h.text for h in mem.recall(question, kind="fact")]
        assert texts[0].endswith("(previously: 12)") and "The Series B deck needs 12 slides." not in texts
        assert [h.text for h in mem.recall(question, kind="fact", as_of=time.time())] == texts
        mem.forget(session_id="b")
        assert not mem.retriever._derived  # nothing forgotten stays in this process's memory either


def test_a_dense_search_keeps_blas_to_one_thread_and_gives_the_host_its_setting_back() -> None:
    from threadpoolctl import threadpool_info

    from episodic_memory.util import one_blas_thread

    def blas_threads() -> list[int]:
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

    before = blas_threads()
    if not before:
        pytest.skip("numpy's BLAS is not one threadpoolctl can see (e.g. Accelerate): nothing to hold")
    with one_blas_thread:
        with one_blas_thread:  # a second search meanwhile (another thread): the first one out must not restore yet
            assert blas_threads() and all(n == 1 for n in blas_threads())
        assert all(n == 1 for n in blas_threads())
    assert blas_threads() == before


def test_an_embedder_change_says_why_the_first_recalls_embed(db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    with Memory(db_path, config=Config(models={"embedder": "minilm-l6-v2-int8-dynamic"})) as mem:
        mem.add_turns([{"role": "user", "content": f"note {i} about the kayak", "session_id": "s"}
                       for i in range(300)])
        mem.wait_for_consolidation()
        mem.index()
        before = mem.stats()["vectors"]
        assert before >= 300
    with caplog.at_level(logging.WARNING, logger="episodic_memory.retrieve.indexer"), Memory(db_path) as mem:
        assert mem.recall("kayak note 7")  # the default model: turns are embedded again, a bounded share per recall
        assert mem.stats()["vectors"] == mem.config.retrieval.embed_first() == 256
        assert mem.recall("kayak note 8")
        assert mem.stats()["vectors"] >= 300 and mem.stats()["stale_vectors"] == {"minilm-l6-v2-int8-dynamic": before}
    said = [r.getMessage() for r in caplog.records]
    assert any("300 turns have no minilm-l6-v2-int8-fused vector" in m and "episodic reindex" in m for m in said)


def test_first_reads_in_chunks_give_what_one_read_gives(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The dense matrix and the turn heads are read a chunk at a time on a first sync (a big store's rows are not
    all held as Python objects at once): the same rows, columns and hits as reading everything in one go."""
    import numpy as np

    from episodic_memory.store import heads as heads_module

    with Memory(db_path, embedder=HashingEmbedder()) as mem:
        for user in ("ann", "bob"):
            mem.add_turns([{"role": "user", "content": f"{user} note {i} about kayaks and rivers",
                            "session_id": f"{user}-s{i % 3}", "user_id": user} for i in range(11)])
        mem.index()
        ids = [i for (i,) in sql_rows(mem.store, "SELECT id FROM turns ORDER BY id")]
        whole = mem.retriever.dense_index().sync("ann")
        whole_heads = mem.store.turn_heads("ann", ids)
        whole_hits = [(h.id, round(h.score, 6)) for h in mem.recall("kayak rivers", k=8, user_id="ann")]
    monkeypatch.setattr(heads_module, "READ_CHUNK", 2)
    with Memory(db_path, embedder=HashingEmbedder()) as mem:
        dense = mem.retriever.dense_index()
        dense.load_chunk = 3
        reads = []
        load = mem.store.load_vectors
        monkeypatch.setattr(mem.store, "load_vectors", lambda *a, **k: reads.append(1) or load(*a, **k))
        parts = dense.sync("ann")
        assert len(reads) >= -(-len(parts) // 3) > 1  # really read in chunks (ceil(rows / 3) reads at least)
        np.testing.assert_array_equal(parts.matrix, whole.matrix)
        for column in ("item_ids", "kind_codes", "ts"):
            np.testing.assert_array_equal(getattr(parts, column), getattr(whole, column))
        assert parts.watermark == whole.watermark and len(parts) == len(whole)
        heads = mem.store.turn_heads("ann", ids)
        assert mem.store._heads.watermark == max(ids)  # read through to the newest turn, two at a time
        assert heads.session_ids() == whole_heads.session_ids() and list(heads.seqs) == list(whole_heads.seqs)
        assert [(h.id, round(h.score, 6)) for h in mem.recall("kayak rivers", k=8, user_id="ann")] == whole_hits
