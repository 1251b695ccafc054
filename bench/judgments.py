"""Judgment memory: does ranking by proven utility put the right judgment first? `python bench/judgments.py`.

35 scenarios written for this project (7 domains × 5). Each has a new situation (the query), the judgment that is
right for it, and a plausible look-alike for a similar situation that the user corrected. All 70 judgments go into
one store; each look-alike and right judgment gets a verification history of one of five kinds (patterns, below),
assigned by a seeded shuffle so that each pattern covers 7 scenarios. Every query is ranked against all 70
judgments by each method, and we report P@1 (the right judgment first), how often the right one is ranked above its
look-alike, and the right one's mean rank.

Patterns (days before now; counts drawn from the seed):
  clean    right adopted 3-6 times; look-alike corrected 1-3 times (all within the last 300 days)
  noisy    right adopted 2-5 times and rejected once; look-alike corrected 1-2 times and adopted once
  policy   the look-alike was the old practice: adopted 4-8 times 250-700 days ago, corrected 1-2 times in the last
           45 days; the right judgment is new: adopted 1-3 times in the last 40 days, rejected once half the time
  stale    right adopted 4-8 times 300-700 days ago and not verified since; look-alike corrected once back then and
           adopted once in the last 30 days (decay works against the right judgment here)
  cold     right never verified yet; look-alike corrected once and adopted once within the last 300 days
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

# Run as a script: import `bench.*` from the repo root (so bench/datasets.py never shadows PyPI's `datasets`).
if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import numpy as np  # noqa: E402

from bench.harness import ROOT, git_commit, git_dirty, markdown_table, print_table  # noqa: E402

DAY = 86_400.0


@dataclass(frozen=True)
class Scenario:
    domain: str
    query: str
    right: tuple[str, str, str]       # trigger, judgment, reasoning
    wrong: tuple[str, str, str]       # the look-alike the user corrected
    correction: str                   # what the user said when correcting the look-alike


S = Scenario
SCENARIOS: list[Scenario] = [
    # --- ops ------------------------------------------------------------------------------------------------
    S("ops", "Can I edit the production config file to bump the request timeout?",
      ("User asks agent to modify config.json in production",
       "Propose the production config change and wait for the user's confirmation before applying it",
       "Direct config writes have caused outages before; the agent proposes, the user executes."),
      ("User asks the agent to change a config value on the prod server",
       "Apply small production config changes directly and report them afterwards",
       "Small changes like timeouts are low risk and waiting slows the user down."),
      "Never write production config without my go-ahead, even for a timeout."),
    S("ops", "The disk on db-2 is at 95%, should I clean up old files?",
      ("Database host disk is nearly full",
       "Rotate and compress logs through logrotate and page the on-call; never delete database files or WAL segments",
       "Deleting WAL segments corrupted a replica last year; log rotation is reversible."),
      ("A server's disk is almost full",
       "Free space immediately by deleting the largest files under /var",
       "A full disk takes the service down, so speed matters most."),
      "The largest files under /var on a DB host are the data files. Rotate logs and page on-call instead."),
    S("ops", "The deploy is ready but it's Friday 5pm, should I ship it?",
      ("A deploy is ready late on a Friday",
       "Hold non-urgent deploys until Monday morning unless the change fixes an active incident",
       "Weekend staffing is thin; two Friday deploys led to weekend pages."),
      ("Deploy ready at the end of the week",
       "Ship as soon as CI is green, whatever the day",
       "Continuous delivery means green builds go out immediately."),
      "Not on Friday evenings. Wait for Monday unless it fixes an incident."),
    S("ops", "The nightly backup job failed again, can I just rerun it?",
      ("Nightly backup job failed",
       "Find out why it failed (disk, credentials, locks) before rerunning, and check that the new backup restores",
       "Blind reruns hid an expired credential for a week; an untested backup is not a backup."),
      ("Backup job failure overnight",
       "Rerun the backup job right away; failures are usually transient",
       "Most nightly failures are network blips."),
      "Find the cause first and test a restore; reruns hid the expired key last time."),
    S("ops", "Should I scale the API to 50 pods to handle this traffic spike?",
      ("Traffic spike on the API, deciding how far to scale",
       "Scale within the autoscaler's maximum and ask before raising the cap; check the database connection limit",
       "Fifty pods exhausted the Postgres connections in the March incident."),
      ("API under heavy load",
       "Scale the replicas as high as needed to absorb the spike",
       "More replicas means more capacity."),
      "Stay within the autoscaler cap; more pods exhaust the DB connections."),
    # --- code review ----------------------------------------------------------------------------------------
    S("code review", "This PR has no tests but it's a two-line change, can I approve it?",
      ("Reviewing a small PR without tests",
       "Ask for at least one test for any behaviour change, however small; approve untested changes only for docs "
       "or typos",
       "Small untested changes caused three regressions last quarter."),
      ("Tiny pull request missing tests",
       "Approve small PRs without tests to keep velocity up",
       "Asking for tests on two-line changes slows the team down."),
      "Behaviour changes need a test no matter how small."),
    S("code review", "The PR mixes a big refactor with the bug fix, what should I tell the author?",
      ("PR combines refactoring and a bug fix",
       "Ask to split it: the fix in its own PR first, the refactor after",
       "Mixed PRs hide the fix in the diff and make reverts risky."),
      ("A pull request that refactors code while fixing a bug",
       "Accept combined refactor-and-fix PRs as long as the tests pass",
       "Splitting costs the author time."),
      "Ask for a split; we reverted a mixed PR once and lost the fix with it."),
    S("code review", "Someone disabled a flaky test to get CI green, is it okay to merge?",
      ("PR skips a flaky test",
       "Allow the skip only with a linked ticket, an owner and a date to fix it",
       "Untracked skips stay skipped forever; two real bugs hid behind them."),
      ("Flaky test disabled in a pull request",
       "Disabling flaky tests is fine; they carry no signal anyway",
       "Flaky tests waste CI time."),
      "Only with a ticket and an owner."),
    S("code review", "The reviewer wants me to rename variables across 40 files in this feature PR",
      ("Review asks for a sweeping rename inside a feature PR",
       "Defer sweeping renames to a separate mechanical PR and keep the feature PR focused",
       "Large renames bury the logic change and conflict with everyone's branches."),
      ("Reviewer requests widespread renaming",
       "Make every rename the reviewer asks for in the same PR",
       "Addressing all review comments at once avoids back and forth."),
      "Renames go in a separate mechanical PR."),
    S("code review", "The PR pulls in a new package just for date parsing, should I approve?",
      ("PR introduces a new third-party dependency",
       "Check the licence, maintenance and size first, and prefer the standard library when it covers the need",
       "An abandoned GPL date library had to be ripped out last year."),
      ("New package added in a pull request",
       "Approve new dependencies when they save us writing code",
       "Reusing libraries is cheaper than writing our own."),
      "Check the licence and maintenance first; the standard library handles dates."),
    # --- data handling --------------------------------------------------------------------------------------
    S("data handling", "Can I send the customer export spreadsheet to the marketing agency?",
      ("Request to send customer data to an external party",
       "Do not share personal data externally without a signed DPA; send an anonymised or aggregated extract instead",
       "GDPR requires a processing agreement; the last export to an agency was a reportable incident."),
      ("Sharing a customer spreadsheet with a partner",
       "Share the export with partners who need it for the campaign",
       "The agency works on our behalf."),
      "No personal data leaves without a DPA. Send aggregates."),
    S("data handling", "I need production data to reproduce a bug locally, can I copy the database?",
      ("Developer wants production data on their machine",
       "Use the masked snapshot from the staging pipeline, never a raw production copy on a laptop",
       "Laptops are not secured to production standards; masked snapshots keep the shape of the data."),
      ("Copying the prod database for debugging",
       "Dump the production database locally for faster debugging",
       "Real data reproduces bugs best."),
      "Use the masked snapshot."),
    S("data handling", "A user asked us to delete all of their data, what do I do?",
      ("User requests deletion of their personal data",
       "Run the erasure workflow (main database, analytics, backup index) within 30 days and confirm to the user",
       "Erasure requests are legal obligations with a deadline; partial deletes failed an audit."),
      ("Account deletion request from a user",
       "Deactivate the account and keep the data in case they come back",
       "Users often return and want their history."),
      "Deactivating isn't erasure. Run the full erasure workflow."),
    S("data handling", "Should I log the full request body to debug the payment webhook?",
      ("Adding debug logging to a webhook that carries sensitive fields",
       "Log request ids and field names; redact card numbers, tokens and emails",
       "Logs are kept for a year and every engineer can read them."),
      ("Logging request payloads while debugging",
       "Log full payloads temporarily and remove the logging afterwards",
       "Full payloads make debugging much faster."),
      "Temporary logs stay forever. Redact."),
    S("data handling", "The analytics team wants raw event data including user emails",
      ("Analytics asks for events with personal identifiers",
       "Provide events keyed by a pseudonymous user id; emails only through an approved access request",
       "Analysis rarely needs direct identifiers, and data minimisation is policy."),
      ("Internal team requests raw data including emails",
       "Give internal teams the raw data they ask for",
       "They are colleagues bound by the same obligations."),
      "Pseudonymous ids only, unless there's an approved access request."),
    # --- customer communication -----------------------------------------------------------------------------
    S("customer communication", "A customer is furious about the outage and wants to know when it will be fixed",
      ("Customer asks for an ETA during an outage",
       "Acknowledge, share what is known and when the next update comes; never promise a fix time",
       "Missed ETAs during incidents caused more escalations than the outages themselves."),
      ("Upset customer during an incident",
       "Give the customer the engineers' best-guess fix time to calm them down",
       "A concrete time reassures people."),
      "Don't give fix times. Promise the time of the next update."),
    S("customer communication", "A customer asks for a refund two months after purchase",
      ("Refund request after the refund window has closed",
       "Escalate to a support lead with the account history; don't refuse or approve on your own",
       "Leads grant exceptions for long-standing accounts; a flat refusal lost an enterprise customer."),
      ("Late refund request",
       "Politely decline refunds outside the 30-day policy",
       "Policy must be applied consistently."),
      "Escalate to a lead instead of refusing."),
    S("customer communication", "We found a bug in how we calculated a client's invoices, do we tell them?",
      ("We discover a bug that affected a customer's invoices",
       "Tell the customer proactively with the impact and the correction plan, once finance confirms the numbers",
       "Customers who found billing bugs themselves churned; telling them first kept their trust."),
      ("Billing bug found internally",
       "Quietly fix billing bugs and correct the next invoice",
       "Announcing bugs undermines confidence."),
      "Tell them first, once finance has confirmed the numbers."),
    S("customer communication", "A prospect asks if we support SSO, which is only on the roadmap",
      ("Prospect asks about a feature that has not shipped",
       "Say it isn't available today and offer the roadmap under NDA through the account manager, without dates",
       "Roadmap dates promised in sales calls became contractual claims."),
      ("Sales question about an upcoming feature",
       "Tell prospects the feature is coming next quarter to keep the deal alive",
       "Roadmap items usually ship."),
      "No dates. Not available today; the account manager can share the roadmap under NDA."),
    S("customer communication", "A customer emailed our CEO directly to complain about support",
      ("Customer escalates a complaint to an executive",
       "Reply within a day from the support lead with the executive in copy, and own the fix end to end",
       "Executives expect one owner; several replies confused the last escalation."),
      ("Complaint sent to the CEO",
       "Let the CEO's office answer complaints sent to executives",
       "The executive was addressed directly."),
      "The support lead replies and owns it, with the CEO in copy."),
    # --- finance --------------------------------------------------------------------------------------------
    S("finance", "A vendor invoice for $48,000 just arrived, can I approve the payment?",
      ("Approving a large vendor invoice",
       "Invoices over $25,000 need a matching purchase order and a second approver before payment",
       "Dual control is an audit requirement; a duplicate invoice was paid once."),
      ("Vendor invoice approval",
       "Approve vendor invoices that match the contract amount",
       "Matching the contract proves the charge is legitimate."),
      "Over 25k: a PO match and a second approver."),
    S("finance", "A supplier emailed new bank details for the next payment",
      ("Vendor asks to change the bank account we pay",
       "Verify by calling the vendor on the number on file before changing any payment details",
       "Bank-change emails are the most common invoice fraud; one was attempted in May."),
      ("Updated bank details from a supplier",
       "Update the supplier's bank details as requested so the payment isn't late",
       "Late payments damage supplier relationships."),
      "Call them on the number we have first. That is exactly how the fraud works."),
    S("finance", "Can I book this expense to last quarter since the invoice came late?",
      ("Late invoice for a quarter that is already closed",
       "Book it as an adjustment in the current period after checking with the controller; never reopen a closed quarter",
       "Reopening closed periods changes numbers that were already reported."),
      ("Expense that belongs to the previous quarter",
       "Backdate the entry to the quarter the expense belongs to",
       "Expenses belong to the period they were incurred in."),
      "Closed quarters stay closed. Book an adjustment and ask the controller."),
    S("finance", "The team wants to prepay the annual software licence to get a discount",
      ("Prepaying an annual or multi-year contract",
       "Prepay only with the budget owner's approval and record it as a prepaid asset amortised monthly",
       "Unrecorded prepayments distorted the monthly spend reports."),
      ("Annual licence discount for paying upfront",
       "Take upfront discounts whenever they are offered",
       "Savings are savings."),
      "It needs the budget owner's approval and prepaid accounting."),
    S("finance", "An expense report has a $300 dinner without a receipt",
      ("Expense claim missing a receipt",
       "Ask for the receipt or a signed missing-receipt form; reject anything above $75 without either",
       "Tax rules require receipts above $75."),
      ("Reimbursement without a receipt",
       "Reimburse business meals without receipts to avoid friction",
       "Chasing receipts costs more than the meal."),
      "Above $75 it needs a receipt or the signed form."),
    # --- security -------------------------------------------------------------------------------------------
    S("security", "I found an API key committed in the repo, should I just delete that line?",
      ("Secret committed to a git repository",
       "Revoke and rotate the key first, then purge it from the history; deleting the line is not enough",
       "Keys in git history are harvested by scanners within minutes."),
      ("Credential found in the code",
       "Remove the secret in a new commit and move it to an environment variable",
       "That takes it out of the codebase."),
      "Rotate the key first; the history still has it."),
    S("security", "A colleague asks for my admin password so they can fix something quickly",
      ("Someone asks to share credentials",
       "Never share credentials; grant temporary access through the access request tool",
       "Shared credentials break the audit trail and violate policy."),
      ("Teammate needs admin access urgently",
       "Share the password over a private chat and change it afterwards",
       "It unblocks them fast and the password gets rotated."),
      "Use the access request tool; never share passwords."),
    S("security", "The scanner flagged a critical CVE in a library and we release tomorrow",
      ("Critical vulnerability found right before a release",
       "Assess with security whether it is reachable in our use; block the release only if it is, and patch within 7 "
       "days either way",
       "Policy: critical CVEs are patched within a week, and not every CVE is reachable."),
      ("CVE flagged by the dependency scanner",
       "Ship the release and schedule the upgrade for the next sprint",
       "Scanners produce many false alarms."),
      "Assess it with security first; the 7-day patch rule applies."),
    S("security", "A user says they lost their phone and wants two-factor removed from their account",
      ("Request to disable two-factor authentication",
       "Follow the identity verification process (ID check or recovery codes) before resetting 2FA",
       "2FA resets are the main account-takeover path through social engineering."),
      ("User locked out after losing their 2FA device",
       "Disable 2FA if the user can confirm their email address",
       "Confirming the email proves they own the account."),
      "Email isn't enough. Full identity verification."),
    S("security", "Can I open port 22 to the world on the bastion so the contractor can get in?",
      ("Opening network access for an external contractor",
       "Give the contractor VPN access with their own account; never open SSH to 0.0.0.0/0",
       "Open SSH ports are brute-forced constantly; personal accounts can be revoked."),
      ("Contractor needs SSH access",
       "Open port 22 temporarily and close it when the contractor is done",
       "Temporary rules are low risk."),
      "VPN with their own account. Temporary firewall rules never get closed."),
    # --- people ---------------------------------------------------------------------------------------------
    S("people", "A candidate asks what the other engineers on the team are paid",
      ("Candidate asks about colleagues' pay",
       "Share the salary band for the role, never individual salaries",
       "Individual pay is confidential; the bands are published internally."),
      ("Compensation question from a candidate",
       "Answer candidates' pay questions openly to build trust",
       "Transparency attracts candidates."),
      "The band only, never individuals."),
    S("people", "The hiring manager wants to skip the reference check to close the offer faster",
      ("Request to skip a hiring step to speed up an offer",
       "Keep reference checks; run them in parallel with drafting the offer instead",
       "A skipped reference check led to a hire we had to let go."),
      ("Hiring manager in a hurry to make an offer",
       "Skip reference checks for strong candidates so we don't lose them",
       "Top candidates have competing offers."),
      "Run references in parallel; don't skip them."),
    S("people", "An employee asks me to keep their health issue from their manager",
      ("Employee discloses a health condition",
       "Keep it confidential; share only the work adjustments needed, with the employee's consent",
       "Health data is special-category data; sharing it needs consent."),
      ("Employee health information",
       "Inform the manager so they can plan the workload",
       "Managers need to plan capacity."),
      "Only the adjustments, and only with consent."),
    S("people", "A rejected candidate asks for feedback on their interview",
      ("Unsuccessful candidate asks for feedback",
       "Give brief, job-related feedback reviewed by the recruiter; nothing on personality or protected traits",
       "Careless feedback led to a discrimination complaint."),
      ("Interview feedback request",
       "Forward the interviewers' raw notes to the candidate",
       "Full transparency is the most helpful."),
      "Brief, reviewed, job-related feedback only."),
    S("people", "A manager wants to announce a team member's resignation at today's all-hands",
      ("Announcing an employee's departure",
       "Agree the message and timing with the departing employee before announcing anything",
       "Announcing before the person told their own team hurt trust last time."),
      ("Resignation announcement",
       "Announce departures as soon as HR has the letter",
       "Early notice helps planning."),
      "Agree the message and timing with them first."),
]

PATTERNS = ("clean", "noisy", "policy", "stale", "cold")

# (adopted, correction or None, days ago)
Verdict = tuple[bool, str | None, float]


def histories(pattern: str, correction: str, rng: random.Random) -> tuple[list[Verdict], list[Verdict]]:
    """(right judgment's verdicts, look-alike's verdicts) for one scenario."""
    def days(lo: float, hi: float) -> float:
        return rng.uniform(lo, hi)

    def adopt(n: int, lo: float, hi: float) -> list[Verdict]:
        return [(True, None, days(lo, hi)) for _ in range(n)]

    def correct(n: int, lo: float, hi: float) -> list[Verdict]:
        return [(False, correction, days(lo, hi)) for _ in range(n)]

    if pattern == "clean":
        return adopt(rng.randint(3, 6), 5, 300), correct(rng.randint(1, 3), 5, 300)
    if pattern == "noisy":
        right = adopt(rng.randint(2, 5), 5, 300) + [(False, None, days(5, 300))]
        return right, correct(rng.randint(1, 2), 5, 300) + adopt(1, 5, 300)
    if pattern == "policy":
        right = adopt(rng.randint(1, 3), 1, 40) + ([(False, None, days(1, 40))] if rng.random() < 0.5 else [])
        return right, adopt(rng.randint(4, 8), 250, 700) + correct(rng.randint(1, 2), 3, 45)
    if pattern == "stale":
        return adopt(rng.randint(4, 8), 300, 700), correct(1, 300, 700) + adopt(1, 1, 30)
    if pattern == "cold":
        return [], correct(1, 5, 300) + adopt(1, 5, 300)
    raise ValueError(pattern)


# method name -> (similarity base, Config overrides or None for no utility)
METHODS: dict[str, tuple[str, dict[str, Any] | None]] = {
    "cosine": ("cosine", None),
    "cosine × plain utility": ("cosine", {"judgments.utility_mode": "plain"}),
    "hybrid": ("hybrid", None),
    "hybrid × plain utility": ("hybrid", {"judgments.utility_mode": "plain"}),
    "hybrid × smoothed": ("hybrid", {"judgments.utility_mode": "smoothed", "judgments.utility_half_life_days": float("inf")}),
    "hybrid × smoothed + decayed": ("hybrid", {"judgments.utility_mode": "smoothed"}),  # the defaults: half-life 90 days
    # the half-life trade-off (policy changes want it short, stale-but-right judgments want it long)
    "… half-life 30 d": ("hybrid", {"judgments.utility_half_life_days": 30.0}),
    "… half-life 180 d": ("hybrid", {"judgments.utility_half_life_days": 180.0}),
    "… half-life 365 d": ("hybrid", {"judgments.utility_half_life_days": 365.0}),
}
HEADLINE = ("cosine", "hybrid × plain utility", "hybrid × smoothed + decayed")


def run_seed(seed: int, embedder: Any, embedder_spec: str) -> dict[str, list[dict[str, Any]]]:
    """Every method's rank of the right judgment and of its look-alike, per scenario, for one seed."""
    from episodic_memory import Config, Memory
    from episodic_memory.retrieve.texts import judgment_embedding_text
    from episodic_memory.retrieve.utility import rank_score, utility
    from episodic_memory.store.records import VerdictRow

    rng = random.Random(seed)
    patterns = [PATTERNS[i % len(PATTERNS)] for i in range(len(SCENARIOS))]
    rng.shuffle(patterns)
    base = Config(models={"embedder": embedder_spec}, capture={"consolidate_on_open": False})
    now = time.time()
    per_method: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="episodic-judgments-") as tmp:
        store = Memory(Path(tmp) / "memory.db", config=base, embedder=embedder)
        memory = store.judgments   # the ranked API (the seed's door, EpisodicMemory, ranks by cosine alone)
        ids: list[tuple[str, str]] = []
        verdicts: dict[str, list[Verdict]] = {}
        for scenario, pattern in zip(SCENARIOS, patterns, strict=True):
            right = memory.store(*scenario.right, domain=scenario.domain)
            wrong = memory.store(*scenario.wrong, domain=scenario.domain)
            ids.append((right, wrong))
            verdicts[right], verdicts[wrong] = histories(pattern, scenario.correction, rng)
            for memory_id in (right, wrong):
                for adopted, correction, ago in verdicts[memory_id]:
                    memory.verify(memory_id, adopted, user_correction=correction, at=now - ago * DAY)
        every = [m for pair in ids for m in pair]
        n = len(every)
        # cosine: that library's similarity (the query against the judgment's vector, nothing else)
        stored = {m: memory.get(m) for m in every}
        vectors = embedder.embed([judgment_embedding_text(stored[m].trigger, stored[m].judgment) for m in every])
        rows = {m: [VerdictRow(0, a, c, now - ago * DAY) for a, c, ago in verdicts[m]] for m in every}
        for name, (similarity, overrides) in METHODS.items():
            cfg = base.replace(overrides or {})
            memory.config = cfg
            results = per_method.setdefault(name, [])
            for scenario, pattern, (right, wrong) in zip(SCENARIOS, patterns, ids, strict=True):
                if similarity == "cosine":
                    sims = vectors @ embedder.embed_query(scenario.query)
                    scores = {m: float(s) for m, s in zip(every, sims, strict=True)}
                    if overrides is not None:
                        scores = {m: rank_score(s, utility(rows[m], cfg, now), cfg.judgments.utility_weight)
                                  for m, s in scores.items()}
                    ranked = sorted(every, key=lambda m: -scores[m])
                else:
                    ranked = [r.id for r in memory.search(scenario.query, top_k=n, use_utility=overrides is not None)]
                rank = {m: i for i, m in enumerate(ranked, 1)}
                results.append({"seed": seed, "pattern": pattern, "domain": scenario.domain,
                                "rank": rank.get(right, n), "wrong_rank": rank.get(wrong, n)})
        memory.config = base
        latency = []
        for scenario in SCENARIOS:  # the default ranking, query embedding included
            if hasattr(embedder, "cache_clear"):
                embedder.cache_clear()
            t0 = time.perf_counter()
            memory.search(scenario.query, top_k=5, use_utility=True)
            latency.append((time.perf_counter() - t0) * 1000)
        per_method["_latency_ms"] = [{"ms": ms} for ms in latency]
        store.close()
    return per_method


