"""Scale benchmark: recall latency, ingest throughput, memory and file size at 10k / 100k / 1M stored turns.

    python bench/scale.py [--sizes 10000 100000 1000000] [--queries 200] [--out bench/results/scale.json]
                          [--workdir /tmp/episodic-scale]

What it does (details in bench/README.md, section "Scale"):

1. A deterministic synthetic conversation corpus: sessions of 10-30 turns between two of eight speakers, turns of
   5-60 words drawn from a Zipf distribution over ~5,000 English words (frequency-ranked), with named people and
   places mixed in, timestamps spread over two years.
2. Ingest throughput with real embedding, on a fresh store: `add_turns` (one call per session: journal + fsync +
   SQLite + FTS) and then `index()` (MiniLM ONNX), timed separately; plus the live path (`add_turn` per turn and
   `end_session`, default Config).
3. One store per size, cached in --workdir: the first --real-vectors turns get real embeddings; every later turn
   gets a SYNTHETIC vector (random unit vectors drawn from a Gaussian fitted to the real ones; or, with
   --synthetic-vectors random, isotropic) inserted with `store.add_vectors`, because embedding 1M turns on
   2 cores would take about an hour. The last --ingest-sample turns of each store are ingested for real (timed):
   ingest throughput at that store size.
4. Recall latency, in a fresh process per size (so RSS and open time are clean): open, first recall (loads the
   vector matrix), warm-up, then --queries distinct questions → p50/p95/mean; and the p50 of each leg alone
   (query embedding, BM25, dense) to show where the time goes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:  # run from a clone without `pip install -e .`
    sys.path.append(str(ROOT / "src"))
if str(ROOT / "bench") not in sys.path:  # imported as bench.scale too
    sys.path.append(str(ROOT / "bench"))

from compat import make_config, setting  # noqa: E402
from episodic_memory import Memory  # noqa: E402
from episodic_memory.config import Config  # noqa: E402
from episodic_memory.models.embedder import DEFAULT_MODEL_ID, load_embedder  # noqa: E402
from episodic_memory.retrieve.fts import fts_query, query_terms  # noqa: E402
from episodic_memory.store.sqlite.migrations import SCHEMA_VERSION  # noqa: E402
from episodic_memory.util import TEXT_MEMOS  # noqa: E402

CORPUS_VERSION = 1  # bump when the generator changes: cached stores and vectors are keyed by it
USER = "default"
DIM = 384
SPAN_START = datetime(2024, 6, 1, tzinfo=timezone.utc).timestamp()
SPAN_SECONDS = 2 * 365 * 86_400
TARGETS_P50_MS = {10_000: 5.0, 100_000: 10.0, 1_000_000: 30.0}
TARGET_INGEST = 300.0  # turns/s
BULK = make_config(Config, {"capture.consolidate_every": 10**9, "capture.consolidate_on_open": False,
                            "capture.fsync_journal": False})
TIMED = make_config(Config, {"capture.consolidate_every": 10**9, "capture.consolidate_on_open": False})  # fsync on


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --- corpus ------------------------------------------------------------------------------------------------

SPEAKERS = ["Caroline", "Melanie", "Jonah", "Gina", "Tomas", "Audrey", "Nate", "Priya"]
SYLLABLES = ("ka lo mi ra ve to na shi el an dor ric sa lin mar ta ben ja co li vo ru fe go da ny zel "
             "qui har mon pe sto bri ga len ost").split()
PLACE_SUFFIXES = ["ton", "ville", "burg", "field", "port", " Bay", " Park", " Falls", " Heights", "wood"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
QUESTION_TEMPLATES = [
    "What did {speaker} say about the {w1}?",
    "When did we talk about {w1} and {w2}?",
    "Do you remember what {person} thought of the {w1} {w2}?",
    "Where did {speaker} go for the {w1}?",
    "How many {w1} did {person} bring to {place}?",
    "Why was {speaker} worried about {w1}?",
    "What was the {w1} that {person} recommended?",
    "Which {w1} did {speaker} mention in {place}?",
    "What happened with the {w1} in {month} {year}?",
    "Has {speaker} ever told me about {w1} {w2}?",
    "what do i know about {w1} {w2} {w3}",
    "{person} {w1} {place}",
    "How does {speaker} feel about {w1} and {w2}?",
    "Did {person} finally finish the {w1}?",
    "What's the name of the {w1} near {place}?",
    "Tell me again about the {w1} {w2} {speaker} mentioned",
]


def load_vocabulary(size: int) -> list[str]:
    """~`size` English words ranked by frequency: the whole-word entries of the MiniLM (BERT uncased) vocabulary,
    whose ids from 1996 on follow corpus frequency ("the", "of", "and", ...)."""
    try:
        from episodic_memory.models.embedder import default_tokenizer_path

        vocab = json.loads(default_tokenizer_path().read_text())["model"]["vocab"]
        words = [w for w, i in sorted(vocab.items(), key=lambda x: x[1]) if i >= 1996 and w.isalpha() and w.isascii()]
    except Exception:  # no tokenizer: pseudo-words, still Zipf-ranked
        rng = np.random.default_rng(0)
        words = list(dict.fromkeys("".join(rng.choice(SYLLABLES, rng.integers(1, 4))) for _ in range(size * 2)))
    words = words[: size - 2]
    words.insert(1, "i")  # single letters sit below id 1996 in the BERT vocabulary
    words.insert(4, "a")
    return words


def zipf_cdf(n: int, s: float = 1.0, q: float = 2.7) -> np.ndarray:
    """Zipf-Mandelbrot: p(rank) ∝ 1 / (rank + q)^s."""
    w = 1.0 / (np.arange(1, n + 1) + q) ** s
    return np.cumsum(w) / w.sum()


class Corpus:
    """Deterministic synthetic conversations. Session i's text depends only on (seed, i), so every store's first
    sessions are the same (real vectors are computed once and shared); timestamps spread each store over 2 years."""

    def __init__(self, seed: int = 7, vocab_size: int = 5000) -> None:
        self.seed = seed
        self.words = load_vocabulary(vocab_size)
        self.display = ["I" if w == "i" else w for w in self.words]
        self.word_cdf = zipf_cdf(len(self.words))
        rng = np.random.default_rng([seed, 10**9])
        self.people = self._names(rng, 300, "")
        self.places = self._names(rng, 150, "place")
        self.people_cdf = zipf_cdf(len(self.people), 0.9)
        self.places_cdf = zipf_cdf(len(self.places), 0.9)
        # query words: content words (rank >= 60), still Zipf-weighted
        self.query_offset = 60
        self.query_cdf = zipf_cdf(len(self.words) - self.query_offset, 0.8)

    @staticmethod
    def _names(rng: np.random.Generator, n: int, kind: str) -> list[str]:
        out: dict[str, None] = {}
        while len(out) < n:
            name = "".join(rng.choice(SYLLABLES, int(rng.integers(2, 4)))).capitalize()
            if kind == "place":
                name += str(rng.choice(PLACE_SUFFIXES))
            if name.lower() not in {s.lower() for s in SPEAKERS}:
                out[name] = None
        return list(out)

    def session(self, i: int, n_sessions: int, max_turns: int | None = None) -> list[dict[str, Any]]:
        """Session number `i` of a store of `n_sessions` sessions (the count only sets the timestamps)."""
        rng = np.random.default_rng([self.seed, i])
        n = int(rng.integers(10, 31))
        a, b = rng.choice(len(SPEAKERS), 2, replace=False)
        lengths = np.clip(np.rint(rng.lognormal(np.log(16), 0.6, n)), 5, 60).astype(int)
        word_idx = np.searchsorted(self.word_cdf, rng.random(int(lengths.sum())))
        people = np.searchsorted(self.people_cdf, rng.random(n))
        places = np.searchsorted(self.places_cdf, rng.random(n))
        extras = rng.random((n, 4))
        gaps = rng.uniform(20, 180, n).cumsum()
        slot = SPAN_SECONDS / max(n_sessions, 1)
        # i past n_sessions (the fresh-ingest samples start at 800,000) wraps around inside the two years: a time
        # past year 9999 is refused at capture
        start = SPAN_START + (i % max(n_sessions, 1)) * slot + rng.uniform(0, max(slot - gaps[-1], 0))
        sid = f"s{i:07d}"
        words_all = [self.display[w] for w in word_idx.tolist()]
        lengths_l, people_l, places_l, extras_l = lengths.tolist(), people.tolist(), places.tolist(), extras.tolist()
        times = (start + gaps).tolist()
        names = (SPEAKERS[a], SPEAKERS[b])
        turns, pos = [], 0
        for j in range(n if max_turns is None else min(n, max_turns)):
            words = words_all[pos : pos + lengths_l[j]]
            pos += lengths_l[j]
            x = extras_l[j]
            if x[0] < 0.25:
                words.insert(int(x[1] * len(words)), self.people[people_l[j]])
            if x[2] < 0.12:
                words.insert(int(x[3] * len(words)), "in " + self.places[places_l[j]])
            if len(words) > 8 and x[1] < 0.4:
                words[len(words) // 2] += ","
            text = " ".join(words)
            end = "?" if x[3] < 0.2 else "!" if x[3] > 0.95 else "."
            turns.append({
                "role": "user", "content": text[0].upper() + text[1:] + end, "session_id": sid,
                "speaker": names[j % 2], "timestamp": times[j], "turn_id": f"{sid}:{j}",
            })
        return turns

    def sessions(self, n_turns: int, first_session: int = 0,
                 n_sessions: int | None = None) -> Iterator[list[dict[str, Any]]]:
        """Sessions from `first_session` on, `n_turns` turns in all (the last one cut short)."""
        n_sessions = n_sessions or max(1, round(n_turns / 20))
        i, left = first_session, n_turns
        while left > 0:
            s = self.session(i, n_sessions, max_turns=left)
            left -= len(s)
            yield s
            i += 1

    def queries(self, n: int, seed: int, exclude: set[str] | None = None) -> list[str]:
        """`n` distinct question-like queries (distinct so the embedder's query cache never answers)."""
        rng = np.random.default_rng([self.seed, 777, seed])
        seen = set(exclude or ())
        out: list[str] = []
        while len(out) < n:
            template = QUESTION_TEMPLATES[int(rng.integers(len(QUESTION_TEMPLATES)))]
            w = [self.words[self.query_offset + int(k)] for k in np.searchsorted(self.query_cdf, rng.random(3))]
            q = template.format(
                w1=w[0], w2=w[1], w3=w[2], speaker=SPEAKERS[int(rng.integers(len(SPEAKERS)))],
                person=self.people[int(np.searchsorted(self.people_cdf, rng.random()))],
                place=self.places[int(np.searchsorted(self.places_cdf, rng.random()))],
                month=MONTHS[int(rng.integers(12))], year=2024 + int(rng.integers(3)),
            )
            if q not in seen:
                seen.add(q)
                out.append(q)
        return out


# --- helpers -----------------------------------------------------------------------------------------------

def rss_mb() -> dict[str, float]:
    """Current (VmRSS) and peak (VmHWM) resident memory of this process, MB. (ru_maxrss is kept too, but on Linux
    it carries over the parent's peak through fork + exec, so VmHWM is the one to read.)"""
    out: dict[str, float] = {"ru_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0].lower().replace("vm", "") + "_mb"] = int(line.split()[1]) / 1024
    except OSError:
        pass
    return out


def tree_bytes(path: Path) -> tuple[int, int]:
    """(bytes, files) under a folder."""
    total = files = 0
    stack = [path]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                stack.append(Path(e.path))
            else:
                total += e.stat(follow_symlinks=False).st_size
                files += 1
    return total, files


def file_sizes(db: Path) -> dict[str, float]:
    mb = 1024 * 1024
    sizes = {s or "db": (db.with_name(db.name + s).stat().st_size if db.with_name(db.name + s).exists() else 0)
             for s in ("", "-wal", "-shm")}
    journal, files = tree_bytes(db.with_name(db.name + ".journal"))
    return {"db_mb": sizes["db"] / mb, "wal_mb": sizes["-wal"] / mb, "journal_mb": journal / mb,
            "journal_files": files, "total_mb": (sizes["db"] + sizes["-wal"] + sizes["-shm"] + journal) / mb}


def percentiles(ms: list[float]) -> dict[str, float]:
    a = np.asarray(ms)
    return {"p50": float(np.percentile(a, 50)), "p95": float(np.percentile(a, 95)), "mean": float(a.mean()),
            "min": float(a.min()), "max": float(a.max()), "n": len(ms)}


def loadavg() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=10,
                              check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def blas_info() -> Any:
    try:
        from threadpoolctl import threadpool_info

        return [{k: v for k, v in i.items() if k in ("internal_api", "version", "num_threads", "architecture",
                                                    "threading_layer", "user_api")} for i in threadpool_info()]
    except ImportError:
        pass
    try:
        cfg = np.show_config(mode="dicts")
        return {"source": "numpy.show_config (threadpoolctl not installed)",
                "blas": cfg.get("Build Dependencies", {}).get("blas")}
    except Exception as exc:  # older numpy
        return {"error": str(exc)}


def metadata(args: argparse.Namespace) -> dict[str, Any]:
    import onnxruntime

    dirty = _git("status", "--porcelain", "--untracked-files=no", "--", "src")
    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "git_commit": _git("rev-parse", "HEAD"),
        "src_dirty": None if dirty is None else bool(dirty),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "cpu_affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "cpu_model": _cpu_model(),
        "mem_total_gb": _mem_total_gb(),
        "loadavg_start": loadavg(),
        "numpy": np.__version__,
        "blas": blas_info(),
        "onnxruntime": onnxruntime.__version__,
        "sqlite": sqlite3.sqlite_version,
        "schema_version": SCHEMA_VERSION,
        "corpus_version": CORPUS_VERSION,
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items() if not k.startswith("_")},
    }


