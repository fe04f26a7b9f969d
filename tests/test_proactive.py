"""Proactive memory: the urgency curve, events read against the time they were
said, and the push on a conversation's first turn, with an injectable clock."""

import datetime as dt

import pytest

from lokulmem import Config, LokulMem, ManualClock, ValidationError
from lokulmem.proactive import upcoming, urgency
from lokulmem.records import Memory

MONDAY = int(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC).timestamp() * 1000)
DAY = 86_400_000


def test_urgency_is_a_sigmoid_centred_ahead_of_the_event() -> None:
    cfg = Config()
    assert urgency(cfg.proactive_lead_days, cfg) == pytest.approx(0.5)
    assert urgency(0.0, cfg) > urgency(1.0, cfg) > urgency(3.0, cfg) > 0
    assert urgency(1e9, cfg) == pytest.approx(0.0) and urgency(-1e9, cfg) == pytest.approx(1.0)


def test_upcoming_reads_the_event_against_when_it_was_said() -> None:
    cfg = Config()
    m = Memory(
        id="m",
        content="User needs to finish the report for Friday.",
        source_text="I need to finish the report for Friday.",
        types=("temporal",),
        created_at=MONDAY,
        event_at=MONDAY + 5 * DAY,
    )
    thursday = upcoming(m, MONDAY + 3 * DAY, cfg)
    assert thursday is not None and thursday.days_to_event == pytest.approx(0.625)
    assert thursday.score > cfg.proactive_threshold
    monday = upcoming(m, MONDAY, cfg)
    assert monday is not None and monday.score < 0.05
    assert upcoming(m, MONDAY + 5 * DAY, cfg) is None  # Saturday: over
    assert upcoming(m.replace(event_at=None), MONDAY, cfg) is None
    assert upcoming(m.replace(status="archived"), MONDAY, cfg) is None


def _store(make_mem) -> tuple[LokulMem, ManualClock]:  # type: ignore[no-untyped-def]
    clock = ManualClock()
    clock.set(MONDAY)
    mem = make_mem(clock=clock)
    mem.learn("I need to finish the board report for Friday.")
    mem.learn("I love hiking in the Alps.")
    return mem, clock


def test_a_deadline_said_on_monday_is_pushed_on_thursday_not_after_friday(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem, clock = _store(make_mem)
    pushed: dict[str, bool] = {}
    for day in ("mon", "tue", "wed", "thu", "fri", "sat"):
        r = mem.augment("Good morning!", debug=True)
        assert r.debug is not None
        pushed[day] = any("board report" in u.memory.content for u in r.debug.proactive_injected)
        assert pushed[day] == ("board report" in r.context)
        clock.advance(days=1)
    assert pushed == {"mon": False, "tue": False, "wed": False, "thu": True, "fri": True, "sat": False}


def test_only_the_first_turn_pushes_unless_asked(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem, clock = _store(make_mem)
    clock.advance(days=3)  # Thursday
    history = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}]
    later = mem.augment("How are you?", history, debug=True)
    assert later.debug is not None and later.debug.proactive_injected == ()
    forced = mem.augment("How are you?", history, debug=True, include_proactive=True)
    assert forced.debug is not None and len(forced.debug.proactive_injected) == 1
    off = mem.augment("Good morning!", debug=True, include_proactive=False)
    assert off.debug is not None and off.debug.proactive_injected == ()
    assert "proactive" not in off.debug.pipeline
    line = forced.context.splitlines()[1]
    assert line.startswith("• User") and "upcoming: 2026-12-04" in line
    with pytest.raises(ValidationError, match="include_proactive"):
        mem.augment("hi", include_proactive="yes")  # type: ignore[arg-type]


def test_get_upcoming_lists_events_soonest_first(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem, _ = _store(make_mem)
    mem.learn("We fly to Rome next month.")
    mem.learn("My dentist appointment is tomorrow.")
    soon = mem.manage().get_upcoming()
    assert len(soon) == 3  # the dentist, the report, Rome
    assert [u.event_start for u in soon] == sorted(u.event_start for u in soon)
    assert "dentist" in soon[0].memory.content
    assert all(u.days_to_event <= mem.config.proactive_window_days for u in soon)
    assert mem.manage().get_upcoming(within_days=0.5) == [u for u in soon if u.days_to_event <= 0.5]
    with pytest.raises(ValidationError):
        mem.manage().get_upcoming(within_days=-1)


def test_a_push_is_not_repeated_within_the_quiet_hours(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem, clock = _store(make_mem)
    clock.advance(days=3)  # Thursday 09:00
    preview = mem.manage().get_injection_preview("Good morning!")
    assert "board report" in preview.context  # a preview shows the push and records nothing
    assert "board report" in mem.augment("Good morning!").context
    clock.advance(hours=2)
    assert "board report" not in mem.augment("Hello again!").context
    clock.advance(hours=mem.config.proactive_repeat_hours)
    assert "board report" in mem.augment("Back at my desk.").context