def run(seeds: list[int], embedder_spec: str) -> dict[str, Any]:
    from episodic_memory.models.embedder import load_embedder

    embedder = load_embedder(embedder_spec)
    started = time.perf_counter()
    per_method: dict[str, list[dict[str, Any]]] = {}
    for seed in seeds:
        for name, results in run_seed(seed, embedder, embedder_spec).items():
            per_method.setdefault(name, []).extend(results)
    latency = [r["ms"] for r in per_method.pop("_latency_ms")]
    return {
        "summary": {name: summarise(results) for name, results in per_method.items()},
        "by_pattern": {name: {p: summarise([r for r in results if r["pattern"] == p]) for p in PATTERNS}
                       for name, results in per_method.items()},
        "search_ms_median": round(statistics.median(latency), 2),
        "run_s": round(time.perf_counter() - started, 1),
        "judgments": 2 * len(SCENARIOS),
        "per_scenario": per_method,
    }


def summarise(results: list[dict[str, Any]]) -> dict[str, float]:
    ranks = [r["rank"] for r in results]
    return {
        "p_at_1": round(float(np.mean([r == 1 for r in ranks])), 3),
        "above_lookalike": round(float(np.mean([r["rank"] < r["wrong_rank"] for r in results])), 3),
        "mean_rank": round(float(np.mean(ranks)), 2),
        "n": len(results),
    }