def _cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _mem_total_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def batched(sessions: Iterator[list[dict[str, Any]]], turns_per_batch: int) -> Iterator[list[dict[str, Any]]]:
    """Whole sessions grouped into batches of about `turns_per_batch` turns."""
    batch: list[dict[str, Any]] = []
    for s in sessions:
        batch.extend(s)
        if len(batch) >= turns_per_batch:
            yield batch
            batch = []
    if batch:
        yield batch


# --- ingest ------------------------------------------------------------------------------------------------

def timed_ingest(mem: Memory, sessions: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """`add_turns` once per session (journal fsync + SQLite + FTS), then `index()` (real embedding), timed apart;
    then `end_session` for each (untimed: consolidation has nothing left to embed)."""
    n = sum(len(s) for s in sessions)
    mem.index()  # a fresh Memory scans for unembedded turns once; not part of the per-turn cost
    t0 = time.perf_counter()
    for s in sessions:
        mem.add_turns(s)
    t1 = time.perf_counter()
    embedded = mem.index()
    t2 = time.perf_counter()
    for s in sessions:
        mem.end_session(s[0]["session_id"])
    capture_s, embed_s = t1 - t0, t2 - t1
    return {
        "turns": n, "sessions": len(sessions), "embedded": embedded,
        "capture_s": round(capture_s, 3), "embed_s": round(embed_s, 3),
        "capture_turns_per_s": round(n / capture_s, 1), "embed_turns_per_s": round(embedded / embed_s, 1),
        "end_to_end_turns_per_s": round(n / (capture_s + embed_s), 1), "loadavg": loadavg(),
    }


def start_build(final: Path, label: str, rebuild: bool = False) -> tuple[dict[str, Any] | None, Path]:
    """(the cached store's build info, or None) and the empty folder a new build goes into."""
    done = final / "build.json"
    if done.exists() and not rebuild:
        info = json.loads(done.read_text())
        info["cached"] = True
        log(f"{label}: cached store {final}")
        return info, final
    tmp = final.with_name(final.name + ".building")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    return None, tmp


def finish_build(db: Path, info: dict[str, Any], started: float, tmp: Path, final: Path) -> None:
    """A built store's counts and build time into `info` (and its build.json), then the folder moved into place."""
    with sqlite3.connect(db) as con:
        for table in ("turns", "sessions", "vectors"):
            info[table] = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    con.close()
    info["build_s"] = round(time.perf_counter() - started, 1)
    (tmp / "build.json").write_text(json.dumps(info, indent=2))
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    info["cached"] = False


def live_ingest(corpus: Corpus, root: Path, n_turns: int) -> dict[str, Any]:
    """The live path an agent takes: `add_turn` per turn (one fsync each), `end_session`, default Config
    (consolidation embeds every 8 turns)."""
    sessions = list(corpus.sessions(n_turns, first_session=900_000))
    with Memory(root / "live.db", config=Config()) as mem:
        mem.index()
        t0 = time.perf_counter()
        for s in sessions:
            for t in s:
                mem.add_turn(t["role"], t["content"], session_id=t["session_id"], speaker=t["speaker"],
                             timestamp=t["timestamp"], turn_id=t["turn_id"])
            mem.end_session(s[0]["session_id"])
        elapsed = time.perf_counter() - t0
        vectors = mem.stats()["vectors"]
    return {"turns": n_turns, "seconds": round(elapsed, 3), "turns_per_s": round(n_turns / elapsed, 1),
            "vectors": vectors, "loadavg": loadavg()}


def embedding_tokens(sessions: list[list[dict[str, Any]]]) -> float | None:
    """Mean tokens per embedded text (speaker + content, after the start of the previous turn, as the indexer
    builds it): embedding cost grows with it."""
    try:
        from tokenizers import Tokenizer

        from episodic_memory.models.embedder import DEFAULT_MAX_LENGTH, default_tokenizer_path

        tok = Tokenizer.from_file(str(default_tokenizer_path()))
        tok.no_padding()
        tok.enable_truncation(max_length=DEFAULT_MAX_LENGTH)
    except Exception:
        return None
    chars = setting(Config(), "models.embed_context_chars")
    texts = []
    for s in sessions:
        previous = None
        for t in s:
            text = f"{t['speaker']}: {t['content']}" if t.get("speaker") else t["content"]
            texts.append(f"{previous[:chars]}\n{text}" if previous else text)
            previous = text
    return round(float(np.mean([len(e.ids) for e in tok.encode_batch(texts)])), 1)


def measure_fresh_ingest(corpus: Corpus, workdir: Path, n_turns: int, live_turns: int) -> dict[str, Any]:
    root = workdir / "ingest-fresh"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    try:
        t0 = time.perf_counter()
        load_embedder("default", setting(Config(), "models.threads"))
        model_load_s = time.perf_counter() - t0
        sessions = list(corpus.sessions(n_turns, first_session=800_000))
        log(f"ingest: {n_turns} turns into a fresh store (add_turns per session + index())")
        with Memory(root / "fresh.db", config=TIMED) as mem:
            batch = timed_ingest(mem, sessions)
        log(f"ingest: capture {batch['capture_turns_per_s']:.0f} turns/s, embed {batch['embed_turns_per_s']:.0f} "
            f"turns/s, end to end {batch['end_to_end_turns_per_s']:.0f} turns/s")
        live = live_ingest(corpus, root, live_turns) if live_turns else None
        if live:
            log(f"ingest: live path (add_turn + end_session, default Config) {live['turns_per_s']:.0f} turns/s")
        return {"model_load_s": round(model_load_s, 3), "tokens_per_embedded_turn": embedding_tokens(sessions),
                "words_per_turn": round(float(np.mean([len(t["content"].split()) for s in sessions for t in s])), 1),
                "batch_per_session": batch, "live_add_turn": live}
    finally:
        shutil.rmtree(root, ignore_errors=True)


# --- building a store --------------------------------------------------------------------------------------

def store_dir(workdir: Path, size: int, args: argparse.Namespace) -> Path:
    return workdir / (f"store-c{CORPUS_VERSION}-s{SCHEMA_VERSION}-{DEFAULT_MODEL_ID}-seed{args.seed}"
                      f"-{args.synthetic_vectors}-r{args.real_vectors}-i{args.ingest_sample}"
                      + ("" if args.consolidate else "-turns") + f"-{size}")


def real_vector_cache(workdir: Path, args: argparse.Namespace) -> Path:
    return workdir / f"real-vectors-c{CORPUS_VERSION}-{DEFAULT_MODEL_ID}-seed{args.seed}.npz"


def add_real_vectors(mem: Memory, cache: Path, model_id: str) -> dict[str, Any]:
    """Real embeddings for every stored turn: reuse the cached ones (same corpus prefix), embed the rest through
    `index()`, and grow the cache."""
    rows = mem.store.db.execute("SELECT id, user_id, session_id, ts, turn_id FROM turns ORDER BY id").fetchall()
    reused = 0
    if cache.exists():
        data = np.load(cache, allow_pickle=False)
        if str(data["model_id"]) == model_id:
            known = {t: i for i, t in enumerate(data["turn_ids"].tolist())}
            vecs = data["vectors"]
            have = [(r, known[r[4]]) for r in rows if r[4] in known]
            mem.store.add_vectors(model_id, [("turn", r[0], r[1], r[2], r[3], vecs[k].tobytes()) for r, k in have])
            reused = len(have)
    t0 = time.perf_counter()
    embedded = mem.index()
    embed_s = time.perf_counter() - t0
    if embedded:
        got = mem.store.db.execute(
            "SELECT t.turn_id, v.vec FROM turns t JOIN vectors v ON v.kind = 'turn' AND v.item_id = t.id "
            "AND v.model = ? ORDER BY t.id", (model_id,)).fetchall()
        old_ids: list[str] = []
        old_vecs = np.zeros((0, DIM), np.float32)
        if cache.exists() and reused:
            data = np.load(cache, allow_pickle=False)
            old_ids, old_vecs = data["turn_ids"].tolist(), data["vectors"]
        seen = set(old_ids)
        new = [(t, v) for t, v in got if t not in seen]
        ids = old_ids + [t for t, _ in new]
        vecs = np.concatenate([old_vecs, np.frombuffer(b"".join(v for _, v in new), np.float32).reshape(-1, DIM)])
        tmp = cache.with_name(cache.stem + ".tmp.npz")
        np.savez(tmp, turn_ids=np.array(ids), vectors=vecs, model_id=np.array(model_id))
        tmp.replace(cache)
    return {"reused": reused, "embedded": embedded, "embed_s": round(embed_s, 2),
            "embed_turns_per_s": round(embedded / embed_s, 1) if embedded else None}


def add_synthetic_vectors(mem: Memory, model_id: str, kind: str, seed: int, chunk: int = 20_000) -> dict[str, Any]:
    """A vector for every turn that has none. `random`: isotropic random unit vectors. `fitted`: random unit vectors
    drawn from a Gaussian with the mean and covariance of the store's real vectors, so cosines to a real query
    spread like real ones (same share above the dense floor) — isotropic ones sit near 0 and never pass it."""
    rng = np.random.default_rng([seed, 4242])
    mean = chol = None
    real_n = 0
    if kind == "fitted":
        blobs = mem.store.db.execute("SELECT vec FROM vectors WHERE model = ?", (model_id,)).fetchall()
        real = np.frombuffer(b"".join(b for (b,) in blobs), np.float32).reshape(-1, DIM).astype(np.float64)
        real_n = len(real)
        if real_n >= 2 * DIM:
            mean = real.mean(axis=0)
            chol = np.linalg.cholesky(np.cov(real, rowvar=False) + 1e-6 * np.eye(DIM))
    todo = mem.store.db.execute(
        "SELECT t.id, t.user_id, t.session_id, t.ts FROM turns t WHERE NOT EXISTS (SELECT 1 FROM vectors v "
        "WHERE v.kind = 'turn' AND v.item_id = t.id AND v.model = ?) ORDER BY t.id", (model_id,)).fetchall()
    for start in range(0, len(todo), chunk):
        part = todo[start : start + chunk]
        if chol is not None:
            vecs = rng.standard_normal((len(part), DIM)) @ chol.T + mean
        else:
            vecs = rng.standard_normal((len(part), DIM))
        vecs = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)
        mem.store.add_vectors(model_id, [("turn", i, u, s, ts, vecs[k].tobytes())
                                         for k, (i, u, s, ts) in enumerate(part)])
    return {"vectors": len(todo), "kind": kind if chol is not None or kind == "random" else "random (too few real)",
            "fitted_on": real_n if chol is not None else 0}


