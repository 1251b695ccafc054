from __future__ import annotations

from pathlib import Path

import pytest

from episodic_memory import Config, Memory, llm
from episodic_memory.default import close_default_memories

from .fakes import ScriptedBackend
from .postgres.fixtures import (  # noqa: F401 (fixtures and hooks of the PostgreSQL side)
    _stores_on_postgres,
    pg_cluster,
    pg_url,
    pytest_addoption,
    pytest_generate_tests,
    store_location,
)

# The environment that chooses an LLM (and proxies, which would route the fake servers' loopback traffic)
LLM_ENV = ("EPISODIC_LLM__BACKEND", "EPISODIC_LLM__MODEL", "EPISODIC_LLM__BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
           "OPENAI_API_KEY", "OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
           "all_proxy")


@pytest.fixture(autouse=True)
def _isolated_default_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Never touch the real user data directory: the default store lives in the test's tmp folder. No LLM is
    configured unless a test says so, and the process default backend is reset around every test."""
    monkeypatch.setenv("EPISODIC_DB", str(tmp_path / "default" / "memory.db"))
    for name in LLM_ENV:
        monkeypatch.delenv(name, raising=False)
    llm.set_backend(None)
    yield
    llm.set_backend(None)
    close_default_memories()


@pytest.fixture
def db_path(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A SQLite file; in a `both_backends` module, also a fresh PostgreSQL database (tests/postgres/fixtures.py)."""
    return store_location(request, tmp_path)


@pytest.fixture
def mem(db_path: Path):
    with Memory(db_path) as m:
        yield m


@pytest.fixture
def backend():
    """A scripted LLM backend (recorded replies), installed for the test; no retries."""
    scripted = ScriptedBackend()
    llm.set_backend(scripted, Config(llm={"retries": 0, "timeout_s": 5}))
    yield scripted
    llm.set_backend(None)
