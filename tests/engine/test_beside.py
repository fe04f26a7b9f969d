"""Reads beside the embedding (``lokulmem._engine.beside``): a helper thread when
on, the caller's thread (once, when asked) when off or closed; same values."""

from __future__ import annotations

import threading

import pytest

from lokulmem._engine.beside import Beside


def _thread_name() -> str:
    return threading.current_thread().name


def test_on_runs_on_the_helper_thread() -> None:
    beside = Beside(True)
    name, ran_beside = beside.run(_thread_name).result()
    assert ran_beside and name.startswith("lokulmem-recall")
    beside.shutdown()


def test_off_runs_once_on_the_callers_thread_when_asked() -> None:
    calls: list[str] = []

    def read() -> None:
        calls.append(_thread_name())

    pending = Beside(False).run(read)
    assert calls == []  # nothing runs before the result is asked for
    assert pending.result() == (None, False)
    assert pending.result() == (None, False)  # a None result is still run once
    assert calls == [_thread_name()]


def test_after_shutdown_reads_run_inline() -> None:
    beside = Beside(True)
    beside.run(_thread_name).result()
    beside.shutdown()
    name, ran_beside = beside.run(_thread_name).result()
    assert not ran_beside and name == _thread_name()


@pytest.mark.parametrize("enabled", [True, False])
def test_an_error_in_the_read_reaches_the_caller(enabled: bool) -> None:
    def broken() -> int:
        raise RuntimeError("disk gone")

    beside = Beside(enabled)
    with pytest.raises(RuntimeError, match="disk gone"):
        beside.run(broken).result()
    beside.shutdown()
