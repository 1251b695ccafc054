"""The Latin script's accented letters, each read as its base letter ("Marília" → "Marilia", "Zdeněk" → "Zdenek").

The rules read words and names with ASCII patterns; a name with an accent ("Róisín", "Søren", "Björn") would
otherwise break into pieces ("R", "is", "n") and be no name at all. One letter for one, so a folded text keeps
its length and every offset in it.
"""

from __future__ import annotations

import unicodedata
from functools import cache

# letters no decomposition takes to one ASCII letter, read as the nearest one (one for one: "æ" as "a", not "ae")
_BY_HAND = {"ø": "o", "Ø": "O", "æ": "a", "Æ": "A", "œ": "o", "Œ": "O", "ß": "s", "đ": "d", "Đ": "D", "ł": "l",
            "Ł": "L", "þ": "t", "Þ": "T", "ð": "d", "Ð": "D", "ı": "i", "ħ": "h", "Ħ": "H", "ŀ": "l", "Ŀ": "L"}
# Latin-1 Supplement, Latin Extended-A and -B, Latin Extended Additional (Vietnamese)
_RANGES = (range(0xC0, 0x250), range(0x1E00, 0x1F00))


@cache
def _table() -> dict[int, str]:
    table: dict[int, str] = {}
    for block in _RANGES:
        for code in block:
            base = "".join(c for c in unicodedata.normalize("NFKD", chr(code)) if not unicodedata.combining(c))
            if len(base) == 1 and base.isascii() and base.isalpha():
                table[code] = base
    table.update({ord(k): v for k, v in _BY_HAND.items()})
    return table


def fold_latin(text: str) -> str:
    """`text` with each accented Latin letter as its base ASCII letter, one for one (same length); every other
    character (other scripts, punctuation, combining marks) as it was."""
    return text if text.isascii() else text.translate(_table())
