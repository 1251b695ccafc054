"""The open-loop step of consolidation: what was left to do, and what got done (docs/consolidation.md,
"Loops that close"). Detection is strict and resolution stricter: when unsure, a loop stays open. A loop said
again is a mention, never stored twice; with an LLM, the closing quote must appear in the turn it names.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import llm
from ..heuristics import rule_on
from ..lang.english import LEAD_IN_PATTERN, MONTH_WORD_PATTERN, WEEKDAY_PATTERN
from ..store.records import Loop, NewLoop, SessionInfo, StoredTurn
from ..util import memo_text
from . import learned
from .durable import MUSING
from .extract import ASSISTANT_ROLES
from .keyphrases import overlap, sentences, words
from .lemmas import COMPLETION_ACTS, NOMINAL, content_keys, is_past, key
from .notes import without_notes

if TYPE_CHECKING:
    from ..clients import MemoryClients
    from ..config import Config

log = logging.getLogger(__name__)

DETECT_SYSTEM = """You are the open-loop detector of a long-term memory. An open loop is something concrete that
was left to do after the conversation: an explicit to-do, a commitment ("I'll send it by Friday"), a request with a
deadline, or something explicitly still pending or undecided. Precision matters far more than recall:
- not ideas, options, suggestions, questions, or plans that were completed within the turns shown;
- not the assistant's offers ("shall I remind you?");
- one loop per thing, even when it is said several times.
Most conversations have no open loop: then reply []. Otherwise reply with a JSON array only, each element
{"text": "the thing left to do, short, as a to-do", "turn": <number of the turn that raised it>,
 "due": "the deadline as said, or null"}"""

RESOLVE_SYSTEM = """You are the open-loop resolver of a long-term memory. You are given open loops (things left to
do) and new conversation turns. A loop is resolved only when a turn clearly says it was done (sent, signed off,
booked, decided, delivered). Plans, intentions, reminders, partial progress and "soon" do not resolve a loop.
When unsure, leave the loop open. Reply with a JSON array only, one element per resolved loop:
{"loop": <loop id>, "turn": <turn number>, "evidence": "the exact words of that turn that show it is done"}
Reply [] when no loop is clearly resolved."""

_DAY = WEEKDAY_PATTERN
_MONTH = MONTH_WORD_PATTERN
DEADLINE = (rf"(?:(?:this|next|on)\s+)?(?:{_DAY})(?:,?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:\s+{_MONTH})?)?|tomorrow|tonight|"
            r"today|(?:the\s+)?end of (?:the\s+)?(?:day|week|month|quarter|year)|eod|eow|next (?:week|month)|"
            rf"\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|noon|"
            r"\d{1,2}(?::\d\d)?\s?(?:am|pm)")
_DUE = re.compile(rf"\b(?:by|before|until)\s+(?:{DEADLINE})|\b(?:{DEADLINE})", re.IGNORECASE)

# The rules, in order; the first that matches a sentence decides. A pattern with a group `x` makes that clause the
# loop (the object of the to-do); without one the whole sentence is the loop. `asks` marks the patterns a question
# may carry ("can you remind me to …?"); every other question is a question, not a to-do.
_TASK = r"(?!(?:be|have (?:been|\w+(?:ed|en|wn|ne|t))|feel|sound|seem|rather|probably|likely|possibly|know|talk about|chat about|think|admit|say|confess|vent|run|go|leave|head|dash|sleep|rest|relax|breathe|get going|"  \
        r"see|wait|stop|try|get back to you|let you know|ping you|check in with you|tell you|update you)\b)"
# "I've got to", never a bare "I got to volunteer at the fair" (a chance that came, not a duty)
_OBLIGE = r"(?:(?:need|needs|have|has|'ve got|’ve got|have got|has got|ought) to|gotta|must)"


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    asks: bool = False


def _rule(pattern: str, asks: bool = False) -> _Rule:
    return _Rule(re.compile(pattern, re.IGNORECASE), asks)


_RULES: list[_Rule] = [
    _rule(r"^(?:to-?do|todo|action items?|next steps?|note to self|pending)\s*[:\-–]\s*(?P<x>.+)"),
    _rule(r"\b(?:my|our) (?:to-?do|todo)(?: list)?(?: for [^:]{1,30})?\s*:\s*(?P<x>.+)"),
    _rule(r"^(?:add|put)(?: this| it)? (?:to|on) (?:my|the) (?:to-?do |todo )?list\s*:\s*(?P<x>.+)"),
    # reminding and noting asked for ("Remind me to …", "can you keep track that …"), not "it reminds me why …",
    # "a painting to remind me to stay true", "it helps me keep track of ideas", nor a recap asked for ("can you
    # remind me how we're fixed for the ewes?", "remind me what the budget was": a question about what is known)
    _rule(r"(?:(?:^(?:\W*(?:also|and|oh|ok(?:ay)?|so|hey|btw|actually|one more thing|quick one|just)\b)*\W*|"
          r"\b(?:please|pls|you|you to)\s+)(?:remind me(?!\s+(?:how|what|where|who|whom|which|why|whether|if)\b)|"
          r"keep track (?:that|of)|(?:make a )?note (?:that|of))|"
          r"(?:don'?t|do not) let me forget|make sure i|help me remember|i (?:must|need to|have to) remember)\b"
          r"(?:\s+(?:to|about|that|of))?"
          rf"(?:\s+(?:i|we)\s+(?:still\s+)?{_OBLIGE})?\s+{_TASK}(?P<x>[a-z].+)", asks=True),
    _rule(r"\bstill (?:need|needs|have|has) to (?P<x>.+)"),
    _rule(rf"(?:^|\b(?:i|we)(?=\s|'|’)\s*(?:really\s+|still\s+|also\s+|definitely\s+)?){_OBLIGE}\s+{_TASK}"
          r"(?P<x>[a-z]+\b.+)"),
    _rule(r"^(?:i |we )?(?:still )?need (?P<x>(?:[\w-]+'s\s+)?(?:approval|sign-?off|signature|go-ahead|green light|"
          r"answer|reply|feedback|input|quotes?|confirmation|review|ok|okay)\b.+)"),
    _rule(rf"\b(?:i'll|i’ll|i will|we'll|we’ll|we will|i'm going to|i’m going to|we're going to|i'm gonna)\s+"
          rf"{_TASK}(?P<x>[a-z].+\b(?:{DEADLINE}|next week|this week|next month)\b.*)"),
    _rule(rf"\b(?:i|we) (?:said|told [\w-]+)(?: that)? (?:i|we)(?:'d|’d| would|'ll|’ll| will) {_TASK}(?P<x>[a-z].+)"),
    _rule(r"\b(?:i|we) (?:promised|committed|agreed|owe [\w-]+)\s+(?:to |that )?"
          rf"(?:(?:i|we)(?:'d|’d| would|'ll|’ll| will) )?{_TASK}(?P<x>[a-z].+)"),
    _rule(r"\b(?:i'm|i’m|i am|we're|we’re|we are) (?:supposed|meant|expected|on the hook) (?:to|for) (?P<x>.+)"),
    _rule(r"\b(?:[A-Z][\w-]+|they|she|he) (?:wants|asked|needs|expects) (?:me|us) to "
          r"(?!(?:own|lead|run|manage|chair|head|be)\b)(?P<x>.+)"),   # a task, not a role
    _rule(r"\b(?:still |is |are )?pending\b"),
    _rule(r"\b(?:still )?waiting (?:on|for)\b"),
    _rule(r"\bstill (?:open|undecided|outstanding|unresolved|to be decided)\b"),
    _rule(r"\bstill (?:isn'?t|is not|hasn'?t been|has not been|aren'?t|are not|haven'?t been|not) [a-z]+"),
    _rule(rf"\b(?:i'll|i’ll|i will|we'll|we’ll|we will|i'm going to|we're going to|i need to|we need to|i have to|"
          rf"we have to|i must|we must|(?:can|could|would) you|please)\s+{_TASK}(?P<x>.+?\b(?:by|before)\s+"
          rf"(?:{DEADLINE})[^,.;?!]*)", asks=True),
]
_LIST_ADD = re.compile(r"\b(?:put|add|stick)\s+(?P<x>['‘\"“][^'’\"”\n]{4,120}['’\"”]|[^.!?\n]{4,120}?)\s+"
                       r"(?:on|to)\s+(?:my|the)\s+(?:to-?do\s+|todo\s+)?list\b", re.IGNORECASE)
# hypotheticals and musings: "if we shipped weekly …", "maybe I should …", "in theory …", "I'd rather …"
_HYPOTHETICAL = re.compile(
    r"^(?:if|suppose|supposing|imagine|assuming|say|ideally)\b|\b(?:let'?s say|let us say|in a perfect world|"
    r"(?:i|we) feel like|sometimes i)\b|\b(?:if (?:i|we|you|they|he|she|it)|what if|would|could|"
    r"might|maybe|perhaps|in theory|theoretically|hypothetically|i guess|i wonder|wondering|someday|one day|"
    r"thinking (?:about|of)|considering|(?:i|we) should|should (?:i|we))\b|\b(?:i|we|you|they)(?:'d|’d)\b",
    re.IGNORECASE)
# what the hypothetical check does not count: a request ("could you …") and a promise reported ("I promised I'd …")
_NOT_HYPOTHETICAL = re.compile(r"\b(?:can|could|would|will) you\b|\b(?:promised|committed|agreed|told [\w-]+|"
                               r"said)(?: that)? (?:i|we)(?:'d|’d| would)\b", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:no need|don'?t need|doesn'?t need|don'?t have to|not pending|no longer|"
                      r"nothing (?:is )?pending|not going to|won'?t|never)\b", re.IGNORECASE)
# a question that asks the assistant to do something ("Could you nudge me to …?", "Can u keep tabs on this for me: …?"):
# read like a statement, the commitment model telling a task to keep from help asked for now ("Could you tell me …?")
_REQUEST = re.compile(r"^\W*(?:(?:oh|so|and|also|ok(?:ay)?|hey|btw|quick one)\W+)*(?:(?:can|could|would|will) (?:you|u)|"
                      r"please|pls)\b", re.IGNORECASE)
# a to-do declined where it is said ("No need to remind me about the bins", "Don't bother chasing Ana"): none
_DECLINED = re.compile(r"^\W*(?:(?:oh|so|and|but|ok(?:ay)?|well|honestly)\W+)*(?:there'?s\s+)?(?:no need|no point|"
                       r"(?:i |we )?(?:don'?t|do not) (?:need|have) to|(?:don'?t|do not) bother|not worth)\b",
                       re.IGNORECASE)
_LABEL = re.compile(r"^(?:still open|open|logged|noted|decision|next|reminder|risk|status|update|to-?do|todo)\s*:\s*",
                    re.IGNORECASE)
_CLAUSE_END = re.compile(r",?\s+(?:and |but |so )(?:i|we|she|he|it|they|you)\b|,\s+(?:i|we|she|he|it|they|you|which|"
                         r"since|because)\b|\s[—–]\s|;", re.IGNORECASE)

# resolution evidence: said done (a verb in the past, or a word that says so), and nothing in the sentence says it
# is not (yet): no negation, no future, no plan, no condition
_DONE = re.compile(
    r"\b(?:done|finished|completed?|sorted|all set|taken care of|dealt with|handled|wrapped up|"
    r"out the door|ticked off|crossed off|(?:i|we|he|she|they) did|went (?:out|through|live|off|over|to)|is live|"
    r"all (?:good|clear|fine)|(?:put|turned|handed|sent|got)(?: [\w'’-]+){0,5} (?:in|off|over)(?= |$|[.,;!])|(?:is|are|'s|’s) (?:now )?(?:out|live)|came (?:through|back)|heard back|got back|(?:has|have|got) (?:[\w'’-]+ ){0,4}now)\b",
    re.IGNORECASE)
_NOT_DONE = re.compile(
    r"\b(?:not|never|yet|still|pending|waiting|will|going to|gonna|need|needs|should|must|remind|reminders?|"
    r"to-?do|todo|tomorrow|tonight|target|due|plan|planning|if|until|once|almost|nearly|partly|about to|"
    r"hopefully|hope|hoping|want to|wanna|try to|trying to|supposed to|meant to|later|soon|maybe|might|"
    r"started|starting|began|begun|half|halfway|partially|part of|some of|most of|in progress|working on|"
    r"for (?:\w+ )?(?:sign-?off|approval|review|signature)|to (?:sign|approve|review)|"
    r"would|could)\b|n't\b|n’t\b|'ll\b|’ll\b|'d\b|’d\b",
    re.IGNORECASE)
# a thing sent to the person is not the person's sending it
_TO_ME = re.compile(r"\b(sent|gave|emailed|mailed|forwarded|handed|passed|returned)\s+(?:me|us)\b", re.IGNORECASE)
_SCHEDULE = re.compile(rf"^(?:{DEADLINE}|by\s+\w+)[^:]{{0,20}}:", re.IGNORECASE)   # "Friday 27 Nov: …" is a plan
_DONE_WORDS = frozenset({"do", "did"})
_COMPLETION = frozenset(key(w) for w in COMPLETION_ACTS)
# "… before it can go live": when the loop is due, not what it is (its words may still show it done: "it's live")
_SUBORDINATE = re.compile(r"\s+(?:before|until|so that|because|since|once|as soon as)\s+(?:i|we|she|he|it|they|you|"
                          r"anything|anyone|this|that)\b.*$", re.IGNORECASE)
_FILLER = re.compile(r"\b(?:at some point|some time|sometime|asap|as soon as possible)\b", re.IGNORECASE)
#: words that mark a loop as a loop, not what it is about ("Pending: …", "still waiting on …")
_MARKER_KEYS = frozenset({"pend", "wait", "todo", "to-do", "remind", "reminder"})


@dataclass
class Candidate:
    text: str
    due: str | None
    turn: StoredTurn
    stems: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.stems = loop_stems(self.text)


@dataclass
class Closure:
    loop_id: int
    turn: StoredTurn
    evidence: str
    by: str          # rules | llm


def loop_stems(text: str) -> set[str]:
    """What a loop is about: the lemma keys of its content words, without times ("by Friday") or the words
    that only mark it as a loop ("pending")."""
    return set(_loop_stems(text))


@memo_text()
def _loop_stems(text: str) -> frozenset[str]:
    """`loop_stems`, kept for the latest texts: every run reads the user's loops and each turn's text again."""
    return frozenset(content_keys(_FILLER.sub(" ", _SUBORDINATE.sub("", text))) - _DONE_WORDS - _MARKER_KEYS)


@memo_text()
def _all_stems(text: str) -> frozenset[str]:
    """A loop's words with its subordinate clause ("before it goes live"): evidence may name those too."""
    return frozenset(content_keys(_FILLER.sub(" ", text)) - _DONE_WORDS - _MARKER_KEYS)


