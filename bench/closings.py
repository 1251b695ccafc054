"""How consolidation pairs a completion with its to-do, on words no bank or rule was written from.

    python bench/closings.py [--data bench/data/closings/closings.jsonl] [--models FILE] [--out JSON]

`bench/data/closings/closings.jsonl` was written by a helper who had read neither the code nor any phrase bank:
70 groups (35 from life, 35 from work), each 4-6 to-dos of one situation (easy to confuse by topic), each taken on
in two ways and reported done in three, at least two of them by the resulting state ("The Thames Room is ours for
the 9th.") rather than a "done" word.

For every report, the group's to-dos are the open loops (each as `loops.loop_text` reads its first, then its second
wording), and it is read as `loops.learned_closures` reads a sentence:

    gate        the completion head clears its line (else, without an answer saying "done", nothing closes)
    cosine@1    the to-do it reports is the nearest of the group's by the embedder's cosine
    head@1      ... and the likeliest by the shipped `closes` pair head
    closes      the head's likeliest is the right to-do, at or over the head's line (what would close it)
    wrong       the head's likeliest is another to-do, at or over the line (a false closure)

Prints a table (life, work, all) and writes JSON (bench/results/closings.json).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from episodic_memory.consolidate import learned  # noqa: E402
from episodic_memory.consolidate.loops import CLOSES_FEATURES, closes_rows, loop_text  # noqa: E402
from episodic_memory.models.embedder import load_embedder  # noqa: E402

DATA = ROOT / "bench" / "data" / "closings" / "closings.jsonl"
COLUMNS = ("gate", "cosine@1", "head@1", "closes", "wrong")
#: the `thread_cosine` feature of a true pair: the median over the positive closes rows consolidation records on the
#: training banks dev, wordy and brisk, seeds 1-2 (0.448; quartiles 0.387 / 1.0). The same for all of a group's
#: to-dos (one situation, one thread), so it moves only the `closes` and `wrong` columns, not the rankings.
THREAD_COSINE = 0.45


def load_groups(path: Path) -> list[dict[str, Any]]:
    """The groups, checked: a bad line is named by file and line number."""
    groups = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            group = json.loads(line)
            todos = group["todos"]
            if group.get("area") not in ("life", "work") or len(todos) < 2 or any(
                    len(t["take_on"]) < 1 or len(t["done"]) < 1 for t in todos):
                raise ValueError("needs area life|work and 2+ to-dos, each with take_on and done lists")
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}:{n}: {exc}") from exc
        groups.append(group)
    return groups


def read_group(group: dict[str, Any], judge: learned.SentenceJudge, head: learned.Head, wording: int,
               thread_cosine: float | None = THREAD_COSINE) -> list[dict[str, bool]]:
    """One outcome per report of the group, its to-dos taken on in their `wording`-th form."""
    todos = group["todos"]
    loops = [loop_text(t["take_on"][min(wording, len(t["take_on"]) - 1)]) for t in todos]
    loop_vectors = np.asarray(judge.embedder.embed(loops), np.float32)
    reports = [(k, d) for k, t in enumerate(todos) for d in t["done"]]
    said = [d for _, d in reports]
    vectors = np.asarray(judge.embedder.embed(said), np.float32)
    scores = judge.scores(said, vectors)
    done_head = judge.head("completion")
    gate = done_head.threshold if done_head is not None else 0.0
    out = []
    for i, (true, sentence) in enumerate(reports):
        cos = loop_vectors @ vectors[i]
        rows = closes_rows(sentence, sentence, loops, cos, completion=float(scores["completion"][i]),
                           commitment=float(scores["commitment"][i]), same_session=[False] * len(loops),
                           age_days=[3.0] * len(loops), thread_cosines=[thread_cosine] * len(loops))
        p = head.probability(np.stack(rows))
        best = int(np.argmax(p))
        passes = bool(scores["completion"][i] >= gate)
        out.append({"gate": passes, "cosine@1": int(np.argmax(cos)) == true, "head@1": best == true,
                    "closes": passes and best == true and p[best] >= head.threshold,
                    "wrong": passes and best != true and p[best] >= head.threshold})
    return out


def measure(groups: Sequence[dict[str, Any]], judge: learned.SentenceJudge, thread_cosine: float | None = THREAD_COSINE
            ) -> dict[str, dict[str, Any]]:
    head = learned.pair_head(judge.models, "closes", len(CLOSES_FEATURES))
    if head is None:
        raise SystemExit("the models have no closes head")
    by_area: dict[str, list[dict[str, bool]]] = {"life": [], "work": []}
    for group in groups:
        for wording in (0, 1):
            by_area[group["area"]] += read_group(group, judge, head, wording, thread_cosine)
    by_area["all"] = by_area["life"] + by_area["work"]
    return {area: {"reports": len(rows), **{c: round(sum(r[c] for r in rows) / max(1, len(rows)), 3)
                                            for c in COLUMNS}}
            for area, rows in by_area.items()}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, default=DATA)
    p.add_argument("--models", type=Path, default=None, help="a models file (default: the shipped one)")
    p.add_argument("--thread-cosine", type=float, default=THREAD_COSINE,
                   help="the two sessions' thread cosine (a negative value: none, as for a store without threads)")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "closings.json")
    args = p.parse_args(argv)
    groups = load_groups(args.data)
    judge = learned.judge_for(load_embedder(None), None if args.models is None else str(args.models))
    if judge is None:
        raise SystemExit("no learned models for the default embedder")
    result = measure(groups, judge, None if args.thread_cosine < 0 else args.thread_cosine)
    print(f"{'':6s} {'reports':>8s} " + " ".join(f"{c:>9s}" for c in COLUMNS))
    for area, row in result.items():
        print(f"{area:6s} {row['reports']:8d} " + " ".join(f"{row[c]:9.3f}" for c in COLUMNS))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"data": str(args.data), "models": str(args.models or "shipped"),
                                    "groups": len(groups), "thread_cosine": args.thread_cosine,
                                    "results": result}, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
