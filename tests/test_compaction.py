"""Session compaction (HOM): the pure plan, compact(), and augment(auto_compact=True)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from eval import compaction as bench

from lokulmem import LokulMem, ValidationError
from lokulmem.compaction import chunk_lines, message_tokens, plan_compaction


def _agent_history(turns: int) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    for step in (bench.turn(t) for t in range(turns)):
        history += [
            {"role": "user", "content": step["user"]},
            {"role": "assistant", "content": None, "tool_calls": [step["call"]]},
            {"role": "tool", "tool_call_id": step["call"]["id"], "content": step["result"]},
            {"role": "assistant", "content": step["reply"]},
        ]
    return history


def test_plan_keeps_system_and_recent_turns_and_never_splits_a_call() -> None:
    history = _agent_history(12)
    plan = plan_compaction(history, recent_budget=200)
    assert plan.head == history[:1]
    assert plan.older and plan.kept and plan.head + plan.older + plan.kept == history
    assert sum(message_tokens(m) for m in plan.kept[1:]) <= 200
    assert plan.kept[0]["role"] != "tool"  # a kept result keeps its call
    assert len(plan.tracks["action_taken"]) == len(plan.calls) == len(plan.tracks["tool_usage"]) // 2
    assert plan.tracks["action_taken"][0].startswith("get_weather(")
    assert next(t for t, _ in plan.user_messages) == history[1]["content"]


def test_anthropic_tool_blocks_are_read() -> None:
    history = [
        {"role": "user", "content": "Weather in Oslo?"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "tu1", "name": "weather", "input": {"c": "Oslo"}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu1", "content": "rain, 4C"}]},
        {"role": "assistant", "content": "Rain and 4C."},
        {"role": "user", "content": "Thanks"},
    ]
    plan = plan_compaction(history, recent_budget=5)
    assert [c.name for c in plan.calls] == ["weather"] and plan.calls[0].result == "rain, 4C"
    assert plan.tracks["action_taken"] == ['weather({"c": "Oslo"}) → rain, 4C']


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        ({"role": "tool", "tool_call_id": "nope", "content": "x"}, "history[1]"),
        ({"role": "tool", "content": "x"}, "history[1].tool_call_id"),
        ({"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]}, "history[1].tool_calls[0]"),
        ({"role": "assistant", "content": None, "tool_calls": "call"}, "history[1].tool_calls"),
    ],
)
def test_malformed_tool_messages_name_the_index_and_write_nothing(
    mem: LokulMem, bad: dict[str, Any], where: str
) -> None:
    mem.learn("I live in Oslo.")
    before = mem.manage().stats().total
    history = [{"role": "user", "content": "I have a cat named Mo."}, bad, *_agent_history(6)[1:]]
    with pytest.raises(ValidationError) as err:
        mem.compact(history, session_id="s", budget_tokens=100)
    assert err.value.item == where
    assert mem.manage().stats().total == before


def test_chunk_lines() -> None:
    assert chunk_lines(["aaaa", "bbbb", "cc"], 9) == ["aaaa\nbbbb", "cc"]
    assert chunk_lines(["x" * 10], 4) == ["xxxx", "xxxx", "xx"]
    assert chunk_lines([], 4) == []


def test_compact_saves_every_track_and_learns_the_facts(mem: LokulMem) -> None:
    history = _agent_history(15)
    result = mem.compact(history, session_id="agent", budget_tokens=600)
    assert result.compacted > 0 and result.tokens_after < result.tokens_before
    assert result.messages[0] == history[0] and result.messages[1]["content"] == result.summary
    assert result.summary.startswith("[Compacted history:")
    assert set(result.track_counts) == {"conversation", "tool_usage", "action_taken"}
    assert all(n > 0 for n in result.track_counts.values())
    artifacts = [mem.manage().get(i) for i in result.artifact_ids]
    assert {a.source for a in artifacts} == {"compaction"}
    assert {a.track for a in artifacts} == {"conversation", "tool_usage", "action_taken"}
    # The facts of the compacted user messages were learned and the summary lists some.
    facts = [mem.manage().get(i) for i in result.fact_ids]
    assert any("Karin" in f.content for f in facts) and "Karin" in result.summary
    # A tool result of a compacted turn is found by its arguments.
    step = bench.turn(1)
    hits = mem.manage().search(" ".join(str(v) for v in step["args"].values()))
    assert any(step["code"] in h.content for h in hits)
    # Nothing to compact: the history comes back as it was.
    same = mem.compact(history[:3], session_id="agent", budget_tokens=10_000)
    assert same.compacted == 0 and same.messages == history[:3] and not same.artifact_ids


def test_augment_auto_compacts_within_the_window(make_mem: Any) -> None:
    mem = make_mem(context_window_size=1500)
    history = _agent_history(30)
    result = mem.augment("What does my friend Karin do?", history, auto_compact=True, debug=True)
    assert result.compaction is not None and result.compaction.compacted > 0
    assert result.debug is not None and result.debug.stages[0].name == "compaction"
    assert result.debug.pipeline[0] == "compaction"
    budget = 1500 - mem.config.response_buffer
    assert sum(bench.prompt_tokens(m) for m in result.messages) <= budget
    assert "baker" in result.context  # the compacted fact is recalled
    # History that fits is not compacted.
    small = mem.augment("Hi there", history[:3], auto_compact=True)
    assert small.compaction is None


def test_a_long_agent_session_stays_in_budget_and_loses_nothing() -> None:
    """Short version of ``python -m eval.compaction`` (300 turns, 4k window)."""
    f = bench.run(60, 2048)
    assert f["largest_prompt"] <= f["budget"]
    assert f["compactions"] >= 2
    assert f["facts_found"] == 1.0 and f["tool_results_found"] == 1.0
    json.dumps(f)  # printable
