"""The episode step of consolidation: each session becomes one episode of 1-3 sentences.

    summary      the LLM's (when configured), else an extractive one: the session's most salient sentences
    keyphrases   what people stated and kept coming back to (names a workstream without an LLM)
    thread       the mean of the session's statement vectors, each weighted by how distinctive its words are in
                 the user's vocabulary (or a bag of words without an embedder), and the distinctive words
                 themselves (`episode_terms`): what workstreams are matched on (see `thread_vector`)
    recall       the summary in memory_fts (by trigger) and, with an embedder, its own vector (kind 'episode')

Each run rewrites the session's one episode over all of its turns: running it twice changes nothing.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .. import llm
from ..store.records import NewEpisode, SessionInfo, StoredTurn
from ..util import memo_text
from .distinct import SessionWords, is_statement, sentence_weights, session_words, turn_weights
from .extract import sentences as sentences_of
from .keyphrases import content_stems, keyphrases, lexical_vector, sentences, words
from .notes import without_notes

if TYPE_CHECKING:
    from ..clients import MemoryClients

log = logging.getLogger(__name__)

LEXICAL_MODEL = "lexical-1024"   # the thread vector's model when there is no embedder

SUMMARY_SYSTEM = """You write the episode summary for one conversation session, for a long-term memory.
Say in 1 to 3 sentences what the session was about: the topics, what was decided or changed, and what was left
open. Use names, not pronouns; past tense; no preamble. Do not invent anything that is not in the transcript.
Reply with JSON only: {"summary": "..."}"""

# cues that a sentence carries a decision, a change or a commitment (worth a place in an extractive summary)
_CUES = re.compile(
    r"\b(decided|decision|let'?s go with|we'?ll go with|go with|actually|confirmed|agreed|switch(?:ed)? to|"
    r"migrat\w*|chose|settled on|instead of|not \d+|need(?:s)? to|will|plan(?:ned)?|deadline|due|by (?:mon|tue|"
    r"wed|thu|fri|sat|sun)\w*|still|pending|open|remind)\b", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*•·▸]|\d{1,2}[.)])\s+")
_FACT_TYPES_THAT_MATTER = {"decision", "correction", "commitment", "plan"}


def consolidate_episode(clients: MemoryClients, info: SessionInfo, new_turns: list[StoredTurn]) -> None:
    """Consolidation step: create or update the session's episode."""
    store = clients.store
    turns = session_so_far(clients, info, new_turns[-1].seq if new_turns else None)
    if not turns:
        return
    facts = store.session_facts(info.user_id, [info.session_id]).get(info.session_id, [])
    names = [n for n, _ in store.speakers(info.user_id)]
    previous = store.session_episode(info.user_id, info.session_id)
    if previous is not None and previous.turns == len(turns) and previous.summary:
        summary = Summary(previous.summary, previous.summarizer, previous.source_ids)
    else:
        summary = summarize(clients.llm, turns, facts, clients.config.consolidation.episode_summary_sentences)
    # what people stated (not replies, questions, requests or a bracketed note's words) names the thread
    stated = [without_notes(t.content) for t in turns if is_statement(t)] or [without_notes(t.content) for t in turns]
    phrases = keyphrases(stated, names=names, limit=clients.config.consolidation.episode_keyphrases)
    said = session_words(turns, clients.config.workstreams.name_boost)
    vec, model = thread_vector(clients, info, turns, said, previous.id if previous is not None else None)
    episode_id, changed = store.upsert_episode(NewEpisode(
        user_id=info.user_id, session_id=info.session_id, summary=summary.text, summarizer=summary.summarizer,
        keyphrases=phrases, source_ids=summary.source_ids, turns=len(turns), started_at=turns[0].ts,
        ended_at=turns[-1].ts, vec=None if vec is None else vec.astype(np.float32).tobytes(), vec_model=model,
        terms={t: float(n) for t, n in said.tf.items()},
    ))
    _sync_recall_vector(clients, info, episode_id, changed, summary.text)


@dataclass
class Summary:
    text: str
    summarizer: str          # llm | extractive
    source_ids: list[int]


def summarize(client: llm.LLMClient, turns: list[StoredTurn], facts: list[dict], max_sentences: int = 3) -> Summary:
    """The LLM's summary when `client` has a model and it answers; the extractive one otherwise."""
    if client.enabled():   # the salient turns are the LLM's (without one they were scored for nothing, twice)
        salient = salient_turns(turns, facts)
        text = client.run(_llm_summary(client, turns, salient))
        if text:
            return Summary(text, "llm", [t.id for t in salient[:5]])
    return extractive_summary(turns, facts, max_sentences)


