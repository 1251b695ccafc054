"""Issue 18, "keep it fixed": hostile bodies for every REST body (hypothesis) and the whole OpenAPI schema
(schemathesis), in process through the ASGI app with a bounded number of examples: never a 5xx, and a refused
request stores nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from episodic_memory.config import Config  # noqa: E402
from episodic_memory.server.rest import ForgetIn, JudgmentIn, TurnIn, VerifyIn, create_app  # noqa: E402
from tests.fakes import HashingEmbedder  # noqa: E402

TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=20)  # lone surrogates included
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                   st.floats(allow_nan=True, allow_infinity=True), TEXT,
                   st.sampled_from(["user", "assistant", "9999-12-31T23:59:59-14:00", "2026-12-01T10:00:00Z",
                                    "0001-01-01T00:00:00+14:00", "yes", "true", "", " "]))
JSON = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                    st.dictionaries(TEXT, inner, max_size=3)), max_leaves=8)
# bounded: a failure is reported as found, not shrunk for minutes (a shared 2-core CI box)
BOUNDED = {"deadline": None, "suppress_health_check": list(HealthCheck), "phases": [Phase.explicit, Phase.generate]}
QUICK = settings(max_examples=80, **BOUNDED)


@contextmanager
def client(tmp_path: Path) -> Iterator[TestClient]:
    config = Config(models={"embedder": "off"}, capture={"max_turn_chars": 200, "consolidate_every": 3})
    app = create_app(tmp_path / "m.db", auth=False, config=config, embedder=HashingEmbedder())
    with TestClient(app, raise_server_exceptions=False) as http:
        assert http.post("/v1/turns", json={"role": "user", "content": "I will send the deck by Friday",
                                            "session_id": "s1"}).status_code == 201
        yield http


def bodies(model: type, extra: tuple[str, ...] = ("user_id", "colour")) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with some of the model's fields (and sometimes one it does not have), each any JSON value."""
    names = [*model.model_fields, *extra]  # type: ignore[attr-defined]
    return st.dictionaries(st.sampled_from(names), JSON, max_size=len(names))


def post(http: TestClient, path: str, body: object) -> Any:
    """The body sent as a hostile client would: NaN allowed, lone surrogates escaped (\\ud800)."""
    return http.post(path, content=json.dumps(body).encode(), headers={"Content-Type": "application/json"})


def turns(http: TestClient) -> int:
    return int(http.get("/v1/stats").json()["turns"])


def test_turn_bodies(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        @QUICK
        @given(bodies(TurnIn))
        def check(body: dict[str, Any]) -> None:
            before = turns(http)
            r = post(http, "/v1/turns", body)
            assert r.status_code in (201, 422), (r.status_code, r.text)
            assert turns(http) == before + (r.status_code == 201)

        check()


def test_forget_bodies(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        @QUICK
        @given(bodies(ForgetIn))
        def check(body: dict[str, Any]) -> None:
            before = turns(http)
            r = post(http, "/v1/forget", body)
            assert r.status_code in (200, 422), (r.status_code, r.text)
            wipes_all = body == {"all": True}
            if r.status_code == 422 or not wipes_all and body.get("session_id") != "s1":
                assert turns(http) == before  # only JSON true for `all`, or the very session, forgets anything
            if wipes_all:
                assert r.status_code == 200 and turns(http) == 0
                http.post("/v1/turns", json={"role": "user", "content": "again", "session_id": "s1"})

        check()


def test_judgment_and_verdict_bodies(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        stored = http.post("/v1/judgments", json={"trigger": "t", "judgment": "j", "reasoning": "r"}).json()["id"]

        @QUICK
        @given(bodies(JudgmentIn), bodies(VerifyIn))
        def check(judgment: dict[str, Any], verdict: dict[str, Any]) -> None:
            r = post(http, "/v1/judgments", judgment)
            assert r.status_code in (201, 422), (r.status_code, r.text)
            before = http.get(f"/v1/judgments/{stored}").json()
            r = post(http, f"/v1/judgments/{stored}/verify", verdict)
            assert r.status_code in (200, 422), (r.status_code, r.text)
            after = http.get(f"/v1/judgments/{stored}").json()
            if r.status_code == 422:
                assert (after["adopted"], after["rejected"]) == (before["adopted"], before["rejected"])
            else:
                assert type(verdict["adopted"]) is bool  # only JSON true or false records a verdict
            assert http.get("/v1/judgments").status_code == 200

        check()


def test_close_loop_bodies_and_ids(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        @QUICK
        @given(st.one_of(st.integers(), st.text(max_size=12)),
               st.one_of(st.none(), st.dictionaries(st.sampled_from(["note", "colour"]), JSON, max_size=2)))
        def check(loop_id: object, body: dict[str, Any] | None) -> None:
            r = http.post(f"/v1/loops/{quote(str(loop_id), safe='')}/close",
                          content=b"" if body is None else json.dumps(body).encode(),
                          headers={"Content-Type": "application/json"})
            assert r.status_code in (200, 404, 422), (r.status_code, r.text)

        check()


# --- schemathesis: every operation of the OpenAPI document --------------------------------------------------

schemathesis = pytest.importorskip("schemathesis")


@pytest.fixture(scope="module")
def api_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    config = Config(models={"embedder": "off"}, capture={"max_turn_chars": 200})
    app = create_app(tmp_path_factory.mktemp("schemathesis") / "m.db", auth=False, config=config,
                     embedder=HashingEmbedder())
    yield app
    app.state.pool.close()


@pytest.fixture(scope="module")
def api_schema(api_app: Any) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", api_app)


def test_no_operation_answers_a_5xx(api_schema: Any) -> None:
    """Each operation of the OpenAPI document, fed `max_examples` generated requests. Driven through schemathesis'
    strategies rather than its pytest plugin (which reaches into pytest's private attributes and broke on 9.2)."""
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 15, "the schema lists the API's operations"
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=10, **BOUNDED)
        def answers_below_500(case: Any) -> None:
            response = case.call()
            assert response.status_code < 500, (case.method, case.formatted_path, case.query, case.body,
                                                response.text)

        answers_below_500()
