"""The facts step of consolidation: extract → route → gate → referee → store; each stage, with an LLM and
without, in the table that opens docs/consolidation.md. Idempotent: a candidate from the same turns with the
same text is recognised and skipped.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections import Counter
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import numpy as np

from .. import llm
from ..heuristics import rule_on
from ..retrieve.fts import fts_query
from ..retrieve.standing import STANDING_TYPES, is_instruction
from ..store.records import Fact, NewFact, SessionInfo, StoredTurn
from . import learned
from .durable import ExemplarVote
from .episodes import unsettled_thread_vector
from .extract import (
    Candidate,
    classify_sentence,
    classify_statement,
    clean,
    extract_llm,
    extract_rules,
    find_entities,
    statements,
)
from .fact_types import FACT_TYPES
from .gate import DROPPED, NoveltySample, contradicts, lexical_similarity, passes_novelty, route
from .supersede import (
    SUPERSEDES_FEATURES,
    Slot,
    bare_name_correction,
    compare,
    frame,
    has_change_cue,
    holds_any,
    named_old_values,
    old_values_named,
    read_slot,
    rewrite_value,
    supersedes_features,
    values_differ,
)

if TYPE_CHECKING:
    from ..clients import MemoryClients

log = logging.getLogger(__name__)

REFEREE_SYSTEM = """You are the referee of a long-term memory. A new candidate fact is close to a fact already
stored. Rule on it:
- "add": it is a different fact; keep both.
- "update": it replaces the stored fact (a correction, a change, a newer decision); the stored one becomes history.
- "skip": it says the same thing as the stored fact.
Reply with JSON only: {"action": "add" | "update" | "skip", "reason": "a few words"}"""

PROFILE_SYSTEM = """You are the profile writer of a long-term memory. From the facts given about one person,
organisation or project, write a profile of 1-3 sentences: who or what it is, and what matters most about it now.
Use only the facts given. Reply with the profile text only."""


def consolidate_facts(clients: MemoryClients, info: SessionInfo, turns: list[StoredTurn]) -> None:
    """Consolidation step: the session's new turns become facts. When the session has ended, the LLM profiles of
    the entities its facts name are refreshed (once per session, not every 8 turns: they cost a call each)."""
    consolidator = FactConsolidator(clients, info.user_id, info, turns[-1].seq if turns else None)
    consolidator.run(info.session_id, turns)
    if info.status == "ended" and consolidator.use_llm:
        session_facts = consolidator.facts.facts(info.user_id, include_superseded=True, session_id=info.session_id)
        consolidator.refresh_profiles([f.id for f in session_facts])


class FactConsolidator:
    def __init__(self, clients: MemoryClients, user_id: str, info: SessionInfo | None = None,
                 until_seq: int | None = None) -> None:
        """`info`, `until_seq`: the session being consolidated and its last turn this run, whose thread is read from
        its turns so far while its episode has none yet (the episode step runs after this one)."""
        self.clients = clients
        self.config = clients.config
        self.user_id = user_id
        self.facts = clients.store
        self.embedder = clients.embedder()
        self.counts: Counter[str] = Counter()
        self.use_llm = _llm_usable(clients.llm)
        unsettled = ({info.session_id: lambda: unsettled_thread_vector(clients, info, until_seq)}
                     if info is not None and self.config.consolidation.unsettled_thread else None)
        self.threads = learned.ThreadVectors(clients.store, user_id, unsettled)
        self.replies: learned.Replies | None = None
        self._candidates: list[Candidate] = []
        self._answered: dict[int, Candidate] = {}   # turn id → the statement its answer speaks to

    # --- the pipeline ------------------------------------------------------------------------------------
    def session_speakers(self, session_id: str, turns: list[StoredTurn]) -> set[str]:
        """Who spoke in the session's recent turns before these: the people a name may address."""
        first = min(t.seq for t in turns)
        if first <= 0 or self.config.consolidation.participant_lookback <= 0:
            return set()
        before = self.facts.session_turns(self.user_id, session_id,
                                          from_seq=max(0, first - self.config.consolidation.participant_lookback), before_seq=first)
        return {t.speaker for t in before if t.speaker}

    def run(self, session_id: str, turns: list[StoredTurn]) -> list[int]:
        """Consolidate `turns` of one session; returns the ids of facts added."""
        if not turns:
            return []
        known = self.known_names()
        # with an LLM, an outage raises ExtractionFailed: the session stays flagged and is retried at next open
        candidates = (self.clients.llm.run(extract_llm(self.clients.llm, turns, known)) if self.use_llm
                      else extract_rules(turns, known, config=self.config,
                                         vote=None if self.embedder is None else ExemplarVote(
                                             self.embedder, self.config.consolidation.fact_exemplar_k),
                                         participants=self.session_speakers(session_id, turns),
                                         judge=self.judge()))
        candidates = self._candidates = _unique(candidates)
        models = self.learned_models()
        if models is not None and self.config.loops.read_replies and self.embedder is not None:
            self.replies = learned.Replies(learned.SentenceJudge(models, self.embedder), turns)
        vectors = self._embed([c.text for c in candidates])
        sample = NoveltySample(self.facts.current_fact_texts(self.user_id, self.config.consolidation.novelty_sample))
        added: list[int] = []
        for i, candidate in enumerate(candidates):
            fact_id = self.consider(candidate, session_id, None if vectors is None else vectors[i], sample)
            if fact_id is not None:
                added.append(fact_id)
                sample.append(candidate.text)
        self.facts.count_routes(self.user_id, dict(self.counts))
        return added

    def consider(self, c: Candidate, session_id: str, vector: np.ndarray | None,
                 sample: list[str] | NoveltySample) -> int | None:
        origin = _origin(c)
        if self.facts.has_fact_origin(self.user_id, origin):
            return None  # already consolidated from these very turns
        route_name, salience = route(c, self.config)
        # a correction that says little besides the value it replaces ("It's Alasdair, actually, not Owain."):
        # kept only as the change of the fact holding that value
        # (a text that short always reads as filler, `extract_rules` lets only these through)
        needs_target = route_name == DROPPED and bare_name_correction(c.said or c.text)
        if route_name == DROPPED and not needs_target:
            self.counts["dropped"] += 1
            return None
        sources = [t.id for t in c.sources]
        # one search serves the duplicate check (the nearest 8) and the change check's wider pool
        wide = self.nearest(c, vector, limit=self._pool_size(c))
        best, similarity = wide[0] if wide else (None, 0.0)
        supersedes = superseded_by = None
        change = None if self.use_llm else self.slot_change(c, wide, session_id, vector)
        if needs_target:
            if change is None:
                self.counts["dropped"] += 1   # a bare correction whose fact was not found says nothing alone
                return None
            route_name, salience = route(c, self.config, filler_ok=True)   # its text may be the old fact's now
        if change is not None:
            if change.created_at <= c.created_at:
                supersedes = change.id
            else:  # ingested late: older news than the fact it would replace
                superseded_by = change.id
        else:
            changes = best is not None and (
                (self.use_llm and contradicts(c.text, best.text, c.replaces))
                or not_a_restatement(c.said or c.text, best.text))
            novel, _ = passes_novelty(c, sample, self.config)
            if not novel and best is not None and not changes and similarity >= self.config.consolidation.supersede_cosine:
                self._bump(best, sources, "restated")
                return None
            if best is not None and similarity >= self.config.consolidation.duplicate_cosine and not changes:
                self._bump(best, sources, "duplicate")
                return None
            if best is not None:
                ruling = self.referee(c, best, similarity, changes)
                if ruling == "skip":
                    self._bump(best, sources, "duplicate")
                    return None
                if ruling == "update":
                    supersedes = best.id
        fact = NewFact(
            user_id=self.user_id, session_id=session_id, type=c.type, text=c.text, route=route_name,
            salience=salience, confidence=c.confidence, event_ts=c.event_ts, created_at=c.created_at,
            source_ids=sources, origin=origin, extractor=c.extractor,
        )
        fact_id = self.facts.insert_fact(fact, supersedes=supersedes, superseded_by=superseded_by)
        self.counts[route_name] += 1
        if supersedes is not None or superseded_by is not None:
            self.counts["superseded"] += 1
        if vector is not None and self.embedder is not None:
            self.clients.store.add_vectors(self.embedder.model_id, [
                ("fact", fact_id, self.user_id, session_id, c.created_at, vector.astype(np.float32).tobytes())])
        self.facts.link_entities(self.user_id, fact_id, c.entities)
        return fact_id

    # --- parts ---------------------------------------------------------------------------------------------
    @staticmethod
    def _cued(c: Candidate) -> bool:
        return c.cued or has_change_cue(c.said or c.text) or c.type == "correction" or c.replaces is not None

    def _pool_size(self, c: Candidate) -> int:
        """How many nearest current facts `consider` reads: 8, more for the change check."""
        if self.use_llm:
            return 8
        cc = self.config.consolidation
        return max(8, cc.slot_recent_facts if self._cued(c) else 8,
                   cc.supersede_candidates if self.learned_models() is not None else 8)

    def slot_change(self, c: Candidate, neighbours: list[tuple[Fact, float]], session_id: str,
                    vector: np.ndarray | None = None) -> Fact | None:
        """The current fact whose value this candidate changes (rules path; `consolidate/supersede.py`), or None.
        A bare correction ("Actually it's 14 not 12.") takes the old fact's words with the new value."""
        cfg = self.config
        said = c.said or c.text
        cued = self._cued(c)
        pool: dict[int, tuple[Fact, float]] = {}
        for f, s in neighbours:
            pool.setdefault(f.id, (f, s))
        extra: list[Fact] = []
        models = self.learned_models()
        answered_change = models is not None and self.answered("reply_change", c)
        answer = (learned.reply_opening(self.replies.answer(c.sources[-1]) or "")
                  if answered_change and self.replies is not None else None)   # the acknowledgement, not a list after it
        # the assistant's answer to a change often names its subject: its words find the old statement too
        for searched in (said, answer) if answer else (said,):
            if (match := fts_query(searched)) is not None:
                ids = [i for _, i, _ in self.clients.store.search_memories(match, self.user_id, limit=24,
                                                                           kinds=["fact"]) if i not in pool]
                extra.extend(self.facts.facts_by_id(self.user_id, ids, entities=False).values())  # neighbours: read
        if cued:
            extra.extend(self.facts.facts(self.user_id, limit=cfg.consolidation.slot_recent_facts, entities=False))
        for f in extra:
            if f.current and f.id not in pool:
                pool[f.id] = (f, lexical_similarity(said, f.text))
        best: tuple[float, Fact] | None = None
        restates_a_rule = cued or is_instruction(said)
        corrects = c.replaces is not None or _CORRECTS.search(said) is not None
        turn_ids = [] if corrects else sorted({i for f, _ in pool.values() for i in f.source_ids})
        speaker_of = self.clients.store.turn_heads(self.user_id, turn_ids).speaker_of() if turn_ids else {}
        mine = {t.speaker for t in c.sources}
        # what a change of one value needs of the statement itself, whichever fact it would change
        one_value = (one_slot(said, cfg.consolidation.supersede_max_words)
                     and all(short_turn(t.content, cfg.consolidation.learned_max_turn_words) for t in c.sources))
        eligible: list[Fact] = []
        admissible: list[Fact] = []   # past the checks of who said it and of standing rules, before the shape ones
        for f, sim in pool.values():
            if f.source_ids and set(f.source_ids) <= {t.id for t in c.sources}:
                continue  # the same turn
            if not corrects and rule_on("facts.another_persons") and _another_persons(
                    mine, {speaker_of.get(i) for i in f.source_ids}):
                continue   # one person's news replaces another's only to correct it (docs/consolidation.md)
            standing = rule_on("facts.standing_rule") and f.type in STANDING_TYPES and is_instruction(f.text)
            if standing and not restates_a_rule:
                continue   # a standing rule changes when said again or corrected (docs/consolidation.md)
            if standing and not cued and self.embedder is not None:
                # a rule said anew replaces one that reads the same with its values blanked, not another rule
                # on a near topic, however alike the words
                if values_differ(said, f.text):
                    fc = self.frame_cosine(said, f.text)
                    if fc >= cfg.consolidation.standing_frame_cosine and (best is None or 1.0 + fc > best[0]):
                        best = (1.0 + fc, f)
                continue
            if models is not None and vector is not None:
                admissible.append(f)
                if (one_value and one_slot(f.text, cfg.consolidation.supersede_max_words)
                        and not counts_a_part(said, f.text) and (cued or answered_change or shows_a_change(said, f.text))):
                    eligible.append(f)
                continue
            m = compare(said, f.text, cued=cued, min_overlap=cfg.consolidation.slot_overlap, cued_overlap=cfg.consolidation.slot_cued_overlap,
                        near=f.session_id == session_id, similar=vector is not None and sim >= cfg.consolidation.slot_cued_cosine)
            if not m.changes:
                continue
            score = m.score + sim + (cfg.consolidation.slot_session_bonus if f.session_id == session_id else 0.0)
            if best is None or score > best[0]:
                best = (score, f)
        olds = old_values(said, answer, cued or answered_change)
        specific = Slot(dates=olds.dates, names=olds.names)   # a number alone ("3 hours, not 2") is not specific
        if not olds.empty():
            # the old value is named ("…, not Bengaluru"): the fact replaced is one stating it, or none
            eligible = [f for f in admissible if holds_any(olds, f.text)]
        if not specific.empty() and len(eligible) == 1 and holds_any(specific, eligible[0].text):
            best = (3.0, eligible[0])
        elif models is not None and vector is not None and (target_or_none := self.learned_change(
                c, said, vector, eligible, session_id, answered_change or not specific.empty(), answer)) is not None:
            best = (3.0, target_or_none)
        if best is None:
            return self.earlier_statement(c, said, session_id) if cued and rule_on("facts.earlier_statement") else None
        target = best[1]
        if (cued and rule_on("facts.rewrite_value") and len(read_slot(c.text).subject) <= 1
                and (text := rewrite_value(said, target.text))):
            c.text = text
        if cued and c.type not in ("correction", "decision"):
            c.type = "correction"
        return target

    def judge(self) -> learned.SentenceJudge | None:
        """The sentence models for the rules path's keep-or-drop call (None: the exemplar vote decides)."""
        if not self.config.consolidation.learned or self.use_llm:
            return None
        judge = learned.judge_for(self.embedder, self.config.consolidation.learned_models_path)
        return judge if judge is not None and judge.head("durable") is not None else None

    def learned_models(self) -> learned.Models | None:
        """The learned models, when on and trained over this embedder (None: the rules decide)."""
        if not self.config.consolidation.learned or self.use_llm:
            return None
        models = learned.models_for(self.embedder, self.config.consolidation.learned_models_path)
        if models is None:
            return None
        usable = learned.pair_head(models, "supersedes", len(SUPERSEDES_FEATURES)) is not None
        return models if usable or learned.recording() else None

    def answered(self, head: str, c: Candidate) -> bool:
        """The assistant's answer to the candidate's turn takes it as `head` says (`learned.Replies`), and
        speaks to this candidate: the turn's likeliest change, or one giving a value the answer names."""
        if self.replies is None or not self.replies.says(c.sources[-1], head):
            return False
        turn = c.sources[-1].id
        if turn not in self._answered:
            mine = [x for x in self._candidates if x.sources[-1].id == turn]
            scores = self.replies.judge.scores([x.said or x.text for x in mine]).get("change")
            self._answered[turn] = mine[int(np.argmax(scores))] if scores is not None and len(mine) else c
        if self._answered[turn] is c:
            return True
        # or the answer names a value it gives: "Okay, the officiant is Haruto."
        return holds_any(read_slot(learned.reply_opening(self.replies.answer(c.sources[-1]) or "")), c.said or c.text)

    def learned_change(self, c: Candidate, said: str, vector: np.ndarray, facts: list[Fact],
                       session_id: str, taken_as_change: bool = False, answer: str | None = None) -> Fact | None:
        """The fact this statement gives a new value for, by the pair model (`supersede.supersedes_features`): the
        likeliest, over the trained line (lower, `reply_supersedes_line`, when taken as a change; higher,
        `news_supersedes_line`, for news)."""
        if not facts or self.embedder is None:
            return None
        models = self.learned_models()
        assert models is not None
        head = learned.pair_head(models, "supersedes", len(SUPERSEDES_FEATURES))
        judge = learned.SentenceJudge(models, self.embedder)
        change = float(judge.scores([said])["change"][0]) if "change" in models.heads else 0.0
        if answer:   # the statement as the answer restates it: "capping it at £8k" — "your car budget now £8k"
            said = f"{said} {answer}"
            vector = np.asarray(self.embedder.embed([said]), np.float32)[0]
        cos = np.asarray(self.embedder.embed([f.text for f in facts]), np.float32) @ np.asarray(vector, np.float32)
        frames = np.asarray(self.embedder.embed([frame(said)] + [frame(f.text) for f in facts]), np.float32)
        frame_cos = frames[1:] @ frames[0]
        rows = []
        for k, f in enumerate(facts):
            other = float(np.max(np.delete(cos, k))) if len(facts) > 1 else 0.0
            frame_other = float(np.max(np.delete(frame_cos, k))) if len(facts) > 1 else 0.0
            rows.append(supersedes_features(
                said, f.text, cosine=float(cos[k]), best_other=other, change=change,
                same_session=f.session_id == session_id, age_days=(c.created_at - f.created_at) / 86_400,
                thread_cosine=self.threads.cosine(session_id, f.session_id), frame_cosine=float(frame_cos[k]),
                frame_best_other=frame_other))
        learned.record("supersedes", rows, [t.id for t in c.sources], [f.source_ids for f in facts],
                       f"{c.sources[0].id}/{c.text[:40]}", said)
        if head is None:
            return None
        trained = self.config.consolidation.supersedes_line
        least = trained if trained is not None else head.threshold
        if taken_as_change:
            least = min(least, self.config.consolidation.reply_supersedes_line)
        elif not self._cued(c) and not self.reads_as_change(models, change):
            # said as news: two dates of one kind that differ are not one slot on that alone
            least = max(least, self.config.consolidation.news_supersedes_line)
        p = head.probability(np.stack(rows))
        best = int(np.argmax(p))
        return None if p[best] < least else facts[best]

    def reads_as_change(self, models: learned.Models, change: float) -> bool:
        """The change head takes the statement as a value changed, in whatever words ("Things have changed since
        we last spoke - …", "Typo'd that earlier: …"): no cue word needed (`news_change_line`)."""
        line = self.config.consolidation.news_change_line
        return "change" in models.heads and line <= 1 and change >= line

    def frame_cosine(self, a: str, b: str) -> float:
        """How alike two statements read with their values blanked (`supersede.frame`)."""
        assert self.embedder is not None
        va, vb = np.asarray(self.embedder.embed([frame(a), frame(b)]), np.float32)
        return float(va @ vb)

    def earlier_statement(self, c: Candidate, said: str, session_id: str) -> Fact | None:
        """A change with no fact of the old value (the statement was not kept, or said in passing): the earlier
        turn that stated it becomes a fact, dated when it was said, for the change to supersede."""
        cfg = self.config
        match = fts_query(said)
        if match is None:
            return None
        hits = self.clients.store.search_turns(match, self.user_id, limit=cfg.consolidation.slot_turn_search,
                                               until=c.created_at - 1e-6)
        turns = self.clients.store.turns_by_id(self.user_id, [i for i, _ in hits])
        own = {t.id for t in c.sources}
        best: tuple[float, StoredTurn, str] | None = None
        for turn_id, _ in hits:
            turn = turns.get(turn_id)
            if turn is None or turn.id in own:
                continue
            for sentence in statements(turn):
                m = compare(said, sentence, cued=True, min_overlap=cfg.consolidation.slot_overlap,
                            cued_overlap=cfg.consolidation.slot_cued_overlap, near=turn.session_id == session_id)
                if m.changes and (best is None or m.score > best[0]):
                    best = (m.score, turn, sentence)
        if best is None:
            return None
        _, turn, sentence = best
        fact_type, confidence = (classify_sentence(sentence, datetime.now(timezone.utc))
                                 or classify_statement(sentence) or ("knowledge", 0.6))
        text, _ = clean(sentence, fact_type)
        old = Candidate(text=text, type=fact_type, confidence=confidence, sources=[turn], said=sentence)
        origin = _origin(old)
        if self.facts.has_fact_origin(self.user_id, origin):
            return None
        route_name, salience = route(old, cfg)
        fact_id = self.facts.insert_fact(NewFact(
            user_id=self.user_id, session_id=turn.session_id, type=fact_type, text=text, route=route_name,
            salience=salience, confidence=confidence, event_ts=None, created_at=turn.ts, source_ids=[turn.id],
            origin=origin, extractor="rules"))
        self.facts.link_entities(self.user_id, fact_id, find_entities(text, self.known_names(), turn.speaker))
        self.counts["recovered"] += 1
        return self.facts.facts_by_id(self.user_id, [fact_id], entities=False).get(fact_id)

    def referee(self, c: Candidate, best: Fact, similarity: float, changes: bool) -> str:
        """add / update / skip for a candidate near a stored fact."""
        cfg = self.config
        supersedes_type = FACT_TYPES[c.type].supersedes or c.replaces is not None
        if self.use_llm and similarity >= cfg.consolidation.supersede_cosine:
            if self.learned_first_pass(c, best, similarity):
                self.counts["referee_learned"] += 1
                return "update"
            user = (f"Stored fact ({best.type}, {best.id}): {best.text}\n"
                    f"Candidate ({c.type}): {c.text}\n"
                    f"Said in: {' | '.join(t.content[:300] for t in c.sources)}")
            ruling = self.clients.llm.run(self.clients.llm.ask_json(REFEREE_SYSTEM, user, purpose="referee near-duplicate",
                                                                  expect=dict))
            action = str((ruling or {}).get("action", "")).strip().lower()
            if action in ("add", "update", "skip"):
                self.counts[f"referee_{action}"] += 1
                return action
            log.info("referee gave no usable ruling (%r); falling back to rules", ruling)
        if supersedes_type and changes and similarity >= cfg.consolidation.correction_reach:
            return "update"
        return "add"

    def learned_first_pass(self, c: Candidate, best: Fact, similarity: float) -> bool:
        """With an LLM, the referee's first pass: the supersedes model sure (`referee_learned_line`) that `c`
        gives a new value for `best` spares the LLM call."""
        cfg = self.config
        if not cfg.consolidation.learned or cfg.consolidation.referee_learned_line >= 1.0:
            return False
        models = learned.models_for(self.embedder, cfg.consolidation.learned_models_path)
        head = None if models is None else learned.pair_head(models, "supersedes", len(SUPERSEDES_FEATURES))
        if models is None or head is None or self.embedder is None:
            return False
        said = c.said or c.text
        change = float(learned.SentenceJudge(models, self.embedder).scores([said])["change"][0])
        features = supersedes_features(said, best.text, cosine=similarity, best_other=0.0, change=change,
                                       same_session=best.session_id == (c.sources[0].session_id if c.sources else ""),
                                       age_days=(c.created_at - best.created_at) / 86_400,
                                       frame_cosine=self.frame_cosine(said, best.text))
        return float(head.probability(features[None])[0]) >= cfg.consolidation.referee_learned_line

    def nearest(self, c: Candidate, vector: np.ndarray | None, limit: int = 8) -> list[tuple[Fact, float]]:
        """Current facts closest to the candidate, best first: by cosine, or by word overlap without an embedder.
        (Consolidation reads no stored fact's entities: facts are read here and in `slot_change` without them.)"""
        if vector is not None and (dense := self.clients.dense_index()) is not None:
            hits = dense.search(self.user_id, vector, limit * 2, kind="fact")
            facts = self.facts.facts_by_id(self.user_id, [h.item_id for h in hits], entities=False)
            scored = [(facts[h.item_id], h.similarity) for h in hits if h.item_id in facts]
        else:
            match = fts_query(c.text)
            if match is None:
                return []
            ids = [i for _, i, _ in self.clients.store.search_memories(match, self.user_id, limit=limit * 3,
                                                                       kinds=["fact"])]
            facts = self.facts.facts_by_id(self.user_id, ids, entities=False)
            scored = sorted(((f, lexical_similarity(c.text, f.text)) for f in facts.values()),
                            key=lambda x: x[1], reverse=True)
        return [(f, s) for f, s in scored if f.current][:limit]

    def _bump(self, fact: Fact, sources: list[int], why: str) -> None:
        """A repeat: +recurrence_bonus salience, never past the cap."""
        cc = self.config.consolidation
        already = cc.recurrence_bonus * (fact.recurrence - 1)
        self.facts.bump_fact(self.user_id, fact.id, sources, durable_floor=cc.durable_floor,
                             salience_add=max(0.0, min(cc.recurrence_bonus, cc.recurrence_cap - already)))
        self.counts[why] += 1

    def _embed(self, texts: list[str]) -> np.ndarray | None:
        if not texts or self.embedder is None:
            return None
        try:
            return self.embedder.embed(texts)
        except Exception:
            log.exception("embedding candidate facts failed; deduplicating by word overlap instead")
            return None

    def known_names(self) -> dict[str, str]:
        """Names the store already knows (speakers, entities and their aliases), lower-cased → canonical."""
        names = {name.lower(): name for name, _ in self.clients.store.speakers(self.user_id)}
        for entity in self.facts.entities(self.user_id):
            names[entity.name.lower()] = entity.name
            for alias in entity.aliases:
                names[alias.lower()] = entity.name
        return names

    def refresh_profiles(self, fact_ids: list[int]) -> None:
        """LLM profiles of the entities these facts name, rewritten (concurrently) when their set of durable
        facts changed since the profile was written."""
        due: list[tuple[int, str, list[Fact]]] = []
        for entity_id in self.facts.entities_of_facts(fact_ids):
            name, _profile, made_from = self.facts.profile_state(entity_id)
            facts = [f for f in self.facts.entity_facts(self.user_id, entity_id) if f.route == "durable"]
            if facts and sorted(f.id for f in facts) != sorted(made_from):
                due.append((entity_id, name, facts))
        if not due:
            return

        async def write_all() -> list[str | None]:
            return await asyncio.gather(*(self.clients.llm.ask(
                PROFILE_SYSTEM, f"Profile of: {name}\nFacts:\n" + "\n".join(f"- ({f.type}) {f.text}" for f in facts[:40]),
                purpose=f"profile {name}") for _, name, facts in due))

        for (entity_id, _name, facts), text in zip(due, self.clients.llm.run(write_all()), strict=True):
            if text:
                self.facts.set_profile(entity_id, " ".join(text.split()), sorted(f.id for f in facts))


