"""``lokulmem demo``: two scripted sessions three days apart, then a question.

Shows what was learned from each sentence, the contradictions resolved, and
the messages ``augment()`` builds with each injected memory's score and reason.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from .. import __version__
from ..client import LokulMem
from ..clock import ManualClock, SystemClock
from ..records import SCORE_PARTS, LearnResult
from ..storage import default_store_path

__all__ = ["DEMO_STORE", "QUESTION", "SESSION_1", "SESSION_2", "demo", "demo_command"]

DEMO_STORE = "lokulmem_demo"

SESSION_1 = [
    ("Hi! My name is Alex and I live in Berlin.", "Nice to meet you, Alex!"),
    ("I work at Acme Corp as a product manager.", "Sounds like a busy role."),
    ("I prefer light mode in every editor.", "Noted."),
    ("My sister Maya is a doctor in Hamburg.", "That's lovely."),
    ("I'm preparing a board presentation for next Friday.", "Good luck with it!"),
]
SESSION_2 = [
    ("I prefer dark mode now, my eyes hurt at night.", "Dark mode it is."),
    ("I used to live in Berlin, but now I live in Lisbon.", "Lisbon is beautiful."),
    ("I'm no longer at Acme Corp.", "What's next for you?"),
]
QUESTION = "Where do I live now, and could my sister visit me this weekend?"


def _print_learn(user: str, result: LearnResult) -> None:
    print(f"  user: {user}")
    for d in result.decisions:
        mark = {"stored": "+", "contradiction": "!", "reinforced": "="}.get(d.outcome, " ")
        print(f"    {mark} {d.outcome:<15} E={d.score:.2f}  {d.content}  {list(d.types)}")
    for ev in result.contradictions:
        extra = f" (marker: {ev.temporal_marker_detected!r})" if ev.temporal_marker_detected else ""
        print(f"    ↳ {ev.resolution}{extra}: “{ev.existing.content}” → “{ev.incoming.content}”")


def demo(path: Path | None, keep: bool) -> int:
    store = path or default_store_path(DEMO_STORE)
    if not keep:
        for suffix in ("", "-wal", "-shm"):
            Path(str(store) + suffix).unlink(missing_ok=True)
    clock = ManualClock(SystemClock().now_ms())
    started = time.perf_counter()
    with LokulMem(path=store, clock=clock) as memory:
        print(f"lokulmem {__version__} demo — store: {memory.location}")
        print(f"init (model + store): {(time.perf_counter() - started) * 1000:.0f} ms\n")
        print("Session 1")
        for user, reply in SESSION_1:
            _print_learn(user, memory.learn(user, reply, session_id="demo-session-1"))
        clock.advance(days=3)
        print("\nSession 2 (three days later)")
        for user, reply in SESSION_2:
            _print_learn(user, memory.learn(user, reply, session_id="demo-session-2"))

        print("\nWhat the store holds now:")
        for m in memory.manage().list():
            state = m.status if m.valid_to is None or m.status != "active" else "active, valid_to set"
            print(f"  [{state:<20}] {m.content}")

        history = [{"role": "system", "content": "You are a helpful travel assistant."}]
        result = memory.augment(QUESTION, history, debug=True)
        print(f"\naugment({QUESTION!r}) → messages sent to the LLM:")
        for msg in result.messages:
            print(f"--- {msg['role']} ---\n{msg['content']}")
        dbg = result.debug
        assert dbg is not None
        print(f"\nWhy each memory was injected (R = {' + '.join(SCORE_PARTS)}):")
        for inj in dbg.injected:
            parts = " + ".join(f"{getattr(inj.score_breakdown, p):.3f}" for p in SCORE_PARTS)
            print(
                f"  #{inj.injection_rank} R={inj.score:.3f} = {parts}"
                f"  {inj.memory.content}\n"
                f"      reason: {inj.reason}; evidence {inj.evidence or 0.0:.2f}"
            )
        for cand in dbg.candidates:
            if not cand.injected:
                print(
                    f"  not injected ({cand.excluded_reason}): R={cand.score:.3f},"
                    f" evidence {cand.evidence or 0.0:.2f}  {cand.memory.content}"
                )
        print(
            f"\ntokens used {dbg.tokens_used} of {dbg.tokens_available} available;"
            f" strategy {dbg.retrieval_strategy} ({dbg.search_mode});"
            f" embedding {dbg.embedding_latency_ms:.1f} ms, retrieval {dbg.retrieval_latency_ms:.1f} ms"
        )
    return 0


@click.command("demo")
@click.option(
    "--path",
    type=click.Path(dir_okay=False, path_type=Path),
    help=f"Store file (default: the {DEMO_STORE!r} store).",
)
@click.option("--keep", is_flag=True, help="Keep the existing demo store instead of starting afresh.")
def demo_command(path: Path | None, keep: bool) -> None:
    """Play two sessions into a fresh store and show what was learned and injected."""
    demo(path, keep)