def consolidate_loops(clients: MemoryClients, info: SessionInfo, new_turns: list[StoredTurn]) -> None:
    """Consolidation step: raise the session's new loops, close the ones its new turns show done."""
    if not new_turns:
        return
    store, cfg = clients.store, clients.config
    episode = store.session_episode(info.user_id, info.session_id)
    workstream_id = episode.workstream_id if episode else None
    context = _previous_turn(clients, info, new_turns[0])
    open_loops = store.loops(info.user_id, "open")
    closed = store.recent_closed_loops(info.user_id, new_turns[0].ts - cfg.loops.dedup_days * 86_400)

    candidates = closures = None
    if clients.llm.enabled():
        candidates = clients.llm.run(_detect_llm(clients.llm, new_turns, context))
        closures = clients.llm.run(_resolve_llm(clients.llm, open_loops, new_turns)) if open_loops else []
    judge = learned.judge_for(clients.embedder(), cfg.consolidation.learned_models_path) if cfg.consolidation.learned else None
    detector = "llm" if candidates is not None else "learned" if judge is not None else "rules"
    replies = learned.Replies(judge, new_turns) if judge is not None and cfg.loops.read_replies else None
    if candidates is None:
        candidates = [c for t in new_turns for c in (detect_learned(t, judge, cfg, replies) if judge is not None
                                                     else detect_rules(t))]
    rules_close = closures is None

    known = [(lp, loop_stems(lp.text)) for lp in open_loops + closed]
    done_ids = {lp.id for lp in closed}
    closed_now: set[int] = set()
    for closure in closures or []:
        _close(clients, info, closure)
        closed_now.add(closure.loop_id)
    meaning = _Meaning(clients)
    threads = learned.ThreadVectors(clients.store, info.user_id)
    previous = context
    for turn in new_turns:
        if rules_close and judge is not None:
            for done, quote in learned_closures(judge, turn, info, [lp for lp, _ in known if lp.id not in done_ids
                                                                    and lp.id not in closed_now], cfg, threads,
                                                replies):
                _close(clients, info, Closure(done.id, turn, quote, "learned"))
                closed_now.add(done.id)
        lemma_close = rules_close and (judge is None or rule_on("loops.lemma_close"))
        for said in done_statements(turn, previous) if lemma_close else []:
            eligible = [(lp, stems) for lp, stems in known   # open, raised before, sharing a word with it
                        if lp.id not in done_ids and lp.id not in closed_now and _later(turn, lp)
                        and _all_stems(lp.text) & said.keys]
            lp = best_evidence_match(said, eligible, cfg, meaning.similarities(said.sentence, eligible))
            if lp is not None:   # one statement closes one loop: the one it covers best
                _close(clients, info, Closure(lp.id, turn, said.quote, "rules"))
                closed_now.add(lp.id)
        for c in (c for c in candidates if c.turn.id == turn.id):
            match = _same_loop(c, known, cfg) if rule_on("loops.same_loop") else None
            if match is not None:
                if match.status == "open" and match.id not in closed_now:
                    store.mention_loop(match.id, turn.ts)
                continue
            if turn.role == "assistant":
                continue   # the assistant's recap may restate a loop; its suggestions never raise one
            loop_id = store.insert_loop(NewLoop(
                user_id=info.user_id, session_id=info.session_id, workstream_id=workstream_id, text=c.text,
                due=c.due, detector=detector,
                source_ids=[turn.id], origin=_origin(info.session_id, turn.id, c.text), created_at=turn.ts))
            if loop_id is not None:
                log.info("open loop %s raised in %s: %s", loop_id, info.session_id, c.text)
                known.append((store.loops(info.user_id, "open", ids=[loop_id])[0], c.stems))
        previous = turn