def _llm_usable(client: llm.LLMClient) -> bool:
    """True with a working LLM configuration; a broken one is reported and the rules take over."""
    try:
        return client.enabled()
    except llm.LLMConfigError as exc:
        log.error("LLM configuration problem (%s); consolidating with the rule-based extractor", exc)
        return False


def _origin(c: Candidate) -> str:
    key = " ".join(c.text.lower().split()) + "|" + ",".join(sorted(str(t.id) for t in c.sources))
    return hashlib.sha1(key.encode()).hexdigest()


def _unique(candidates: list[Candidate]) -> list[Candidate]:
    """One candidate per text within a batch (the extractor may say the same thing twice)."""
    seen: dict[str, Candidate] = {}
    for c in candidates:
        key = " ".join(c.text.lower().split())
        if key in seen:
            seen[key].sources = list({t.id: t for t in [*seen[key].sources, *c.sources]}.values())
        else:
            seen[key] = c
    return list(seen.values())


def profile_text(facts: list[Fact], stored: str | None) -> str:
    """An entity's profile: the LLM's when there is one, else its durable facts."""
    if stored:
        return stored
    durable = [f for f in facts if f.route == "durable"] or facts
    durable = sorted(durable, key=lambda f: PROFILE_ORDER.index(f.type) if f.type in PROFILE_ORDER else 99)
    return " ".join(f.text if f.text.endswith((".", "!", "?")) else f.text + "." for f in durable[:8])


