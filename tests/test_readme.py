"""The README's promises: its embedding example runs, and CI runs its test command."""

from __future__ import annotations

import re

from helpers import ROOT

README = (ROOT / "README.md").read_text()


def test_the_readme_embedding_example_runs(capsys):
    example = re.search(r"## Embedding\s+```python\n(.*?)```", README, re.DOTALL).group(1)
    exec(compile(example, "README.md", "exec"), {})
    assert len(capsys.readouterr().out.strip().splitlines()) == 2  # winners and reason; explanation


def test_the_readme_opens_with_the_simulate_and_test_commands():
    commands = re.findall(r"```sh\n(.*?)\n```", README, re.DOTALL)
    assert "samurai simulate" in commands[0] and "pip install ." in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    test_command = re.findall(r"```sh\n(.*?)\n```", README, re.DOTALL)[1]
    assert test_command in (ROOT / ".ci" / "run").read_text()
