"""Session compaction: a long agent session with tool calls through a small window.

    python -m eval.compaction [--turns 300] [--window 4096]

A deterministic agent session written by us (OpenAI format): every turn the
user says something (every third turn a fact about themselves: a pet, a
colleague, a city, a booking code…), the assistant calls a tool
(``get_weather``, ``search_flights``, ``lookup_order``) whose result carries a
unique value, then answers.  The app loop is the one the docs describe:
``augment(message, history, auto_compact=True)``, send ``result.messages``,
keep ``result.compaction.messages`` as the history when it compacted.

Printed: the largest prompt (tokens, ``message_tokens``) against the window
less the reply buffer; how many compactions ran; and, for every fact and tool
result of a compacted turn, whether a targeted query finds it afterwards
(facts: ``augment()`` on a question about it injects a memory with its value;
tool results: ``manage().search()`` for the call's arguments returns an
artifact holding the result).  Target: never over budget, 100% found.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from lokulmem import LokulMem, ManualClock
from lokulmem.retrieval.budget import default_token_counter, message_payload

from .common import emit, model, pct, table

CITIES = ["Lisbon", "Oslo", "Quito", "Hanoi", "Tunis", "Lima", "Perth", "Cork", "Riga", "Bern"]
#: Distinct friends (no two facts about the same slot, so none contradicts another).
FIRST = ["Ka", "Lo", "Mi", "Ta", "Ri", "Su", "Ve", "No", "Da", "Be"]
LAST = ["rin", "vik", "len", "dor", "sha", "mo", "tel", "pa", "ron", "zi"]
JOBS = ["baker", "pilot", "nurse", "welder", "judge", "florist", "geologist", "tailor", "chemist", "ranger"]


def fact(k: int) -> tuple[str, str, str]:
    """The k-th fact: (statement, a question about it, the value its answer names)."""
    name = FIRST[k % 10] + LAST[(k // 10) % 10]
    job = JOBS[(k * 3) % len(JOBS)]
    return f"My friend {name} works as a {job}.", f"What does my friend {name} do?", job


def turn(t: int) -> dict[str, Any]:
    """Turn ``t``: the user's message, the tool call and its result, the reply."""
    city = CITIES[t % len(CITIES)]
    tool = ("get_weather", "search_flights", "lookup_order")[t % 3]
    args = {"get_weather": {"city": city, "day": t}, "search_flights": {"to": city, "ref": f"T{t}"}}.get(
        tool, {"order": f"ORD-{1000 + t}"}
    )
    code = f"R{t:03d}X{(t * 7919) % 1000:03d}"
    stated = fact(t // 3) if t % 3 == 0 else None
    user = (stated[0] + " " if stated else "") + f"Can you check something for me about {city}? (turn {t})"
    return {
        "user": user,
        "fact": stated,
        "call": {
            "id": f"call_{t}",
            "type": "function",
            "function": {"name": tool, "arguments": json.dumps(args)},
        },
        "result": f"{tool} result for {json.dumps(args)}: confirmation {code}, status ok.",
        "code": code,
        "args": args,
        "reply": f"Done: I checked with {tool} and the confirmation is {code}.",
    }


def prompt_tokens(message: dict[str, Any]) -> int:
    """The PRD's estimate (``ceil(chars / 4)``) of what the model reads of a message,
    tool calls and results included: the measure ``augment()`` budgets with."""
    return default_token_counter(message_payload(message))


def run(turns: int, window: int) -> dict[str, Any]:
    mem = LokulMem(
        storage="memory",
        embedder=model(),
        clock=ManualClock(),
        executor="inline",
        context_window_size=window,
    )
    mem.init()
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful travel agent."}]
    worst = 0
    compactions = 0
    script = [turn(t) for t in range(turns)]
    for step in script:
        result = mem.augment(step["user"], history, auto_compact=True, session_id="agent")
        worst = max(worst, sum(prompt_tokens(m) for m in result.messages))
        if result.compaction is not None:
            compactions += 1
            history = list(result.compaction.messages)
        mem.learn(step["user"], step["reply"], session_id="agent")
        history += [
            {"role": "user", "content": step["user"]},
            {"role": "assistant", "content": None, "tool_calls": [step["call"]]},
            {"role": "tool", "tool_call_id": step["call"]["id"], "content": step["result"]},
            {"role": "assistant", "content": step["reply"]},
        ]
    facts_ok = facts_n = tools_ok = tools_n = 0
    missed: list[str] = []
    kept = {m.get("content") for m in history}
    compacted = [step for step in script if step["user"] not in kept]
    compacted_turns = len(compacted)
    for step in compacted:
        if step["fact"]:
            facts_n += 1
            _, question, value = step["fact"]
            injected = mem.augment(question)
            if value.lower() in injected.context.lower():
                facts_ok += 1
            else:
                missed.append(question)
        tools_n += 1
        query = " ".join(str(v) for v in step["args"].values())
        hits = mem.manage().search(query, limit=20)
        if any(step["code"] in m.content for m in hits):
            tools_ok += 1
        else:
            missed.append(query)
    mem.close()
    budget = window - mem.config.response_buffer
    return {
        "turns": turns,
        "window": window,
        "budget": budget,
        "largest_prompt": worst,
        "compactions": compactions,
        "compacted_turns": compacted_turns,
        "facts": facts_n,
        "facts_found": facts_ok / facts_n if facts_n else 1.0,
        "tool_results": tools_n,
        "tool_results_found": tools_ok / tools_n if tools_n else 1.0,
        "missed": missed[:10],
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m eval.compaction", description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--window", type=int, default=4096)
    args = parser.parse_args(argv)
    f = run(args.turns, args.window)
    table(
        ["turns", "window", "largest prompt", "budget", "compactions", "facts found", "tool results found"],
        [
            [
                f["turns"],
                f["window"],
                f["largest_prompt"],
                f["budget"],
                f["compactions"],
                f"{pct(f['facts_found'])} of {f['facts']}",
                f"{pct(f['tool_results_found'])} of {f['tool_results']}",
            ]
        ],
        title="Session compaction (auto_compact=True)",
    )
    if f["missed"]:
        print("  not found: " + " | ".join(f["missed"]))
    emit({"eval": "compaction", **f})


if __name__ == "__main__":
    main()
