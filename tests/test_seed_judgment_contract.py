"""The seed's contract: episodic-judgment's own tests of its public API pass, unchanged, against our `EpisodicMemory`.

The judgment-memory write-up is published on PyPI as `episodic-judgment` 0.1.0 (MIT). Its sdist ships
`tests/test_core.py` (31 tests: store, search, utility-weighted search, verify, export, get, persistence). This module
fetches the sdist with pip at test time (pinned by hash, cached in pytest's cache directory), takes that one file out
and runs it in a child pytest whose conftest provides only the two fixtures it uses. Nothing of it is copied into the
repository. When the package index cannot be reached the test is skipped, saying so. Offline, point
`EPISODIC_SEED_SDIST` at a copy of the sdist (its hash is checked the same way).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENT = "episodic-judgment==0.1.0"
SDIST = "episodic_judgment-0.1.0.tar.gz"
SDIST_SHA256 = "2a9db9bb2829ecd1e2b01b479e5f76f6842001354b53ad571c6030494e53558b"
MEMBER = "episodic_judgment-0.1.0/tests/test_core.py"
SEED_TESTS = 31

# Only the fixtures test_core.py uses, as the issue states them.
CONFTEST = '''\
import pytest

from episodic_memory import EpisodicMemory


@pytest.fixture
def memory():
    with EpisodicMemory() as m:
        yield m


@pytest.fixture
def persisted_memory(tmp_path):
    with EpisodicMemory(db_path=str(tmp_path / "memory.db")) as m:
        yield m
'''


class IndexUnreachable(Exception):
    """pip could not get the sdist from the package index (no network, an index that does not answer)."""


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_sdist(dest: Path, pip_args: Sequence[str] = (), timeout: float = 300) -> Path:
    """The seed's sdist in `dest`: the copy already there, or one `pip download` fetches (hash-checked).

    Raises IndexUnreachable when pip fails to get it, AssertionError when what it got is not the pinned file.
    """
    sdist = dest / SDIST
    if sdist.is_file() and _sha256(sdist) == SDIST_SHA256:
        return sdist
    dest.mkdir(parents=True, exist_ok=True)
    requirements = dest / "requirements.txt"
    requirements.write_text(f"{REQUIREMENT} --hash=sha256:{SDIST_SHA256}\n", encoding="utf-8")
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "--retries", "1",
               "--timeout", "15", "--disable-pip-version-check", "--dest", str(dest), "-r", str(requirements),
               *pip_args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise IndexUnreachable(f"pip download {REQUIREMENT} took more than {timeout:.0f}s") from None
    if "DO NOT MATCH THE HASHES" in done.stderr:
        raise AssertionError(f"the index served an {SDIST} that is not the pinned one:\n{done.stderr[-2000:]}")
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
        raise IndexUnreachable(errors[-1] if errors else (done.stderr.strip().splitlines() or ["pip failed"])[-1])
    assert _sha256(sdist) == SDIST_SHA256, f"pip saved no {SDIST} with the pinned hash in {dest}"
    return sdist


def sdist_or_skip(dest: Path, pip_args: Sequence[str] = ()) -> Path:
    """`fetch_sdist`, or a skip that says the index could not be reached (and how to run the test offline)."""
    local = os.environ.get("EPISODIC_SEED_SDIST")
    if local:
        assert Path(local).is_file(), f"EPISODIC_SEED_SDIST={local} is no file"
        assert _sha256(Path(local)) == SDIST_SHA256, f"EPISODIC_SEED_SDIST={local} is not {SDIST} (hash differs)"
        return Path(local)
    try:
        return fetch_sdist(dest, pip_args)
    except IndexUnreachable as exc:
        pytest.skip(f"the package index could not be reached, so the seed's contract ({REQUIREMENT}'s "
                    f"tests/test_core.py) did not run: {exc}. Offline, set EPISODIC_SEED_SDIST to a copy of {SDIST}.")


def extract_test_core(sdist: Path, into: Path) -> Path:
    """Write the sdist's tests/test_core.py into `into` (that one member only, read, never extracted by path)."""
    with tarfile.open(sdist, "r:gz") as tar:
        member = tar.extractfile(MEMBER)
        assert member is not None, f"{SDIST} has no {MEMBER}"
        target = into / "test_core.py"
        target.write_bytes(member.read())
    return target


@pytest.fixture(scope="module")
def sdist_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the sdist is kept: pytest's cache (one download per checkout), else a temporary folder."""
    cache = getattr(request.config, "cache", None)
    return Path(cache.mkdir("episodic-judgment-sdist")) if cache is not None else tmp_path_factory.mktemp("sdist")


def test_the_seeds_own_tests_pass_unchanged(sdist_dir: Path, tmp_path: Path) -> None:
    sdist = sdist_or_skip(sdist_dir)
    run = tmp_path / "seed"
    run.mkdir()
    extract_test_core(sdist, run)
    (run / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (run / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # none of this repository's settings
    report = run / "report.xml"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(run / "pytest.ini"),
         "--rootdir", str(run), f"--junitxml={report}", str(run / "test_core.py")],
        cwd=run, env=env, capture_output=True, text=True, timeout=900,
    )
    output = (done.stdout + done.stderr)[-6000:]
    assert report.is_file(), f"the seed's tests did not run:\n{output}"
    suite = ET.parse(report).getroot()
    suite = suite if suite.tag == "testsuite" else suite[0]
    counts = {key: int(suite.get(key, "0")) for key in ("tests", "failures", "errors", "skipped")}
    assert counts == {"tests": SEED_TESTS, "failures": 0, "errors": 0, "skipped": 0}, output
    assert done.returncode == 0, output


def test_an_unreachable_index_skips_with_a_clear_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EPISODIC_SEED_SDIST", raising=False)
    nowhere = ["--isolated", "--index-url", "http://127.0.0.1:9/simple"]  # --isolated: no configured extra index
    with pytest.raises(IndexUnreachable, match="episodic-judgment"):
        fetch_sdist(tmp_path / "a", nowhere)
    with pytest.raises(pytest.skip.Exception, match="package index could not be reached"):
        sdist_or_skip(tmp_path / "b", nowhere)
