"""Loaders for the LoCoMo and BEAM conversation-memory benchmarks.

Both produce the same shape: a list of `Conversation`s, each with its sessions in order (turns with
ids, speakers and timestamps) and the retrieval questions with their evidence turn ids.
Evidence is normalised (malformed ids fixed, `;` lists split, ranges expanded); every fix and every
id that cannot be resolved is counted in `Conversation.notes` and printed by the loaders.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
LOCOMO_DEFAULT = SHARED_DATA / "locomo-dev"
BEAM_DEFAULT = SHARED_DATA / "beam-100k"
CJK_DEFAULT = Path(__file__).resolve().parent / "data" / "cjk"  # written for this project: bench/data/cjk/README.md

LOCOMO_CATEGORIES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop"}
BEAM_SKIPPED_CATEGORIES = {"abstention"}
SYNTHETIC_START = datetime(2024, 1, 1, 9, 0, tzinfo=timezone.utc)


@dataclass
class Turn:
    turn_id: str
    speaker: str
    text: str
    timestamp: datetime
    role: str = "user"


@dataclass
class Session:
    session_id: str
    number: int
    started_at: datetime
    turns: list[Turn] = field(default_factory=list)


@dataclass
class Question:
    qid: str
    question: str
    answer: str
    category: str
    evidence: list[str]


@dataclass
class Conversation:
    conv_id: str
    sessions: list[Session]
    questions: list[Question]
    notes: Counter[str] = field(default_factory=Counter)
    named_speakers: bool = True  # LoCoMo: people's names; BEAM: speaker is just the role

    def turns(self) -> Iterator[Turn]:
        for session in self.sessions:
            yield from session.turns


# --------------------------------------------------------------------------- dates

_LOCOMO_DATE_FORMATS = (
    "%I:%M %p on %d %B, %Y",
    "%I:%M %p on %d %b, %Y",
    "%I:%M %p on %d %B %Y",
    "%I:%M %p on %B %d, %Y",
    "%H:%M on %d %B, %Y",
    "%d %B, %Y",
    "%d %B %Y",
)
_BEAM_DATE_FORMATS = ("%B-%d-%Y", "%b-%d-%Y", "%Y-%m-%d", "%B %d, %Y", "%d %B %Y")


def parse_datetime(raw: str | None, formats: Iterable[str]) -> datetime | None:
    """Parse with strptime over `formats`, else dateutil if installed; naive results are taken as UTC."""
    if not raw:
        return None
    text = re.sub(r"\s+", " ", raw.strip())
    parsed: datetime | None = None
    for fmt in formats:
        try:
            parsed = datetime.strptime(text, fmt)
            break
        except ValueError:
            continue
    if parsed is None:
        try:
            from dateutil import parser as dateutil_parser

            parsed = dateutil_parser.parse(text.replace(" on ", " "), fuzzy=True)
        except (ImportError, ValueError, OverflowError):
            return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


# --------------------------------------------------------------------------- evidence

_DIA_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)
_RANGE = re.compile(
    r"^D\s*:?\s*(\d+)\s*:\s*(\d+)\s*[-\u2013~]\s*(?:D\s*:?\s*(\d+)\s*:\s*)?(\d+)$", re.IGNORECASE
)


def normalise_locomo_evidence(
    raw: Iterable[str], order: list[str], notes: Counter[str], where: str = ""
) -> list[str]:
    """Return the valid evidence ids (in order, deduplicated), counting every repair in `notes`.

    `order` is the conversation's dia_ids in dialogue order (used to validate and to expand ranges).
    """
    position = {dia_id: i for i, dia_id in enumerate(order)}
    out: list[str] = []
    for entry in raw:
        entry = str(entry)
        if entry in position:
            notes["evidence_ok"] += 1
            out.append(entry)
            continue
        if entry.strip() in position:
            notes["evidence_reformatted"] += 1
            out.append(entry.strip())
            continue
        pieces = [p.strip() for p in re.split(r"[;,]|(?<![-\u2013~\s])\s+(?=D)", entry) if p.strip()]
        if len(pieces) > 1:
            notes["evidence_split_lists"] += 1
        for piece in pieces:
            out.extend(_resolve_piece(piece, order, position, notes, where))
    deduped = list(dict.fromkeys(out))
    if len(deduped) < len(out):
        notes["evidence_duplicates_removed"] += len(out) - len(deduped)
    return deduped


def _resolve_piece(
    piece: str, order: list[str], position: dict[str, int], notes: Counter[str], where: str
) -> list[str]:
    if piece in position:
        notes["evidence_ok"] += 1
        return [piece]
    if m := _RANGE.match(piece):
        s1, t1, s2, t2 = m.groups()
        start, end = f"D{int(s1)}:{int(t1)}", f"D{int(s2 or s1)}:{int(t2)}"
        if start in position and end in position and position[start] <= position[end]:
            notes["evidence_ranges_expanded"] += 1
            return order[position[start] : position[end] + 1]
        notes["evidence_unresolvable"] += 1
        print(f"  {where}: unresolvable evidence range {piece!r}", file=sys.stderr)
        return []
    if m := _DIA_ID.fullmatch(piece):
        fixed = f"D{int(m.group(1))}:{int(m.group(2))}"
        if fixed in position:
            notes["evidence_reformatted"] += 1
            return [fixed]
    notes["evidence_unresolvable"] += 1
    print(f"  {where}: unresolvable evidence id {piece!r}", file=sys.stderr)
    return []


def _flatten_ids(value: object) -> list[str]:
    if isinstance(value, dict):
        return [i for v in value.values() for i in _flatten_ids(v)]
    if isinstance(value, (list, tuple)):
        return [i for v in value for i in _flatten_ids(v)]
    if value is None or value == "":
        return []
    return [str(value).strip()]


def _json_files(path: Path, pattern: str) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(f"no such data path: {path}")
    return sorted(
        path.glob(pattern),
        key=lambda p: (not p.stem.isdigit(), int(p.stem) if p.stem.isdigit() else 0, p.stem),
    )


def print_notes(name: str, conversations: list[Conversation]) -> Counter[str]:
    total: Counter[str] = Counter()
    for conv in conversations:
        total.update(conv.notes)
    n_q = sum(len(c.questions) for c in conversations)
    n_t = sum(1 for c in conversations for _ in c.turns())
    fixes = ", ".join(f"{k}={v}" for k, v in sorted(total.items()) if k != "evidence_ok") or "none"
    print(
        f"[{name}] {len(conversations)} conversations, {n_t} turns, {n_q} questions; normalisation: {fixes}",
        file=sys.stderr,
    )
    return total


# --------------------------------------------------------------------------- LoCoMo


def load_locomo(path: str | Path = LOCOMO_DEFAULT, verbose: bool = True) -> list[Conversation]:
    """Load LoCoMo: a directory of per-conversation json files, one such file, or the original locomo10.json list."""
    conversations: list[Conversation] = []
    for file in _json_files(Path(path), "*.json"):
        data = json.loads(file.read_text(encoding="utf-8"))
        records = data if isinstance(data, list) else [data]
        for i, record in enumerate(records):
            default_id = file.stem if len(records) == 1 else f"{file.stem}-{i}"
            conversations.append(_locomo_conversation(record, default_id))
    if verbose:
        print_notes("locomo", conversations)
    return conversations


def _locomo_conversation(record: dict, default_id: str) -> Conversation:
    conv = record.get("conversation", record)
    conv_id = str(record.get("sample_id", default_id))
    notes: Counter[str] = Counter()
    numbers = sorted(int(m.group(1)) for k in conv if (m := re.fullmatch(r"session_(\d+)", k)))
    sessions: list[Session] = []
    previous: datetime | None = None
    for n in numbers:
        raw_turns = conv.get(f"session_{n}") or []
        if not isinstance(raw_turns, list) or not raw_turns:
            continue
        started = parse_datetime(conv.get(f"session_{n}_date_time"), _LOCOMO_DATE_FORMATS)
        if started is None:
            notes["session_dates_synthesised"] += 1
            started = previous + timedelta(days=1) if previous else SYNTHETIC_START
        previous = started
        session = Session(f"{conv_id}-s{n}", n, started)
        for i, t in enumerate(raw_turns):
            text = str(t.get("text", ""))
            if t.get("blip_caption"):
                text += f" [shares an image: {t['blip_caption']}]"
            session.turns.append(
                Turn(
                    str(t["dia_id"]).strip(), str(t.get("speaker", "")), text, started + timedelta(seconds=i)
                )
            )
        sessions.append(session)
    order = [t.turn_id for s in sessions for t in s.turns]
    questions: list[Question] = []
    for j, qa in enumerate(record.get("qa", [])):
        category = LOCOMO_CATEGORIES.get(int(qa.get("category", 0)))
        if category is None:
            notes["questions_skipped_category"] += 1
            continue
        evidence = normalise_locomo_evidence(qa.get("evidence") or [], order, notes, f"{conv_id}-q{j}")
        if not evidence:
            notes["questions_without_evidence"] += 1
            print(
                f"  {conv_id}: question without usable evidence skipped: {qa['question']!r}", file=sys.stderr
            )
            continue
        questions.append(
            Question(f"{conv_id}-q{j}", str(qa["question"]), str(qa.get("answer", "")), category, evidence)
        )
    return Conversation(conv_id, sessions, questions, notes)


def load_cjk(path: str | Path = CJK_DEFAULT, verbose: bool = True) -> list[Conversation]:
    """The Chinese/Japanese/Korean personal-assistant set (bench/data/cjk): LoCoMo's format, so LoCoMo's loader."""
    conversations = load_locomo(path, verbose=False)
    if verbose:
        print_notes("cjk", conversations)
    return conversations


# --------------------------------------------------------------------------- BEAM


def load_beam(path: str | Path = BEAM_DEFAULT, verbose: bool = True) -> list[Conversation]:
    """Load BEAM: a directory of numbered chat dirs (each with chat.json + probing_questions.json) or one chat dir."""
    root = Path(path)
    if (root / "chat.json").is_file():
        chat_dirs = [root]
    elif root.is_dir():
        chat_dirs = sorted(
            (d for d in root.iterdir() if (d / "chat.json").is_file()),
            key=lambda d: (not d.name.isdigit(), int(d.name) if d.name.isdigit() else 0, d.name),
        )
    else:
        raise FileNotFoundError(f"no such data path: {root}")
    conversations = [_beam_conversation(d) for d in chat_dirs]
    if verbose:
        print_notes("beam", conversations)
    return conversations


def _beam_conversation(chat_dir: Path) -> Conversation:
    conv_id = f"beam-{chat_dir.name}"
    notes: Counter[str] = Counter()
    batches = json.loads((chat_dir / "chat.json").read_text(encoding="utf-8"))
    anchor: datetime | None = None
    offset = 0
    sessions: list[Session] = []
    for b_index, batch in enumerate(batches, start=1):
        number = int(batch.get("batch_number", b_index))
        batch_anchor = parse_datetime(batch.get("time_anchor"), _BEAM_DATE_FORMATS)
        if batch_anchor is not None:
            anchor, offset = batch_anchor, 0
        turns: list[Turn] = []
        for group in batch.get("turns", []):
            for t in group if isinstance(group, list) else [group]:
                turn_anchor = parse_datetime(t.get("time_anchor"), _BEAM_DATE_FORMATS)
                if turn_anchor is not None:
                    anchor, offset = turn_anchor, 0
                if anchor is None:  # nothing to inherit: synthesise an increasing clock
                    notes["timestamps_synthesised"] += 1
                    anchor, offset = SYNTHETIC_START + timedelta(days=b_index - 1), 0
                role = str(t.get("role", "user"))
                turns.append(
                    Turn(
                        str(t["id"]),
                        role,
                        str(t.get("content", "")),
                        anchor + timedelta(seconds=offset),
                        role,
                    )
                )
                offset += 1
        if turns:
            sessions.append(Session(f"{conv_id}-b{number}", number, turns[0].timestamp, turns))
    valid = {t.turn_id for s in sessions for t in s.turns}
    probing = json.loads((chat_dir / "probing_questions.json").read_text(encoding="utf-8"))
    questions: list[Question] = []
    for category, items in probing.items():
        if category in BEAM_SKIPPED_CATEGORIES:
            notes["questions_skipped_category"] += len(items)
            continue
        for j, item in enumerate(items):
            evidence: list[str] = []
            for sid in _flatten_ids(item.get("source_chat_ids")):
                if sid in valid:
                    evidence.append(sid)
                    notes["evidence_ok"] += 1
                else:
                    notes["evidence_unresolvable"] += 1
                    print(f"  {conv_id}: unresolvable source_chat_id {sid!r}", file=sys.stderr)
            evidence = list(dict.fromkeys(evidence))
            if not evidence:
                notes["questions_without_evidence"] += 1
                print(
                    f"  {conv_id}: {category} question without evidence skipped: {item['question'][:70]!r}",
                    file=sys.stderr,
                )
                continue
            answer = item.get("answer") or item.get("ideal_answer") or item.get("ideal_response") or ""
            questions.append(
                Question(f"{conv_id}-{category}-{j}", str(item["question"]), str(answer), category, evidence)
            )
    return Conversation(conv_id, sessions, questions, notes, named_speakers=False)
