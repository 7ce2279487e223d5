"""The README's promises: its example and its commands run, CI runs its test command, it stays a user's document
of at most 150 lines, and every link of the README, the changelog and the guides leads to a file that exists."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from samurai.cli import main
from samurai.search.bots import LEVELS
from samurai_plugins.knizia.adapters.search_bots import BOT_NAMES

from helpers import ROOT, markdown_anchors

README = (ROOT / "README.md").read_text(encoding="utf-8")
SH_BLOCKS = re.findall(r"```sh\n(.*?)\n```", README, re.DOTALL)
COMMAND_LIST = [line for line in re.search(r"## Commands\s+```sh\n(.*?)```", README, re.DOTALL).group(1).splitlines()
                if line.strip()]
DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


def argv(line: str) -> list[str]:
    """A command line of the README as the arguments after ``samurai`` (comments dropped)."""
    words = shlex.split(line, comments=True)
    assert words[0] == "samurai", line
    return words[1:]


def listed(command: str) -> list[str]:
    (line,) = [line for line in COMMAND_LIST if argv(line)[0] == command]
    return argv(line)


def help_text(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*args, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


@pytest.fixture
def examples_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding a copy of docs/examples, so commands run as written and write only there."""
    shutil.copytree(ROOT / "docs" / "examples", tmp_path / "docs" / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_readme_embedding_example_runs(capsys):
    example = re.search(r"## Embedding\s+```python\n(.*?)```", README, re.DOTALL).group(1)
    exec(compile(example, "README.md", "exec"), {})
    assert len(capsys.readouterr().out.strip().splitlines()) == 2  # winners and reason; explanation


def test_the_readme_opens_with_the_simulate_and_test_commands():
    assert "samurai simulate" in SH_BLOCKS[0] and "pip install ." in SH_BLOCKS[0]
    assert "pytest" in SH_BLOCKS[1]


def test_ci_runs_the_readme_test_command():
    assert SH_BLOCKS[1] in (ROOT / ".ci" / "run").read_text()


def test_ci_runs_the_release_commands_of_the_native_guide():
    guide = (ROOT / "docs" / "native.md").read_text(encoding="utf-8")
    block = re.search(r"### A release\n.*?```sh\n(.*?)```", guide, re.DOTALL).group(1)
    # Each command as one line; CI installs the release extra's tools alone, the project being installed already.
    commands = [" ".join(line.split("#")[0].split()) for line in block.replace("\\\n", " ").splitlines()][1:]
    ci = " ".join((ROOT / ".ci" / "run").read_text().replace("\\\n", " ").split())
    assert commands and [command for command in commands if command not in ci] == []


def test_the_set_up_command_simulates_the_default_edition(capsys):
    command = SH_BLOCKS[0].split(".venv/bin/samurai", 1)[1]
    # The same command on 20 games in this process: the last --games and --workers given win.
    assert main([*shlex.split(command), "--games", "20", "--workers", "1"]) == 0
    assert "ffg2015: 4 players, 20 games, seed 1" in capsys.readouterr().out


def test_the_command_list_has_one_line_for_every_command(capsys):
    commands = re.findall(r"^    (\S+)", help_text(capsys).split("commands:", 1)[1], re.MULTILINE)
    assert sorted(argv(line)[0] for line in COMMAND_LIST) == sorted(commands)


@pytest.mark.parametrize("line", COMMAND_LIST, ids=lambda line: argv(line)[0])
def test_every_option_in_the_command_list_is_one_its_command_takes(capsys, line):
    words = argv(line)
    options = {word.split("=", 1)[0] for word in words if word.startswith("--")}
    usage = help_text(capsys, words[0])
    assert {option for option in options if not re.search(rf"{option}(?![\w-])", usage)} == set()


@pytest.mark.parametrize("command", ["replay", "render", "play-scenario", "score", "editions", "new-edition"])
def test_the_quick_commands_of_the_list_run_as_written(capsys, examples_folder, command):
    assert main(listed(command)) == 0
    assert capsys.readouterr().out.strip()


def test_render_of_the_list_writes_its_picture(examples_folder):
    assert main(listed("render")) == 0
    assert (examples_folder / "board.svg").read_text(encoding="utf-8").startswith("<?xml")


def test_simulate_compare_and_analyse_of_the_list_run_on_fewer_games(capsys, examples_folder):
    few = ["--games", "10", "--workers", "1"]
    assert main([*listed("simulate"), *few]) == 0
    assert (examples_folder / "run" / "run.json").is_file()
    assert main([*listed("compare"), *few]) == 0
    assert (examples_folder / "cmp.png").is_file()
    capsys.readouterr()
    assert main(listed("analyse")) == 0
    assert "ffg2015" in capsys.readouterr().out


def test_sweep_and_balance_of_the_list_run_on_fewer_games(capsys, examples_folder):
    few = ["--games", "8", "--workers", "1", "--no-progress"]
    assert main([*listed("sweep"), *few]) == 0
    assert (examples_folder / "sweep.png").is_file() and "changes?" in capsys.readouterr().out
    assert main([*listed("balance"), *few]) == 0
    assert "Each seat's share of the games won alone" in " ".join(capsys.readouterr().out.split())


def test_analyse_game_of_the_list_runs_on_a_smaller_budget(capsys, examples_folder):
    assert main([*listed("analyse-game"), "--bot", "mcts-replies:20"]) == 0
    assert (examples_folder / "report.html").is_file() and (examples_folder / "report.json").is_file()
    assert "mistakes by seat" in capsys.readouterr().out


def test_bench_of_the_list_runs_on_a_smaller_budget(capsys):
    assert main([*listed("bench"), "--simulations", "20", "--decisions", "1"]) == 0
    assert "sims/s" in capsys.readouterr().out


def test_the_bot_table_names_every_bot_and_what_each_level_plays():
    table = re.search(r"## Bots\n(.*?)\n## ", README, re.DOTALL).group(1)
    rows = {row.split("|")[1].strip(): row for row in table.splitlines() if row.startswith("| `")}
    names = {name.replace("<simulations>", "N").replace("<seconds>s", "Xs") for name in BOT_NAMES}
    shown = {name.strip(" `") for row in rows for name in row.split(",")}
    assert shown == names
    for level, bot in LEVELS.items():
        assert f"`{bot}`" in rows[f"`{level}`"]


def test_the_readme_is_a_users_document():
    lines = README.splitlines()
    assert len(lines) <= 150
    assert not re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", README)  # no commit hashes
    assert not re.search(r"load average|branch|experiment", README, re.IGNORECASE)


def test_the_readme_links_every_guide():
    for guide in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "CHANGELOG.md"]:
        assert f"]({guide.relative_to(ROOT).as_posix()})" in README, guide.name


def anchors(document: Path) -> set[str]:
    """The anchors of a document outside its code blocks: its headings' (as GitHub gives them) and its explicit ones."""
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.DOTALL)
    return set(markdown_anchors(text))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_link_leads_to_a_file_and_heading_that_exist(document):
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.DOTALL)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in anchors(linked)):
            broken.append(target)
    assert broken == []
