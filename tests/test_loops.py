"""Open loops: strict detection (rules and recorded LLM replies), stricter resolution, loops by hand, the CLI,
and the no-LLM path end to end on the bundled sample."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Memory, llm
from episodic_memory.cli import main
from episodic_memory.consolidate.loops import detect_rules
from episodic_memory.ingest import sample_path
from episodic_memory.store.records import StoredTurn

from .fakes import T0, HashingEmbedder, ScriptedBackend
from .fakes import hashing_memory as memory
from .fakes import play_session as session


def turn(content: str, role: str = "user") -> StoredTurn:
    return StoredTurn(1, "default", "s", 0, role, content, T0.timestamp(), 0.0, "Maya", None)


@pytest.mark.parametrize(("said", "loop"), [
    ("To-do: send the updated model to Sarah by Friday", "send the updated model to Sarah by Friday"),
    ("Also remind me to book the Lisbon flight tonight, I keep forgetting.", "book the Lisbon flight tonight"),
    ("Please remind me about the boiler service on Tuesday.", "the boiler service on Tuesday"),
    ("The quotes haven't come in, so we still need to decide on the Airflow hosting.", "decide on the Airflow hosting"),
    ("Sensitivity table: still pending Sarah's sign-off.", "Sensitivity table still pending Sarah's sign-off"),
    ("I'll send the contract to Tomás by Monday and he can countersign.", "send the contract to Tomás by Monday"),
    ("Can you draft the investor update by next Friday?", "draft the investor update by next Friday"),
    ("Hosting is still undecided.", "Hosting is still undecided"),
])
def test_rules_raise_explicit_loops(said: str, loop: str) -> None:
    [found] = detect_rules(turn(said))
    assert found.text == loop


@pytest.mark.parametrize("said", [
    "Shall I remind you on Thursday afternoon?",
    "I'll ping you on Thursday about the model.",
    "We decided to migrate the analytics pipeline to Airflow.",
    "There's no need to rush the deck.",
    "Is the sensitivity table still pending?",
    "ok sounds good. thanks!",
    "Nothing is pending on my side.",
    # what a chat between friends says that reads like a to-do and is none
    "Must have taken a lot of work.",                                   # a guess about the past
    "Wow, that must have been traumatizing for you guys.",
    "They motivate me and remind me why I'm doing this.",               # reminded of, not asked to remind
    "Moments like these remind me to appreciate the ones I love.",
    "I got to volunteer at a career fair last week, and it was incredible.",  # a chance that came
    "That must feel awesome to see your script come alive!",
    "I keep a painting in my room to remind me to stay true to myself.",
    "It helps me keep track of ideas and milestones.",
    # a recap asked for: a question about what is known, not a reminder
    "Could you remind me what we agreed with the printer?",
    "remind me where the kickoff is being held",
    "Can you remind me how much is left in the hardware budget?",
])
def test_rules_keep_quiet_on_what_is_not_a_loop(said: str) -> None:
    assert detect_rules(turn(said)) == []


def test_a_bracketed_note_is_no_part_of_a_loop() -> None:
    found = detect_rules(turn("We need to book the cabin again! [shares an image: a photo of a beach]"))
    assert [c.text for c in found] == ["book the cabin again"]


@pytest.mark.parametrize(("said", "loop"), [
    ("Need to get the calf looked at by a physio by Thursday.", "get the calf looked at by a physio by Thursday"),
    ("I need to write the rollback runbook.", "write the rollback runbook"),
    ("We have to renew the domain before it lapses.", "renew the domain before it lapses"),
    ("Don't let me forget to buy the hood for the stove.", "buy the hood for the stove"),
    ("Can you keep track that I need to ring the permit office?", "ring the permit office"),
    ("I promised I'd get my notes on the candidate into the system by end of day.",
     "get my notes on the candidate into the system by end of day"),
    ("I'll pick paint colours for the hallway next week.", "pick paint colours for the hallway next week"),
    ("Pending: Dana's sign-off.", "Dana's sign-off"),
    ("Need Omar's approval on the job description before it goes live.",
     "Omar's approval on the job description before it goes live"),
    ("TODO: renew the passport", "renew the passport"),
    ("My manager asked me to review the vendor contract.", "review the vendor contract"),
    ("Also, my to-do for this week: get the survey out to the team.", "get the survey out to the team"),
    ("put 'book the caterer for the offsite' on my list please.", "book the caterer for the offsite"),
    ("Add the dentist appointment to my list.", "the dentist appointment"),
    ("The range hood still isn't ordered and it has a long lead time.", "The range hood still isn't ordered"),
    ("Please remind me to call Dana about the lease.", "call Dana about the lease"),
    ("I need you to remind me to send the deck.", "send the deck"),
    ("I've got to send the invoice by Friday.", "send the invoice by Friday"),
])
def test_rules_raise_first_person_commitments_with_their_object(said: str, loop: str) -> None:
    [found] = detect_rules(turn(said))
    assert found.text == loop


@pytest.mark.parametrize("said", [
    "If we ship weekly we'd get 5 releases out before launch.",               # hypothetical
    "check my reasoning: if we ship weekly we get 5 releases",
    "If I ran every day I'd probably get injured.",
    "Maybe I should call the landlord about the heating.",                   # musing
    "In theory I should re-screen everyone from last month, but no.",
    "I'd rather do a quiet soft launch.",
    "Remind me, what did we end up calling the staging environment?",       # a question
    "Do I need to renew the passport?",
    "need to think out loud for a bit",                                      # not a task
    "gotta run, bye",
    "I'll be honest, I have no idea what I'm doing with my taxes.",
    "I have to admit the demo went well.",
    "I don't have to send the report after all.",                           # negated
    "Kira asked me to own offsite planning.",                                # a role, not a to-do
    "Let's say I have to pick between the two venues.",
    "Sometimes I feel like I need to slow down.",
    "I'll probably go running tomorrow.",                                    # a hedge
    "We need to talk about my running plan.",                                # to the assistant
    "I need to know what you think about the deck.",
    "My sister has to renew her visa by June.",                              # not the person's
    "Is the range hood still not ordered?",
])
def test_rules_raise_no_loop_on_hypotheticals_musings_and_questions(said: str) -> None:
    assert detect_rules(turn(said)) == []


def test_the_assistants_suggestions_raise_no_loop_but_may_restate_one() -> None:
    with memory() as mem:
        session(mem, "s1", ["How should I prepare for the board meeting?",
                            "> You need to send the board pack by Friday. To-do: book the boardroom by Monday."],
                day=0)
        assert mem.loops(status="all") == []
        session(mem, "s2", ["Remind me to book the boardroom by Monday.",
                            "> Noted. To-do: book the boardroom by Monday."], day=1)
        [lp] = mem.loops()
        assert (lp.text, lp.mentions) == ("book the boardroom by Monday", 2)


def test_most_sessions_raise_no_loop_and_that_is_fine() -> None:
    with memory() as mem:
        session(mem, "chat", ["How was the conference in Porto?", "> It went well, lots of good talks.",
                              "Great. The keynote on data contracts was the best part.", "> Agreed."], day=0)
        assert mem.loops(status="all") == []
        assert len(mem.episodes()) == 1


def test_a_loop_said_again_is_one_loop_and_closes_only_on_evidence() -> None:
    with memory() as mem:
        session(mem, "s1", ["I'll send the model to Sarah by Friday.",
                            "> To-do: send the updated model to Sarah by Friday, 6 November."], day=0)
        [lp] = mem.loops()
        assert (lp.text, lp.due, lp.mentions, lp.session_id) == ("send the model to Sarah by Friday", "by Friday", 2,
                                                                   "s1")
        session(mem, "s2", ["I haven't sent the model to Sarah yet, tomorrow for sure.",
                            "> Friday: model sent to Sarah.",          # a plan written as a line, not news
                            "We talked about the model with Sarah."], day=3)
        assert [x.id for x in mem.loops()] == [lp.id]                  # not yet: still open
        session(mem, "s3", ["Quick update: I sent the model to Sarah last Friday, just under the wire."], day=7)
        assert mem.loops() == []
        [closed] = mem.loops(status="closed")
        assert closed.closed_by == "rules" and closed.closed_session == "s3"
        assert closed.evidence == "Maya: Quick update: I sent the model to Sarah last Friday, just under the wire."
        assert json.dumps(closed.to_dict())


def test_a_short_answer_closes_the_loop_its_question_names() -> None:
    with memory() as mem:
        session(mem, "s1", ["Remind me to ask Dev whether the revenue dashboard can move to Airflow."], day=0)
        session(mem, "s2", ["> Did you ask Dev whether the revenue dashboard can move to Airflow?", "I did!"], day=2)
        [closed] = mem.loops(status="closed")
        assert closed.evidence.startswith("Maya: I did! (answering: \"Did you ask Dev")


def test_one_statement_closes_only_the_loop_it_covers_best() -> None:
    with memory() as mem:
        session(mem, "s1", ["Remind me to send the quarterly forecast report to Priya by Friday.",
                            "Remind me to send the quarterly budget report to Priya by Monday."], day=0)
        session(mem, "s2", ["I sent the quarterly budget report to Priya this morning."], day=1)
        assert [lp.text for lp in mem.loops()] == ["send the quarterly forecast report to Priya by Friday"]
        session(mem, "s3", ["Sent the Lisbon report yesterday."], day=2)   # shares too little: stays open
        assert len(mem.loops()) == 1


def test_evidence_must_come_after_the_loop() -> None:
    with memory() as mem:
        session(mem, "s1", ["I sent the budget to Priya already.", "Remind me to send the budget to Priya again."],
                day=0)
        assert [lp.text for lp in mem.loops()] == ["send the budget to Priya again"]


def test_loops_belong_to_their_sessions_workstream() -> None:
    with memory() as mem:
        session(mem, "s1", ["The Series B deck needs twelve slides for Northgate.",
                            "Remind me to ask Sarah for the Northgate deck numbers."], day=0)
        [lp] = mem.loops()
        [ws] = mem.workstreams(include_hypotheses=True)
        assert lp.workstream_id == ws.id and lp.workstream is None        # a hypothesis does not surface
        session(mem, "s2", ["Back to the Northgate deck: fourteen slides now, Series B numbers from Sarah."], day=2)
        [lp] = mem.loops()
        assert lp.workstream == mem.workstreams()[0].name


def test_closing_by_hand_and_its_errors(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=HashingEmbedder()) as mem:
        session(mem, "s1", ["Remind me to renew the office lease by Friday."], day=0)
        session(mem, "b1", ["Remind me to water the ferns tonight."], day=0, user_id="bob")
        [lp] = mem.loops()
        [bobs] = mem.loops(user_id="bob")
        with pytest.raises(KeyError):
            mem.close_loop(bobs.id)                      # another user's loop is not ours to close
        with pytest.raises(KeyError):
            mem.close_loop(9999)
        with pytest.raises(ValueError, match="status must be one of"):
            mem.loops(status="pending")
        closed = mem.close_loop(lp.id, note="signed on Tuesday")
        assert (closed.status, closed.closed_by, closed.note) == ("closed", "user", "signed on Tuesday")
        assert mem.close_loop(lp.id).note == "signed on Tuesday"   # closing again changes nothing
        assert mem.loops() == [] and len(mem.loops(user_id="bob")) == 1


def test_llm_detection_and_resolution_with_a_quoted_evidence(backend: ScriptedBackend) -> None:
    backend.replies = {
        "open-loop detector": [
            json.dumps([{"text": "get Sarah's sign-off on the sensitivity table", "turn": 2, "due": "Friday"}]),
            "[]",
        ],
        "open-loop resolver": [
            json.dumps([{"loop": 1, "turn": 1, "evidence": "Sarah signed off the sensitivity table"}]),
        ],
    }
    with memory() as mem:
        session(mem, "s1", ["13 of the 14 slides are final.",
                            "The sensitivity table is the holdout: Sarah reruns it before signing off."], day=0)
        [lp] = mem.loops()
        assert (lp.text, lp.due, lp.detector, lp.source_turns) == (
            "get Sarah's sign-off on the sensitivity table", "Friday", "llm", [mem.session_turns("s1")[1].turn_id
                                                                                 or str(mem.session_turns("s1")[1].id)])
        session(mem, "s2", ["Good news: Sarah signed off the sensitivity table this morning."], day=3)
        [closed] = mem.loops(status="closed")
        assert closed.closed_by == "llm"
        assert closed.evidence == "Maya: Sarah signed off the sensitivity table"
        [(_, prompt)] = backend.calls_for("open-loop resolver")
        assert f"loop {lp.id}: get Sarah's sign-off" in prompt


def test_llm_resolution_without_its_quote_in_the_turn_stays_open(backend: ScriptedBackend) -> None:
    backend.replies = {
        "open-loop detector": [json.dumps([{"text": "book the London flight", "turn": 1, "due": "tonight"}]), "[]"],
        "open-loop resolver": [json.dumps([{"loop": 1, "turn": 1, "evidence": "I booked the London flight"},
                                           {"loop": 77, "turn": 1, "evidence": "I booked the flight"}])],
    }
    with memory() as mem:
        session(mem, "s1", ["Remind me to book the London flight tonight."], day=0)
        session(mem, "s2", ["I'll probably book the London flight later."], day=1)   # the quote is not there
        [lp] = mem.loops()
        assert lp.text == "book the London flight" and lp.status == "open"


def test_an_llm_that_finds_nothing_is_believed_and_a_failing_one_falls_back_to_rules(backend: ScriptedBackend,
                                                                                       tmp_path: Path) -> None:
    backend.replies = {"open-loop detector": ["[]"]}
    with memory() as mem:
        session(mem, "s1", ["Remind me to call the bank by Friday."], day=0)
        assert mem.loops() == []          # the detector said none: the rules do not second-guess it
    backend.replies = {"open-loop detector": [llm.LLMError("503")], "open-loop resolver": [llm.LLMError("503")]}
    db = tmp_path / "m.db"
    with Memory(db, embedder=HashingEmbedder(dim=256)) as mem:
        session(mem, "s1", ["Remind me to call the bank by Friday."], day=0)
        [lp] = mem.loops()
        assert (lp.text, lp.detector) == ("call the bank by Friday", "rules")
    with Memory(db, embedder=HashingEmbedder(dim=256)) as mem:   # later, the failure's back-off over (issue 42)
        mem.store.clear_llm_backoff(mem.llm.describe())
        session(mem, "s2", ["I called the bank this morning, it's done."], day=1)
        assert mem.loops() == []


def test_the_bundled_sample_without_an_llm_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`episodic ingest` the sample, then `episodic loops`: what is still open at the end of the four sessions."""
    monkeypatch.setenv("EPISODIC_MODELS__EMBEDDER", "off")   # the bag-of-words path (the embedder path: test_brief.py)
    db = str(tmp_path / "m.db")
    runner = CliRunner()
    assert runner.invoke(main, ["ingest", str(sample_path()), "--db", db]).exit_code == 0
    result = runner.invoke(main, ["loops", "--db", db])
    assert result.exit_code == 0, result.output
    out = result.output
    lines = out.splitlines()
    assert lines[0].startswith("▸ ") and "(confirmed, " in lines[0] and " facts)" in lines[0]
    assert sum(line.startswith("▸") for line in lines) == 1            # one thread: all four sessions
    loops = json.loads(runner.invoke(main, ["loops", "--db", db, "--json"]).output)
    texts = {lp["text"] for lp in loops}
    # the sensitivity table's sign-off is only the assistant's recap ("Open: …"): the assistant raises no loop
    assert texts == {"decide on the Airflow hosting", "book the Lisbon–London flight tonight",
                     "ask Dev and Sarah to get quotes by next Friday"}
    for text in texts:
        assert text.split()[0] in out
    closed = {lp["text"]: lp for lp in json.loads(runner.invoke(main, ["loops", "--db", db, "--json", "--status",
                                                                        "closed"]).output)}
    assert set(closed) == {"send the model to Sarah by Friday",
                           "ask Dev whether the revenue dashboard can run off the new pipeline before the partner "
                           "meeting"}
    assert closed["send the model to Sarah by Friday"]["closed_session"] == "s2"
    assert "I sent the model to Sarah last Friday" in closed["send the model to Sarah by Friday"]["evidence"]
    # by hand, through the CLI
    target = next(lp for lp in loops if lp["text"].startswith("book the"))
    result = runner.invoke(main, ["loop", "close", str(target["id"]), "--note", "booked BA 501", "--db", db])
    assert result.exit_code == 0 and "closed #" in result.output
    assert "book the" not in runner.invoke(main, ["loops", "--db", db]).output
    result = runner.invoke(main, ["loop", "close", "999", "--db", db])
    assert result.exit_code == 1 and "no loop #999" in result.output


