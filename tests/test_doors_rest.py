"""Issue 18 at the REST door: every body field and parameter is checked, bad input is a 422 that names the field,
nothing already stored is lost, and no request is a 500 (in-process through the ASGI app)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from episodic_memory.config import Config  # noqa: E402
from episodic_memory.server.rest import create_app  # noqa: E402
from tests.fakes import HashingEmbedder  # noqa: E402

TOO_BIG = "9223372036854775808"  # 2**63: one past SQLite's largest integer


def make_client(db: Path, **config: Any) -> TestClient:
    settings = Config(models={"embedder": "off"}).replace(**config)
    app = create_app(db, auth=False, config=settings, embedder=HashingEmbedder())
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "m.db", capture={"max_turn_chars": 1000}) as client:
        assert client.post("/v1/turns", json=turn("I will send Sarah the revised deck by Friday")).status_code == 201
        yield client


def turn(content: str, **extra: Any) -> dict[str, Any]:
    return {"role": "user", "content": content, "session_id": "s1", **extra}


def refused(r: Any, field: str) -> str:
    """The 422's message about `field` (the last element of its location)."""
    assert r.status_code == 422, (r.status_code, r.text)
    detail = r.json()["detail"]
    if isinstance(detail, str):
        assert field in detail, detail
        return detail
    messages = [d["msg"] for d in detail if str(d["loc"][-1]) == field]
    assert messages, detail
    return messages[0]


def turns_stored(http: TestClient) -> int:
    return int(http.get("/v1/stats").json()["turns"])


