"""Shared runner for the retrieval benchmarks: systems, evaluation loop, table and JSON output."""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from bench.baselines import BigramBM25sBaseline, BM25sBaseline, DenseBaseline, RetrievedHit, Retriever
from bench.datasets import Conversation, Question
from bench.metrics import QuestionResult, aggregate, score_question

ROOT = Path(__file__).resolve().parents[1]
# episodic-keyword / episodic-dense: the library's own legs alone (Config.retrieval.recall_legs), same store and
# consolidation: the fused result is never to fall below either (`best_leg_check`, issue 43)
LEG_SYSTEMS = ("episodic-keyword", "episodic-dense")
SYSTEMS = ("episodic", "episodic-turns", "bm25s", "dense", *LEG_SYSTEMS)
OPTIONAL_SYSTEMS = ("bm25s-bigrams",)  # run only when asked for (bench/cjk.py asks)
NOW_MODES = ("wall", "last-session")


def import_episodic() -> Any:
    """`import episodic_memory`, falling back to the repo's src/ when the package is not installed."""
    try:
        import episodic_memory
    except ImportError:
        sys.path.insert(0, str(ROOT / "src"))
        import episodic_memory
    return episodic_memory


class EpisodicSystem:
    """The library under test: a fresh `Memory` per conversation, fed through the public API only."""

    name = "episodic"

    def __init__(self, kind: str | None = None, now: str = "wall", legs: str = "hybrid") -> None:
        """`kind="turn"` recalls raw turns only: the same store without facts, to show what facts add. `legs`:
        Config.retrieval.recall_legs ("keyword", "dense": one leg alone).

        `now`: what recall is told the time is. "wall": nothing (the wall clock, the library's default);
        "last-session": a minute after the conversation's last turn, when its questions are asked."""
        if now not in NOW_MODES:
            raise ValueError(f"now must be one of {NOW_MODES}, got {now!r}")
        self.kind = kind
        self.legs = legs
        if legs != "hybrid":
            self.name = f"episodic-{legs}"
        self.now_mode = now
        self._now: datetime | None = None
        self._memory_cls = import_episodic().Memory
        self._tmp: Path | None = None
        self._mem: Any = None

    def index(self, conv: Conversation) -> None:
        self.close()
        self._tmp = Path(tempfile.mkdtemp(prefix=f"bench-{conv.conv_id}-"))
        episodic = import_episodic()
        config = episodic.Config.from_env({} if self.legs == "hybrid" else {"retrieval.recall_legs": self.legs})
        longest = max((len(t.text) for t in conv.turns()), default=0)
        if longest > config.capture.max_turn_chars:  # the data holds a turn the door refuses by default (BEAM: 349k
            config = config.replace({"capture.max_turn_chars": longest})  # characters): take it, as a user would
        self._mem = self._memory_cls(self._tmp / "mem.db", config=config)
        for session in conv.sessions:
            for turn in session.turns:
                self._mem.add_turn(
                    turn.role,
                    turn.text,
                    session_id=session.session_id,
                    speaker=turn.speaker if conv.named_speakers else None,
                    timestamp=turn.timestamp,
                    turn_id=turn.turn_id,
                )
            self._mem.end_session(session.session_id)
        last = max((t.timestamp for t in conv.turns()), default=None)
        self._now = last + timedelta(minutes=1) if last is not None and self.now_mode == "last-session" else None

    def search(self, query: str, k: int) -> list[RetrievedHit]:
        extra = {} if self._now is None else {"now": self._now}  # (a tree from before `now` runs too)
        hits = self._mem.recall(query, k=k, kind=self.kind, **extra)
        return [
            RetrievedHit([str(s) for s in h.source_ids], h.text, float(h.score), str(h.kind)) for h in hits
        ]

    def close(self) -> None:
        if self._mem is not None:
            self._mem.close()
            self._mem = None
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None


def make_system(name: str, now: str = "wall") -> Retriever:
    """`now` applies to episodic's systems (the baselines have no notion of time)."""
    if name == "episodic":
        return EpisodicSystem(now=now)
    if name == "episodic-turns":
        return EpisodicSystem(kind="turn", now=now)
    if name in LEG_SYSTEMS:
        return EpisodicSystem(now=now, legs=name.removeprefix("episodic-"))
    if name == "bm25s":
        return BM25sBaseline()
    if name == "dense":
        return DenseBaseline()
    if name == "bm25s-bigrams":
        return BigramBM25sBaseline()
    raise ValueError(f"unknown system {name!r}; choose from {SYSTEMS}")


