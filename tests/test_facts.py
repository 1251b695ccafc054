"""Facts without an LLM: the rule extractor, the gates, supersession with history, entities, time travel."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config, Memory
from episodic_memory.cli import main
from episodic_memory.consolidate.extract import (
    classify_sentence,
    clean,
    extract_rules,
    find_entities,
    is_filler,
)
from episodic_memory.consolidate.fact_types import EXTRACTED_TYPES, FACT_TYPES
from episodic_memory.consolidate.gate import contradicts, novelty, route, salience
from episodic_memory.ingest import parse_file, sample_path
from episodic_memory.retrieve.fact_hits import previously
from episodic_memory.store.records import StoredTurn

from .fakes import HashingEmbedder

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

NOV_17 = datetime(2026, 11, 17, 14, 9, tzinfo=timezone.utc)  # a Tuesday


def turn(content: str, role: str = "user", speaker: str | None = "Maya", ts: datetime = NOV_17, id: int = 1
         ) -> StoredTurn:
    return StoredTurn(id, "default", "s", id, role, content, ts.timestamp(), ts.timestamp(), speaker, None)


@pytest.mark.parametrize(("sentence", "expected"), [
    ("We decided to migrate the analytics pipeline from cron to Airflow.", "decision"),
    ("Let's go with Sarah's numbers for the base case.", "decision"),
    ("Actually, the deck needs 14 slides, not 12 — Sarah confirmed.", "correction"),
    ("The deck needs 14 slides, not 12.", "correction"),
    ("I prefer bullet points over long paragraphs.", "preference"),
    ("I don't like meetings before 10am.", "preference"),
    ("Always include version numbers when I ask about software dependencies.", "preference"),
    ("Never use semicolons in my JavaScript examples.", "preference"),
    ("From now on, answer in Portuguese.", "preference"),
    ("Remind me to book the flight to London tonight.", "commitment"),
    ("I'll send the model to Sarah by Friday.", "commitment"),
    ("I'm Maya Okafor, co-founder and CEO of Lumen Analytics.", "identity"),
    ("I work at a bakery in Porto these days.", "identity"),
    ("Sarah, our CFO, owns the financial model.", "relationship"),
    ("Dev proposed cutover on Monday 30 November.", "plan"),
    ("Our nightly export failed again last night.", "event"),
    ("The Series B deck needs 12 slides.", "knowledge"),
])
def test_rules_type_what_people_say(sentence: str, expected: str) -> None:
    found = classify_sentence(sentence, NOV_17)
    assert found is not None and found[0] == expected


@pytest.mark.parametrize("sentence", [
    "ok sounds good. thanks!", "What did Sarah flag on churn?", "That's exactly what I was thinking.",
    "We haven't decided on hosting yet.", "Looks right to me honestly.",
    "It always rains in Porto in November.", "We never got the invoice from them.",
])
def test_rules_keep_quiet_on_what_is_not_a_fact(sentence: str) -> None:
    assert classify_sentence(sentence, NOV_17) is None


def test_assistant_turns_are_not_mined_and_filler_is_filler() -> None:
    assert extract_rules([turn("We decided to ship on Friday.", role="assistant")], {}) == []
    assert is_filler("ok, thanks!") and is_filler("Sounds good, great")
    assert not is_filler("The deck needs 14 slides")


def test_corrections_lose_their_not_clause_and_remember_it() -> None:
    assert clean("Actually, the deck needs 14 slides, not 12 — Sarah confirmed.", "correction") == (
        "The deck needs 14 slides — Sarah confirmed.", "12")
    assert contradicts("The deck needs 14 slides", "The Series B deck needs 12 slides.", "12")
    assert not contradicts("The deck needs 12 slides", "The Series B deck needs 12 slides.")
    assert previously("The deck needs 14 slides — Sarah confirmed.", "The Series B deck needs 12 slides.") == "12"
    assert previously("Hosting is managed now", "We run Airflow on a test VM") == "We run Airflow on a test VM"


def test_relative_dates_resolve_against_the_turn() -> None:
    facts = extract_rules([turn("She spoke to Tomás yesterday about the deck."),
                           turn("I'll ask Dev to get quotes by next Friday.", id=2)], {})
    when = {f.type: datetime.fromtimestamp(f.event_ts, timezone.utc).date().isoformat() for f in facts}
    assert when == {"event": "2026-11-16", "commitment": "2026-11-27"}


def test_entities_come_from_known_names_and_capitals_not_sentence_starts() -> None:
    known = {"sarah": "Sarah"}
    assert find_entities("Honestly the deck is late; sarah knows.", known) == ["Sarah"]
    assert "Some" not in find_entities("Some context: I met Tomás Ferreira at Northgate Ventures.", {})
    assert find_entities("I met Tomás Ferreira at Northgate Ventures.", {}, speaker="Maya") == [
        "Maya", "Tomás Ferreira", "Northgate Ventures"]


def test_salience_routes_and_recurrence_is_capped() -> None:
    cfg = Config()
    assert salience("correction", 1.0, 0, cfg) >= cfg.consolidation.durable_floor
    assert salience("event", 0.6, 0, cfg) < cfg.consolidation.durable_floor
    assert salience("event", 0.6, 20, cfg) == pytest.approx(salience("event", 0.6, 0, cfg) + cfg.consolidation.recurrence_cap)
    candidate = extract_rules([turn("We decided to keep both systems running until Monday.")], {})[0]
    assert route(candidate, cfg)[0] == "durable"
    assert set(EXTRACTED_TYPES) == {"identity", "preference", "decision", "correction", "commitment", "plan", "event",
                                    "relationship", "knowledge"}
    assert set(FACT_TYPES) == EXTRACTED_TYPES | {"lesson", "goal"}  # stored by hand only (Memory.add_fact)


def test_gzip_novelty_tells_a_restatement_from_news() -> None:
    sample = ["The Series B deck needs 12 slides.", "Maya prefers bullet points over long paragraphs."]
    assert novelty("the series b deck needs 12 slides", sample) < Config().consolidation.novelty_floor
    assert novelty("Dev proposed the Airflow cutover for Monday 30 November.", sample) > 0.5


def _sample_memory(path: Path | str = ":memory:", **kw) -> Memory:
    mem = Memory(path, embedder=HashingEmbedder(), **kw)
    parsed = parse_file(str(sample_path()))
    mem.add_turns(parsed.turns)
    for session_id in dict.fromkeys(t["session_id"] for t in parsed.turns):
        mem.end_session(session_id)
    return mem


def test_the_bundled_sample_yields_typed_facts_and_the_correction_supersedes_offline() -> None:
    with _sample_memory() as mem:
        types = {f.type for f in mem.facts()}
        assert {"identity", "preference", "decision", "correction", "commitment", "relationship"} <= types
        correction = next(f for f in mem.facts(types=["correction"]) if "14 slides" in f.text)
        old = mem.fact_history(correction.id)[1]
        assert "12 slides" in old.text and old.valid_to is not None and old.superseded_by == correction.id
        hits = mem.recall("how many slides does the deck need", k=5, kind="fact")
        assert hits[0].text == "The deck needs 14 slides — Sarah confirmed (previously: 12)"
        previous = hits[0].details["previous"]  # what it replaced, and until when that was true
        assert previous["value"] == "12" and previous["text"] == old.text
        assert previous["until"] == datetime.fromtimestamp(old.valid_to, tz=timezone.utc).isoformat()
        assert hits[0].source_ids and all(h.kind == "fact" for h in hits)
        assert not any("12 slides" in h.text and "previously" not in h.text for h in hits)
        # time travel: before the correction, the deck had 12 slides
        then = mem.recall("how many slides does the deck need", k=3, kind="fact", as_of="2026-11-10")
        assert then[0].text == "The Series B deck needs 12 slides."
        # and the cron jobs that moved to Airflow ("… all 15 jobs are on Airflow now") replace "… on a single VM"
        assert mem.stats()["routes"]["superseded"] == 2
        airflow = next(f for f in mem.facts() if "on Airflow now" in f.text)
        assert "single VM" in mem.fact_history(airflow.id)[1].text


def test_consolidating_twice_adds_nothing() -> None:
    with _sample_memory() as mem:
        before = [(f.id, f.recurrence) for f in mem.facts(include_superseded=True)]
        for info in mem.sessions():
            mem.store.mark_for_consolidation(info.user_id, info.session_id)
            mem.consolidate(info.user_id, info.session_id)
        from episodic_memory.consolidate.facts import FactConsolidator
        FactConsolidator(mem, mem.user_id).run("s1", mem.session_turns("s1"))  # the same turns once more
        assert [(f.id, f.recurrence) for f in mem.facts(include_superseded=True)] == before


def test_a_restatement_in_a_later_session_bumps_recurrence() -> None:
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        mem.add_turn("user", "I prefer bullet points over long paragraphs.", session_id="a")
        mem.end_session("a")
        mem.add_turn("user", "Like I said, I prefer bullet points over long paragraphs.", session_id="b")
        mem.end_session("b")
        [fact] = mem.facts()
        assert fact.recurrence == 2 and len(fact.source_ids) == 2
        assert fact.salience == pytest.approx(salience("preference", 0.8, 1, mem.config))
        assert sum(mem.stats()["routes"].get(r, 0) for r in ("restated", "duplicate")) == 1


def test_forgetting_the_restating_session_takes_its_turns_from_the_facts_sources() -> None:
    """A fact of session a restated in session b rests on a turn of each; forgetting b leaves the fact on a's turn
    alone (`_drop_forgotten_sources`, which decodes only the source lists naming a forgotten turn's id)."""
    with Memory(":memory:", embedder=HashingEmbedder()) as mem:
        for i in range(11):   # turns enough that one id is a prefix of another (1 and 11): matched as numbers
            mem.add_turn("user", f"small talk number {i}", session_id="a")
        mem.add_turn("user", "I prefer bullet points over long paragraphs.", session_id="a")
        mem.end_session("a")
        mem.add_turn("user", "Like I said, I prefer bullet points over long paragraphs.", session_id="b")
        mem.end_session("b")
        [fact] = mem.facts()
        a_turn = [t.id for t in mem.session_turns("a") if "bullet" in t.content]
        b_turn = [t.id for t in mem.session_turns("b")]
        assert sorted(fact.source_ids) == sorted(a_turn + b_turn)
        mem.forget(session_id="b")
        [fact] = mem.facts()
        assert fact.source_ids == a_turn


def test_without_an_embedder_dedup_falls_back_to_word_overlap() -> None:
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem:
        mem.add_turn("user", "The launch checklist needs 9 items.", session_id="a")
        mem.end_session("a")
        mem.add_turn("user", "Correction: the launch checklist needs 11 items, not 9.", session_id="b")
        mem.end_session("b")
        [current] = mem.facts()
        assert "11 items" in current.text and current.supersedes is not None
        assert mem.recall("launch checklist items", kind="fact")[0].text.endswith("(previously: 9)")


def test_entities_link_aliases_case_insensitively_with_edges(tmp_path: Path) -> None:
    with _sample_memory(tmp_path / "m.db") as mem:
        names = {e.name: e for e in mem.entities()}
        assert "Maya" in names["Maya Okafor"].aliases and "Tomás" in names["Tomás Ferreira"].aliases
        assert names["Maya Okafor"].related[0][0] == "Sarah" and names["Maya Okafor"].related[0][1] >= 4
        profile = mem.profile("MAYA")
        assert profile["name"] == "Maya Okafor" and "bullet points" in profile["profile"]
        with pytest.raises(KeyError, match="no entity named 'Nobody'"):
            mem.profile("Nobody")


def test_cli_history_entities_profile_and_recall_show_the_correction(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    runner = CliRunner()
    env = {"EPISODIC_MODELS__EMBEDDER": "off"}
    result = runner.invoke(main, ["ingest", "--db", db, str(sample_path())], env=env)
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["recall", "--db", db, "how many slides does the deck need", "--json"], env=env)
    hits = json.loads(result.output)
    assert any(h["kind"] == "fact" and h["text"].endswith("(previously: 12)") for h in hits[:5])
    facts = json.loads(runner.invoke(main, ["facts", "--db", db, "--type", "correction", "--json"], env=env).output)
    fact_id = next(f["id"] for f in facts if "14 slides" in f["text"])
    history = runner.invoke(main, ["history", "--db", db, str(fact_id)], env=env)
    assert history.exit_code == 0 and "previously" in history.output and "12 slides" in history.output
    assert runner.invoke(main, ["history", "--db", db, "99999"], env=env).exit_code == 2
    entities = json.loads(runner.invoke(main, ["entities", "--db", db, "--json"], env=env).output)
    assert entities[0]["name"] == "Maya Okafor"
    profile = runner.invoke(main, ["profile", "--db", db, "tomás"], env=env)
    assert profile.exit_code == 0 and "Tomás Ferreira" in profile.output
    assert runner.invoke(main, ["profile", "--db", db, "nobody"], env=env).exit_code == 2
    stats = json.loads(runner.invoke(main, ["stats", "--db", db, "--json"], env=env).output)
    assert stats["routes"]["durable"] > 0 and stats["facts"] > 0


def test_unknown_kind_is_a_clear_error() -> None:
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem, pytest.raises(ValueError, match="unknown kind"):
        mem.recall("anything", kind="nope")


CANARY = "Zqxvortex"


def test_forget_reaches_facts_entities_and_their_index(tmp_path: Path) -> None:
    db_path = tmp_path / "m.db"
    with Memory(db_path, embedder=HashingEmbedder()) as mem:
        mem.add_turn("user", f"We decided to hire {CANARY} Okafor as our data engineer.", session_id="a")
        mem.add_turn("user", "I prefer bullet points over long paragraphs.", session_id="b")
        mem.end_session("a")
        mem.end_session("b")
        assert any(CANARY in e.name for e in mem.entities())
        assert mem.recall(CANARY, kind="fact")
        mem.forget(session_id="a")
        assert mem.recall(CANARY, kind="fact") == [] and not any(CANARY in e.name for e in mem.entities())
        assert len(mem.facts()) == 1 and mem.store.vector_counts(mem.user_id)
        blobs = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
        assert CANARY.encode() not in blobs and CANARY.lower().encode() not in blobs
        mem.forget(all=True)
        assert mem.facts() == [] and mem.entities() == [] and mem.stats()["routes"] == {}


def test_facts_stored_without_an_embedder_get_vectors_later(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        mem.add_turn("user", "We decided to migrate the analytics pipeline to Airflow.", session_id="a")
        mem.end_session("a")
    embedder = HashingEmbedder()
    with Memory(db, embedder=embedder) as mem:
        assert mem.index() == 2  # the turn and the fact
        counts = mem.store.vector_counts(mem.user_id)
        assert counts == {embedder.model_id: 2}
        hit = mem.recall("migrate the pipeline to Airflow", kind="fact")[0]
        assert "dense" in hit.details["legs"]


def test_a_standing_instruction_surfaces_when_its_topic_comes_up() -> None:
    """"Always … when I ask about …" is a preference fact that applies to later questions on its topic: the
    standing bonus lifts it among turns that share more words with the question."""
    from episodic_memory.models.embedder import load_embedder

    embedder = load_embedder("default")
    positions = {}
    for bonus in (0.0, Config().retrieval.standing_bonus):
        # the ranks below were taken with the facts the rules keep; the learned models keep more of these plain
        # statements, and the instruction lands one place lower (3, still lifted from 4 by the bonus)
        with Memory(":memory:", embedder=embedder, config=Config(retrieval={"standing_bonus": bonus}, consolidation={"learned": False})) as mem:
            mem.add_turn("user", "Always include version numbers when I ask about software dependencies.",
                         session_id="a", timestamp="2026-01-05T10:00:00Z")
            mem.end_session("a")
            for i, text in enumerate(["We went hiking near Sintra, the trails were muddy.",
                                      "The project uses requests for HTTP and pandas for the reports.",
                                      "Lunch was at the bakery, the pastéis were still warm.",
                                      "Remind me to call the plumber about the kitchen sink.",
                                      "My sister is visiting from Porto next weekend.",
                                      "The project deadline depends on the client sign-off.",
                                      "Our project team meets on Mondays in the small room."]):
                mem.add_turn("user", text, session_id="b", timestamp=f"2026-03-0{i + 1}T10:00:00Z")
            mem.end_session("b")
            hits = mem.recall("Which packages does the project depend on?", k=10)
            positions[bonus] = next(i for i, h in enumerate(hits) if h.kind == "fact" and "version numbers" in h.text)
    # lifted above the episode and the fact about the project's packages, behind the two facts that share
    # "project" and "depend(s)" with the question (the ranks are asserted, not the near-ties of their scores,
    # which moved with the CPU the test ran on)
    assert positions[Config().retrieval.standing_bonus] <= 2 < 3 <= positions[0.0]


def _facts_after(first: str, then: str) -> dict[str, bool]:
    """Fact text -> current, after `first` and, days later, `then` (each a session of its own)."""
    with Memory(":memory:") as mem:
        mem.add_turn("user", first, session_id="a", timestamp="2026-01-05T10:00:00Z")
        mem.end_session("a")
        mem.add_turn("user", then, session_id="b", timestamp="2026-01-09T10:00:00Z")
        mem.end_session("b")
        mem.wait_for_consolidation()
        return {f.text: f.valid_to is None for f in mem.store.facts(mem.user_id, include_superseded=True)}


RULE = "Always show 3 options when I ask about restaurants."


@pytest.mark.parametrize("then", [
    "We ended up with 5 options when I asked about restaurants near the office.",
    "The restaurants I asked about had 5 options for vegetarians.",
])
def test_a_statement_sharing_a_rules_words_does_not_supersede_it(then: str) -> None:
    """A standing instruction holds until it is said again or corrected: a statement with its words and another
    number is news, not a new rule (the slot rules superseded the rule with it before)."""
    assert _facts_after(RULE, then)[RULE] is True


@pytest.mark.parametrize("then", [
    "Actually, show 5 options when I ask about restaurants, not 3.",
    "Always show 5 options when I ask about restaurants.",
    "From now on show 5 options when I ask about restaurants.",
])
def test_a_rule_said_again_or_corrected_is_superseded(then: str) -> None:
    assert _facts_after(RULE, then)[RULE] is False


def test_a_note_naming_the_old_value_in_brackets_is_a_correction_of_it() -> None:
    from episodic_memory.consolidate.supersede import has_change_cue, replaced_values
    said = "Updated: Zdeněk waters for me when I'm away (was Dohyun)"
    assert replaced_values(said).names == {"dohyun"} and has_change_cue(said)
    assert replaced_values("It was a good day (was it?)").empty()
    assert replaced_values("Latest on the procurement lead: Melisande replaces Pavlina.").names == {"pavlina"}
    assert not has_change_cue("We are replacing the boiler next month.")


def test_now_as_for_now_or_right_now_is_no_change() -> None:
    from episodic_memory.consolidate.supersede import has_change_cue
    assert has_change_cue("It's Pune now.") and has_change_cue("The venue is Pier Nine now.")
    assert not any(has_change_cue(t) for t in ("That's everything for now.", "I'm slammed right now.",
                                                 "We should be there by now.", "Never been better than just now."))


def test_an_instruction_on_quoted_material_is_a_request_whatever_its_verb() -> None:
    from episodic_memory.consolidate.durable import REQUEST_KIND, STATEMENT, sentence_kind
    for said in ("soften this: 'Cedric Abernathy, Larchmont Water has ignored 58 of our emails'",
                 "condense this for me: \"Silverbirch Pensions says 496 customers were affected\"",
                 "punch this up for me: 'We are the best bakery in town'"):
        assert sentence_kind(said) == REQUEST_KIND, said
    assert sentence_kind("Get this: we got the flat!") == STATEMENT   # news after a colon, not quoted material
