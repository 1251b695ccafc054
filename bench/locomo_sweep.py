"""LoCoMo recall under Config variants, on stores built once: `bench/locomo.py`'s episodic system, the same
ingest, each variant a fresh `Memory` over the same five stores (what recall changes, without re-ingesting).

    python bench/locomo_sweep.py [--store-dir /tmp/locomo-stores] base='{}' off='{"exact_lookup": false}'

Stores are kept in `--store-dir` and reused (delete it after changing ingest or consolidation). Prints R@5/10/25
and MRR per variant; JSON to `--out` (default bench/results/locomo_sweep.json).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: import `bench.*` from the repo root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import LOCOMO_DEFAULT, load_locomo  # noqa: E402
from bench.harness import ROOT, git_commit, git_dirty, import_episodic  # noqa: E402
from bench.metrics import aggregate, score_question  # noqa: E402

KS = (5, 10, 25)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("variants", nargs="+", help="name='{json Config overrides}'")
    p.add_argument("--data", type=Path, default=LOCOMO_DEFAULT)
    p.add_argument("--store-dir", type=Path, default=Path("/tmp/locomo-stores"))
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "locomo_sweep.json")
    args = p.parse_args(argv)
    variants = {v.split("=", 1)[0]: json.loads(v.split("=", 1)[1]) for v in args.variants}
    episodic = import_episodic()
    conversations = load_locomo(args.data.resolve(), verbose=False)
    paths = []
    for conv in conversations:  # the harness's ingest (bench/harness.py EpisodicSystem.index), kept
        path = args.store_dir / conv.conv_id / "mem.db"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            with episodic.Memory(path) as mem:
                for session in conv.sessions:
                    for turn in session.turns:
                        mem.add_turn(turn.role, turn.text, session_id=session.session_id,
                                     speaker=turn.speaker if conv.named_speakers else None,
                                     timestamp=turn.timestamp, turn_id=turn.turn_id)
                    mem.end_session(session.session_id)
            print(f"[sweep] built {path}", file=sys.stderr)
        paths.append(path)
    results: dict[str, Any] = {}
    for name, overrides in variants.items():
        scored = []
        for conv, path in zip(conversations, paths, strict=True):
            with episodic.Memory(path, config=episodic.Config.from_env(overrides)) as mem:
                for q in conv.questions:
                    hits = mem.recall(q.question, k=max(KS))
                    scored.append(score_question(q.qid, q.category, [[str(s) for s in h.source_ids] for h in hits],
                                                 q.evidence, KS, 0.0))
        overall = aggregate(scored, KS)["overall"]
        results[name] = {"overrides": overrides, **overall}
        print(f"{name}: " + " ".join(f"{key} {overall[key]:.3f}" for key in ("R@5", "R@10", "R@25", "MRR")
                                     if key in overall), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": {"git_commit": git_commit(), "git_dirty": git_dirty(),
                                             "n_questions": len(scored)}, "results": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