def build_store(corpus: Corpus, size: int, args: argparse.Namespace) -> tuple[Path, dict[str, Any]]:
    """The store of `size` turns (cached): bulk part + synthetic vectors, then a timed real ingest at its end."""
    final = store_dir(args.workdir, size, args)
    cached, tmp = start_build(final, f"{size:,}")
    if cached is not None:
        return final / "memory.db", cached
    db = tmp / "memory.db"
    n_sessions = max(1, round(size / 20))
    timed_n = min(args.ingest_sample, size // 2)
    bulk_n = size - timed_n
    real_n = min(args.real_vectors, bulk_n)
    embedder = load_embedder("default", setting(Config(), "models.threads"))
    info: dict[str, Any] = {"size": size, "built": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                            "git_commit": _git("rev-parse", "HEAD"), "synthetic_vectors": args.synthetic_vectors}
    t_build = time.perf_counter()
    with Memory(db, config=BULK) as mem:
        # 1. the first real_n turns, with real vectors (shared cache across sizes)
        t0 = time.perf_counter()
        stream = corpus.sessions(bulk_n, n_sessions=n_sessions)
        n = last_session = 0
        while True:
            # stage 1 stops at a session boundary at (or just past) real_n, then the real vectors are added
            limit = real_n - n if n < real_n else args.batch
            batch = next(batched(stream, min(limit, args.batch)), None)
            if batch is None:
                break
            mem.add_turns(batch)
            n += len(batch)
            last_session = int(batch[-1]["session_id"][1:])
            if args.analyze_build and "analyzed" not in info:
                # Without statistics SQLite answers insert_turns' min(ts)/max(ts) per session by walking the
                # (user_id, ts) index: O(store size) per session, ~0.3 s per add_turns call at 1M turns.
                # ANALYZE makes it use (user_id, session_id); dropped again before anything is timed.
                mem.store.db.execute("ANALYZE")
                info["analyzed"] = True
            if n >= real_n and "real" not in info:
                log(f"{size:,}: {n:,} turns stored; real vectors for them")
                info["real"] = add_real_vectors(mem, real_vector_cache(args.workdir, args), embedder.model_id)
            if n // 100_000 != (n - len(batch)) // 100_000:
                log(f"{size:,}: {n:,} / {bulk_n:,} turns stored ({n / (time.perf_counter() - t0):,.0f} turns/s)")
        capture_s = time.perf_counter() - t0
        info["bulk_capture"] = {"turns": n, "seconds": round(capture_s, 1), "turns_per_s": round(n / capture_s, 1),
                                "note": "add_turns in batches of whole sessions, fsync_journal=False (build only)"}
        # 2. synthetic vectors for the rest
        t0 = time.perf_counter()
        info["synthetic"] = add_synthetic_vectors(mem, embedder.model_id, args.synthetic_vectors, args.seed)
        info["synthetic"]["seconds"] = round(time.perf_counter() - t0, 1)
        log(f"{size:,}: {info['synthetic']['vectors']:,} synthetic vectors ({info['synthetic']['kind']}) inserted")
        # 3. end every session (consolidation: nothing left to embed); --no-consolidate: left open (turns only)
        t0 = time.perf_counter()
        sids = [r[0] for r in mem.store.db.execute("SELECT session_id FROM sessions WHERE status = 'open'")
                ] if args.consolidate else []
        for sid in sids:
            mem.end_session(sid)
        mem.wait_for_consolidation()  # the runs are part of what is timed
        info["end_sessions"] = {"sessions": len(sids), "seconds": round(time.perf_counter() - t0, 1)}
        if not args.consolidate:  # turns only: ended and counted as handled, so no open consolidates them
            with mem.store.transaction() as tx:
                info["end_sessions"]["marked_handled"] = tx.execute(
                    "UPDATE sessions SET status = 'ended', ended_at = updated_at, "
                    "consolidated_turns = turn_count, needs_consolidation = 0 WHERE status = 'open'").rowcount
        if info.get("analyzed"):
            drop_statistics(mem.store.db)
        mem.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    # 4. timed ingest into the store at its size: a fresh Memory, as an agent's process would open it
    if timed_n:
        log(f"{size:,}: timed ingest of the last {timed_n:,} turns (real embedding, fsync on)")
        sessions = list(corpus.sessions(timed_n, first_session=last_session + 1, n_sessions=n_sessions))
        t0 = time.perf_counter()
        with Memory(db, config=TIMED) as mem:
            info["open_for_ingest_s"] = round(time.perf_counter() - t0, 3)
            t0 = time.perf_counter()
            mem.index()
            info["index_watermark_scan_s"] = round(time.perf_counter() - t0, 3)
            info["ingest_at_size"] = timed_ingest(mem, sessions)
            mem.wait_for_consolidation()  # no worker inside a transaction on this connection
            mem.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        r = info["ingest_at_size"]
        log(f"{size:,}: ingest at size: capture {r['capture_turns_per_s']:.0f} turns/s, embed "
            f"{r['embed_turns_per_s']:.0f} turns/s, end to end {r['end_to_end_turns_per_s']:.0f} turns/s")
    finish_build(db, info, t_build, tmp, final)
    log(f"{size:,}: built in {info['build_s']:.0f} s ({info['turns']:,} turns, {info['vectors']:,} vectors)")
    return final / "memory.db", info


def drop_statistics(db: sqlite3.Connection) -> None:
    """Remove what ANALYZE left, so later connections plan queries as the shipped library does."""
    for table in ("sqlite_stat1", "sqlite_stat4"):
        db.execute(f"DROP TABLE IF EXISTS {table}")


# --- real conversation text (--real PATH) ------------------------------------------------------------------
#
# The synthetic corpus has short random-word turns and short queries; real conversation text has long natural turns
# and long natural questions, whose many terms make the BM25 leg and the currency pass slower. `--real PATH` builds
# stores from LoCoMo-format conversations (bench/datasets.py: a folder of per-conversation JSON files) repeated under
# new session ids up to the store size, and queries them with the conversations' questions.

REAL_VERSION = 1
REAL_SHIFT_DAYS = 365  # copy r of the conversations is said r years before copy 0 (every copy a distinct past)
REAL_BUILD = make_config(Config, {"capture.consolidate_every": 10**9, "capture.consolidate_on_open": False,
                                  "capture.fsync_journal": False})


def _load_locomo(path: Path) -> list[Any]:
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))
    from bench.datasets import load_locomo

    return load_locomo(path, verbose=False)


