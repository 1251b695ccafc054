"""The vector sidecar (retrieve/sidecar.py, issues 22 and 44): vectors, coarse codes and turn heads in mapped files beside the
SQLite database. It gives what the database gives, follows it (appends, deletions, other processes), and is built
again whenever it does not check out; forgetting takes the forgotten vectors' bytes out of it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from episodic_memory import Config, Memory
from episodic_memory.retrieve.sidecar import quantize_rows

from .fakes import HashingEmbedder

WORDS = [f"w{i}" for i in range(60)]
SIDECAR = Config(retrieval={"vector_sidecar_above": 100, "dense_coarse_above": 100, "dense_coarse_dims": 24, "dense_coarse_factor": 4, "dense_coarse_block": 64}, capture={"consolidate_in_background": "off", "consolidate_every": 10**6, "consolidate_on_open": False})


def _fill(mem: Memory, n: int, seed: int, session: str = "s", user_id: str | None = None) -> None:
    rng = np.random.default_rng(seed)
    mem.add_turns([{"role": "user", "content": " ".join(rng.choice(WORDS, 6)), "session_id": f"{session}{i % 7}",
                    **({"user_id": user_id} if user_id else {})} for i in range(n)])
    mem.index()


def _hits(index: object, queries: np.ndarray, user: str = "default") -> list[list[tuple[int, float]]]:
    return [[(h.item_id, round(h.similarity, 5)) for h in index.search(user, q, 10, floor=0.0, center=1.0)]  # type: ignore[attr-defined]
            for q in queries]


def _queries(emb: HashingEmbedder, n: int = 20) -> np.ndarray:
    rng = np.random.default_rng(99)
    return emb.embed([" ".join(rng.choice(WORDS, 6)) for _ in range(n)])


def _header(mem: Memory, user: str = "default") -> dict:
    dense = mem.retriever.dense_index()
    assert dense is not None
    side = dense.sidecar(user)
    assert side is not None
    return json.loads((side.dir / "header.json").read_text())


def _in_memory(mem: Memory) -> object:
    dense = mem.retriever.dense_index()
    assert dense is not None
    return type(dense)(mem.store, dense.model_id, dense.dim, SIDECAR.replace({"retrieval.vector_sidecar": False}))


def _sidecar_bytes(mem: Memory) -> bytes:
    root = mem.store.sidecar_dir()
    assert root is not None
    return b"".join(p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file())


def test_a_fresh_build_and_its_appends_give_what_the_database_gives(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=64)
    with Memory(tmp_path / "m.db", config=SIDECAR, embedder=emb) as mem:
        _fill(mem, 400, 1)
        dense = mem.retriever.dense_index()
        assert dense is not None
        m = dense.sync("default")
        assert m.sidecar and len(m) == 400 and m.coarse is not None
        h = _header(mem)
        assert h["rows"] == 400 and h["dead"] == 0
        queries = _queries(emb)
        assert _hits(dense, queries) == _hits(_in_memory(mem), queries)
        _fill(mem, 150, 2, session="t")  # appended past the watermark, same build
        m = dense.sync("default")
        assert len(m) == 550 and _header(mem)["build"] == h["build"] and _header(mem)["rows"] == 550
        assert _hits(dense, queries) == _hits(_in_memory(mem), queries)
        # recall through it, and a session filter reads the sidecar's session codes
        assert mem.recall("w1 w2 w3", k=5)
        got = dense.search("default", queries[0], 50, floor=0.0, session_id="t3")
        assert got and all(mem.store.turns_by_id("default", [x.item_id])[x.item_id].session_id == "t3" for x in got)


def test_int8_rows_are_within_their_rounding_of_the_vectors() -> None:
    rng = np.random.default_rng(5)
    rows = rng.standard_normal((200, 384)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    rows[7] = 0.0  # a zeroed row stays zero
    q8, scales = quantize_rows(rows)
    assert q8.dtype == np.int8 and scales.dtype == np.float32 and int(np.abs(q8).max()) == 127
    assert np.abs(q8 * scales[:, None] - rows).max() <= scales.max() / 2 + 1e-7  # half a step at most
    assert not q8[7].any()
    queries = rng.standard_normal((50, 384)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    assert np.abs((q8.astype(np.float32) @ queries.T) * scales[:, None] - rows @ queries.T).max() < 2e-3


def test_a_big_sidecar_scores_its_shortlist_on_int8_rows_with_the_same_hits(tmp_path: Path) -> None:
    """From `vector_sidecar_int8_above` rows the coarse scan's shortlist is scored on the int8 rows (a quarter of
    the bytes mapped into the process): each hit's cosine within its rounding (half a step of its row's scale per
    coordinate of the query) of the float32 one, and nothing in the top 10 that float32 ranks below its own top 10
    by more than twice that: only near-ties may swap."""
    emb = HashingEmbedder(dim=64)
    int8 = SIDECAR.replace({"retrieval.vector_sidecar_int8_above": 300})
    with Memory(tmp_path / "m.db", config=int8, embedder=emb) as mem:
        _fill(mem, 250, 1)
        dense = mem.retriever.dense_index()
        assert dense is not None
        assert dense.sync("default").q8 is None  # below the threshold: float32
        _fill(mem, 150, 2, session="t")
        m = dense.sync("default")
        assert m.q8 is not None and m.scales is not None and len(m.scales) == len(m) == 400
        queries = _queries(emb)
        _close_to_float32(dense, _in_memory(mem), queries, float(np.max(m.scales)))
    with Memory(tmp_path / "m.db", config=int8, embedder=emb) as mem:  # another process maps the same build
        dense = mem.retriever.dense_index()
        assert dense is not None and dense.sync("default").q8 is not None
        _close_to_float32(dense, _in_memory(mem), queries, float(np.max(m.scales)))


def _close_to_float32(index: object, float32: object, queries: np.ndarray, scale: float) -> None:
    """`index`'s top 10s against `float32`'s (the same coarse shortlist, scored on float32 rows)."""
    swapped = 0
    for q in queries:
        hits = [(h.item_id, h.similarity) for h in index.search("default", q, 10, floor=-1.0)]  # type: ignore[attr-defined]
        want = [(h.item_id, h.similarity) for h in float32.search("default", q, 10, floor=-1.0)]  # type: ignore[attr-defined]
        exact = {h.item_id: h.similarity for h in float32.search("default", q, 1000, floor=-1.0)}  # type: ignore[attr-defined]
        bound = 0.5 * scale * float(np.abs(q).sum()) + 1e-5
        assert len(hits) == 10 and all(abs(sim - exact[i]) <= bound for i, sim in hits)
        assert all(exact[i] >= want[-1][1] - 2 * bound for i, _ in hits)
        swapped += len({i for i, _ in hits} - {i for i, _ in want})
    assert swapped <= len(queries)  # most top 10s are the same rows


def test_another_process_maps_the_sidecar_and_sees_new_vectors_at_its_next_recall(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=64)
    with Memory(tmp_path / "m.db", config=SIDECAR, embedder=emb) as one:
        _fill(one, 300, 1)
        first = one.retriever.dense_index()
        assert first is not None and first.sync("default").sidecar
        build = _header(one)["build"]
        with Memory(tmp_path / "m.db", config=SIDECAR, embedder=emb) as two:
            second = two.retriever.dense_index()
            assert second is not None
            m = second.sync("default")
            assert m.sidecar and m.build == build and len(m) == 300  # opened, not rebuilt
            one.add_turn("user", "zebra quokka platypus", session_id="new")
            one.index()
            [hit] = second.search("default", emb.embed_query("zebra quokka platypus"), 1, floor=0.0)
            assert two.store.turns_by_id("default", [hit.item_id])[hit.item_id].content == "zebra quokka platypus"
            assert len(second.sync("default")) == 301 and _header(two)["build"] == build
            # the first one maps the row the second appended
            assert len(first.sync("default")) == 301
            queries = _queries(emb)
            assert _hits(first, queries) == _hits(second, queries) == _hits(_in_memory(one), queries)


@pytest.mark.parametrize("damage", ["header", "truncated", "model", "bytes", "other_database", "removed"])
def test_a_sidecar_that_does_not_check_out_is_built_again(tmp_path: Path, damage: str) -> None:
    emb = HashingEmbedder(dim=64)
    checked = SIDECAR.replace({"retrieval.vector_sidecar_checks": 1000})  # every row compared at open
    with Memory(tmp_path / "m.db", config=checked, embedder=emb) as mem:
        _fill(mem, 300, 1)
        dense = mem.retriever.dense_index()
        assert dense is not None
        dense.sync("default")
        side = dense.sidecar("default")
        assert side is not None
        h = _header(mem)
        data = side.dir / f"d-{h['build']}"
    if damage == "header":
        (side.dir / "header.json").write_text("{not json")
    elif damage == "truncated":
        with open(data / "vectors.f32", "r+b") as fh:
            fh.truncate(100 * 64 * 4)
    elif damage == "model":
        (side.dir / "header.json").write_text(json.dumps({**h, "model": "another-model"}))
    elif damage == "bytes":
        with open(data / "vectors.f32", "r+b") as fh:
            fh.seek(123 * 64 * 4 + 8)
            fh.write(np.float32(0.5).tobytes())
    elif damage == "other_database":  # the same user's sidecar, but of a store with other vectors
        with Memory(tmp_path / "o.db", config=checked, embedder=emb) as other:
            _fill(other, 320, 7)
            other_dense = other.retriever.dense_index()
            assert other_dense is not None
            other_dense.sync("default")
        import shutil

        shutil.rmtree(tmp_path / "m.db.vectors")
        shutil.copytree(tmp_path / "o.db.vectors", tmp_path / "m.db.vectors")
    elif damage == "removed":
        import shutil

        shutil.rmtree(tmp_path / "m.db.vectors")
    with Memory(tmp_path / "m.db", config=checked, embedder=emb) as mem:
        dense = mem.retriever.dense_index()
        assert dense is not None
        m = dense.sync("default")
        assert m.sidecar and len(m) == 300
        if damage != "removed":
            assert _header(mem)["build"] != h["build"]
        queries = _queries(emb)
        assert _hits(dense, queries) == _hits(_in_memory(mem), queries)
        assert len(list(side.dir.glob("d-*"))) == 1  # the old build is gone


def test_forgetting_takes_the_vectors_bytes_out_of_the_sidecar(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=64)
    with Memory(tmp_path / "m.db", config=SIDECAR, embedder=emb) as mem:
        _fill(mem, 300, 1)
        mem.add_turn("user", "the secret handshake of the aardvark club", session_id="secret")
        _fill(mem, 20, 3, session="late")
        _fill(mem, 200, 4, user_id="bob")
        dense = mem.retriever.dense_index()
        assert dense is not None
        assert dense.sync("default").sidecar and dense.sync("bob").sidecar
        mem.recall("aardvark", k=3)  # the turn heads' snapshot is written too
        root = mem.store.sidecar_dir()
        assert root is not None and (root / "heads.npz").exists()
        secret = emb.embed(["the secret handshake of the aardvark club"])[0].astype(np.float32)
        vec, q8 = secret.tobytes(), quantize_rows(secret[None])[0][0].tobytes()
        assert vec in _sidecar_bytes(mem) and q8 in _sidecar_bytes(mem) and b"secret" in _sidecar_bytes(mem)
        before = len(dense.sync("default"))
        mem.forget(session_id="secret")
        assert vec not in _sidecar_bytes(mem)  # zeroed in place by forget's scrub, before any recall
        assert q8 not in _sidecar_bytes(mem)   # and its int8 copy
        assert b"secret" not in _sidecar_bytes(mem)  # nor its session's name (vectors' or the heads' snapshot)
        m = dense.sync("default")
        assert len(m) == before and m.alive is not None and int((~m.alive).sum()) == 1
        assert all(h.item_id for h in dense.search("default", emb.embed_query("secret handshake aardvark"), 5))
        assert _hits(dense, _queries(emb)) == _hits(_in_memory(mem), _queries(emb))
        bob = dense.sidecar("bob")
        assert bob is not None and bob.dir.is_dir()
        mem.forget(user_id="bob")
        assert not bob.dir.exists()  # a user forgotten: their sidecar is gone
        mem.forget(all=True)
        assert not list(root.glob("u-*"))


def test_other_deletions_are_zeroed_at_the_next_sync_and_many_rewrite_the_build(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=64)
    with Memory(tmp_path / "m.db", config=SIDECAR, embedder=emb) as mem:
        _fill(mem, 300, 1)
        dense = mem.retriever.dense_index()
        assert dense is not None
        dense.sync("default")
        build = _header(mem)["build"]
        doomed = mem.store.db.execute("SELECT id, vec FROM vectors ORDER BY id LIMIT 5").fetchall()
        with mem.store.transaction() as db:  # as a superseded fact's vector goes
            db.execute(f"DELETE FROM vectors WHERE id IN ({','.join(str(i) for i, _ in doomed)})")
        m = dense.sync("default")
        assert _header(mem)["dead"] == 5 and _header(mem)["build"] == build
        blob = _sidecar_bytes(mem)
        assert not any(v in blob for _, v in doomed)
        assert _hits(dense, _queries(emb)) == _hits(_in_memory(mem), _queries(emb))
        with mem.store.transaction() as db:  # past vector_sidecar_compact: written again without them
            db.execute("DELETE FROM vectors WHERE id IN (SELECT id FROM vectors ORDER BY id LIMIT 80)")
        m = dense.sync("default")
        h = _header(mem)
        assert h["build"] != build and h["dead"] == 0 and len(m) == 215 and h["rows"] == 215


def test_turn_heads_come_from_their_snapshot_and_match_the_database(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=64)
    with Memory(tmp_path / "m.db", config=SIDECAR, embedder=emb) as mem:
        _fill(mem, 300, 1)
        ids = np.arange(1, 301)
        want = mem.store.turn_heads("default", ids)
        root = mem.store.sidecar_dir()
        assert root is not None and (root / "heads.npz").exists()
    with Memory(tmp_path / "m.db", config=SIDECAR, embedder=emb) as mem:
        mem.add_turn("user", "one more", session_id="more")
        got = mem.store.turn_heads("default", np.arange(1, 302))
        assert mem.store._heads_saved == 300  # read from the snapshot, then the one newer turn from the database
        assert got.ids.tolist() == list(range(1, 302))
        assert got.session_ids()[:300] == want.session_ids() and got.session_ids()[300] == "more"
        assert np.array_equal(got.seqs[:300], want.seqs) and np.array_equal(got.ts[:300], want.ts)
    # a snapshot whose turns the database does not hold is not used
    snap = tmp_path / "m.db.vectors" / "heads.npz"
    with Memory(tmp_path / "x.db", config=SIDECAR, embedder=emb) as other:
        _fill(other, 300, 5, session="x")
        (tmp_path / "x.db.vectors").mkdir(exist_ok=True)
        (tmp_path / "x.db.vectors" / "heads.npz").write_bytes(snap.read_bytes())
        other.store._heads = None
    with Memory(tmp_path / "x.db", config=SIDECAR, embedder=emb) as other:
        got = other.store.turn_heads("default", np.arange(1, 301))
        assert set(got.session_ids()) <= {f"x{i}" for i in range(7)}


def test_the_indexers_first_pass_trusts_the_counts_only_when_every_turn_has_its_vector(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=64)
    with Memory(tmp_path / "m.db", config=SIDECAR, embedder=emb) as mem:
        _fill(mem, 50, 1)
        model = emb.model_id
        assert mem.store.turns_embedded_upto(model) == 50
        with mem.store.transaction() as db:  # a turn in the middle loses its vector: the counts differ
            db.execute("DELETE FROM vectors WHERE kind = 'turn' AND item_id = 20")
        assert mem.store.turns_embedded_upto(model) == 0
        mem.indexer.forget_watermarks()
        assert mem.index() == 1  # found by the scan the shortcut stands aside for
        assert mem.store.turns_embedded_upto(model) == 50
        mem.add_turn("user", "not embedded yet", session_id="late")
        assert mem.store.turns_embedded_upto(model) == 50  # every turn up to it has one; the scan goes on from there
        mem.indexer.forget_watermarks()
        assert mem.index() == 1


def test_the_hand_written_coarse_model_is_the_onnx_helpers_model() -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    from episodic_memory.retrieve.coarse import _int4_session_packed, _matmul_nbits_model, pack_codes

    rng = np.random.default_rng(3)
    codes = rng.integers(-8, 8, (300, 24)).astype(np.int8)
    steps = rng.random(300).astype(np.float32)
    packed = pack_codes(codes)
    n, half = packed.shape
    node = helper.make_node("MatMulNBits", ["weights", "codes", "steps"], ["scores"], domain="com.microsoft",
                            K=24, N=n, bits=4, block_size=2 * half, accuracy_level=4)
    graph = helper.make_graph(
        [node], "coarse", [helper.make_tensor_value_info("weights", TensorProto.FLOAT, [1, 24])],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, n])],
        [numpy_helper.from_array(packed.reshape(n, 1, half), "codes"), numpy_helper.from_array(steps, "steps")])
    want = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)])
    got = onnx.load_from_string(_matmul_nbits_model(packed, steps, 24))
    onnx.checker.check_model(got)
    assert got.graph == want.graph and list(got.opset_import) == list(want.opset_import)
    weights = rng.standard_normal((1, 24)).astype(np.float32)
    scores = _int4_session_packed(packed, steps, 24, 1).run(None, {"weights": weights})[0][0]
    want_scores = (codes * steps[:, None]) @ weights[0]  # the query is taken in int8: close, not equal
    assert np.abs(scores - want_scores).max() < 0.02 * np.abs(want_scores).max()


def test_a_sidecar_folder_it_cannot_write_falls_back_to_the_database(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=64)
    (tmp_path / "a-file").write_text("not a folder")
    blocked = SIDECAR.replace({"retrieval.vector_sidecar_dir": str(tmp_path / "a-file" / "vectors")})
    with Memory(tmp_path / "m.db", config=blocked, embedder=emb) as mem:
        _fill(mem, 300, 1)
        dense = mem.retriever.dense_index()
        assert dense is not None
        m = dense.sync("default")
        assert not m.sidecar and len(m) == 300
        assert mem.recall("w1 w2", k=3)
        assert _hits(dense, _queries(emb)) == _hits(_in_memory(mem), _queries(emb))


class _Rows:
    """All a store supplies the dense index (issue 44): its vectors' rows, read from the database, and where the
    index may keep its cache. Nothing here reads or writes the cache's files."""

    def __init__(self, mem: Memory, root: Path | None) -> None:
        self.config, self.root = mem.store.config, root
        self.vector_watermark, self.count_vectors = mem.store.vector_watermark, mem.store.count_vectors
        self.load_vectors, self.vector_ids = mem.store.load_vectors, mem.store.vector_ids

    def sidecar_dir(self) -> Path | None:
        return self.root


