"""The OpenAI Agents SDK session over a Memory, with the real `openai-agents` package (the `openai-agents` extra).

No model is called: a fake `Model` returns fixed responses, and the session contract is checked against the SDK's own
`SQLiteSession` doing the same things."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents", reason='the openai-agents extra is not installed: pip install ".[openai-agents]"')

from agents import Agent, Runner, SQLiteSession, function_tool, set_tracing_disabled  # noqa: E402
from agents.items import ModelResponse  # noqa: E402
from agents.memory import Session, SessionSettings  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.usage import Usage  # noqa: E402
from openai.types.responses import (  # noqa: E402
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from episodic_memory import AsyncMemory, Config, Memory  # noqa: E402
from episodic_memory.integrations.openai_agents import SOURCE, EpisodicSession  # noqa: E402

from .fakes import HashingEmbedder  # noqa: E402

set_tracing_disabled(True)

# one of each kind of item a run produces, as the SDK hands them to a session
ITEMS: list[Any] = [
    {"role": "user", "content": "The Series B deck needs 14 slides, Sarah confirmed."},
    {"id": "rs_1", "type": "reasoning", "summary": [{"type": "summary_text", "text": "Check the slide count."}]},
    {"arguments": '{"deck": "series-b"}', "call_id": "call_1", "name": "count_slides", "type": "function_call",
     "id": "fc_1", "status": "completed"},
    {"call_id": "call_1", "output": "12 slides so far", "type": "function_call_output"},
    {"id": "ws_1", "type": "web_search_call", "status": "completed",
     "action": {"type": "search", "query": "series b deck length"}},
    {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
     "content": [{"type": "output_text", "text": "Two slides to go: 14 in all.", "annotations": []}]},
    {"role": "user", "content": [{"type": "input_text", "text": "Here is the cover"},
                                 {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=",
                                  "detail": "auto"}]},
    {"role": "developer", "content": "Answer in one sentence."},
]


class FixedModel(Model):
    """Answers each call with the next of `outputs`; keeps the input of every call."""

    def __init__(self, outputs: list[list[Any]]) -> None:
        self.outputs = list(outputs)
        self.inputs: list[Any] = []

    async def get_response(self, system_instructions: Any, input: Any, model_settings: Any, tools: Any,
                           output_schema: Any, handoffs: Any, tracing: Any, *, previous_response_id: Any,
                           conversation_id: Any, prompt: Any) -> ModelResponse:
        self.inputs.append(input)
        return ModelResponse(output=self.outputs.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


def said(text: str, n: int) -> list[Any]:
    return [ResponseOutputMessage(id=f"msg_{n}", type="message", role="assistant", status="completed",
                                  content=[ResponseOutputText(type="output_text", text=text, annotations=[])])]


@function_tool
def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"18°C and sunny in {city}"


def _memory(db_path: Path, **config: object) -> AsyncMemory:
    return AsyncMemory(db_path, config=Config(**config), embedder=HashingEmbedder(dim=128))


def test_the_session_contract_matches_the_sdks_own(tmp_path: Path) -> None:
    async def run(session: Any) -> list[Any]:
        seen: list[Any] = [await session.get_items(), await session.pop_item()]
        await session.add_items(ITEMS[:3])
        await session.add_items(ITEMS[3:])
        await session.add_items([])
        seen += [await session.get_items(), await session.get_items(limit=3), await session.get_items(limit=0)]
        seen += [await session.pop_item(), await session.pop_item(), await session.get_items()]
        await session.clear_session()
        seen += [await session.get_items(), await session.pop_item()]
        await session.add_items(ITEMS[:1])
        seen.append(await session.get_items())
        return seen

    async def main() -> tuple[list[Any], list[Any]]:
        theirs = await run(SQLiteSession("chat-1"))
        async with _memory(tmp_path / "m.db") as mem:
            session = EpisodicSession("chat-1", mem)
            assert isinstance(session, Session)
            return await run(session), theirs

    ours, theirs = asyncio.run(main())
    assert ours == theirs
    assert ours[2] == ITEMS and ours[3] == ITEMS[-3:] and ours[5] == ITEMS[-1]


def test_items_land_as_turns(tmp_path: Path) -> None:
    async def main() -> None:
        async with _memory(tmp_path / "m.db") as mem:
            session = EpisodicSession("chat-1", mem)
            await session.add_items(ITEMS)
            turns = await mem.session_turns("chat-1")
            assert all(t.source == SOURCE for t in turns)
            assert [(t.role, t.content) for t in turns] == [
                ("user", "The Series B deck needs 14 slides, Sarah confirmed."),
                ("tool", "reasoning: Check the slide count."),
                ("tool", 'called count_slides({"deck": "series-b"})'),
                ("tool", "count_slides returned: 12 slides so far"),
                ("tool", 'web_search_call: {"action": {"type": "search", "query": "series b deck length"}}'),
                ("assistant", "Two slides to go: 14 in all."),
                ("user", "Here is the cover\n[image]"),
                ("system", "Answer in one sentence."),
            ]
            await mem.add_turn("user", "A turn from another door", session_id="chat-1")
            assert (await session.get_items(limit=1)) == [{"role": "user", "content": "A turn from another door"}]

    asyncio.run(main())


def test_long_items_are_cut_in_their_turns_and_kept_whole(tmp_path: Path) -> None:
    long_output = {"call_id": "c", "output": "x" * 500, "type": "function_call_output"}
    long_message = {"role": "user", "content": "y" * 500}

    async def main() -> None:
        async with _memory(tmp_path / "m.db", capture={"agent_item_summary_chars": 20, "max_turn_chars": 100}) as mem:
            session = EpisodicSession("chat-1", mem)
            await session.add_items([long_output, long_message])
            assert [t.content for t in await mem.session_turns("chat-1")] == ["a tool returned: xx…", "y" * 100]
            assert await session.get_items() == [long_output, long_message]

    asyncio.run(main())


def test_a_runner_keeps_the_conversation_and_feeds_memory(tmp_path: Path) -> None:
    model = FixedModel([
        said("Noted: the deck needs 14 slides.", 1),
        [ResponseFunctionToolCall(id="fc_1", type="function_call", call_id="call_1", name="get_weather",
                                  arguments='{"city": "Lisbon"}', status="completed")],
        said("It is 18°C in Lisbon.", 2),
    ])
    agent = Agent(name="assistant", instructions="Be brief.", model=model, tools=[get_weather])

    async def main() -> None:
        async with _memory(tmp_path / "m.db") as mem:
            session = EpisodicSession("chat-1", mem, user_id="maya")
            first = await Runner.run(agent, "The Series B deck needs 14 slides, Sarah confirmed.", session=session)
            second = await Runner.run(agent, "What's the weather in Lisbon?", session=session)
            assert first.final_output == "Noted: the deck needs 14 slides."
            assert second.final_output == "It is 18°C in Lisbon."
            # the second run's model saw the first exchange: the history came from the store
            history = model.inputs[1]
            assert history[0] == {"content": "The Series B deck needs 14 slides, Sarah confirmed.", "role": "user"}
            assert history[1]["content"][0]["text"] == "Noted: the deck needs 14 slides."
            assert history[2] == {"content": "What's the weather in Lisbon?", "role": "user"}
            turns = await mem.session_turns("chat-1", user_id="maya")
            assert [t.role for t in turns] == ["user", "assistant", "user", "tool", "tool", "assistant"]
            assert turns[4].content == "get_weather returned: 18°C and sunny in Lisbon"
            hits = await mem.recall("how many slides does the deck need", user_id="maya", kind="turn")
            assert hits and "14 slides" in hits[0].text and hits[0].session_id == "chat-1"
            await session.end()
            await mem.wait_for_consolidation("chat-1", user_id="maya")
            info = await mem.session("chat-1", user_id="maya")
            assert info is not None and info.status == "ended" and info.consolidated_turns == info.turn_count == 6
        # a new process (a new Memory on the file) carries on the same conversation
        with Memory(tmp_path / "m.db", embedder=HashingEmbedder(dim=128)) as again:
            items = await EpisodicSession("chat-1", again, user_id="maya").get_items()
            assert len(items) == 6 and items[3]["type"] == "function_call"  # type: ignore[typeddict-item]

    asyncio.run(main())


def test_session_settings_and_forgetting(tmp_path: Path) -> None:
    async def main() -> None:
        async with _memory(tmp_path / "m.db") as mem:
            session = EpisodicSession("chat-1", mem, session_settings=SessionSettings(limit=2))
            await session.add_items(ITEMS)
            assert await session.get_items() == ITEMS[-2:]
            assert await session.get_items(limit=5) == ITEMS[-5:]
            await session.end()
            await mem.forget(session_id="chat-1")  # forgetting the session reaches the items
            assert await session.get_items() == []
            with pytest.raises(ValueError, match="session_id"):
                EpisodicSession("", mem)

    asyncio.run(main())
