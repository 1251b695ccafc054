"""Fresh truth-bench conversations: the shared generator (`../shared/truth-bench/gen.py`) with its banks and the
banks kept here (`bench/banks/*.py`).

    python bench/truthgen.py --bank untuned --seed 5 --n 4 --out /tmp/u5     # conversations, as gen.py writes them
    python bench/truthgen.py --check                                         # every two banks disjoint

Two uses:

- `write(bank, seed, n, out)`: conversations and labels on disk, exactly as `gen.py --bank … --seed …` writes them
  (it is run as a subprocess from a folder that holds the generator and every bank), for `bench/truth.py`.
- `utterances(bank, seed, index)`: one conversation's user utterances as the generator composed them, each with
  what it is (a to-do taken on, a to-do reported done, a value given or changed with its cue, a fact, chit-chat, a
  request, a distractor, …) and which loop or slot it belongs to, in the order they were said — the labelled
  examples `bench/train_consolidation.py` learns from. The generator's own `Writer.part` is wrapped to record them,
  so the words are the bank's and the labels are the generator's.

Which banks are for what (`BANK_ROLES`): the learned parts of consolidation train on `TRAIN_BANKS`; `UNTUNED_BANKS`
were written from the generator's README by people who had not read the code, and nothing is ever tuned on them;
`HOLD_OUT_BANKS`, written the same way later, are read only to report.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import SHARED_DATA  # noqa: E402

SHARED_GENERATOR = (SHARED_DATA / ".." / "truth-bench").resolve()
REPO_BANKS = Path(__file__).resolve().parent / "banks"
TRAIN_BANKS = ("dev", "terse", "wordy", "brisk", "learner", "ramble")
UNTUNED_BANK = "untuned"
#: banks written from the generator's README by helpers who had not read the code, never trained or tuned on:
#: `untuned` (the first), and four in other voices — `texter` (typed fast on a phone), `formal` (a senior
#: professional, indirect and passive), `chatty` (regional English, points made by implication), `slack`
#: (workplace chat: clipped, jargon, arrows and :emoji: codes; written last, by a helper who read neither the code
#: nor the other banks)
UNTUNED_BANKS = (UNTUNED_BANK, "texter", "formal", "chatty", "slack")
#: a fresh hold-out, written on 2026-12-07 the same way by two more helpers: `caregiver` (looks after a parent and
#: two children, long warm British/Irish messages) and `foreman` (a site foreman texting between jobs: trade
#: jargon, no capitals). The never-tuned pool above has been read for many a choice since it was written; these
#: two are read only to report, never to choose (`bench/truth.py` pools them as "hold-out")
HOLD_OUT_BANKS = ("caregiver", "foreman")
BANK_ROLES = {"dev": "train (the shared dev bank)", **{b: "train (written here)" for b in TRAIN_BANKS[1:]},
              **{b: "never tuned on (written from the README alone)" for b in UNTUNED_BANKS},
              **{b: "hold-out (written from the README alone; read only to report)" for b in HOLD_OUT_BANKS}}
#: seeds the training script draws from; the report seeds of bench/truth.py are disjoint from them
TRAIN_SEEDS = range(1, 41)


@cache
def generator_dir() -> Path:
    """A folder holding the shared gen.py and every bank (shared and ours): gen.py finds banks beside itself."""
    if not (SHARED_GENERATOR / "gen.py").is_file():
        raise FileNotFoundError(f"no truth-bench generator at {SHARED_GENERATOR} (../shared/truth-bench)")
    folder = Path(tempfile.mkdtemp(prefix="truthgen-"))
    shutil.copy2(SHARED_GENERATOR / "gen.py", folder / "gen.py")
    (folder / "banks").mkdir()
    for source in (SHARED_GENERATOR / "banks", REPO_BANKS):
        for bank in sorted(source.glob("*.py")):
            shutil.copy2(bank, folder / "banks" / bank.name)
    return folder


def available_banks() -> list[str]:
    return sorted(p.stem for p in (generator_dir() / "banks").glob("*.py") if not p.stem.startswith("_"))


def write(bank: str, seed: int, n: int, out: Path) -> Path:
    """`gen.py --bank BANK --seed SEED --n-conversations N --out OUT`, from the folder with every bank."""
    out.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, str(generator_dir() / "gen.py"), "--bank", bank, "--seed", str(seed),
                           "--n-conversations", str(n), "--out", str(out)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:   # e.g. the shared planner cannot place a draw (dev seed 27, two conversations)
        said = [line for line in done.stderr.strip().splitlines() if line.strip()]
        raise GeneratorError(f"gen.py could not write bank {bank!r}, seed {seed}, {n} conversations: "
                             f"{said[-1] if said else f'exit status {done.returncode}'} (try another seed)")
    return out


class GeneratorError(RuntimeError):
    """gen.py failed for one draw (bank, seed, count); its last line of error says why."""


def check() -> int:
    """`gen.py --check` over every bank: names, sentences and 6-word runs shared by two banks."""
    return subprocess.run([sys.executable, str(generator_dir() / "gen.py"), "--check"]).returncode


@cache
def _gen() -> ModuleType:
    folder = generator_dir()
    sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location("truthbench_gen", folder / "gen.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- labelled utterances

@dataclass
class Utterance:
    """One thing the user said, as the generator composed it (before its typos and before it was joined to the
    next thing in one turn)."""
    text: str
    kind: str                 # slot | open | close | fact | pair | distractor | suggest | filler | opener | closer | recap
    session: int              # the session's index in the conversation
    day: float = 0.0          # when its session started, in days from the conversation's first
    types: list[str] = field(default_factory=list)   # the fact types of a durable utterance ([] for noise)
    loop: str | None = None   # open / close: the to-do's id
    slot: str | None = None   # slot: "<thread>.<slot id>"
    value_index: int = 0      # slot: 0 for the first value, then each change
    cue: str = ""             # slot: initial | explicit | actually | … | implicit
    value: str = ""           # slot: the value as labelled
    slot_kind: str = ""       # slot: number | date | name | place | thing
    pool: str = ""            # pair: CHITCHAT / REQUESTS / asks (a thread's own)
    reply: str = ""           # the assistant's answer to it, as composed (a joined turn shows the last one's)

    @property
    def durable(self) -> bool:
        return bool(self.types)


@dataclass
class LabelledConversation:
    bank: str
    seed: int
    index: int
    user: str
    utterances: list[Utterance]
    loops: dict[str, dict[str, Any]]     # id → {text, thread}


def utterances(bank: str, seed: int, index: int) -> LabelledConversation:
    """The user's utterances of conversation `index` of `gen.py --bank BANK --seed SEED`, labelled by the
    generator. The same draw as gen.py's (same seeds, users and redraws), recorded as `Writer.part` makes them."""
    gen = _gen()
    module = importlib.import_module(f"banks.{bank}")
    users = gen.random.Random(f"{bank}/{seed}/users").sample(module.USERS, len(module.USERS))
    user = users[index % len(users)]
    record: list[tuple[Any, dict[str, Any], dict[str, Any], Any]] = []   # writer, event, part, session
    original_part, original_say, original_recap = gen.Writer.part, gen.Writer.say, gen.Writer.recap

    def part(self: Any, e: dict[str, Any], env: dict[str, Any]) -> dict[str, Any]:
        out = original_part(self, e, env)
        record.append((self, e, out, self.cur))
        return out

    def say(self: Any, pool: str, env: dict[str, Any], memo: Any = None, ok: Any = lambda x: True) -> str:
        text = original_say(self, pool, env, memo, ok)
        if pool in ("OPENERS", "CLOSERS"):
            record.append((self, {"k": "opener" if pool == "OPENERS" else "closer"}, {"u": text}, self.cur))
        return text

    def recap(self: Any, th: dict[str, Any], env: dict[str, Any]) -> dict[str, Any] | None:
        out = original_recap(self, th, env)
        if out is not None:
            record.append((self, {"k": "recap"}, out, self.cur))
        return out

    gen.Writer.part, gen.Writer.say, gen.Writer.recap = part, say, recap
    try:
        turns, labels = gen.generate(module, seed, index, user)
    finally:
        gen.Writer.part, gen.Writer.say, gen.Writer.recap = original_part, original_say, original_recap
    writer = record[-1][0]   # the draw gen.generate kept is the last one built
    session_of = {id(s): i for i, s in enumerate(writer.sessions)}
    out: list[Utterance] = []
    for w, e, made, current in record:
        if w is not writer or made.get("u") is None:
            continue
        session = session_of[id(current)]
        day = (current["start"] - writer.sessions[0]["start"]).total_seconds() / 86_400
        u = Utterance(text=gen.sentence(made["u"]) if e["k"] != "opener" else made["u"], kind=e["k"],
                      session=session, day=day, types=list(made.get("types", [])), reply=made.get("a") or "")
        if e["k"] == "slot":
            slot, j = e["slot"], e["j"]
            u.slot = f"{slot['thread'].replace(' ', '_')}.{slot['id']}"
            u.value_index, u.value, u.slot_kind = j, slot["values"][j], slot["kind"]
            u.cue = next((h[3] for h in made["hooks"] if h[0] == "value"), "")
        elif e["k"] in ("open", "close"):
            u.loop = e["loop"]["id"]
        elif e["k"] == "pair":
            u.pool = e.get("pool", "asks")
        out.append(u)
    loops = {lp["id"]: {"text": lp["text"], "thread": lp["thread"], "open_text": lp["open_text"]}
             for lp in labels["loops"]}
    return LabelledConversation(bank, seed, index, user, out, loops)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bank", default="dev")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--n", type=int, default=5)
    p.add_argument("--out", type=Path)
    p.add_argument("--check", action="store_true")
    a = p.parse_args(argv)
    if a.check:
        return check()
    if a.out is None:
        p.error("--out is required")
    write(a.bank, a.seed, a.n, a.out)
    print(f"wrote {a.n} conversations of bank {a.bank}, seed {a.seed}, to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
