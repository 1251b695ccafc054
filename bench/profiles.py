"""Whose facts a person's profile holds, in chats between people: `python bench/profiles.py [--tree NAME=SRC ...]`.

Each LoCoMo dev conversation (two named people) is ingested through the public path, as `bench/locomo.py` does, and
consolidated without an LLM. Reported per tree: how many facts, entities and open loops consolidation kept (LoCoMo
has no labels for them: read what changed), how many facts were superseded and how many of those by a fact another
speaker said, and, over every fact
linked to a speaker's entity (`Memory.profile(speaker)`), the share whose source turns that speaker said — a fact
filed under Caroline that Melanie said is Melanie's news, or a reply to Caroline ("That's great news, Caroline!").
Each tree runs in its own process (`--tree base=/tmp/base/src`); prints a table and writes JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "profiles.json"


def measure(data: Path) -> dict[str, Any]:
    """In this process (the tree on sys.path): the figures over every conversation in `data`."""
    sys.path.insert(0, str(ROOT))
    from bench.datasets import load_locomo
    from bench.harness import EpisodicSystem

    out = {"conversations": 0, "facts": 0, "entities": 0, "open_loops": 0, "superseded": 0, "superseded_by_another": 0,
           "profile_facts": 0, "said_by_them": 0, "not_theirs": []}
    for conv in load_locomo(data, verbose=False):
        system = EpisodicSystem()
        system.index(conv)
        mem = system._mem
        mem.wait_for_consolidation()
        out["conversations"] += 1
        out["facts"] += len(mem.facts())
        out["entities"] += len(mem.entities())
        out["open_loops"] += len(mem.loops())
        superseded, crossed = _supersessions(mem)
        out["superseded"] += superseded
        out["superseded_by_another"] += crossed
        for speaker in sorted({t.speaker for t in conv.turns() if t.speaker}):
            profile = mem.profile(speaker)
            if not profile:
                continue
            facts = profile["facts_list"]
            turns = mem.store.turns_by_id("default", [t for f in facts for t in f["source_turns"]])
            out["profile_facts"] += len(facts)
            for f in facts:
                speakers = {turns[t].speaker for t in f["source_turns"] if t in turns}
                if speakers <= {speaker}:
                    out["said_by_them"] += 1
                else:  # kept for reading: in `speaker`'s profile, said by someone else
                    out["not_theirs"].append(f"{speaker}'s profile: {f['text']!r} (said by {', '.join(sorted(speakers))})")
        system.close()
    out["share_said_by_them"] = round(out["said_by_them"] / max(1, out["profile_facts"]), 3)
    return out


def _supersessions(mem: Any) -> tuple[int, int]:
    """(facts superseded, of them by a fact another speaker said), read from the SQLite store's rows."""
    db = mem.store.db
    sources = {i: json.loads(ids) for i, ids in db.execute("SELECT id, source_ids FROM facts")}
    speaker = dict(db.execute("SELECT id, speaker FROM turns"))
    pairs = db.execute("SELECT id, superseded_by FROM facts WHERE superseded_by IS NOT NULL").fetchall()
    crossed = sum({speaker.get(t) for t in sources[old]} != {speaker.get(t) for t in sources[new]} for old, new in pairs)
    return len(pairs), crossed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "locomo-dev")
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=SRC",
                        help="a source tree to measure (default: this one, as 'this')")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--_measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._measure:
        print(json.dumps(measure(args.data)))
        return 0
    trees = [t.split("=", 1) for t in args.tree] or [["this", str(ROOT / "src")]]
    results = {}
    for name, src in trees:
        env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
        done = subprocess.run([sys.executable, __file__, "--_measure", "--data", str(args.data)], env=env,
                              capture_output=True, text=True, check=True)
        results[name] = json.loads(done.stdout.strip().splitlines()[-1])
    rows = [("facts", "facts"), ("entities", "entities"), ("open loops", "open_loops"),
            ("facts superseded", "superseded"), ("… by another speaker's fact", "superseded_by_another"), ("facts in a speaker's profile", "profile_facts"),
            ("… that the speaker said", "said_by_them"), ("share", "share_said_by_them")]
    print("| LoCoMo dev | " + " | ".join(results) + " |")
    print("|---|" + "---:|" * len(results))
    for label, key in rows:
        print(f"| {label} | " + " | ".join(str(r[key]) for r in results.values()) + " |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"data": str(args.data), "results": results}, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
