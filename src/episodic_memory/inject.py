"""`EpisodicInjector`: memory an agent prepends to the user's message (never to the system prompt), within
`Config.inject.token_budget` tokens (README, "Where were we?")."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .brief import ago
from .consolidate.address import leans_back
from .consolidate.supersede import Slot, read_slot
from .judgments.inject import format_judgment, relevant_judgments
from .memory import Memory
from .retrieve.hit import Hit

CHARS_PER_TOKEN = 4
# a reply opening on an answer to the turn before it ("Yes, the 2pm one"); one opening on a pronoun for what was
# said there ("It was amazing") is `consolidate.address.leans_back`
_ANSWER = re.compile(r"^\W*(?:yes|yeah|yep|yup|no|nope|nah|sure|definitely|absolutely|exactly|totally|of course|"
                     r"same)\b", re.I)


def _leans_back(text: str) -> bool:
    return _ANSWER.match(text) is not None or leans_back(text)


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
        sections = [Section("[Ongoing work]", self._ongoing_work())] if self.turn == 1 else []
        return [*sections, Section("[Recalled context]", self._recalled(user_message)),
                Section("[Past judgments]", self._past_judgments(user_message))]

    def _past_judgments(self, user_message: str) -> list[Line]:
        """Judgments relevant to the message that have proven themselves (utility above
        `Config.judgments.inject_utility`), with their reasoning; not repeated within the repeat window."""
        lines = []
        for r in relevant_judgments(self.memory.judgments, user_message):
            key = f"judgment:{r.id}"
            last = self._injected.get(key)
            if last is None or self.turn - last >= self.config.inject.repeat_after_turns:
                lines.append(Line(format_judgment(r), on_include=self._marker(key)))
        return lines

    def _ongoing_work(self) -> list[Line]:
        cfg = self.config
        if cfg.inject.workstreams == 0:
            return []
        lines = []
        for ws in self.memory.workstreams(self.user_id, limit=cfg.inject.workstreams):
            loops = self.memory.loops(self.user_id, "open", workstream_id=ws.id,
                                      limit=cfg.inject.loops_per_workstream) if cfg.inject.loops_per_workstream else []
            lines.append(Line(f"▸ {ws.name}  ({ws.sessions} sessions, last active {ago(ws.last_activity)})",
                              children=[Line(f"  · {_one_line(lp.text, cfg.inject.memory_chars)}") for lp in loops]))
        return lines

    def _recalled(self, user_message: str) -> list[Line]:
        cfg = self.config
        if not user_message.strip() or cfg.inject.max_memories == 0:
            return []
        held_back = sum(self.turn - t < cfg.inject.repeat_after_turns for t in self._injected.values())
        hits = self.memory.recall(user_message, k=cfg.inject.max_memories * 4 + min(held_back, 50),
                                  user_id=self.user_id)
        chosen: list[Hit] = []
        covered: set[str] = set()
        stale = _superseded_sources(hits)
        old_values = _replaced_values(hits)
        # a standing instruction that governs this request ("Always … when I ask about …") is chosen first: recall
        # gives it a place at the end of its top k, past the few memories injected (retrieve/standing.py); the
        # lines keep recall's order
        place = {id(h): i for i, h in enumerate(hits)}
        hits = [h for h in hits if h.details.get("standing")] + [h for h in hits if not h.details.get("standing")]
        for hit in hits:
            if hit.score < cfg.inject.min_score:
                continue
            if self.session_id is not None and hit.kind == "turn" and hit.session_id == self.session_id:
                continue
            last = self._injected.get(hit.id)
            if last is not None and self.turn - last < cfg.inject.repeat_after_turns:
                continue
            if hit.kind == "judgment":
                continue   # judgments have their own section, gated by proven utility
            if hit.kind == "turn" and hit.source_ids and set(hit.source_ids) <= covered:
                continue   # already said by a fact or episode distilled from it
            if hit.kind == "turn" and hit.source_ids and set(hit.source_ids) <= stale:
                continue   # it said what a recalled fact corrected: never the old value beside the new one
            if hit.kind != "fact" and _names_only_old(hit.text, old_values):
                continue   # an echo or a summary of the old value ("Got it, 40k for the kitchen.")
            chosen.append(hit)
            covered.update(hit.source_ids)
            if len(chosen) == cfg.inject.max_memories:
                break
        chosen.sort(key=lambda h: place[id(h)])
        replies = self._replied_to(chosen)
        return [Line(self._hit_line(hit), on_include=self._marker(hit.id),
                     children=[Line(replies[hit.id])] if hit.id in replies else [])
                for hit in chosen]

    def _replied_to(self, chosen: list[Hit]) -> dict[str, str]:
        cfg = self.config
        if cfg.inject.reply_context_chars == 0:
            return {}
        return {hit_id: f"  ↳ {line}" for hit_id, line in replies(
            self.memory, chosen, self.user_id, max_chars=cfg.inject.reply_max_chars,
            context_chars=cfg.inject.reply_context_chars).items()}

    def _hit_line(self, hit: Hit) -> str:
        when = ago(hit.timestamp.timestamp()) if hit.timestamp else "undated"
        who = hit.said_by()  # a turn's speaker; a fact's when it says "I" (whose "I"?)
        return f"- [{hit.kind}, {when}] {_one_line(who + hit.text, self.config.inject.memory_chars)}"

    def _marker(self, memory_id: str) -> Callable[[], None]:
        def mark() -> None:
            self._injected[memory_id] = self.turn
        return mark

    # --- the budget --------------------------------------------------------------------------------------
    def _assemble(self, sections: list[Section]) -> str:
        """Sections in order, line by line, while the block stays within the token budget. Within a section the
        lines come first and their children (a workstream's loops, the turn a reply answers) get what is left:
        a detail never takes the place of a memory."""
        budget = self.config.inject.token_budget
        parts: list[str] = []

        def fits(extra: list[str]) -> bool:
            return estimate_tokens("\n".join(parts + extra)) <= budget

        for section in sections:
            header = ([""] if parts else []) + [section.header]
            taken: list[Line] = []
            for line in section.lines:
                if fits(header + [t.text for t in taken] + [line.text]):
                    taken.append(line)
            texts = [t.text for t in taken]
            shown: dict[int, list[str]] = {}
            for line in taken:
                for child in line.children:
                    if fits(header + texts + [child.text]):
                        texts.append(child.text)
                        shown.setdefault(id(line), []).append(child.text)
            if taken:
                parts += header + [text for line in taken for text in (line.text, *shown.get(id(line), []))]
                for line in taken:
                    if line.on_include:
                        line.on_include()
        return "\n".join(parts)


def _superseded_sources(hits: list[Hit]) -> set[str]:
    """The turns behind values that recalled facts replaced (and behind no current fact among the hits)."""
    old = {s for h in hits if h.kind == "fact" and h.details.get("previous")
           for s in h.details["previous"].get("source_ids", ())}
    return old - {s for h in hits if h.kind == "fact" for s in h.source_ids}


def _replaced_values(hits: list[Hit]) -> list[tuple[Slot, Slot]]:
    """For each recalled fact that replaced another: (the values only the old fact named, the new fact's values)."""
    out = []
    for h in hits:
        previous = h.details.get("previous") if h.kind == "fact" else None
        if not previous:
            continue
        new, old = read_slot(h.text.split(" (previously:")[0]), read_slot(previous.get("text", ""))
        gone = Slot(set(), old.numbers - new.numbers, old.dates - new.dates, old.names - new.names)
        if not gone.empty():
            out.append((gone, new))
    return out


def _names_only_old(text: str, replaced: list[tuple[Slot, Slot]]) -> bool:
    """`text` names a value a recalled fact replaced, and not the value that replaced it."""
    if not replaced:
        return False
    said = read_slot(text)
    for gone, new in replaced:
        names_old = (said.numbers & gone.numbers) or (said.dates & gone.dates) or (said.names & gone.names)
        names_new = (said.numbers & new.numbers) or (said.dates & new.dates) or (said.names & new.names)
        if names_old and not names_new:
            return True
    return False


def _one_line(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def replies(memory: Memory, hits: list[Hit], user_id: str | None = None, *, max_chars: int = 200,
            context_chars: int = 160) -> dict[str, str]:
    """For each short memory among `hits` that only makes sense with the turn it answers, by hit id: "replying
    to <who>: “<that turn, cut short>”". A turn qualifies when the turn before it is another speaker's and
    asks something, or when it leans back on it (an answer word, a pronoun first); a fact only when it leans
    back. A turn already among `hits` is not said again."""
    short = [h for h in hits if len(h.text) <= max_chars and (
        h.kind == "turn" or (h.kind == "fact" and _leans_back(h.text)))]
    before = memory.turns_before(short, user_id) if short else {}
    shown = {h.id for h in hits}
    lines = {}
    for hit in short:
        prev = before.get(hit.id)
        if prev is None or f"turn:{prev.id}" in shown or (prev.speaker or prev.role) == (hit.speaker or hit.role):
            continue
        if _leans_back(hit.text) or (hit.kind == "turn" and "?" in prev.content):
            lines[hit.id] = f"replying to {prev.speaker or prev.role}: “{_one_line(prev.content, context_chars)}”"
    return lines
