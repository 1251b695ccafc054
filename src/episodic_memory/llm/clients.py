"""The built-in backends and the choice between them (Anthropic and OpenAI-compatible clients: see issue 4)."""

from __future__ import annotations

import os
from typing import Any

from ..config import Config


def backend_from_config(config: Config) -> Any:
    from . import NoneBackend

    name = (config.llm or os.environ.get("EPISODIC_LLM") or "none").strip().lower()
    if name in ("", "none", "off"):
        return NoneBackend()
    raise ValueError(f"unknown LLM backend {name!r}: use anthropic, openai or none")
