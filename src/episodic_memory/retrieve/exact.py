"""Exact lookups (issue 23): the memories holding a query's rare identifier, rare word or quoted phrase rank above
every memory that holds none of them, whatever the legs and the boosts say.

The result is a tier per candidate key (item_id × 8 + kind code): how many of the lookups it holds, which the
retriever orders by before the score. What counts, and why: docs/retrieval.md, "Exact matches".
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections import Counter
from collections.abc import Sequence

from ..config import Config
from ..store.base import Store
from .fts import Lookup
from .kinds import KIND_BITS, KIND_CODES

# a known word with an inflection is known: (ending, what the stem ends with instead); "es" after a sibilant or "o"
_SUFFIXES = (("s", ""), ("ies", "y"), ("ied", "y"), ("ed", ""), ("d", ""), ("ing", ""), ("ing", "e"))
_DOUBLING = ("ing", "ed")  # endings after which a final consonant is doubled: format -> formatting
_ES_STEM = ("s", "x", "z", "ch", "sh", "o")
# a known word (or an inflection of one) behind one of these is known: rebranding, unplugged, overbooked
_PREFIXES = ("re", "un", "pre", "dis", "mis", "over", "under")
_COMMON = 3000  # the vocabulary's most frequent whole words (it is ordered by frequency): parts of a compound


@functools.cache
def _vocabulary() -> tuple[str, ...]:
    """The whole words of the bundled embedder's WordPiece vocabulary, most frequent first (~22k: common English
    words and names); empty when the tokenizer is not installed (then no word counts as coined)."""
    try:
        from ..models.embedder import default_tokenizer_path

        vocab = json.loads(default_tokenizer_path().read_text(encoding="utf-8"))["model"]["vocab"]
    except Exception:  # noqa: BLE001 - no vocabulary: the coined-word rule is off, the rest works
        return ()
    return tuple(w for w, _ in sorted(vocab.items(), key=lambda kv: kv[1]) if w.isalpha() and w.isascii())


@functools.cache
def known_words() -> frozenset[str]:
    """The vocabulary's whole words, as a set."""
    return frozenset(_vocabulary())


@functools.cache
def _common_words() -> frozenset[str]:
    return frozenset(_vocabulary()[:_COMMON])


def _inflected(word: str, known: frozenset[str]) -> bool:
    """`word` is a word of the vocabulary or an inflection of one: desserts, boxes, renovated, formatting, quizzed."""
    if word in known:
        return True
    if word.endswith("es") and word[:-2].endswith(_ES_STEM) and word[:-2] in known:  # boxes, wishes
        return True
    for end, stem in _SUFFIXES:
        if word.endswith(end):
            base = word[: -len(end)]
            if base + stem in known:
                return True
            if (end in _DOUBLING and not stem and len(base) >= 4 and base[-1] == base[-2]
                    and base[-1] not in "aeiouy" and base[:-1] in known):  # formatting, quizzed, scrubbing
                return True
    return False


def coined(word: str) -> bool:
    """A made-up word the dense leg cannot see ("zelafun"): letters only, no word of the vocabulary, nor an
    inflection of one, nor one behind a common prefix, nor a compound of two common words."""
    known = known_words()
    word = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode() if not word.isascii() else word
    if not known or not word.isalpha() or len(word) < 4:  # accents go, as in the tokenizer
        return False
    if _inflected(word, known):
        return False
    if any(word.startswith(p) and len(word) - len(p) >= 4 and _inflected(word[len(p):], known) for p in _PREFIXES):
        return False
    common = _common_words()
    return not any(word[:i] in common and word[i:] in common for i in range(3, len(word) - 2))


def exact_tiers(store: Store, cfg: Config, found: Sequence[Lookup], user_id: str, *, want_turns: bool,
                kinds: Sequence[str], session_id: str | None = None, since: float | None = None,
                until: float | None = None) -> Counter[int]:
    """Candidate key -> how many of the query's lookups `found` each memory holds (only keys holding one)."""
    tiers: Counter[int] = Counter()
    lone_word = len(found) == 1 and found[0].shape == "word"
    for lookup in found:
        coined_word = lookup.shape == "word" and not lone_word
        if coined_word and (cfg.retrieval.exact_coined_max_df <= 0 or not coined(lookup.text)):
            continue
        if lookup.shape == "quoted":
            pool = cfg.retrieval.exact_phrase_pool
            turns = [i for i, _ in store.search_turns(lookup.match, user_id, limit=pool, session_id=session_id,
                                                      since=since, until=until)] if want_turns else []
            memories = [(k, i) for k, i, _ in store.search_memories(lookup.match, user_id, limit=pool,
                                                                    kinds=kinds)] if kinds else []
        else:
            # a coined word's rarity is its turns (asked even when only derived memories are wanted); the
            # memories distilled from them may be more (a fact, an episode, a workstream each): exact_max_df
            cap = cfg.retrieval.exact_coined_max_df if coined_word else cfg.retrieval.exact_max_df
            if cap <= 0:
                continue
            turns = store.exact_turns(lookup.match, user_id, limit=cap + 1, session_id=session_id, since=since,
                                      until=until) if want_turns or coined_word else []
            if len(turns) > cap:
                continue
            if not want_turns:
                turns = []
            memory_cap = cfg.retrieval.exact_max_df if coined_word else cap
            memories = store.exact_memories(lookup.match, user_id, limit=memory_cap + 1, kinds=kinds) if kinds else []
            if len(memories) > memory_cap:
                continue
        tiers.update(i * KIND_BITS for i in set(turns))
        tiers.update(i * KIND_BITS + KIND_CODES[kind] for kind, i in set(memories))
    return tiers
