"""The web inspector over HTTP (in process): login, anti-forgery, isolation between users, every page, forgetting
with proof. The same flows in a real browser are in test_inspector_browser.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("jinja2")

from fastapi.testclient import TestClient  # noqa: E402

from episodic_memory.config import Config  # noqa: E402
from episodic_memory.server.rest import create_app  # noqa: E402
from episodic_memory.server.tokens import TokenStore  # noqa: E402
from episodic_memory.server.ui.charts import bar_chart, dot_chart, entity_graph  # noqa: E402
from tests.fakes import HashingEmbedder  # noqa: E402

PAGES = ["/", "/timeline", "/search?q=android", "/facts", "/work", "/entities", "/judgments", "/forget"]


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has no anti-forgery token"
    return found.group(1)


def login(client: TestClient, token: str) -> None:
    page = client.get("/login")
    response = client.post("/login", data={"token": token, "csrf": _csrf(page.text), "next": "/"},
                           follow_redirects=False)
    assert response.status_code == 303, response.text


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    db = tmp_path / "m.db"
    tokens = TokenStore.open(db)
    made = {user: tokens.create(user)[0] for user in ("alice", "bob")}
    tokens.close()
    app = create_app(db, config=Config(models={"embedder": "off"}, capture={"consolidate_every": 4}), embedder=HashingEmbedder())
    with TestClient(app) as client:
        alice = {"Authorization": f"Bearer {made['alice']}"}
        lines = [("s1", "We decided to ship the Android app on March 12."),
                 ("s1", "I need to write the rollback runbook for Skylark."),
                 ("s2", "Actually the Android launch moved to March 19, not March 12."),
                 ("s2", "Dana Whitfield and Marco Rossi from Skylark own the rollback plan.")]
        for i, (session, text) in enumerate(lines):
            client.post("/v1/turns", json={"role": "user", "content": text, "session_id": session, "id": f"a{i}"},
                        headers=alice)
        for session in ("s1", "s2"):
            client.post(f"/v1/sessions/{session}/end", headers=alice)
        client.post("/v1/judgments", headers=alice, json={"trigger": "a launch date slips",
                                                           "judgment": "tell support first", "reasoning": "calls"})
        yield client, made


def test_every_page_needs_a_login_and_sends_it_back_after(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    for page in PAGES:
        response = client.get(page, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"].startswith("/login?next="), page
    login(client, tokens["alice"])
    for page in PAGES:
        response = client.get(page)
        assert response.status_code == 200, (page, response.text[:500])
        assert "content-security-policy" in response.headers
    cookie = client.cookies.get("episodic_ui")
    assert cookie and tokens["alice"] not in cookie          # the browser never holds the API token


def test_the_session_cookie_is_httponly_and_strict(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    page = client.get("/login")
    response = client.post("/login", data={"token": tokens["alice"], "csrf": _csrf(page.text), "next": "/"},
                           follow_redirects=False)
    header = response.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=strict" in header


def test_a_wrong_token_or_a_forged_login_is_refused(served: tuple[TestClient, dict[str, str]]) -> None:
    client, _ = served
    page = client.get("/login")
    response = client.post("/login", data={"token": "em_nope", "csrf": _csrf(page.text), "next": "/"})
    assert response.status_code == 401 and "unknown or revoked" in response.text
    response = client.post("/login", data={"token": "em_nope", "csrf": "forged", "next": "/"},
                           follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")


def test_login_never_redirects_off_site(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    page = client.get("/login?next=//evil.example/x")
    assert 'value="/"' in page.text
    response = client.post("/login", data={"token": tokens["alice"], "csrf": _csrf(page.text),
                                           "next": "https://evil.example/"}, follow_redirects=False)
    assert response.headers["location"] == "/"


def test_state_changing_forms_need_the_anti_forgery_token(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    before = client.get("/v1/stats", headers={"Authorization": f"Bearer {tokens['alice']}"}).json()
    for path, data in [("/forget", {"target": "everything", "confirm": "alice"}),
                       ("/forget", {"target": "session", "session": "s1", "confirm": "s1"}),
                       ("/loops/1/close", {}), ("/logout", {})]:
        assert client.post(path, data={**data, "csrf": "forged"}).status_code == 403, path
        assert client.post(path, data=data).status_code == 403, path
    after = client.get("/v1/stats", headers={"Authorization": f"Bearer {tokens['alice']}"}).json()
    assert after["turns"] == before["turns"] == 4


def test_a_user_sees_only_their_own_memories(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["bob"])
    for page in PAGES + ["/sessions/s1", "/facts/1"]:
        text = client.get(page).text
        assert "Android" not in text and "Skylark" not in text and "runbook" not in text, page
    found = client.get("/search", params={"q": "rollback runbook Skylark"}).text
    assert 'class="card hit"' not in found and "Nothing found" in found
    assert client.get("/sessions/s1").status_code == 404
    assert client.get("/facts/1").status_code == 404


def test_search_shows_kinds_scores_and_links_to_source_turns(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    page = client.get("/search", params={"q": "when does the android app launch"}).text
    assert "March 19" in page and "score" in page
    assert re.search(r'href="/sessions/s2#t-a2"', page), "a hit links to its source turn"
    assert client.get("/search", params={"q": "android", "kind": "fact"}).status_code == 200
    bad = client.get("/search", params={"q": "android", "since": "not-a-date"})
    assert bad.status_code == 200 and "not a date" in bad.text


def test_a_session_page_anchors_every_turn(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    page = client.get("/sessions/s2").text
    assert 'id="t-a2"' in page and 'id="t-a3"' in page and "Dana Whitfield and Marco Rossi" in page


def test_a_corrected_fact_shows_its_history(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    facts = client.get("/v1/facts", headers={"Authorization": f"Bearer {tokens['alice']}"}).json()["facts"]
    corrected = next(f for f in facts if "March 19" in f["text"])
    page = client.get(f"/facts/{corrected['id']}").text
    assert "March 19" in page and "March 12" in page and "until" in page
    assert client.get("/facts/99999").status_code == 404
    assert client.get("/facts/9223372036854775808").status_code in (404, 422)


def test_closing_a_loop_from_the_work_page(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    auth = {"Authorization": f"Bearer {tokens['alice']}"}
    loops = client.get("/v1/loops", headers=auth).json()["loops"]
    assert loops, "the runbook to-do is an open loop"
    work = client.get("/work").text
    assert loops[0]["text"] in work
    response = client.post(f"/loops/{loops[0]['id']}/close", data={"csrf": _csrf(work), "note": "done in review"},
                           follow_redirects=False)
    assert response.status_code == 303
    closed = client.get("/v1/loops", params={"status": "closed"}, headers=auth).json()["loops"]
    assert closed[0]["id"] == loops[0]["id"] and closed[0]["note"] == "done in review"
    assert "done in review" in client.get("/work").text


def test_verifying_a_judgment_moves_its_utility(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    page = client.get("/judgments").text
    judgment_id = re.search(r'action="/judgments/([^/]+)/verify"', page).group(1)
    response = client.post(f"/judgments/{judgment_id}/verify", data={"csrf": _csrf(page), "adopted": "true"},
                           follow_redirects=False)
    assert response.status_code == 303
    got = client.get(f"/v1/judgments/{judgment_id}", headers={"Authorization": f"Bearer {tokens['alice']}"}).json()
    assert got["adopted"] == 1
    assert client.post(f"/judgments/{judgment_id}/verify",
                       data={"csrf": _csrf(page), "adopted": "yes"}).status_code == 422


def test_forgetting_a_session_needs_its_id_typed_and_proves_it(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    page = client.get("/forget").text
    wrong = client.post("/forget", data={"csrf": _csrf(page), "target": "session", "session": "s1", "confirm": "s"})
    assert wrong.status_code == 422 and "type &#39;s1&#39; exactly" in wrong.text
    done = client.post("/forget", data={"csrf": _csrf(page), "target": "session", "session": "s1", "confirm": "s1"})
    assert done.status_code == 200 and "Forgot session s1" in done.text
    row = re.search(r"<td>turns</td><td>(\d+)</td><td>(\d+)</td>", done.text)
    assert row and (int(row.group(1)), int(row.group(2))) == (4, 2)
    assert client.get("/sessions/s1").status_code == 404
    found = client.get("/search", params={"q": "rollback runbook"}).text
    assert not any("runbook" in hit for hit in re.findall(r'<li class="card hit">(.*?)</li>', found, re.S))


def test_forgetting_everything_logs_the_user_out(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    page = client.get("/forget").text
    done = client.post("/forget", data={"csrf": _csrf(page), "target": "everything", "confirm": "alice"})
    assert done.status_code == 200 and "Forgot everything" in done.text
    assert client.get("/", follow_redirects=False).status_code == 303     # the token went with the user
    assert client.get("/v1/stats", headers={"Authorization": f"Bearer {tokens['alice']}"}).status_code == 401


def test_a_revoked_token_ends_its_browser_sessions(served: tuple[TestClient, dict[str, str]], tmp_path: Path
                                                   ) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    assert client.get("/", follow_redirects=False).status_code == 200
    store = TokenStore.open(tmp_path / "m.db")
    record = next(r for r in store.list("alice"))
    store.revoke(record.id)
    store.close()
    assert client.get("/", follow_redirects=False).status_code == 303


def test_no_auth_mode_opens_for_the_one_user(tmp_path: Path) -> None:
    app = create_app(tmp_path / "m.db", auth=False, config=Config(models={"embedder": "off"}), embedder=HashingEmbedder())
    with TestClient(app) as client:
        page = client.get("/")
        assert page.status_code == 200 and "default" in page.text
        assert client.post("/forget", data={"target": "everything", "confirm": "default"}).status_code == 403


def test_charts_are_svg_with_their_values_described() -> None:
    chart = str(bar_chart([("mon", 3), ("tue", 0), ("wed", 7)], "Turns per day"))
    assert chart.startswith("<svg") and chart.count("<rect") == 3 and "mon: 3; tue: 0; wed: 7" in chart
    assert "nothing yet" in str(bar_chart([], "Turns"))
    dots = str(dot_chart([(1.7e9, 0.5, "a <b>"), (1.8e9, 1.0, "c")], "Utility"))
    assert dots.count("<circle") == 2 and "a &lt;b&gt;" in dots
    graph = str(entity_graph("Dana", [("Skylark", 3), ("Ops/Team", 1)]))
    assert 'href="/entities/Ops%2FTeam"' in graph and graph.count("<line") == 2


@pytest.mark.parametrize("host", [[], ["--host", "0.0.0.0"]])  # a wildcard is reached on loopback (not a 421)
def test_episodic_ui_opens_a_running_server(tmp_path: Path, host: list[str]) -> None:
    import threading
    import time

    import uvicorn
    from click.testing import CliRunner

    from episodic_memory.cli import main

    app = create_app(tmp_path / "m.db", auth=False, config=Config(models={"embedder": "off"}), embedder=HashingEmbedder())
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        result = CliRunner().invoke(main, ["ui", *host, "--port", str(port), "--no-browser"])
        assert result.exit_code == 0, result.output
        assert f"http://127.0.0.1:{port}/" in result.output
    finally:
        server.should_exit = True
        thread.join(20)


def test_correcting_a_fact_from_its_page(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    auth = {"Authorization": f"Bearer {tokens['alice']}"}
    fact = next(f for f in client.get("/v1/facts", headers=auth).json()["facts"] if "Dana" in f["text"])
    page = client.get(f"/facts/{fact['id']}").text
    response = client.post(f"/facts/{fact['id']}/edit", data={"csrf": _csrf(page), "text": "Priya owns the plan."},
                           follow_redirects=False)
    assert response.status_code == 303
    new_page = client.get(response.headers["location"]).text
    assert "Priya owns the plan." in new_page and "Dana Whitfield and Marco Rossi" in new_page      # the old one in history
    again = client.post(f"/facts/{fact['id']}/edit", data={"csrf": _csrf(page), "text": "x"})
    assert again.status_code == 422 and "superseded" in again.text
    assert client.post(f"/facts/{fact['id']}/edit", data={"text": "forged"}).status_code == 403


def test_reopening_a_loop_from_the_work_page(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    auth = {"Authorization": f"Bearer {tokens['alice']}"}
    loop = client.get("/v1/loops", headers=auth).json()["loops"][0]
    work = client.get("/work").text
    client.post(f"/loops/{loop['id']}/close", data={"csrf": _csrf(work)})
    assert client.get("/v1/loops", headers=auth).json()["loops"] == []
    assert f'action="/loops/{loop["id"]}/reopen"' in client.get("/work").text
    client.post(f"/loops/{loop['id']}/reopen", data={"csrf": _csrf(work)})
    assert [x["id"] for x in client.get("/v1/loops", headers=auth).json()["loops"]] == [loop["id"]]


def test_an_entity_page_draws_the_entities_named_with_it(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    entities = client.get("/entities").text
    names = re.findall(r'href="/entities/([^"]+)"', entities)
    assert names, "the facts name entities"
    pages = [client.get(f"/entities/{name}") for name in names]
    assert all(p.status_code == 200 for p in pages)
    assert any('<svg class="graph"' in p.text for p in pages), "an entity named with another gets a graph"
    assert client.get("/entities/nobody-at-all").status_code == 404


def test_pinning_and_forgetting_one_fact(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    auth = {"Authorization": f"Bearer {tokens['alice']}"}
    fact = next(f for f in client.get("/v1/facts", headers=auth).json()["facts"] if "runbook" in f["text"])
    page = client.get(f"/facts/{fact['id']}").text
    client.post(f"/facts/{fact['id']}/pin", data={"csrf": _csrf(page), "pinned": "true"})
    pinned = client.get(f"/facts/{fact['id']}").text
    assert "Unpin" in pinned and "pinned: opens the briefing" in pinned
    assert client.post(f"/facts/{fact['id']}/pin", data={"csrf": _csrf(page), "pinned": "yes"}).status_code == 422
    unconfirmed = client.post(f"/facts/{fact['id']}/forget", data={"csrf": _csrf(page)})
    assert unconfirmed.status_code == 422
    gone = client.post(f"/facts/{fact['id']}/forget", data={"csrf": _csrf(page), "confirm": "yes"},
                       follow_redirects=False)
    assert gone.status_code == 303
    assert all(f["id"] != fact["id"] for f in client.get("/v1/facts", params={"include_superseded": True},
                                                         headers=auth).json()["facts"])
    assert client.get(f"/facts/{fact['id']}").status_code == 404


def test_forgetting_the_facts_naming_an_entity(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    login(client, tokens["alice"])
    auth = {"Authorization": f"Bearer {tokens['alice']}"}
    page = client.get("/forget?entity=Marco%20Rossi").text
    assert 'selected>Marco Rossi' in page
    done = client.post("/forget", data={"csrf": _csrf(page), "target": "entity", "entity": "Marco Rossi",
                                        "confirm": "Marco Rossi"})
    assert done.status_code == 200 and "Forgot the facts naming Marco Rossi" in done.text
    facts = client.get("/v1/facts", params={"include_superseded": True}, headers=auth).json()["facts"]
    assert not any("Marco" in f["text"] for f in facts)
    assert "Marco Rossi" not in client.get("/entities").text
    assert client.get("/v1/sessions/s2/turns", headers=auth).status_code == 200     # the turns stay


def test_search_filters_by_source_and_tags(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    auth = {"Authorization": f"Bearer {tokens['alice']}"}
    client.post("/v1/turns", headers=auth, json={"role": "user", "content": "The Skylark invoice is due in May.",
                                                 "session_id": "s3", "source": "email", "tags": ["billing"]})
    login(client, tokens["alice"])
    page = client.get("/search", params={"q": "Skylark", "source": "email", "tags": "billing"}).text
    hits = re.findall(r'<li class="card hit">(.*?)</li>', page, re.S)
    assert hits and all("invoice" in h for h in hits) and "#billing" in hits[0]
    none = client.get("/search", params={"q": "Skylark", "tags": "billing, nope"}).text
    assert 'class="card hit"' not in none
