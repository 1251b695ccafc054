"""A child process for the crash and concurrency tests: appends turns, prints each acknowledged turn id.

usage: writer_child.py DB PREFIX COUNT [--batch N] [--sessions N]
"""

from __future__ import annotations

import argparse
import sys

from episodic_memory import Memory


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("prefix")
    parser.add_argument("count", type=int)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--sessions", type=int, default=1)
    args = parser.parse_args()
    with Memory(args.db) as mem:
        i = 0
        while i < args.count:
            batch = [
                {"role": "user", "content": f"canary {args.prefix}x{j} reached the harbour",
                 "session_id": f"{args.prefix}-s{j % args.sessions}", "turn_id": f"{args.prefix}x{j}"}
                for j in range(i, min(i + args.batch, args.count))
            ]
            ids = mem.add_turns(batch)
            for tid in ids:  # acknowledged: add_turns has returned
                sys.stdout.write(tid + "\n")
            sys.stdout.flush()
            i += len(batch)


if __name__ == "__main__":
    main()
