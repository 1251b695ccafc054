"""`bench/scale.py` makes real-text stores above 10k of copies of the 10k one (`copy_real_store`): each copy
written by `_write_copy` must import as new memories of their own — ids prefixed, conversation times shifted,
facts not merged into the original's — and leave the original as it was."""

from __future__ import annotations

import json
from pathlib import Path

from bench.scale import _copy_vectors, _write_copy

from episodic_memory import Config, Memory

from .fakes import HashingEmbedder

DAY = 86_400.0


def test_a_copy_imports_as_new_memories_shifted_in_time(tmp_path: Path) -> None:
    cfg = Config(capture={"consolidate_in_background": "off"})
    with Memory(tmp_path / "m.db", config=cfg, embedder=HashingEmbedder()) as mem:
        for s in range(3):
            for i in range(6):
                mem.add_turn("user", f"Dana said the Lisbon office lease ends in March and has {i + 10} desks.",
                             session_id=f"s{s}", turn_id=f"s{s}:{i}", timestamp=1_700_000_000 + s * DAY + i * 60)
            mem.end_session(f"s{s}")
        before = mem.derived_counts()
        mem.export(tmp_path / "base.jsonl")
        lines = (tmp_path / "base.jsonl").read_text().splitlines()
        header, records = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
        window = (1_700_000_000 - 365 * DAY, 1_700_000_000 + 10 * DAY)
        counts = _write_copy(tmp_path / "copy.jsonl", header, records, 1, 1000 * DAY, window)
        assert counts["turn"] == 18 and counts["session"] == 3 and counts["route_count"] == 0
        mem.import_(tmp_path / "copy.jsonl")
        turns = mem.store.session_turns(mem.user_id, "x1-s0")
        assert [t.turn_id for t in turns] == [f"x1-s0:{i}" for i in range(6)]
        assert turns[0].ts == 1_700_000_000 - 1000 * DAY
        assert [t.ts for t in mem.store.session_turns(mem.user_id, "s0")][0] == 1_700_000_000  # the original stays
        after = mem.derived_counts()
        assert after["facts"] == 2 * before["facts"] and after["episodes"] == 2 * before["episodes"]
        copied = [f for f in mem.facts() if f.session_id.startswith("x1-")]
        assert copied and all(f.valid_from < 1_700_000_000 - 900 * DAY for f in copied)

        # the vectors the import computed for the copy are those `_copy_vectors` takes from the rows it copies
        db = mem.store.db
        query = ("SELECT kind, item_id, session_id, model, vec FROM vectors WHERE session_id LIKE 'x1-%' "
                 "ORDER BY kind, item_id")
        embedded = db.execute(query).fetchall()
        assert {row[0] for row in embedded} == {"turn", "fact", "episode"}
        base_rows = db.execute("SELECT max(id) FROM vectors WHERE session_id NOT LIKE 'x1-%'").fetchone()[0]
        with db:
            db.execute("DELETE FROM vectors WHERE session_id LIKE 'x1-%'")
        _copy_vectors(db, "x1-", 1000 * DAY, window, base_rows)
        assert db.execute(query).fetchall() == embedded


def test_the_real_table_reports_turns_per_hit_and_the_pass_with_texts_read() -> None:
    from bench.scale import real_table, summarise_real_runs

    def run(p50: float, behind: float, read: float | None) -> dict[str, object]:
        out: dict[str, object] = {"recall_ms": {"p50": p50, "p95": 2 * p50}, "recall_cpu_ms": {"p50": p50, "p95": p50},
                                  "first_recall_ms": 100.0, "turns_per_hit": behind, "queries": 10}
        if read is not None:
            out["recall_texts_read_ms"] = {"p50": read, "p95": 2 * read}
        return out

    both = summarise_real_runs([run(9.0, 3.0, 7.0), run(10.0, 4.0, 8.0), run(11.0, 5.0, 6.0)])
    assert both["turns_per_hit"] == 4.0 and both["texts_read_p50"] == 7.0 and both["texts_read_p95"] == 14.0
    table = real_table([{"real": "locomo-dev", "size": 10_000, "measure": {"this": both}}])
    assert "turns per hit" in table and "| 4.0 | 7.00 / 14.00 |" in table
    without = summarise_real_runs([run(9.0, 1.0, None), run(10.0, 1.0, 8.0)])  # one run without the pass: none shown
    assert "texts_read_p50" not in without