def test_a_loop_closes_by_lemma_with_the_closing_words_quoted() -> None:
    with memory() as mem:
        session(mem, "s1", ["I need to write the rollback runbook.", "Pending: Dana's sign-off on the budget."], day=0)
        assert {lp.text for lp in mem.loops()} == {"write the rollback runbook", "Dana's sign-off on the budget"}
        session(mem, "s2", ["We talked about the rollback runbook with Dana.",      # a past mention, not done
                            "I haven't written the rollback runbook yet.",          # negated
                            "I'll sign off the budget with Dana tomorrow.",         # future
                            "> You wrote the rollback runbook, and Dana signed off on the budget."],  # the assistant
                day=1)
        assert len(mem.loops()) == 2
        session(mem, "s3", ["Finally wrote the rollback runbook last night.", "Dana signed off on the budget."], day=2)
        closed = {lp.text: lp for lp in mem.loops(status="closed")}
        assert set(closed) == {"write the rollback runbook", "Dana's sign-off on the budget"}
        assert closed["write the rollback runbook"].evidence == "Maya: Finally wrote the rollback runbook last night."
        assert closed["Dana's sign-off on the budget"].evidence == "Maya: Dana signed off on the budget."
        assert all(lp.closed_session == "s3" and lp.closed_by == "rules" for lp in closed.values())


