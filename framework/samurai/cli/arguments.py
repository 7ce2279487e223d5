"""The arguments several commands share, and how their values are read: editions and options, a run of seeded games,
executors, trust, comparison outputs, whole numbers and JSON given on the command line.

The names are shared by the commands of ``samurai.cli`` (which exports only ``main`` and ``run``): public within
the package, so no module reaches for another's private names, but not part of the API.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from .. import seeds as game_seeds
from ..errors import DataError
from ..files.reading import parse_json


def edition_args(parser: argparse.ArgumentParser) -> None:
    """``--edition`` and ``--option``: the edition a command plays and its options."""
    parser.add_argument("--edition", default="ffg2015", help="edition id or manifest path (default ffg2015)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set an edition option (repeatable); VALUE is read as JSON when it can be")


BOT_KINDS = ("random, greedy, the levels easy, medium, hard and expert, or a search with a budget: mcts:N or "
             "mcts:Xs (N simulations or X seconds; leaves scored by the game's estimate), mcts-replies:N, "
             "mcts-finish:N, mcts-rollouts:N (the same with Xs)")
"""The bot names ``--bots`` takes, for its help (docs/bots.md explains each)."""


def run_args(parser: argparse.ArgumentParser, *, bots: str | None = "random", bots_default: str = "",
             players: bool = True, games: str = "number of games") -> None:
    """The arguments of a run of seeded games: players (unless not ``players``: the command takes its own), games
    (``games`` says what they are), seed and bots (``bots`` by default; None: the command picks, as
    ``bots_default`` says)."""
    if players:
        parser.add_argument("--players", type=whole_number_in(0, 99), default=DEFAULT_PLAYERS,
                            help="number of players (default 4, or the fewest the edition's game allows)")
    parser.add_argument("--games", type=whole_number_in(1, MAX_GAMES), default=1000, help=f"{games} (default 1000)")
    parser.add_argument("--seed", type=whole_number_in(0, MAX_SEED), default=1,
                        help="seed of the run; game i uses a seed derived from it (default 1)")
    parser.add_argument("--bots", default=bots,
                        help=f"comma-separated bots, assigned to seats in turn: {BOT_KINDS} "
                             f"(default {bots_default or bots})")


def executor_args(parser: argparse.ArgumentParser) -> None:
    """Where a run's batches are played: ``--workers``, ``--backend``, ``--scheduler`` (see
    ``samurai.runs.executors``)."""
    parser.add_argument("--workers", type=whole_number_in(1, 256), default=None,
                        help="worker processes, 1 to 256 (default: the machine's cores, at most 8; with --backend dask "
                             "and no --scheduler, the local cluster's)")
    parser.add_argument("--backend", default="local", metavar="NAME",
                        help="where the games are played: local worker processes (default), dask, or an executor a "
                             "plugin contributes; the results are the same on every backend")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="with --backend dask: the scheduler of a running cluster, e.g. tcp://HOST:8786 "
                             "(default: start a local cluster); see docs/scale.md")


def trust_args(parser: argparse.ArgumentParser) -> None:
    """``--trust``: the manifests and maps a record, scenario or folder may use beyond installed ones."""
    parser.add_argument("--trust", action="append", default=[], metavar="PATH",
                        help="an edition manifest (or map file) you vouch for, so the file may use it; a manifest's "
                             "plugins are code: trust only what you would run (repeatable)")


def output_args(parser: argparse.ArgumentParser) -> None:
    """Where a comparison's metrics are written besides the table."""
    parser.add_argument("--json", metavar="FILE", help="write every metric with its intervals as JSON")
    parser.add_argument("--csv", metavar="FILE", help="write one row per metric as CSV")


class _Default(int):
    """An int default that can be told from the same number given on the command line."""


DEFAULT_PLAYERS = _Default(4)
"""``--players`` when not given: 4, told apart from a 4 given (``players_of``)."""


MAX_GAMES = 10_000_000
"""The most games one run may ask for (a million takes hours already)."""


MAX_SEED = game_seeds.MAX_SEED
"""Seeds are 63-bit (the engines' and the records' range, ``samurai.seeds.MAX_SEED``)."""


