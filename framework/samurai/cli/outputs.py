"""The checks of a command's output files, made before the work starts: nothing is overwritten without ``--force``,
never an input, and a file that could not be written is refused in one line rather than after a long run.

The names are shared by the commands of ``samurai.cli`` (which exports only ``main`` and ``run``): public within
the package, so no module reaches for another's private names, but not part of the API.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import DataError


def check_outputs(outputs: Sequence[tuple[str, str | None]], *, force: bool, inputs: Sequence[str] = (),
                  run_dir: str | None = None) -> None:
    """Refuse, before the work starts, an output file that cannot be written or would overwrite something.

    Every output (``--json``, ``--csv``, ``--plot``, ``--save``) follows one
    rule: an existing file is replaced only with ``--force``, and never when
    it is one of the command's inputs, the files of the run folder it reads or
    writes, or another output of the same command.
    """
    import os
    from pathlib import Path

    from ..runs.folders import RUN_FILE

    taken = {Path(path).resolve(): "input" for path in inputs}
    run_files = set()
    if run_dir is not None:
        root = Path(run_dir).resolve()
        run_files = {root, root / "a", root / "b"}
        taken[root / RUN_FILE] = "run"
    for flag, path in outputs:
        if path is None:
            continue
        if not path.strip():
            raise DataError("name a file", source=flag)
        target = Path(path)
        resolved = target.resolve()
        if taken.get(resolved) == "input":
            raise DataError(f"{path} is an input of this command; write the output to another file", source=flag)
        if resolved.parent in run_files and resolved.name.startswith("game-"):
            raise DataError(f"{path} is a record file of the run folder; write the output to another file",
                            source=flag)
        if resolved in taken:
            raise DataError(f"{path} is also the {taken[resolved]} file", source=flag)
        taken[resolved] = flag
        if target.is_dir():
            raise DataError(f"{path} is a folder, not a file", source=flag)
        if not resolved.parent.is_dir():
            raise DataError(f"the folder of {path} does not exist", source=flag)
        if not os.access(resolved.parent, os.W_OK | os.X_OK):
            raise DataError(f"cannot write into the folder of {path}", source=flag)
        if target.exists() or target.is_symlink():
            if not force:
                raise DataError(f"{path} already exists; pass --force to overwrite it", source=flag)
            if not os.access(target, os.W_OK):
                raise DataError(f"{path} is not writable", source=flag)


def manifest_paths(*editions: str | None) -> list[str]:
    """The editions named by manifest path (inputs a command must not overwrite)."""
    return [name for name in editions if name is not None and name.endswith(".toml")]


def check_record_name(path: str) -> None:
    """``--save``: a record is written as JSON or TOML, so the file's name must say which."""
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if suffix not in ("json", "toml"):
        raise DataError(f"a record file ends in .json or .toml, not {path!r}", source="--save")


def check_plot(path: str) -> None:
    """A plot's file type and matplotlib, checked before the games rather than after them."""
    import importlib.util

    if not path.lower().endswith((".png", ".svg")):
        raise DataError(f"the plot is saved as .png or .svg, not {path!r}", source="--plot")
    if importlib.util.find_spec("matplotlib") is None:
        raise DataError('--plot needs matplotlib: pip install "samurai-engine[plot]"', source="--plot")