def test_a_loop_closes_on_a_paraphrase_by_meaning_with_a_completion_act() -> None:
    from episodic_memory import Config
    from episodic_memory.consolidate.loops import best_evidence_match, done_statements, loop_stems
    from episodic_memory.store.records import Loop

    lp = Loop(7, "default", "s1", None, "get my notes on Gabe into the system", None, "open", "rules", [1], 1,
              0.0, 0.0, None, None, None, None, None, None)
    loops = [(lp, loop_stems(lp.text))]
    cfg = Config()
    [submitted] = done_statements(turn("Feedback on Gabe is submitted."), None)
    assert best_evidence_match(submitted, loops, cfg) is None                        # no shared act by lemma
    assert best_evidence_match(submitted, loops, cfg, {7: cfg.loops.close_cosine + 0.01}) is lp   # by meaning
    assert best_evidence_match(submitted, loops, cfg, {7: cfg.loops.close_cosine - 0.01}) is None
    [did_well] = done_statements(turn("Gabe did really well in the system design round."), None)
    assert best_evidence_match(did_well, loops, cfg, {7: 0.9}) is None             # about it, but nothing done
    for said in ["I haven't submitted the feedback on Gabe yet.", "I'll submit the feedback on Gabe tomorrow.",
                 "If I submitted the feedback on Gabe today we'd be fine.", "Did you submit the feedback on Gabe?"]:
        assert done_statements(turn(said), None) == []
    assert done_statements(turn("Feedback on Gabe is submitted.", role="assistant"), None) == []
    assert done_statements(turn("I finally understand the budget."), None) == []   # "finally" reports nothing


