"""The seed's own quickstart, unchanged (issue 5), and its LLM seam example."""

from __future__ import annotations

import asyncio

from episodic_memory import llm


def test_the_seed_quickstart_runs_unchanged() -> None:
    import asyncio

    from episodic_memory import EpisodicInjector, get_store, retrieve
    from episodic_memory.pipeline import consolidate_buffer
    from episodic_memory.session_buffer import SessionBuffer
    buf = SessionBuffer("session-1")
    buf.append_turn("user", "The Series B deck needs 14 slides, Sarah confirmed.")
    buf.append_turn("assistant", "Noted — updating the outline to 14.")
    asyncio.run(consolidate_buffer(buf))
    facts = retrieve("how many slides in the deck", get_store(), k=5)
    ctx = EpisodicInjector().get_context("where were we on the deck?")

    assert facts and facts[0].kind == "fact" and "14 slides" in facts[0].text
    assert ctx.startswith("[Recalled context]") and "14 slides" in ctx


class MyBackend:
    def __init__(self) -> None:
        self.prompts: list[str] = []

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        self.prompts.append(system_prompt)
        if "fact extractor" in system_prompt:
            return '[{"text": "The Series B deck needs 14 slides", "type": "decision", "entities": ["Sarah"]}]'
        if "episode" in system_prompt.lower():
            return '{"summary": "Maya and the assistant fixed the Series B deck at 14 slides."}'
        return "[]"


def test_the_seed_llm_seam_example() -> None:
    from episodic_memory.pipeline import consolidate_buffer
    from episodic_memory.session_buffer import SessionBuffer

    backend = MyBackend()
    llm.set_backend(backend)
    try:
        buf = SessionBuffer("session-2")
        buf.append_turn("user", "The Series B deck needs 14 slides, Sarah confirmed.")
        added = asyncio.run(consolidate_buffer(buf))
        assert [f.text for f in added] == ["The Series B deck needs 14 slides"]
        assert any("fact extractor" in p for p in backend.prompts)
        assert llm.get_backend() is backend
    finally:
        llm.set_backend(None)