# --- learned -------------------------------------------------------------------------------------------

def detect_learned(turn: StoredTurn, judge: learned.SentenceJudge, cfg: Config,
                   replies: learned.Replies | None = None) -> list[Candidate]:
    """The loops a person's turn raises: the sentences the commitment model puts over the line, else (the
    answer taking the turn as a to-do) its likeliest one at `Config.loops.reply_commitment_line`."""
    if turn.role in ASSISTANT_ROLES:
        return []
    said = sentences(_unquoted_if_on(without_notes(turn.content)))
    if not said:
        return []
    head = judge.head("commitment")
    line = cfg.loops.commitment_line if cfg.loops.commitment_line is not None else head.threshold if head else 1.0
    # a question takes nothing on, unless it asks the assistant to do something (`loops.request`)
    statements = [s for s in said if not s.rstrip().endswith("?") or (rule_on("loops.request") and _REQUEST.search(s))]
    scores = dict(zip(statements, judge.scores(statements)["commitment"], strict=True)) if statements else {}
    explicit = {s for s in said if rule_on("loops.explicit_cues") and explicit_to_do(s)}
    raised = [s for s in said if (scores.get(s, 0.0) >= line or s in explicit)
              and not (rule_on("loops.declined") and _DECLINED.search(s))
              and not (rule_on("loops.musing") and MUSING.search(s))]
    if not raised and replies is not None and (
            len(scores) < len(said) or max(scores.values(), default=0.0) >= cfg.loops.reply_commitment_line
    ) and replies.says(turn, "reply_todo"):
        # the answer takes the turn as a to-do: its likeliest sentence, a question asking for one too
        asked = [s for s in said if s not in scores]
        if asked:
            scores.update(zip(asked, judge.scores(asked)["commitment"], strict=True))
        likeliest = max(scores, key=scores.__getitem__) if scores else None
        if likeliest is not None and scores[likeliest] >= cfg.loops.reply_commitment_line:
            raised = [likeliest]
    if raised and replies is not None and (todo := replies.probability(turn, "reply_todo", whole=True)) is not None \
            and todo < cfg.loops.reply_veto_line:
        # the answer acknowledges no to-do (a recap asked for): only a sentence the model is sure of stands
        raised = [s for s in raised if scores.get(s, 0.0) >= cfg.loops.reply_veto_sure]
    out: list[Candidate] = []
    for sentence in raised:
        text = loop_text(sentence)
        if len(loop_stems(text)) >= 1 and len(text) >= 8:
            due = _DUE.search(sentence)
            out.append(Candidate(text, due.group(0) if due else None, turn))
    return out


