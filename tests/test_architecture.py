"""The import graph of the framework and the games, read statically (every import, those under TYPE_CHECKING and
inside functions included), and what importing the framework loads (issue 21, point 3; docs/architecture.md).

There is no import cycle anywhere, nor a module cycle in Knizia's native crate (whose pure-Rust modules never use its
Python binding, ``src/python/``, and whose one ``#[pymodule]`` names the binding's files); no framework module imports
a game (the front door, ``samurai/__init__.py``, re-exports the reference game's names lazily and is the one
exception); Knizia's game (``samurai_plugins.knizia``) and
Daimyo (``samurai_plugins.daimyo``) import nothing of each other; ``import samurai``, ``import samurai.protocol``
and ``import samurai_plugins.daimyo`` load no module of Knizia's game.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ((ROOT / "framework" / "samurai", "samurai"), (ROOT / "plugins", "samurai_plugins"))

FLOOR = ("samurai.files.writing", "samurai.data", "samurai.errors", "samurai.interrupts", "samurai.lifelines",
         "samurai.search.mcts", "samurai.protocol", "samurai.runs.ratings", "samurai.runs.folders", "samurai.seeds",
         "samurai.runs.statistics",
         "samurai.files.svg", "samurai.files.reading", "samurai.runs.workerpool")
"""The framework modules below every game: none of them may reach a game's module through any chain of imports."""


def _modules() -> dict[str, Path]:
    found = {}
    for base, package in PACKAGES:
        for path in base.rglob("*.py"):
            name = ".".join((package, *path.relative_to(base).with_suffix("").parts)).removesuffix(".__init__")
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project's modules ``name`` imports anywhere in its text (top level, functions, TYPE_CHECKING)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                module = ".".join([*parts, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            submodules = {f"{module}.{alias.name}" for alias in node.names}
            named.update(submodules)
            if not submodules <= MODULES.keys():  # "from package import submodule" reads the submodule alone
                named.add(module)
    found = set()
    for module in named:
        while module and module not in MODULES:
            module = module.rpartition(".")[0]
        if module and module != name:
            found.add(module)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _reached(start: str) -> set[str]:
    seen, stack = {start}, [start]
    while stack:
        for module in GRAPH[stack.pop()] - seen:
            seen.add(module)
            stack.append(module)
    return seen - {start}


def _is_game(module: str) -> bool:
    return module.startswith("samurai_plugins")


def test_the_static_reading_sees_deferred_and_type_checking_imports():
    # conformance reads the match runner inside a function, and the game registry the protocol under TYPE_CHECKING.
    assert "samurai.runs.matches" in GRAPH["samurai.kit.conformance"]
    assert "samurai.protocol" in GRAPH["samurai.catalog.games"]
    assert "samurai_plugins.knizia.engine.reference" in GRAPH["samurai_plugins.knizia.play.game"]


def test_the_framework_floor_reaches_no_game_module():
    for module in FLOOR:
        assert module in MODULES, module
        reached = sorted(m for m in _reached(module) if _is_game(m))
        assert not reached, f"{module} reaches {reached}"


def test_knizias_game_and_daimyo_import_nothing_of_each_other():
    knizia = [m for m in MODULES if m.startswith("samurai_plugins.knizia")]
    daimyo = [m for m in MODULES if m.startswith("samurai_plugins.daimyo")]
    assert knizia and daimyo
    for module in knizia:
        assert not [m for m in _reached(module) if m.startswith("samurai_plugins.daimyo")], module
    for module in daimyo:
        assert not [m for m in GRAPH[module] if m.startswith("samurai_plugins.knizia")], module


def _loaded_after(statement: str) -> list[str]:
    program = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True)
    return list(json.loads(done.stdout))


def test_importing_the_protocol_loads_no_game_module():
    loaded = _loaded_after("import samurai.protocol")
    assert "samurai.protocol" in loaded
    assert not [m for m in loaded if _is_game(m)]


def test_importing_samurai_loads_no_game_module_and_its_names_come_when_used():
    assert not [m for m in _loaded_after("import samurai") if _is_game(m)]
    loaded = _loaded_after("import samurai\nsamurai.new_game")
    assert "samurai_plugins.knizia.play.game" in loaded


def test_every_public_name_of_samurai_resolves_to_its_module():
    import samurai

    for name in samurai.__all__:
        value = getattr(samurai, name)
        assert value is not None, name
    assert samurai.load_edition.__module__ == "samurai.catalog.editions"
    assert samurai.play_bots.__module__ == "samurai_plugins.knizia.adapters.play_bots"  # Knizia's Game only


FRONT_DOOR = ("samurai", "samurai.front")
"""The distribution's front door (``samurai/__init__.py``, which re-exports the reference game's public names lazily,
and ``samurai.front``, whose ``new_game`` and ``load`` serve every installed game): the framework modules allowed to
name a game (docs/architecture.md)."""


def test_no_framework_module_imports_a_game_module():
    framework = [m for m in MODULES if not _is_game(m) and m not in FRONT_DOOR]
    for module in framework:
        games = sorted(m for m in GRAPH[module] if _is_game(m))
        assert not games, f"{module} imports {games}"