# Who someone is comes first in a profile; what they did last Tuesday, last.
PROFILE_ORDER = ["identity", "relationship", "preference", "decision", "correction", "commitment", "plan",
                 "knowledge", "event"]


# What says a value said before was wrong or has moved (across two people, a closing "now" is not enough)
_CORRECTS = re.compile(r"\b(?:actually|correction|scratch that|misspoke|i meant|rather than|instead of|no longer|"
                       r"(?:moved|pushed|changed|switched|rescheduled)\b[^.;!?]{0,30}\b(?:to|from)\b|wrong|"
                       r"not\s+[\w$€£.,:-]+\s*(?:[,.;!—–]|$))", re.IGNORECASE)


def old_values(said: str, answer: str | None, changing: bool) -> Slot:
    """The values said to be the replaced ones, by the statement (`supersede.named_old_values`; `changing`: it is
    said as a change) or by the assistant's answer taking it as one (`supersede.old_values_named`)."""
    found = ([old_values_named(answer, said)] if answer and rule_on("facts.answer_names_old") else []) + (
        [named_old_values(said, changing)] if rule_on("facts.statement_names_old") else [])
    return Slot().values(*found)


def shows_a_change(new: str, old: str) -> bool:
    """What a change of value needs besides being alike (without a change cue): a value of one kind in both
    that differs; two alike statements with no value between them are not one slot changed."""
    return not rule_on("facts.change_needs_a_value") or values_differ(new, old)