def test_the_index_owns_its_cache_the_store_only_supplies_rows(tmp_path: Path) -> None:
    from episodic_memory.retrieve.dense import DenseIndex

    emb = HashingEmbedder(dim=64)
    with Memory(tmp_path / "m.db", config=SIDECAR.replace({"retrieval.vector_sidecar": False}), embedder=emb) as mem:
        _fill(mem, 300, 1)
        _fill(mem, 20, 2, session="gone")
        queries = _queries(emb)
        plain = _hits(DenseIndex(_Rows(mem, None), emb.model_id, emb.dim, SIDECAR), queries)  # type: ignore[arg-type]
        cache = tmp_path / "cache"

        def index() -> DenseIndex:  # a process of its own
            return DenseIndex(_Rows(mem, cache), emb.model_id, emb.dim, SIDECAR)  # type: ignore[arg-type]

        dense = index()
        m = dense.sync("default")
        assert m.sidecar and len(m) == 320 and _hits(dense, queries) == plain
        build = m.build
        mem.store.scrub()  # the store's scrub leaves the index's files alone
        assert dense.sidecar("default").read_header()["build"] == build  # type: ignore[union-attr]
        assert index().sync("default").build == build  # opened, checked, not rebuilt
        shutil.rmtree(cache)  # gone: built again from the database
        again = index()
        assert again.sync("default").build != build and _hits(again, queries) == plain
        header = again.sidecar("default").dir / "header.json"  # type: ignore[union-attr]
        header.write_text("{not json")  # unreadable: built again from the database
        again = index()
        assert len(again.sync("default")) == 320 and _hits(again, queries) == plain
        gone = {i for (i,) in mem.store.db.execute("SELECT id FROM turns WHERE session_id LIKE 'gone%'")}
        with mem.store.transaction() as db:  # a deletion in the database: the cache follows it
            db.execute(f"DELETE FROM vectors WHERE kind = 'turn' AND item_id IN ({','.join(map(str, gone))})")
        for q in queries:  # (the coarse codes stay those of the build: the shortlists may differ from a refit's)
            found = again.search("default", q, 10)
            assert len(found) == 10 and not {h.item_id for h in found} & gone
        assert again.sync("default").alive is not None  # zeroed in place, not rebuilt
