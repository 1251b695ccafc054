"""Exact lookups (issue 23) on PostgreSQL. PostgreSQL's own parser splits identifiers differently from the FTS5
index (`ZQ-1042` is `zq` and `-1042`, `v2.4.0` one token), so the identifier guarantee is SQLite's for now
(docs/postgres.md); quoted phrases, hash prefixes and rare words hold on both."""

from __future__ import annotations

import pytest

pytest.importorskip("psycopg", reason="the postgres extra is not installed")

from episodic_memory import Config, Memory  # noqa: E402


def test_phrases_hash_prefixes_and_rare_words_come_back_first_on_postgres(pg_url: str) -> None:
    with Memory(pg_url, config=Config(models={"embedder": "off"})) as mem:
        for i in range(60):
            mem.add_turn("user", f"note {i} about the rollback plan and the runbook review", session_id=f"s{i % 6}",
                         turn_id=f"t{i}")
        mem.add_turn("user", "The deploy hash is a1b2c3d4e5f6 and the rollback runbook lives with Quillfeather",
                     session_id="s9", turn_id="target")
        assert mem.recall('"rollback runbook"', k=3)[0].source_ids == ["target"]    # a quoted phrase
        assert mem.recall("a1b2c3d", k=3)[0].source_ids == ["target"]               # a hash by its prefix
        assert mem.recall("Quillfeather", k=3)[0].source_ids == ["target"]          # a rare word alone
        target = next(t.id for t in mem.session_turns("s9"))
        assert mem.store.exact_turns('"rollback runbook"', mem.user_id, limit=5) == [target]
        assert mem.store.exact_turns('"a1b2c3d"*', mem.user_id, limit=5) == [target]
        assert mem.store.exact_turns('"runbook rollback"', mem.user_id, limit=5) == []   # a phrase keeps its order


def test_digit_and_letter_hash_prefixes_and_coined_words_in_questions_on_postgres(pg_url: str) -> None:
    """A hash asked by a prefix of digits only or letters only, and a made-up word inside a question."""
    with Memory(pg_url, config=Config(models={"embedder": "off"})) as mem:
        for i in range(40):
            mem.add_turn("user", f"note {i} about the rollback plan and the runbook review", session_id=f"s{i % 4}")
        mem.add_turn("user", "deploy 48219375e6f1 went out", session_id="h", turn_id="digits")
        mem.add_turn("user", "deploy deadbeef1234 went out", session_id="h", turn_id="letters")
        mem.add_turn("user", "we talked about zelafun for the rollback plan", session_id="c", turn_id="coined")
        for query, turn_id in (("4821937", "digits"), ("which change was commit deadbee?", "letters"),
                               ("what did I decide about zelafun?", "coined")):
            first = mem.recall(query, k=3)[0]
            assert first.source_ids == [turn_id] and first.details.get("exact") == 1, query
