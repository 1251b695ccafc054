"""BEAM (100K split) evidence-retrieval benchmark: `python bench/beam.py [--quick] [--systems ...]`."""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script: import `bench.*` from the repo root (so bench/datasets.py never shadows PyPI's `datasets`).
if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import BEAM_DEFAULT, load_beam  # noqa: E402
from bench.harness import ROOT, main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("beam", load_beam, BEAM_DEFAULT, ROOT / "bench" / "results" / "beam.json"))