def test_a_loop_never_closes_on_the_turn_that_raised_it() -> None:
    with memory() as mem:
        session(mem, "s1", ["I sent the draft to Priya, and I still need to send the invoice to Priya."], day=0)
        [lp] = mem.loops()
        assert (lp.text, lp.status) == ("send the invoice to Priya", "open")
        session(mem, "s2", ["Sent the invoice to Priya this morning."], day=1)
        assert mem.loops() == []


def test_an_elliptical_report_is_read_with_the_rest_of_its_turn() -> None:
    with memory() as mem:
        session(mem, "s1", ["Remind me to book flights for the Porto summit."], day=0)
        session(mem, "s2", ["Travel's sorted, got a direct flight."], day=1)            # which trip? not said
        assert len(mem.loops()) == 1
        session(mem, "s3", ["My Porto summit talk got accepted. Travel's sorted, got a direct flight."], day=2)
        [closed] = mem.loops(status="closed")
        assert closed.evidence == "Maya: Travel's sorted, got a direct flight."


def test_partial_progress_and_quoted_words_neither_close_nor_raise() -> None:
    with memory() as mem:
        session(mem, "s1", ["proofread this: 'I need to send the invoice to Acme by Friday, sorry for the delay'",
                            "I need to write the rollback runbook."], day=0)
        assert [lp.text for lp in mem.loops()] == ["write the rollback runbook"]
        session(mem, "s2", ["I started writing the rollback runbook.", "Wrote half of the rollback runbook today.",
                            "translate 'I wrote the rollback runbook' into Spanish"], day=1)
        assert [lp.text for lp in mem.loops()] == ["write the rollback runbook"]