#: the to-dos that say they are ones, word for word (the first rules of `_RULES`, and `_LIST_ADD`)
_EXPLICIT = 4
_PROMISE_BY = 7   # "I'll send the model to Sarah by Friday": a promise with a deadline


def explicit_to_do(sentence: str) -> bool:
    """A sentence that names itself a to-do or asks to be reminded (an exact cue, whatever the model says)."""
    if _LIST_ADD.search(sentence):
        return True
    if sentence.rstrip().endswith("?") and not _REQUEST.search(sentence):
        return False
    if _NEGATED.search(sentence) or _HYPOTHETICAL.search(_NOT_HYPOTHETICAL.sub(" ", sentence)):
        return False
    return any(rule.pattern.search(sentence) for rule in (*_RULES[:_EXPLICIT], _RULES[_PROMISE_BY]))


def learned_closures(judge: learned.SentenceJudge, turn: StoredTurn, info: SessionInfo, open_loops: list[Loop],
                     cfg: Config, threads: learned.ThreadVectors | None = None,
                     replies: learned.Replies | None = None) -> list[tuple[Loop, str]]:
    """The open loops a person's turn reports done, by the pair model: per sentence past the completion gate,
    the loop it most likely closes over the line (one each; the sentence is the evidence), else (the answer
    taking the turn as a to-do done) the likeliest pair at `Config.loops.reply_closes_line`."""
    if turn.role in ASSISTANT_ROLES:
        return []
    eligible = [lp for lp in open_loops if _later(turn, lp)]
    said = [s for s in sentences(_unquoted_if_on(without_notes(turn.content)))
            if not (rule_on("loops.question_closes_nothing") and s.rstrip().endswith("?"))]
    head = learned.pair_head(judge.models, "closes", len(CLOSES_FEATURES))
    if not eligible or not said or (head is None and not learned.recording()):
        return []
    line = (cfg.loops.closes_line if cfg.loops.closes_line is not None else head.threshold) if head is not None else 2.0
    vectors = np.asarray(judge.embedder.embed(said), np.float32)
    scores = judge.scores(said, vectors)
    loop_vectors = np.asarray(judge.embedder.embed([lp.text for lp in eligible]), np.float32)
    out: list[tuple[Loop, str]] = []
    taken: set[int] = set()
    answered_done = replies is not None and replies.says(turn, "reply_done")
    likeliest: tuple[float, Loop, str] | None = None
    done_head = judge.head("completion")
    gate = (cfg.loops.completion_gate if cfg.loops.completion_gate is not None
            else done_head.threshold if done_head is not None else 0.0)
    loop_texts = [lp.text for lp in eligible]
    same_session = [lp.session_id == info.session_id for lp in eligible]
    age_days = [(turn.ts - lp.created_at) / 86_400 for lp in eligible]
    thread_cosines: list[float | None] | None = None   # read once a sentence passes the gate
    for i, sentence in enumerate(said):
        if scores["completion"][i] < gate and not answered_done:
            continue   # a statement about the loop's people or things, not a report of it done
        if thread_cosines is None:
            thread_cosines = [None if threads is None else threads.cosine(info.session_id, lp.session_id)
                              for lp in eligible]
        rows = closes_rows(sentence, turn.content, loop_texts, loop_vectors @ vectors[i],
                           completion=float(scores["completion"][i]), commitment=float(scores["commitment"][i]),
                           same_session=same_session, age_days=age_days, thread_cosines=thread_cosines)
        learned.record("closes", rows, [turn.id], [lp.source_ids for lp in eligible], f"{turn.id}/{i}", sentence)
        if head is None:
            continue
        p = head.probability(np.stack(rows))
        best = int(np.argmax(p))
        if p[best] >= line and eligible[best].id not in taken:
            taken.add(eligible[best].id)
            out.append((eligible[best], f"{turn.speaker or turn.role}: {sentence}"))
        elif likeliest is None or p[best] > likeliest[0]:
            likeliest = (float(p[best]), eligible[best], sentence)
    if answered_done and not out and likeliest is not None and likeliest[0] >= cfg.loops.reply_closes_line:
        out.append((likeliest[1], f"{turn.speaker or turn.role}: {likeliest[2]}"))
    return out