async def _llm_summary(client: llm.LLMClient, turns: list[StoredTurn], salient: list[StoredTurn],
                       budget: int = 12_000) -> str | None:
    """Ask for the summary over the whole transcript, or its most salient turns when it is too long."""
    chosen = turns
    if sum(len(t.content) + 20 for t in turns) > budget:
        keep, used = set(), 0
        for t in salient:
            if used + len(t.content) + 20 > budget:
                break
            keep.add(t.id)
            used += len(t.content) + 20
        chosen = [t for t in turns if t.id in keep]
    transcript = "\n".join(f"{t.speaker or t.role}: {t.content}" for t in chosen)
    reply = await client.ask_json(SUMMARY_SYSTEM, transcript, purpose="episode summary", expect=dict)
    text = reply.get("summary") if isinstance(reply, dict) else None
    if not isinstance(text, str) or not text.strip():
        return None
    kept = sentences(" ".join(text.split()))[:3]   # the contract is 1-3 sentences
    return " ".join(kept)[:700] or None


def salient_turns(turns: list[StoredTurn], facts: list[dict]) -> list[StoredTurn]:
    """The session's turns, most salient first (see `_sentence_scores`)."""
    best: dict[int, float] = {}
    for turn, _, score in _sentence_scores(turns, facts):
        best[turn.id] = max(best.get(turn.id, 0.0), score)
    return sorted((t for t in turns if t.id in best), key=lambda t: -best[t.id])


def _sentence_scores(turns: list[StoredTurn], facts: list[dict]) -> list[tuple[StoredTurn, str, float]]:
    """Each candidate sentence with its salience: the session's recurring content words it carries, lifted for
    a cue, for what the person (not the assistant) said, and for the turns facts were extracted from."""
    tf = Counter(s for t in turns for s in content_stems(t.content))
    fact_turns = {i for f in facts if f["type"] in _FACT_TYPES_THAT_MATTER for i in f["source_turns"]}
    out = []
    for turn in turns:
        for sentence, n_words, stems, cued in _candidate_sentences(turn.content):
            score = sum(math.log1p(min(tf[s], 8) - 1) for s in stems) / math.sqrt(len(stems) + 2)
            if cued:
                score *= 1.4
            if turn.role == "user":
                score *= 1.2
            if turn.id in fact_turns:
                score *= 1.3
            if n_words > 45:
                score *= 0.6
            out.append((turn, sentence, score))
    return out


@memo_text()
def _candidate_sentences(content: str) -> tuple[tuple[str, int, frozenset[str], bool], ...]:
    """The sentences of a turn a summary may take, each with its word count, content stems and whether it carries a
    cue (what `_sentence_scores` reads of a turn, whatever the rest of the session: kept for the latest turns)."""
    out = []
    for line in content.splitlines():
        if _LIST_ITEM.match(line) and len(words(line)) < 8:
            continue   # an outline entry ("10. Financial plan"), not something said
        for sentence in sentences(line):
            n_words = len(words(sentence))
            if n_words < 5 or sentence.endswith("?"):
                continue
            stems = frozenset(content_stems(sentence))
            if len(stems) < 2:
                continue
            out.append((sentence, n_words, stems, bool(_CUES.search(sentence))))
    return tuple(out)


def extractive_summary(turns: list[StoredTurn], facts: list[dict], max_sentences: int = 3) -> Summary:
    """Up to `max_sentences` of the session's most salient sentences (at most one a turn, not repeating each
    other), in the order they were said, each after its speaker."""
    scored = sorted(_sentence_scores(turns, facts), key=lambda x: -x[2])
    picked: list[tuple[StoredTurn, str]] = []
    for turn, sentence, _ in scored:
        if any(turn.id == t.id for t, _ in picked):
            continue
        stems = set(content_stems(sentence))
        if any(len(stems & set(content_stems(s))) >= 0.4 * len(stems) for _, s in picked):
            continue
        picked.append((turn, sentence))
        if len(picked) == max_sentences:
            break
    if not picked:   # nothing but short or filler turns: the longest turn says what little there was
        turn = max(turns, key=lambda t: len(t.content.strip()))
        picked = [(turn, " ".join(turn.content.split())[:300])]
    picked.sort(key=lambda x: (x[0].seq, x[0].id))
    parts, last_speaker = [], None
    for turn, sentence in picked:
        speaker = (turn.speaker or turn.role).strip()
        speaker = speaker[:1].upper() + speaker[1:]
        sentence = sentence if sentence[-1:] in ".!?" else sentence + "."
        parts.append(sentence if speaker == last_speaker else f"{speaker}: {sentence}")
        last_speaker = speaker
    return Summary(" ".join(parts), "extractive", [t.id for t, _ in picked])


