"""Supersession chains mended when a forget deletes many facts at once, possibly several of one chain: each
remaining fact is linked past the deleted ones to the next remaining fact, or becomes current when none
remains above it (as `Store.delete_fact` does for one fact)."""

from __future__ import annotations

from typing import NamedTuple

Links = tuple[int | None, int | None]   # (supersedes, superseded_by)


class Mend(NamedTuple):
    fact_id: int
    supersedes: int | None          # the new value of `supersedes` (kept as it was when unchanged)
    superseded_by: int | None       # the new value of `superseded_by`
    current_again: bool             # nothing newer remains: valid_to goes too


def mend(gone: dict[int, Links], neighbours: dict[int, Links]) -> list[Mend]:
    """The changes to the remaining facts `neighbours` (id → links; facts linked to a deleted one) once the facts
    `gone` (id → links) are deleted."""
    def walk(start: int | None, side: int) -> int | None:
        seen: set[int] = set()
        while start is not None and start in gone and start not in seen:
            seen.add(start)
            start = gone[start][side]
        return None if start in gone else start

    out: list[Mend] = []
    for fact_id, (older, newer) in neighbours.items():
        if fact_id in gone or (older not in gone and newer not in gone):
            continue
        new_older = walk(older, 0) if older in gone else older
        new_newer = walk(newer, 1) if newer in gone else newer
        out.append(Mend(fact_id, new_older, new_newer, newer is not None and new_newer is None))
    return out