def real_sessions(conversations: list[Any], size: int) -> Iterator[list[dict[str, Any]]]:
    """Sessions of the conversations, copy after copy (copy r: session ids and turn ids prefixed `r{r}-`, every
    timestamp REAL_SHIFT_DAYS·r days earlier), `size` turns in all (the last session cut short)."""
    left, r = size, 0
    while left > 0:
        shift = r * REAL_SHIFT_DAYS * 86_400
        for conv in conversations:
            for s in conv.sessions:
                sid = f"r{r}-{s.session_id}"
                turns = [{"role": t.role, "content": t.text, "session_id": sid, "speaker": t.speaker,
                          "timestamp": t.timestamp.timestamp() - shift, "turn_id": f"r{r}-{conv.conv_id}:{t.turn_id}"}
                         for t in s.turns[:left]]
                if turns:
                    left -= len(turns)
                    yield turns
                if left <= 0:
                    return
        r += 1


def real_queries(conversations: list[Any], seed: int) -> list[str]:
    """Every distinct question of the conversations (categories 1-4), in a seeded random order."""
    questions = list(dict.fromkeys(q.question for conv in conversations for q in conv.questions))
    order = np.random.default_rng([seed, 2222]).permutation(len(questions))
    return [questions[i] for i in order.tolist()]


def real_store_dir(workdir: Path, size: int, real: Path) -> Path:
    return workdir / f"real-v{REAL_VERSION}-s{SCHEMA_VERSION}-{DEFAULT_MODEL_ID}-{real.resolve().name}-{size}"


REAL_BASE = 10_000  # real stores above this size are made of copies of this one's consolidated memories
# fields holding a time of the conversation (shifted with each copy); the others are when the store wrote the row
_EVENT_TIMES = ("ts", "started_at", "last_turn_at", "event_ts", "created_at", "valid_from", "valid_to",
                "last_mentioned", "closed_at", "due")


def build_real_store(real: Path, size: int, args: argparse.Namespace) -> tuple[Path, dict[str, Any]]:
    """The store of `size` turns of real conversation text (cached in --workdir): every session ingested with
    `add_turns`, then ended (`end_session`: embedded and consolidated with the default rules, no LLM: facts,
    episodes, entities and their vectors), as an agent's store is. Above REAL_BASE turns, see `copy_real_store`."""
    if size > REAL_BASE:
        return copy_real_store(real, size, args)
    final = real_store_dir(args.workdir, size, real)
    cached, tmp = start_build(final, f"real {size:,}", rebuild=args.rebuild)
    if cached is not None:
        return final / "memory.db", cached
    db = tmp / "memory.db"
    conversations = _load_locomo(real)
    info: dict[str, Any] = {
        "size": size, "real": str(real), "built": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "git_commit": _git("rev-parse", "HEAD"),
        "how": f"the {len(conversations)} conversations of {real.name}, repeated under new session ids (copy r said "
               f"{REAL_SHIFT_DAYS}·r days earlier) up to {size:,} turns; each session add_turns + end_session "
               "(real MiniLM embedding; consolidation by the default rules, no LLM)"}
    t0 = time.perf_counter()
    with Memory(db, config=REAL_BUILD) as mem:
        n = 0
        for session in real_sessions(conversations, size):
            mem.add_turns(session)
            mem.end_session(session[0]["session_id"])
            n += len(session)
            if n // 5000 != (n - len(session)) // 5000:
                log(f"real {size:,}: {n:,} turns ({n / (time.perf_counter() - t0):,.0f} turns/s)")
        mem.wait_for_consolidation()  # no worker inside a transaction on this connection
        mem.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        info["derived"] = mem.derived_counts()
    finish_build(db, info, t0, tmp, final)
    log(f"real {size:,}: built in {info['build_s']:.0f} s ({info['turns']:,} turns, {info['vectors']:,} vectors, "
        f"derived {info['derived']})")
    return final / "memory.db", info


def copy_real_store(real: Path, size: int, args: argparse.Namespace) -> tuple[Path, dict[str, Any]]:
    """A store of `size` turns (a multiple of REAL_BASE) made of copies of the REAL_BASE store's memories, through
    the public export and import: copy k's session, turn and caller ids prefixed `x{k}-`, its conversation times
    k spans earlier (the span of the base store's times and two years more), its facts' and loops' origins its own
    (so none merges with another copy's), its vectors those of the rows it copies. Consolidating 90k more turns
    would take hours here; this keeps what consolidation made of the same text (facts, episodes, entities, loops
    per copy) in ~1/10 of the time. What it does not make: facts recurring across copies (each copy's are
    distinct, as distinct conversations' are)."""
    if size % REAL_BASE:
        raise SystemExit(f"--sizes: a real store above {REAL_BASE:,} turns is made of whole copies of the "
                         f"{REAL_BASE:,}-turn one: {size:,} is no multiple of it")
    final = real_store_dir(args.workdir, size, real)
    cached, tmp = start_build(final, f"real {size:,}", rebuild=args.rebuild)
    if cached is not None:
        return final / "memory.db", cached
    base_db, base_info = build_real_store(real, REAL_BASE, args)
    t0 = time.perf_counter()
    export = tmp / "base.jsonl"
    with Memory(base_db, config=REAL_BUILD) as base:
        base.export(export)
    lines = export.read_text().splitlines()
    header, records = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    turn_times = [r["ts"] for r in records if r["kind"] == "turn"]
    first, last = min(turn_times) - 2 * 365 * 86_400, max(turn_times) + 86_400
    span = last - first
    db = tmp / "memory.db"
    shutil.copy(base_db, db)
    copies = size // REAL_BASE
    with Memory(db, config=make_config(Config, {"capture.consolidate_every": 10**9, "capture.consolidate_on_open": False,
                                            "capture.fsync_journal": False, "models.embedder": "off"})) as mem:
        base_rows = mem.store.db.execute("SELECT max(id) FROM vectors").fetchone()[0]
        for k in range(1, copies):
            copy = tmp / f"copy{k}.jsonl"
            counts = _write_copy(copy, header, records, k, span, (first, last))
            mem.import_(copy)
            _copy_vectors(mem.store.db, f"x{k}-", k * span, (first, last), base_rows)
            copy.unlink()
            log(f"real {size:,}: copy {k} of {copies - 1} imported ({counts['turn']:,} turns; "
                f"{time.perf_counter() - t0:,.0f} s)")
        mem.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        info: dict[str, Any] = {
            "size": size, "real": str(real), "built": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "git_commit": _git("rev-parse", "HEAD"), "derived": mem.derived_counts(),
            "how": f"{copies} copies of the {REAL_BASE:,}-turn store ({base_info['how']}): copy k imported from its "
                   f"export with ids prefixed x{{k}}- and conversation times {span / 86_400 / 365:.1f}·k years "
                   "earlier, its facts' and loops' origins its own; its vectors those of the rows it copies (the "
                   "same texts, embedded in the same context)"}
    export.unlink()
    finish_build(db, info, t0, tmp, final)
    log(f"real {size:,}: built in {info['build_s']:.0f} s ({info['turns']:,} turns, {info['vectors']:,} vectors, "
        f"derived {info['derived']})")
    return final / "memory.db", info


def _copy_vectors(db: sqlite3.Connection, prefix: str, shift: float, window: tuple[float, float],
                  base_rows: int) -> None:
    """Give a copy's turns, facts and episodes the vectors of the rows they copy: the same texts, embedded in the
    same context (a turn with its neighbour's start), so the model would give the same vectors, in ~1/100 the time.
    A copy's rows are found by what the copy prefixed: a turn's caller id, a fact's origin, an episode's session."""
    links = {"turn": ("turns", "turn_id"), "fact": ("facts", "origin"), "episode": ("episodes", "session_id")}
    with db:
        for kind, (table, key) in links.items():
            db.execute(
                f"INSERT INTO vectors (kind, item_id, user_id, session_id, ts, model, vec) "
                f"SELECT v.kind, n.id, v.user_id, n.session_id, "
                f"CASE WHEN v.ts BETWEEN ? AND ? THEN v.ts - ? ELSE v.ts END, v.model, v.vec "
                f"FROM vectors v JOIN {table} o ON o.id = v.item_id "
                f"JOIN {table} n ON n.user_id = o.user_id AND n.{key} = ? || o.{key} "
                f"WHERE v.kind = ? AND v.id <= ? ORDER BY n.id",
                (*window, shift, prefix, kind, base_rows))


