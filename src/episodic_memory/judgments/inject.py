"""The `[Past judgments]` block an injector adds when a relevant judgment has proven itself."""

from __future__ import annotations

from typing import Any

from .memory import JudgmentMemory, SearchResult


def relevant_judgments(source: Any, message: str) -> list[SearchResult]:
    """Up to `Config.judgments.inject_max` judgments for `message`, ranked with utility, that are relevant
    (dense cosine at least `judgment_inject_min_cosine`; a BM25 match when there is no embedder) and whose
    utility is above `judgment_inject_utility`. `source`: a `Memory` or its `JudgmentMemory`."""
    judgments = source if isinstance(source, JudgmentMemory) else source.judgments
    cfg = judgments.config
    if not message or not message.strip():
        return []
    dense = judgments.clients.embedder() is not None
    found = judgments.search(message, top_k=max(cfg.judgments.inject_max * 4, 10), use_utility=True)
    keep = [r for r in found if r.rank_utility > cfg.judgments.inject_utility
            and (r.cosine is not None and r.cosine >= cfg.judgments.inject_min_cosine if dense else True)]
    return keep[: cfg.judgments.inject_max]


def format_judgment(r: SearchResult) -> str:
    lines = [f"- {r.judgment} (when: {r.trigger}; utility {r.rank_utility:.2f}, "
             f"adopted {r.adopted} of {r.adopted + r.rejected})",
             f"  why: {r.reasoning}"]
    if r.correction:
        lines.append(f"  corrected: {r.correction}")
    return "\n".join(lines)


def past_judgments_block(source: Any, message: str) -> str:
    """"" or a ``[Past judgments]`` block: the top judgments relevant to `message` whose utility clears
    `Config.judgments.inject_utility`, each with its reasoning and, where the user corrected it,
    "corrected: …"."""
    chosen = relevant_judgments(source, message)
    if not chosen:
        return ""
    return "[Past judgments]\n" + "\n".join(format_judgment(r) for r in chosen)