def _cycle(graph: dict[str, set[str]] = GRAPH) -> list[str] | None:
    """One import cycle of ``graph``'s modules (the project's, counting every import, deferred and TYPE_CHECKING
    ones), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                return path[path.index(imported):] + [imported]
            if imported not in state and (found := visit(imported)):
                return found
        state[module] = 2
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_the_import_graph_has_no_cycle_at_all():
    assert _cycle() is None, " -> ".join(_cycle() or [])


def test_the_cycle_finder_finds_a_cycle():
    module, imported = next((m, i) for m in sorted(GRAPH) for i in sorted(GRAPH[m]))
    GRAPH[imported].add(module)  # the imported module imports its importer back: a cycle of two
    try:
        found = _cycle()
    finally:
        GRAPH[imported].discard(module)
    assert found is not None and found[0] == found[-1]


CRATE = ROOT / "plugins" / "knizia" / "engine" / "native" / "src"
"""Knizia's native crate (docs/native.md): its modules must use one another without a cycle, like the Python ones."""


def _rust_modules() -> dict[str, Path]:
    """The crate's modules by path (``reference``, ``python::state``; ``python`` for ``python/mod.rs``)."""
    found = {}
    for path in sorted(CRATE.rglob("*.rs")):
        parts = path.relative_to(CRATE).with_suffix("").parts
        if parts != ("lib",):
            found["::".join(parts[:-1] if parts[-1] == "mod" else parts)] = path
    return found


RUST_MODULES = _rust_modules()


def _rust_uses(name: str, path: Path) -> set[str]:
    """The crate's modules that module ``name`` names anywhere in its code (``use crate::...`` or a path written
    out, ``$crate::`` in a macro included; comments left out, as they name modules to explain)."""
    code = "\n".join(line.split("//")[0] for line in path.read_text(encoding="utf-8").splitlines())
    found = set()
    for named in re.findall(r"\bcrate::((?:\w+::)*\w+)", code):
        module = named
        while module and module not in RUST_MODULES:
            module = module.rpartition("::")[0]
        if module and module != name:
            found.add(module)
    return found


RUST_GRAPH = {name: _rust_uses(name, path) for name, path in RUST_MODULES.items()}


def test_the_native_crate_has_no_module_cycle():
    assert {"reference", "special_tiles", "state", "python", "python::state"} <= RUST_GRAPH.keys()
    assert RUST_GRAPH["special_tiles"] >= {"reference", "rules"}  # the reading sees the crate's uses
    assert _cycle(RUST_GRAPH) is None, " -> ".join(_cycle(RUST_GRAPH) or [])


def test_the_cycle_finder_finds_a_cycle_of_the_crate():
    graph = {name: set(uses) for name, uses in RUST_GRAPH.items()}
    graph["rules"].add("special_tiles")  # the rules would name the behaviours' module, which names the rules
    assert _cycle(graph) is not None


def test_the_pure_rust_modules_never_use_the_binding_and_it_has_one_pymodule():
    """``cargo test`` builds the pure-Rust modules without Python: none of them uses ``crate::python``. The binding's
    one ``#[pymodule]`` is in ``python/mod.rs``, which declares every file of ``python/``."""
    pure = [name for name in RUST_MODULES if not name.startswith("python")]
    assert [name for name in pure if any(used.startswith("python") for used in RUST_GRAPH[name])] == []
    modules = [path for path in RUST_MODULES.values() if "#[pymodule]" in path.read_text(encoding="utf-8")]
    assert modules == [CRATE / "python" / "mod.rs"]
    declared = set(re.findall(r"^mod (\w+);", modules[0].read_text(encoding="utf-8"), re.MULTILINE))
    assert declared == {name.removeprefix("python::") for name in RUST_MODULES if name.startswith("python::")}


def test_daimyo_imports_without_knizias_game():
    loaded = _loaded_after("import samurai_plugins.daimyo")
    assert "samurai_plugins.daimyo.rules" in loaded
    assert not [m for m in loaded if m.startswith("samurai_plugins.knizia")]


def _private_cli_imports(path: Path, package: str) -> list[str]:
    """``from samurai.cli.<module> import _name`` (or its relative spelling) in the file at ``path`` of ``package``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                parts = package.split(".")
                module = ".".join([*parts[:len(parts) - node.level + 1], *([module] if module else [])])
            if module == "samurai.cli" or module.startswith("samurai.cli."):
                found += [f"{path}:{node.lineno}: {module}.{alias.name}"
                          for alias in node.names if alias.name.startswith("_")]
    return found


def test_the_commands_share_only_public_names_of_each_other():
    """The CLI's shared helpers are public within ``samurai.cli`` (issue 39, point 7): no module, test or game
    imports another module's private name from it."""
    files = [(path, name if path.name == "__init__.py" else name.rpartition(".")[0]) for name, path in MODULES.items()]
    files += [(path, "tests") for path in (ROOT / "tests").rglob("*.py")]
    assert [line for path, package in files for line in _private_cli_imports(path, package)] == []


def test_the_private_import_finder_finds_one(tmp_path):
    (tmp_path / "bad.py").write_text("from .arguments import _secret\nfrom samurai.cli.common import shared\n")
    found = _private_cli_imports(tmp_path / "bad.py", "samurai.cli")
    assert [line.rpartition(": ")[2] for line in found] == ["samurai.cli.arguments._secret"]