@pytest.mark.parametrize(("todo", "done"), [
    ("I need to get my notes on the candidate into the system.", "Put my notes on the candidate in last night."),
    ("I'll pick paint colours for the hallway next week.", "We landed on paint colours for the hallway: warm grey."),
    ("Remind me to send the offsite survey.", "The offsite survey is out, two responses already."),
    ("Can you keep track that I need to get quotes from two roofers?", "Heard back from the roofers, have two quotes now."),
])
def test_idioms_of_done_close_by_lemma(todo: str, done: str) -> None:
    with memory() as mem:
        session(mem, "s1", [todo], day=0)
        assert len(mem.loops()) == 1
        session(mem, "s2", [done], day=1)
        [closed] = mem.loops(status="closed")
        assert closed.evidence == f"Maya: {done}"


@pytest.mark.parametrize(("todo", "later"), [
    ("Remind me to book flights for the Lisbon summit.", "Booked the hotel for the Lisbon summit."),  # another object
    ("Pending: Dana's sign-off on the budget.", "I finished the budget slides for Dana."),       # not her act
    ("Pending: Dana's sign-off on the budget.", "Sent the budget to Dana for sign-off."),         # asked, not given
    ("I have to send the signed lease to the landlord by Friday.", "Signed the lease last night."),  # a step of it
    ("I need to write the rollback runbook.", "We discussed the rollback runbook in standup."),
    ("I have to send the signed lease to the landlord by Friday.", "The landlord sent me the lease."),  # not by me
])
def test_a_related_act_does_not_close_a_loop(todo: str, later: str) -> None:
    with memory() as mem:
        session(mem, "s1", [todo], day=0)
        session(mem, "s2", [later], day=1)
        assert len(mem.loops()) == 1


