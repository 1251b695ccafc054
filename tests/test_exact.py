"""Exact lookups (issue 23): identifiers, rare words and quoted phrases come back first, in every kind."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from episodic_memory import Config, Memory
from episodic_memory.retrieve.exact import coined, known_words
from episodic_memory.retrieve.fts import identifier_match, lookups, whole_forms

TEMPLATES = ("note about the launch plan: {x} is still open", "status update on the launch plan, {x} needs a review",
             "the launch plan mentions {x} again", "checked {x} for the launch plan today")
_PIECE = re.compile(r"[^\W\d_]+|\d+")


def pieces(text: str) -> list[str]:
    return _PIECE.findall(text.lower())


def occurs(seq: list[str], text: str) -> bool:
    toks = pieces(text)
    return any(toks[i : i + len(seq)] == seq for i in range(len(toks) - len(seq) + 1))


# --- identifiers of each style: (whole, distinctive part or None, a question about it) -------------------------
Ident = tuple[str, str | None, str]
# a hash is asked by its 7-character prefix; prefixes of all digits (`4821937`) or all letters (`deadbee`) too
_hex = st.one_of(
    st.text("0123456789abcdef", min_size=12, max_size=12),
    st.tuples(st.text("0123456789", min_size=7, max_size=7), st.text("0123456789abcdef", min_size=5, max_size=5)),
    st.tuples(st.text("abcdef", min_size=7, max_size=7), st.text("0123456789abcdef", min_size=5, max_size=5)),
).map(lambda h: h if isinstance(h, str) else h[0] + h[1])
STYLES: dict[str, st.SearchStrategy[Ident]] = {
    "bare": st.one_of(
        st.tuples(st.integers(1, 99), st.integers(1, 99)).map(lambda t: f"zq{t[0]}q{t[1]}z"),
        st.text("bdfgklmnprstvz", min_size=3, max_size=3).flatmap(
            lambda c: st.text("aeiou", min_size=3, max_size=3).map(lambda v: "".join(a + b for a, b in zip(c, v, strict=True))
                                                                    + "x"))).map(
        lambda x: (x, None, f"what did I say about {x}?")),
    "ticket": st.tuples(st.sampled_from(["ZQ", "PROJ", "OPS"]), st.integers(100, 99999)).map(
        lambda t: (f"{t[0]}-{t[1]}", str(t[1]), f"what was the status of {t[0]}-{t[1]}?")),
    "issue": st.integers(100, 99999).map(lambda n: (f"#{n}", str(n), f"is issue #{n} fixed yet?")),
    "version": st.tuples(st.integers(0, 12), st.integers(0, 30), st.integers(0, 40)).map(
        lambda t: (f"v{t[0]}.{t[1]}.{t[2]}", f"{t[0]}.{t[1]}.{t[2]}", f"what changed in v{t[0]}.{t[1]}.{t[2]}?")),
    "hash": _hex.map(lambda h: (h, h[:7], f"which change was commit {h}?")),
    "email": st.tuples(st.sampled_from(["maria", "john", "li"]), st.sampled_from(["okafor", "chen"]),
                       st.integers(1, 9999), st.sampled_from(["example.com", "acme-corp.com"])).map(
        lambda t: (f"{t[0]}.{t[1]}{t[2]}@{t[3]}", f"{t[0]}.{t[1]}{t[2]}", f"when did I write to {t[0]}.{t[1]}{t[2]}@{t[3]}?")),
    "url": st.tuples(st.sampled_from(["runbooks", "design"]), st.sampled_from(["rollback", "deploy"]),
                     st.integers(1, 99999)).map(
        lambda t: (f"https://docs.acme.io/{t[0]}/{t[1]}-{t[2]}", f"{t[1]}-{t[2]}",
                   f"where did we link https://docs.acme.io/{t[0]}/{t[1]}-{t[2]}?")),
    "path": st.tuples(st.sampled_from(["app", "billing"]), st.sampled_from(["main", "invoice"]),
                      st.integers(1, 99999)).map(
        lambda t: (f"src/{t[0]}/{t[1]}_{t[2]}.py", f"{t[1]}_{t[2]}.py", f"what did we change in src/{t[0]}/{t[1]}_{t[2]}.py?")),
    "money": st.tuples(st.sampled_from("€$£"), st.integers(1, 999), st.integers(0, 999)).map(
        lambda t: (f"{t[0]}{t[1]},{t[2]:03d}", f"{t[1]},{t[2]:03d}", f"what was the {t[0]}{t[1]},{t[2]:03d} for?")),
    "date": st.tuples(st.integers(2019, 2027), st.integers(1, 12), st.integers(1, 28)).map(
        lambda t: (f"{t[0]}-{t[1]:02d}-{t[2]:02d}", None, f"what happened on {t[0]}-{t[1]:02d}-{t[2]:02d}?")),
}


def distractors(rng: random.Random) -> Iterator[str]:
    """Identifiers that share parts with what the strategies draw: prefixes, domains, folders, thousands, years."""
    for _ in range(25):
        n = rng.randint(100, 99999)
        yield from (f"zq{rng.randint(1, 99)}q{rng.randint(1, 99)}z", f"ZQ-{n}", f"PROJ-{n + 1}", f"#{n + 2}",
                    f"v{rng.randint(0, 12)}.{rng.randint(0, 30)}.{rng.randint(0, 40)}",
                    "".join(rng.choice("0123456789abcdef") for _ in range(12)),
                    f"maria.okafor{rng.randint(1, 9999)}@example.com", f"https://docs.acme.io/runbooks/rollback-{n}",
                    f"src/app/main_{n}.py", f"€{rng.randint(1, 999)},{rng.randint(0, 999):03d}",
                    f"{rng.randint(2019, 2027)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Memory, list[str]]]:
    """~280 near-duplicate turns, each with an identifier that shares parts with the ones the tests add."""
    rng = random.Random(23)
    texts = [rng.choice(TEMPLATES).format(x=x) for x in distractors(rng)]
    with Memory(tmp_path_factory.mktemp("exact") / "mem.db") as mem:
        for s in range(0, len(texts), 20):
            mem.add_turns([{"role": "user", "content": t, "session_id": f"s{s}"} for t in texts[s : s + 20]])
            mem.end_session(f"s{s}")
        yield mem, texts


def _first_holds(mem: Memory, query: str, turn_id: str) -> bool:
    hits = mem.recall(query, k=5)
    return bool(hits) and turn_id in hits[0].source_ids


@pytest.mark.parametrize("style", list(STYLES))
def test_identifier_of_each_style_comes_first(store: tuple[Memory, list[str]], style: str) -> None:
    mem, texts = store

    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(ident=STYLES[style], template=st.sampled_from(TEMPLATES))
    def check(ident: Ident, template: str) -> None:
        whole, part, question = ident
        for form in (whole, part):  # whole and distinctive part: in no turn of the store yet
            assume(form is None or not any(occurs(pieces(form), t) for t in texts))
        text = template.format(x=whole)
        turn_id = mem.add_turn("user", text, session_id=f"h-{style}-{len(texts)}", turn_id=f"h{len(texts)}")
        texts.append(text)
        assert _first_holds(mem, whole, turn_id), whole
        # inside a question, a plain word counts only when it is coined (outside the embedder's vocabulary)
        if not whole.isalpha() or coined(whole) or style == "hash":
            assert _first_holds(mem, question, turn_id), question
        if part is not None:
            assert _first_holds(mem, part, turn_id), part

    check()


def test_switch_off(store: tuple[Memory, list[str]]) -> None:
    """`Config.retrieval.exact_lookup=False` is recall as before: no hit is marked as holding a lookup."""
    mem, texts = store
    tickets = [m.group() for t in texts[:60] for m in re.finditer(r"ZQ-\d+", t)][:5]
    with Memory(mem.path, config=Config(retrieval={"exact_lookup": False})) as off:
        assert all("exact" not in h.details for q in tickets for h in off.recall(q, k=5))
    assert all(mem.recall(q, k=5)[0].details.get("exact") == 1 for q in tickets)


WORDS = ["amber", "harbor", "copper", "lantern", "meadow", "silver", "orchard", "falcon", "granite", "willow"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=st.lists(st.sampled_from(WORDS), min_size=2, max_size=2, unique=True),
       asked=st.sampled_from(['"{p}"', 'where did we put the "{p}"?', "“{p}”, remember it?"]))
def test_quoted_phrase_comes_first(store: tuple[Memory, list[str]], pair: list[str], asked: str) -> None:
    """Turns holding both words apart (and more of them) lose to one holding the quoted phrase."""
    mem, texts = store
    a, b = pair
    phrase = f"{a} {b}"
    n = len(texts)
    apart = [f"the {b} and the {a} for the launch plan, {b} {b}", f"{a} by the {b}: {a}, {b} and the launch plan"]
    mem.add_turns([{"role": "user", "content": t, "session_id": f"q{n}"} for t in apart])
    mem.add_turn("user", f"the launch plan needs the {phrase} too", session_id=f"q{n}-b")
    texts.extend([*apart, phrase])
    hits = mem.recall(asked.format(p=phrase), k=5)
    assert hits and phrase in " ".join(pieces(hits[0].text))


def _holders_first(hits: list, token: str) -> bool:
    """Every hit holding `token` comes before every hit that does not, and at least one holds it."""
    holds = [token.lower() in h.text.lower() for h in hits]
    return bool(holds) and holds[0] and holds == sorted(holds, reverse=True)


def test_rare_token_in_a_judgment(store: tuple[Memory, list[str]]) -> None:
    mem, _ = store
    mem.judgments.store("rolling back the payments service during ZQ-77123", "page the on-call lead first",
                        "the last rollback without them lost an hour")
    for query in ("ZQ-77123", "what do I do about ZQ-77123?", "77123"):
        hits = mem.recall(query, k=10)  # a judgment's hit text is its judgment; its trigger holds the ticket
        assert hits[0].kind == "judgment" and hits[0].details["exact"] == 1
        assert all("exact" not in h.details for h in hits[1:])


@pytest.mark.parametrize("kind", ["fact", "episode", None])
def test_rare_token_in_a_derived_memory(store: tuple[Memory, list[str]], kind: str | None) -> None:
    """A session that talks about a made-up name: its fact and episode hold it, and rank first in their kind; with
    every kind, every memory holding it comes before every one that does not."""
    mem, texts = store
    sid = "derived"
    if not any("quillmarsh" in t for t in texts):
        said = ["My project codename is Quillmarsh and build QM-4471 ships in May",
                "note about the launch plan: ZQ-1 is open",
                "the launch plan mentions ZQ-2 again"]
        mem.add_turns([{"role": "user", "content": t, "session_id": sid} for t in said])
        mem.end_session(sid)
        texts.extend(t.lower() for t in said)
    hits = mem.recall("quillmarsh", k=10, kind=kind)
    assert hits and "quillmarsh" in hits[0].text.lower()
    if kind is not None:
        assert hits[0].kind == kind
    assert _holders_first(hits, "quillmarsh")
    assert _holders_first(mem.recall("Quillmarsh?", k=10, kind=kind), "quillmarsh")
    hits = mem.recall("when does build QM-4471 ship?", k=10, kind=kind)  # an identifier inside a question
    assert _holders_first(hits, "qm-4471")


# --- made-up words inside questions -------------------------------------------------------------------------
_coinage = st.tuples(st.lists(st.sampled_from([c + v for c in "bcdfghjklmnprstvwz" for v in "aeiouy"]), min_size=2,
                              max_size=4), st.sampled_from(["", "n", "r", "x", "k", "sh", "th", "ex", "ia"]),
                     st.booleans()).map(lambda t: "".join(t[0]) + t[1]).filter(coined)
_ASKED = ("what did I decide about {x}?", "Who owns {x} now?", "status of {X}, please", "remind me what {x} was",
          "did we ship the {X} prototype?")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(word=_coinage, asked=st.sampled_from(_ASKED), capital=st.booleans())
def test_coined_word_inside_a_question_comes_first(store: tuple[Memory, list[str]], word: str, asked: str,
                                                   capital: bool) -> None:
    """A made-up name in one turn, among turns holding other made-up names with the same syllables: asked inside a
    question, whatever its wording or case, its turn is first."""
    mem, texts = store
    assume(not any(word in pieces(t) for t in texts))
    n = len(texts)
    others = [word[::-1], word[2:] + word[:2], word + "o"]  # the same syllables, other words
    text = f"we talked about {word.capitalize() if capital else word} for the launch plan"
    mem.add_turns([{"role": "user", "content": f"we talked about {o} for the launch plan", "session_id": f"c{n}"}
                   for o in others if o != word])
    turn_id = mem.add_turn("user", text, session_id=f"c{n}-b")
    texts.extend([*others, text.lower()])
    query = asked.format(x=word, X=word.capitalize())
    assert _first_holds(mem, query, turn_id), query
    assert mem.recall(query, k=3)[0].details.get("exact") == 1


def test_words_of_the_vocabulary_inside_a_question_do_not_count(store: tuple[Memory, list[str]]) -> None:
    """A dictionary word or a name held by one turn is not an exact lookup inside a question (LoCoMo: the tier
    would put such turns above the evidence); alone it is."""
    mem, _ = store
    mem.add_turn("user", "the lighthouse keeper called about the launch plan", session_id="vocab")
    assert "exact" not in mem.recall("what did I say about the lighthouse?", k=3)[0].details
    assert mem.recall("lighthouse", k=3)[0].details.get("exact") == 1


def test_an_inflected_word_inside_a_question_is_no_lookup(store: tuple[Memory, list[str]]) -> None:
    """"formatting" is "format" doubled before -ing: the one turn holding "format" gets no exact tier over the
    answer (the bundled demo's "What does Maya prefer for formatting?" put "That's the format Northgate asked for"
    above "I prefer bullet points")."""
    mem, _ = store
    mem.add_turn("user", "That's the format the investors asked for.", session_id="fmt")
    assert all("exact" not in h.details for h in mem.recall("what does she prefer for formatting?", k=5))


@pytest.mark.parametrize(("word", "made_up"), [
    ("zelafun", True), ("quillmarsh", True), ("nifabil", True), ("kokagor", True),
    ("caroline", False), ("pottery", False), ("desserts", False), ("counseling", False), ("walked", False),
    ("zq6q14z", False), ("abc", False),
    # a doubled final consonant, a common prefix: inflections of known words, not coinages
    ("formatting", False), ("quizzed", False), ("scrubbing", False), ("rebranding", False), ("unplugged", False),
    ("rescheduled", False), ("underprivileged", False), ("rebafu", True), ("unzelafun", True),
])
def test_coined(word: str, made_up: bool) -> None:
    assert known_words()  # the bundled tokenizer's vocabulary is a dependency
    assert coined(word) is made_up


def test_coined_word_cap(tmp_path: Path) -> None:
    """A made-up word in more turns than `exact_coined_max_df` is not a lookup inside a question (0: never)."""
    path = tmp_path / "cap.db"
    with Memory(path) as mem:
        mem.add_turns([{"role": "user", "content": f"note {i} about the launch plan", "session_id": "other"}
                       for i in range(10)])
        mem.add_turns([{"role": "user", "content": f"vorplex review number {i} for the launch plan",
                        "session_id": "cap"} for i in range(3)])
        assert mem.recall("what did we say about vorplex?", k=3)[0].details.get("exact") is None
    with Memory(path, config=Config(retrieval={"exact_coined_max_df": 3})) as loose:
        assert loose.recall("what did we say about vorplex?", k=3)[0].details.get("exact") == 1
    with Memory(path, config=Config(retrieval={"exact_coined_max_df": 0})) as off:
        assert off.recall("vorplex", k=3)[0].details.get("exact") == 1  # alone it is still looked up


def test_session_filter_keeps_its_guarantee(store: tuple[Memory, list[str]]) -> None:
    mem, _ = store
    mem.add_turns([{"role": "user", "content": t, "session_id": "filtered"} for t in
                   ("checked ZQ-31337 for the launch plan today", "the launch plan mentions ZQ-31338 again")])
    hits = mem.recall("ZQ-31337", k=3, session_id="filtered")
    assert hits[0].text == "checked ZQ-31337 for the launch plan today"
    assert mem.recall("ZQ-31337", k=3, session_id="s0")[:1] != hits[:1]


# --- the query side -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("query", "expected"), [
    ("what was the status of ZQ-6614?", [("word", "status"), ("identifier", "ZQ-6614")]),
    ('where is the "rollback runbook"?', [("quoted", "rollback runbook")]),
    ("don't", [("word", "don")]),
    ("src/app/main.py", [("identifier", "src/app/main.py")]),
    ("which change was commit deadbee?", [("word", "change"), ("word", "commit"), ("identifier", "deadbee")]),
    ("4821937", [("identifier", "4821937")]),
    ("decaf", [("word", "decaf")]),
])
def test_lookups(query: str, expected: list[tuple[str, str]]) -> None:
    assert [(x.shape, x.text) for x in lookups(query)] == expected


@pytest.mark.parametrize(("chunk", "forms"), [
    ("ZQ-6614", '"zq 6614" OR "zq6614"'),
    ("ZQ6614", '"zq6614" OR "zq 6614"'),
    ("2.3.1", '"2 3 1" OR "v2 3 1"'),
    ("€48,000", '"48 000" OR "48000"'),
    ("a1b2c3d", '"a1b2c3d" OR "a1b2c3d"*'),
    ("4821937", '"4821937" OR "4821937"*'),
    ("DeadBee", '"deadbee" OR "deadbee"*'),
    ("482193", '"482193"'),
    ("2026-03-14", '"2026 03 14"'),
    ("#1234", '"1234"'),
])
def test_identifier_forms(chunk: str, forms: str) -> None:
    assert identifier_match(chunk) == forms


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_whole_forms_are_safe_fts(text: str) -> None:
    """Whatever the text, the expressions are quoted strings joined by OR (nothing else reaches MATCH)."""
    for expr in filter(None, [whole_forms(lookups(text)), *(x.match for x in lookups(text))]):
        assert re.fullmatch(r'(\(?"[^"]+"\*?\)?)( OR \(?"[^"]+"\*?\)?)*', expr), expr