def _write_copy(path: Path, header: dict[str, Any], records: list[dict[str, Any]], k: int, span: float,
                window: tuple[float, float]) -> dict[str, int]:
    """Copy `k` of a whole export's records into `path`: times of the conversation inside `window` moved `k·span`
    seconds earlier, session, turn, caller ids and origins prefixed `x{k}-` (row ids the import maps itself)."""
    prefix, shift = f"x{k}-", k * span
    out: list[dict[str, Any]] = []
    for r in records:
        kind = r["kind"]
        if kind == "route_count":  # counts of the routes facts took: the import adds no copy's
            continue
        r = dict(r)
        for name in _EVENT_TIMES:
            if isinstance(r.get(name), int | float) and window[0] <= r[name] <= window[1]:
                r[name] -= shift
        if "session_id" in r:
            r["session_id"] = prefix + r["session_id"]
        for name in ("uid", "turn_id", "origin"):
            if isinstance(r.get(name), str):
                r[name] = prefix + r[name]
        out.append(r)
    counts = {kind: sum(1 for r in out if r["kind"] == kind) for kind in header["counts"]}
    with path.open("w") as f:
        f.write(json.dumps({**header, "counts": counts}) + "\n")
        for r in out:
            f.write(json.dumps(r) + "\n")
    return counts


