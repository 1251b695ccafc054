"""Safe FTS5 query building: user text never reaches MATCH as syntax."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..store.scripts import SCRIPT_CHARS, expand, has_script, split_runs, terms, tokens
from ..store.scripts import singles as single_characters

_WORD = re.compile(r"\w+", re.UNICODE)
_WORD_OR_RUN = re.compile(f"(?:\\w|[{SCRIPT_CHARS}])+", re.UNICODE)  # also a run with Thai vowel marks (not \\w)

# Words that carry no retrieval signal in conversational queries. BM25's IDF would mostly discount them, but
# OR-ing them in makes FTS5 visit most of the index.
STOPWORDS = frozenset(
    """a an and are as at be been being but by can could did do does doing for from had has have having he her
    hers him his how i if in into is it its itself me my myself no nor not of on or our ours she so some such than
    that the their theirs them then there these they this those to too very was we were what when where which while
    who whom why will with would you your yours yourself about any all also just s t d ll m re ve""".split()
)


def query_terms(text: str, *, keep_stopwords: bool = False, singles: bool = True) -> list[str]:
    """Lower-cased word tokens of `text`, stopwords dropped (unless nothing else is left), de-duplicated; a
    token with Chinese, … in it is its index terms (`store.scripts.terms`), or its pairs (`singles=False`)."""
    if not has_script(text):  # the usual case, at the plain regex's speed
        words = [w.lower() for w in _WORD.findall(text)]
    else:
        words = [t for w in _WORD_OR_RUN.findall(text)
                 for t in ((terms(w) if singles else expand(w)) if has_script(w) else [w.lower()])]
    words = list(dict.fromkeys(words))
    return words if keep_stopwords else content_terms(words)


def words_and_terms(text: str) -> tuple[list[str], list[str]]:
    """`query_terms(text, keep_stopwords=True, singles=False)` and `query_terms(text)` from one reading of
    `text` (`query.analyze` needs both): a token with Chinese, … in it is split into its pairs once."""
    if not has_script(text):  # the usual case: the terms are the words without their stop words
        words = list(dict.fromkeys(w.lower() for w in _WORD.findall(text)))
        return words, content_terms(words)
    words, found = [], []
    for w in _WORD_OR_RUN.findall(text):
        if has_script(w):
            pairs = list(expand(w))
            words += pairs
            found += [*pairs, *single_characters(w)]  # `store.scripts.terms`
        else:
            words.append(w.lower())
            found.append(w.lower())
    return list(dict.fromkeys(words)), content_terms(list(dict.fromkeys(found)))


def content_terms(words: list[str]) -> list[str]:
    """`words` (`query_terms(..., keep_stopwords=True)`) without the stopwords; all of them if nothing else is left."""
    return [w for w in words if w not in STOPWORDS] or words


def fts_query(text: str, *, keep_stopwords: bool = False) -> str | None:
    """An FTS5 MATCH expression that ORs the query's terms, each quoted (so operators, column filters,
    prefixes and parentheses are plain words: any input is valid syntax); None when there are none."""
    return any_of(query_terms(text, keep_stopwords=keep_stopwords))


def any_of(terms: Sequence[str]) -> str | None:
    """An FTS5 MATCH expression for any of `terms` (word tokens, as `query_terms` returns them); None if empty."""
    return " OR ".join(f'"{t}"' for t in terms) if terms else None


# --- exact lookups (issue 23) ---------------------------------------------------------------------------
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”|「([^」]+)」|『([^』]+)』')
_CHUNK = re.compile(r"\S+")
_EDGES = "()[]{}<>\"'“”‘’.,;:!?…，。、！？；：（）【】「」『』《》〈〉・～"
_JOINED = re.compile(r"[^\W_][-_./@:+#][^\W_]")  # word characters joined by punctuation: ZQ-6614, a.b@c.d
_PIECE = re.compile(r"[^\W_]+")  # FTS5 unicode61's tokens: letters and digits, everything else separates
_VERSION = re.compile(r"\d+(?:\.\d+)+")
_HEX = re.compile(r"[0-9a-f]{7,40}")  # a hash or its prefix, all digits (`4821937`) or all letters (`deadbee`) too
_HEX_WORD = re.compile(r"[a-f]{7,40}")  # letters only: a hash prefix, not a word (few English words are a-f only)
_CODE = re.compile(r"([^\W\d_]{2,})(\d+)")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")


@dataclass(frozen=True)
class Lookup:
    """One thing a query may be looking up exactly: a quoted phrase, an identifier, or a word; `match` is a
    safe FTS5 expression for the memories holding it."""

    text: str
    match: str
    shape: str  # "quoted" | "identifier" | "word"


def _phrase(pieces: list[str]) -> str:
    return '"' + " ".join(pieces) + '"'


def identifier_match(chunk: str) -> str | None:
    """The FTS5 expression for an identifier in every form the index may hold it, OR-ed: `ZQ-6614` as
    "zq 6614" or "zq6614", `48,000` as "48000", `2.3.1` also as "v2.3.1", a hash as a prefix, …"""
    pieces = [p.lower() for p in _PIECE.findall(chunk)]
    if not pieces:
        return None
    forms = [_phrase(pieces)]
    letters_then_digits = len(pieces) == 2 and pieces[0].isalpha() and pieces[1].isdigit()
    if letters_then_digits or _THOUSANDS.fullmatch(chunk.lstrip("€$£¥")):
        forms.append(_phrase(["".join(pieces)]))
    if _VERSION.fullmatch(chunk):
        forms.append(_phrase([f"v{pieces[0]}", *pieces[1:]]))
    if len(pieces) == 1 and _HEX.fullmatch(pieces[0]):
        forms.append(_phrase(pieces) + "*")
    if len(pieces) == 1 and (code := _CODE.fullmatch(pieces[0])):
        forms.append(_phrase([code.group(1), code.group(2)]))
    return " OR ".join(dict.fromkeys(forms))


def lookups(text: str) -> list[Lookup]:
    """What `text` may be looking up exactly, each once, in order: its quoted phrases, identifiers (a chunk
    with a digit, word characters joined by punctuation, or 7+ letters a-f only) and other content words."""
    out: dict[str, Lookup] = {}
    for m in _QUOTED.finditer(text):
        quoted = next(g for g in m.groups() if g)
        pieces = tokens(quoted)  # a run of Chinese/Japanese/… as the phrase of its character pairs
        if pieces:
            out.setdefault(_phrase(pieces), Lookup(quoted, _phrase(pieces), "quoted"))
    scripts = has_script(text)
    rest = _QUOTED.sub(" ", text)
    if scripts:
        rest = split_runs(rest)  # a number inside Chinese text is a chunk of its own
    for m in _CHUNK.finditer(rest):
        chunk = m.group().strip(_EDGES)
        if scripts and has_script(chunk):  # a run: one word, the phrase of its pairs (`東京タワー`: "東京 京タ タワ ワー")
            if pieces := tokens(chunk):
                out.setdefault(_phrase(pieces), Lookup(chunk, _phrase(pieces), "word"))
        elif any(c.isdigit() for c in chunk) or _JOINED.search(chunk) or _HEX_WORD.fullmatch(chunk.lower()):
            match = identifier_match(chunk)
            if match is not None:
                out.setdefault(match, Lookup(chunk, match, "identifier"))
        else:  # no run of Chinese, … in it: its words are the plain regex's
            for word in map(str.lower, _WORD.findall(chunk)):
                if word not in STOPWORDS:
                    out.setdefault(_phrase([word]), Lookup(word, _phrase([word]), "word"))
    return list(out.values())


def whole_forms(found: Sequence[Lookup]) -> str | None:
    """The identifiers' and quoted phrases' own expressions among `found` (`lookups`), OR-ed (None if none):
    in the BM25 leg's terms, a memory holding an identifier whole outranks one holding its pieces apart."""
    forms = [f"({x.match})" for x in found if x.shape != "word"]
    return " OR ".join(forms) if forms else None
