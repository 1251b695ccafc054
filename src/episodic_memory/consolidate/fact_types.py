"""The fact types, in one place: what each means and how much it matters by default.

Nine are extracted from conversations; `lesson` and `goal` are only stored by hand (`Memory.add_fact`, the Memory
Anchor layer's `remember`): the extractor is never offered them, so consolidation is what it was without them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FactType:
    name: str
    meaning: str
    prior: float        # salience before recurrence; at or above Config.consolidation.durable_floor a fact is durable
    supersedes: bool    # can replace an earlier fact it contradicts, even without a referee
    extracted: bool = True  # offered to the extractors (rules, LLM); False: stored by hand only


FACT_TYPES: dict[str, FactType] = {t.name: t for t in (
    FactType("identity", "who someone is: name, role, employer, home, background", 0.80, False),
    FactType("preference", "what someone likes, dislikes or wants done a certain way", 0.75, False),
    FactType("decision", "a choice that was made and settles a question", 0.85, True),
    FactType("correction", "an earlier statement fixed: 'actually … not …'", 0.90, True),
    FactType("commitment", "something someone promised or must do, often with a deadline", 0.70, False),
    FactType("plan", "something intended or scheduled for the future", 0.60, False),
    FactType("event", "something that happened at a point in time", 0.45, False),
    FactType("relationship", "how two people or things are connected: 'Sarah is our CFO'", 0.70, False),
    FactType("knowledge", "a standing fact about the world or the work: quantities, states, requirements", 0.55,
             False),
    FactType("lesson", "something learned from experience that should change how to act next time", 0.80, False,
             extracted=False),
    FactType("goal", "an outcome someone is working towards", 0.70, False, extracted=False),
)}
EXTRACTED_TYPES = frozenset(name for name, t in FACT_TYPES.items() if t.extracted)


def describe_types() -> str:
    """One line per extracted type, for prompts and `--help`."""
    return "\n".join(f"- {t.name}: {t.meaning}" for t in FACT_TYPES.values() if t.extracted)
