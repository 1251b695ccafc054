"""`episodic pg start | status | stop`: a local cluster for trying the backend, and the URL it prints works."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.store.postgres.cluster import LocalCluster, available

pytestmark = pytest.mark.skipif(not available(), reason="the postgres extra is not installed")


def test_pg_start_status_stop_and_the_printed_url_is_a_store() -> None:
    folder = Path(tempfile.mkdtemp(prefix="episodic-pg-cli-"))  # not pytest's folder: see tests/postgres/fixtures
    data = str(folder / "data")
    runner = CliRunner()
    try:
        assert runner.invoke(main, ["pg", "status", "--dir", data]).exit_code == 1  # nothing there yet
        started = runner.invoke(main, ["pg", "start", "--dir", data])
        assert started.exit_code == 0, started.output
        url = next(line.split("=", 1)[1] for line in started.output.splitlines() if line.startswith("EPISODIC_DB="))
        status = runner.invoke(main, ["pg", "status", "--dir", data])
        assert status.exit_code == 0 and f"EPISODIC_DB={url}" in status.output
        with Memory(url, config=Config(models={"embedder": "off"})) as mem:
            mem.add_turn("user", "the walrus lives in the local cluster", session_id="s")
            assert [h.text for h in mem.recall("walrus")] == ["the walrus lives in the local cluster"]
        recalled = runner.invoke(main, ["--db", url, "recall", "walrus"])
        assert recalled.exit_code == 0 and "local cluster" in recalled.output
        assert runner.invoke(main, ["pg", "stop", "--dir", data]).exit_code == 0
        assert not LocalCluster(Path(data)).running()
        assert runner.invoke(main, ["pg", "status", "--dir", data]).exit_code == 1
    finally:
        LocalCluster(Path(data)).stop()
        shutil.rmtree(folder, ignore_errors=True)
