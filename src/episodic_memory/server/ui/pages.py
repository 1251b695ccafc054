"""The inspector's pages (docs/inspector.md): server-rendered HTML over the `Memory` verbs the REST API uses.

Every page acts for the browser session's user only (`sessions.py`); every form that changes something is a
POST carrying the session's CSRF token. Every id put into a URL is one percent-encoded path segment (the `url`
filter), and the routes that take a string id take the rest of the path (``{id:path}``).
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime, timezone
from importlib import resources
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, FastAPI, Form, HTTPException, Request, status
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ...config import Config
from ...memory import Memory
from ...util import to_iso
from ..tokens import hash_token
from .charts import bar_chart, dot_chart, entity_graph
from .sessions import (
    COOKIE,
    LOGIN_COOKIE,
    BrowserSession,
    BrowserSessions,
    LoginForms,
    SharedBrowserSessions,
    SharedInspector,
    csrf_ok,
)

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
KINDS = ("turn", "fact", "episode", "workstream", "loop", "judgment")
PAGE_SESSIONS = 40            # sessions per timeline page
CHART_DAYS = 30               # days in the turns-per-day chart
FACTS_SHOWN_PER_TYPE = 50     # newest facts of each type on /facts (filter by type for more)
FACTS_SHOWN_FILTERED = 1000

_ASSETS = resources.files(__package__)
templates = Jinja2Templates(directory=str(_ASSETS / "templates"))


def _day(ts: float | None) -> str:
    return (to_iso(ts) or "")[:10]


templates.env.filters["iso"] = lambda ts: (to_iso(ts) or "")[:16].replace("T", " ")
templates.env.filters["day"] = _day
def url_part(value: object) -> str:
    """`value` as one path segment of a URL: every reserved character percent-encoded (``/`` ``?`` ``#`` ``%``...),
    and a segment of dots too (a browser resolves ``..`` and, per the URL standard, ``%2e%2e`` alike: such an id
    cannot be reached by a link, but it never walks up the path)."""
    part = quote(str(value), safe="")
    return part.replace(".", "%2E") if part.strip(".") == "" else part


templates.env.filters["url"] = url_part


class _Redirect(Exception):
    def __init__(self, location: str) -> None:
        self.location = location


def add_inspector(app: FastAPI, config: Config | None = None, shared: SharedInspector | None = None) -> None:
    """Serve the inspector at `/` of the REST app (`app.state` holds the pool, the token store and the user).
    `shared`: the logins and the login forms' key of a server of several processes (`serve --processes N`)."""
    config = config or Config()
    limits = (config.server.ui_session_idle_s, config.server.ui_max_sessions, config.server.ui_max_sessions_per_user)
    app.state.browser_sessions = (BrowserSessions(*limits) if shared is None
                                  else SharedBrowserSessions(shared.sessions_db, *limits))
    app.state.login_forms = LoginForms(config.server.ui_login_form_s, None if shared is None else shared.login_key)
    app.mount("/static", StaticFiles(directory=str(_ASSETS / "static")), name="static")
    app.include_router(router)

    @app.exception_handler(_Redirect)
    async def _redirect(_: Request, exc: _Redirect) -> Response:
        return RedirectResponse(exc.location, status_code=status.HTTP_303_SEE_OTHER, headers=HEADERS)


router = APIRouter(include_in_schema=False)


# --- sessions, users, rendering --------------------------------------------------------------------------

def _sessions(request: Request) -> BrowserSessions:
    return request.app.state.browser_sessions


def _logged_in(request: Request) -> BrowserSession | None:
    """The logged-in browser session of this request, if any. A session whose API token was revoked (or whose user
    was forgotten) ends here."""
    sessions = _sessions(request)
    session = sessions.get(request.cookies.get(COOKIE))
    tokens = request.app.state.tokens
    if session is not None and session.user_id is not None:
        record = tokens.store.token_by_hash(session.token_hash) if tokens is not None and session.token_hash else None
        if tokens is None or (record is not None and not record.revoked):
            return session
        sessions.end(session.sid)
    return None


def _viewer(request: Request) -> BrowserSession:
    """The logged-in browser session of this request, or a redirect to the login page (and back here after)."""
    session = _logged_in(request)
    if session is not None:
        return session
    raw = request.scope.get("raw_path")   # as sent: an encoded id stays encoded on the way back
    path = raw.decode("latin-1") if isinstance(raw, bytes) else quote(request.url.path)
    target = path + (f"?{request.url.query}" if request.url.query else "")
    raise _Redirect("/login?" + urlencode({"next": target}))


@contextmanager
def _memory(request: Request, viewer: BrowserSession) -> Iterator[Memory]:
    assert viewer.user_id is not None
    with request.app.state.pool.lease(viewer.user_id) as mem:
        yield mem


@contextmanager
def _viewing(request: Request) -> Iterator[tuple[BrowserSession, Memory]]:
    """A page's start: its clock (Server-Timing), its viewer (or a redirect to the login page) and their Memory."""
    request.state.ui_started = time.perf_counter()
    viewer = _viewer(request)
    with _memory(request, viewer) as mem:
        yield viewer, mem


def _check(viewer: BrowserSession, csrf: str | None) -> None:
    if not csrf_ok(viewer, csrf):
        raise HTTPException(status.HTTP_403_FORBIDDEN, "the form's anti-forgery token is missing or wrong: reload "
                                                       "the page and try again")


def _act(request: Request, csrf: str, what: str, action: Callable[[Memory], Any],
         then: str | Callable[[Any], str]) -> Response:
    """A form's action for the viewer: anti-forgery checked, done, then back to `then` (a page, or made from the
    action's result). 404 when `what` is not the viewer's; 422 with the reason when the action refuses."""
    viewer = _viewer(request)
    _check(viewer, csrf)
    with _memory(request, viewer) as mem:
        try:
            result = action(mem)
        except (KeyError, OverflowError):
            return _page(request, "missing.html", viewer, code=404, what=what)
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from None
    raise _Redirect(then if isinstance(then, str) else then(result))


def _page(request: Request, name: str, viewer: BrowserSession | None, code: int = 200, **context: Any
          ) -> HTMLResponse:
    started = getattr(request.state, "ui_started", None)
    context = {"viewer": viewer, "csrf": viewer.csrf if viewer else "", "auth": request.app.state.tokens is not None,
               "path": request.url.path, "kinds": KINDS, **context}
    response = templates.TemplateResponse(request, name, context, status_code=code, headers=HEADERS)
    if started is not None:
        response.headers["Server-Timing"] = f"page;dur={(time.perf_counter() - started) * 1000:.1f}"
    return response


def _safe_next(target: str | None) -> str:
    """Only a path on this site (never `//host` or a scheme): no open redirect through the login form."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def _cookie(response: Response, request: Request, sid: str) -> None:
    response.set_cookie(COOKIE, sid, httponly=True, samesite="strict", secure=request.url.scheme == "https",
                        path="/")


def _login_page(request: Request, target: str, code: int = 200, error: str | None = None) -> Response:
    """The login form with a fresh anti-forgery token and its cookie; no session is made (see `LoginForms`)."""
    nonce, csrf = request.app.state.login_forms.issue()
    response = _page(request, "login.html", None, code=code, next=target, error=error, csrf=csrf)
    response.set_cookie(LOGIN_COOKIE, nonce, max_age=int(request.app.state.login_forms.max_age_s), httponly=True,
                        samesite="strict", secure=request.url.scheme == "https", path="/login")
    return response


# --- login -----------------------------------------------------------------------------------------------

@router.get("/login")
def login_form(request: Request, next: str | None = None) -> Response:   # noqa: A002 - the query's name
    request.state.ui_started = time.perf_counter()
    target = _safe_next(next)
    if _logged_in(request) is not None:         # logged in already: keep that session (a link here logs no one out)
        return RedirectResponse(target, status_code=status.HTTP_303_SEE_OTHER, headers=HEADERS)
    if request.app.state.tokens is None:        # auth off: the server's one user, no form
        session = _sessions(request).new(request.app.state.user_id)
        redirect = RedirectResponse(target, status_code=status.HTTP_303_SEE_OTHER, headers=HEADERS)
        _cookie(redirect, request, session.sid)
        return redirect
    return _login_page(request, target)


@router.post("/login")
def login(request: Request, token: str = Form(""), csrf: str = Form(""), next: str = Form("/")) -> Response:  # noqa: A002
    sessions = _sessions(request)
    target = _safe_next(next)
    forms = request.app.state.login_forms
    if request.app.state.tokens is None or not forms.check(request.cookies.get(LOGIN_COOKIE), csrf):
        raise _Redirect("/login?" + urlencode({"next": target}))
    user = request.app.state.tokens.user_for(token.strip()) if token.strip() else None
    if user is None:
        return _login_page(request, target, code=401, error="That token is unknown or revoked.")
    sessions.end(request.cookies.get(COOKIE))   # a new id at login: a planted session id is worth nothing
    session = sessions.new(user, hash_token(token.strip()))
    response = RedirectResponse(target, status_code=status.HTTP_303_SEE_OTHER, headers=HEADERS)
    _cookie(response, request, session.sid)
    response.delete_cookie(LOGIN_COOKIE, path="/login")
    return response


@router.post("/logout")
def logout(request: Request, csrf: str = Form("")) -> Response:
    viewer = _viewer(request)
    _check(viewer, csrf)
    _sessions(request).end(viewer.sid)
    response = RedirectResponse("/login", status_code=status.HTTP_303_SEE_OTHER, headers=HEADERS)
    response.delete_cookie(COOKIE, path="/")
    return response


# --- home: the briefing ----------------------------------------------------------------------------------

@router.get("/")
def home(request: Request, hours: float = 24) -> Response:
    hours = min(max(hours, 1.0), 24 * 365)
    with _viewing(request) as (viewer, mem):
        brief = mem.brief(hours=hours)
        stats = mem.stats()
        sessions = mem.sessions()
        facts = mem.facts()
    # the count boxes count what the panels list: the window's sessions (with a turn in it), the turns of those
    # sessions, the current facts stated in it; the all-time totals beside them
    active = [s for s in sessions if _in_window(s.started_at, s.last_turn_at, brief.since, brief.until)]
    window = {"sessions": len(active), "turns": sum(s.turn_count for s in active),
              "facts": sum(brief.since <= f.created_at <= brief.until for f in facts)}
    now = time.time()
    per_day: Counter[str] = Counter()
    for s in sessions:
        if s.started_at is not None and now - s.started_at <= CHART_DAYS * 86400:
            per_day[_day(s.started_at)] += s.turn_count
    days = [_day(now - d * 86400) for d in range(CHART_DAYS - 1, -1, -1)]
    turns_chart = bar_chart([(d[5:], per_day.get(d, 0)) for d in days], f"Turns per day, last {CHART_DAYS} days")
    by_type = Counter(f.type for f in facts).most_common()
    facts_chart = bar_chart(by_type, "Current facts by type")
    return _page(request, "home.html", viewer, brief=brief, stats=stats, window=window, hours=hours,
                 turns_chart=turns_chart, facts_chart=facts_chart)


def _in_window(started: float | None, last: float | None, since: float, until: float) -> bool:
    """Whether a session had a turn in [since, until], as the briefing's list of sessions counts it."""
    return (last if last is not None else started or 0.0) >= since and (started or 0.0) <= until


# --- timeline and sessions -------------------------------------------------------------------------------

@router.get("/timeline")
def timeline(request: Request, page: int = 1) -> Response:
    page = max(1, min(page, 100_000))
    with _viewing(request) as (viewer, mem):
        sessions = mem.sessions()
        shown = sessions[(page - 1) * PAGE_SESSIONS: page * PAGE_SESSIONS]
        episodes = {s.session_id: mem.episode(s.session_id) for s in shown}
        facts = mem.session_facts(s.session_id for s in shown)
    days: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in shown:
        episode = episodes.get(s.session_id)
        told = [f for f in facts.get(s.session_id, []) if f["current"]]
        days[_day(s.started_at) or "undated"].append({
            "session": s, "summary": episode.summary if episode else "",
            "decisions": [f for f in told if f["type"] == "decision"],
            "corrections": [f for f in told if f["type"] == "correction"],
        })
    more = len(sessions) > page * PAGE_SESSIONS
    return _page(request, "timeline.html", viewer, days=days, page=page, more=more, total=len(sessions))


@router.get("/sessions/{session_id:path}")
def session_page(request: Request, session_id: str) -> Response:
    with _viewing(request) as (viewer, mem):
        info = mem.session(session_id)
        if info is None:
            return _page(request, "missing.html", viewer, code=404, what=f"session {session_id!r}")
        turns = mem.session_turns(session_id)
        episode = mem.episode(session_id)
    return _page(request, "session.html", viewer, info=info, turns=turns, episode=episode)


# --- search ----------------------------------------------------------------------------------------------

@router.get("/search")
def search(request: Request, q: str = "", kind: str = "", session: str = "", since: str = "", until: str = "",
           source: str = "", tags: str = "", k: int = 20) -> Response:
    request.state.ui_started = time.perf_counter()
    viewer = _viewer(request)
    hits, error = [], None
    k = max(1, min(k, 100))
    if q.strip():
        try:
            with _memory(request, viewer) as mem:
                hits = mem.recall(q, k=k, kind=kind or None, session_id=session or None,
                                  since=_date(since, "from"), until=_date(until, "until", end=True),
                                  source=source.strip() or None,
                                  tags=[t.strip() for t in tags.split(",") if t.strip()] or None)
        except ValueError as exc:
            error = str(exc)
    now = time.time()
    rows = [{"hit": h, "age": _age(now - h.timestamp.timestamp()) if h.timestamp else ""} for h in hits]
    return _page(request, "search.html", viewer, q=q, kind=kind, session=session, since=since, until=until,
                 source=source, tags=tags, rows=rows, error=error)


def _date(value: str, name: str, end: bool = False) -> datetime | None:
    if not value.strip():
        return None
    try:
        day = datetime.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(f"{name}: {value!r} is not a date (YYYY-MM-DD)") from None
    day = day if day.tzinfo else day.replace(tzinfo=timezone.utc)
    if end and len(value.strip()) == 10:
        day = day.replace(hour=23, minute=59, second=59)
    return day


def _age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    for unit, size in (("y", 365 * 86400), ("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{int(seconds // size)} {unit} ago"
    return "just now"


# --- facts -----------------------------------------------------------------------------------------------

@router.get("/facts")
def facts_page(request: Request, type: str = "", entity: str = "") -> Response:  # noqa: A002 - the query's name
    with _viewing(request) as (viewer, mem):
        every = mem.facts()
        entities = mem.entities()
        ids = None
        if entity:
            try:
                ids = {f["id"] for f in mem.profile(entity)["facts_list"]}
            except KeyError:
                ids = set()
    every_type = sorted({f.type for f in every})
    cap = FACTS_SHOWN_FILTERED if type or entity else FACTS_SHOWN_PER_TYPE
    grouped: dict[str, list[Any]] = defaultdict(list)
    hidden: Counter[str] = Counter()
    for f in every:
        if (type and f.type != type) or (ids is not None and f.id not in ids):
            continue
        if len(grouped[f.type]) < cap:
            grouped[f.type].append(f)
        else:
            hidden[f.type] += 1
    return _page(request, "facts.html", viewer, grouped=dict(sorted(grouped.items())), type=type, entity=entity,
                 types=every_type, entities=entities[:200], hidden=hidden)


@router.get("/facts/{fact_id}")
def fact_page(request: Request, fact_id: int) -> Response:
    request.state.ui_started = time.perf_counter()
    viewer = _viewer(request)
    if not 0 < fact_id < 2**63:
        return _page(request, "missing.html", viewer, code=404, what=f"fact {fact_id}")
    with _memory(request, viewer) as mem:
        try:
            history = mem.fact_history(fact_id)
        except KeyError:
            return _page(request, "missing.html", viewer, code=404, what=f"fact {fact_id}")
        sources = {t.id: t for f in history for t in mem.session_turns(f.session_id) if t.id in f.source_ids}
        pinned = any(p["id"] == fact_id for p in mem.pinned_facts())
    fact = next(f for f in history if f.id == fact_id)
    return _page(request, "fact.html", viewer, fact=fact, history=list(reversed(history)), sources=sources,
                 pinned=pinned)


@router.post("/facts/{fact_id}/pin")
def pin_fact(request: Request, fact_id: int, csrf: str = Form(""), pinned: str = Form("")) -> Response:
    if pinned not in ("true", "false"):
        raise HTTPException(422, "pinned must be true or false")
    return _act(request, csrf, f"fact {fact_id}", lambda mem: mem.pin_fact(fact_id, pinned == "true"),
                f"/facts/{fact_id}")


@router.post("/facts/{fact_id}/forget")
def forget_fact(request: Request, fact_id: int, csrf: str = Form(""), confirm: str = Form("")) -> Response:
    if confirm != "yes":
        raise HTTPException(422, "tick the box to confirm forgetting the fact")
    return _act(request, csrf, f"fact {fact_id}", lambda mem: mem.forget_fact(fact_id), "/facts")


@router.post("/facts/{fact_id}/edit")
def edit_fact(request: Request, fact_id: int, csrf: str = Form(""), text: str = Form("")) -> Response:
    return _act(request, csrf, f"fact {fact_id}", lambda mem: mem.edit_fact(fact_id, text),
                lambda new: f"/facts/{new.id}")


# --- workstreams and loops -------------------------------------------------------------------------------

@router.get("/work")
def work(request: Request) -> Response:
    with _viewing(request) as (viewer, mem):
        streams = mem.workstreams()
        by_ws = {w.id: mem.episodes(workstream_id=w.id, limit=10, with_facts=False) for w in streams}
        open_loops = mem.loops(status="open")
        closed = mem.loops(status="closed", limit=30)
    loops_by_ws: dict[int | None, list[Any]] = defaultdict(list)
    for loop in open_loops:
        loops_by_ws[loop.workstream_id if loop.workstream else None].append(loop)
    return _page(request, "work.html", viewer, streams=streams, episodes=by_ws, loops=loops_by_ws,
                 closed=closed)


@router.post("/loops/{loop_id}/close")
def close_loop(request: Request, loop_id: int, csrf: str = Form(""), note: str = Form("")) -> Response:
    return _act(request, csrf, f"loop {loop_id}", lambda mem: mem.close_loop(loop_id, note=note.strip() or None),
                "/work#closed")


@router.post("/loops/{loop_id}/reopen")
def reopen_loop(request: Request, loop_id: int, csrf: str = Form(""), note: str = Form("")) -> Response:
    return _act(request, csrf, f"loop {loop_id}", lambda mem: mem.reopen_loop(loop_id, note=note.strip() or None),
                "/work")


# --- entities --------------------------------------------------------------------------------------------

@router.get("/entities")
def entities_page(request: Request) -> Response:
    with _viewing(request) as (viewer, mem):
        entities = mem.entities()
    return _page(request, "entities.html", viewer, entities=entities)


@router.get("/entities/{name:path}")
def entity_page(request: Request, name: str) -> Response:
    with _viewing(request) as (viewer, mem):
        try:
            profile = mem.profile(name)
        except KeyError:
            return _page(request, "missing.html", viewer, code=404, what=f"entity {name!r}")
    related = [(r["name"], int(r["weight"])) for r in profile.get("related", [])][:12]
    graph = entity_graph(profile["name"], related)
    return _page(request, "entity.html", viewer, profile=profile, graph=graph)


# --- judgments -------------------------------------------------------------------------------------------

@router.get("/judgments")
def judgments_page(request: Request) -> Response:
    with _viewing(request) as (viewer, mem):
        judgments = mem.judgments.list_judgments(limit=500)
    rows = sorted(judgments, key=lambda j: (-j.utility_score, j.id))
    points = [(j.created_at.timestamp(), j.utility_score, j.judgment[:60]) for j in judgments if j.created_at]
    chart = dot_chart(points, "Utility of each judgment by the day it was made")
    return _page(request, "judgments.html", viewer, rows=rows, chart=chart)


@router.post("/judgments/{judgment_id:path}/verify")
def verify(request: Request, judgment_id: str, csrf: str = Form(""), adopted: str = Form(""),
           correction: str = Form("")) -> Response:
    if adopted not in ("true", "false"):
        raise HTTPException(422, "adopted must be true or false")
    return _act(request, csrf, f"judgment {judgment_id!r}", lambda mem: mem.judgments.verify(
        judgment_id, adopted == "true", user_correction=correction.strip() or None), "/judgments")


# --- forgetting ------------------------------------------------------------------------------------------

@router.get("/forget")
def forget_form(request: Request, session: str = "", entity: str = "") -> Response:
    with _viewing(request) as (viewer, mem):
        sessions = mem.sessions()
        stats = _counts(mem)
        entities = mem.entities()
    return _page(request, "forget.html", viewer, sessions=sessions, chosen=session, stats=stats, result=None,
                 error=None, entities=entities, chosen_entity=entity)


@router.post("/forget")
def forget(request: Request, csrf: str = Form(""), target: str = Form(""), session: str = Form(""),
           entity: str = Form(""), confirm: str = Form("")) -> Response:
    viewer = _viewer(request)
    _check(viewer, csrf)
    assert viewer.user_id is not None
    expected = {"session": session, "entity": entity, "everything": viewer.user_id}.get(target)
    with _memory(request, viewer) as mem:
        before = _counts(mem)
        error = None
        if expected is None:
            error = "Choose what to forget."
        elif target == "session" and mem.session(session) is None:
            error = f"There is no session {session!r}."
        elif target == "entity" and not any(e.name == entity for e in mem.entities()):
            error = f"There is no entity {entity!r}."
        elif confirm.strip() != expected:
            error = f"To confirm, type {expected!r} exactly."
        if error:
            return _page(request, "forget.html", viewer, code=422, sessions=mem.sessions(), chosen=session,
                         stats=before, result=None, error=error, entities=mem.entities())
        if target == "entity":
            forgot = _forget_entity_facts(mem, entity)
        elif target == "session":
            forgot = mem.forget(session_id=session)
        else:
            forgot = mem.forget(user_id=viewer.user_id)
        after = _counts(mem)
        sessions = mem.sessions()
        entities = mem.entities()
    if target == "everything" and request.app.state.tokens is not None:
        _sessions(request).end_user(viewer.user_id)   # the user's tokens are gone with the user
    what = {"session": f"session {session}", "entity": f"the facts naming {entity}"}.get(target, "everything")
    result = {"what": what,
              "rows": [(key, before[key], after[key]) for key in before],
              "scrubbed": bool(forgot.get("scrubbed", 1))}
    return _page(request, "forget.html", viewer, sessions=sessions, chosen="", stats=after, result=result,
                 error=None, entities=entities)


def _counts(mem: Memory) -> dict[str, int]:
    """What a user has, kind by kind: shown before and after forgetting, as the proof."""
    stats = mem.stats()
    return {"sessions": stats["sessions"], "turns": stats["turns"], **mem.derived_counts()}


def _forget_entity_facts(mem: Memory, name: str) -> dict[str, int]:
    """Forget every fact (current or superseded) that names the entity; the entity goes with its last fact. The
    turns stay: forget their sessions for those."""
    ids = {f["id"] for f in mem.profile(name)["facts_list"]}
    ids |= {f.id for f in mem.facts(include_superseded=True) if name in f.entities}
    gone = 0
    for fact_id in sorted(ids, reverse=True):
        with suppress(KeyError):   # mended away with a chain forgotten before it
            mem.forget_fact(fact_id)
            gone += 1
    return {"facts": gone, "scrubbed": 1}
