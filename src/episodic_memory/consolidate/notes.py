"""Bracketed notes on a message: not something the person said.

Chat exports and agents mark what is not text in square brackets — an attachment ("[photo: …]", "[shares an image:
a photo of …]"), "[edited]", "[link]". Read as sentences, a note became facts ("A photo of a group of dancers …]"),
keyphrases and loops. Consolidation reads sentences without them; recall still has the whole turn.
"""

from __future__ import annotations

import re

# Not an index ("items[0]"), a markdown link's text ("[the RFC](…)") nor a list of numbers ("[3, 5]"): a note has words.
_NOTE = re.compile(r"(?<![\w\]])\[(?=[^\[\]\n]*[A-Za-z]{2})[^\[\]\n]{1,400}\](?!\()")


def without_notes(text: str) -> str:
    """`text` with its bracketed notes replaced by a space."""
    return _NOTE.sub(" ", text) if "[" in text else text
