"""The truth bench with an LLM configured (`EPISODIC_LLM__BACKEND=openai … python bench/truth.py`), end to end: the real
OpenAI-compatible client talks to a server on loopback that answers each call the way a model would for its purpose
(replies chosen by the system prompt, built from what the prompt shows), so the LLM path of consolidation —
extraction, summaries, loops and their closing, the referee, names — runs through the seam and is scored."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from .fake_llm_server import FakeLLMServer, Reply, Request, openai_reply

ROOT = Path(__file__).resolve().parents[1]
USER = "Maya"

# Six sessions: two threads of work (the Series B deck, the kitchen), one of small talk; the deck's slide count
# changes; a to-do is opened and later done in other words.
SESSIONS: list[tuple[str, str | None, str, list[str]]] = [
    ("s01", "series b deck", "2026-03-02T09:00:00Z", [
        "The Series B deck for Northgate has 12 slides.", "Noted: 12 slides.",
        "I need to send the deck outline to Priya by Friday.", "Okay, I'll remember that."]),
    ("s02", "kitchen", "2026-03-04T18:00:00Z", [
        "Oakline Builders is doing the kitchen renovation.", "Good to know.",
        "The kitchen budget is 40k.", "Got it."]),
    ("s03", None, "2026-03-05T12:00:00Z", [
        "ugh, the neighbours are drilling again", "Headphones might help.",
        "lol thanks", "Anytime."]),
    ("s04", "series b deck", "2026-03-09T09:30:00Z", [
        "Correction: the Series B deck has 14 slides now, not 12.", "Updated: 14 slides.",
        "I sent Priya the deck outline this morning.", "Great."]),
    ("s05", "kitchen", "2026-03-11T19:00:00Z", [
        "Oakline Builders starts the kitchen cabinets on Monday.", "Noted.",
        "The kitchen island will be walnut.", "Nice choice."]),
    ("s06", "series b deck", "2026-03-16T10:00:00Z", [
        "Priya liked the Northgate deck outline.", "Good news.",
        "The Series B deck goes to the Northgate partners in April.", "Okay."]),
]


def write_conversation(folder: Path) -> Path:
    """A truth-dev conversation (the data README's format) and its labels."""
    turns, labels, types = [], {}, {}
    for sid, _, ts, lines in SESSIONS:
        for i, text in enumerate(lines, start=1):
            role = "user" if i % 2 else "assistant"
            tid = f"{sid}t{i:02d}"
            turns.append({"role": role, "content": text, "session_id": sid, "id": tid,
                          "speaker": USER if role == "user" else "Assistant", "timestamp": ts})
            durable = role == "user" and sid != "s03"
            labels[tid] = "durable" if durable else "noise"
            if durable:
                types[tid] = ["knowledge"]
    slots = [
        {"id": "deck.slides", "thread": "series b deck", "kind": "number", "question": "How many slides does the "
         "Series B deck have?", "changes": 1, "echoes": ["s01t02", "s04t02"], "values": [
             {"value": "12", "turn_id": "s01t01", "timestamp": "2026-03-02T09:00:00Z", "cue": "initial"},
             {"value": "14", "turn_id": "s04t01", "timestamp": "2026-03-09T09:30:00Z", "cue": "explicit"}]},
        {"id": "kitchen.builder", "thread": "kitchen", "kind": "name", "question": "Who is doing the kitchen "
         "renovation?", "changes": 0, "echoes": [], "values": [
             {"value": "Oakline Builders", "turn_id": "s02t01", "timestamp": "2026-03-04T18:00:00Z",
              "cue": "initial"}]},
    ]
    loops = [{"id": "L1", "thread": "series b deck", "text": "send the deck outline to Priya",
              "open_text": "I need to send the deck outline to Priya by Friday.", "opened_turn": "s01t03",
              "closed_turn": "s04t03"}]
    meta = {"conversation": "conv_900", "user": USER, "threads": {sid: th for sid, th, _, _ in SESSIONS},
            "turn_labels": labels, "turn_types": types, "slots": slots, "loops": loops, "loop_distractors": []}
    path = folder / "conv_900.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in turns), encoding="utf-8")
    (folder / "conv_900.labels.json").write_text(json.dumps(meta), encoding="utf-8")
    return path


_NUMBERED = re.compile(r"^\[(\d+)\](?: \([^)]*\))? ([^:]+): (.*)$")


def numbered(prompt: str) -> list[tuple[int, str, str]]:
    """The prompt's numbered turns: (number, who, text)."""
    return [(int(m.group(1)), m.group(2), m.group(3)) for line in prompt.splitlines() if (m := _NUMBERED.match(line))]


def respond(request: Request) -> Reply:
    """What a careful model answers for each purpose, from what the prompt shows."""
    messages = request.body["messages"]
    system = next(m["content"] for m in messages if m["role"] == "system")
    user = next(m["content"] for m in messages if m["role"] == "user")
    said = [(n, text) for n, who, text in numbered(user) if who == USER]
    reply: Any
    if "fact extractor" in system:
        reply = [{"text": text, "type": "correction" if text.startswith("Correction") else "knowledge",
                  "entities": re.findall(r"\b(?:Northgate|Priya|Oakline Builders)\b", text), "confidence": 0.9,
                  "when": None, "turns": [n]}
                 for n, text in said if not text.endswith("?") and not text.islower()]
    elif "episode summary" in system:
        reply = {"summary": f"{USER} talked about this: " + " ".join(text for _, text in said[:2])}
    elif "open-loop detector" in system:
        reply = [{"text": text.removeprefix("I need to ").rstrip("."), "turn": n, "due": "Friday"}
                 for n, text in said if text.startswith("I need to")]
    elif "open-loop resolver" in system:
        loop_ids = [int(x) for x in re.findall(r"^- loop (\d+):", user, re.MULTILINE)]
        reply = [{"loop": loop_ids[0], "turn": n, "evidence": text}
                 for n, text in said if loop_ids and text.startswith("I sent")]
    elif "referee" in system:
        reply = {"action": "update" if "Correction" in user else "add", "reason": "recorded"}
    elif "workstream judge" in system:
        reply = {"attach": None, "reason": "recorded"}
    elif "name workstreams" in system:
        reply = {"name": "Series B deck" if "deck" in user.lower() else "Kitchen renovation"}
    elif "profile writer" in system:
        return openai_reply("A profile from the facts given.")
    else:
        return Reply(500, {"error": {"message": f"unexpected call: {system[:60]}"}})
    return openai_reply(json.dumps(reply))


def test_the_truth_bench_runs_with_an_llm_through_the_real_client(tmp_path: Path) -> None:
    data = write_conversation(tmp_path)
    out = tmp_path / "truth-llm.json"
    with FakeLLMServer() as server:
        server.responder = respond
        env = {**os.environ, "EPISODIC_LLM__BACKEND": "openai", "EPISODIC_LLM__BASE_URL": f"{server.url}/v1",
               "EPISODIC_LLM__MODEL": "recorded", "OPENAI_API_KEY": "sk-local", "EPISODIC_LLM__RETRIES": "0",
               "PYTHONPATH": str(ROOT / "src")}
        done = subprocess.run([sys.executable, str(ROOT / "bench" / "truth.py"), "--data", str(data),
                               "--systems", "episodic", "--out", str(out)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        purposes = [r.body["messages"][0]["content"] for r in server.requests]
    asked = {key for key in ("fact extractor", "episode summary", "open-loop detector", "open-loop resolver",
                             "name workstreams") if any(key in p for p in purposes)}
    assert asked == {"fact extractor", "episode summary", "open-loop detector", "open-loop resolver",
                     "name workstreams"}
    result = json.loads(out.read_text())
    assert result["meta"]["llm"]["EPISODIC_LLM__BACKEND"] == "openai"
    overall = result["results"]["episodic"]["overall"]
    current = overall["current_value"]
    assert current["current_first_changed"]["value"] == 1.0            # 14 slides before 12
    assert current["stale_first"]["value"] == 0.0 and current["value_at_10_unchanged"]["value"] == 1.0
    facts = overall["facts"]
    assert facts["precision"]["value"] == 1.0                          # the small talk left no fact
    assert facts["supersession"]["value"] == 1.0                       # the correction superseded the 12
    loops = overall["loops"]
    assert loops["recall"] == 1.0 and loops["closure_recall"]["value"] == 1.0 and loops["false_closures"] == 0
    workstreams = overall["workstreams"]
    assert (workstreams["confirmed"], workstreams["threads"], workstreams["v_measure"]) == (2, 2, 1.0)
