"""Every ```python block of README.md and docs/*.md runs as written, and the README's and docs/embedding.md's examples
pass ``mypy --strict`` (issue 38, point 6): a document's examples are whole programs a reader can copy.

Each document's blocks run in order, each a script in a fresh interpreter, in one temporary folder holding a copy
of ``docs/`` (the files the examples name, as from the repository's root): a block that needs a file or a server
makes it itself, or finds it made by an earlier block of the same document. Every run has a bound.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, packages_view

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TYPED = [ROOT / "README.md", ROOT / "docs" / "embedding.md"]
"""The documents whose examples are the typed public API's showcase: ``mypy --strict`` passes them as written."""


def python_blocks(document: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", document.read_text(encoding="utf-8"), re.DOTALL)


def test_the_documents_have_python_examples_and_the_bots_guide_shows_a_bots_move():
    assert sum(len(python_blocks(document)) for document in DOCUMENTS) >= 14
    (bots,) = [document for document in DOCUMENTS if document.name == "bots.md"]
    assert any("bot.choose(game)" in block and "samurai.bot(" in block for block in python_blocks(bots))


@pytest.mark.parametrize("document", [document for document in DOCUMENTS if python_blocks(document)],
                         ids=lambda document: document.name)
def test_every_python_block_runs_as_written(tmp_path, document):
    shutil.copytree(ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("pictures"))
    for number, block in enumerate(python_blocks(document)):
        script = tmp_path / f"example_{number}.py"
        script.write_text(block, encoding="utf-8")
        done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == 0, f"{document.name}, python block {number + 1}:\n{done.stderr[-4000:]}"


def test_the_readme_and_embedding_examples_pass_mypy_strict(tmp_path):
    scripts = []
    for document in TYPED:
        for number, block in enumerate(python_blocks(document)):
            script = tmp_path / f"{document.stem.lower()}_example_{number}.py"
            script.write_text(block, encoding="utf-8")
            scripts.append(str(script))
    assert len(scripts) >= 5
    env = {**os.environ, "MYPYPATH": str(packages_view(tmp_path / "packages"))}
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", *scripts], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
