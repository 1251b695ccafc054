"""Scripts written without spaces between words (Chinese, Japanese, Korean, Thai, …): what the lexical index holds.

FTS5's `unicode61` tokenizer (and PostgreSQL's default parser) keeps a run of Han or kana characters as ONE token,
so a word inside it never matches: `東京` does not find `明日東京に行きます`. Python's stdlib `sqlite3` cannot
register an FTS5 tokenizer, so the index holds an expansion instead (`segmented`, a column of its own; English text
has none): each run of these scripts as its overlapping character pairs (a run of one character as itself), and
the digits and Latin letters written inside such a run as tokens of their own (`电话13812345678` holds
`13812345678`). The query side (`retrieve.fts`) turns the query's runs into the same pairs, OR-ed, so BM25 ranks a
turn higher the more of the query's pairs it holds. Pairs are the usual lexical unit for these scripts when no
dictionary segmenter is at hand: most Chinese words are two characters, and a longer word is the phrase of its pairs.

Kept below the store so that the store's writers (turns, migrations, import) and the query builders agree.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# Han (with extensions and compatibility ideographs), 々〆〇, kana (with half-width katakana and the prolonged-sound
# mark), Hangul syllables and jamo, Thai, Lao, Khmer, Myanmar.
SCRIPT_CHARS = (
    "\u3005-\u3007\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003134f"
    "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
    "\u0e00-\u0e7f\u0e80-\u0eff\u1780-\u17ff\u1000-\u109f"
)
_RUN = re.compile(f"[{SCRIPT_CHARS}]+")
# a token as the index's tokenizer sees it (letters and digits, these scripts' marks included), or a part of one
_TOKEN = re.compile(f"(?:[^\\W_]|[{SCRIPT_CHARS}])+")
_PART = re.compile(f"[{SCRIPT_CHARS}]+|(?:(?![{SCRIPT_CHARS}])[^\\W_])+")


def has_script(text: str) -> bool:
    """Whether `text` holds any character of an unsegmented script."""
    return not text.isascii() and _RUN.search(text) is not None  # isascii: the usual answer, at C speed


def runs(text: str) -> list[str]:
    """The runs of unsegmented-script characters in `text`, in order."""
    return _RUN.findall(text)


def pairs(run: str) -> list[str]:
    """A run's overlapping character pairs; a run of one character is itself."""
    return [run] if len(run) < 2 else [run[i : i + 2] for i in range(len(run) - 1)]


def expand(token: str) -> Iterator[str]:
    """The index terms of one token: its script runs as pairs, its other parts (digits, Latin) whole, lower-cased
    and NFKC-folded (full-width `１３８` is `138`)."""
    for m in _PART.finditer(unicodedata.normalize("NFKC", token)):
        part = m.group()
        if _RUN.fullmatch(part):
            yield from pairs(part)
        else:
            yield part.lower()


def tokens(text: str) -> list[str]:
    """`text` as index terms: tokens without these scripts as the tokenizer keeps them (lower-cased), tokens with
    them expanded (`expand`). What a quoted phrase or a lone run is matched as."""
    out: list[str] = []
    for m in _TOKEN.finditer(text):
        token = m.group()
        if _RUN.search(token):
            out.extend(expand(token))
        else:
            out.append(token.lower())
    return out


def segmented(text: str) -> str | None:
    """What the index's `segmented` column holds for `text`: the expansion of its tokens that contain these scripts,
    space-separated, in order; None when it has none (English text: the column stays empty)."""
    if not has_script(text):
        return None
    return " ".join(t for m in _TOKEN.finditer(text) if _RUN.search(m.group()) for t in expand(m.group())) or None


def split_runs(text: str) -> str:
    """`text` with spaces around each run of these scripts, so that splitting on whitespace separates a number or
    a name from the Chinese around it (`电话13812345678` → `电话 13812345678`)."""
    return _RUN.sub(lambda m: f" {m.group()} ", text)
