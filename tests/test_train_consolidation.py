"""bench/train_consolidation.py: `--verify` names the arrays a retrain does not reproduce; hand-written examples."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from bench.train_consolidation import (
    GENERIC_HEAD,
    WRITTEN,
    WRITTEN_DIR,
    WRITTEN_REPLIES_DIR,
    WRITTEN_REPLY_LABELS,
    Fitted,
    cross_validate,
    differing_heads,
    generic_examples,
    write_models,
    written_examples,
)


def _head(seed: int, width: int = 5) -> Fitted:
    rng = np.random.default_rng(seed)
    return Fitted(rng.normal(size=width).astype(np.float32), float(rng.normal()),
                  rng.normal(size=width).astype(np.float32), np.ones(width, np.float32))


def test_the_same_heads_are_reproduced(tmp_path: Path) -> None:
    heads = {"commitment": (_head(1), 0.67), "completion": (_head(2), 0.77)}
    shipped = tmp_path / "shipped.npz"
    write_models(shipped, {**heads, "closes": (_head(3), 0.9)}, "some-embedder", {"seeds": 12})
    assert differing_heads(shipped, heads) == []


def test_a_changed_weight_a_changed_line_and_a_missing_head_are_named(tmp_path: Path) -> None:
    shipped = tmp_path / "shipped.npz"
    write_models(shipped, {"commitment": (_head(1), 0.67), "completion": (_head(2), 0.77)}, "e")
    moved = _head(1)
    moved.weights[2] += np.float32(1e-6)
    assert differing_heads(shipped, {"commitment": (moved, 0.67)}) == ["commitment.weights"]
    assert differing_heads(shipped, {"completion": (_head(2), 0.78)}) == ["completion.threshold"]
    assert "durable.weights" in differing_heads(shipped, {"durable": (_head(4), 0.43)})



def test_written_sentences_teach_only_the_heads_their_label_names(tmp_path: Path) -> None:
    path = tmp_path / "life.jsonl"
    path.write_text('{"text": "need to ring the vet", "label": "todo", "kind": "casual"}\n\n'
                    '{"text": "the passports came back", "label": "done", "kind": "state"}\n'
                    '{"text": "I run best in the mornings", "label": "other", "kind": "habit"}\n')
    examples = written_examples([path], repeat=2)
    assert [e.text for e in examples][::2] == ["need to ring the vet", "the passports came back",
                                               "I run best in the mornings"]
    assert {e.bank for e in examples} == {WRITTEN}
    assert examples[0].labels == {"commitment": 1, "completion": 0}
    assert examples[2].labels == {"commitment": 0, "completion": 1}
    assert all("durable" not in e.labels and "change" not in e.labels for e in examples)


def test_a_generic_acknowledgement_teaches_every_reply_head_it_is_none_of_them(tmp_path: Path) -> None:
    path = tmp_path / "replies.jsonl"
    path.write_text('{"text": "Noted.", "label": "generic", "said": "my sister is a nurse"}\n'
                    '{"text": "Added to your list.", "label": "todo", "said": "I need to call the bank"}\n')
    generic, todo = written_examples([path], labels_of=WRITTEN_REPLY_LABELS)
    assert generic.labels == {"reply_todo": 0, "reply_done": 0, "reply_change": 0, GENERIC_HEAD: 1}
    assert todo.labels == {"reply_todo": 1, "reply_done": 0, "reply_change": 0, GENERIC_HEAD: 0}


def test_a_bad_written_line_is_named_by_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "fine", "label": "todo"}\n{"text": "what", "label": "maybe"}\n')
    with pytest.raises(SystemExit, match=r"bad\.jsonl:2: .*maybe"):
        written_examples([path])


def test_written_sentences_are_trained_on_in_every_fold_and_never_held_out() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 3)).astype(np.float32)
    y = (x[:, 0] > 0).astype(int)
    banks = np.array(["a"] * 20 + ["b"] * 20 + [WRITTEN] * 20)
    report, probabilities = cross_validate("commitment", x, y, banks)
    assert set(report.folds) == {"a", "b"} and set(probabilities) == {"a", "b"}


def test_the_shipped_written_files_parse_and_hold_every_label() -> None:
    sentences = written_examples(sorted(WRITTEN_DIR.glob("*.jsonl")))
    replies = written_examples(sorted(WRITTEN_REPLIES_DIR.glob("*.jsonl")), labels_of=WRITTEN_REPLY_LABELS)
    assert len(sentences) >= 800 and len(replies) >= 350
    assert {e.labels["commitment"] for e in sentences} == {0, 1}
    assert {e.labels["completion"] for e in sentences} == {0, 1}
    assert all(any(e.labels[h] for e in replies) for h in ("reply_todo", "reply_done", "reply_change"))


def test_bank_answers_are_labelled_generic_by_the_list_they_came_from() -> None:
    import importlib

    from bench.truthgen import utterances

    from episodic_memory.consolidate import learned

    convs = [utterances("dev", seed, 0) for seed in (1, 2)]
    examples = generic_examples(convs)
    ack = {learned.reply_opening(a) for a in importlib.import_module("banks.dev").ACK}
    generic = {e.text for e in examples if e.labels[GENERIC_HEAD]}
    telling = {e.text for e in examples if not e.labels[GENERIC_HEAD]}
    assert generic and telling and generic <= ack
    assert not telling & ack
    assert "Added to your list." in telling or "I'll keep that on your to-do list." in telling


@pytest.mark.parametrize("bank", ["untuned", "slack", "caregiver", "foreman"])
def test_the_measuring_banks_are_never_trained_on(bank: str, capsys: pytest.CaptureFixture[str]) -> None:
    from bench.train_consolidation import main

    with pytest.raises(SystemExit):
        main(["--banks", "dev", bank, "--no-write"])
    assert "never train on them" in capsys.readouterr().err