def test_what_a_loop_is_done_to_and_by() -> None:
    from episodic_memory.consolidate.loops import _acts_of, loop_object
    assert loop_object("book flights for the Lisbon summit") == {"flight"}
    assert loop_object("write up my interview feedback for Stefan by end of day") == {"interview", "feedback"}
    assert loop_object("Dana's sign-off on the budget") == set()
    assert _acts_of("Dana's sign-off on the budget") == ({"approv"}, False, False)
    own, generic, _ = _acts_of("write up my interview feedback for Stefan")
    assert {"writ", "send"} <= own and not generic          # a write-up is done when it is submitted
    assert _acts_of("get my notes on Gabe into the system")[1]   # a light verb: any completing act


@pytest.mark.parametrize(("todo", "done"), [
    ("I've got to renew my passport before June.", "Passport renewed!"),
    ("Still waiting on the contractor's quote.", "The contractor's quote arrived today."),
    ("Waiting for Dana to sign off on the budget.", "Dana finally signed off on the budget."),
    ("Add to my list: renew the car insurance.", "Car insurance renewed for another year."),
    ("I'm on the hook for the quarterly report.", "Quarterly report submitted."),
    ("I said I'd review Tom's pull request by tomorrow.", "Reviewed Tom's pull request, left a few comments."),
    ("Remind me to cancel the gym membership.", "Gym membership cancelled, finally."),
    ("I have to file the expense report by Friday.", "Expense report filed."),
    ("I need to write up my interview feedback for Stefan.", "Feedback on Stefan is submitted."),
])
def test_wordings_of_a_to_do_and_of_its_end(todo: str, done: str) -> None:
    with memory() as mem:
        session(mem, "s1", [todo], day=0)
        assert len(mem.loops()) == 1
        session(mem, "s2", ["I haven't had time for it yet.", done], day=1)
        [closed] = mem.loops(status="closed")
        assert closed.evidence == f"Maya: {done}"


