"""The shipped stem table (lang/english.py, data/english_stems.txt.gz) gives exactly the stemmer's stems."""

from __future__ import annotations

import snowballstemmer

from episodic_memory.lang import english


def test_every_table_entry_is_the_stemmers_stem() -> None:
    table = english._load_stem_table()
    assert len(table) > 20_000
    live = snowballstemmer.stemmer("english")
    assert [w for w, s in table.items() if live.stemWord(w) != s] == []


def test_stem_with_the_table_as_without() -> None:
    words = ["Running", "wrote", "coaches", "Caroline's", "painting", "’camping’", "retired", "zzyzxian", "it's",
             "studies", "organizational", "went", "-well-", "generously"]
    with_table = [english.stem.__wrapped__(w) for w in words]  # type: ignore[attr-defined]
    saved = english._stems
    english._stems = {}
    try:
        without = [english.stem.__wrapped__(w) for w in words]  # type: ignore[attr-defined]
    finally:
        english._stems = saved
    assert with_table == without
    assert with_table[:3] == ["run", "write", "coach"]


def test_a_table_from_another_stemmer_is_not_used(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    class Other:
        def stemWord(self, w: str) -> str:  # noqa: N802
            return w + "x"

    monkeypatch.setattr(english, "_SNOWBALL", Other())
    assert english._load_stem_table() == {}
