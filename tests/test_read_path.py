"""The read path's shortcuts give what the long way gives (issue 22): the one-pass filtered BM25 search currency's
follow-ups use, and currency's cheaper text analysis."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from episodic_memory import Config, Memory
from episodic_memory.retrieve import currency

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL


def test_filtered_search_gives_the_rows_search_turns_gives(db_path: Path) -> None:
    with Memory(db_path, config=Config(models={"embedder": "off"}, capture={"consolidate_every": 10**9})) as mem:
        for day in range(30):
            mem.add_turns([{"role": "user", "content": f"the kayak trip {word} on day {day}", "session_id": f"s{day % 3}",
                            "timestamp": 1_700_000_000 + day * 86_400, "source": "chat" if day % 2 else "mail",
                            "tags": ["trip"] if day % 5 == 0 else []}
                           for word in ("leaks", "rocks", "kayak")])
        mem.add_turn("user", "bob's kayak", session_id="b", user_id="bob", timestamp=1_700_000_000 + 40 * 86_400)
        store = mem.store
        since = 1_700_000_000 + 20 * 86_400
        for options in ({}, {"since": since}, {"until": since}, {"since": since, "session_id": "s1"},
                        {"since": 1_700_000_000 + 5 * 86_400, "source": "chat"}, {"tags": ["trip"]},
                        {"since": since, "until": since + 3 * 86_400}):
            for match in ('"kayak"', '"leaks" OR "rocks"', '"nothing"'):
                for limit in (1, 4, 50):
                    want = store.search_turns(match, "default", limit=limit, **options)
                    got = store.search_turns_filtered(match, "default", limit=limit, **options)
                    # the same rows; ties may come in either order
                    assert sorted(got) == sorted(want), (match, options, limit)
                    assert [round(s, 9) for _, s in got] == [round(s, 9) for _, s in want]
        assert [i for i, _ in store.search_turns_filtered('"kayak"', "bob", limit=10)] == [
            i for i, _ in store.search_turns('"kayak"', "bob", limit=10)]


def test_sentence_start_reads_only_the_end_of_the_prefix() -> None:
    texts = ["Dr. Okafor retired.", "User: Moving day is 14 March", '"Hello"  Carlos is here', "Hi Mel:  Art",
             "x\n  Bob", "a. \n Tom", " ", "Name:\n\nJoe", "ok Ann:Bob", "and Zed: Yo", "Élan: Bo", "A:B C"]
    rng = random.Random(7)
    alphabet = "aZ .:!?\n\t\"“(Ab"
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(20_000)]
    for text in texts:
        for end in range(len(text) + 1):
            assert currency._opens_sentence(text, end) == bool(currency._SENTENCE_START.search(text[:end])), (
                text, end)


def test_focused_passes_by_no_clause_that_could_touch_the_query() -> None:
    """`focused` skips a clause none of whose words can be asked about: the focus is the one reading every clause
    gives."""
    texts = ["The deck needs 14 slides. We kept the old template for two weeks.", "O'Brien's talk moved to June 3; "
             "Dr. Okafor retired.", "Piano lessons with Mateo are $40 now - the violin ones $35", "Nothing here.",
             "James’ flat: rent is 1,800 a month. Parking is extra."]
    queries = ["how many slides does the deck need?", "when is O'Brien's talk?", "how much are piano lessons?",
               "who teaches piano?", "what is the rent of James’ flat?", "where does Brien live?"]
    for query in queries:
        q = currency.signature(query)
        for text in texts:
            sig = currency.signature(text)
            want: set[str] = set()
            words: set[str] = set()
            for clause in currency._CLAUSE.split(currency.plain(text)):
                part = currency.signature(clause)
                if (part.words | part.name_words | part.values) & (q.words | q.values):
                    want.update(part.values)
                    words.update(part.words)
            got = currency.focused(sig, text, q)
            assert (got.focus, got.focus_words) == (frozenset(want & sig.values), frozenset(words)), (query, text)


def test_possessive_without_a_regex() -> None:
    for word in ["carlos's", "mel’s", "s", "'s", "boss", "it's", "james'", "x's's"]:
        assert currency._unpossessive(word) == re.sub(r"['’]s$", "", word)


def test_a_deletion_keeps_the_fitted_directions_and_the_coarse_scan_stays_exact(tmp_path: Path) -> None:
    """A superseded fact's or a forgotten session's vector bumps the deletion generation: the user's rows are read
    again, but the principal directions fitted on them are kept (refitting cost every consolidation run ~1 s at
    10k vectors), and the coarse-to-fine scan still finds what the exact one finds."""
    import numpy as np

    from episodic_memory import Config, Memory

    from .fakes import HashingEmbedder

    words = [f"w{i}" for i in range(40)]
    rng = np.random.default_rng(5)
    emb = HashingEmbedder(dim=64)
    coarse = Config(retrieval={"dense_coarse_above": 100, "dense_coarse_dims": 24, "dense_coarse_factor": 4, "dense_coarse_block": 64}, capture={"consolidate_in_background": "off", "consolidate_every": 10**6})
    with Memory(tmp_path / "m.db", config=coarse, embedder=emb) as mem:
        mem.add_turns([{"role": "user", "content": " ".join(rng.choice(words, 6)), "session_id": f"s{i % 7}"}
                       for i in range(400)])
        mem.index()
        dense = mem.retriever.dense_index()
        assert dense is not None
        fitted = dense.sync("default").basis
        assert fitted is not None
        mem.forget(session_id="s3")
        after = dense.sync("default")
        assert after.basis is fitted and len(after) < 400
        exact = type(dense)(mem.store, dense.model_id, dense.dim, coarse.replace({"retrieval.dense_coarse_above": 10**9}))
        same = []
        for _ in range(30):
            qv = emb.embed([" ".join(rng.choice(words, 6))])[0]
            got = sorted((round(h.similarity, 5) for h in dense.search("default", qv, 10, floor=0.0)), reverse=True)
            want = sorted((round(h.similarity, 5) for h in exact.search("default", qv, 10, floor=0.0)), reverse=True)
            same.append(sum(a == b for a, b in zip(got, want, strict=True)))
        assert np.mean(same) >= 9.5 and min(same) >= 8  # as good rows (a refit basis: 9.94 on average here)


def _pieces_read(text: str) -> list[str]:
    """Every piece of `text` currency reads values from: the text, its clauses, local contexts and phrases, its
    sentences (asked_values), its replaced and gone segments."""
    plain = currency.plain(text)
    pieces = [text, plain, *currency._CLAUSE.split(plain), *(m.group() for m in currency._SENTENCE.finditer(plain)),
              *(m.group(1) for m in currency._REPLACED.finditer(plain)),
              *(m.group(1) for m in currency._GONE.finditer(plain))]
    for n in (0, 3, 12):
        pieces += currency.local_contexts(text, n)
        pieces += currency.changed_contexts(text, n)
    return pieces


def test_may_hold_is_never_false_where_a_value_of_the_kind_is() -> None:
    """The currency gate's test: a text `may_hold` says holds no date (time, number) has none in any piece currency
    reads of it, so skipping currency for a question asking one changes nothing (and `_dates`, which asks the same
    first, misses no date)."""
    rng = random.Random(11)
    words = ["March", "mar", "Mar.", "sept", "Sept.", "may", "May", "decade", "market", "june", "Junes", "dec.",
             "14", "3rd", "the", "of", "8:20", "7", "pm", "am", "10:15pm", "two", "twenty", "one", "zero", "Twelve",
             "seventy-five", "2024", "$1,950", "12.99", "k", "thousand", "rent", "is", "not", "from", "to", "instead",
             "of", "Dr.", "Okafor", "retired", "closed", "but", "so", "and", "then", "Carlos", "1st", "31", "o'clock",
             "twentyish", "teen", "nineteen", "8", "a.m.", "v2", "x9", "ninety"]
    seps = [" ", " ", " ", ", ", ". ", "; ", "! ", "? ", "\n", " - ", " — ", ":", ".", "/", "", "(", ")", "'"]
    texts = ["Moving day is 14 March.", "It moved to March 30, 2024 - not the 14th", "we pay $1,950 from now on",
             "Dinner at 8pm, not 7:30.", "Two kids, twenty-two cats", "Maybe the market decides in Sept.",
             "Nothing here at all", "I ran twentyish miles", "Mar.14 is out", "the 3rd of may"]
    for _ in range(4000):
        texts.append("".join(rng.choice(words) + rng.choice(seps) for _ in range(rng.randint(1, 14))))
    gated = {"date": 0, "time": 0, "num": 0}
    for text in texts:
        for kind in gated:
            if not currency.may_hold(kind, text):
                gated[kind] += 1
                for piece in _pieces_read(text):
                    assert not any(v.startswith(kind) for v in currency.values_in(piece)), (kind, text, piece)
                    # _dates itself looks for a month first: the date patterns find nothing either
                    assert kind != "date" or not any(p.search(piece) for p in currency._DATES), (text, piece)
    assert min(gated.values()) > 100, gated  # the gate does say no, often


def test_the_month_and_gone_tests_agree_with_their_regexes() -> None:
    """`names_month` says what `_MONTH_WORD.search` says, and `may_say_gone` is never False where `_GONE` matches
    (they replace those regexes' first, costly scan of every text currency reads)."""
    rng = random.Random(5)
    words = ["March", "mar", "MAY", "may", "Mayday", "Jan2", "jan_", "décembre", "Sept.", "june", "İs", "out", "off",
             "Dr.", "Okafor", "retired", "closed", "down", "shut", "moved", "to", "away", "left", "quit", "sold",
             "cancelled", "canceled", "couldn't", "couldn’t", "could", "not", "can't", "can’t", "double-booked",
             "fell", "through", "ran", "running", "kept", "stopped", "went", "bust", "under", "is", "are", "was",
             "were", "full", "booked", "up", "dropped", "pulled", "has", "just", "the", "clinic", "Paws", "Café",
             "but", "so", "and", "retiredness", "outdoors", "offer", "2", "14th", "cannot"]
    seps = [" ", " ", " ", ", ", ". ", "; ", "! ", "\n", ":", "", "-", "'", "é"]
    texts = ["Paws Clinic closed down.", "Mateo moved to Spain", "The Copper Pot couldn't seat twelve",
             "The venue is booked up", "Tickets are out", "The gig is off, but so what", "Jan2 and jan_ are no months",
             "İS OUT", "Café Lune went under in Mai"]
    for _ in range(6000):
        texts.append("".join(rng.choice(words) + rng.choice(seps) for _ in range(rng.randint(1, 16))))
    gone = 0
    for text in texts:
        assert currency.names_month(text) == (currency._MONTH_WORD.search(text) is not None), text
        if currency._GONE.search(text) is not None:
            gone += 1
            assert currency.may_say_gone(text), text
    assert gone > 300 and sum(not currency.may_say_gone(t) for t in texts) > 300  # both sides are exercised


def test_a_later_turn_that_cannot_hold_the_value_asked_is_not_read(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Currency follows the best answers forward; of the later turns about the same thing, only those that can
    hold a value of the kind asked (`may_hold`) are read — the others could supersede nothing."""
    from episodic_memory.retrieve import currency_pass

    turns = ["The kayak trip is on 14 March.", "Photos of the kayak planning meeting are up.",
             "Who packs the kayak snacks?", "The kayak trip moved to 21 March.", "Kayak paddles: rented."]
    read: list[list[str]] = []
    real_scores = currency_pass.currency_scores

    def recording(items: Any, query: str, *a: Any, **kw: Any) -> Any:
        read.append([item.text for item in items])
        return real_scores(items, query, *a, **kw)

    monkeypatch.setattr(currency_pass, "currency_scores", recording)
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"}, capture={"consolidate_every": 10**9}, currency={"pool": 2})) as mem:
        for day, text in enumerate(turns):
            mem.add_turn("user", text, session_id=f"s{day}", timestamp=1_700_000_000 + day * 86_400)
        hits = mem.recall("When is the kayak trip on?", k=3, now=1_700_000_000 + 40 * 86_400)
    assert hits[0].text == "The kayak trip moved to 21 March."
    assert read and "The kayak trip moved to 21 March." in read[-1]
    dateless = {t for t in turns if not currency.may_hold("date", t)}
    assert len(dateless) == 3
    head = read[-1][:2]  # the best currency_pool candidates are read whatever they hold
    assert not dateless & set(read[-1][2:]), (head, read[-1])


def test_the_currency_gate_leaves_every_recall_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Recall with the gate gives what recall reading every text gives, and the gate does skip some questions'
    currency (and, for a date, time or number asked, currency still supersedes where a value is)."""
    from episodic_memory.retrieve import currency_pass

    turns = ["The kayak trip is on 14 March.", "Actually the kayak trip moved to 21 March.", "We rent the kayak for "
             "forty dollars.", "The kayak rental is now $55.", "The kayak club meets at 7pm.", "Kayak club meets at "
             "8:30pm now.", "I love the kayak club people.", "The kayak is red and fast.", "Nina joined the kayak club.",
             "We painted the kayak blue instead.", "The garden shed smells of pine.", "The garden shed roof leaks.",
             "Two garden shed doors are stuck."]
    questions = ["When is the kayak trip?", "How much is the kayak rental?", "What time does the kayak club meet?",
                 "When did Nina join the kayak club?", "What colour is the kayak?", "Who joined the kayak club?",
                 "How many kayak club people?", "When did the garden shed start to smell?",
                 "What time does the garden shed roof leak?", "How old is the garden shed roof?"]
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"}, capture={"consolidate_every": 10**9})) as mem:
        for day, text in enumerate(turns):
            mem.add_turn("user", text, session_id=f"s{day}", timestamp=1_700_000_000 + day * 86_400)
        now = 1_700_000_000 + 40 * 86_400
        scored: list[str] = []
        real_scores = currency_pass.currency_scores

        def counting(items: Any, query: str, *a: Any, **kw: Any) -> Any:
            scored.append(query)
            return real_scores(items, query, *a, **kw)

        monkeypatch.setattr(currency_pass, "currency_scores", counting)

        def recall_all() -> list[list[tuple[str, float, Any]]]:
            return [[(h.id, round(h.score, 9), h.details.get("superseded")) for h in mem.recall(q, k=6, now=now)]
                    for q in questions]

        gated = recall_all()
        scored_gated = list(scored)
        scored.clear()
        monkeypatch.setattr(currency_pass, "may_hold", lambda kind, text: True)
        assert recall_all() == gated
        assert len(scored_gated) < len(scored)  # some questions' currency was skipped
        assert any(h[2] for hits in gated for h in hits)  # and where a value is, it still supersedes


def test_derived_memories_ranked_on_rowids_alone_as_with_the_filters(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """BM25 over derived memories reads no column when every one is the user's (the kinds asked kept by their
    rowid codes): the same rows, in the same order (ties too), with the same scores as the filtered ranking; a
    second user's memory takes the filtered ranking."""
    from episodic_memory.retrieve.kinds import KIND_CODES, KINDS
    from episodic_memory.store.sqlite import turns as sql_turns

    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"}, capture={"consolidate_every": 10**9})) as mem:
        for i in range(40):  # repeated texts: ties in BM25
            mem.add_fact(f"The canoe trip {['is green', 'leaks', 'went to the lake'][i % 3]} on day {i % 4}.")
        for s in range(6):
            mem.add_turns([{"role": "user", "content": f"we took the canoe to the lake, trip {s} of {t}",
                            "session_id": f"s{s}"} for t in range(4)])
            mem.end_session(f"s{s}", wait=True)
        store = mem.store
        counts = {kind: n for (kind, n) in store._query("SELECT kind, count(*) FROM memory_fts GROUP BY kind")}
        assert counts.get("fact", 0) >= 12 and counts.get("episode", 0) >= 1
        for rowid, kind, item_id in store._query("SELECT rowid, kind, item_id FROM memory_fts"):
            assert rowid == item_id * 8 + KIND_CODES[kind] and sql_turns._MEMORY_CODES[rowid % 8] == kind
        matches = ['"canoe"', '"lake" OR "green"', '"trip" OR "day" OR "leaks"', '"nothing"']
        assert store._only_user_memories("default")
        subsets = [list(KINDS), ["fact"], ["episode"], ["fact", "episode"]]
        fast = {(m, n, tuple(k)): store.search_memories(m, "default", limit=n, kinds=k) for m in matches
                for n in (1, 5, 300) for k in subsets}
        monkeypatch.setattr(type(store), "_only_user_memories", lambda self, user_id: False)
        for (m, n, k), rows in fast.items():
            assert rows == store.search_memories(m, "default", limit=n, kinds=list(k)), (m, n, k)
        assert any(len(rows) > 5 for (_, _, k), rows in fast.items() if k == ("fact",))
        assert any(rows for (_, _, k), rows in fast.items() if k == ("episode",))
        monkeypatch.undo()
        assert all(k == "fact" for k, _, _ in store.search_memories('"canoe"', "default", limit=50, kinds=["fact"]))
        mem.add_fact("The canoe of bob is red.", user_id="bob")
        assert not store._only_user_memories("default")
        assert [r[:2] for r in store.search_memories('"canoe"', "default", limit=300)] == [
            r[:2] for r in fast[('"canoe"', 300, tuple(KINDS))]]


def _names_word_by_word(text: str) -> frozenset[str]:
    """names_in as it was written before (token by token), the reference for the regex version."""
    text = currency.plain(text)
    out: set[str] = set()
    run: list[str] = []
    run_initial = False
    run_end = 0

    def flush() -> None:
        nonlocal run, run_initial
        first = True
        while run and (currency._not_name(run[0]) or (first and run_initial and len(run) == 1
                                                       and not currency._names_a_doer(text, run_end))):
            run = run[1:]
            first = False
        if run:
            out.add(" ".join(currency._unpossessive(w.lower()) for w in run if not currency._not_name(w)))
        run = []

    last_end = 0
    for m in currency._TOKEN.finditer(text):
        token = m.group()
        gap_start, last_end = last_end, m.end()
        if not token[0].isalpha():
            if run:
                flush()
            continue
        if "A" <= token[0] <= "Z" and token != "I":
            if not run:
                run_initial = currency._opens_sentence(text, m.start()) or m.start() == 0
            elif text[gap_start:m.start()].strip():
                flush()
                run_initial = False
            run.append(token)
            run_end = m.end()
        elif run:
            flush()
    if run:
        flush()
    return frozenset(out)


def test_names_found_by_runs_are_the_names_found_word_by_word() -> None:
    texts = ["Hey Mel, Carlos is coaching me at Pier Nine Hall.", "I think I Bob went", "o'Brien and O'Brien met",
             "x''Bob Smith", "''Bob Smith", "Bob's Café Royal", "Émile Zola", "Bob\u00a0Smith\u2003Jones", "I'm Tom",
             "Dr. Okafor retired. Last Friday Jamal left", "ANN AND BOB", "the iPhone X", "Bob-Smith", "Bob2 Smith"]
    rng = random.Random(5)
    pieces = ["Bob", "Smith", "I", "I'm", "o'", "O'", "'", "’", "x", "Tom", "Ann", "é", "É", "the", "is", "runs",
              "Last", "Friday", "Hey", "Mr", ".", ",", ":", "2", "\n", "\u00a0", "\x1c", "-", "Dr.", "A", "Zo"]
    seps = [" ", "", "  ", "\t", ". ", ": "]
    texts += ["".join(rng.choice(pieces) + rng.choice(seps) for _ in range(rng.randint(1, 12))) for _ in range(30_000)]
    for text in texts:
        assert currency.names_in(text) == _names_word_by_word(text), text


@pytest.mark.parametrize("lookup", ["facts_by_id", "workstream_names", "judgments_by_id", "episodes", "loops"])
def test_lookups_by_id_go_by_rowid_not_by_the_users_rows(tmp_path: Path, lookup: str) -> None:
    """Rows asked for by id are found by their rowid. With `user_id = ?` beside the id list SQLite chose the
    user's index and read every row of the user: at 1M real turns (178k facts) `facts_by_id` took 96 ms a call,
    30 ms of every recall; by rowid 0.6 ms (docs/retrieval.md)."""
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as mem:
        store = mem.store
        statements: list[str] = []
        store.db.set_trace_callback(statements.append)
        try:
            ids = list(range(1, 41))  # a recall asks for tens
            if lookup in ("episodes", "loops"):
                getattr(store, lookup)(mem.user_id, ids=ids)
            else:
                getattr(store, lookup)(mem.user_id, ids)
        finally:
            store.db.set_trace_callback(None)
        [sql] = [s for s in statements if " IN (" in s and s.lstrip().upper().startswith("SELECT")][:1]
        plan = " ".join(str(row[3]) for row in store.db.execute("EXPLAIN QUERY PLAN " + sql).fetchall())
        assert "INTEGER PRIMARY KEY" in plan, plan


def test_one_text_said_many_times_is_one_hit_with_every_turn_behind_it(tmp_path: Path) -> None:
    """A store holding one text many times (a template, a greeting, copies): the duplicates join the first hit,
    each source once."""
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"}, capture={"consolidate_every": 10**9})) as mem:
        turns = [{"role": "user", "content": "The launch moved to Friday.", "session_id": f"s{i}",
                  "timestamp": 1_700_000_000 + i} for i in range(120)]
        turns += [{"role": "user", "content": f"Lunch is at noon, table {i}.", "session_id": "other",
                   "timestamp": 1_700_000_500 + i} for i in range(20)]
        mem.add_turns(turns)
        hits = mem.recall("has the launch moved to Friday?", k=5)  # found: the copies alone
        dups = {str(i) for i, (text,) in enumerate(mem.store.db.execute("SELECT content FROM turns ORDER BY id"), 1)
                if text == "The launch moved to Friday."}
    assert [h.text for h in hits] == ["The launch moved to Friday."]
    assert set(hits[0].source_ids) == dups and len(dups) == 120
    assert len(set(hits[0].source_ids)) == len(hits[0].source_ids)


def test_source_sets_follow_a_list_replaced_or_changed_elsewhere() -> None:
    from episodic_memory.retrieve.hit import Hit
    from episodic_memory.retrieve.retriever import _SourceSets

    hit = Hit(id="turn:1", kind="turn", text="x", score=1.0, timestamp=None, session_id=None, source_ids=["a"])
    sets = _SourceSets()
    sets.add(hit, ["b", "a", "b"])
    assert hit.source_ids == ["a", "b"]
    hit.source_ids.append("c")  # changed elsewhere
    sets.add(hit, ["c", "d"])
    assert hit.source_ids == ["a", "b", "c", "d"]
    hit.source_ids = ["z"]  # replaced elsewhere
    sets.add(hit, ["a", "z"])
    assert hit.source_ids == ["z", "a"]