def test_a_pending_state_closes_when_it_is_reported_done() -> None:
    with memory() as mem:
        session(mem, "s1", ["The range hood still isn't ordered and it has a long lead time.",
                            "put 'put together the offsite agenda' on my list please."], day=0)
        assert {lp.text for lp in mem.loops()} == {"The range hood still isn't ordered",
                                                    "put together the offsite agenda"}
        session(mem, "s2", ["Ordered the range hood finally.", "The offsite agenda is done and shared."], day=1)
        assert mem.loops() == []


def test_the_lemmatiser_meets_a_to_do_and_its_report() -> None:
    from episodic_memory.consolidate.lemmas import content_keys, is_past, key, lemma
    assert {lemma(w) for w in ("write", "wrote", "written")} == {"write"}
    assert len({key(w) for w in ("write", "wrote", "written", "writing")}) == 1   # keys drop the final "e"
    assert [lemma(w) for w in ("booked", "shipped", "running", "studied", "cancelled", "called", "tables")] == [
        "book", "ship", "run", "study", "cancel", "call", "table"]
    assert key("sign-off") == key("signed") == key("approval") == key("approved")
    assert key("pick") == key("chosen") == key("landed")
    assert content_keys("Pending: Dana's sign-off") >= content_keys("Dana signed off")
    assert [w for w in "I wrote sent booked need tired signed went was read".split() if is_past(w)] == [
        "wrote", "sent", "booked", "signed", "went"]


def test_without_an_embedder_loops_close_by_lemma() -> None:
    from episodic_memory import Config
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem:
        session(mem, "s1", ["Tessa is waiting on my bio and headshot.", "I need to write the rollback runbook."], day=0)
        assert len(mem.loops()) == 2
        session(mem, "s2", ["Sent Tessa my bio and headshot.", "Wrote the rollback runbook on the train."], day=1)
        assert mem.loops() == [] and len(mem.loops(status="closed")) == 2