def best_leg_check(summaries: dict[str, dict[str, Any]], ks: Sequence[int], tolerance: float = 0.0
                   ) -> dict[str, dict[str, Any]]:
    """For each R@k and MRR: the fused system's figure beside the better of its two legs alone (empty unless the
    run has all three). `ok`: fused ≥ best leg − `tolerance`."""
    if not all(name in summaries and "overall" in summaries[name] for name in ("episodic", *LEG_SYSTEMS)):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for metric in [*(f"R@{k}" for k in ks), "MRR"]:
        fused = summaries["episodic"]["overall"].get(metric)
        legs = {name: summaries[name]["overall"].get(metric) for name in LEG_SYSTEMS}
        if fused is None or None in legs.values():
            continue
        best = max(legs, key=lambda name: legs[name])
        out[metric] = {"fused": fused, "best_leg": legs[best], "leg": best, "ok": fused >= legs[best] - tolerance}
    return out


def select_questions(
    conversations: list[Conversation], limit_conversations: int | None, limit_questions: int | None
) -> list[tuple[Conversation, list[Question]]]:
    """The question set shared by every system: conversations in order, first N questions overall."""
    selection: list[tuple[Conversation, list[Question]]] = []
    budget = limit_questions if limit_questions is not None else sum(len(c.questions) for c in conversations)
    for conv in conversations[:limit_conversations]:
        if budget <= 0:
            break
        questions = conv.questions[:budget]
        budget -= len(questions)
        if questions:
            selection.append((conv, questions))
    return selection


@dataclass
class SystemRun:
    name: str
    results: list[QuestionResult] = field(default_factory=list)
    ingest_seconds: float = 0.0
    hit_kinds: Counter[str] = field(default_factory=Counter)
    error: str | None = None


def run_system(
    name: str, selection: list[tuple[Conversation, list[Question]]], ks: Sequence[int],
    system: Retriever | None = None, now: str = "wall",
) -> SystemRun:
    """Index each conversation and ask its questions; `system` given, it is used under `name`."""
    run = SystemRun(name)
    try:
        system = system or make_system(name, now)
    except Exception as exc:  # noqa: BLE001 - a missing optional system is reported, not fatal
        run.error = f"unavailable: {type(exc).__name__}: {exc}"
        print(f"[{name}] {run.error}", file=sys.stderr)
        return run
    max_k = max(ks)
    try:
        for conv, questions in selection:
            start = time.perf_counter()
            system.index(conv)
            run.ingest_seconds += time.perf_counter() - start
            for q in questions:
                start = time.perf_counter()
                hits = system.search(q.question, max_k)
                latency_ms = (time.perf_counter() - start) * 1000
                run.hit_kinds.update(h.kind for h in hits)
                ranked = [h.source_ids for h in hits[:max_k]]
                run.results.append(score_question(q.qid, q.category, ranked, q.evidence, ks, latency_ms))
            print(
                f"[{name}] {conv.conv_id}: {len(questions)} questions, ingest+index "
                f"{run.ingest_seconds:.1f}s so far",
                file=sys.stderr,
            )
    except Exception as exc:  # noqa: BLE001 - report and keep the other systems' numbers
        run.error = f"failed: {type(exc).__name__}: {exc}"
        traceback.print_exc()
    finally:
        system.close()
    return run


def summarise(run: SystemRun, ks: Sequence[int]) -> dict[str, Any]:
    out: dict[str, Any] = aggregate(run.results, ks)
    out["ingest_seconds"] = round(run.ingest_seconds, 3)
    out["hit_kinds"] = dict(run.hit_kinds)
    if run.error:
        out["error"] = run.error
    return out


def fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def short_label(category: str) -> str:
    """Long category names become initials (BEAM's `multi_session_reasoning` -> `MSR`)."""
    if len(category) <= 12:
        return category
    words = category.split("_")
    return "".join(w[0] for w in words).upper() if len(words) > 1 else category[:3].upper()


def table_rows(summaries: dict[str, dict[str, Any]], ks: Sequence[int]) -> tuple[list[str], list[list[str]]]:
    k_cat = 10 if 10 in ks else max(ks)
    categories = sorted(categories_of(summaries))
    header = [
        "system",
        *[f"R@{k}" for k in ks],
        "MRR",
        "NDCG@10",
        "n",
        *[f"{short_label(c)} R@{k_cat}" for c in categories],
        "ingest s",
        "median ms",
    ]
    rows = []
    for name, s in summaries.items():
        o = s.get("overall", {})
        per = s.get("per_category", {})
        rows.append(
            [
                name + (" (error)" if s.get("error") else ""),
                *[fmt(o.get(f"R@{k}")) for k in ks],
                fmt(o.get("MRR")),
                fmt(o.get("NDCG@10")),
                fmt(o.get("n")),
                *[fmt(per.get(c, {}).get(f"R@{k_cat}")) for c in categories],
                fmt(s.get("ingest_seconds"), 1),
                fmt(s.get("median_recall_ms"), 1),
            ]
        )
    return header, rows


