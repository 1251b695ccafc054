"""`episodic judge add | list | search | verify | export | forget`: judgment memory from the command line."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ._common import COUNT, db_option, dump, fail, listed, open_memory, store_command

if TYPE_CHECKING:  # `episodic` loads judgment memory (and numpy) only for a `judge` command
    from ..judgments.memory import Judgment, SearchResult

console = Console(soft_wrap=True)  # long judgments stay on one line (greppable)


def _counts(adopted: int, rejected: int, utility: float) -> str:
    verdicts = f"adopted {adopted} of {adopted + rejected}" if adopted + rejected else "unverified"
    return f"utility {utility:.2f}, {verdicts}"


def _print_result(r: SearchResult) -> None:
    console.print(f"[bold]\\[{r.distance:.2f}][/bold] {escape(r.judgment)}  "
                  f"[dim]({_counts(r.adopted, r.rejected, r.utility_score)}; {r.id})[/dim]", highlight=False)
    domain = f"  [dim]\\[{escape(r.domain)}][/dim]" if r.domain else ""
    console.print(f"       when: {escape(r.trigger)}{domain}", highlight=False)
    console.print(f"       why: {escape(r.reasoning)}", highlight=False)
    if r.correction:
        console.print(f"       [yellow]corrected: {escape(r.correction)}[/yellow]", highlight=False)


@click.group()
@db_option
def judge(db: str | None, user_id: str | None) -> None:
    """Judgments: how to act in a situation, ranked by how often acting so was adopted.

    \b
    episodic judge add -t "User asks to edit prod config" -j "Confirm first" -r "Writes caused outages"
    episodic judge list                               (every judgment, with its verdicts)
    episodic judge search "can I change the production config?" --utility
    episodic judge verify mem_1234 --adopted          (or --rejected --correction "...")
    episodic judge export --jsonl -o triples.jsonl    (fine-tuning data)
    episodic judge forget mem_1234
    """


@store_command(judge)
@click.option("-t", "--trigger", required=True, help="The situation the judgment applies to.")
@click.option("-j", "--judgment", required=True, help="How to act.")
@click.option("-r", "--reasoning", required=True, help="Why.")
@click.option("--domain", default=None, help="A label to search within (ops, finance, ...).")
@click.option("--metadata", default=None, metavar="JSON", help="A JSON object kept with the judgment.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def add(ctx: click.Context, db: str | None, user_id: str | None, trigger: str, judgment: str, reasoning: str,
        domain: str | None, metadata: str | None, as_json: bool) -> None:
    """Store a judgment; prints its id. The same trigger and judgment again merges into the first."""
    meta = None
    if metadata is not None:
        try:
            meta = json.loads(metadata)
        except json.JSONDecodeError as exc:
            raise click.BadParameter(f"not JSON: {exc}", param_hint="--metadata") from None
    judgments = open_memory(ctx, db, user_id).judgments
    before = judgments.count()
    try:
        memory_id = judgments.store(trigger, judgment, reasoning, domain=domain, metadata=meta)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    merged = judgments.count() == before
    if as_json:
        dump({"id": memory_id, "merged": merged})
    else:
        console.print(f"{'merged into' if merged else 'stored'} {memory_id}", highlight=False)


@store_command(judge)
@click.argument("query")
@click.option("-k", "top_k", default=5, show_default=True, type=COUNT,
              help="How many judgments.")
@click.option("--domain", default=None, help="Only this domain.")
@click.option("--min-score", default=0.0, show_default=True, type=float,
              help="Drop results less similar than this.")
@click.option("--utility/--no-utility", "use_utility", default=False, show_default=True,
              help="Rank by similarity × (1 + α · utility): proven judgments first.")
@click.option("--utility-weight", default=None, type=click.FloatRange(min=0), metavar="α",
              help="α (default: Config.judgments.utility_weight, 0.5).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def search(ctx: click.Context, db: str | None, user_id: str | None, query: str, top_k: int,
           domain: str | None, min_score: float, use_utility: bool, utility_weight: float | None,
           as_json: bool) -> None:
    """Judgments for situations like QUERY; [distance] first (smaller is closer)."""
    judgments = open_memory(ctx, db, user_id, existing=True).judgments
    try:
        results = judgments.search(query, top_k=top_k, domain=domain, min_score=min_score,
                                   use_utility=use_utility, utility_weight=utility_weight)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    if not listed(results, as_json, "no judgments matched", console):
        for r in results:
            _print_result(r)


@store_command(judge)
@click.argument("memory_id")
@click.option("--adopted/--rejected", "adopted", default=None, help="Was the judgment adopted or rejected?")
@click.option("--correction", default=None, help="What the user said to do instead.")
@click.option("--json", "as_json", is_flag=True, help="Print the judgment as JSON.")
def verify(ctx: click.Context, db: str | None, user_id: str | None, memory_id: str, adopted: bool | None,
           correction: str | None, as_json: bool) -> None:
    """Record whether judgment MEMORY_ID was adopted (--adopted) or rejected (--rejected)."""
    if adopted is None:
        raise click.UsageError("say --adopted or --rejected")
    judgments = open_memory(ctx, db, user_id).judgments
    try:
        j: Judgment = judgments.verify(memory_id, adopted, user_correction=correction)
    except KeyError as exc:
        fail(ctx, str(exc.args[0]))
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    if as_json:
        dump(j.to_dict())
    else:
        corrected = f"; corrected: {escape(j.correction)}" if j.correction else ""
        console.print(f"{j.id}: {'adopted' if adopted else 'rejected'}; "
                      f"{_counts(j.adopted, j.rejected, j.utility_score)}{corrected}", highlight=False)


@store_command(judge)
@click.option("--min-utility", default=0.0, show_default=True, type=float,
              help="Only judgments whose utility is strictly greater than this.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of triples.")
@click.option("--jsonl", "as_jsonl", is_flag=True,
              help="Stream JSON Lines (one triple a line), for fine-tuning.")
@click.option("-o", "--out", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="PATH",
              help="Write to PATH instead of standard output (JSON Lines unless --json).")
def export(ctx: click.Context, db: str | None, user_id: str | None, min_utility: float, as_json: bool,
           as_jsonl: bool, out: str | None) -> None:
    """Export verified judgments as (context, judgment, outcome) triples: a table, --json, or --jsonl."""
    if as_json and as_jsonl:
        raise click.UsageError("--json and --jsonl are exclusive")
    judgments = open_memory(ctx, db, user_id, existing=True).judgments
    to_file = out not in (None, "-")
    if as_json:
        dicts = [t.to_dict() for t in judgments.iter_triples(min_utility)]
        text = json.dumps(dicts, indent=2, ensure_ascii=False)
        if to_file:
            with open(out, "w", encoding="utf-8") as f:  # type: ignore[arg-type]
                f.write(text + "\n")
        else:
            click.echo(text)
        return
    if as_jsonl or out is not None:
        target = out if to_file else sys.stdout
        n = judgments.export_jsonl(target, min_utility=min_utility)  # type: ignore[arg-type]
        if to_file:
            click.echo(f"exported {n} triple(s) to {out}", err=True)
        return
    triples = judgments.export_triples(min_utility)
    if not triples:
        console.print("[dim]no verified judgments above that utility[/dim]")
        return
    table = Table("id", "context", "judgment", "outcome", "utility")
    for t in triples:
        table.add_row(t.id, escape(t.context), escape(t.judgment), escape(t.outcome), f"{t.utility:.2f}")
    console.print(table)


@store_command(judge, "list")
@click.option("--domain", default=None, help="Only this domain.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_command(ctx: click.Context, db: str | None, user_id: str | None, domain: str | None, as_json: bool) -> None:
    """Every judgment, in the order they were stored, with its verdicts and utility."""
    found = open_memory(ctx, db, user_id, existing=True).judgments.list_judgments(domain=domain)
    if listed(found, as_json, "no judgments yet", console):
        return
    for j in found:
        domain_label = f"  [dim]\\[{escape(j.domain)}][/dim]" if j.domain else ""
        console.print(f"[bold cyan]{j.id}[/bold cyan] {escape(j.judgment)}{domain_label}  "
                      f"[dim]({_counts(j.adopted, j.rejected, j.utility_score)})[/dim]", highlight=False)
        console.print(f"       when: {escape(j.trigger)}", highlight=False)
        if j.correction:
            console.print(f"       [yellow]corrected: {escape(j.correction)}[/yellow]", highlight=False)


@store_command(judge)
@click.argument("memory_ids", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def forget(ctx: click.Context, db: str | None, user_id: str | None, memory_ids: tuple[str, ...],
           as_json: bool) -> None:
    """Delete judgments MEMORY_IDS for good (verdicts, search index, vectors), then scrub the file."""
    judgments = open_memory(ctx, db, user_id).judgments
    try:
        n = judgments.delete(*memory_ids)
    except KeyError as exc:
        fail(ctx, f"{exc.args[0]}; nothing was deleted")
    if as_json:
        dump({"deleted": n, "ids": list(dict.fromkeys(memory_ids))})
    else:
        console.print(f"forgot {n} judgment(s)")
