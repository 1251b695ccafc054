"""`episodic brief` and `episodic stats` start fast (issue 19): opening a store imports no numpy, no model runtime,
no consolidation step and no asyncio. Checked in a fresh process, on a store with turns, facts and an episode."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from episodic_memory import Memory

pytestmark = pytest.mark.sqlite_only("runs child processes that --store-backend=postgres does not redirect")

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "onnxruntime", "tokenizers", "asyncio", "httpx", "episodic_memory.consolidate.facts",
         "episodic_memory.retrieve.retriever", "episodic_memory.judgments.memory")

CHILD = """
import json, sys
from click.testing import CliRunner
from episodic_memory.cli import main
out = {}
for args in (["brief", "--hours", "100000"], ["stats", "--json"]):
    result = CliRunner().invoke(main, [*args, "--db", sys.argv[1]], catch_exceptions=False)
    out[args[0]] = [result.exit_code, result.output]
out["loaded"] = sorted(m for m in sys.modules if m in json.loads(sys.argv[2]))
print(json.dumps(out))
"""


def test_brief_and_stats_load_nothing_heavy(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with Memory(db) as mem:
        mem.add_turn("user", "We decided to ship the beta on Friday.", session_id="s1", source="cli", tags=["beta"])
        mem.end_session("s1")
        assert mem.facts()
        mem.index()  # vectors of the bundled model, as a user's store has them
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", CHILD, str(db), json.dumps(HEAVY)], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["brief"][0] == 0 and "ship the beta" in out["brief"][1]
    assert out["stats"][0] == 0
    stats = json.loads(out["stats"][1])
    assert stats["embedder"] == "minilm-l6-v2-int8-fused" and stats["vectors"] >= 2  # named without loading it
    assert out["loaded"] == []
