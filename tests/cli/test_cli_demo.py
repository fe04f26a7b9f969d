from pathlib import Path

import pytest

from lokulmem.cli import main


def test_demo_runs_and_explains(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--path", str(tmp_path / "demo.sqlite")]) == 0
    out = capsys.readouterr().out
    assert "conflict" in out and "temporal-coexistence" in out
    assert "[Memory Context — what you know about this user]" in out
    assert "reason:" in out and "tokens used" in out
    # The current home first, the old one after it as history.
    block = out[out.index("[Memory Context") : out.index("[End Memory Context]")]
    lisbon, berlin = (
        block.index("now User lives in Lisbon"),
        block.index("User lives in Berlin. (no longer current"),
    )
    assert lisbon < berlin and "sister Maya" in block


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("lokulmem ")
