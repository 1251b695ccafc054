"""Recall on Chinese, Japanese and Korean personal-assistant dialogues (issue 17, CJK): `python bench/cjk.py [--quick]
[--systems episodic bm25s dense bm25s-bigrams] [--pad-english N]`.

The set (bench/data/cjk/, LoCoMo's format) was written for this project: a user and an assistant over 6–10 dated
sessions each (schedules, family, health, shopping, travel, work, phone numbers, addresses, changes of plan), with
questions in the conversation's language that paraphrase their evidence. By default the table shows the library,
its keyword and dense legs alone (the fused figure is never to fall below either), bm25s over words as LoCoMo's
baseline does (a run of Chinese is one "word"), the configured embedder alone (the bundled MiniLM unless
EPISODIC_MODELS__EMBEDDER says otherwise), and bm25s over character bigrams (`bench/baselines.py: BigramBM25sBaseline`).
`--data ../shared/data/cjk-memdaily-dev` runs the real Chinese dialogues of MemDaily (issue 43) in the same format.

`--pad-english N` puts N English turns (LoCoMo dev's, as earlier sessions) into every conversation's store first: a
mixed store, where the index's column of character pairs is empty for most rows (what that does to BM25's length
normalisation is the question it answers).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

# Run as a script: import `bench.*` from the repo root (so bench/datasets.py never shadows PyPI's `datasets`).
if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import CJK_DEFAULT, LOCOMO_DEFAULT, Conversation, Session, load_cjk, load_locomo  # noqa: E402
from bench.harness import ROOT, main  # noqa: E402

DEFAULT_SYSTEMS = ["episodic", "episodic-keyword", "episodic-dense", "bm25s", "dense", "bm25s-bigrams"]


def padded(conversations: list[Conversation], english_turns: int) -> list[Conversation]:
    """Each conversation with up to `english_turns` LoCoMo turns before it, in sessions of their own (no
    questions), dated a year earlier."""
    pad: list[Session] = []
    count = 0
    for conv in load_locomo(LOCOMO_DEFAULT, verbose=False):
        for session in conv.sessions:
            if count >= english_turns:
                break
            turns = session.turns[: english_turns - count]
            count += len(turns)
            pad.append(replace(session, session_id=f"pad-{session.session_id}", turns=[
                replace(t, turn_id=f"pad-{t.turn_id}-{conv.conv_id}") for t in turns]))
    out = []
    for conv in conversations:
        start = conv.sessions[0].started_at - timedelta(days=365)
        shift = start - pad[0].started_at if pad else timedelta(0)
        moved = [replace(s, started_at=s.started_at + shift,
                         turns=[replace(t, timestamp=t.timestamp + shift) for t in s.turns]) for s in pad]
        out.append(replace(conv, sessions=[*moved, *conv.sessions]))
    return out


if __name__ == "__main__":
    argv = sys.argv[1:]
    pad = 0
    if "--pad-english" in argv:
        at = argv.index("--pad-english")
        pad = int(argv[at + 1])
        del argv[at : at + 2]
    if "--systems" not in argv:
        argv += ["--systems", *DEFAULT_SYSTEMS]
    name = "cjk" if not pad else f"cjk-pad{pad}"
    sys.exit(main(name, (lambda p: padded(load_cjk(p), pad)) if pad else load_cjk, CJK_DEFAULT,
                  ROOT / "bench" / "results" / f"{name}.json", argv))