def tables(data: dict[str, Any]) -> tuple[tuple[list[str], list[list[str]]], tuple[list[str], list[list[str]]]]:
    header = ["method", "P@1", "right above look-alike", "mean rank"]
    rows = [[name, f"{s['p_at_1']:.3f}", f"{s['above_lookalike']:.3f}", f"{s['mean_rank']:.2f}"]
            for name, s in data["summary"].items()]
    p_header = ["method", *[f"{p} P@1" for p in PATTERNS]]
    p_rows = [[name, *[f"{data['by_pattern'][name][p]['p_at_1']:.2f}" for p in PATTERNS]]
              for name in data["by_pattern"]]
    for table in (rows, p_rows):
        for row in table:
            if row[0] in HEADLINE:
                row[0] = f"**{row[0]}**"
    return (header, rows), (p_header, p_rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20,
                        help="average over this many seeds (verification histories and pattern assignment)")
    parser.add_argument("--embedder", default="default", help="Config.models.embedder spec (default: the bundled MiniLM)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "judgments.json")
    parser.add_argument("--per-scenario", action="store_true",
                        help="also store every method's rank per scenario and seed in the JSON (~1 MB)")
    args = parser.parse_args(argv)
    commit, dirty = git_commit(), git_dirty()
    data = run(list(range(args.seeds)), args.embedder)
    if not args.per_scenario:
        data.pop("per_scenario")
    (header, rows), (p_header, p_rows) = tables(data)
    title = (f"judgments: {len(SCENARIOS)} scenarios, {data['judgments']} judgments in one store, "
             f"{args.seeds} seeds ({len(SCENARIOS) * args.seeds} queries per method)")
    print_table(title, header, rows)
    print_table(f"P@1 by verification pattern ({len(SCENARIOS) // len(PATTERNS)} scenarios each per seed)",
                p_header, p_rows)
    print(f"search (top 5, with utility, query embedding included): median {data['search_ms_median']} ms")
    payload = {
        "meta": {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "git_commit": commit,
                 "git_dirty": dirty, "seeds": args.seeds, "embedder": args.embedder, "scenarios": len(SCENARIOS),
                 "patterns": list(PATTERNS), "python": platform.python_version(), "headline": list(HEADLINE)},
        **data,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    args.out.with_suffix(".md").write_text(
        f"{title}\n\n{markdown_table(header, rows)}\n\n{markdown_table(p_header, p_rows)}\n\n"
        f"search median {data['search_ms_median']} ms\n")
    print(f"wrote {args.out} and {args.out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