#: what the pair model reads about a sentence and an open loop (`closes_features`); the model: learned.py
CLOSES_FEATURES = ("cosine", "best_cosine", "cosine_margin", "loop_cover", "shared_keys", "shared_names",
                   "object_named", "completion", "commitment", "same_session", "age_days", "open_loops",
                   "thread_cosine", "has_thread")


def closes_features(sentence: str, context: str, loop_text: str, *, cosine: float, best_other: float,
                    completion: float, commitment: float, same_session: bool, age_days: float,
                    open_loops: int, thread_cosine: float | None = None) -> np.ndarray:
    """How a sentence of a turn (`context`: the whole turn) and one open loop meet (`CLOSES_FEATURES`);
    `thread_cosine`: how alike the two sessions' threads are (None when either has none yet)."""
    said = loop_stems(sentence)
    around = loop_stems(context) | said
    loop = loop_stems(loop_text)
    shared = loop & around
    names = {w.lower() for w in re.findall(r"(?<=\w )[A-Z][\w'’-]+", f"x {loop_text}")}
    said_names = {w.lower() for w in re.findall(r"[A-Z][\w'’-]+", context)}
    return np.array([
        cosine, float(cosine >= best_other), cosine - best_other,
        len(shared) / max(1, len(loop)), min(4, len(loop & said)) / 4, float(bool(names & said_names)),
        float(_names_object(loop_text, around)), completion, commitment, float(same_session),
        min(1.0, np.log1p(max(0.0, age_days)) / 5), min(1.0, np.log1p(open_loops) / 4),
        0.0 if thread_cosine is None else thread_cosine, float(thread_cosine is not None),
    ], np.float32)


def closes_rows(sentence: str, context: str, loop_texts: Sequence[str], cosines: np.ndarray, *, completion: float,
                commitment: float, same_session: Sequence[bool], age_days: Sequence[float],
                thread_cosines: Sequence[float | None]) -> list[np.ndarray]:
    """One sentence's `closes_features` row against each open loop; `cosines`: its cosine with each loop's text,
    the others' best being what each is measured against."""
    rows = []
    for k, loop in enumerate(loop_texts):
        other = float(np.max(np.delete(cosines, k))) if len(loop_texts) > 1 else 0.0
        rows.append(closes_features(
            sentence, context, loop, cosine=float(cosines[k]), best_other=other, completion=completion,
            commitment=commitment, same_session=same_session[k], age_days=age_days[k], open_loops=len(loop_texts),
            thread_cosine=thread_cosines[k]))
    return rows


