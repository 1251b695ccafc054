"""Exact lookups: do identifiers, codes and quoted phrases come back first among near-duplicate turns?

    python bench/exact.py [--turns 10000] [--per-style 1000] [--phrases 300] [--seed 23] [--out PATH]

One store (public API only: `Memory`, default `Config`, no LLM) of `--turns` near-identical turns ("note about the
launch plan: … is still open"), each carrying one identifier of one of ten styles — bare unique tokens, tickets
(`ZQ-6614`, `PROJ-88`), issues (`#1234`), versions (`v2.3.1`), hashes (`a1b2c3d4e5f6`), emails, URLs with paths,
file paths, money (`€48,350`), dates (`2026-03-14`) — `--per-style` of each. Identifiers of a style share their
parts (prefixes, domains, folders, thousands, years, neighbouring numbers), so only the distinctive part tells them
apart; the generator checks that each identifier's whole form and distinctive part occur in exactly one turn.
Sessions of 20 turns, each ended (consolidated: facts, episodes, workstreams) before the next.

Each identifier is queried three ways: whole as written, by its distinctive part (`6614`, `2.3.1`, the 7-character
prefix of a hash, an email's local part, a URL's last path segment, a file name, the amount without its currency;
none for bare tokens and dates), and whole inside a natural question ("what was the status of ZQ-6614?"). A query
scores when the first hit's `source_ids` include the identifier's turn (a fact or episode distilled from it counts).
Quoted phrases: two-word phrases written once or twice among turns that hold both words apart; `"w1 w2"` alone and
inside a question score when the first hit's text contains the phrase.

Both recall modes run on the same store in the same run: `exact_lookup` off (the recall this issue started from)
and on. Table printed; JSON (and a markdown table) written to bench/results/exact.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: import `bench.*` from the repo root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.harness import (  # noqa: E402
    ROOT,
    _package_version,
    git_commit,
    git_dirty,
    import_episodic,
    markdown_table,
    print_table,
)

STYLES = ("bare", "ticket", "issue", "version", "hash", "email", "url", "path", "money", "date")
TEMPLATES = (
    "note about the launch plan: {x} is still open",
    "status update on the launch plan, {x} needs a review",
    "the launch plan mentions {x} again",
    "checked {x} for the launch plan today",
)
QUESTIONS = {
    "bare": "what did I say about {x}?",
    "ticket": "what was the status of {x}?",
    "issue": "is issue {x} fixed yet?",
    "version": "what changed in {x}?",
    "hash": "which change was commit {x}?",
    "email": "when did I write to {x}?",
    "url": "where did we link {x}?",
    "path": "what did we change in {x}?",
    "money": "what was the {x} for?",
    "date": "what happened on {x}?",
}
PHRASE_WORDS = """amber harbor copper lantern meadow silver orchard falcon granite willow cobalt ember canyon
    juniper marble quartz saffron tundra velvet zephyr basalt cedar delta glacier indigo jasper kestrel lagoon
    mosaic nimbus""".split()
_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
_TOKEN = re.compile(r"[^\W_]+")  # FTS5 unicode61's tokens: letters and digits; everything else separates
_PIECE = re.compile(r"[^\W\d_]+|\d+")  # finer: runs of letters or of digits ("v2" is "v", "2")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def pieces(text: str) -> list[str]:
    return _PIECE.findall(text.lower())


@dataclass
class Ident:
    style: str
    whole: str
    part: str | None
    turn: int = -1  # index of its turn


@dataclass
class Corpus:
    texts: list[str]
    idents: list[Ident]
    phrases: list[tuple[str, list[int]]]  # phrase, turns holding it
    rejected: Counter[str] = field(default_factory=Counter)


def _generators(rng: random.Random) -> dict[str, Callable[[], tuple[str, str | None]]]:
    prefixes = ["ZQ", "PROJ", "OPS", "ENG", "INFRA"]
    hosts = ["docs.acme.io", "wiki.acme.io", "acme.atlassian.net"]
    sections = ["runbooks", "design", "specs", "postmortems"]
    slugs = ["rollback", "deploy", "billing", "auth", "search", "migration"]
    packages = ["app", "billing", "auth", "core", "api"]
    modules = ["main", "invoice", "session", "handler", "models", "views"]
    first = ["maria", "john", "li", "amara", "noah", "sofia"]
    last = ["okafor", "smith", "chen", "garcia", "novak", "ito"]
    domains = ["example.com", "acme-corp.com", "mail.acme.io"]

    def bare() -> tuple[str, str | None]:
        if rng.random() < 0.5:  # like the issue's "zq6q14z": pieces shared with many others
            return (f"zq{rng.randint(1, 20)}q{rng.randint(1, 60)}z", None)
        return ("".join(rng.choice(_SYLLABLES) for _ in range(3)) + rng.choice("nrstlk"), None)  # a made-up name

    def ticket() -> tuple[str, str | None]:
        n = str(rng.choice([rng.randint(10, 99), rng.randint(100, 9999), rng.randint(10000, 99999)]))
        return f"{rng.choice(prefixes)}-{n}", n

    def issue() -> tuple[str, str | None]:
        n = str(rng.randint(100, 99999))
        return f"#{n}", n

    def version() -> tuple[str, str | None]:
        v = f"{rng.randint(0, 12)}.{rng.randint(0, 30)}.{rng.randint(0, 40)}"
        return f"v{v}", v

    def hash_() -> tuple[str, str | None]:
        h = "".join(rng.choice("0123456789abcdef") for _ in range(12))
        return h, h[:7]

    def email() -> tuple[str, str | None]:
        local = f"{rng.choice(first)}.{rng.choice(last)}{rng.randint(1, 999)}"
        return f"{local}@{rng.choice(domains)}", local

    def url() -> tuple[str, str | None]:
        slug = f"{rng.choice(slugs)}-{rng.randint(1, 9999)}"
        return f"https://{rng.choice(hosts)}/{rng.choice(sections)}/{slug}", slug

    def path() -> tuple[str, str | None]:
        name = f"{rng.choice(modules)}_{rng.randint(1, 9999)}.py"
        return f"src/{rng.choice(packages)}/{name}", name

    def money() -> tuple[str, str | None]:
        amount = f"{rng.randint(1, 999)},{rng.randint(0, 999):03d}"
        return f"{rng.choice('€$£')}{amount}", amount

    def date() -> tuple[str, str | None]:
        day = datetime(2019, 1, 1) + timedelta(days=rng.randint(0, 9 * 365))
        return day.strftime("%Y-%m-%d"), None

    return {"bare": bare, "ticket": ticket, "issue": issue, "version": version, "hash": hash_, "email": email,
            "url": url, "path": path, "money": money, "date": date}


def _occurs(seq: list[str], toks: list[str]) -> bool:
    n = len(seq)
    return any(toks[i : i + n] == seq for i in range(len(toks) - n + 1))


def build_corpus(turns: int, per_style: int, n_phrases: int, seed: int) -> Corpus:
    """`turns` near-duplicate turns with `per_style` identifiers of each style (one per turn, the rest without)."""
    rng = random.Random(seed)
    gens = _generators(rng)
    if per_style * len(STYLES) > turns:
        raise SystemExit(f"--per-style {per_style} × {len(STYLES)} styles needs at least that many --turns")
    idents: list[Ident] = []
    seen: set[str] = set()
    rejected: Counter[str] = Counter()
    for style in STYLES:
        made = 0
        while made < per_style:
            whole, part = gens[style]()
            keys = {" ".join(pieces(whole))} | ({" ".join(pieces(part))} if part else set())
            if keys & seen or whole.lower() in seen:
                rejected[style] += 1
                continue
            seen.update(keys | {whole.lower()})
            idents.append(Ident(style, whole, part))
            made += 1
    slots = rng.sample(range(turns), len(idents))
    texts = [rng.choice(TEMPLATES).format(x=rng.choice(["the backlog", "the checklist", "the review"]))
             for _ in range(turns)]
    for ident, slot in zip(idents, slots, strict=True):
        ident.turn = slot
        texts[slot] = rng.choice(TEMPLATES).format(x=ident.whole)
    # quoted phrases: "w1 w2" once or twice, both words apart in a few other turns
    pairs = [(a, b) for a in PHRASE_WORDS for b in PHRASE_WORDS if a != b]
    rng.shuffle(pairs)
    phrases: list[tuple[str, list[int]]] = []
    for a, b in pairs[:n_phrases]:
        holders = rng.sample(range(turns), rng.randint(1, 2))
        for t in holders:
            texts[t] += f", with the {a} {b}"
        for t in rng.sample(range(turns), 3):
            texts[t] += rng.choice([f", {b} and {a}", f", the {a} for the {b}"])
        phrases.append((f"{a} {b}", holders))
    # every distinctive form must be in exactly its turn (a phrase appended later may not create one elsewhere),
    # checked on letter and digit runs: "2.3.1" is in "v2.3.1", a hash's prefix is in the hash
    toks = [pieces(t) for t in texts]
    index: dict[str, set[int]] = defaultdict(set)
    for i, ts in enumerate(toks):
        for t in ts:
            index[t].add(i)
    starts = Counter(m.group() for t in texts for m in re.finditer(r"(?<![0-9a-z])[0-9a-f]{7}", t.lower()))
    kept = []
    for ident in idents:
        forms = [pieces(ident.whole)] + ([pieces(ident.part)] if ident.part and ident.style != "hash" else [])
        where = [set.intersection(*(index[t] for t in f)) for f in forms]
        unique = all({i for i in w if _occurs(f, toks[i])} == {ident.turn} for f, w in zip(forms, where, strict=True))
        if ident.style == "hash" and ident.part:  # a prefix: in no other turn at the start of a word
            unique &= starts[ident.part] == 1
        if unique:
            kept.append(ident)
        else:
            rejected[ident.style + " (not unique)"] += 1
    phrases = [(p, [i for i in range(len(texts)) if _occurs(p.split(), tokens(texts[i]))]) for p, _ in phrases]
    return Corpus(texts, kept, phrases, rejected)


def ingest(mem: Any, corpus: Corpus, session_size: int = 20) -> float:
    started = time.perf_counter()
    t0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    for s in range(0, len(corpus.texts), session_size):
        sid = f"s{s // session_size:05d}"
        mem.add_turns([{"role": "user", "content": text, "session_id": sid, "turn_id": f"t{s + i}",
                        "timestamp": t0 + timedelta(minutes=10 * (s + i))}
                       for i, text in enumerate(corpus.texts[s : s + session_size])])
        mem.end_session(sid)
    mem.index()
    return time.perf_counter() - started


def _norm(text: str) -> str:
    return " ".join(tokens(text))


def evaluate(mem: Any, corpus: Corpus, k: int = 5, sample: int | None = None) -> dict[str, Any]:
    """first / top-k per style and query form, quoted phrases, and the recall latency; `sample`: only the first
    that many identifiers of each style (and phrases) are asked about."""
    firsts: dict[tuple[str, str], list[bool]] = defaultdict(list)
    tops: dict[tuple[str, str], list[bool]] = defaultdict(list)
    misses: list[dict[str, Any]] = []
    latencies: list[float] = []

    def ask(query: str) -> list[Any]:
        started = time.perf_counter()
        hits = mem.recall(query, k=k)
        latencies.append(time.perf_counter() - started)
        return hits

    asked: Counter[str] = Counter()
    for ident in corpus.idents:
        asked[ident.style] += 1
        if sample is not None and asked[ident.style] > sample:
            continue
        target = f"t{ident.turn}"
        forms = {"whole": ident.whole, "question": QUESTIONS[ident.style].format(x=ident.whole)}
        if ident.part:
            forms["part"] = ident.part
        for form, query in forms.items():
            hits = ask(query)
            ranks = [i for i, h in enumerate(hits) if target in h.source_ids]
            firsts[(ident.style, form)].append(bool(ranks) and ranks[0] == 0)
            tops[(ident.style, form)].append(bool(ranks))
            if not (ranks and ranks[0] == 0) and len(misses) < 200:
                misses.append({"query": query, "want": corpus.texts[ident.turn],
                               "got": [f"{h.kind}: {h.text[:80]}" for h in hits[:3]]})
    for phrase, _holders in corpus.phrases[:sample]:
        for form, query in (("whole", f'"{phrase}"'), ("question", f'where did we put the "{phrase}"?')):
            hits = ask(query)
            found = [phrase in _norm(h.text) for h in hits]
            firsts[("quoted phrase", form)].append(bool(found) and found[0])
            tops[("quoted phrase", form)].append(any(found))
            if not (found and found[0]) and len(misses) < 200:
                misses.append({"query": query, "got": [f"{h.kind}: {h.text[:80]}" for h in hits[:3]]})

    def ratio(values: list[bool]) -> dict[str, Any]:
        return {"value": round(sum(values) / len(values), 4) if values else None, "hits": sum(values),
                "n": len(values)}

    rows = {f"{style}/{form}": {"first": ratio(firsts[(style, form)]), f"top{k}": ratio(tops[(style, form)])}
            for style, form in firsts}
    alone = [v for (s, f), vs in firsts.items() if s == "bare" and f == "whole" for v in vs]
    whole_or_part = [v for (s, f), vs in firsts.items() if s != "quoted phrase" and f in ("whole", "part") for v in vs]
    question = [v for (s, f), vs in firsts.items() if s != "quoted phrase" and f == "question" for v in vs]
    phrase = [v for (s, _), vs in firsts.items() if s == "quoted phrase" for v in vs]
    per_style = {s: ratio([v for (st, f), vs in firsts.items() if st == s and f in ("whole", "part") for v in vs])
                 for s in STYLES}
    return {
        "rows": rows,
        "summary": {
            "unique token alone first": ratio(alone),
            "identifier whole or part first (all styles)": ratio(whole_or_part),
            "worst style, whole or part": min((kv for kv in per_style.items() if kv[1]["value"] is not None),
                                              key=lambda kv: kv[1]["value"])[0],
            "worst style first": min(v["value"] for v in per_style.values() if v["value"] is not None),
            "inside a question first": ratio(question),
            "quoted phrase: a memory containing it first": ratio(phrase),
        },
        "per_style_whole_or_part": per_style,
        "median_recall_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_recall_ms": round(sorted(latencies)[int(0.95 * (len(latencies) - 1))] * 1000, 2),
        "misses": misses,
    }


def _cell(r: dict[str, Any] | None) -> str:
    return "-" if r is None or r["value"] is None else f"{r['value']:.3f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--turns", type=int, default=10_000)
    p.add_argument("--per-style", type=int, default=1000)
    p.add_argument("--phrases", type=int, default=300)
    p.add_argument("--seed", type=int, default=23)
    p.add_argument("--sample", type=int, default=None, help="ask about the first N identifiers of each style only")
    p.add_argument("--modes", nargs="+", default=["off", "on"], choices=["off", "on"],
                   help="recall with Config.retrieval.exact_lookup off (the baseline) and/or on")
    p.add_argument("--workdir", type=Path, default=None, help="keep the store here (default: a temp dir, removed)")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "exact.json")
    args = p.parse_args(argv)

    episodic = import_episodic()
    corpus = build_corpus(args.turns, args.per_style, args.phrases, args.seed)
    print(f"[exact] {len(corpus.texts)} turns, {len(corpus.idents)} identifiers, {len(corpus.phrases)} phrases "
          f"(regenerated: {dict(corpus.rejected)})", file=sys.stderr)
    commit, dirty = git_commit(), git_dirty()
    tmp = args.workdir or Path(tempfile.mkdtemp(prefix="bench-exact-"))
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "mem.db"
    has_flag = "exact_lookup" in type(episodic.Config().retrieval).model_fields
    results: dict[str, Any] = {}
    try:
        ingest_s = None
        if not path.exists():
            with episodic.Memory(path) as mem:
                ingest_s = round(ingest(mem, corpus), 1)
                stats = mem.stats()
            print(f"[exact] ingested in {ingest_s}s: {stats}", file=sys.stderr)
        for mode in args.modes:
            if not has_flag and mode == "off":
                continue
            config = episodic.Config.from_env()
            if has_flag:
                config = config.replace({"retrieval.exact_lookup": mode == "on"})
            name = f"exact_lookup {mode}" if has_flag else "current"
            with episodic.Memory(path, config=config) as mem:
                mem.recall("warm up", k=5)
                results[name] = evaluate(mem, corpus, sample=args.sample)
            print(f"[exact] {name}: {results[name]['summary']}", file=sys.stderr)
    finally:
        if args.workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)

    names = list(results)
    header = ["query", *names]
    keys = sorted({key for r in results.values() for key in r["rows"]},
                  key=lambda key: ([*STYLES, "quoted phrase"].index(key.split("/")[0]), key))
    rows = [[key, *(_cell(results[n]["rows"].get(key, {}).get("first")) for n in names)] for key in keys]
    summary_keys = list(next(iter(results.values()))["summary"]) if results else []
    summary = [[key, *(str(results[n]["summary"][key]["value"]) if isinstance(results[n]["summary"][key], dict)
                       else str(results[n]["summary"][key]) for n in names)] for key in summary_keys]
    summary.append(["median recall ms", *(str(results[n]["median_recall_ms"]) for n in names)])
    title = (f"exact lookups: first hit ({len(corpus.texts)} turns, {len(corpus.idents)} identifiers, "
             f"{len(corpus.phrases)} phrases)")
    print_table(title, header, rows)
    print_table("summary", header, summary)
    payload = {
        "meta": {
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "git_commit": commit, "git_dirty": dirty,
            "turns": len(corpus.texts), "per_style": args.per_style, "identifiers": len(corpus.idents),
            "identifiers_by_style": dict(Counter(i.style for i in corpus.idents)), "phrases": len(corpus.phrases),
            "seed": args.seed, "sample": args.sample, "ingest_seconds": ingest_s, "regenerated": dict(corpus.rejected),
            "python": platform.python_version(),
            "versions": {n: _package_version(n) for n in ("episodic-memory-layer", "numpy")},
            "examples": {s: [i.whole for i in corpus.idents if i.style == s][:3] for s in STYLES},
        },
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
    md = f"**{title}**\n\n{markdown_table(header, rows)}\n\n**summary**\n\n{markdown_table(header, summary)}\n"
    args.out.with_suffix(".md").write_text(md, encoding="utf-8")
    print(f"wrote {args.out} and {args.out.with_suffix('.md').name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
