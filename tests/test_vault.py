"""The vault: markdown notes per workstream, entity and day; idempotent, atomic, in sync, and forgetting too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.ingest import parse_file, sample_path
from episodic_memory.vault import MANIFEST, VaultError, user_vault


def _sample(mem: Memory) -> None:
    parsed = parse_file(str(sample_path()))
    mem.add_turns(parsed.turns)
    for session_id in dict.fromkeys(t["session_id"] for t in parsed.turns):
        mem.end_session(session_id, wait=True)


def _notes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.md"))}


@pytest.fixture
def sample(mem: Memory) -> Memory:
    _sample(mem)
    return mem


def test_notes_per_workstream_entity_and_day(sample: Memory, tmp_path: Path) -> None:
    folder = tmp_path / "vault"
    report = sample.write_vault(folder)
    notes = _notes(folder)
    assert sorted(report.written) == sorted(notes) and not report.removed
    (ws,) = sample.workstreams()
    note = notes[f"Workstreams/{ws.name}.md"]
    assert note.startswith("---\ntype: \"workstream\"\n") and f"# {ws.name}" in note
    for episode in sample.episodes():  # every episode, by its day, with its summary's first words
        day = episode.to_dict()["started_at"][:10]
        assert f"[[{day}]] · `{episode.session_id}`" in note
        assert " ".join(episode.summary.split())[:40] in note
    for loop in sample.loops():
        assert f"- [ ] {loop.text}" in note and f"^loop-{loop.id}" in note
    assert "~~The Series B deck needs 12 slides.~~ (superseded)" in note  # history kept, struck through
    assert "The deck needs 14 slides" in note
    sarah = notes["Entities/Sarah.md"]
    assert "## Profile" in sarah and "## Facts" in sarah and "[[Maya Okafor]]" in sarah  # links to who she is with
    for entity in sample.entities():
        assert f"Entities/{entity.name}.md" in notes
    day = notes["Days/2026-11-17.md"]
    assert "`s3`" in day and f"[[{ws.name}]]" in day
    assert "**correction** The deck needs 14 slides" in day and "## Decisions and corrections" in day
    home = notes["Home.md"]
    assert f"[[{ws.name}]]" in home and "[[2026-11-02]]" in home and "[[Sarah]]" in home
    for text in notes.values():  # every link resolves to a note of the vault
        for link in {part.split("]]")[0] for part in text.split("[[")[1:]}:
            assert any(Path(rel).stem == link for rel in notes), link
    assert not list(folder.rglob("*.tmp")) and json.loads((folder / MANIFEST).read_text())["notes"] == sorted(notes)


def test_writing_again_touches_nothing_and_removes_only_its_own_notes(sample: Memory, tmp_path: Path) -> None:
    folder = tmp_path / "vault"
    sample.write_vault(folder)
    mtimes = {p: p.stat().st_mtime_ns for p in folder.rglob("*.md")}
    mine = folder / "Days" / "my own note.md"
    mine.write_text("mine")
    again = sample.write_vault(folder)
    assert not again.written and not again.removed and len(again.unchanged) == len(mtimes)
    assert {p: p.stat().st_mtime_ns for p in folder.rglob("*.md") if p != mine} == mtimes
    sample.forget(session_id="s1")
    after = sample.write_vault(folder)
    assert "Days/2026-11-02.md" in after.removed and not (folder / "Days" / "2026-11-02.md").exists()
    assert mine.read_text() == "mine"  # not the vault's: never touched


def test_a_file_the_vault_did_not_write_is_not_overwritten(sample: Memory, tmp_path: Path) -> None:
    folder = tmp_path / "vault"
    (folder / "Entities").mkdir(parents=True)
    (folder / "Entities" / "Sarah.md").write_text("my notes on Sarah")
    with pytest.raises(VaultError, match="was not written by the vault"):
        sample.write_vault(folder)
    assert (folder / "Entities" / "Sarah.md").read_text() == "my notes on Sarah"
    assert _notes(folder) == {"Entities/Sarah.md": "my notes on Sarah"}  # nothing was written


def test_config_vault_dir_follows_consolidation_and_forget(tmp_path: Path) -> None:
    vault_dir = tmp_path / "vaults"
    with Memory(tmp_path / "m.db", config=Config(store={"vault_dir": str(vault_dir)})) as mem:
        mem.add_turn("user", "We decided to hire a second designer.", session_id="a", speaker="Maya",
                     timestamp="2026-11-02T10:00:00Z")
        mem.end_session("a", wait=True)
        folder = user_vault(vault_dir, "default")
        assert "We decided to hire a second designer." in (folder / "Days" / "2026-11-02.md").read_text()
        mem.add_turn("user", "Actually, we decided on a contractor, not a second designer.", session_id="b",
                     speaker="Maya", timestamp="2026-11-05T10:00:00Z")
        mem.end_session("b", wait=True)
        assert "contractor" in (folder / "Days" / "2026-11-05.md").read_text()
        mem.add_turn("user", "Bo's note", session_id="c", user_id="bo", timestamp="2026-11-06T10:00:00Z")
        mem.end_session("c", user_id="bo", wait=True)
        assert (user_vault(vault_dir, "bo") / "Home.md").exists()
        mem.forget(session_id="b")
        assert not (folder / "Days" / "2026-11-05.md").exists() and (folder / "Days" / "2026-11-02.md").exists()
        mem.forget(all=True)
        assert _notes(vault_dir) == {}


def test_cli_vault_export(sample: Memory, tmp_path: Path) -> None:
    folder = tmp_path / "cli-vault"
    out = CliRunner().invoke(main, ["--db", sample.path, "vault", "export", str(folder)])
    assert out.exit_code == 0 and "note(s) written" in out.output and (folder / "Home.md").exists()
    out = CliRunner().invoke(main, ["--db", sample.path, "vault", "export", str(folder)])
    assert "0 note(s) written" in out.output
    (folder / MANIFEST).write_text("{not json")
    out = CliRunner().invoke(main, ["--db", sample.path, "vault", "export", str(folder)])
    assert out.exit_code == 1 and "damaged" in out.output


def test_an_import_brings_the_vault_up_to_date(sample: Memory, tmp_path: Path) -> None:
    sample.export(tmp_path / "e.jsonl")
    vault_dir = tmp_path / "vaults"
    with Memory(tmp_path / "copy.db", config=Config(store={"vault_dir": str(vault_dir)})) as copy:
        copy.import_(tmp_path / "e.jsonl")
    sample.write_vault(tmp_path / "direct")
    assert _notes(user_vault(vault_dir, "default")) == _notes(tmp_path / "direct")  # the same notes as from the original
