"""`EpisodicInjector`: memory an agent prepends to the user's message (never to the system prompt).

One injector per agent session. Each `get_context(user_message)` is one turn:

    [Ongoing work]       the top confirmed workstreams and their open loops — once, on the session's first turn
    [Recalled context]   at most `Config.inject_max_memories` memories from `Memory.recall`, each with its kind
                         and age. A memory injected in this session is not repeated until
                         `Config.inject_repeat_after_turns` turns have passed, so a topic that comes back can
                         bring it back.
    [Past judgments]     judgments relevant to the message whose proven utility clears
                         `Config.judgment_inject_utility`, with their reasoning and any correction

The whole block is capped at `Config.inject_token_budget` tokens (estimated at 4 characters a token); what does not
fit is left out (and counts as not injected).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from .brief import ago
from .judgments.inject import format_judgment, relevant_judgments
from .memory import Memory
from .retrieve.hit import Hit

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass
class Line:
    text: str
    on_include: Callable[[], None] | None = None      # run when the line makes it into the block
    children: list[Line] = field(default_factory=list)  # shown only under their parent


@dataclass
class Section:
    header: str
    lines: list[Line]


class EpisodicInjector:
    """Per-turn context for an agent session, from a `Memory` (the default store unless given)."""

    def __init__(self, memory: Memory | None = None, user_id: str | None = None, *,
                 session_id: str | None = None) -> None:
        """`session_id`, when given, is the agent's own session: its turns are already in the agent's context
        and are not recalled back into it."""
        if memory is None:
            from .default import default_memory

            memory = default_memory()
        self.memory = memory
        self.user_id = user_id or memory.user_id
        self.session_id = session_id
        self.config = memory.config
        self.turn = 0
        self._injected: dict[str, int] = {}   # memory id -> the turn it was last injected

    def get_context(self, user_message: str) -> str:
        """"" or a block to prepend to the user's message (it ends with a blank line)."""
        if not isinstance(user_message, str):
            raise TypeError(f"user_message must be a string, got {type(user_message).__name__}")
        self.turn += 1
        block = self._assemble(self._sections(user_message))
        return block + "\n\n" if block else ""

    def reset(self) -> None:
        """Start a new agent session with the same injector."""
        self.turn = 0
        self._injected.clear()

    # --- sections ----------------------------------------------------------------------------------------
    def _sections(self, user_message: str) -> list[Section]:
        sections = []
        if self.turn == 1:
            sections.append(Section("[Ongoing work]", self._ongoing_work()))
        sections.append(Section("[Recalled context]", self._recalled(user_message)))
        sections.append(Section("[Past judgments]", self._past_judgments(user_message)))
        return sections

    def _past_judgments(self, user_message: str) -> list[Line]:
        """Judgments relevant to the message that have proven themselves (utility above
        `Config.judgment_inject_utility`), with their reasoning; not repeated within the repeat window."""
        lines = []
        for r in relevant_judgments(self.memory.judgments, user_message):
            key = f"judgment:{r.id}"
            last = self._injected.get(key)
            if last is None or self.turn - last >= self.config.inject_repeat_after_turns:
                lines.append(Line(format_judgment(r), on_include=self._marker(key)))
        return lines

    def _ongoing_work(self) -> list[Line]:
        cfg = self.config
        if cfg.inject_workstreams == 0:
            return []
        lines = []
        for ws in self.memory.workstreams(self.user_id, limit=cfg.inject_workstreams):
            loops = self.memory.loops(self.user_id, "open", workstream_id=ws.id,
                                      limit=cfg.inject_loops_per_workstream) if cfg.inject_loops_per_workstream else []
            lines.append(Line(f"▸ {ws.name}  ({ws.sessions} sessions, last active {ago(ws.last_activity)})",
                              children=[Line(f"  · {_one_line(lp.text, cfg.inject_memory_chars)}") for lp in loops]))
        return lines

    def _recalled(self, user_message: str) -> list[Line]:
        cfg = self.config
        if not user_message.strip() or cfg.inject_max_memories == 0:
            return []
        held_back = sum(self.turn - t < cfg.inject_repeat_after_turns for t in self._injected.values())
        hits = self.memory.recall(user_message, k=cfg.inject_max_memories * 4 + min(held_back, 50),
                                  user_id=self.user_id)
        chosen: list[Hit] = []
        covered: set[str] = set()
        stale = _superseded_sources(hits)
        # a standing instruction that governs this request ("Always … when I ask about …") is chosen first: recall
        # gives it a place at the end of its top k, past the few memories injected (retrieve/standing.py); the
        # lines keep recall's order
        place = {id(h): i for i, h in enumerate(hits)}
        hits = [h for h in hits if h.details.get("standing")] + [h for h in hits if not h.details.get("standing")]
        for hit in hits:
            if hit.score < cfg.inject_min_score:
                continue
            if self.session_id is not None and hit.kind == "turn" and hit.session_id == self.session_id:
                continue
            last = self._injected.get(hit.id)
            if last is not None and self.turn - last < cfg.inject_repeat_after_turns:
                continue
            if hit.kind == "judgment":
                continue   # judgments have their own section, gated by proven utility
            if hit.kind == "turn" and hit.source_ids and set(hit.source_ids) <= covered:
                continue   # already said by a fact or episode distilled from it
            if hit.kind == "turn" and hit.source_ids and set(hit.source_ids) <= stale:
                continue   # it said what a recalled fact corrected: never the old value beside the new one
            chosen.append(hit)
            covered.update(hit.source_ids)
            if len(chosen) == cfg.inject_max_memories:
                break
        chosen.sort(key=lambda h: place[id(h)])
        return [Line(self._hit_line(hit), on_include=self._marker(hit.id)) for hit in chosen]

    def _hit_line(self, hit: Hit) -> str:
        when = ago(hit.timestamp.timestamp()) if hit.timestamp else "undated"
        who = hit.said_by()  # a turn's speaker; a fact's when it says "I" (whose "I"?)
        return f"- [{hit.kind}, {when}] {_one_line(who + hit.text, self.config.inject_memory_chars)}"

    def _marker(self, memory_id: str) -> Callable[[], None]:
        def mark() -> None:
            self._injected[memory_id] = self.turn
        return mark

    # --- the budget --------------------------------------------------------------------------------------
    def _assemble(self, sections: list[Section]) -> str:
        """Sections in order, line by line, while the block stays within the token budget."""
        budget = self.config.inject_token_budget
        parts: list[str] = []

        def fits(extra: list[str]) -> bool:
            return estimate_tokens("\n".join(parts + extra)) <= budget

        for section in sections:
            header = ([""] if parts else []) + [section.header]
            taken: list[str] = []
            for line in section.lines:
                if not fits(header + taken + [line.text]):
                    continue
                taken.append(line.text)
                if line.on_include:
                    line.on_include()
                for child in line.children:
                    if fits(header + taken + [child.text]):
                        taken.append(child.text)
            if taken:
                parts += header + taken
        return "\n".join(parts)


def _superseded_sources(hits: list[Hit]) -> set[str]:
    """The turns behind values that recalled facts replaced (and behind no current fact among the hits)."""
    old = {s for h in hits if h.kind == "fact" and h.details.get("previous")
           for s in h.details["previous"].get("source_ids", ())}
    return old - {s for h in hits if h.kind == "fact" for s in h.source_ids}


def _one_line(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