_LEAD_IN = re.compile(rf"^(?:\W*{LEAD_IN_PATTERN}\b[\s,:;.!-]*)+", re.IGNORECASE)


def loop_text(sentence: str) -> str:
    """What a to-do sentence asks done: the object a rule finds ("remind me to X" → X), else the sentence
    without its lead-in words, cleaned as a loop's text is."""
    if not rule_on("loops.object_text"):
        return _clean(sentence)
    if (added := _LIST_ADD.search(sentence)) is not None:
        return _clean(added.group("x").strip("'‘’\"“”"))
    for rule in _RULES:
        m = rule.pattern.search(sentence)
        if m is not None and "x" in m.groupdict() and m.group("x") and loop_stems(text := _clean(m.group("x"))):
            return text   # an object of no content words is none: the next reading may find one
    return _clean(_LEAD_IN.sub("", sentence)) or _clean(sentence)


# --- rules ---------------------------------------------------------------------------------------------

def detect_rules(turn: StoredTurn) -> list[Candidate]:
    """The loops a turn raises by the rules (at most one per sentence; docs/consolidation.md, "Loops that
    close"): never a hypothetical, a musing or a question (except a request: "can you remind me to …?")."""
    out: list[Candidate] = []
    content = without_notes(turn.content)  # "[shares an image: …]" is nothing to do
    for added in _LIST_ADD.finditer(content):   # "put 'book the caterer' on my list": a quoted to-do, the person's
        text = _clean(added.group("x").strip("'‘’\"“”"))
        if loop_stems(text) and len(text) >= 8:
            out.append(Candidate(text, None, turn))
        content = content.replace(added.group(0), " ")
    for sentence in sentences(_unquoted(content)):
        if _NEGATED.search(sentence) or _HYPOTHETICAL.search(_NOT_HYPOTHETICAL.sub(" ", sentence)):
            continue
        for rule in _RULES:
            m = rule.pattern.search(sentence)
            if m is None:
                continue
            if sentence.rstrip().endswith("?") and not rule.asks:
                break   # "is it still pending?" asks, it does not say
            text = _clean(m.group("x") if "x" in m.groupdict() else sentence)
            if len(loop_stems(text)) >= 1 and len(text) >= 8:
                due = _DUE.search(text)
                out.append(Candidate(text, due.group(0) if due else None, turn))
            break
    return out


# a quoted passage ("proofread this: 'I need to send the invoice by Friday'") is someone else's words, not the person's
_QUOTED = re.compile(r"(?<![\w])['‘\"“](?=\S)[^\n]{12,}?(?<=\S)['’\"”](?![\w])")


def _unquoted(text: str) -> str:
    return _QUOTED.sub(" … ", text)


def _unquoted_if_on(text: str) -> str:
    return _unquoted(text) if rule_on("loops.quoted") else text


def _clean(text: str) -> str:
    text = _LABEL.sub("", text.strip())
    text = re.sub(r"^([^:]{3,40}):\s+(?=still|pending|waiting)", r"\1 ", text)   # "Sensitivity table: still …"
    if (cut := _CLAUSE_END.search(text)) is not None and cut.start() >= 12:
        rest = re.sub(r"^[\s,;—–]*(?:(?:and|but|so)\s+)?", "", text[cut.start():], flags=re.IGNORECASE)
        if not loop_stems(text[: cut.start()]) and loop_stems(rest):
            return _clean(rest)   # a lead-in with nothing to do in it: "just a quick one before I forget, it's on me …"
        text = text[: cut.start()]
    text = re.sub(r"^(?:i|we) (?:still )?(?:need|have|'ve got|’ve got|got) to\s+", "", text, flags=re.IGNORECASE)
    text = " ".join(text.split()).rstrip(" .,;:!?")
    text = re.sub(r"(?:,?\s+(?:please|for me|thanks|thank you))+$", "", text, flags=re.IGNORECASE)
    if len(text) > 160:
        text = text[:157].rsplit(" ", 1)[0] + "…"
    return text


@dataclass
class DoneStatement:
    """A sentence that says something was done: what it is about (`keys`), the keys of its verbs in the past
    (`acts`: what was done), whether a word says so outright ("done", "finished"), and the quote."""
    sentence: str
    keys: set[str]
    acts: set[str]
    explicit: bool
    quote: str
    context: set[str] = field(default_factory=set)   # the words of the rest of its turn