def session_so_far(clients: MemoryClients, info: SessionInfo, until_seq: int | None) -> list[StoredTurn]:
    """The session as of this run's last turn (`until_seq`; None: all of it): a later turn, stored meanwhile, is
    the next run's."""
    turns = clients.store.session_turns(info.user_id, info.session_id)
    return turns if until_seq is None else [t for t in turns if t.seq <= until_seq]


def unsettled_thread_vector(clients: MemoryClients, info: SessionInfo, until_seq: int | None) -> np.ndarray | None:
    """The session's thread vector from its turns so far (up to `until_seq`), as its episode will hold it: for a
    step that runs before the episode is written (facts), so that a statement of this session is matched by thread
    against an earlier session's facts, not read as from no thread at all."""
    turns = session_so_far(clients, info, until_seq)
    if not turns:
        return None
    previous = clients.store.session_episode(info.user_id, info.session_id)
    said = session_words(turns, clients.config.workstreams.name_boost)
    return thread_vector(clients, info, turns, said, previous.id if previous is not None else None)[0]


def thread_vector(clients: MemoryClients, info: SessionInfo, turns: list[StoredTurn], said: SessionWords,
                  episode_id: int | None) -> tuple[np.ndarray | None, str | None]:
    """What workstreams are matched on: the mean of the vectors of the sentences of the session's statements, each
    weighted by how distinctive its words are in the user's vocabulary (`consolidate/distinct.py`), or without an
    embedder a hashed bag of their words; None when the session states nothing distinctive."""
    cfg = clients.config
    n, df = clients.store.term_frequencies(info.user_id, said.tf, exclude_episode=episode_id)
    df = {t: df.get(t, 0) + 1 for t in said.tf}   # this session counts as one of the documents
    weights = turn_weights(said, df, n + 1, cfg.workstreams.common_share)
    embedder = clients.embedder()
    if embedder is not None:
        statements = [t.content for t, w in zip(turns, weights, strict=True) if w > 0]
        if not statements:
            return None, None
        # each statement read as its sentences, each weighted by how distinctive its own words are: the sentences
        # are the texts the learned models have just embedded, so most come from the embedder's text cache (a
        # statement costs no model call of its own, issue 45), and a stored turn vector would not do: it carries the
        # turn before it when both are short (often the assistant's "Noted."), which makes any two sessions alike
        texts = [s for text in statements for s in (sentences_of(text) or [text])]
        w = sentence_weights(texts, df, n + 1, cfg.workstreams.common_share)
        texts = [s for s, x in zip(texts, w, strict=True) if x > 0]   # a sentence of common words adds nothing
        w = w[w > 0]
        acc = (np.asarray(embedder.embed(texts), np.float32) * w[:, None]).sum(axis=0)
        norm = float(np.linalg.norm(acc))
        return ((acc / norm).astype(np.float32), f"{embedder.model_id}+distinct") if norm > 0 else (None, None)
    vec = lexical_vector(t.content for t, w in zip(turns, weights, strict=True) if w > 0)
    return (vec, LEXICAL_MODEL) if vec is not None else (None, None)


def _sync_recall_vector(clients: MemoryClients, info: SessionInfo, episode_id: int, changed: bool,
                        summary: str) -> None:
    """Store the summary's embedding for recall, only when the episode has none of this model yet or its
    summary changed after the session ended (a replaced vector makes readers reload: once a session)."""
    embedder = clients.embedder()
    if embedder is None:
        return
    has = clients.store.has_recall_vector(episode_id, embedder.model_id)
    info_now = clients.store.session(info.user_id, info.session_id)
    if has and not (changed and info_now is not None and info_now.status == "ended"):
        return
    episode = clients.store.session_episode(info.user_id, info.session_id)
    if episode is not None:
        summary_vec = np.asarray(embedder.embed([summary])[0], np.float32)
        clients.store.set_recall_vector(episode, embedder.model_id, summary_vec.tobytes())
