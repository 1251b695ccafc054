"""Scripts written without spaces between words (Chinese, Japanese, Korean, Thai, …): what the lexical
index holds for them (`segmented`: each run as its overlapping character pairs, then, for Han, kana and
Hangul, its single characters). Kept below the store so that its writers and the query builders agree
(docs/retrieval.md, "CJK and other unsegmented scripts")."""

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
# the scripts whose characters are words or syllables (Han, kana, Hangul): a run of them also holds each alone
SINGLE_CHARS = (
    "\u3005-\u3007\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003134f\uac00-\ud7af"
)
_RUN = re.compile(f"[{SCRIPT_CHARS}]+")
_SINGLE = re.compile(f"[{SINGLE_CHARS}]")
# a token as the index's tokenizer sees it (letters and digits, these scripts' marks included), or a part of one
_TOKEN = re.compile(f"(?:[^\\W_]|[{SCRIPT_CHARS}])+")
_PART = re.compile(f"[{SCRIPT_CHARS}]+|(?:(?![{SCRIPT_CHARS}])[^\\W_])+")


def has_script(text: str) -> bool:
    """Whether `text` holds any character of an unsegmented script."""
    return not text.isascii() and _RUN.search(text) is not None  # isascii: the usual answer, at C speed


_LETTER = re.compile(r"[^\W\d_]")


def script_of(text: str) -> str:
    """"spaced" (no character of an unsegmented script: English, Spanish, Russian, …), "unsegmented" (every letter
    is one: `下周三去哪里出差`, digits and punctuation aside) or "mixed" (both: `我的iPhone密码`)."""
    if not has_script(text):
        return "spaced"
    return "mixed" if _LETTER.search(_RUN.sub("", text)) else "unsegmented"


def runs(text: str) -> list[str]:
    """The runs of unsegmented-script characters in `text`, in order."""
    return _RUN.findall(text)


def pairs(run: str) -> list[str]:
    """A run's overlapping character pairs; a run of one character is itself."""
    return [run] if len(run) < 2 else [run[i : i + 2] for i in range(len(run) - 1)]


def singles(text: str) -> list[str]:
    """The characters of `text`'s runs that are words or syllables (Han, kana, Hangul), each alone, NFKC-folded;
    none from a run of one (its pair is itself already)."""
    return [c for run in _RUN.findall(unicodedata.normalize("NFKC", text)) if len(run) > 1 for c in _SINGLE.findall(run)]


def expand(token: str) -> Iterator[str]:
    """The phrase terms of one token: its script runs as pairs, its other parts (digits, Latin) whole, lower-cased
    and NFKC-folded (full-width `１３８` is `138`)."""
    for m in _PART.finditer(unicodedata.normalize("NFKC", token)):
        part = m.group()
        if _RUN.fullmatch(part):
            yield from pairs(part)
        else:
            yield part.lower()


def terms(token: str) -> list[str]:
    """Every index term of one token, as a query ORs them: `expand`, then its `singles`."""
    return [*expand(token), *singles(token)]


def tokens(text: str) -> list[str]:
    """`text` as a phrase of index terms: tokens without these scripts as the tokenizer keeps them (lower-cased),
    tokens with them expanded (`expand`: the single characters stand apart, at the end of the index's column).
    What a quoted phrase or a lone run is matched as."""
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
    space-separated, in order (so a phrase of pairs is matched as it stands), then the runs' single characters
    (`singles`); None when it has none (English text: the column stays empty)."""
    if not has_script(text):
        return None
    phrase = [t for m in _TOKEN.finditer(text) if _RUN.search(m.group()) for t in expand(m.group())]
    return " ".join([*phrase, *singles(text)]) or None


def split_runs(text: str) -> str:
    """`text` with spaces around each run of these scripts, so that splitting on whitespace separates a number or
    a name from the Chinese around it (`电话13812345678` → `电话 13812345678`)."""
    return _RUN.sub(lambda m: f" {m.group()} ", text)