def done_statements(turn: StoredTurn, previous: StoredTurn | None) -> list[DoneStatement]:
    """The sentences of a person's `turn` that report something done and nothing that says not (yet); a short
    answer ("I did!") is read with the question it answers (the last question of the turn before)."""
    if turn.role == "assistant":
        return []
    out = []
    context: set[str] | None = None   # the turn's words: the same for each of its sentences
    for sentence in sentences(_unquoted(turn.content)):
        tokens = words(sentence)
        to_me = {m.group(1).lower() for m in _TO_ME.finditer(sentence)}   # "the landlord sent me the lease"
        acts = {key(w) for w in tokens if is_past(w) and w.lower() not in to_me}
        explicit = _DONE.search(sentence) is not None
        if ((not acts and not explicit) or _NOT_DONE.search(sentence)
                or (rule_on("loops.question_closes_nothing") and sentence.rstrip().endswith("?"))
                or _SCHEDULE.match(sentence)):
            continue
        said = loop_stems(sentence) | acts
        quote = f"{turn.speaker or turn.role}: {sentence}"
        if len(said - acts) < 1 and len(tokens) <= 4 and previous is not None:
            question = next((s for s in reversed(sentences(previous.content)) if s.endswith("?")), None)
            if question is None:
                continue
            said |= loop_stems(question)
            explicit = True
            quote += f' (answering: "{question}")'
        if context is None:
            context = loop_stems(_unquoted(turn.content))
        out.append(DoneStatement(sentence, said, acts, explicit, quote, set(context)))
    return out


def best_evidence_match(said: DoneStatement, loops: list[tuple[Loop, set[str]]], cfg: Config,
                        similarity: dict[int, float] | None = None) -> Loop | None:
    """The loop a done-statement reports done, if any, and the best one if several (ties go to the older
    loop), by lemma or by meaning (`similarity`: loop id → cosine); see docs/consolidation.md."""
    best, best_score = None, 0.0
    for lp, stems in sorted(loops, key=lambda x: (x[0].created_at, x[0].id)):
        if not stems:
            continue
        words_of_loop = _all_stems(lp.text)
        shared = len(words_of_loop & said.keys)
        if not shared:
            continue
        shared = len(words_of_loop & (said.keys | said.context))   # "Travel's sorted" names its trip elsewhere
        cover = min(1.0, shared / len(stems))
        cosine = (similarity or {}).get(lp.id, 0.0)
        own, generic_ok, explicit_ok = _acts_of(lp.text)
        did_it = (bool(said.acts & own) or (said.explicit and explicit_ok)
                  or (generic_ok and bool(said.acts & _COMPLETION)))
        by_lemma = did_it and shared >= min(2, len(stems)) and cover >= cfg.loops.resolve_overlap
        by_meaning = cosine >= cfg.loops.close_cosine and did_it
        score = cover + cosine
        if ((by_lemma or by_meaning) and score > best_score   # the object named: "booked the hotel" is not
                and _names_object(lp.text, said.keys | said.context)):   # "book flights for the summit"
            best, best_score = lp, score
    return best


_NOT_A_VERB = frozenset("a an the my our your his her their this that these those still is are was were".split())
_PARTICLES = frozenset("up out off back down over together".split())
_OBJECT_END = re.compile(r"\s(?:to|for|into|by|before|with|at|from|in|until|after|so|and|because|once|when)\s",
                         re.IGNORECASE)


def loop_object(text: str) -> set[str]:
    """The keys of what a to-do is done to, when the loop starts with its verb: "book flights for the summit" →
    {flight}; "get my notes on Gabe into the system" → {note, gabe}. Empty when the loop is not a verb phrase
    ("Dana's sign-off", "Still waiting on the quote"): then any of its words may stand for it."""
    tokens = words(text)
    if len(tokens) < 2 or tokens[0][0].isupper() or tokens[0].lower() in _NOT_A_VERB:
        return set()
    rest = text[text.find(tokens[0]) + len(tokens[0]):]
    rest = re.sub(rf"^\s+(?:{'|'.join(_PARTICLES)})\b", "", rest, flags=re.IGNORECASE)
    if (end := _OBJECT_END.search(rest)) is not None:
        rest = rest[: end.start()]
    return loop_stems(rest)


#: verbs that any act completing the thing may report done ("get my notes in" ← "submitted", "sent")
_LIGHT_VERBS = frozenset(key(w) for w in "get do make have take handle sort deal finish wrap tackle".split())
#: what was delivered was made: "feedback submitted" reports "write up my feedback" done
_MAKE_VERBS = frozenset(key(w) for w in "write draft prepare create build design fill finish complete update".split())
_DELIVER_ACTS = frozenset(key(w) for w in "send submit deliver file post publish hand ship".split())


def _acts_of(loop_text: str) -> tuple[set[str], bool, bool]:
    """What reports a loop done: (its own acts, whether any completing act may, whether "done"/"finished"
    may); the cases are in docs/consolidation.md, "Loops that close"."""
    tokens = words(loop_text)
    if loop_object(loop_text):
        verb = key(tokens[0])
        return {verb} | (_DELIVER_ACTS if verb in _MAKE_VERBS else set()), verb in _LIGHT_VERBS, True
    own = {key(NOMINAL[t.lower()]) for t in tokens if t.lower() in NOMINAL}
    return own, not own, not own


def _names_object(loop_text: str, said: set[str]) -> bool:
    obj = loop_object(loop_text)   # named: the same key, or one with a typo ("referneces" / "references")
    return not obj or any(o == w or (min(len(o), len(w)) >= 6 and SequenceMatcher(None, o, w).ratio() >= 0.85)
                          for o in obj for w in said)


class _Meaning:
    """Embedding cosines between a done-statement and loops (the embedder loaded only when one is needed)."""

    def __init__(self, clients: MemoryClients) -> None:
        self.clients = clients
        self.loops: dict[int, np.ndarray] = {}

    def similarities(self, sentence: str, loops: list[tuple[Loop, set[str]]]) -> dict[int, float]:
        if not loops or (embedder := self.clients.embedder()) is None:
            return {}
        missing = [lp for lp, _ in loops if lp.id not in self.loops]
        vectors = embedder.embed([sentence] + [lp.text for lp in missing])
        self.loops.update((lp.id, vectors[i + 1]) for i, lp in enumerate(missing))
        return {lp.id: float(np.dot(vectors[0], self.loops[lp.id])) for lp, _ in loops}


