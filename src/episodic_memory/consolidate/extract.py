"""Candidate facts from a session's turns: by an LLM when one is configured, else by precision-first rules."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

import numpy as np

from .. import llm
from ..config import Config
from ..heuristics import rule_on
from ..store.records import StoredTurn
from ..util import forgettable, to_datetime
from .address import addressees, is_reaction, leans_back, participant_named, unaddressed, without_address
from .durable import (
    HYPOTHETICAL_KIND,
    MUSING,
    QUESTION,
    REQUEST_KIND,
    STATEMENT,
    ExemplarVote,
    sentence_kind,
    stated_part,
    strip_memo,
)
from .fact_types import EXTRACTED_TYPES, describe_types
from .learned import SentenceJudge
from .notes import without_notes
from .supersede import WISH, bare_name_correction, has_change_cue, is_bare_cue
from .when import resolve_when
from .words import DEMONYMS, NOT_NAMES, STARTERS

log = logging.getLogger(__name__)


@dataclass
class Candidate:
    text: str
    type: str
    confidence: float
    sources: list[StoredTurn]
    entities: list[str] = field(default_factory=list)
    event_ts: float | None = None
    replaces: str | None = None     # what a correction says was wrong ("14 slides, not 12" → "12")
    extractor: str = "rules"
    said: str = ""                  # the sentence as said (before cleaning), for slot matching
    cued: bool = False              # a change cue said just before it ("I gave you the wrong one. It's 66.")

    @property
    def created_at(self) -> float:
        return max(t.ts for t in self.sources)


# --- rules -----------------------------------------------------------------------------------------------
_I = re.IGNORECASE
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
# "I'll be honest", "I have to admit", "I must say": asides, not promises
_ASIDE = r"(?:be honest|be frank|admit|say|confess|vent|rant|think out loud|think about it|see|try and see)\b"
RULES: list[tuple[str, float, re.Pattern[str]]] = [
    ("correction", 0.8, re.compile(r"^(?:actually|correction|sorry|wait|oops|scratch that|i meant|to correct)\b", _I)),
    ("correction", 0.75, re.compile(r",\s*not\s+[\w€$£%.,-]{1,20}(?=\s*(?:[—–;.!]|,(?!\d)|\s-\s|$))", _I)),
    ("correction", 0.7, re.compile(r"\b(?:no longer|not anymore|changed (?:it |that )?to|moved (?:it )?to)\b", _I)),
    ("decision", 0.8, re.compile(
        r"\b(?:we|i)(?:'ve| have)? (?:finally )?decided\b|\bdecided to\b|\blet'?s go with\b|\b(?:we|i)(?:'ll| will) go "
        r"with\b|\bwe(?:'re| are) going with\b|\bwe agreed\b|\bagreed (?:to|on)\b|\bwe chose\b|\bthe decision is\b", _I)),
    ("preference", 0.8, re.compile(
        r"\bi(?:'d| would)? (?:really )?prefer\b|\bi (?:really )?(?:like|love|enjoy|hate|dislike|can'?t stand)\b|"
        r"\bi don'?t (?:like|want|enjoy)\b|\bmy favou?rite\b|\bplease (?:always|never|don'?t)\b|"
        r"\bno (?:meetings?|calls?) (?:before|after)\b|\bi(?:'d| would) rather\b", _I)),
    # standing instructions to the assistant: "Always include version numbers when I ask about libraries."
    ("preference", 0.8, re.compile(
        r"^(?:please\s+)?(?:always|never)\s+\w+|^(?:from now on|going forward|in future)\b|"
        r"\bwhen(?:ever)? i ask (?:about|for)\b", _I)),
    ("commitment", 0.75, re.compile(
        r"\bremind me to\b|\bi(?:'ll| will| need to| have to| must| promised to)\s+(?!go with)(?!" + _ASIDE + r")\w+|"
        r"\bwe(?:'ll| will| need to| have to| must)\s+(?!go with)(?!" + _ASIDE + r")\w+", _I)),
    ("identity", 0.8, re.compile(
        r"\b(?:I'm|I am) (?:[A-Z][\w'-]+|(?:a|an) (?:\w+ )?\w*(?:er|or|ist|ian|ant|ent|founder|student|doctor|nurse|"
        r"chef|parent|mother|father|mom|dad)\b)|\b(?i:my name is|i work (?:at|for|as|in)|i live in|i'?m from|"
        r"i'?m based in|we'?re an? \S+ (?:startup|company|team|agency|firm|business))\b")),
    ("relationship", 0.75, re.compile(
        r"\b[A-Z][\w'-]+(?:,| is) (?:my|our) \w+|\b(?:[Mm]y|[Oo]ur) (?:\w+ ){1,2}(?:is|are) [A-Z][\w'-]+")),
    ("plan", 0.65, re.compile(
        r"\b(?:planning|plan|plans|intend|intends|going) to\b|\bscheduled (?:for|on)\b|\b(?:is|are) (?:still )?on for\b|"
        r"\bproposed\b.*\b(?:on|for)\b|\b(?:is|are) (?:set|planned|booked) for\b", _I)),
]
_PAST = re.compile(
    r"\b\w{3,}ed\b|\b(?:sent|spoke|met|went|came|had|did|got|made|took|told|said|saw|bought|began|broke|built|"
    r"found|gave|heard|kept|left|lost|paid|ran|sold|spent|won|wrote|flew|drove|ate|fell|felt|thought)\b", _I)
_WHEN = re.compile(rf"\b(?:yesterday|last (?:night|week|month|year|{_WEEKDAY})|this (?:morning|afternoon)|"
                   rf"\d+ (?:days?|weeks?|months?) ago|on {_WEEKDAY}|earlier today)\b", _I)
_QUANTITY = re.compile(r"\b\d[\d.,]*\s*(?:%|k|m|€|\$)?|[€$£]\s?\d")
_STATE = re.compile(r"\b(?:needs?|requires?|has|have|costs?|takes?|wants?|is|are|were|was)\b", _I)
_NEGATED_DECISION = re.compile(r"\b(?:haven'?t|hasn'?t|not|never|un)\s*(?:yet\s+)?decid", _I)
_DISCOURSE = re.compile(
    r"^(?:(?:actually|ok(?:ay)?|so|also|and|but|oh|well|yes|yeah|yep|hey|hi|anyway|btw|honestly|great|right|"
    r"big news|quick update|small thing|different topic|good news|one more thing|on the [\w ]{1,20} side|"
    r"(?:like|as) i (?:said|mentioned)(?: before| earlier)?|again|just to repeat|as a reminder)"
    r"\s*[,:!.—–-]*\s+)+", _I)
_NOT_CLAUSE = re.compile(r",\s*not\s+([\w€$£%.,-]{1,20}?)(?=\s*(?:[—–;.!]|,(?!\d)|\s-\s|$))", _I)
_PREAMBLE = re.compile(r"^[^:]{3,45}:\s+(?=\S)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9€$£])")
FILLER = re.compile(
    r"^(?:ok(?:ay)?|sure|thanks?|thank you|cool|great|nice|got it|sounds good|lol|haha|yes|no|yep|nope|right|"
    r"hi|hello|hey|bye|good (?:morning|night|call)|perfect|awesome|noted)\b[\s,.!]*", _I)
#: the roles that are not a person of the conversation
ASSISTANT_ROLES = frozenset({"assistant", "system", "tool", "function", "model"})


def sentences(text: str) -> list[str]:
    """The sentences of `text`, bracketed notes left out (consolidate/notes.py)."""
    out: list[str] = []
    for line in without_notes(text).splitlines():
        line = line.strip().lstrip("-•*·>").strip()
        out.extend(s.strip() for s in _SENTENCE.split(line) if s.strip())
    return out


def is_filler(text: str) -> bool:
    """Pleasantries and acknowledgements with nothing to remember."""
    rest = FILLER.sub("", text.strip())
    while rest != (rest := FILLER.sub("", rest)):
        pass
    if re.search(r"\d", rest) and len(rest.split()) >= 2:
        return False  # "It's 14, not 12": a value is never filler
    return len(re.findall(r"\w{3,}", rest)) < 3


def classify_sentence(sentence: str, said_at: datetime) -> tuple[str, float] | None:
    """The fact type a sentence states, with a confidence, or None. Questions state nothing."""
    if sentence.rstrip().endswith("?") or len(sentence.split()) < 4 or not rule_on("facts.type_cues"):
        return None
    for name, confidence, pattern in RULES:
        if pattern.search(sentence):
            if name == "decision" and _NEGATED_DECISION.search(sentence):
                continue
            if name == "correction" and rule_on("facts.wish") and WISH.search(sentence):
                continue  # "Sarah wants the chart moved to slide 3": a wish, not a correction
            return name, confidence
    if _WHEN.search(sentence) and _PAST.search(sentence):
        return "event", 0.65
    if _QUANTITY.search(sentence) and _STATE.search(sentence):
        return "knowledge", 0.6
    return None


# Plain statements without a cue word, typed by what they do.
_DECIDED = re.compile(
    r"\b(?:picked|settled on|went with|going with|opted (?:for|to)|chose|hired|dropped|switched (?:to|from)|signed|"
    r"booked|approved|after all|we're doing|we are doing|finali[sz]ed|locked in|confirmed)\b", _I)
_FUTURE = re.compile(
    r"\b(?:will|'ll|shall|going to|gonna|is on|are on|happens|takes place|kicks off|starts|begins|goes (?:up|live|out)|"
    r"next (?:week|month|year|" + _WEEKDAY + r")|tomorrow|upcoming|due)\b", _I)
_ROLE_OF = re.compile(
    r"\b[A-Z][\w'-]+(?: [A-Z][\w'-]+)? (?:owns|leads|runs|handles|manages|coordinates|is (?:leading|running|"
    r"handling|doing|coordinating|in charge of|responsible for|our|my|the \w+ (?:for|on|at)))\b|\bsits? with [A-Z]|"
    r"\b(?:with|by) (?:my|our) \w+ [A-Z]")
_FINITE = re.compile(
    r"\b(?:is|are|was|were|am|be|been|has|have|had|do|does|did|will|can|could|must|should|would|may|might|'s|'re|"
    r"'m|'ll|'ve|'d|\w{2,}(?:ed|es|s)|put|set|let|cut|hit|run|go|went|sit|sat|get|got|make|made|take|took|give|"
    r"gave|keep|kept|need|want|like|know|knew|think|thought|say|said|tell|told|see|saw|come|came|leave|left|"
    r"pay|paid|buy|bought|sell|sold|win|won|lose|lost|meet|met|hold|held|bring|brought|write|wrote|read|"
    r"start|finish|begin|began|live|work|use|own|lead|led|run|ran)\b", _I)


_FRAGMENT = re.compile(r"^(?:the\s+)?[A-Z][\w'’-]*(?:\s+[\w'’-]+){0,3}\s+(?:in|on|at|for|by|from|until)\s+\S", _I)


def classify_statement(sentence: str) -> tuple[str, float] | None:
    """A plain declarative sentence (or a verbless note naming a value: "DevConf in Berlin on June 4") typed
    without a cue word, or None when it is too short or has no verb."""
    if sentence.rstrip().endswith("?") or len(sentence.split()) < 4:
        return None
    if not _FINITE.search(sentence):
        if _FRAGMENT.match(sentence.strip()) and _names_value(sentence):
            return ("plan", 0.6) if resolve_when(sentence, datetime.now(timezone.utc)) else ("knowledge", 0.6)
        return None
    if _DECIDED.search(sentence):
        return "decision", 0.7
    if _ROLE_OF.search(sentence):
        return "relationship", 0.65
    if _FUTURE.search(sentence):
        return "plan", 0.6
    if _PAST.search(sentence):
        return "event", 0.6
    return "knowledge", 0.6


def clean(sentence: str, fact_type: str) -> tuple[str, str | None]:
    """The fact's text: discourse markers off the front; for a correction, the ", not 12" clause taken out and
    returned as what it replaces."""
    text = _DISCOURSE.sub("", sentence).strip()
    if ((head := _PREAMBLE.match(text)) and not re.search(r"\d", head.group(0))
            and len(text[head.end():].split()) >= 3):
        # "Some context before we dig in: I'm Maya …" → "I'm Maya …" (not "On the dog trainer: Tariq.")
        text = text[head.end():]
    replaces = None
    if fact_type == "correction" and rule_on("facts.not_clause") and (m := _NOT_CLAUSE.search(text)):
        replaces = m.group(1).strip(" ,.")
        text = (text[: m.start()] + text[m.end():]).strip()
    text = re.sub(r"\s+([,.;!])", r"\1", text)
    return (text[:1].upper() + text[1:]) if text else text, replaces


_NAME_RUN = re.compile(r"(?<![\w'’-])([A-Z][\w'’-]*(?:\s+(?:&\s+)?(?:[A-Z][\w'’-]*|[A-Z]\b))*)")
_QUOTED_TITLE = re.compile(r"[\"“]([A-Z][^\"”]{2,60})[\"”]")


def find_entities(text: str, known: dict[str, str], speaker: str | None = None, context: str = "") -> list[str]:
    """Names in `text`: the store's known names (case-insensitively, with their canonical spelling) and runs of
    capitalised words that are not sentence-starting common words (a word that starts a sentence counts when
    `context`, the whole turn, also capitalises it mid-sentence). The speaker of a first-person statement is one."""
    found: list[str] = []
    lowered = f" {text.lower()} "
    for key, canonical in known.items():
        if key in lowered and _whole(key).search(lowered):   # the plain test first: most names are not there
            found.append(canonical)
    titles = [m for m in _QUOTED_TITLE.finditer(text) if 2 <= len(m.group(1).split()) <= 8]
    for m in titles:  # a quoted title is one name: "Tests That Earn Their Keep"
        if m.group(1).lower() not in (f.lower() for f in found):
            found.append(m.group(1).strip(" ,."))
    for m in _NAME_RUN.finditer(text):
        if any(t.start() <= m.start() < t.end() for t in titles):
            continue
        words = m.group(1).split()
        if _starts_sentence(text, m.start()) and len(words) == 1 and words[0].lower() not in known and not any(
                not _starts_sentence(context, c.start()) for c in re.finditer(rf"\b{re.escape(words[0])}\b", context)):
            continue  # a capital letter that only starts a sentence says nothing
        if _starts_sentence(text, m.start()) and words[0].lower() in STARTERS:
            words.pop(0)  # "Need Mateo's approval": the verb is no part of the name
        while words and words[0].lower().strip("'’") in NOT_NAMES | {"&"}:
            words.pop(0)
        while words and words[-1].lower().strip("'’") in NOT_NAMES | {"&"}:
            words.pop()
        if not words or (len(words) == 1 and words[0].lower() in DEMONYMS):
            continue  # "the Thai place": a cuisine, not an entity
        name = " ".join(words)
        name = name.removesuffix("'s").removesuffix("’s").rstrip("'’-")
        if len(name) < 2 or name.isdigit() or name.lower() in NOT_NAMES:  # "Here's", "Max-"
            continue
        canonical = known.get(name.lower(), name)
        if canonical.lower() not in (f.lower() for f in found):
            found.append(canonical)
    if speaker and re.search(r"\b(?:i|i'm|my|me|we|our)\b", text, _I) and speaker.lower() not in (
            f.lower() for f in found):
        found.insert(0, speaker)
    return found


@forgettable
@lru_cache(maxsize=8192)
def _whole(name: str) -> re.Pattern[str]:
    """`name` as a whole word (or words): compiled once per name (a store knows more names than `re` caches)."""
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")


def _starts_sentence(text: str, pos: int) -> bool:
    before = text[:pos].rstrip(" \"'(“‘")
    return not before or before[-1] in ".!?:;—–-\n"


def statements(turn: StoredTurn) -> list[str]:
    """The sentences of a person's turn that state something (no questions, requests and what follows them,
    hypotheticals or filler)."""
    if turn.role.lower() in ASSISTANT_ROLES:
        return []
    out = []
    for raw in map(stated_part, sentences(turn.content)):
        bare = strip_memo(_DISCOURSE.sub("", raw).strip() or raw)
        kind = sentence_kind(bare)
        if kind == REQUEST_KIND:
            break
        if kind == STATEMENT and not is_filler(bare) and (classify_sentence(bare, datetime.now(timezone.utc))
                                                          or classify_statement(bare)):
            out.append(raw)
    return out


@dataclass
class _Sentence:
    text: str
    turn: StoredTurn
    typed: tuple[str, float]
    cued: bool          # typed by a cue rule (not only because it is a plain statement)
    after_cue: bool = False


_HAS_VALUE = re.compile(r"\d|[€$£]")
_MID_NAME = re.compile(r"(?<=[\w,] )[A-Z][\w'’-]+")


def _names_value(sentence: str) -> bool:
    """A number, an amount or a name said mid-sentence: the values a memory is asked about."""
    return bool(_HAS_VALUE.search(sentence) or any(
        m.group(0).lower() not in NOT_NAMES for m in _MID_NAME.finditer(sentence)))


def extract_rules(turns: list[StoredTurn], known_names: dict[str, str], *, vote: ExemplarVote | None = None,
                  config: Config | None = None, participants: Iterable[str] = (),
                  judge: SentenceJudge | None = None) -> list[Candidate]:
    """Typed facts from what the people in the conversation said (not the assistant): what is kept is the
    `durable` model's call (`judge`), else the exemplar vote's (`vote`), else the cue rules' and named values'
    (docs/consolidation.md, "Facts worth keeping"). `participants`: the session's other speakers, besides
    those of `turns` (a run of 8 turns may hold only one person's)."""
    cfg = config or Config()
    pending: list[_Sentence] = []
    # whom a name at a sentence's edge may address
    participants = sorted({t.speaker for t in turns if t.speaker} | {p for p in participants if p})
    for turn in turns:
        if turn.role.lower() in ASSISTANT_ROLES:
            continue
        cue_before = False
        kept_before = False  # the sentence just before, in this turn, was kept
        # a long turn (a request with its context, code) goes through the word gates first, as without the models
        short_turn = len(turn.content.split()) <= cfg.consolidation.learned_max_turn_words
        said = sentences(turn.content)   # "…, can you …": what it states, not the ask
        for raw in map(stated_part, said) if rule_on("facts.stated_part") else said:
            unmarked = _DISCOURSE.sub("", raw).strip() or raw
            bare = strip_memo(unmarked) if rule_on("facts.memo") else unmarked
            sentence = raw if bare == unmarked else bare  # cue words kept
            kind = sentence_kind(bare)
            if (kind == REQUEST_KIND and not rule_on("facts.request")) or (
                    kind == QUESTION and not rule_on("facts.question")):
                kind = STATEMENT   # switched off: read as any statement
            if kind == REQUEST_KIND:
                break  # what follows a request is the material to work on
            cue_here = has_change_cue(raw)
            says_nothing = (rule_on("facts.reaction") and is_reaction(bare, participants)) or (
                cue_here and rule_on("facts.bare_cue") and is_bare_cue(raw))
            musing = kind == HYPOTHETICAL_KIND and rule_on("facts.hypothetical") and MUSING.search(bare) is not None
            if judge is not None and short_turn and kind != QUESTION and not musing and not says_nothing \
                    and len(bare.split()) >= 2:
                by_cue = classify_sentence(sentence, datetime.now(timezone.utc))
                typed = by_cue or classify_statement(sentence) or ("knowledge", 0.55)
                if (cue_here or cue_before) and typed[0] not in ("correction", "decision"):
                    typed = ("correction", 0.7)
                pending.append(_Sentence(sentence, turn, typed, by_cue is not None or cue_here or cue_before,
                                         cue_before))
                cue_before = False
                continue
            item: _Sentence | None = None
            if kind != STATEMENT or is_filler(bare) or says_nothing:
                pass
            elif (found := classify_sentence(sentence, datetime.now(timezone.utc))) is not None:
                item = _Sentence(sentence, turn, found, True, cue_before)
            elif not kept_before and leans_back(bare, participants) and not _names_value(bare):
                # a plain statement about what the other person said ("They give me the strength …") tells a
                # reader nothing on its own, unless it brings a value or goes on from a kept statement
                pass
            elif (plain := classify_statement(sentence)) is not None:
                if cue_here or cue_before:  # "Change of plan: …", "My race shoe is now …": a change of a value
                    plain = ("correction", 0.7)
                item = _Sentence(sentence, turn, plain, cue_here or cue_before, cue_before)
            if item is not None:
                pending.append(item)
            kept_before = item is not None
            cue_before = item is None and (cue_before or cue_here)
    if judge is not None:
        head = judge.head("durable")
        line = cfg.consolidation.durable_line if cfg.consolidation.durable_line is not None else head.threshold if head else 0.5
        durable = judge.scores([p.text for p in pending])["durable"] if pending else np.zeros(0)
        # a sentence a cue word typed (decided, prefer, always …, actually) is kept on less of the model's say
        kept = [p for p, d in zip(pending, durable, strict=True)
                if d >= (min(line, cfg.consolidation.durable_cued_line) if p.cued and rule_on("facts.cued_kept") else line)]
    elif vote is not None:
        margins = [float(m) for m in vote.margins([_fact_text(p, participants)[0] for p in pending])]
        kept = [p for p, m in zip(pending, margins, strict=True)
                if m + (cfg.consolidation.fact_value_bonus if _names_value(p.text) else 0.0)
                >= (cfg.consolidation.fact_cued_margin if p.cued else cfg.consolidation.fact_statement_margin)]
    else:
        kept = [p for p in pending if p.cued or _names_value(p.text)]
    out: list[Candidate] = []
    for p in kept:
        turn = p.turn
        said_at = to_datetime(turn.ts) or datetime.now(timezone.utc)
        fact_type, confidence = p.typed
        text, replaces = _fact_text(p, participants)
        if len(text.split()) < 3 and not re.search(r"\d", text) and not bare_name_correction(p.text):
            # too short to stand alone; a bare correction that names the value it replaces ("It's Alasdair,
            # actually, not Owain.") goes on: consolidation keeps it only with the fact holding that value
            continue
        when = resolve_when(p.text, said_at, future=fact_type in ("plan", "commitment"))
        spoken_to = {name.lower() for name in addressees(text, participants)}  # the listener, not the subject …
        as_subject = f" {unaddressed(text, participants).lower()} "            # … unless also named otherwise
        entities = [e for e in find_entities(text, known_names, turn.speaker, turn.content)
                    if e.lower() not in spoken_to or _whole(e.lower()).search(as_subject)]
        entities = list(dict.fromkeys(participant_named(e, participants) for e in entities))  # "Mel": Melanie
        known_names.update({e.lower(): e for e in entities if e.lower() not in known_names})
        out.append(Candidate(
            text=text, type=fact_type, confidence=confidence, sources=[turn], entities=entities,
            replaces=replaces, event_ts=when.timestamp() if when else None, said=p.text, cued=p.after_cue,
        ))
    return out


# --- LLM -------------------------------------------------------------------------------------------------
EXTRACT_SYSTEM = f"""You are the fact extractor of a long-term memory for an AI assistant.
From the conversation turns you are given, extract the facts worth remembering across sessions: what the people
said about themselves, their work, their decisions and plans. Skip small talk, the assistant's own suggestions,
and anything only true for this moment. Precision matters more than recall: when unsure, leave it out.

Fact types:
{describe_types()}

Reply with a JSON array only. Each element:
{{"text": "one self-contained sentence, third person, names instead of pronouns",
  "type": "one of the types above",
  "entities": ["people, organisations, projects named"],
  "confidence": 0.0-1.0,
  "when": "the time the fact refers to as said (e.g. 'yesterday', 'last Saturday', '2024-05-03') or null",
  "turns": [numbers of the turns it comes from]}}
Reply [] when there is nothing worth remembering."""


def _fact_text(p: _Sentence, participants: list[str]) -> tuple[str, str | None]:
    """A kept sentence's fact text (`clean`), without a name it addresses the listener by at either end."""
    text, replaces = clean(p.text, p.typed[0])
    return (without_address(text, participants) if participants else text) or p.text, replaces


def render_turns(turns: list[StoredTurn]) -> str:
    lines = []
    for i, t in enumerate(turns, start=1):
        when = to_datetime(t.ts)
        who = t.speaker or t.role
        lines.append(f"[{i}] ({when:%Y-%m-%d %a}) {who}: {t.content}" if when else f"[{i}] {who}: {t.content}")
    return "\n".join(lines)


class ExtractionFailed(RuntimeError):
    """The LLM could not be reached: the session stays flagged and is retried later."""


async def extract_llm(client: llm.LLMClient, turns: list[StoredTurn],
                      known_names: dict[str, str]) -> list[Candidate]:
    """Facts by the configured LLM. A reply that is empty or holds no usable JSON means no facts; a backend that
    fails (after retries) raises `ExtractionFailed` so the turns are retried at the next open."""
    try:
        items = await client.ask_json(EXTRACT_SYSTEM, render_turns(turns), purpose="extract facts", expect=list,
                                      fail=True)
    except llm.LLMFailed as exc:
        raise ExtractionFailed(str(exc)) from exc
    out = []
    for n, item in enumerate(items or []):
        candidate = _candidate(item, turns, known_names)
        if isinstance(candidate, str):
            log.warning("llm extract facts: item %d rejected: %s", n, candidate)
        else:
            out.append(candidate)
    return out


def _candidate(item: Any, turns: list[StoredTurn], known_names: dict[str, str]) -> Candidate | str:
    if not isinstance(item, dict):
        return f"not an object: {item!r:.60}"
    text = item.get("text")
    if not isinstance(text, str) or not text.strip():
        return "no text"
    fact_type = str(item.get("type", "")).strip().lower()
    if fact_type not in EXTRACTED_TYPES:
        return f"unknown type {fact_type!r}"
    try:
        confidence = min(max(float(item.get("confidence", 0.7)), 0.0), 1.0)
    except (TypeError, ValueError):
        confidence = 0.7
    numbers = item.get("turns") or []
    if not isinstance(numbers, list):
        numbers = [numbers]
    sources = [turns[int(i) - 1] for i in numbers if str(i).isdigit() and 1 <= int(i) <= len(turns)]
    if not sources:
        sources = [max(turns, key=lambda t: _overlap(text, t.content))]
    said_at = to_datetime(max(t.ts for t in sources)) or datetime.now(timezone.utc)
    when = item.get("when")
    event = None
    if isinstance(when, str) and when.strip() and when.strip().lower() not in ("null", "none"):
        try:
            event = datetime.fromisoformat(when.strip())
            event = event if event.tzinfo else event.replace(tzinfo=timezone.utc)
        except ValueError:
            event = resolve_when(when, said_at, future=fact_type in ("plan", "commitment"))
    names = [str(e) for e in item.get("entities") or [] if isinstance(e, str | int)]
    entities = list(dict.fromkeys([*names, *find_entities(text, known_names)]))
    return Candidate(text=" ".join(text.split()), type=fact_type, confidence=confidence, sources=sources,
                     entities=entities, event_ts=event.timestamp() if event else None, extractor="llm")


def _overlap(a: str, b: str) -> int:
    return len(set(re.findall(r"\w+", a.lower())) & set(re.findall(r"\w+", b.lower())))