def one_slot(text: str, max_words: int) -> bool:
    """A statement short enough to be about one thing: a long one ("I'm trying to implement … considering … so
    I'd like …") holds many claims and values, and is neither a change of one nor changed as one."""
    return not rule_on("facts.long_statements") or len(text.split()) <= max_words


def short_turn(text: str, max_words: int) -> bool:
    """A turn short enough that its statements may change a value (not a long request with its context)."""
    return not rule_on("facts.long_turns") or len(text.split()) <= max_words


# "13 of the 14 slides", "3 out of 5 vendors": a count of a part of a whole the statement names
_PART_OF = re.compile(r"\b\d[\d,.]*\s+(?:of|out of)\s+(?:the|all|my|our|your|their|these|those)?\s*(\d[\d,.]*)\b", re.I)


def counts_a_part(new: str, old: str) -> bool:
    """`new` counts a part of a whole whose size is `old`'s number ("13 of the 14 slides are final" after "the deck
    needs 14 slides"): progress on it, no new value for it."""
    if not rule_on("facts.part_of_whole"):
        return False
    old_numbers = read_slot(old).numbers
    return any(read_slot(" " + m.group(1)).numbers & old_numbers for m in _PART_OF.finditer(new))


def not_a_restatement(new: str, old: str) -> bool:
    """However alike the words, a statement that gives another value of the same kind is news, not a repeat."""
    return rule_on("facts.values_differ") and values_differ(new, old)


def _another_persons(mine: set[str | None], theirs: set[str | None]) -> bool:
    """Both were said by one named person each, and not the same one."""
    mine, theirs = mine - {None}, theirs - {None}
    return len(mine) == 1 and len(theirs) == 1 and mine != theirs
