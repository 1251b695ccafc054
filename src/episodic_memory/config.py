"""Every threshold and knob in one place: `Config`, in groups (`GROUPS`), set in code or from
``EPISODIC_<GROUP>__<FIELD>`` (`Config.from_env`); the flat names of earlier releases still work, with a
DeprecationWarning (`LEGACY_NAMES`). docs/config.md has the rules and the table of every setting."""

from __future__ import annotations

import functools
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, cast

from platformdirs import user_data_dir
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

APP_NAME = "episodic-memory"
DEFAULT_USER = "default"
MEMORY_PATH = ":memory:"
ENV_PREFIX = "EPISODIC_"
ENV_NESTED = "__"


def default_db_path() -> Path | str:
    """The store used when no path is given: ``EPISODIC_DB`` (a file, or a ``postgresql://`` URL kept as given) or
    the platform's user data directory."""
    env = os.environ.get("EPISODIC_DB")
    if env:
        return env if "://" in env else Path(env).expanduser()
    return Path(user_data_dir(APP_NAME, appauthor=False)) / "memory.db"


class _Group(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StoreSettings(_Group):
    """The store: locks, pools, the WAL, forgetting's scrub, read-only opens, the vault."""

    busy_timeout_ms: int = Field(30_000, description="how long SQLite waits on a locked database")
    lock_timeout_s: float = Field(60.0, description="how long a writer waits for the cross-process ingest lock")
    pg_pool_size: int = Field(8, description="PostgreSQL store: connections a process keeps in its pool at most")
    pg_bm25_stats_ttl_s: float = Field(
        1.0, ge=0, description="PostgreSQL store: a user's BM25 document count and average length are reused until "
        "this process writes, and this long at most of other processes' writes (summing them over a big user's "
        "sessions cost more than ranking; 0: at every search)")
    forget_scrub_wait_s: float = Field(
        10.0, ge=0, description="how long forget retries the WAL checkpoint that takes deleted bytes out of the file "
        "while a reader holds an old snapshot; past it, forget reports the bytes as not yet gone")
    wal_checkpoint_pages: int = Field(
        10_000, ge=0, description="SQLite store: a commit that leaves the WAL this many pages long checkpoints it "
        "inline; the background worker checkpoints after each run, on a connection of its own, so on a store it "
        "serves this is a safety net (SQLite's default is 1000, which made one commit in ~100 pay for a checkpoint; "
        "0: never inline)")
    wal_checkpoint_every_s: float = Field(
        1.0, ge=0, description="SQLite store: the background worker's checkpoints, at most this often (each one "
        "syncs the database file)")
    memory_trim_every_s: float = Field(
        60.0, ge=0, description="the background worker hands the C heap's free pages back to the system (glibc's "
        "malloc_trim, a few ms) at most this often; 0: never (docs/write-path.md, a long-running process's memory)")
    vault_dir: str | None = Field(None, description="keep an Obsidian-friendly markdown vault of each user's "
                                  "memories in <vault_dir>/<user id>-<hash of the id>/ (vault.user_vault), "
                                  "rewritten after each consolidation and forget")
    read_only: bool = Field(False, description="open the store read-only (SQLite mode=ro): no recovery, consolidation "
                            "or embedding, writes refused; the CLI's read commands use it on a store they cannot write")


class CaptureSettings(_Group):
    """Capture: the journal, turn limits, when consolidation runs, the async API's pool."""

    consolidate_every: int = Field(8, ge=1, description="consolidate a session after this many new turns")
    fsync_journal: bool = Field(True, description="fsync the journal before a turn is acknowledged")
    session_idle_minutes: float = Field(
        30.0, description="an open session idle this long is treated as unfinished and flagged for consolidation"
    )
    consolidate_on_open: bool = Field(True, description="run pending consolidation when a store is opened")
    consolidate_in_background: str = Field(
        "on", pattern="^(auto|on|off)$",
        description="consolidation off the capture path, in one worker thread: on; off (inline: the every-N-turns "
        "run inside `add_turn`, the final one inside `end_session`); auto (on when an LLM is configured)")
    background_nice: int = Field(
        10, ge=0, le=19, description="how many nice steps below the caller's threads the background consolidation "
        "worker (and the embedding it asks for) runs, so a turn's acknowledgement or a recall never waits for a core "
        "behind it (Linux, where priority is per thread; 0: the same priority)")
    end_session_waits: bool = Field(
        False, description="`end_session` returns once the session's end is durable and its final consolidation is "
        "queued (a read of that user's memory waits for it); true: it waits for the consolidation itself")
    # what a door (Memory, REST, MCP, `episodic ingest`) accepts; not the embedding cap (embed_max_chars)
    max_turn_chars: int = Field(
        100_000, ge=1, description="a turn's content over this many characters is refused with a clear error; "
        "`episodic ingest` refuses a line over 8 times this many bytes before parsing it")
    max_json_depth: int = Field(
        32, ge=1, description="a judgment's metadata (and any value of an imported record) nested deeper than this "
        "is refused: it would be written, then break whatever reads it back")
    async_threads: int = Field(
        4, ge=1, description="threads of an `AsyncMemory`'s own pool, where its verbs run off the event loop (not "
        "the loop's default executor, which other code can fill); a Memory serialises its writes itself")
    max_turn_metadata_chars: int = Field(
        8_000_000, ge=1, description="a turn's metadata (a JSON object kept with it, unsearched: an agent "
        "framework's own item, images included) over this many characters of JSON is refused")
    agent_item_summary_chars: int = Field(
        500, ge=1, description="an agent framework's tool call, tool output or other non-message item becomes a turn "
        "of its summary cut to this many characters (the item itself is kept whole in the turn's metadata)")
    consolidate_on_open_with_llm: bool = Field(
        True, description="with consolidate_on_open and an LLM configured, consolidate the pending sessions at open; "
        "False leaves them to the next writer, so that opening never waits on the LLM (the CLI's read commands open "
        "so; without an LLM they still consolidate, with the rules)")


class ModelSettings(_Group):
    """The bundled models: which embedder and reranker, what text they read, their threads."""

    embedder: str = Field("default", description='"default" (bundled MiniLM), a model folder, "hf:owner/name", or "off"')
    reranker: str | None = Field(None, description="a cross-encoder folder or hf:owner/name; None = off")
    embed_context_chars: int = Field(200, description="characters of the previous turn embedded with each turn")
    embed_short_turn_chars: int = Field(
        300, description="context is embedded only when this turn and the one before it are shorter than this")
    threads: int = Field(2, ge=1, description="onnxruntime threads for the embedder and reranker")
    embedder_multilingual: bool | None = Field(
        None, description="whether the embedder covers every script; None: as it says of itself (the bundled MiniLM "
        "does not, the multilingual extra does); set it for a model of your own")
    embed_max_chars: int = Field(8_000, ge=256, description="an item is embedded from at most this many characters "
                                 "of its text (the model reads 256 tokens): a 1 MB turn costs what a page does")


class RetrievalSettings(_Group):
    """Recall: the legs, their fusion, the dense index and its cache, the ranker."""

    rrf_k: int = Field(15, description="RRF constant; the original write-ups used 60, 15 measured better (docs/retrieval.md)")
    recency_half_life_days: float = Field(30.0, description="the recency term halves with every this many days of a "
                                          "memory's age")
    recency_weight: float = Field(0.15, description="added to the fused score, never multiplied into it")
    dense_floor: float = Field(0.20, description="dense hits below this cosine are dropped")
    rerank_pool: int = Field(30, description="with a cross-encoder, the best this many fused hits are reranked")
    dense_coarse_above: int = Field(8_000, description="vectors from which the dense leg scans coarse to fine "
                                    "(principal directions first, exact scores for the shortlist)")
    dense_coarse_dims: int = Field(128, description="principal directions the coarse scan keeps")
    dense_coarse_factor: int = Field(7, description="the coarse scan's shortlist, in multiples of the pool (7: "
                                     "its 4-bit codes rank a little less well than float32 did at 4)")
    dense_coarse_block: int = Field(65_536, ge=1, description="the coarse scan keeps its rows in 4-bit blocks of "
                                    "this many (an onnxruntime session each); rows added since: in numpy")
    dense_coarse_threads: int = Field(2, ge=1, description="onnxruntime threads scanning each 4-bit block (2 beat "
                                      "1 at 1M even with the other core busy, as when the BM25 legs run meanwhile)")
    vector_sidecar: bool = Field(True, description="SQLite store: keep each big user's vectors (and the turn heads) "
                                 "in memory-mapped files beside the database too, so a process opens them in O(1) "
                                 "(retrieve/sidecar.py, the dense index's cache; the database stays the source of truth)")
    vector_sidecar_dir: str | None = Field(None, description="where the sidecar lives (default: the database's path "
                                           "+ '.vectors')")
    vector_sidecar_above: int = Field(8_000, ge=0, description="a user's vectors from which the dense leg reads them "
                                      "from the sidecar (below: from the database; from here on it also builds the "
                                      "4-bit scan, which the sidecar keeps: dense_coarse_above)")
    vector_sidecar_compact: float = Field(0.2, gt=0, le=1, description="share of a sidecar's rows deleted (zeroed in "
                                          "place) past which it is written again without them")
    vector_sidecar_checks: int = Field(16, ge=1, description="rows of a sidecar compared byte for byte with the "
                                       "database when a process first opens it (the newest among them)")
    vector_sidecar_populate: bool = Field(True, description="map the sidecar's vectors into the process in a "
                                          "background thread once opened (read through, then one call: ~0.1 s at 1M "
                                          "from the page cache) instead of a page fault per row recalls touch")
    vector_sidecar_int8_above: int = Field(250_000, ge=0, description="a sidecar's rows from which the coarse "
                                           "scan's shortlist is scored on int8 copies of the vectors (one scale a "
                                           "row; cosines within ~1e-3) instead of float32: a quarter of the bytes "
                                           "mapped into the process (1M rows: 384 MB, not 1.5 GB)")
    candidate_pool: int = Field(300, description="hits taken from each retrieval leg before fusion")
    standing_bonus: float = Field(0.3, description="added to a preference fact (a standing instruction) that the "
                                  "dense leg finds at least standing_similarity close to the query")
    standing_similarity: float = Field(0.35, description="cosine a preference fact needs for the standing bonus")
    standing_scope_similarity: float = Field(
        0.25, description="cosine between a request and the scope a standing instruction names (\"when I ask about "
        "X\": X, embedded alone) at which the instruction applies: a candidate with the standing bonus, and a "
        "place in the top k (retrieve/standing.py)")
    standing_max: int = Field(2, ge=0, description="standing instructions matched by their scope that are given a "
                              "place in a recall's top k (the closest first)")
    standing_limit: int = Field(500, ge=0, description="a user's newest preference and correction facts every "
                                "recall looks at for standing instructions, found by a leg or not (0: only those a "
                                "leg found, as before)")
    derived_pool: int = Field(
        20, description="facts, episodes, … loaded per recall: the best this many by fused rank (at least k)")
    bm25_common_floor: int = Field(1000, description="a query term in more turns than this and than "
                                   "bm25_common_share of the store is left out of BM25 over turns")
    bm25_common_share: float = Field(0.005, description="see bm25_common_floor (measured: docs/retrieval.md)")
    turn_head_cache: int = Field(
        5_000_000, description="turn ids up to which a process keeps every turn's session, position, speaker and "
        "time for ranking, read in one go at the first recall (~30 bytes a turn); past it, only the turns recall "
        "asks about; 0: off")
    text_memo_mb: float = Field(
        32.0, ge=0, description="what the analyses of texts (currency's and consolidation's, worked out once per "
        "text) may hold in memory in all, per process: the last `Memory` opened sets it (0: nothing kept)")
    derived_hit_cache: int = Field(
        20_000, description="recall hits of facts, episodes and workstreams a process keeps between recalls, until "
        "any of them changes (0: off)")
    leg_weights: dict[str, tuple[float, float]] = Field(
        default_factory=lambda: {
            "general": (1.0, 1.0), "temporal": (1.0, 1.0), "exact": (1.3, 0.8), "reasoning": (0.8, 1.2),
        },
        description="(BM25, dense) RRF weights per query type from the query classifier",
    )
    # issue 43: recall in any language (docs/retrieval.md "Languages")
    dense_weight_uncovered: float = Field(
        0.0, ge=0, description="the dense leg's weight is multiplied by this when the query is written in a script "
        "the embedder was not trained on (the bundled MiniLM: English; Chinese, Japanese, Korean, Thai … are not): "
        "its votes there are weak evidence (measured: docs/retrieval.md)")
    recall_legs: Literal["hybrid", "keyword", "dense"] = Field(
        "hybrid", description='which legs recall runs: both (fused), the keyword leg alone (BM25 and exact lookups) '
        'or the dense leg alone — the benches report each leg on its own beside the fused result')
    # issue 23: exact lookups (retrieve/exact.py, docs/retrieval.md "Exact matches")
    exact_lookup: bool = Field(
        True, description="identifiers, quoted phrases and rare words of a query are looked up exactly: the "
        "memories holding one rank above every memory holding none; off: recall as before issue 23")
    exact_max_df: int = Field(
        20, ge=0, description="an identifier (a chunk with a digit, or words joined by punctuation), or a word that "
        "is the whole query, held by at most this many of a user's turns (and as many derived memories) is rare: "
        "its holders rank first (0: only quoted phrases)")
    exact_phrase_pool: int = Field(
        100, ge=1, description="a quoted phrase always counts: up to this many of the memories holding it (the "
        "best by BM25) rank above the rest")
    exact_coined_max_df: int = Field(
        2, ge=0, description="a made-up word inside a question (not in the embedder's vocabulary, as 'zelafun') held "
        "by at most this many of a user's turns (and as many derived memories) counts as an exact lookup (0: only "
        "when it is the whole query)")
    follow_weight: float = Field(0.3, description="share of the previous turn's fused score a turn gets (answers)")
    neighbour_weight: float = Field(0.3, description="share of the next turn's fused score a turn gets")
    session_weight: float = Field(0.2, description="weight of how strongly a turn's whole session matches")
    speaker_bonus: float = Field(0.3, description="added when a name in the query is the turn's speaker")
    time_bonus: float = Field(0.5, description="added when a time phrase in the query covers the turn's time")
    dense_center: float = Field(
        1.0, ge=0, description="the dense leg ranks by q·d − this × mean·d (mean: of the user's vectors; 1 = the "
        "mean-centred space): items close to everything (hubs: short small talk) sink; similarity and dense_floor "
        "stay the raw cosine; 0: off. BEAM R@10 +0.02 (docs/retrieval.md). An embedder whose vectors are centred by "
        "construction (the multilingual extra) is not centred again")
    rerank_keep: float = Field(0.5, description="how much of the fused score survives a cross-encoder rerank")
    recall_embed_max_items: int | None = Field(
        None, ge=0, description="a recall first embeds at most this many of its user's new items; the rest wait for "
        "the next pass (BM25 finds them meanwhile). None: 256 in a library process; 4 in the server, whose background "
        "worker embeds the rest, so that a recall after a burst of turns does not wait for them")
    # learned ranker (issue 17: retrieve/ranker.py, retrieve/coverage.py, docs/retrieval.md "A learned ranker")
    ranker: str = Field("learned", pattern="^(learned|fused)$", description="learned: turns scored by the model "
                        "bench/train_ranker.py fits (data/ranker.json; cross-validated over conversations: LoCoMo and "
                        "BEAM R@10 up, truth bench unchanged); fused: the hand-set sum of RRF, context, session, "
                        "speaker, time and recency terms above (docs/retrieval.md)")
    ranker_path: str | None = Field(None, description="weights of the learned ranker (default: the shipped "
                                    "data/ranker.json)")
    # time: recall against a given now, and state changes (retrieve/timing.py, docs/retrieval.md "Time: now, ...")
    phase_bonus: float = Field(0.1, description="added to a memory that reports the phase a query asks about "
                               "(\"when did X finish\": a turn saying it was finished)")
    phase_penalty: float = Field(0.0, description="taken off a memory that reports only the opposite phase (the "
                                 "start, when the query asks about the end)")
    phase_pool: int = Field(60, ge=0, description="the best this many candidate turns are read for the phase check")

    def embed_first(self, server: bool = False) -> int:
        """`recall_embed_max_items` in effect: the library's or the server's default when it is not set."""
        if self.recall_embed_max_items is not None:
            return self.recall_embed_max_items
        return 4 if server else 256


class CurrencySettings(_Group):
    """The currency pass: which of several statements of one slot is current (retrieve/currency.py reads this group
    as its parameters)."""

    pool: int = Field(
        30, ge=0, description="currency at recall time: among this many best candidates, a later statement about "
        "the same subject with a different value (number, date, name) outranks the earlier one (0: off; "
        "retrieve/currency.py, docs/consolidation.md)")
    max_chars: int = Field(
        600, ge=0, description="a candidate longer than this (a document, code, a list, a recap) holds many values and "
        "takes no part in currency: it neither supersedes nor is superseded (BEAM's turns, median 1,432 characters: "
        "R@10 and the pass's cost, docs/consolidation.md; LoCoMo's and truth-dev's are all shorter)")
    min_shared: int = Field(1, ge=1, description="subject words (or names) two statements must share to be "
                                     "about the same subject")
    min_overlap: float = Field(
        0.5, description="…and the shared share of the smaller statement's subject words")
    restated: bool = Field(
        True, description="a later statement that repeats an earlier one's value (one the query does not name) and "
        "adds another supersedes it whatever their other words (\"Ljubljana now rather than Tallinn\")")
    anchor: bool = Field(
        False, description="what two statements share must include a word or name of the query (the subject asked "
        "about), else neither supersedes the other")
    topic_share: float = Field(
        1.0, description="a value this share of the candidates carry (at least three) is their common topic, not "
        "a value (1: off)")
    typed: bool = Field(
        True, description="a question asking for a kind of value (how much / many: a number; when: a date; who, "
        "where: a name) is answered by a later statement only when it brings a new value of that kind")
    propagate: bool = Field(
        True, description="a value once replaced is stale wherever it was said before: earlier statements carrying it "
        "(acknowledgements, recaps) go below the statement that replaced it too")
    answers: bool = Field(
        True, description="for a question asking a kind of value (see currency_typed): two statements that both "
        "carry a word or name of the question and each an answer of that kind the other lacks are two answers to "
        "it: the later one supersedes")
    by_speaker: bool = Field(
        True, description="a statement by one person never supersedes another person's (an assistant's turn and a "
        "fact speak for whoever they are about)")
    named_old: bool = Field(
        True, description="a later statement that names another's value as the one it replaces (\"the Endorphin "
        "Speed, not the Novablast\", a fact's \"(previously: Novablast)\") supersedes it even when the question "
        "reads as asking about several things (\"which shoes am I racing in?\": a plural, so two answers may "
        "both hold otherwise)")
    named_old_max_words: int = Field(
        30, ge=0, description="...when that statement has at most this many words: in a long request a 'not' (\"I'm "
        "not sure if that's the best use of my time before my November 25 interview\") names no value it replaces "
        "(BEAM: docs/consolidation.md)")
    stale_loses_tier: bool = Field(
        True, description="a candidate superseded by a later statement that names its value as replaced "
        "(\"…, not Cairnbrook Coffee\", a fact's \"(previously: …)\") is ranked no higher than that statement's "
        "exact-lookup tier (retrieve/exact.py) when the question's lookups are words (no identifier, no quoted phrase): its "
        "rare word ('roaster') held by the old value's turn alone does not keep the stale value first (off: currency "
        "reorders within a tier only)")
    skip_dated: bool = Field(
        True, description="no currency for a question pinned to a time (\"in May 2023\", \"last year\"): it asks "
        "what held then, not now")
    things: int = Field(
        2, ge=0, description="for a question asking no particular kind of value (what, which): two statements "
        "sharing this many of its words, each with words of its own, are two answers; the later supersedes (0: off)")
    adjacent: int = Field(
        2, ge=0, description="for a question asking a kind of value: a turn at most this many turns after another in "
        "its session that swaps an answer of that kind is a correction (\"Actually no, Larkfield Manor\"), whatever "
        "its other words (0: off)")
    followers: int = Field(
        5, ge=0, description="the turns right after this many of the best candidate turns giving an answer of the kind "
        "asked (currency_adjacent of them each) are read too: a correction that names nothing but the new answer is "
        "found by no leg (0: off)")
    followups: int = Field(
        3, ge=0, description="for a question asking a kind of value: the best this many answers are followed forward — "
        "turns said after them about what they are the value of (\"the finish date\") are read too (0: off)")
    followup_hits: int = Field(10, ge=1, description="turns read per answer followed forward (BM25)")
    promote: bool = Field(
        True, description="the later statement also takes the earlier one's score when it is higher (off: the "
        "earlier one is only pushed below it)")
    followups_cued: bool = Field(
        True, description="for a question asking a kind of value: a later statement (same speaker) with a new value of "
        "that kind and a word announcing a change (\"bumped it up\", \"switched to\") supersedes an earlier answer "
        "even without the subject's words, when it refers back or shares a word with it or the question")
    phrase_words: int = Field(
        12, ge=0, description="a sentence of more than this many content words says several things: a value is read "
        "with its phrase (split at commas and at but / so / because / while …), not the whole sentence — which "
        "values answer the question, what two answers are of, where a change word applies (0: always the sentence; "
        "docs/consolidation.md)")
    tie_share: float = Field(
        0.1, ge=0, description="two statements agreeing on a number or date are about one thing, unless more than "
        "this share of the candidates (and at least three) carry that value: then it is their common context (a "
        "year, a recurring marker), it ties nothing (1: off)")
    slot_pairs: bool = Field(
        True, description="two answers compete only when one answer's local context and the other's are of the same "
        "thing (share a word beyond the question's, or the new one's covers the question words the old one's had), "
        "not when any two of the statements' contexts about the question are")
    cue_near: bool = Field(
        True, description="a change in other words (currency_followups_cued) must say its change word next to the "
        "new value (same sentence, or same phrase of a long sentence; anywhere in a short statement), and the word it "
        "shares with the old answer or the question, or the word referring back, there too")
    units: bool = Field(
        True, description="two numbers are values of one thing only when they count the same: money ($, £, dollars), "
        "a percentage, a ratio (8/10), a distance, a weight, a duration, a degree, a year; a bare number any, "
        "except for a change in other words, where a bare number is only another bare one; and a number two "
        "statements agree on ties them only when both say it with one unit (\"$12.99/month\" is no answer that "
        "\"22%\" replaces)")
    stated: bool = Field(
        True, description="a value a later turn says only in a question or a request (\"…$3,500 for the move, can you "
        "help me plan?\") is asked about, not stated: it answers nothing and replaces no answer (the two-answer and "
        "change-in-other-words rules; a restated subject or \"not X\" still counts)")
    skip_between: bool = Field(
        True, description="no currency for a question asking the time between two events (\"how many days between "
        "when I … and …\"): both are asked about, the earlier as much as the later")
    best_slot: bool = Field(
        True, description="with currency_slot_pairs: a statement's answer is in its local contexts naming the most of "
        "the question's words (\"my reading challenge goal to 12 books\"), not in one naming fewer (\"my weekly "
        "reading pace\", two phrases on)")


class LLMSettings(_Group):
    """The LLM seam (episodic_memory.llm): which backend, its model, timeouts and outages."""

    backend: str | None = Field(None, description='"anthropic", "openai" (any OpenAI-compatible server) or "none"; '
                            "None = EPISODIC_LLM, else none")
    model: str | None = Field(None, description="model name; default claude-haiku-4-5 for anthropic")
    base_url: str | None = Field(None, description="OpenAI-compatible base URL (Ollama, vLLM, LM Studio, …)")
    timeout_s: float = Field(60.0, description="per-call timeout")
    retries: int = Field(2, ge=0, description="retries after a failed call (with exponential backoff)")
    backoff_s: float = Field(1.0, description="first backoff; doubles on each retry")
    concurrency: int = Field(4, ge=1, description="calls in flight at once")
    max_tokens: int = Field(1024, description="reply length cap")
    outage_backoff_s: float = Field(
        60.0, ge=0, description="after a call found the LLM unreachable (after its retries) or was turned away as a "
        "whole (401/403: the key; 404: the URL), no call is made to that LLM for this long, doubled for each such "
        "failure in a row; kept in the store, so the next process waits too (0: no back-off)")
    outage_backoff_max_s: float = Field(
        900.0, ge=0, description="the longest LLM back-off (see llm_outage_backoff_s)")
    outage_rules_after_s: float = Field(
        900.0, ge=0, description="an unreachable LLM postpones a session's consolidation (retried at the next run) "
        "until its newest turn has waited this long; then that run consolidates with the rules (0: at once)")


class ConsolidationSettings(_Group):
    """Consolidation: facts, supersession, episodes, the learned decisions, the lease and retries of a session's
    run."""

    lease_s: float = Field(
        600.0, gt=0, description="how long a process's claim to consolidate a session holds without renewal (it is "
        "renewed at every step; a claim whose process died on this machine is taken over at once)")
    lease_wait_s: float = Field(
        30.0, ge=0, description="how long session end waits for another process's consolidation of that session "
        "before leaving the session flagged for later")
    retry_s: float = Field(
        60.0, ge=0, description="a session whose consolidation failed twice in a row is retried (at an open, by a "
        "sweep) after this long, doubled after each further failure; after one failure (an LLM briefly down) it is "
        "retried at the next open; a new turn of the session still runs it at once")
    retry_max_s: float = Field(
        6 * 3600.0, ge=0, description="the longest wait between retries of a session whose consolidation keeps failing")
    durable_floor: float = Field(0.55, description="salience at or above this makes a fact durable")
    recurrence_bonus: float = Field(0.10, description="salience added per repeat of a fact")
    recurrence_cap: float = Field(0.40, description="most salience repeats can add")
    novelty_floor: float = Field(0.12, description="gzip novelty below this is a restatement (bumps recurrence)")
    novelty_sample: int = Field(200, description="how many stored facts the novelty gate compares against")
    supersede_novelty_bonus: float = Field(0.10, description="novelty added for decisions and corrections")
    duplicate_cosine: float = Field(0.88, description="at or above: the same fact (recurrence bump)")
    supersede_cosine: float = Field(0.72, description="from here to duplicate_cosine: the referee rules")
    correction_reach: float = Field(
        0.5, description="without an LLM, a correction or decision supersedes the nearest fact it contradicts "
        "down to this similarity")
    fact_recall_bonus: float = Field(
        0.05, description="a fact scores this much above the best of its source turns (and gets it on its own "
        "score): the distilled memory first")
    fact_exemplar_k: int = Field(
        3, ge=1, description="without an LLM: a sentence's durable margin is the mean cosine of its k nearest durable "
        "exemplars (data/fact_exemplars.jsonl) minus that of its k nearest noise exemplars")
    fact_cued_margin: float = Field(
        -0.05, description="without an LLM: a sentence a cue rule typed (decided, prefer, actually, …) is kept at or "
        "above this exemplar margin")
    fact_statement_margin: float = Field(
        0.02, description="without an LLM: a plain declarative statement (no cue word) is kept at or above this "
        "exemplar margin (with no embedder, plain statements are kept only when they name a value)")
    participant_lookback: int = Field(
        64, ge=0, description="without an LLM: the session's turns before a consolidation run whose speakers count as "
        "its participants, whom a name at a sentence's edge may address (\"That's so cool, Maria!\")")
    fact_value_bonus: float = Field(
        0.03, description="without an LLM: added to the exemplar margin of a sentence that names a value (a number, "
        "an amount, a date, a name mid-sentence)")
    slot_overlap: float = Field(
        0.6, description="without an LLM: a statement with no change cue replaces an earlier fact when they share this "
        "share of their subject words (and at least two) and give a different number, date or name")
    slot_cued_overlap: float = Field(
        0.25, description="without an LLM: the same for a statement with a change cue (actually, scratch that, moved "
        "to, is now, instead, …); one that names the old value as wrong needs no overlap")
    slot_cued_cosine: float = Field(
        0.4, description="without an LLM: a statement with a change cue replaces a fact with a different value of "
        "the same kind and no shared words when their cosine reaches this (or they were said in the same session)")
    slot_recent_facts: int = Field(
        40, description="a statement with a change cue is also compared with this many of the latest facts")
    slot_turn_search: int = Field(
        12, description="a change with a cue that matches no fact searches this many earlier turns (BM25) for the "
        "statement of the old value, which becomes a fact for the change to supersede")
    supersedes_line: float | None = Field(
        None, ge=0, le=1, description="learned: a statement supersedes its most likely earlier fact at this "
        "probability or above (None: the line chosen when the model was trained)")
    reply_supersedes_line: float = Field(
        0.8, ge=0, le=1, description="learned: the line for supersedes_line when the assistant's answer to the "
        "statement takes it as a value changed ('Got it - 16, not 14.'; `loops.read_replies` switches both off)")
    news_supersedes_line: float = Field(
        0.98, ge=0, le=1, description="learned: the line for supersedes_line for a statement said as news (no change "
        "cue, no answer or named old value taking it as a change): 'Tournament is 6 December' is no new date for 'Gig "
        "is the 28th of November' (never tuned: links no slot explains 52 → 37, slots linked 105 → 103)")
    unsettled_thread: bool = Field(
        False, description="learned: the facts step reads the session's thread from its turns so far (its episode, "
        "written after it, has none yet), so the supersedes model's thread cosine is known for a change said in "
        "this session. Off by default: the shipped supersedes head was trained without it, and heads retrained with "
        "it read better leaving a bank out but link more falsely on the tuning and never-tuned banks "
        "(docs/consolidation.md, sixteenth session)")
    news_change_line: float = Field(
        0.8, ge=0, le=1.01, description="learned: a statement the change head scores at or above this is held to "
        "the trained supersedes line, not news_supersedes_line, though no cue word says it changed ('Things have "
        "changed since we last spoke - …'; above 1: never)")
    referee_learned_line: float = Field(
        0.995, ge=0, le=1, description="with an LLM: when the supersedes model is this sure that a candidate gives a "
        "new value for the stored fact, the referee is not asked (1: always ask)")
    supersede_max_words: int = Field(
        30, ge=1, description="learned supersession only between statements of at most this many words: a longer "
        "one holds many claims (BEAM's requests: 109 of 329 facts superseded one another without it)")
    standing_frame_cosine: float = Field(
        0.85, ge=0, le=1, description="with an embedder, a standing rule said anew (no change cue) replaces an earlier "
        "one only when the two read alike with their values blanked: 'Always show 3 options when I ask about "
        "restaurants' → 5 options (1.0), not 'Always combine formulas with diagrams …' after 'Always include tree "
        "diagrams …' (0.73)")
    supersede_candidates: int = Field(
        12, ge=1, description="learned: the nearest current facts (by cosine) a statement is compared with, besides "
        "those sharing its words")
    slot_session_bonus: float = Field(
        0.2, description="when choosing which fact a change replaces: bonus for a fact of the same session")
    episode_summary_sentences: int = Field(3, ge=1, le=3, description="sentences in an extractive episode summary")
    episode_keyphrases: int = Field(8, ge=1, description="keyphrases kept per episode")
    learned: bool = Field(
        True, description="without an LLM, the learned decisions (consolidate/learned.py: to-dos taken on and "
        "reported done, which loop a report closes, values changed, what is worth keeping) decide where the rules "
        "did; off, or with an embedder the models were not trained over, the rules decide alone")
    rules_off: list[str] = Field(
        default_factory=list, description="hand-written rules switched off, by name (episodic_memory.heuristics."
        "REGISTRY; `bench/truth.py --ablate` measures each); EPISODIC_RULES_OFF takes them comma-separated")
    learned_models_path: str | None = Field(
        None, description="weights of the learned consolidation decisions (default: the shipped "
        "data/consolidation_models.npz; bench/train_consolidation.py writes them)")
    durable_line: float | None = Field(
        None, ge=0, le=1, description="without an LLM, a statement is kept as a fact at this durable probability or "
        "above (None: the trained line)")
    learned_max_turn_words: int = Field(
        80, ge=1, description="a turn longer than this (a request with its context, code: BEAM's) is read as without "
        "the learned models: its sentences pass the word gates before the durable model, and none of them changes a "
        "value by the supersedes model (BEAM without it: 109 of 329 facts superseded one another, R@10 −0.025)")
    durable_cued_line: float = Field(
        0.15, ge=0, le=1, description="the durable line for a sentence a cue rule typed (decided, prefer, always …, "
        "actually …): standing instructions and decisions in requests-heavy chats (BEAM) are kept")

    @field_validator("rules_off", mode="before")
    @classmethod
    def _names(cls, value: object) -> object:
        """"a.b, c.d" (as the environment gives it) is two names; each must be a rule of the registry."""
        if isinstance(value, str):
            value = [n.strip() for n in value.split(",") if n.strip()]
        from .heuristics import BY_NAME

        unknown = [n for n in value if n not in BY_NAME] if isinstance(value, list) else []
        if unknown:
            raise ValueError(f"unknown rules {unknown}: the names are in episodic_memory.heuristics.REGISTRY")
        return value

    def retry_after(self, failures: int) -> float:
        """Seconds before a session whose consolidation failed `failures` times in a row is tried again: at once
        after one failure (a passing outage), then `retry_s`, doubled each time (a session that cannot be
        consolidated is not retried at every open of the store)."""
        if failures <= 1:
            return 0.0
        return min(self.retry_max_s, self.retry_s * 2.0 ** min(failures - 2, 60))


class WorkstreamSettings(_Group):
    """Workstreams: attaching an episode to a thread, confirming, reclustering."""

    attach: float = Field(
        0.225, description="episode↔workstream match at or above: attach. The match: (1 - workstream_lexical_share) × "
        "the cosine of the distinctive thread vectors + workstream_lexical_share × the tf-idf cosine of the "
        "distinctive words (docs/consolidation.md)")
    judge_floor: float = Field(0.165, description="from here to workstream_attach: the LLM judges")
    lexical_share: float = Field(
        0.5, ge=0.0, le=1.0, description="the distinctive-word (tf-idf) cosine's share of a match")
    name_boost: float = Field(
        3.0, ge=1.0, description="a word written as a name (capitalised inside a sentence) counts this many times in "
        "a session's word profile")
    attach_needs_shared_word: bool = Field(
        True, description="attach only to a workstream that shares at least one distinctive word with the session")
    common_share: float = Field(
        0.5, gt=0.0, le=1.0, description="a word stated in more than this share of the user's sessions is common: it "
        "neither weighs in a thread vector nor links sessions (once the user has 5 sessions)")
    min_terms: int = Field(
        3, ge=0, description="a session stating fewer distinctive words than this joins no workstream (chit-chat)")
    bridge: bool = Field(
        True, description="a session attached to a workstream that also matches a hypothesis (a workstream of one "
        "session) above the attach line, with a shared distinctive word, brings that hypothesis's session along")
    recheck: int = Field(
        3, ge=0, description="after a session attaches, the hypotheses among this many workstreams nearest it "
        "are matched again against the grown workstream (0: off)")
    decisive_ratio: float = Field(
        1.5, ge=0, description="without an LLM judge, a session whose best match is in the judge band joins that "
        "workstream when it shares a distinctive word and matches at least this many times the runner-up (0: off; "
        "not without an embedder)")
    attach_lexical: float = Field(
        0.15, description="workstream_attach without an embedder (the thread vector is a bag of words; truth-dev "
        "V-measure 0.554 at 0.15, 0.368 at 0.25)")
    judge_floor_lexical: float = Field(0.10, description="workstream_judge_floor without an embedder")
    judge_candidates: int = Field(3, ge=1, description="at most this many workstreams shown to the judge")
    confirm_share: float = Field(
        0.6, ge=0, le=1, description="a workstream of two or more sessions is confirmed only when at least this share "
        "of them left a memory (a fact or a loop): recurring small talk clusters like a thread but leaves nothing "
        "(0.6: a pair of sessions needs both; docs/consolidation.md, 'Confirmed when most sessions left something')")
    active_days: float = Field(14.0, description="a confirmed workstream active within this is 'active'")
    # workstreams re-clustering (consolidate/recluster.py): at each session end, without an LLM judge
    recluster: bool = Field(
        True, description="at each session end (no LLM judge), re-cluster the user's latest episodes at once and map "
        "the clusters onto the existing workstream ids (incremental attach decisions depend on the order)")
    recluster_min_sessions: int = Field(
        10, ge=0, description="re-cluster only once the window holds this many sessions with a thread vector (the "
        "incremental decisions stand in a young store, whose vocabulary calls a thread's own words common)")
    recluster_window: int = Field(
        200, ge=2, description="the latest this many episodes are re-clustered (the cost is bounded by it; older "
        "episodes keep their workstreams)")
    recluster_link: float = Field(
        0.04, description="average-linkage line: two clusters merge while the mean match of their sessions (thread "
        "vectors centred on the window's mean, half tf-idf cosine) is at or above this, with a distinctive word shared")
    recluster_small_floor: float = Field(
        0.02, description="a cluster of one or two sessions then joins the nearest cluster of three or more when its "
        "mean match is at or above this and decisive (workstream_recluster_small_ratio × the runner-up)")
    recluster_small_ratio: float = Field(1.5, description="see workstream_recluster_small_floor")
    recluster_cohesion: float = Field(
        0.12, description="a cluster of two or three sessions whose mean match is below this is dissolved (single "
        "sessions, hypotheses): chance pairs, recurring small talk")


class LoopSettings(_Group):
    """Open loops: opening, closing and deduplicating unfinished business."""

    duplicate_overlap: float = Field(
        0.6, description="a new loop sharing this share of a stored loop's words is that loop, said again")
    resolve_overlap: float = Field(
        0.5, description="without an LLM, a report of the loop's own act (or 'done') closes it when it covers this "
        "share of the loop's words, two of them (by lemma; truth-dev without an embedder: 0.6 → 17/28, 0.5 → 19/28)")
    close_cosine: float = Field(
        0.5, description="without an LLM, a later turn that reports something done closes the open loop whose text "
        "it matches at this embedding cosine or above (and shares a word with); by lemma alone without an embedder")
    dedup_days: float = Field(14.0, description="loops closed this recently absorb restatements, not reopen")
    commitment_line: float | None = Field(
        0.8, ge=0, le=1, description="a sentence opens a loop at this commitment probability or above (None: the "
        "line training chose for F1, 0.67; 0.8 is precision first: on banks held out of training, loop precision "
        "0.70 → 0.80, recall 0.77 → 0.72, F1 0.73 → 0.76; docs/consolidation.md)")
    closes_line: float | None = Field(
        0.98, ge=0, le=1, description="a sentence closes its best-matching open loop at this probability or above "
        "(None: the trained line, 0.90; 0.98: when unsure a loop stays open — on banks held out of training, false "
        "closures 0.09 → 0.06, closure recall 0.44 → 0.38; docs/consolidation.md)")
    completion_gate: float | None = Field(
        None, ge=0, le=1, description="a sentence below this completion probability (None: the completion model's "
        "trained line) is matched against the open loops only when the assistant's answer takes its turn as a to-do "
        "done: 'Oisin is our landlord' names the loop's person and reports nothing done (on banks never tuned on, "
        "false closures 0.057 → 0.024 from 0.05; docs/consolidation.md)")
    read_replies: bool = Field(
        True, description="the assistant's answer to a turn is a second reader of it (`reply_*` models): a to-do "
        "taken on or done, or a value changed, as the answer takes it, is decided at the lines below and "
        "consolidation.reply_supersedes_line; off: none of them is read (docs/consolidation.md)")
    reply_commitment_line: float = Field(
        0.15, ge=0, le=1, description="the turn's likeliest commitment opens a loop at this probability when the "
        "answer takes it as a to-do (instead of commitment_line)")
    reply_veto_line: float = Field(
        0.2, ge=0, le=1, description="a turn whose answer is no acknowledgement of a to-do at all (a recap, an "
        "answer to a question, a shrug: the answer's to-do probability below this) raises no loop, unless the "
        "sentence's own commitment probability reaches reply_veto_sure (1: never)")
    reply_veto_sure: float = Field(
        0.97, ge=0, le=1, description="see reply_veto_line")
    reply_closes_line: float = Field(
        0.85, ge=0, le=1, description="the turn's likeliest (sentence, open loop) pair closes that loop at this "
        "probability when the answer takes the turn as a to-do done (instead of closes_line)")


class InjectSettings(_Group):
    """Injection: [Recalled context], [Ongoing work] and the brief."""

    max_memories: int = Field(5, description="at most this many memories in [Recalled context]")
    repeat_after_turns: int = Field(30, description="an injected memory may come back after this many turns")
    token_budget: int = Field(600, description="the injected block is cut to about this many tokens")
    min_score: float = Field(0.0, description="hits scoring below this are not injected")
    workstreams: int = Field(2, ge=0, description="confirmed workstreams in [Ongoing work] (first turn only)")
    loops_per_workstream: int = Field(3, ge=0, description="open loops shown under each of them")
    memory_chars: int = Field(300, ge=40, description="an injected memory is cut to this many characters")
    reply_context_chars: int = Field(
        160, ge=0, description="a short recalled turn that answers the turn before it (another speaker's question, "
        "or a reply opening with yes / it / that …) is shown with that turn, cut to this many characters (0: never)")
    reply_max_chars: int = Field(200, ge=0, description="... when the recalled turn is at most this long")
    brief_max_items: int = Field(20, ge=1, description="at most this many entries per section of the briefing")


class JudgmentSettings(_Group):
    """Judgments: the utility flywheel and their injection."""

    utility_weight: float = Field(0.5, ge=0, description="α in rank = similarity × (1 + α · utility)")
    utility_prior: tuple[float, float] = Field((1.0, 1.0), description="Beta prior (adopted, rejected) pseudo-counts")
    utility_half_life_days: float = Field(90.0, gt=0, description="a verdict this old weighs half as much (inf: never)")
    utility_mode: str = Field("smoothed", pattern="^(smoothed|plain)$",
                              description="smoothed: Beta prior + decay; plain: adopted / verdicts (retrieve/utility.py)")
    utility_reported: str = Field(
        "plain", pattern="^(plain|ranking)$", description="what `utility_score` and `export_triples` use: plain (the "
        "episodic-judgment library's adopted / verdicts, 0 when never verified) or ranking (the utility_mode's)")
    inject_utility: float = Field(0.6, description="[Past judgments] shows judgments above this utility "
                                           "(the ranking utility)")
    inject_max: int = Field(3, ge=1, description="at most this many judgments in [Past judgments]")
    inject_min_cosine: float = Field(
        0.35, description="[Past judgments] needs this cosine between message and judgment (BM25 alone without an embedder)")


class ServerSettings(_Group):
    """The servers (REST, MCP, the inspector): limits on requests, users, sessions and the background worker. A
    limit of 0 is worked out from the machine (`ServerSettings.resolved`)."""

    max_open_users: int = Field(64, ge=1, description="the REST server keeps at most this many users' "
                                       "memories open; the least recently used idle ones are closed")
    max_body_bytes: int = Field(1 << 20, ge=1, description="a REST request body over this is refused (413)")
    max_batch_turns: int = Field(1_000, ge=1, description="turns one `POST /v1/turns/batch` may carry (more: "
                                        "422); its body is bounded by server_max_body_bytes too")
    token_touch_every_s: float = Field(60.0, description="a token's last_used is written at most this often")
    body_timeout_s: float = Field(
        30.0, gt=0, description="a REST request's body must arrive within this many seconds of its headers (else "
        "408, nothing done); it is read before the request takes a place to run in, so a slow sender holds none")
    allowed_hosts: list[str] = Field(
        default_factory=list, description="Host header values the REST server answers besides the address a request "
        "came in on (and, on loopback, 127.0.0.1, localhost and ::1): a name matches any port, name:port one port, "
        "'*' every host (no check). Any other Host gets 421: a DNS-rebinding page never reaches the memories. "
        "Comma-separated in EPISODIC_SERVER_ALLOWED_HOSTS; `episodic serve --allowed-host NAME`")
    mcp_session_idle_s: float = Field(
        1800.0, ge=0, description="the MCP server ends a session it wrote turns to (so it is consolidated: its facts, "
        "loops and workstreams appear) once no turn has come to it for this long; sessions still open are ended when "
        "the server stops (0: only then)")
    ui_session_idle_s: float = Field(12 * 3600.0, gt=0, description="an inspector login ends after this long unused")
    ui_max_sessions: int = Field(10_000, ge=1, description="inspector logins kept at most (least recently used go "
                                 "first); only a login with a valid token makes one")
    ui_max_sessions_per_user: int = Field(32, ge=1, description="one user's inspector logins kept at most (that "
                                          "user's least recently used go first): one token cannot push others out")
    ui_login_form_s: float = Field(3600.0, gt=0, description="an inspector login form (its anti-forgery token) "
                                   "is good for this long")
    sweep_s: float = Field(30.0, ge=0, description="every this many seconds the REST server queues the "
                                  "sessions owed a consolidation that no process is running (another server "
                                  "process's that was killed, say; 0: never)")
    sweep_idle_s: float = Field(30.0, ge=0, description="... untouched for at least this long (a live "
                                       "process's own sessions are queued by it as their turns arrive)")
    stop_grace_s: float = Field(1.0, ge=0, description="on SIGTERM, how long the REST server's requests, then "
                                       "its consolidation, may take to finish; what is unfinished is flagged for the "
                                       "next start")
    processes: int = Field(1, ge=0, description="REST server processes sharing its one port (`episodic serve "
                           "--processes N`): a Python process runs one request's Python at a time; each process loads "
                           "its own embedder (its RAM, N times) and has its own limits below; 0: one per core")
    # request admission and the background worker under load (server/limits.py; docs/server.md)
    workers: int = Field(0, ge=0, description="threads running requests; 0: 4 per core, at least 8")
    max_inflight: int = Field(0, ge=0, description="requests executing and waiting, beyond which a request gets 429; "
                              "0: 8 × workers")
    per_client_max: int = Field(0, ge=0, description="one token's (or address's) share of max_inflight; 0: half of it")
    per_client_running: int = Field(0, ge=0, description="one client's requests running at once; 0: half the workers "
                                    "(at least 1)")
    heavy_body_bytes: int = Field(64 * 1024, ge=0, description="a request body this big or bigger is heavy ...")
    heavy_running: int = Field(0, ge=0, description="... and at most this many heavy ones run at once; 0: half the "
                               "cores")
    retry_after_s: int = Field(1, ge=0, description="the Retry-After of a 429")
    background_share: float = Field(0.25, gt=0, le=1, description="under load, the consolidation worker's share of "
                                    "wall time (it waits between jobs) ...")
    background_backlog_turns: int = Field(256, ge=0, description="... while fewer turns than this wait for "
                                          "consolidation; past it, more")
    backlog_refuse_turns: int = Field(8192, ge=0, description="past this many turns waiting for consolidation, a new "
                                      "turn gets 429 (0: never)")
    background_defer_s: float = Field(0.05, ge=0, description="under load, the least a background job waits for a "
                                      "quiet moment")
    background_max_wait_s: float = Field(2.0, ge=0, description="... and the most: under sustained load it still "
                                          "runs, slowly")
    access_log: bool = Field(False, description="uvicorn's access log (a line per request, recall queries included)")
    auth_threads: int = Field(2, ge=1, description="threads looking up bearer tokens (before a request waits for a "
                              "place)")

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _hosts(cls, value: object) -> object:
        """"a.example, b.example:8443" (as the environment gives it) is two hosts."""
        if isinstance(value, str):
            value = [h.strip() for h in value.split(",") if h.strip()]
        return value

    def resolved(self, cores: int) -> ServerSettings:
        """These limits with each 0 ("work it out") replaced by its value on a machine of `cores` cores."""
        workers = self.workers or max(8, 4 * cores)
        inflight = max(self.max_inflight or 8 * workers, 1)
        return self.model_copy(update={
            "processes": self.processes or cores, "workers": workers, "max_inflight": inflight,
            "per_client_max": min(self.per_client_max or max(1, inflight // 2), inflight),
            "per_client_running": min(self.per_client_running or max(1, workers // 2), workers),
            "heavy_running": self.heavy_running or max(1, cores // 2)})


class HookSettings(_Group):
    """Coding-agent hooks (`episodic hook EVENT`, integrations/claude_code*.py)."""

    timeout_s: float = Field(
        8.0, gt=0, description="a SessionStart, UserPromptSubmit or Stop hook answers within this: past it (a busy "
        "store), it answers nothing and logs why; `episodic hooks install` gives the harness this plus 2 s")
    end_timeout_s: float = Field(
        50.0, gt=0, description="the same for SessionEnd and PreCompact, which consolidate the session (cut short, "
        "the session stays flagged and is consolidated at the next open)")
    server_url: str | None = Field(
        None, description="a running `episodic serve` the hooks talk to (http://127.0.0.1:8765) instead of opening "
        "the store; unset or empty: none")
    server_token: str | None = Field(None, description="its bearer token (none with `episodic serve --no-auth`)")
    state_dir: str | None = Field(
        None, description="where hooks keep each session's transcript offset and what they injected, and their log "
        "(default: the user state directory, e.g. ~/.local/state/episodic-memory/hooks)")
    brief_hours: float = Field(24.0, gt=0, description="SessionStart's briefing looks back this far")
    context_max_chars: int = Field(
        8_000, ge=200, description="SessionStart's context is cut (at a line) to this many characters")
    reply_max_chars: int = Field(
        20_000, ge=200, description="a captured reply (its text and its tool calls' summaries) is cut to this")
    tool_summary_chars: int = Field(
        200, ge=40, description="one tool call and its output are summarised in at most this many characters")
    prefer_project: bool = Field(
        True, description="UserPromptSubmit's recall takes the project's memories (turns whose source is the "
        "repository) and everything's best in turn, the project's first")


class ExperimentalSettings(_Group):
    """Off by default: measured and not kept (docs/retrieval.md). They may go in a later release."""

    blend_turn_vector: bool = Field(
        False, description="a turn embedded with the turn before it is also embedded alone, and stored as the "
        "normalised sum of the two (docs/retrieval.md: measured, not a gain that generalised; it applies to turns "
        "embedded after it is set)")
    dense_query_names: bool = Field(
        False, description="embed the query with the store's speaker names in it; off: names are taken out of the "
        "embedded query (speaker_bonus carries them), LoCoMo R@10 0.779 → 0.802 (docs/retrieval.md)")
    stored_links: bool = Field(
        False, description="recall reads consolidation's supersession links: a turn stating a value a stored fact "
        "has since replaced ranks right below the current fact, which takes its place (retrieve/currency_pass.py "
        "replaced_values). Never-tuned current-first 0.851 → 0.862, but BEAM-100k R@10 0.610 → 0.590 and its "
        "median recall ×4.5 (docs/consolidation.md)")
    list_coverage: bool = Field(False, description="a question asking for several things (which cities…, what are "
                                "X's hobbies) favours hits from sessions not yet in the list over near-duplicates "
                                "(off: it lowered list questions' R@10 on LoCoMo dev, docs/retrieval.md)")
    coverage_pool: int = Field(30, ge=1, description="list-question coverage reorders this many of the best hits")
    coverage_penalty: float = Field(0.1, ge=0, description="score taken off a hit per better hit of its session "
                                    "already in the list (list questions)")


# A flat name of earlier releases is its group's prefix and the field's name (``currency_pool``: currency.pool),
# or the group's field of the same name (``rrf_k``: retrieval.rrf_k), unless it is listed here.
_LEGACY_PREFIX = {"currency": "currency_", "workstreams": "workstream_", "inject": "inject_", "hooks": "hook_",
                  "llm": "llm_", "server": "server_", "loops": "loop_"}
_LEGACY_EXCEPTIONS = {
    "consolidation_lease_s": "consolidation.lease_s", "consolidation_lease_wait_s": "consolidation.lease_wait_s",
    "consolidation_retry_s": "consolidation.retry_s", "consolidation_retry_max_s": "consolidation.retry_max_s",
    "learned_consolidation": "consolidation.learned", "model_threads": "models.threads", "llm": "llm.backend",
    "commitment_line": "loops.commitment_line", "closes_line": "loops.closes_line",
    "completion_gate": "loops.completion_gate", "brief_max_items": "inject.brief_max_items",
    "judgment_inject_utility": "judgments.inject_utility", "judgment_inject_max": "judgments.inject_max",
    "judgment_inject_min_cosine": "judgments.inject_min_cosine", "token_touch_every_s": "server.token_touch_every_s",
    "mcp_session_idle_s": "server.mcp_session_idle_s", "ui_session_idle_s": "server.ui_session_idle_s",
    "ui_max_sessions": "server.ui_max_sessions", "ui_max_sessions_per_user": "server.ui_max_sessions_per_user",
    "ui_login_form_s": "server.ui_login_form_s", "server_background_nice": "capture.background_nice",
    "server_recall_embed_max_items": "retrieval.recall_embed_max_items",
}


def _deprecated(flat: str, how: str) -> None:
    group, name = LEGACY_NAMES[flat]
    warnings.warn(f"Config: {how} {flat!r} is deprecated: it is {group}.{name} now (EPISODIC_{group.upper()}{ENV_NESTED}"
                  f"{name.upper()}); the flat names go in the next release", DeprecationWarning, stacklevel=4)


def _nest(values: Mapping[str, Any], how: str) -> dict[str, Any]:
    """`values` with its flat or dotted keys ("consolidate_every", "capture.consolidate_every") put in their groups;
    a group's own key takes a mapping, merged over what is there."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key in GROUPS and (isinstance(value, Mapping | BaseModel) or key not in LEGACY_NAMES):
            if isinstance(value, BaseModel):
                value = value.model_dump(exclude_unset=True)
            if isinstance(value, Mapping):
                out.setdefault(key, {}).update(value)
            else:
                out[key] = value  # not a mapping: pydantic says what is wrong with it
            continue
        if "." in key:
            group, name = key.split(".", 1)
            if group not in GROUPS:
                raise ValueError(f"unknown setting {key!r}: the groups are {', '.join(GROUPS)}")
        elif key in LEGACY_NAMES:
            _deprecated(key, how)
            group, name = LEGACY_NAMES[key]
        else:
            raise ValueError(f"unknown setting {key!r}: settings are named group.field ({', '.join(GROUPS)})")
        out.setdefault(group, {})[name] = value
    return out


@functools.cache
def _environment_source() -> tuple[Any, Any]:
    """pydantic-settings' reader of ``EPISODIC_<GROUP>__<FIELD>`` over Config's groups. Built at the first read of the
    environment: the package imports asyncio (~60 ms), which `Config()` and the CLI's light commands never pay."""
    from pydantic import create_model
    from pydantic_settings import BaseSettings, EnvSettingsSource, SettingsConfigDict

    class Groups(BaseSettings):
        model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_nested_delimiter=ENV_NESTED, extra="ignore",
                                          case_sensitive=False)

    class Source(EnvSettingsSource):
        def decode_complex_value(self, field_name: str, field: Any, value: Any) -> Any:
            try:
                return super().decode_complex_value(field_name, field, value)
            except ValueError:  # not JSON: "a.example, b.example" for a list; the field's validator reads it
                return value

    fields: dict[str, Any] = {group: (cls, Field(default_factory=cls)) for group, cls in GROUPS.items()}
    return Source, create_model("Environment", __base__=Groups, **fields)


def environment() -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The settings the environment gives, by group, and for each ``group.field`` the variable it came from
    (``EPISODIC_<GROUP>__<FIELD>``, or a flat ``EPISODIC_<NAME>`` of earlier releases, with a warning)."""
    nested: dict[str, dict[str, Any]] = {}  # no variable of ours set: pydantic-settings is not even imported
    if any(name.upper().startswith(ENV_PREFIX) and ENV_NESTED in name for name in os.environ):
        source, model = _environment_source()
        nested = dict(source(model)())  # the variables as they are now (a source reads them when made)
    origin = {f"{group}.{name}": f"{ENV_PREFIX}{group.upper()}{ENV_NESTED}{name.upper()}"
              for group, values in nested.items() for name in values}
    for flat, (group, name) in LEGACY_NAMES.items():
        raw = os.environ.get(f"{ENV_PREFIX}{flat.upper()}")
        if raw is not None and f"{group}.{name}" not in origin:
            _deprecated(flat, "the variable for")
            nested.setdefault(group, {})[name] = raw
            origin[f"{group}.{name}"] = f"{ENV_PREFIX}{flat.upper()}"
    return nested, origin


class Config(BaseModel):
    """Every setting, in groups (`GROUPS`). Defaults are the original write-ups' numbers unless a field says
    otherwise; docs/config.md lists them all. `Config()` reads no environment: `Config.from_env()` does."""

    model_config = ConfigDict(extra="forbid")

    store: StoreSettings = Field(default_factory=StoreSettings)
    capture: CaptureSettings = Field(default_factory=CaptureSettings)
    models: ModelSettings = Field(default_factory=ModelSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    currency: CurrencySettings = Field(default_factory=CurrencySettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    consolidation: ConsolidationSettings = Field(default_factory=ConsolidationSettings)
    workstreams: WorkstreamSettings = Field(default_factory=WorkstreamSettings)
    loops: LoopSettings = Field(default_factory=LoopSettings)
    inject: InjectSettings = Field(default_factory=InjectSettings)
    judgments: JudgmentSettings = Field(default_factory=JudgmentSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    hooks: HookSettings = Field(default_factory=HookSettings)
    experimental: ExperimentalSettings = Field(default_factory=ExperimentalSettings)

    @model_validator(mode="before")
    @classmethod
    def _legacy(cls, values: Any) -> Any:
        """Flat keyword arguments of earlier releases (``Config(consolidate_every=4)``) go to their groups."""
        if isinstance(values, Mapping) and any(k not in GROUPS or not isinstance(v, Mapping | BaseModel)
                                               for k, v in values.items()):
            return _nest(values, "the keyword")
        return values

    def __getattr__(self, name: str) -> Any:
        """``config.consolidate_every`` (a flat name of earlier releases) reads capture.consolidate_every."""
        if name in LEGACY_NAMES:
            _deprecated(name, "the attribute")
            group, field = LEGACY_NAMES[name]
            return getattr(getattr(self, group), field)
        return super().__getattr__(name)  # type: ignore[misc]

    def replace(self, changes: Mapping[str, Any] | None = None, /, **groups: Any) -> Config:
        """A validated copy with `changes` applied: ``{"capture.consolidate_every": 4}``, or a group's fields by
        keyword (``replace(capture={"consolidate_every": 4})``)."""
        nested = _nest({**(changes or {}), **groups}, "the setting")
        merged = {group: getattr(self, group).model_dump() for group in GROUPS}
        for group, values in nested.items():
            merged[group].update(values)
        return Config.model_validate(merged)

    def get(self, dotted: str) -> Any:
        """The value of ``group.field``."""
        group, name = dotted.split(".", 1)
        return getattr(getattr(self, group), name)

    @classmethod
    def from_env(cls, changes: Mapping[str, Any] | None = None, /, **overrides: Any) -> Config:
        """Defaults, then the environment (`environment`), then `changes`/`overrides` (dotted, a group's mapping,
        or a flat name of earlier releases; None: not overridden)."""
        nested, origin = environment()
        try:
            merged = cls.model_validate(nested)
        except ValidationError as exc:
            bad = [f"{origin.get('.'.join(map(str, e['loc'][:2])), '.'.join(map(str, e['loc'])))}="
                   f"{e['input']!r}: {e['msg']}" for e in exc.errors()]
            raise ValueError("bad setting in the environment: " + "; ".join(bad)) from None
        given = {k: v for k, v in {**(changes or {}), **overrides}.items() if v is not None}
        return merged.replace(given) if given else merged


GROUPS: dict[str, type[_Group]] = {name: cast("type[_Group]", field.annotation)
                                   for name, field in Config.model_fields.items()}

LEGACY_NAMES: dict[str, tuple[str, str]] = {
    **{_LEGACY_PREFIX.get(group, "") + name: (group, name)
       for group, cls in GROUPS.items() for name in cls.model_fields},
    **{flat: (dotted.split(".")[0], dotted.split(".")[1]) for flat, dotted in _LEGACY_EXCEPTIONS.items()},
}
"""Every flat name of earlier releases (keyword, attribute, ``EPISODIC_<NAME>``): its (group, field)."""