def measure_real(db: Path, real: Path, n_queries: int, seed: int, warmup: int, baselines: bool,
                 profile: Path | None = None, texts_read_pass: bool = False) -> dict[str, Any]:
    """In a fresh process: open, first recall, `warmup` recalls, then `n_queries` distinct real questions (wall and
    CPU time); then bm25s and a dense-only numpy scan over the same store's turns, on the same questions.

    `texts_read_pass`: then the same questions again, each embedded again (the query-vector cache emptied before
    each) but every candidate's text already read by this process: what the first reading of texts costs (currency's
    analyses, kept in the memos) is the difference."""
    queries = real_queries(_load_locomo(real), seed)
    first_q, warm_qs = queries[0], queries[1 : 1 + warmup]
    recall_qs = queries[1 + warmup : 1 + warmup + n_queries]
    out: dict[str, Any] = {"loadavg_start": loadavg(), "queries": len(recall_qs)}
    cfg = Config()  # the defaults (no reranker), not EPISODIC_* variables
    embedder = load_embedder(setting(cfg, "models.embedder"), setting(cfg, "models.threads"))
    t0 = time.perf_counter()
    mem = Memory(db, config=cfg)
    out["open_s"] = round(time.perf_counter() - t0, 4)
    t0 = time.perf_counter()
    mem.recall(first_q, k=10)
    out["first_recall_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    for q in warm_qs:
        mem.recall(q, k=10)
    profiler = None
    if profile is not None:
        import cProfile

        profiler = cProfile.Profile()
    floor = RecallFloor(mem, embedder)
    lat, cpu, behind = [], [], []
    for q in recall_qs:
        if profiler is not None:
            profiler.enable()
        c0, t0 = time.process_time(), time.perf_counter()
        hits = mem.recall(q, k=10)
        lat.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        if profiler is not None:
            profiler.disable()
        behind += [len(h.source_ids) for h in hits]
        floor.measure(q)  # right after the recall it bounds, under the same load
    if profiler is not None and profile is not None:
        profiler.dump_stats(str(profile))
        out["budget"] = recall_budget(mem, queries[1 + warmup + n_queries :][:n_queries] or recall_qs)
    out["recall_ms"] = percentiles(lat)
    out["recall_cpu_ms"] = percentiles(cpu)
    out["floor"] = floor.summary(out["recall_ms"], out["recall_cpu_ms"])
    # turns behind a hit (one text said in many turns is one hit): ~1 in a real store, the number of copies of a
    # text in one built from copies, where hit assembly walks every copy (docs/retrieval.md)
    out["turns_per_hit"] = round(float(np.mean(behind)), 2) if behind else 0.0
    if texts_read_pass:
        TEXT_MEMOS.set_budget(max(TEXT_MEMOS.budget, 1 << 30))  # nothing read in the timed pass is let go
        for q in recall_qs:  # every text of the timed questions' candidates read (a second time for most)
            mem.recall(q, k=10)
        again = []
        model = mem.embedder()
        for q in recall_qs:
            if model is not None and hasattr(model, "cache_clear"):
                model.cache_clear()  # the question embedded again, as in the timed pass
            t0 = time.perf_counter()
            mem.recall(q, k=10)
            again.append((time.perf_counter() - t0) * 1000)
        out["recall_texts_read_ms"] = percentiles(again)
    out["loadavg_recall"] = loadavg()
    out["rss_loaded"] = rss_mb()
    if baselines:
        rows = mem.store.db.execute("SELECT id, speaker, content FROM turns WHERE user_id = ? ORDER BY id",
                                    (USER,)).fetchall()
        out["bm25s_ms"] = _bm25s_latency([f"{s}: {c}" if s else c for _, s, c in rows], recall_qs)
        blobs = mem.store.db.execute("SELECT vec FROM vectors WHERE kind = 'turn' AND user_id = ? AND model = ?",
                                     (USER, embedder.model_id)).fetchall()
        matrix = np.frombuffer(b"".join(b for (b,) in blobs), np.float32).reshape(-1, embedder.dim)
        out["dense_scan_ms"], out["dense_scan_only_ms"] = _dense_latency(embedder, matrix, recall_qs)
    out["counts"] = mem.store.counts(USER)
    out["loadavg_end"] = loadavg()
    mem.close()
    return out


class RecallFloor:
    """What any recall must pay on this machine for the same question (issue 45): the project's own embedder on
    the question (its query cache emptied first: no cache) and one numpy top-10 scan of the store's N float32 turn
    vectors (one BLAS thread, as the dense leg scans). Measured right after each timed recall, so both see the same
    load; `summary` gives its p50 / p95 (wall and CPU) and recall's ratios to them."""

    def __init__(self, mem: Memory, embedder: Any) -> None:
        from threadpoolctl import threadpool_limits

        self.embedder = embedder
        blobs = mem.store.db.execute("SELECT vec FROM vectors WHERE kind = 'turn' AND user_id = ? AND model = ?",
                                     (USER, embedder.model_id)).fetchall()
        self.matrix = np.frombuffer(b"".join(b for (b,) in blobs), np.float32).reshape(-1, embedder.dim).copy()
        self.limits = threadpool_limits
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def measure(self, q: str) -> None:
        if hasattr(self.embedder, "cache_clear"):
            self.embedder.cache_clear()  # no cached vector of it (the recall before embedded its names-out text)
        with self.limits(1, user_api="blas"):
            c0, t0 = time.process_time(), time.perf_counter()
            qvec = np.asarray(self.embedder.embed_query(q), np.float32)
            scores = self.matrix @ qvec
            top = np.argpartition(-scores, 9)[:10]
            top[np.argsort(-scores[top])]
            self.wall.append((time.perf_counter() - t0) * 1000)
            self.cpu.append((time.process_time() - c0) * 1000)

    def summary(self, recall_ms: dict[str, float], recall_cpu_ms: dict[str, float]) -> dict[str, Any]:
        wall, cpu = percentiles(self.wall), percentiles(self.cpu)
        return {"rows": len(self.matrix), "ms": wall, "cpu_ms": cpu,
                "ratio_p50": round(recall_ms["p50"] / wall["p50"], 3),
                "ratio_p95": round(recall_ms["p95"] / wall["p95"], 3),
                "cpu_ratio_p50": round(recall_cpu_ms["p50"] / cpu["p50"], 3),
                "cpu_ratio_p95": round(recall_cpu_ms["p95"] / cpu["p95"], 3)}


def recall_budget(mem: Memory, queries: list[str]) -> dict[str, Any]:
    """Where a recall's time goes: each step of the read path timed (perf_counter around it) over `queries`, mean
    ms per recall. The BM25 legs run in a worker thread while the calling thread embeds the query and scans the
    vectors: their rows overlap in wall time ("bm25 wait" is what the calling thread waited for them)."""
    import importlib

    cp = importlib.import_module("episodic_memory.retrieve.currency_pass")
    rt = importlib.import_module("episodic_memory.retrieve.retriever")

    sink: dict[str, float] = {}   # wall ms per step
    cpu: dict[str, float] = {}    # CPU ms of the thread that ran it
    patched: list[tuple[Any, str, Any]] = []

    def wrap(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)
        patched.append((owner, name, original))

        def timed(*a: Any, **kw: Any) -> Any:
            t, c = time.perf_counter(), time.thread_time()
            try:
                return original(*a, **kw)
            finally:
                sink[label] = sink.get(label, 0.0) + (time.perf_counter() - t) * 1000
                cpu[label] = cpu.get(label, 0.0) + (time.thread_time() - c) * 1000

        setattr(owner, name, timed)

    r, store = mem.retriever, mem.store
    dense = r.dense_index()
    embedder = mem.embedder()
    wrap(mem.indexer, "embed_pending", "index check (unembedded turns)")
    wrap(store, "speakers", "speakers")
    wrap(dense, "sync", "dense sync (watermark)")
    wrap(embedder, "embed_query", "query embedding")
    wrap(dense, "search_arrays", "dense scan")
    wrap(r, "_bm25_legs", "BM25 legs (worker thread)")
    wrap(store, "common_terms", "  common-term check (worker)")
    wrap(rt, "exact_tiers", "  exact lookups (worker)")
    wrap(store, "search_memories", "  FTS5 derived memories (worker)")
    wrap(store, "turn_heads", "turn heads")
    wrap(r, "_load_others", "derived hits (kinds/facts)")
    wrap(r, "_score", "score turns (neighbours, sessions)")
    wrap(r, "_score_others", "score derived")
    wrap(rt, "currency_pass", "currency pass")
    wrap(cp, "later_turns", "  follow-up FTS searches")
    wrap(cp, "followers", "  followers")
    wrap(cp, "currency_scores", "  currency scores")
    wrap(r, "_hits", "hit assembly")
    wrap(store, "turns_by_id", "full turns (currency, hits)")
    totals: list[float] = []
    cpu_totals: list[float] = []
    try:
        for q in queries:
            t0, c0 = time.perf_counter(), time.process_time()
            mem.recall(q, k=10)
            totals.append((time.perf_counter() - t0) * 1000)
            cpu_totals.append((time.process_time() - c0) * 1000)
    finally:
        for owner, name, original in reversed(patched):
            if owner is r or owner is store or owner is dense or owner is embedder or owner is mem.indexer:
                delattr(owner, name) if name in vars(owner) else setattr(owner, name, original)
            else:
                setattr(owner, name, original)
    n = len(queries)
    return {"recall_mean_ms": round(float(np.mean(totals)), 3), "recall_p50_ms": round(float(np.median(totals)), 3),
            "recall_cpu_mean_ms": round(float(np.mean(cpu_totals)), 3),
            "recall_cpu_p50_ms": round(float(np.median(cpu_totals)), 3),
            "steps_mean_ms": {k: round(v / n, 3) for k, v in sink.items()},
            "steps_cpu_mean_ms": {k: round(v / n, 3) for k, v in cpu.items()}}


def _bm25s_latency(texts: list[str], queries: list[str]) -> dict[str, float]:
    """bm25s (bench/baselines.py's settings: English stopwords, no stemming) over the store's turns: top 10."""
    import bm25s
    from bm25s.tokenization import Tokenizer

    tokenizer = Tokenizer(stopwords="en", stemmer=None)
    index = bm25s.BM25()
    index.index(tokenizer.tokenize(texts, update_vocab=True, return_as="ids", show_progress=False),
                show_progress=False)
    ms = []
    for q in queries:
        t0 = time.perf_counter()
        tokens = tokenizer.tokenize([q], update_vocab=False, return_as="ids", show_progress=False)
        index.retrieve(tokens, k=10, show_progress=False)
        ms.append((time.perf_counter() - t0) * 1000)
    return percentiles(ms)


def _dense_latency(embedder: Any, matrix: np.ndarray, queries: list[str]) -> tuple[dict[str, float], dict[str, float]]:
    """A dense-only numpy scan of the store's turn vectors (bench/baselines.py's DenseBaseline, exact cosine, top
    10): with the query embedding (its cache emptied first: every question embedded afresh), and the scan alone."""
    from threadpoolctl import threadpool_limits

    if hasattr(embedder, "cache_clear"):
        embedder.cache_clear()
    total, scan = [], []
    with threadpool_limits(1, user_api="blas"):  # as the dense leg scans: one BLAS thread (retrieve/dense.py)
        for q in queries:
            total_ms, scan_ms = _dense_one(embedder, matrix, q)
            total.append(total_ms)
            scan.append(scan_ms)
    return percentiles(total), percentiles(scan)


def _dense_one(embedder: Any, matrix: np.ndarray, q: str) -> tuple[float, float]:
    """(ms with the query's embedding, ms of the scan alone) for one question."""
    t0 = time.perf_counter()
    qvec = np.asarray(embedder.embed_query(q), np.float32)
    t1 = time.perf_counter()
    scores = matrix @ qvec
    top = np.argpartition(-scores, 9)[:10]
    top[np.argsort(-scores[top])]
    t2 = time.perf_counter()
    return (t2 - t0) * 1000, (t2 - t1) * 1000


def summarise_real_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    def median(key: str, stat: str) -> float:
        return float(np.median([r[key][stat] for r in runs]))

    out: dict[str, Any] = {"runs": runs, "p50": median("recall_ms", "p50"), "p95": median("recall_ms", "p95"),
                           "cpu_p50": median("recall_cpu_ms", "p50"), "cpu_p95": median("recall_cpu_ms", "p95"),
                           "first_recall_ms": float(np.median([r["first_recall_ms"] for r in runs])),
                           "turns_per_hit": float(np.median([r.get("turns_per_hit", 0.0) for r in runs]))}
    if all("floor" in r for r in runs):  # the floor measured beside each run's recalls; ratios: medians of the runs'
        out.update({f"floor_{key}": float(np.median([r["floor"][key] for r in runs]))
                    for key in ("ratio_p50", "ratio_p95", "cpu_ratio_p50", "cpu_ratio_p95")})
        out["floor_p50"] = float(np.median([r["floor"]["ms"]["p50"] for r in runs]))
        out["floor_p95"] = float(np.median([r["floor"]["ms"]["p95"] for r in runs]))
        out["floor_cpu_p50"] = float(np.median([r["floor"]["cpu_ms"]["p50"] for r in runs]))
    if all("recall_texts_read_ms" in r for r in runs):
        out["texts_read_p50"] = float(np.median([r["recall_texts_read_ms"]["p50"] for r in runs]))
        out["texts_read_p95"] = float(np.median([r["recall_texts_read_ms"]["p95"] for r in runs]))
    with_baselines = [r for r in runs if "bm25s_ms" in r]
    if with_baselines:
        b = with_baselines[0]
        out.update(bm25s_p50=b["bm25s_ms"]["p50"], bm25s_p95=b["bm25s_ms"]["p95"],
                   dense_p50=b["dense_scan_ms"]["p50"], dense_p95=b["dense_scan_ms"]["p95"],
                   dense_scan_only_p50=b["dense_scan_only_ms"]["p50"])
    return out


def measure_real_in_child(db: Path, args: argparse.Namespace, src: Path | None, baselines: bool,
                          profile: Path | None = None) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--_measure_real", str(db), "--real", str(args.real),
           "--queries", str(args.queries), "--seed", str(args.seed), "--warmup", str(args.warmup)]
    if baselines:
        cmd.append("--_baselines")
    if profile is not None:
        cmd += ["--profile", str(profile)]
    if getattr(args, "texts_read_pass", False) and profile is None:
        cmd.append("--texts-read-pass")
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"measuring {db} failed (exit {proc.returncode})")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def real_table(results: list[dict[str, Any]]) -> str:
    head = ["store", "size", "code", "recall p50 ms", "p95 ms", "CPU p50 ms", "floor p50 / p95 ms",
            "recall ÷ floor p50 / p95 (CPU p50)", "first recall ms", "target p50 / p95",
            "bm25s p50 / p95", "dense scan p50 / p95 (scan alone)", "turns per hit",
            "p50 / p95, texts read before"]
    rows = []
    for r in results:
        for label, m in r["measure"].items():
            target = REAL_TARGETS_MS.get(r["size"])
            mark = ""
            if target:
                mark = f"≤ {target[0]:g} / ≤ {target[1]:g}" + (
                    " ✓" if m["p50"] <= target[0] and m["p95"] <= target[1] else " ✗")
            rows.append([f"real ({Path(r['real']).name})", f"{r['size']:,}", label, f"{m['p50']:.2f}",
                         f"{m['p95']:.2f}", f"{m['cpu_p50']:.2f}",
                         f"{m['floor_p50']:.2f} / {m['floor_p95']:.2f}" if "floor_p50" in m else "",
                         f"{m['floor_ratio_p50']:.2f}x / {m['floor_ratio_p95']:.2f}x ({m['floor_cpu_ratio_p50']:.2f}x)"
                         if "floor_p50" in m else "", f"{m['first_recall_ms']:.0f}", mark,
                         f"{m['bm25s_p50']:.2f} / {m['bm25s_p95']:.2f}" if "bm25s_p50" in m else "",
                         f"{m['dense_p50']:.2f} / {m['dense_p95']:.2f} ({m['dense_scan_only_p50']:.2f})"
                         if "dense_p50" in m else "", f"{m.get('turns_per_hit', 0.0):.1f}",
                         f"{m['texts_read_p50']:.2f} / {m['texts_read_p95']:.2f}" if "texts_read_p50" in m else ""])
    out = [_md(head, rows)]
    for r in results:
        if r.get("budget"):
            b = r["budget"]
            out.append(f"\nBudget of a recall at {r['size']:,} real turns (mean ms per recall over "
                       f"{r['measure']['this']['runs'][0]['queries']} other questions; CPU: of the thread that ran "
                       "the step; the BM25 legs run in a worker beside the query embedding and the dense scan):\n")
            out.append(_md(["step", "wall ms", "CPU ms"], [[k.strip(), f"{v:.2f}", f"{b['steps_cpu_mean_ms'][k]:.2f}"]
                                                           for k, v in b["steps_mean_ms"].items()]
                           + [["recall (all threads' CPU)", f"{b['recall_mean_ms']:.2f}",
                               f"{b['recall_cpu_mean_ms']:.2f}"]]))
    return "\n".join(out)


REAL_TARGETS_MS = {10_000: (3.0, 8.0), 100_000: (6.0, 15.0), 1_000_000: (15.0, 40.0)}  # p50, p95 (issue 22)


# --- measuring recall (in a child process per size) --------------------------------------------------------

