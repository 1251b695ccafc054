"""The web inspector in a real browser: Playwright driving Debian's Chromium against `episodic serve`'s app on a
loopback port. Each page is screenshotted (under the test's temp folder, or `EPISODIC_SCREENSHOTS` when set)."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from episodic_memory.config import Config  # noqa: E402
from episodic_memory.server.rest import create_app  # noqa: E402
from episodic_memory.server.tokens import TokenStore  # noqa: E402
from tests.fakes import HashingEmbedder  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if os.environ.get("CI") and not Path(CHROMIUM).exists():
    raise RuntimeError("CI must run the browser tests: .ci/run installs Debian's chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)"),
]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A served store with two users' tokens; alice has two sessions, a correction, an open loop, a judgment."""
    db = tmp_path_factory.mktemp("inspector") / "m.db"
    tokens = TokenStore.open(db)
    made = {user: tokens.create(user)[0] for user in ("alice", "bob")}
    tokens.close()
    app = create_app(db, config=Config(models={"embedder": "off"}, capture={"consolidate_every": 4}), embedder=HashingEmbedder())
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    base = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    alice = {"Authorization": f"Bearer {made['alice']}"}
    lines = [("s1", "We decided the Series B deck has 12 slides."),
             ("s1", "I need to write the rollback runbook for Skylark."),
             ("s2", "Actually the Series B deck has 14 slides, not 12."),
             ("s2", "Dana from Skylark owns the rollback plan.")]
    with httpx.Client(base_url=base, headers=alice) as client:
        for i, (session, text) in enumerate(lines):
            client.post("/v1/turns", json={"role": "user", "content": text, "session_id": session, "id": f"a{i}"})
        for session in ("s1", "s2"):
            client.post(f"/v1/sessions/{session}/end")
        client.post("/v1/judgments", json={"trigger": "a deck grows past 12 slides",
                                           "judgment": "cut the appendix first", "reasoning": "investors skim"})
    shots = Path(os.environ.get("EPISODIC_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield {"base": base, "tokens": made, "browser": browser, "shots": shots}
        finally:
            browser.close()
    server.should_exit = True
    thread.join(20)


def logged_in(site: dict[str, Any], user: str, width: int = 1100) -> Any:
    page = site["browser"].new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(site["base"] + "/")
    assert "/login" in page.url
    page.get_by_label("Token").fill(site["tokens"][user])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(site["base"] + "/")
    return page


def test_log_in_and_read_the_briefing(site: dict[str, Any]) -> None:
    page = logged_in(site, "alice")
    assert page.get_by_role("heading", name="The last 24 hours").is_visible()
    assert page.locator("svg.chart").count() == 2
    page.screenshot(path=str(site["shots"] / "briefing.png"), full_page=True)


def test_search_then_open_the_turn_behind_a_hit(site: dict[str, Any]) -> None:
    page = logged_in(site, "alice")
    page.keyboard.press("/")                      # the shortcut opens search
    page.wait_for_url("**/search")
    page.get_by_label("What to recall").fill("how many slides in the Series B deck")
    page.get_by_role("button", name="Search").click()
    first = page.locator("li.hit").first
    assert "14 slides" in first.inner_text()
    page.screenshot(path=str(site["shots"] / "search.png"), full_page=True)
    page.locator("li.hit p.sources a").first.click()
    page.wait_for_url("**/sessions/**")
    assert page.locator(".turn:target").count() == 1, "the source turn is the page's target"


def test_a_corrected_fact_shows_its_history_and_takes_a_correction(site: dict[str, Any]) -> None:
    page = logged_in(site, "alice")
    page.goto(site["base"] + "/facts")
    page.get_by_role("link", name="14 slides").first.click()
    history = page.locator("ol.history")
    assert "12 slides" in history.inner_text() and "14 slides" in history.inner_text()
    assert page.locator("ol.history li.current").count() == 1
    page.screenshot(path=str(site["shots"] / "fact.png"), full_page=True)
    page.get_by_label("What is true now").fill("The Series B deck has 15 slides.")
    page.get_by_role("button", name="Save correction").click()
    page.wait_for_load_state()
    assert "15 slides" in page.locator("p.lead").inner_text()
    steps = page.locator("ol.history li").all_inner_texts()
    assert len(steps) == 3 and "12 slides" in steps[0] and "14 slides" in steps[1] and "15 slides" in steps[2]


def test_close_a_loop_with_a_note(site: dict[str, Any]) -> None:
    page = logged_in(site, "alice")
    page.goto(site["base"] + "/work")
    loop = page.locator("li.loop").filter(has_text="rollback runbook")
    loop.get_by_role("textbox").fill("written and reviewed")
    loop.get_by_role("button", name="Close").click()
    page.wait_for_url("**/work#closed")
    assert "written and reviewed" in page.locator("#closed").inner_text()
    assert page.locator("li.loop").filter(has_text="rollback runbook").count() == 0


def test_verify_a_judgment(site: dict[str, Any]) -> None:
    page = logged_in(site, "alice")
    page.goto(site["base"] + "/judgments")
    card = page.locator("article").filter(has_text="cut the appendix first")
    card.get_by_role("button", name="Adopted").click()
    page.wait_for_url("**/judgments")
    assert "adopted 1" in page.locator("article").filter(has_text="cut the appendix first").inner_text()
    page.screenshot(path=str(site["shots"] / "judgments.png"), full_page=True)


def test_a_second_user_sees_none_of_the_first_users_memories(site: dict[str, Any]) -> None:
    page = logged_in(site, "bob")
    for path in ("/", "/timeline", "/facts", "/work", "/judgments"):
        page.goto(site["base"] + path)
        body = page.locator("main").inner_text()
        assert "Skylark" not in body and "slides" not in body, path
    page.goto(site["base"] + "/sessions/s1")
    assert "Not found" in page.locator("h1").inner_text()


def test_phone_width_keeps_everything_reachable(site: dict[str, Any]) -> None:
    page = logged_in(site, "alice", width=380)
    page.goto(site["base"] + "/timeline")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, "no sideways scrolling at phone width"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"


def test_forget_a_session_and_see_it_gone(site: dict[str, Any]) -> None:
    page = logged_in(site, "alice")
    page.goto(site["base"] + "/sessions/s1")
    page.get_by_role("link", name="Forget this session…").click()
    page.get_by_label("Type the session id to confirm").fill("s1")
    page.get_by_role("button", name="Forget this session").click()
    status = page.get_by_role("status")
    assert "Forgot session s1" in status.inner_text()
    assert "turns" in status.inner_text()
    page.screenshot(path=str(site["shots"] / "forget.png"), full_page=True)
    page.goto(site["base"] + "/sessions/s1")
    assert "Not found" in page.locator("h1").inner_text()
