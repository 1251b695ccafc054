"""Recall on Chinese and Japanese personal-assistant dialogues (issue 17, CJK): `python bench/cjk.py [--quick]
[--systems episodic bm25s dense bm25s-bigrams]`.

The set (bench/data/cjk/, LoCoMo's format) was written for this project: a user and an assistant over 9–10 dated
sessions each (schedules, family, health, shopping, travel, work, phone numbers, addresses, changes of plan), with
questions in the conversation's language that paraphrase their evidence. By default the table shows the library,
bm25s over words as LoCoMo's baseline does (a run of Chinese is one "word"), the bundled MiniLM alone, and bm25s
over character bigrams (`bench/baselines.py: BigramBM25sBaseline`).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script: import `bench.*` from the repo root (so bench/datasets.py never shadows PyPI's `datasets`).
if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import CJK_DEFAULT, load_cjk  # noqa: E402
from bench.harness import ROOT, main  # noqa: E402

DEFAULT_SYSTEMS = ["episodic", "bm25s", "dense", "bm25s-bigrams"]

if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--systems" not in argv:
        argv += ["--systems", *DEFAULT_SYSTEMS]
    sys.exit(main("cjk", load_cjk, CJK_DEFAULT, ROOT / "bench" / "results" / "cjk.json", argv))