@pytest.mark.parametrize("timestamp", ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"])
def test_a_time_outside_years_1_to_9999_in_utc_is_a_422_and_the_store_still_reads(
        http: TestClient, timestamp: str) -> None:
    assert "outside the years 1–9999 in UTC" in refused(http.post("/v1/turns", json=turn("x", timestamp=timestamp)),
                                                       "timestamp")
    assert "outside the years" in refused(http.get("/v1/recall", params={"q": "deck", "since": timestamp}), "since")
    assert turns_stored(http) == 1
    assert http.get("/v1/sessions").status_code == 200 and http.get("/v1/recall", params={"q": "deck"}).json()["hits"]


def test_a_role_outside_the_chat_roles_is_a_422(http: TestClient) -> None:
    refused(http.post("/v1/turns", json=turn("beep", role="robot")), "role")
    assert turns_stored(http) == 1


@pytest.mark.parametrize("loose", ["yes", 1, "true", 0, "1", None, [True]])
def test_forget_all_takes_json_true_only(http: TestClient, loose: object) -> None:
    refused(http.post("/v1/forget", json={"all": loose}), "all")
    assert turns_stored(http) == 1
    assert http.post("/v1/forget", json={"all": True}).status_code == 200
    assert turns_stored(http) == 0


@pytest.mark.parametrize(("method", "path", "params", "field"), [
    ("GET", f"/v1/facts/{TOO_BIG}/history", {}, "fact_id"),
    ("POST", f"/v1/loops/{TOO_BIG}/close", {}, "loop_id"),
    ("GET", "/v1/facts/0/history", {}, "fact_id"),
    ("POST", "/v1/loops/-1/close", {}, "loop_id"),
    ("GET", "/v1/sessions", {"limit": TOO_BIG}, "limit"),
    ("GET", "/v1/sessions", {"limit": 0}, "limit"),
    ("GET", "/v1/judgments", {"limit": TOO_BIG}, "limit"),
    ("GET", "/v1/recall", {"q": "deck", "k": TOO_BIG}, "k"),
    ("GET", "/v1/judgments", {"q": "deck", "min_score": "nan"}, "min_score"),
    ("GET", "/v1/loops", {"status": "bogus"}, "status"),
])
def test_every_number_is_bounded(http: TestClient, method: str, path: str, params: dict, field: str) -> None:
    refused(http.request(method, path, params=params), field)


@pytest.mark.parametrize("q", [" ", "???", "\u200b"])
def test_a_query_with_nothing_to_search_for_is_a_422(http: TestClient, q: str) -> None:
    assert "nothing to search for" in refused(http.get("/v1/recall", params={"q": q}), "q")
    assert "nothing to search for" in refused(http.get("/v1/judgments", params={"q": q}), "q")


def test_judgments_without_a_query_are_listed(http: TestClient) -> None:
    assert http.get("/v1/judgments").json() == {"judgments": []}
    ids = [http.post("/v1/judgments", json={"trigger": f"situation {i}", "judgment": f"do {i}", "reasoning": "why",
                                            "domain": "ops" if i % 2 else "dev"}).json()["id"] for i in range(3)]
    assert [j["id"] for j in http.get("/v1/judgments").json()["judgments"]] == ids
    assert [j["id"] for j in http.get("/v1/judgments", params={"domain": "ops"}).json()["judgments"]] == [ids[1]]
    assert [j["id"] for j in http.get("/v1/judgments", params={"limit": 2}).json()["judgments"]] == ids[:2]
    assert http.get("/v1/judgments", params={"q": "situation"}).json()["results"]


def raw(http: TestClient, path: str, body: str) -> Any:
    return http.post(path, content=body.encode(), headers={"Content-Type": "application/json"})


def test_text_that_cannot_be_stored_is_a_422_not_a_500(http: TestClient) -> None:
    lone = '"half \\ud800 a pair"'
    assert "lone surrogate" in refused(raw(http, "/v1/turns", f'{{"role": "user", "session_id": "s1", '
                                                              f'"content": {lone}}}'), "content")
    refused(raw(http, "/v1/turns", f'{{"role": "user", "session_id": {lone}, "content": "x"}}'), "session_id")
    judgment = {"trigger": "t", "judgment": "j", "reasoning": "r"}
    for field in judgment:
        refused(raw(http, "/v1/judgments", json.dumps({**judgment, field: "@"}).replace('"@"', lone)), field)
    refused(raw(http, "/v1/judgments", json.dumps({**judgment, "metadata": {"k": "@"}}).replace('"@"', "NaN")),
            "metadata")
    refused(raw(http, "/v1/judgments", json.dumps({**judgment, "metadata": {"k": ["@"]}}).replace('"@"', lone)),
            "metadata")
    assert turns_stored(http) == 1 and http.get("/v1/judgments").json() == {"judgments": []}


def test_a_turn_over_max_turn_chars_is_a_422(http: TestClient) -> None:
    assert "Config.capture.max_turn_chars" in refused(http.post("/v1/turns", json=turn("x" * 1001)), "content")
    assert turns_stored(http) == 1


def test_deeply_nested_json_is_refused_without_a_500(http: TestClient) -> None:
    r = raw(http, "/v1/judgments", '{"trigger": "t", "judgment": "j", "reasoning": "r", "metadata": {"k": '
            + "[" * 100_000 + "]" * 100_000 + "}}")
    assert 400 <= r.status_code < 500, r.status_code


def test_closing_a_closed_loop_says_it_was_already_closed(http: TestClient) -> None:
    assert http.post("/v1/sessions/s1/end").status_code == 200  # consolidated: the promise is an open loop
    (loop,) = http.get("/v1/loops").json()["loops"]
    first = http.post(f"/v1/loops/{loop['id']}/close").json()
    assert first["already_closed"] is False and first["loop"]["status"] == "closed"
    again = http.post(f"/v1/loops/{loop['id']}/close").json()
    assert again["already_closed"] is True and again["loop"]["closed_at"] == first["loop"]["closed_at"]


def test_metadata_nested_too_deep_to_read_back_is_refused(http: TestClient) -> None:
    def nested(depth: int) -> dict[str, Any]:
        value: Any = "leaf"
        for _ in range(depth):
            value = [value]
        return {"trigger": f"nested {depth}", "judgment": "j", "reasoning": "r", "metadata": {"k": value}}

    assert "nested deeper than 32 levels" in refused(http.post("/v1/judgments", json=nested(500)), "metadata")
    stored = http.post("/v1/judgments", json=nested(31))
    assert stored.status_code == 201
    assert http.get(f"/v1/judgments/{stored.json()['id']}").status_code == 200
    assert http.get("/v1/judgments").status_code == 200
