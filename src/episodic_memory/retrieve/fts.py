"""Safe FTS5 query building: user text never reaches MATCH as syntax."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)

# Words that carry no retrieval signal in conversational queries. BM25's IDF would mostly discount them, but
# OR-ing them in makes FTS5 visit most of the index.
STOPWORDS = frozenset(
    """a an and are as at be been being but by can could did do does doing for from had has have having he her
    hers him his how i if in into is it its itself me my myself no nor not of on or our ours she so some such than
    that the their theirs them then there these they this those to too very was we were what when where which while
    who whom why will with would you your yours yourself about any all also just s t d ll m re ve""".split()
)


def query_terms(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased word tokens of `text`, stopwords dropped (all kept if nothing else is left), de-duplicated."""
    words = [w.lower() for w in _WORD.findall(text)]
    content = words if keep_stopwords else [w for w in words if w not in STOPWORDS]
    return list(dict.fromkeys(content or words))


def fts_query(text: str, *, keep_stopwords: bool = False) -> str | None:
    """An FTS5 MATCH expression that ORs the query's terms, each quoted as a string; None when there are none.

    Quoting makes operators (AND, OR, NOT, NEAR), column filters (``a:b``), prefixes (``*``), carets and
    parentheses plain words, so any input is valid syntax.
    """
    return any_of(query_terms(text, keep_stopwords=keep_stopwords))


def any_of(terms: list[str]) -> str | None:
    """An FTS5 MATCH expression for any of `terms` (word tokens, as `query_terms` returns them); None if empty."""
    return " OR ".join(f'"{t}"' for t in terms) if terms else None