def _same_loop(c: Candidate, known: list[tuple[Loop, set[str]]], cfg: Config) -> Loop | None:
    """The stored loop this candidate says again, if any: most of the shorter one's words are in the other, and
    they are not due at different times ("the report by Friday" is not "the report by Monday")."""
    best, best_ratio = None, 0.0
    for lp, stems in known:
        shared, ratio = overlap(c.stems, stems)
        if shared >= min(2, len(c.stems), len(stems)) and ratio >= cfg.loops.duplicate_overlap and ratio > best_ratio:
            when_a, when_b = _when(c.due or c.text), _when(lp.due or lp.text)
            if when_a and when_b and not when_a & when_b:
                continue
            best, best_ratio = lp, ratio
    return best


_WHEN_WORD = re.compile(rf"\b(?:{_DAY}|{_MONTH}|tomorrow|tonight|today|\d{{1,2}})\b", re.IGNORECASE)


def _when(text: str) -> set[str]:
    """The day and date words of a deadline ("by Friday, 6 November" → friday, 6, nov)."""
    return {w.lower()[:3] for w in _WHEN_WORD.findall(text)}


def _later(turn: StoredTurn, lp: Loop) -> bool:
    """Evidence must come after the loop was raised."""
    return turn.ts > lp.created_at or (turn.ts == lp.created_at and turn.id > max(lp.source_ids, default=0))


def _previous_turn(clients: MemoryClients, info: SessionInfo, first: StoredTurn) -> StoredTurn | None:
    if first.seq == 0:
        return None
    before = clients.store.session_turns(info.user_id, info.session_id, from_seq=first.seq - 1)
    return before[0] if before and before[0].seq == first.seq - 1 else None


def _close(clients: MemoryClients, info: SessionInfo, closure: Closure) -> None:
    clients.store.close_loop(info.user_id, closure.loop_id, closed_by=closure.by, closed_at=closure.turn.ts,
                            session_id=info.session_id, evidence=closure.evidence, evidence_ids=[closure.turn.id])
    log.info("open loop %s closed by %s in %s: %s", closure.loop_id, closure.by, info.session_id, closure.evidence)


def _origin(session_id: str, turn_id: int, text: str) -> str:
    key = f"{session_id}\x00{turn_id}\x00{' '.join(text.lower().split())}"
    return hashlib.sha1(key.encode()).hexdigest()


# --- LLM -----------------------------------------------------------------------------------------------

def _render(turns: list[StoredTurn], context: StoredTurn | None = None) -> str:
    lines = []
    if context is not None:
        lines.append(f"(earlier) {context.speaker or context.role}: {context.content}")
    lines += [f"[{i}] {t.speaker or t.role}: {t.content}" for i, t in enumerate(turns, start=1)]
    return "\n".join(lines)


def _turn_of(item: dict[str, Any], turns: list[StoredTurn]) -> StoredTurn | None:
    number = item.get("turn")
    if isinstance(number, bool) or not isinstance(number, (int, float, str)):
        return None
    try:
        i = int(number)
    except ValueError:
        return None
    return turns[i - 1] if 1 <= i <= len(turns) else None


async def _detect_llm(client: llm.LLMClient, turns: list[StoredTurn],
                      context: StoredTurn | None) -> list[Candidate] | None:
    """Loops by the LLM; None when it failed (the rules take over), [] when it found none."""
    reply = await client.ask_json(DETECT_SYSTEM, _render(turns, context), purpose="open-loop detection",
                                  expect=list)
    if reply is None:
        return None
    out = []
    for item in reply:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str) or not item["text"].strip():
            log.info("open-loop detection: skipped a malformed item %r", item)
            continue
        turn = _turn_of(item, turns) or turns[-1]
        due = item.get("due") if isinstance(item.get("due"), str) and item.get("due") else None
        text = " ".join(item["text"].split())[:200]
        if loop_stems(text):
            out.append(Candidate(text, due, turn))
    return out


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[\"'“”‘’`]", "", text).lower().split())


async def _resolve_llm(client: llm.LLMClient, open_loops: list[Loop],
                       turns: list[StoredTurn]) -> list[Closure] | None:
    """Closures by the LLM, each checked: a loop it was shown, a later turn, and a quote found in that turn."""
    listing = "\n".join(f"- loop {lp.id}: {lp.text}" for lp in open_loops)
    user = f"Open loops:\n{listing}\n\nNew turns:\n{_render(turns)}"
    reply = await client.ask_json(RESOLVE_SYSTEM, user, purpose="open-loop resolution", expect=list)
    if reply is None:
        return None
    by_id = {lp.id: lp for lp in open_loops}
    out: list[Closure] = []
    for item in reply:
        if not isinstance(item, dict):
            continue
        turn = _turn_of(item, turns)
        quote = item.get("evidence")
        try:
            lp = by_id.get(int(item.get("loop")))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            lp = None
        if lp is None or turn is None or not isinstance(quote, str) or len(quote.split()) < 2:
            log.info("open-loop resolution: rejected %r (unknown loop or turn, or no quote)", item)
            continue
        if _normal(quote) not in _normal(turn.content) or not _later(turn, lp):
            log.info("open-loop resolution: rejected %r (the quote is not in that turn, or comes first)", item)
            continue
        out.append(Closure(lp.id, turn, f"{turn.speaker or turn.role}: {quote.strip()}", "llm"))
    return out
