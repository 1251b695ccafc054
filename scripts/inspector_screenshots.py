"""Screenshots of the inspector for the README: the sample conversation (shifted so its last session is today)
served with auth off, pages shot by Playwright in Debian's Chromium.

    python scripts/inspector_screenshots.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]


def main() -> int:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from episodic_memory import Memory
    from episodic_memory.ingest import sample_path
    from episodic_memory.server.rest import create_app

    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    rows = [json.loads(line) for line in sample_path().read_text(encoding="utf-8").splitlines() if line.strip()]
    last = max(datetime.fromisoformat(r["timestamp"]) for r in rows)
    shift = datetime.now(timezone.utc) - timedelta(hours=2) - last
    db = Path(tempfile.mkdtemp()) / "m.db"
    mem = Memory(db)
    for row in rows:
        mem.add_turn(row["role"], row["content"], session_id=row["session_id"], speaker=row.get("speaker"),
                     timestamp=datetime.fromisoformat(row["timestamp"]) + shift, turn_id=row["id"])
    for session in dict.fromkeys(r["session_id"] for r in rows):
        mem.end_session(session)
    corrected = next((f for f in mem.facts() if f.supersedes), None)
    mem.close()
    server = uvicorn.Server(uvicorn.Config(create_app(db, auth=False), host="127.0.0.1", port=0, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        page = browser.new_context(viewport={"width": 1000, "height": 760}).new_page()
        page.goto(base + "/?hours=72")
        page.screenshot(path=str(args.out / "inspector-briefing.png"))
        if corrected is not None:
            page.goto(f"{base}/facts/{corrected.id}")
            page.screenshot(path=str(args.out / "inspector-fact.png"))
        browser.close()
    server.should_exit = True
    print(f"screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
