"""Every install line the README and the docs write works from a fresh venv (issue 42): it installs this checkout
(`.`, `".[extra]"`) or names this distribution, never `episodic-memory` (an unrelated project on the package index),
and every extra it names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
NAME = PYPROJECT["project"]["name"]
EXTRAS = set(PYPROJECT["project"]["optional-dependencies"])
# what follows `pip install` up to the end of the command: quoted or bare requirement words
_INSTALL = re.compile(r"pip install ((?:-[-\w]+ )*)([\"']?)([\w.-]*)(?:\[([\w,-]+)\])?\2")


def _install_lines() -> list[tuple[str, str, str, str]]:
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "README.md"]:
        for m in _INSTALL.finditer(path.read_text(encoding="utf-8")):
            found.append((path.name, m.group(3), m.group(4) or "", m.group(0)))
    return found


def test_the_distribution_is_not_the_unrelated_one_on_the_index() -> None:
    assert NAME == "episodic-memory-layer"


def test_every_install_line_installs_this_checkout_with_extras_that_exist() -> None:
    lines = _install_lines()
    assert len(lines) >= 5, lines
    for where, target, extras, text in lines:
        assert target in (".", NAME), f"{where}: {text}"
        for extra in filter(None, extras.split(",")):
            assert extra in EXTRAS, f"{where}: {text}: no extra {extra!r} in pyproject.toml"