def _wrap(obj: Any, name: str, sink: dict[str, float]) -> None:
    original = getattr(obj, name)

    def timed(*a: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return original(*a, **kw)
        finally:
            sink[name] = sink.get(name, 0.0) + (time.perf_counter() - t) * 1000

    setattr(obj, name, timed)


def measure(db: Path, n_queries: int, seed: int, warmup: int, budget_s: float) -> dict[str, Any]:
    """Open the store fresh, time the first recall, then `n_queries` distinct recalls and each leg alone."""
    corpus = Corpus(seed)
    queries = corpus.queries(warmup + 2 * n_queries + 1, seed=1)  # the same questions at every size
    first_q, warm_qs = queries[0], queries[1 : 1 + warmup]
    recall_qs = queries[1 + warmup : 1 + warmup + n_queries]
    leg_qs = queries[1 + warmup + n_queries :]
    out: dict[str, Any] = {"rss_start": rss_mb(), "blas_env": {v: os.environ.get(v) for v in (
        "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}, "loadavg_start": loadavg()}
    cfg = Config()  # the defaults (no reranker), not EPISODIC_* variables
    t0 = time.perf_counter()
    embedder = load_embedder(setting(cfg, "models.embedder"), setting(cfg, "models.threads"))
    out["model_load_s"] = round(time.perf_counter() - t0, 3)
    out["rss_model_loaded"] = rss_mb()

    t0 = time.perf_counter()
    mem = Memory(db, config=cfg)
    out["open_s"] = round(time.perf_counter() - t0, 4)
    out["rss_open"] = rss_mb()

    dense = mem.retriever.dense_index()
    assert dense is not None, "no dense index: the embedder did not load"
    parts: dict[str, float] = {}
    _wrap(mem.indexer, "embed_pending", parts)
    _wrap(dense, "sync", parts)
    _wrap(embedder, "embed_query", parts)
    t0 = time.perf_counter()
    hits = mem.recall(first_q, k=10)
    out["first_recall_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    for name in ("embed_pending", "sync", "embed_query"):
        for o in (mem.indexer, dense, embedder):
            if name in vars(o):
                delattr(o, name)
    out["first_recall_parts_ms"] = {"index_check (unembedded-turn scan)": round(parts.get("embed_pending", 0), 2),
                                    "vector_load (matrix sync)": round(parts.get("sync", 0), 2),
                                    "query_embedding": round(parts.get("embed_query", 0), 2)}
    out["first_recall_hits"] = len(hits)
    out["rss_loaded"] = rss_mb()

    for q in warm_qs:
        mem.recall(q, k=10)
    lat, cpu, n_hits = [], [], []
    started = time.perf_counter()
    for q in recall_qs:
        if len(lat) >= 30 and time.perf_counter() - started > budget_s:
            break  # --budget-s: enough samples, the rest would only cost time
        c0, t0 = time.process_time(), time.perf_counter()
        hits = mem.recall(q, k=10)
        lat.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        n_hits.append(len(hits))
    out["recall_ms"] = percentiles(lat)
    out["recall_cpu_ms"] = percentiles(cpu)  # CPU time of all threads: wall >> cpu means waiting for a core
    out["recall_mean_hits"] = float(np.mean(n_hits))
    out["loadavg_recall"] = loadavg()

    # each leg alone, on other distinct queries (uncached query embeddings)
    pool = max(10, setting(cfg, "retrieval.candidate_pool"))
    m = dense.sync(USER)
    legs: dict[str, list[float]] = {k: [] for k in (
        "query_embedding", "bm25", "dense", "fetch_candidates", "dense_matmul", "dense_sync", "bm25_fts_only")}
    above_floor, bm25_rows = [], []
    started = time.perf_counter()
    for q in leg_qs:
        if len(above_floor) >= 30 and time.perf_counter() - started > budget_s:
            break
        t0 = time.perf_counter()
        qvec = embedder.embed_query(q)
        t1 = time.perf_counter()
        match = fts_query(q)
        if match:  # as recall does it: very common terms left out while rarer ones remain
            match = mem.retriever.bm25_match(match, query_terms(q))
        rows = mem.store.search_turns(match, USER, limit=pool) if match else []
        t2 = time.perf_counter()
        hits = dense.search(USER, qvec, pool, floor=setting(cfg, "retrieval.dense_floor"), center=setting(cfg, "retrieval.dense_center"))
        t3 = time.perf_counter()
        # what recall does next: read every candidate turn (both legs' hits) back from SQLite
        mem.store.turn_heads(USER, {i for i, _ in rows} | {h.item_id for h in hits})
        t4 = time.perf_counter()
        sims = m.matrix @ qvec
        t5 = time.perf_counter()
        dense.sync(USER)
        t6 = time.perf_counter()
        if match:  # diagnostic: FTS5 ranking alone, no join to turns, no user filter
            mem.store.db.execute("SELECT rowid FROM turns_fts WHERE turns_fts MATCH ? ORDER BY rank LIMIT ?",
                                 (f"{{content speaker segmented}} : ({match})", pool)).fetchall()
        t7 = time.perf_counter()
        for k, (a, b) in {"query_embedding": (t0, t1), "bm25": (t1, t2), "dense": (t2, t3),
                          "fetch_candidates": (t3, t4), "dense_matmul": (t4, t5), "dense_sync": (t5, t6),
                          "bm25_fts_only": (t6, t7)}.items():
            legs[k].append((b - a) * 1000)
        above_floor.append(int((sims >= setting(cfg, "retrieval.dense_floor")).sum()))
        bm25_rows.append(len(rows))
    out["legs_ms"] = {k: percentiles(v) for k, v in legs.items()}
    p50 = {k: v["p50"] for k, v in out["legs_ms"].items()}
    out["other_p50_ms"] = round(out["recall_ms"]["p50"] - sum(
        p50[k] for k in ("query_embedding", "bm25", "dense", "fetch_candidates")), 2)
    out["dense_above_floor_mean"] = float(np.mean(above_floor))
    # how long the FTS posting lists are: documents matching the OR query (first 25 queries)
    counts = []
    for q in leg_qs[:25]:
        match = fts_query(q)
        if match:
            counts.append(mem.store.db.execute("SELECT count(*) FROM turns_fts WHERE turns_fts MATCH ?",
                                               (f"{{content speaker segmented}} : ({match})",)).fetchone()[0])
    out["bm25_matching_docs_mean"] = float(np.mean(counts)) if counts else 0.0
    out["matrix"] = {"rows": int(m.matrix.shape[0]), "mb": round(m.matrix.nbytes / 2**20, 1),
                     "capacity_mb": round(m.vectors.nbytes / 2**20, 1)}
    out["counts"] = mem.store.counts(USER)
    out["config"] = cfg.model_dump()
    out["rss_end"] = rss_mb()
    out["files"] = file_sizes(db)
    out["loadavg_end"] = loadavg()
    mem.close()
    return out


def measure_in_child(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--_measure", str(db), "--queries", str(args.queries),
           "--seed", str(args.seed), "--warmup", str(args.warmup), "--budget-s", str(args.budget_s)]
    env = dict(os.environ)
    if args.blas_threads:
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env[var] = str(args.blas_threads)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"measuring {db} failed (exit {proc.returncode})")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --- report ------------------------------------------------------------------------------------------------

def table(results: list[dict[str, Any]], fresh: dict[str, Any] | None) -> str:
    head = ["size", "open s", "first recall ms", "p50 ms", "p95 ms", "target p50", "RSS MB", "file MB",
            "ingest turns/s"]
    rows = []
    for r in results:
        m, b = r["measure"], r["build"]
        ing = b.get("ingest_at_size", {}).get("end_to_end_turns_per_s")
        target = TARGETS_P50_MS.get(r["size"])
        rows.append([f"{r['size']:,}", f"{m['open_s']:.2f}", f"{m['first_recall_ms']:.0f}",
                     f"{m['recall_ms']['p50']:.1f}", f"{m['recall_ms']['p95']:.1f}",
                     f"≤ {target:g}" + (" ✓" if m["recall_ms"]["p50"] <= target else " ✗") if target else "",
                     f"{m['rss_loaded'].get('rss_mb', 0):.0f}",
                     f"{m['files']['total_mb']:.0f}", f"{ing:.0f}" if ing else "—"])
    out = [_md(head, rows)]
    head2 = ["size", "query embed", "BM25 leg", "(FTS only)", "dense leg", "(matmul)", "fetch candidates",
             "other", "recall p50", "BM25 matches", "dense ≥ floor"]
    rows2 = []
    for r in results:
        m = r["measure"]
        p = {k: v["p50"] for k, v in m["legs_ms"].items()}
        rows2.append([f"{r['size']:,}", f"{p['query_embedding']:.1f}", f"{p['bm25']:.1f}",
                      f"{p['bm25_fts_only']:.1f}", f"{p['dense']:.1f}", f"{p['dense_matmul']:.1f}",
                      f"{p['fetch_candidates']:.1f}", f"{m['other_p50_ms']:.1f}",
                      f"{m['recall_ms']['p50']:.1f}", f"{m['bm25_matching_docs_mean']:,.0f}",
                      f"{m['dense_above_floor_mean']:,.0f}"])
    out.append("\nWhere the time goes (p50 ms of each step alone, on other distinct queries; other = recall p50 − "
               "query embed − BM25 − dense − fetch candidates; (…) columns are parts or diagnostics):\n")
    out.append(_md(head2, rows2))
    head3 = ["store", "capture turns/s", "embed turns/s", "end to end turns/s", "target"]
    rows3 = []
    if fresh:
        b = fresh["batch_per_session"]
        rows3.append(["fresh (empty)", f"{b['capture_turns_per_s']:.0f}", f"{b['embed_turns_per_s']:.0f}",
                      f"{b['end_to_end_turns_per_s']:.0f}", _mark(b["end_to_end_turns_per_s"])])
    for r in results:
        b = r["build"].get("ingest_at_size")
        if b:
            rows3.append([f"{r['size']:,}" + (" (cached build)" if r["build"].get("cached") else ""),
                          f"{b['capture_turns_per_s']:.0f}", f"{b['embed_turns_per_s']:.0f}",
                          f"{b['end_to_end_turns_per_s']:.0f}", _mark(b["end_to_end_turns_per_s"])])
    out.append("\nIngest (add_turns per session + index(), real MiniLM embedding, journal fsync on):\n")
    out.append(_md(head3, rows3))
    if fresh and fresh.get("live_add_turn"):
        live = fresh["live_add_turn"]
        out.append(f"\nLive path (add_turn per turn + end_session, default Config): {live['turns_per_s']:.0f} "
                   f"turns/s over {live['turns']} turns.")
    return "\n".join(out)


def _mark(rate: float) -> str:
    return f"≥ {TARGET_INGEST:g}" + (" ✓" if rate >= TARGET_INGEST else " ✗")


def _md(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def synthetic_note(args: argparse.Namespace) -> str:
    kind = ("random unit vectors drawn from a Gaussian with the mean and covariance of the store's real MiniLM "
            "vectors (so a query's cosines spread like real ones: about the same share passes the dense floor)"
            if args.synthetic_vectors == "fitted" else "isotropic random unit vectors (Gaussian, normalised)")
    return (f"SYNTHETIC VECTORS: only the first {args.real_vectors:,} turns of each store and its last "
            f"{args.ingest_sample:,} (the timed ingest) carry real MiniLM embeddings; every other turn has a "
            f"synthetic vector: {kind}, inserted with store.add_vectors, because real embedding runs at a few hundred "
            "turns/s on 2 cores (about an hour for 1M). The dense leg's latency depends on the values only through "
            "how many rows pass the dense floor (dense_above_floor_mean): isotropic random vectors almost never do, "
            "which makes the top-k selection after the matmul cheaper than with real vectors.")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    p.add_argument("--queries", type=int, default=200, help="timed recalls per size (distinct queries)")
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--budget-s", type=float, default=150.0,
                   help="per size, stop the timed recalls (and, apart, the per-leg timings) after this many seconds "
                        "once 30 queries are done")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scale.json")
    p.add_argument("--workdir", type=Path, default=Path("/tmp/episodic-scale"),
                   help="built stores are cached here, keyed by size (and corpus/schema version)")
    p.add_argument("--rebuild", action="store_true", help="ignore cached stores")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--real-vectors", type=int, default=10_000,
                   help="turns (from the start of each store) embedded for real; the rest get synthetic vectors")
    p.add_argument("--synthetic-vectors", choices=["fitted", "random"], default="fitted",
                   help="fitted: random unit vectors from a Gaussian fitted to the store's real vectors (realistic "
                        "cosines to queries); random: isotropic random unit vectors")
    p.add_argument("--ingest-sample", type=int, default=3000,
                   help="turns ingested with real embedding and timed: on a fresh store, and at the end of each store")
    p.add_argument("--live-sample", type=int, default=400, help="turns for the add_turn-per-turn live path (0: skip)")
    p.add_argument("--skip-fresh-ingest", action="store_true")
    p.add_argument("--batch", type=int, default=10_000, help="turns per add_turns call when building")
    p.add_argument("--no-consolidate", dest="consolidate", action="store_false",
                   help="build stores of turns only: sessions left open, never consolidated (consolidating the 50,000 "
                        "sessions of 1M turns takes hours on 2 cores); cached apart ('-turns' in the folder name)")
    p.add_argument("--no-analyze-build", dest="analyze_build", action="store_false",
                   help="build without the ANALYZE workaround (capture slows down linearly with store size)")
    p.add_argument("--blas-threads", type=int, default=0,
                   help="set OPENBLAS/OMP/MKL_NUM_THREADS in the measuring process (0: library default)")
    p.add_argument("--real", type=Path,
                   help="also measure stores of real conversation text: a folder of LoCoMo-format conversations "
                        "(e.g. ../shared/data/locomo-dev), repeated up to each size, queried with their questions")
    p.add_argument("--no-synthetic", dest="synthetic", action="store_false",
                   help="with --real: only the real-text rows (no synthetic stores built or measured)")
    p.add_argument("--runs", type=int, default=3, help="with --real: fresh measuring processes per size (medians)")
    p.add_argument("--ab", type=Path, metavar="OLD_SRC",
                   help="with --real: also measure the code in OLD_SRC (another checkout's src/), its runs "
                        "alternating with this checkout's")
    p.add_argument("--profile", type=Path, help="with --real: cProfile the timed recalls of the first run into "
                                                "this file (pstats)")
    p.add_argument("--texts-read-pass", action="store_true",
                   help="with --real: time the questions again once every candidate text has been read (each "
                        "question embedded again): what currency's first reading of texts costs")
    p.add_argument("--_measure", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--_measure_real", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--_baselines", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args._measure:  # child process: one size
        print(json.dumps(measure(args._measure, args.queries, args.seed, args.warmup, args.budget_s)))
        return 0
    if args._measure_real:  # child process: one real-text store
        print(json.dumps(measure_real(args._measure_real, args.real, args.queries, args.seed, args.warmup,
                                      args._baselines, args.profile, args.texts_read_pass)))
        return 0

    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.rebuild:
        for size in args.sizes:
            shutil.rmtree(store_dir(args.workdir, size, args), ignore_errors=True)
    started = time.perf_counter()
    meta = metadata(args)
    meta["synthetic_vectors_note"] = synthetic_note(args)
    log(f"load average {meta['loadavg_start']} on {meta['cpu_count']} CPUs")
    corpus = Corpus(args.seed)
    real_results = []
    if args.real is not None:
        for size in sorted(args.sizes):
            db, build = build_real_store(args.real, size, args)
            log(f"real {size:,}: measuring recall, {args.runs} fresh processes ({args.queries} questions each)"
                + (f", alternating with {args.ab}" if args.ab else ""))
            budget = None
            if args.profile:  # a run of its own, untimed: profiling slows it down
                budget = measure_real_in_child(db, args, None, baselines=False, profile=args.profile).get("budget")
                log(f"real {size:,}: profile of the timed recalls in {args.profile}")
            measured: dict[str, list[dict[str, Any]]] = {"this": []} | ({"old": []} if args.ab else {})
            for i in range(args.runs):
                labels = list(measured) if i % 2 == 0 else list(measured)[::-1]
                for label in labels:
                    measured[label].append(measure_real_in_child(
                        db, args, args.ab if label == "old" else None, baselines=i == 0 and label == "this"))
                    m = measured[label][-1]
                    log(f"real {size:,} [{label} run {i + 1}]: p50 {m['recall_ms']['p50']:.2f} ms, p95 "
                        f"{m['recall_ms']['p95']:.2f} ms, CPU p50 {m['recall_cpu_ms']['p50']:.2f} ms; floor p50 "
                        f"{m['floor']['ms']['p50']:.2f} ms, p95 {m['floor']['ms']['p95']:.2f} ms; ratio "
                        f"{m['floor']['ratio_p50']:.2f}x / {m['floor']['ratio_p95']:.2f}x; load {m['loadavg_recall']}")
            real_results.append({"size": size, "real": str(args.real), "store": str(db), "build": build,
                                 "measure": {label: summarise_real_runs(runs) for label, runs in measured.items()},
                                 "budget": budget})
    if not args.synthetic:
        report = real_table(real_results)
        print(report)
        meta["loadavg_end"] = loadavg()
        out_real = {"meta": meta, "real": real_results}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(out_real, indent=2, default=str))
        args.out.with_suffix(".md").write_text(report + "\n")
        log(f"wrote {args.out} and {args.out.with_suffix('.md')}")
        return 0
    fresh = None if args.skip_fresh_ingest else measure_fresh_ingest(corpus, args.workdir, args.ingest_sample,
                                                                      args.live_sample)
    results = []
    for size in sorted(args.sizes):
        db, build = build_store(corpus, size, args)
        log(f"{size:,}: measuring recall in a fresh process ({args.queries} queries)")
        m = measure_in_child(db, args)
        log(f"{size:,}: open {m['open_s']:.2f} s, first recall {m['first_recall_ms']:.0f} ms, "
            f"p50 {m['recall_ms']['p50']:.1f} ms, p95 {m['recall_ms']['p95']:.1f} ms, "
            f"RSS {m['rss_loaded'].get('rss_mb', 0):.0f} MB, files {m['files']['total_mb']:.0f} MB")
        results.append({"size": size, "store": str(db), "build": build, "measure": m,
                        "target_p50_ms": TARGETS_P50_MS.get(size),
                        "meets_p50_target": (m["recall_ms"]["p50"] <= TARGETS_P50_MS[size]
                                             if size in TARGETS_P50_MS else None)})
    meta["loadavg_end"] = loadavg()
    meta["wall_s"] = round(time.perf_counter() - started, 1)
    report = table(results, fresh)
    if real_results:
        report = real_table(real_results) + "\n\nSynthetic turns and queries:\n\n" + report
    print(report)
    out = {"meta": meta, "targets": {"recall_p50_ms": TARGETS_P50_MS, "ingest_turns_per_s": TARGET_INGEST},
           "fresh_ingest": fresh, "sizes": results, "real": real_results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2, default=str))
    args.out.with_suffix(".md").write_text(report + "\n\n" + meta["synthetic_vectors_note"] + "\n")
    log(f"wrote {args.out} and {args.out.with_suffix('.md')} in {meta['wall_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