def whole_number_in(low: int, high: int) -> Any:
    """An argument type: a whole number from ``low`` to ``high`` in plain ASCII digits.

    ``int()`` alone would take ``"٣"``, ``"+3"``, ``" 3"`` and ``"1_000"``; a
    command line number is digits, with a minus sign only to be refused clearly.
    """
    def whole(text: str) -> int:
        digits = text[1:] if text.startswith("-") else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 30:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, not {value}")
        return value

    whole.__name__ = "whole number"  # argparse names the type in its messages
    return whole


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """The ``NAME=VALUE`` options given, by name; a value is read as JSON when it can be, else kept as text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise DataError(f"expected NAME=VALUE, got {pair!r}", source="--option")
        if name in options:
            raise DataError(f"option {name!r} is given twice", source="--option", key=name)
        try:
            options[name] = parse_json(raw, source="--option")
        except DataError:  # not JSON (or JSON no file may hold): the text itself, checked against the option
            options[name] = raw
    return options


def json_argument(text: str, flag: str) -> Any:
    """A JSON value given on the command line; duplicate keys and endless numbers are refused, not guessed."""
    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise DataError(f"key {key!r} is given twice", source=flag, key=key)
            seen[key] = value
        return seen

    def no_float(text: str) -> Any:
        raise DataError(f"{text} is not a whole number", source=flag)

    try:
        return json.loads(text, object_pairs_hook=unique, parse_float=no_float,
                          parse_constant=no_float)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc}", source=flag) from None
    except RecursionError:
        raise DataError("JSON nested too deeply", source=flag) from None
    except ValueError as exc:  # an integer too long to convert
        if isinstance(exc, DataError):
            raise
        raise DataError("a number is too long (more than 4300 digits)", source=flag) from None


def players_of(given: int, edition: Any) -> int:
    """``--players`` as given, or by default 4 where the edition's game allows it, else the fewest it allows."""
    if given is not DEFAULT_PLAYERS or 4 in edition.player_counts:
        return given
    return int(min(edition.player_counts))



def _player_counts(text: str) -> tuple[int, ...]:
    """An argument type: comma-separated player counts, ``2,3,4`` (each a whole number from 1 to 99)."""
    whole = whole_number_in(1, 99)
    counts = tuple(whole(part.strip()) for part in text.split(","))
    if len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(f"{text!r} names a player count twice")
    return counts


_player_counts.__name__ = "player counts"  # argparse names the type in its messages


def typed_options(pairs: Sequence[str], edition: Any, *, several: bool) -> dict[str, list[Any]]:
    """The ``NAME=VALUE`` options given (``NAME=V1,V2,...`` when ``several``), by name, each value read as the
    type the edition declares for the option (``OptionSpec.read``: true/false, a whole number, a number or a text):
    an unknown option, a value that is not of its type or an option given twice is refused in one line naming
    ``--option``. Whether a value is allowed (an option's choices, the edition's limits) the run checks, as the
    edition does when a game starts."""
    options: dict[str, list[Any]] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise DataError(f"expected {'NAME=V1,V2,...' if several else 'NAME=VALUE'}, got {pair!r}",
                            source="--option")
        if name in options:
            raise DataError(f"option {name!r} is given twice", source="--option", key=name)
        spec = edition.manifest.options.get(name)
        if spec is None:
            edition.manifest.resolve_options({name: raw}, source="--option")  # the edition's refusal, its options
        texts = raw.split(",") if several else [raw]
        if several and any(not text.strip() for text in texts):
            raise DataError(f"option {name!r} has an empty value in {raw!r}: give NAME=V1,V2,...", source="--option",
                            key=name)
        options[name] = [spec.read(text.strip() if several else text) for text in texts]
    return options

def paired_args(parser: argparse.ArgumentParser, *, option: tuple[str, str], games: str,
                outputs: tuple[str, str, str], folders: str, result: str) -> None:
    """The arguments of ``sweep`` and ``balance``, paired runs of one edition: the edition (left out with
    ``--resume``), ``--option`` (its ``option`` metavar and help), the player counts, the run (``games`` says what
    they are), the executors, ``--json``, ``--csv`` and ``--plot`` (their ``outputs`` help), ``--save-dir`` (its
    records in ``folders``), ``--resume`` (the ``result`` it gives), ``--trust``, ``--force`` and
    ``--no-progress``."""
    parser.add_argument("edition", metavar="EDITION", nargs="?",
                        help="edition id or manifest path (left out with --resume, whose run names it)")
    parser.add_argument("--option", action="append", default=[], metavar=option[0], help=option[1])
    parser.add_argument("--players", type=_player_counts, default=None, metavar="2,3,4",
                        help="comma-separated player counts (default: every count the edition's game allows)")
    run_args(parser, bots=None, bots_default="greedy where the game has it, else random; medium plays well",
             players=False, games=games)
    executor_args(parser)
    for flag, text in zip(("--json", "--csv", "--plot"), outputs, strict=True):
        parser.add_argument(flag, metavar="FILE", help=text)
    parser.add_argument("--save-dir", metavar="DIR", help=f"write DIR/run.json, then keep every game's record in "
                                                          f"{folders} (DIR must not hold a run already)")
    parser.add_argument("--resume", metavar="DIR",
                        help=f"carry on the run saved in DIR (by --save-dir) that was cut short: its run.json gives "
                             f"the edition, options, players, games, seed and bots; the games it lacks are played "
                             f"and saved, and {result} the whole run's")
    trust_args(parser)
    parser.add_argument("--force", action="store_true", help="overwrite existing output files and a run in --save-dir")
    parser.add_argument("--no-progress", action="store_true", help="do not show a progress bar")