"""The memory inspector's pages at scale: server time and page weight of every page on a store of real text.

    python bench/inspector.py [--turns 25000] [--store /tmp/episodic-inspector/25000.db] [--repeats 5]

The store: LoCoMo dev conversations ingested again and again under new session ids (their turns and dates as
written) until --turns, consolidated session by session as the library does (rules, no LLM). It is built with the
embedder off — consolidating 25k turns with the ONNX model would take most of an hour on 2 cores — so the pages are
served with it off too and the search page runs BM25 + the kinds without the dense leg (say so when reporting).
The built store is cached at --store.

Each page is fetched --repeats times through the app in process (no network); the server time is the page's own
`Server-Timing` (routing and rendering included), and the page weight is the HTML's size (the CSS and script are
two more files: their sizes are reported once). Target: every page under 100 ms at 25k turns.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "src"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from bench.datasets import load_locomo  # noqa: E402
from bench.harness import git_commit, git_dirty, markdown_table, print_table  # noqa: E402

TARGET_MS = 100.0
DATA = ROOT.parent / "shared" / "data" / "locomo-dev"


def build(store: Path, turns: int) -> dict[str, Any]:
    from episodic_memory import Config, Memory

    store.parent.mkdir(parents=True, exist_ok=True)
    conversations = load_locomo(DATA, verbose=False)
    mem = Memory(store, config=Config(models={"embedder": "off"}))
    start, added, rep = time.perf_counter(), 0, 0
    try:
        while added < turns:
            for conv in conversations:
                for session in conv.sessions:
                    sid = f"r{rep}-{conv.conv_id}-{session.session_id}"
                    batch = [{"role": t.role, "content": t.text, "session_id": sid, "speaker": t.speaker,
                              "timestamp": t.timestamp, "turn_id": f"{sid}-{t.turn_id}"}
                             for t in session.turns[: turns - added]]
                    if not batch:
                        break
                    mem.add_turns(batch)
                    mem.end_session(sid)
                    added += len(batch)
                    print(f"\r  built {added:,}/{turns:,} turns", end="", file=sys.stderr, flush=True)
                if added >= turns:
                    break
            rep += 1
    finally:
        mem.close()
    print(file=sys.stderr)
    return {"turns": added, "seconds": round(time.perf_counter() - start, 1)}


def measure(store: Path, repeats: int) -> tuple[list[dict[str, Any]], dict[str, int]]:
    from fastapi.testclient import TestClient

    from episodic_memory import Config
    from episodic_memory.server.rest import create_app

    questions = [q.question for c in load_locomo(DATA, verbose=False) for q in c.questions][:repeats * 4]
    app = create_app(store, auth=False, config=Config(models={"embedder": "off"}))
    rows: list[dict[str, Any]] = []
    with TestClient(app) as client:
        client.get("/login")                              # auth off: a browser session for the one user
        facts = client.get("/v1/facts").json()["facts"]
        sessions = client.get("/v1/sessions", params={"limit": 1}).json()["sessions"]
        pages: list[tuple[str, list[str]]] = [
            ("briefing", ["/"]), ("briefing, 30 days", ["/?hours=720"]), ("timeline", ["/timeline"]),
            ("timeline, page 10", ["/timeline?page=10"]),
            ("session", [f"/sessions/{sessions[0]['session_id']}"] if sessions else []),
            ("search", [f"/search?q={q}" for q in questions]), ("facts", ["/facts"]),
            ("fact history", [f"/facts/{facts[len(facts) // 2]['id']}"] if facts else []),
            ("work", ["/work"]), ("entities", ["/entities"]), ("judgments", ["/judgments"]), ("forget", ["/forget"]),
        ]
        entities = client.get("/entities").text
        marker = 'href="/entities/'
        if marker in entities:
            name = entities.split(marker, 1)[1].split('"', 1)[0]
            pages.append(("entity", [f"/entities/{name}"]))
        for name, urls in pages:
            if not urls:
                continue
            server, sizes = [], []
            for i in range(repeats):
                url = urls[i % len(urls)]
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code, response.text[:300])
                timing = response.headers["server-timing"]
                server.append(float(timing.split("dur=")[1]))
                sizes.append(len(response.content))
            rows.append({"page": name, "url": urls[0], "server_ms_median": round(statistics.median(server), 1),
                         "server_ms_max": round(max(server), 1), "html_kb": round(statistics.median(sizes) / 1024, 1)})
        assets = {path: len(client.get(path).content) for path in ("/static/inspector.css", "/static/inspector.js")}
    return rows, assets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=25_000)
    parser.add_argument("--store", type=Path, default=None, help="cached store (default /tmp/episodic-inspector/N.db)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "inspector.json")
    args = parser.parse_args(argv)
    store = args.store or Path("/tmp/episodic-inspector") / f"{args.turns}.db"
    built = build(store, args.turns) if not store.exists() else {"turns": args.turns, "cached": str(store)}
    rows, assets = measure(store, args.repeats)
    header = ["page", "server ms (median)", "max", "HTML KB", f"< {TARGET_MS:.0f} ms"]
    table = [[r["page"], f"{r['server_ms_median']:.1f}", f"{r['server_ms_max']:.1f}", f"{r['html_kb']:.1f}",
              "yes" if r["server_ms_median"] < TARGET_MS else "NO"] for r in rows]
    title = f"Inspector pages at {built['turns']:,} turns (embedder off; {args.repeats} fetches each)"
    print_table(title, header, table)
    print(f"assets: {', '.join(f'{k} {v / 1024:.1f} KB' for k, v in assets.items())}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": {"commit": git_commit(), "dirty": git_dirty(), "turns": built,
                                             "repeats": args.repeats, "target_ms": TARGET_MS},
                                    "pages": rows, "assets_bytes": assets}, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(f"**{title}**\n\n{markdown_table(header, table)}\n", encoding="utf-8")
    return 0 if all(r["server_ms_median"] < TARGET_MS for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