def categories_of(summaries: dict[str, dict[str, Any]]) -> set[str]:
    return {c for s in summaries.values() for c in s.get("per_category", {})}


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(title)
        print(markdown_table(header, rows))
        return
    table = Table(title=title)
    for i, h in enumerate(header):
        table.add_column(h, justify="left" if i == 0 else "right")
    for r in rows:
        table.add_row(*r)
    Console(width=max(120, sum(len(h) + 3 for h in header))).print(table)


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=10, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def git_commit() -> str | None:
    return _git("rev-parse", "HEAD") or None


def git_dirty() -> bool | None:
    """True when tracked files differ from the commit (the numbers are then not exactly that commit's)."""
    status = _git("status", "--porcelain", "--untracked-files=no", "--", "src", "bench")
    return None if status is None else bool(status)


def _package_version(name: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def build_parser(dataset: str, default_data: Path, default_out: Path) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=f"Evidence-retrieval benchmark on {dataset}.")
    p.add_argument(
        "--data", type=Path, default=default_data, help=f"{dataset} data path (default: %(default)s)"
    )
    p.add_argument("--k", type=int, nargs="+", default=[5, 10, 25], help="recall cut-offs (default: 5 10 25)")
    p.add_argument("--systems", nargs="+", choices=SYSTEMS + OPTIONAL_SYSTEMS, default=list(SYSTEMS))
    p.add_argument("--limit-conversations", type=int, default=None, metavar="N")
    p.add_argument("--limit-questions", type=int, default=None, metavar="N", help="first N questions overall")
    p.add_argument("--quick", action="store_true", help="smoke run: 1 conversation, 50 questions")
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"results JSON (default: {default_out.relative_to(ROOT)}, or *-quick.json with --quick)",
    )
    p.add_argument("--per-question", action="store_true", help="also store every question's hits in the JSON")
    p.add_argument("--now", choices=NOW_MODES, default="wall",
                   help="the time episodic's recall is told: the wall clock (default), or just after each "
                        "conversation's last session (when its questions are asked)")
    p.set_defaults(default_out=default_out)
    return p


def main(
    dataset: str,
    loader: Callable[[Path], list[Conversation]],
    default_data: Path,
    default_out: Path,
    argv: Sequence[str] | None = None,
) -> int:
    args = build_parser(dataset, default_data, default_out).parse_args(argv)
    if args.quick:
        args.limit_conversations = args.limit_conversations or 1
        args.limit_questions = args.limit_questions or 50
    out: Path = args.out or (
        default_out.with_name(default_out.stem + "-quick.json") if args.quick else default_out
    )
    ks = sorted(set(args.k))
    data_path = args.data.resolve()
    conversations = loader(data_path)
    notes: Counter[str] = Counter()
    for conv in conversations:
        notes.update(conv.notes)
    selection = select_questions(conversations, args.limit_conversations, args.limit_questions)
    n_questions = sum(len(qs) for _, qs in selection)
    print(
        f"[{dataset}] evaluating {n_questions} questions from {len(selection)} conversations "
        f"with {', '.join(args.systems)}",
        file=sys.stderr,
    )

    commit, dirty = git_commit(), git_dirty()  # before the run: the library may change under a long one
    runs = [run_system(name, selection, ks, now=args.now) for name in args.systems]
    summaries = {run.name: summarise(run, ks) for run in runs}
    header, rows = table_rows(summaries, ks)
    title = f"{dataset}: evidence retrieval ({n_questions} questions, {len(selection)} conversations)"
    print_table(title, header, rows)

    legs_check = best_leg_check(summaries, ks)
    if legs_check:
        print("fused vs its best leg alone: " + ", ".join(
            f"{m} {c['fused']:.3f} vs {c['best_leg']:.3f} ({'ok' if c['ok'] else 'BELOW'})" for m, c in legs_check.items()))
    payload: dict[str, Any] = {
        "meta": {
            "dataset": dataset,
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "git_commit": commit,
            "git_dirty": dirty,
            "data_path": str(data_path),
            "ks": ks,
            "systems": args.systems,
            "conversations": [c.conv_id for c, _ in selection],
            "n_questions": n_questions,
            "now": args.now,
            "limit_conversations": args.limit_conversations,
            "limit_questions": args.limit_questions,
            "evidence_normalisation": {k: v for k, v in sorted(notes.items())},
            "python": platform.python_version(),
            "versions": {p: _package_version(p) for p in ("episodic-memory-layer", "bm25s", "numpy")},
        },
        "results": summaries,
        "fused_vs_best_leg": legs_check,
    }
    if args.per_question:
        payload["questions"] = {run.name: [asdict(r) for r in run.results] for run in runs}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
    legend = ", ".join(
        f"{short_label(c)} = {c}" for c in sorted(categories_of(summaries)) if short_label(c) != c
    )
    md = f"**{title}**\n\n{markdown_table(header, rows)}\n" + (f"\n{legend}\n" if legend else "")
    out.with_suffix(".md").write_text(md, encoding="utf-8")
    if legend:
        print(legend)
    print(f"wrote {out} and {out.with_suffix('.md').name}", file=sys.stderr)
    return 1 if any(run.error for run in runs) else 0
