"""Write src/episodic_memory/data/english_stems.txt.gz: the Snowball English stem of every whole, lower-case ASCII
word of the bundled MiniLM tokenizer's vocabulary (lang/english.py `stem` looks words up there before running the
stemmer). Run again after changing the stemmer or the tokenizer:

    PYTHONPATH=src python scripts/stem_table.py
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from episodic_memory.lang.english import STEM_TABLE, stem_table_text
from episodic_memory.models.embedder import default_tokenizer_path

OUT = Path(__file__).resolve().parents[1] / "src" / "episodic_memory" / "data" / STEM_TABLE


def main() -> None:
    vocab = json.loads(default_tokenizer_path().read_text(encoding="utf-8"))["model"]["vocab"]
    words = [w for w in vocab if w.isascii() and w.isalpha() and w.islower()]
    OUT.write_bytes(gzip.compress(stem_table_text(words).encode("utf-8"), compresslevel=9, mtime=0))
    print(f"wrote {OUT}: {len(set(words))} words, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
