"""Every command and option of ``lokulmem`` is documented in docs/cli.md (as
sqlite-utils does): a new command or option without docs fails here."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from lokulmem.cli import cli

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
SHARED = {"--path", "--store", "--json", "--ask-passphrase", "--help", "-h"}


def section(name: str) -> str:
    heading = f"### `lokulmem {name}`"
    assert heading in DOCS, f"docs/cli.md has no section {heading}"
    start = DOCS.index(heading) + len(heading)
    following = DOCS.find("\n### ", start)
    return DOCS[start : following if following != -1 else None]


def long_options(command: click.Command) -> set[str]:
    names: set[str] = set()
    for param in command.params:
        if isinstance(param, click.Option):
            names.update(o for o in (*param.opts, *param.secondary_opts) if o.startswith("--"))
    return names


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_command_and_its_options_are_documented(name: str) -> None:
    text = section(name)
    missing = sorted(o for o in long_options(cli.commands[name]) - SHARED if o not in text)
    assert not missing, f"docs/cli.md section {name} does not mention {missing}"


def test_the_shared_options_are_documented_once() -> None:
    table = DOCS[: DOCS.index("## Exit codes")]
    assert all(f"`{o}" in table for o in SHARED - {"--help", "-h"})


def test_the_docs_describe_no_command_that_does_not_exist() -> None:
    documented = set(re.findall(r"^### `lokulmem (\S+)`", DOCS, flags=re.MULTILINE))
    assert documented == set(cli.commands)


def test_the_readme_command_lines_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import shlex

    from test_cli_commands import TRANSCRIPT

    from lokulmem.cli import main

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = readme[readme.index("## From the command line") :]
    block = block[block.index("```bash\n") + 8 : block.index("```", block.index("```bash\n") + 8)]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "chat.json").write_text(json.dumps(TRANSCRIPT))
    for line in block.strip().splitlines():
        argv = shlex.split(line, comments=True)
        assert argv[0] == "lokulmem"
        assert main(argv[1:]) == 0, line
    out = capsys.readouterr().out
    assert "User lives in Lisbon" in out and (tmp_path / "dump.json").exists()
