"""The house's layout (docs/architecture.md): both games are peers under ``plugins/``, the framework holds no game,
Knizia's game is built in floors whose map is its package docstring, games import in one style, the old module names
still import for one release with a warning, and the packages pass ``mypy --strict`` as installed names.
"""

from __future__ import annotations

import ast
import importlib
import io
import os
import re
import subprocess
import sys
import tokenize
import tomllib
import warnings

import pytest

from helpers import ROOT, packages_view

KNIZIA = ROOT / "plugins" / "knizia"
FLOORS = ("core", "editions", "engine", "play", "adapters")


def test_the_framework_folder_holds_no_game():
    """Only the forwarding package of the old names is left where Knizia's game was."""
    games = {path.parent.name for path in (ROOT / "plugins").glob("*/plugin.py")}
    assert games == {"knizia", "daimyo"}
    assert sorted(p.name for p in (ROOT / "framework" / "samurai" / "knizia").iterdir()
                  if p.name != "__pycache__") == ["__init__.py"]


def test_knizias_package_docstring_is_the_map_of_every_module():
    import samurai_plugins.knizia as knizia

    doc = knizia.__doc__ or ""
    modules = sorted(p for p in KNIZIA.rglob("*.py") if p.name != "__init__.py" and "native" not in p.parts)
    assert len(modules) > 40
    missing = [str(p.relative_to(KNIZIA)) for p in modules if f"``{p.stem}``" not in doc]
    assert not missing, f"the map in samurai_plugins.knizia's docstring leaves out {missing}"
    for floor in FLOORS:
        assert f"``{floor}``" in doc
        floor_doc = ast.get_docstring(ast.parse((KNIZIA / floor / "__init__.py").read_text(encoding="utf-8")))
        assert floor_doc, f"the {floor} floor says what it holds"
    assert {p.parent.name for p in modules} == {*FLOORS, "knizia"}


def test_games_import_the_framework_and_themselves_by_absolute_names():
    """One import style for games: no relative import anywhere under plugins/."""
    relative = []
    for path in (ROOT / "plugins").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                relative.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not relative, relative


def test_the_entry_points_name_each_games_plugin_module_alike():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^knizia = "samurai_plugins\.knizia\.plugin"$', text, re.M)
    assert re.search(r'^daimyo = "samurai_plugins\.daimyo\.plugin"$', text, re.M)


@pytest.mark.parametrize(("old", "new"), [("samurai.knizia.game", "samurai_plugins.knizia.play.game"),
                                          ("samurai.knizia.engine", "samurai_plugins.knizia.engine.reference"),
                                          ("samurai.knizia.records", "samurai_plugins.knizia.play.record_files")])
def test_an_old_module_name_imports_the_new_module_with_a_deprecation_warning(old, new):
    code = (f"import warnings, importlib\nwarnings.simplefilter('error')\n"
            f"try:\n    importlib.import_module({old!r})\nexcept DeprecationWarning as warning:\n    print(warning)\n"
            f"warnings.simplefilter('ignore')\nimport {new}\n"
            f"assert importlib.import_module({old!r}) is {new}\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{old} moved to {new}; the old name goes in the next release"


def test_every_old_module_name_has_a_home():
    import samurai.knizia

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for old in samurai.knizia.MOVED_MODULES:
            if old != "_native":
                assert __import__(f"samurai.knizia.{old}", fromlist=["_"]).__name__.startswith("samurai_plugins")


def test_the_packages_pass_mypy_strict(tmp_path):
    """The framework and the games under their import names (pyproject's [tool.mypy] is strict)."""
    view = packages_view(tmp_path / "packages")
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(tmp_path / "cache"), "samurai", "samurai_plugins"],
                          cwd=view, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "MYPYPATH": ""})
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert re.search(r"no issues found in (\d+) source files", done.stdout)
    assert int(re.search(r"in (\d+) source files", done.stdout)[1]) > 140


DOTTED_NAME = re.compile(r"(?<![\w/.\-])(samurai(?:_plugins)?(?:\.[A-Za-z_]\w*)+)")
"""A module or attribute named in prose: ``samurai.runs.matches``, ``samurai_plugins.knizia.engine.reference``."""

NOT_MODULES = {"samurai.lan": "a host name in docs/http-api.md's example",
               "samurai.defaults": "the name the framework's default answers are registered under"}


def _resolves(name: str) -> bool:
    """Whether ``name`` is a module of the project, or an attribute reached from one, importing it if need be."""
    parts = name.split(".")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for cut in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for index in range(cut, len(parts)):
                if not hasattr(found, parts[index]):
                    try:  # a submodule not imported by its package
                        importlib.import_module(".".join(parts[:index + 1]))
                    except ImportError:
                        return False
                found = getattr(found, parts[index], None)
                if found is None:
                    return False
            return True
    return False


def _prose() -> list[tuple[str, str]]:
    """Where names are written in words: the docs, the README, and every docstring and comment of the framework, the
    games and the tests (not the CHANGELOG, which keeps history, nor the map of the old names to the new)."""
    texts = [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
             for path in [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]]
    shim = ROOT / "framework" / "samurai" / "knizia" / "__init__.py"
    for folder in ("framework", "plugins", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == shim:
                continue
            text = path.read_text(encoding="utf-8")
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    docstring = ast.get_docstring(node, clean=False)
                    if docstring:
                        texts.append((f"{where}:{getattr(node, 'lineno', 1)}", docstring))
            texts += [(f"{where}:{token.start[0]}", token.string)
                      for token in tokenize.generate_tokens(io.StringIO(text).readline)
                      if token.type == tokenize.COMMENT]
    return texts


def test_every_module_named_in_the_docs_docstrings_and_comments_exists():
    """Stale names cannot come back (issue 39, point 8): every dotted ``samurai`` or ``samurai_plugins`` name in
    the docs, docstrings and comments is a module or an attribute of one (or a package the wheel installs), and
    none is an old name under ``samurai.knizia`` outside the map of old names."""
    with open(ROOT / "pyproject.toml", "rb") as file:
        installed = set(tomllib.load(file)["tool"]["setuptools"]["packages"])
    stale = []
    for where, text in _prose():
        for match in DOTTED_NAME.finditer(text):
            name = match.group(1)
            if name.endswith((".md", ".toml", ".json", ".py", ".pyi", ".svg")) or name in NOT_MODULES:
                continue
            if name.startswith("samurai.knizia.") or not (name in installed or _resolves(name)):
                stale.append(f"{where}: {name}")
    assert stale == []


def test_the_name_check_tells_a_stale_name_from_a_real_one():
    assert _resolves("samurai.runs.summary.seat_table") and _resolves("samurai_plugins.knizia.engine.reference")
    assert not _resolves("samurai_plugins.knizia.native_engine") and not _resolves("samurai.runs.summary.nothing")
    assert [m.group(1) for m in DOTTED_NAME.finditer("see `samurai.files.reading`, docs/rules/samurai.md.")] == [
        "samurai.files.reading"]
