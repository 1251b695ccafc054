"""Issue 41, items 3 and 11: the vault under hostile ids, names and links.

One folder per user in `Config.store.vault_dir`, however alike two ids look (and an older version's folder moves to its new
name, with the user's own notes, only when its manifest says whose it is); nothing written, read or removed through a
symlink put in the vault; note names capped in bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from episodic_memory import Config, Memory
from episodic_memory.vault import MANIFEST, NAME_BYTES, VaultError, user_vault, write_user_vault

pytestmark = pytest.mark.sqlite_only("the vault is a folder beside a SQLite file")

SHARED_BEFORE = [("a/b", "a-b"), ("alice", "alice "), ("alice", " alice"), ("..", "user"), (".hidden", "hidden"),
                 ("x:y", "x*y"), ("Alice", "alice")]


def _remember(mem: Memory, user: str, text: str, day: str = "2026-11-02") -> None:
    session = f"s-{day}"
    mem.add_turn("user", text, session_id=session, user_id=user, timestamp=f"{day}T10:00:00Z")
    mem.end_session(session, user_id=user, wait=True)


def _owners(vault_dir: Path) -> dict[str, Path]:
    """The user of each vault folder under `vault_dir` (by its manifest) → the folder."""
    owners: dict[str, Path] = {}
    for manifest in sorted(vault_dir.glob(f"*/{MANIFEST}")):
        owner = json.loads(manifest.read_text(encoding="utf-8"))["user_id"]
        assert owner not in owners, f"{owner!r} has two vaults"
        owners[owner] = manifest.parent
    return owners


def _everything(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _days(folder: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted((folder / "Days").glob("*.md")))


# --- item 3: one folder per user ---------------------------------------------------------------------
@pytest.mark.parametrize(("first", "second"), SHARED_BEFORE)
def test_users_whose_ids_look_alike_each_keep_their_own_vault(tmp_path: Path, first: str, second: str) -> None:
    vault_dir = tmp_path / "vaults"
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"}, store={"vault_dir": str(vault_dir)})) as mem:
        _remember(mem, first, f"We decided {first!r} owns the launch plan.")
        _remember(mem, second, f"We decided {second!r} owns the hiring plan.")
    owners = _owners(vault_dir)
    assert set(owners) == {first, second}  # the second user's sync removed nothing of the first's
    for user, plan in ((first, "launch"), (second, "hiring")):
        folder = owners[user]
        assert folder == user_vault(vault_dir, user)
        assert f"# Memories of {user}" in (folder / "Home.md").read_text(encoding="utf-8")
        assert f"owns the {plan} plan" in _days(folder)


def test_user_folder_names_are_distinct_even_without_case_and_fit_a_file_name(tmp_path: Path) -> None:
    ids = [u for pair in SHARED_BEFORE for u in pair] + ["ALICE", "A/B", "con", "nul.txt", "-", "語" * 256,
                                                         "語" * 255 + "x", "a" * 256]
    names = [user_vault(tmp_path, u).name for u in dict.fromkeys(ids)]
    assert len({n.casefold() for n in names}) == len(names)
    for name in names:
        assert 0 < len(name.encode()) <= 120 and not name.startswith((".", "-", " ")) and "/" not in name
        assert not set(name) & set('\\:*?"<>|')


def test_an_old_vault_folder_moves_to_its_new_name_when_its_manifest_names_the_user(tmp_path: Path) -> None:
    """An upgrade: the vault an older version kept in ``<vault_dir>/<id>`` moves, with the user's own notes in it, to
    the new folder; a folder whose manifest names another user (two ids shared it) is left to that user."""
    vault_dir, db = tmp_path / "vaults", tmp_path / "m.db"
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:  # as an older version left things
        _remember(mem, "alice", "Alice keeps the budget.")
        _remember(mem, "a/b", "A/b keeps the roadmap.")
        mem.write_vault(vault_dir / "alice", user_id="alice")
        mem.write_vault(vault_dir / "a-b", user_id="a/b")  # `a/b` and `a-b` shared this folder
    (vault_dir / "alice" / "Days" / "my own note.md").write_text("mine", encoding="utf-8")
    old_ab = {p.name: p.read_text(encoding="utf-8") for p in (vault_dir / "a-b").rglob("*.md")}

    with Memory(db, config=Config(models={"embedder": "off"}, store={"vault_dir": str(vault_dir)})) as mem:
        _remember(mem, "alice", "Alice also keeps the forecast.", day="2026-11-03")
        new = user_vault(vault_dir, "alice")
        assert not (vault_dir / "alice").exists() and _owners(vault_dir)["alice"] == new  # moved, not copied
        assert (new / "Days" / "my own note.md").read_text(encoding="utf-8") == "mine"
        assert "budget" in _days(new) and "forecast" in _days(new)

        _remember(mem, "a-b", "A-b keeps the office keys.")  # not the owner of the old `a-b` folder: left alone
        assert {p.name: p.read_text(encoding="utf-8") for p in (vault_dir / "a-b").rglob("*.md")} == old_ab
        assert "office keys" in _days(user_vault(vault_dir, "a-b"))

        _remember(mem, "a/b", "A/b also keeps the calendar.", day="2026-11-04")  # its owner: moved now
        assert not (vault_dir / "a-b").exists()
        assert set(_owners(vault_dir)) == {"alice", "a-b", "a/b"}
        assert "roadmap" in _days(user_vault(vault_dir, "a/b"))


def test_a_folder_holding_another_users_vault_is_refused(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as mem:
        _remember(mem, "alice", "Alice keeps the budget.")
        _remember(mem, "bob", "Bob keeps the roadmap.")
        mem.write_vault(tmp_path / "vault", user_id="alice")
        before = _everything(tmp_path / "vault")
        with pytest.raises(VaultError, match="another user"):
            mem.write_vault(tmp_path / "vault", user_id="bob")
        assert _everything(tmp_path / "vault") == before


# --- item 11: links and long names -------------------------------------------------------------------
@pytest.fixture
def mem(tmp_path: Path) -> Memory:  # type: ignore[misc]
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as m:
        _remember(m, "default", "Sarah confirmed the venue.")
        yield m


def _entity(mem: Memory, name: str) -> None:
    fact = mem.add_fact(f"{name} runs the venue.", session_id="s-2026-11-02")
    mem.store.link_entities(mem.user_id, fact, [name])


@pytest.mark.parametrize("linked", ["Days", "Entities"])
def test_a_folder_of_the_vault_linked_elsewhere_is_never_written_through(
        mem: Memory, tmp_path: Path, linked: str) -> None:
    _entity(mem, "Sarah")
    folder, outside = tmp_path / "vault", tmp_path / "outside"
    outside.mkdir()
    folder.mkdir()
    (folder / linked).symlink_to(outside, target_is_directory=True)
    with pytest.raises(VaultError, match=f"{linked} is a link"):
        mem.write_vault(folder)
    assert not list(outside.iterdir())

    (folder / linked).unlink()  # the same after a first write: the notes are there, then the folder is swapped
    mem.write_vault(folder)
    (folder / linked).rename(tmp_path / "moved")
    (folder / linked).symlink_to(outside, target_is_directory=True)
    with pytest.raises(VaultError, match=f"{linked} is a link"):
        mem.write_vault(folder)
    assert not list(outside.iterdir())


def test_a_users_folder_in_vault_dir_linked_elsewhere_is_never_written_through(mem: Memory, tmp_path: Path) -> None:
    vault_dir, outside = tmp_path / "vaults", tmp_path / "outside"
    outside.mkdir()
    vault_dir.mkdir()
    user_vault(vault_dir, "default").symlink_to(outside, target_is_directory=True)
    with pytest.raises(VaultError, match="is a link"):
        write_user_vault(mem.store, "default", vault_dir)
    assert not list(outside.iterdir())


def test_a_manifest_entry_through_a_link_removes_nothing_outside(mem: Memory, tmp_path: Path) -> None:
    folder, outside = tmp_path / "vault", tmp_path / "outside"
    mem.write_vault(folder)
    outside.mkdir()
    (outside / "victim.md").write_text("not the vault's", encoding="utf-8")
    (folder / "Workstreams").symlink_to(outside, target_is_directory=True)
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    manifest["notes"] += ["Workstreams/victim.md", "Days/../../outside/victim.md", str(outside / "victim.md")]
    (folder / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(VaultError, match="Workstreams is a link"):
        mem.write_vault(folder)
    assert (outside / "victim.md").read_text(encoding="utf-8") == "not the vault's"

    (folder / "Workstreams").unlink()  # without the link, the other entries are not the vault's notes: ignored
    mem.write_vault(folder)
    assert (outside / "victim.md").read_text(encoding="utf-8") == "not the vault's"
    assert "victim" not in (folder / MANIFEST).read_text(encoding="utf-8")


def test_a_note_replaced_by_a_link_is_neither_followed_nor_replaced(mem: Memory, tmp_path: Path) -> None:
    folder, outside = tmp_path / "vault", tmp_path / "outside.md"
    mem.write_vault(folder)
    outside.write_text("mine", encoding="utf-8")
    (note,) = (folder / "Days").glob("*.md")
    note.unlink()
    note.symlink_to(outside)
    mem.add_turn("user", "Sarah also booked the caterer.", session_id="s-2026-11-02", timestamp="2026-11-02T11:00:00Z")
    mem.end_session("s-2026-11-02", wait=True)
    with pytest.raises(VaultError, match="not written by the vault"):
        mem.write_vault(folder)
    assert outside.read_text(encoding="utf-8") == "mine" and note.is_symlink()


def test_the_manifest_itself_as_a_link_is_refused(mem: Memory, tmp_path: Path) -> None:
    folder, outside = tmp_path / "vault", tmp_path / "elsewhere.json"
    mem.write_vault(folder)
    outside.write_text((folder / MANIFEST).read_text(encoding="utf-8"), encoding="utf-8")
    (folder / MANIFEST).unlink()
    (folder / MANIFEST).symlink_to(outside)
    before = outside.read_bytes()
    with pytest.raises(VaultError, match="is a link"):
        mem.write_vault(folder)
    assert outside.read_bytes() == before


def test_long_entity_names_fit_in_bytes_and_stay_distinct(mem: Memory, tmp_path: Path) -> None:
    long_a, long_b = "語" * 100, "語" * 99 + "言"  # 300 UTF-8 bytes each, alike for their first 297
    _entity(mem, long_a)
    _entity(mem, long_b)
    folder = tmp_path / "vault"
    report = mem.write_vault(folder)  # not OSError (file name too long)
    entities = sorted((folder / "Entities").glob("*.md"))
    assert len(entities) == 2 and all(len(p.stem.encode()) <= NAME_BYTES for p in entities)
    home = (folder / "Home.md").read_text(encoding="utf-8")
    for note in entities:  # Home links each by its note's name
        assert f"[[{note.stem}]]" in home and f"Entities/{note.name}" in report.written
    assert {n for p in entities for n in (long_a, long_b) if f"# {n}\n" in p.read_text(encoding="utf-8")} == {
        long_a, long_b}
    assert not mem.write_vault(folder).written  # and stable: written again, nothing changes
