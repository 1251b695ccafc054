"""The `[Past judgments]` block an injector adds when a relevant judgment has proven itself."""

from __future__ import annotations

from ..memory import Memory
from .memory import SearchResult


def relevant_judgments(memory: Memory, message: str) -> list[SearchResult]:
    """Up to `Config.judgment_inject_max` judgments for `message`, ranked with utility, that are relevant
    (dense cosine at least `judgment_inject_min_cosine`; a BM25 match when there is no embedder) and whose
    utility is above `judgment_inject_utility`."""
    cfg = memory.config
    if not message or not message.strip():
        return []
    dense = memory.embedder() is not None
    found = memory.judgments.search(message, top_k=max(cfg.judgment_inject_max * 4, 10), use_utility=True)
    keep = [r for r in found if r.utility_score > cfg.judgment_inject_utility
            and (r.cosine is not None and r.cosine >= cfg.judgment_inject_min_cosine if dense else True)]
    return keep[: cfg.judgment_inject_max]


def format_judgment(r: SearchResult) -> str:
    lines = [f"- {r.judgment} (when: {r.trigger}; utility {r.utility_score:.2f}, "
             f"adopted {r.adopted} of {r.adopted + r.rejected})",
             f"  why: {r.reasoning}"]
    if r.correction:
        lines.append(f"  corrected: {r.correction}")
    return "\n".join(lines)


def past_judgments_block(memory: Memory, message: str) -> str:
    """"" or a ``[Past judgments]`` block: the top judgments relevant to `message` whose utility clears
    `Config.judgment_inject_utility`, each with its reasoning and, where the user corrected it,
    "corrected: …"."""
    chosen = relevant_judgments(memory, message)
    if not chosen:
        return ""
    return "[Past judgments]\n" + "\n".join(format_judgment(r) for r in chosen)
