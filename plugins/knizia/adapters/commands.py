"""What Knizia's game does for the commands of ``samurai`` that only a game can serve (``COMMANDS``, its
``GameDefinition.commands``): score captured figures, draw a position from one of its record or scenario files,
time its engine (``samurai bench``) and try its end-of-game hooks when ``samurai editions`` lists an edition.

The command line parses and prints; the work is here, so the command line names no game. The modules that do it
are imported when a command runs, not when the game is registered.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from samurai.catalog.editions import Edition, load_edition
from samurai.catalog.games import BenchRequest, GameCommands, PlayedScenario
from samurai.errors import DataError
from samurai_plugins.knizia.engine.edition import knizia_edition

__all__ = ["COMMANDS", "score_captured", "render_file", "bench_lines", "edition_lines", "try_end_of_game_hooks",
           "play_scenario", "engine_note",
           "STARTER_PLUGIN"]


def score_captured(edition: Edition, captured: Any) -> dict[str, Any]:
    """``samurai score``: the winners, reason and explanation of the edition's scoring of ``captured``
    (``samurai_plugins.knizia.play.game.score``), JSON-ready."""
    from samurai_plugins.knizia.play.game import score

    result = score(edition, captured)
    return {"winners": list(result.winners), "reason": result.reason, "explanation": result.explanation}


def render_file(path: str, to: int | None, seat: int | None, width: int | None, trust: Sequence[str]) -> str:
    """``samurai render`` of this game's record or scenario file: the position after action ``to`` as ``seat`` may
    see it (``samurai_plugins.knizia.play.render.position_from_file`` and ``render_svg``); ``DataError`` for a seat the
    game does not have."""
    from samurai_plugins.knizia.play.render import position_from_file, render_svg

    game = position_from_file(path, to, trust=trust)
    if seat is not None and not 0 <= seat < game.players:
        raise DataError(f"the game has seats 0 to {game.players - 1}, not {seat}", source="--seat")
    return render_svg(game, seat, width=width)


def _bench_engines(request: BenchRequest) -> tuple[str, ...]:
    """The engines ``samurai bench`` times: the one ``--engine`` names, else both where the native one is
    installed (the Python engine alone otherwise, which the first line then says)."""
    from samurai_plugins.knizia.engine.backends import native_module

    if request.engine is not None:
        return (request.engine,)
    return ("python", "native") if native_module() is not None else ("python",)


def _ratio(python: float, native: float) -> str:
    return f"{native / python:.1f}x" if python > 0 and native > 0 else "-"


def bench_lines(edition: Edition, request: BenchRequest) -> Iterator[str]:
    """``samurai bench``: full random games per second for each player count, then a position copy and the legal
    actions at a 4-player opening, then a ``samurai compare`` on one core; with ``request.mcts``, MCTS simulations
    per second instead (``samurai_plugins.knizia.adapters.bench``). Each engine side by side, with the native engine's
    speed as a multiple of the Python engine's; each line comes as soon as it is measured."""
    from samurai_plugins.knizia.adapters.bench import run_bench, time_compare, time_paths
    from samurai_plugins.knizia.engine.backends import engine_report

    edition = knizia_edition(edition)
    for count in request.players:
        edition.rules(count)
    engines = _bench_engines(request)
    if "native" in engines:
        for count in request.players:
            chosen, why = engine_report(edition.rules(count), "native")
            if chosen != "native":
                raise DataError(f"the native engine cannot play edition {edition.id!r}: {why}", source="--engine")
    elif request.engine is None:
        yield "the native engine is not installed here: timing the Python engine alone"
    if request.levels:
        yield from _level_bench_lines(edition, request, engines)
        return
    if request.mcts:
        yield from _mcts_bench_lines(edition, request, engines)
        return
    compare_players = 3 if 3 in edition.manifest.players else min(edition.manifest.players)
    if request.compare_games:
        # refuse a bad edition B before the timings
        knizia_edition(load_edition(request.compare_with)).rules(compare_players)
    both = len(engines) == 2
    header = f"{'players':>7} {'engine':>7} {'games':>6} {'seconds':>8} {'games/s':>9} {'games/cpu-s':>12}"
    yield header + (f" {'native/python':>13}" if both else "")
    for count in request.players:
        rates: dict[str, float] = {}
        for engine in engines:
            figure = run_bench(edition, (count,), request.games, request.seed, engine)[0]
            rates[engine] = figure.games_per_cpu_second
            ratio = f" {_ratio(rates['python'], rates['native']):>13}" if both and engine == "native" else ""
            yield (f"{figure.players:>7} {engine:>7} {figure.games:>6} {figure.seconds:>8.2f} "
                   f"{figure.games_per_second:>9.0f} {figure.games_per_cpu_second:>12.0f}{ratio}")
    if request.paths:
        players = 4 if 4 in edition.manifest.players else max(edition.manifest.players)
        playouts: dict[str, float] = {}
        for engine in engines:
            paths = time_paths(edition, players, request.seed, engine)
            playouts[engine] = paths.playout_seconds
            inside = ""
            if paths.playout_inside_seconds is not None:
                ratio = (f": {_ratio(1 / playouts['python'], 1 / paths.playout_inside_seconds)} the Python engine's "
                         f"playout" if both else "")
                inside = f" ({paths.playout_inside_seconds * 1e6:.1f} us each, 100 in one native call{ratio})"
            yield (f"{engine} engine at a {paths.players}-player opening ({paths.actions} actions): position copy "
                   f"{paths.copy_seconds * 1e6:.1f} us ({paths.copy_given_rng_seconds * 1e6:.1f} us given a "
                   f"generator); on the protocol: copy {paths.protocol_copy_seconds * 1e6:.1f} us, legal_actions "
                   f"{paths.protocol_legal_actions_seconds * 1e6:.1f} us; Game.legal_actions "
                   f"{paths.legal_actions_seconds * 1e3:.2f} ms; a random playout from there "
                   f"{paths.playout_seconds * 1e6:.1f} us{inside}")
    if request.compare_games:
        for bots in (("random",), ("greedy",)):
            seconds: dict[str, float] = {}
            for engine in engines:
                timed = time_compare(request.edition, request.compare_with, compare_players, request.compare_games,
                                     request.seed, engine, bots)
                seconds[engine] = timed.seconds
                ratio = (f", {_ratio(1 / seconds['python'], 1 / seconds['native'])} the Python engine's speed"
                         if both and engine == "native" else "")
                yield (f"compare {timed.edition_a} {timed.edition_b} --bots {bots[0]}, {timed.players} players, "
                       f"{timed.pairs} pairs on one core, {engine} engine: {timed.seconds:.2f} s, "
                       f"{timed.games_per_second:.0f} games/s{ratio}")


def _mcts_bench_lines(edition: Edition, request: BenchRequest, engines: tuple[str, ...]) -> Iterator[str]:
    """``samurai bench --mcts``: MCTS simulations per second from the first turn of play and from mid-game, for 2
    players unless ``--players`` named others, with full rollouts and with replies: the Python search on the Python
    engine beside the native search on the native one (the same decisions), and the ratio."""
    from samurai_plugins.knizia.adapters.bench import MCTS_KINDS, run_mcts_bench

    players = request.players if request.players_given else (2,)
    yield (f"{'players':>7} {'search':>8} {'kind':>8} {'position':>10} {'decisions':>9} {'simulations':>11} "
           f"{'seconds':>8} {'sims/s':>9} {'sims/cpu-s':>10}")
    for count in players:
        for kind in MCTS_KINDS:
            speeds: dict[str, list[float]] = {}
            for engine in engines:
                for figure in run_mcts_bench(edition, count, request.simulations, request.decisions, request.seed,
                                             engine=engine, kinds=(kind,)):
                    speeds.setdefault(engine, []).append(figure.simulations_per_cpu_second)
                    ratio = ""
                    if engine == "native" and "python" in speeds:
                        python_speed = speeds["python"][len(speeds["native"]) - 1]
                        ratio = f"  {_ratio(python_speed, figure.simulations_per_cpu_second)} the Python search"
                    yield (f"{count:>7} {engine:>8} {kind:>8} {figure.position:>10} {figure.decisions:>9} "
                           f"{figure.simulations:>11} {figure.seconds:>8.2f} {figure.simulations_per_second:>9.0f} "
                           f"{figure.simulations_per_cpu_second:>10.0f}{ratio}")


def _level_bench_lines(edition: Edition, request: BenchRequest, engines: tuple[str, ...]) -> Iterator[str]:
    """``samurai bench --levels``: per level and player count, whole games with every seat at the level on one
    core: processor seconds per decision of the play phase and minutes per 1,000 games, on the native engine where
    it is installed (its search is native)."""
    from samurai_plugins.knizia.adapters.bench import time_level

    engine = "native" if "native" in engines else "python"
    yield (f"{'level':>7} {'players':>7} {'engine':>7} {'games':>5} {'decisions':>9} {'s/decision':>10} "
           f"{'min/1000 games':>14}")
    for level in request.levels:
        for count in request.players:
            figure = time_level(edition, count, level, request.level_games, request.seed, engine)
            yield (f"{level:>7} {count:>7} {engine:>7} {figure.games:>5} {figure.decisions:>9} "
                   f"{figure.seconds_per_decision:>10.4f} {figure.minutes_per_thousand_games:>14.1f}")


def edition_lines(edition: Edition) -> Iterator[str]:
    """``samurai editions``: the engine each player count of the edition gets
    (``samurai_plugins.knizia.engine.backends``) and, when it is the Python engine, why."""
    from samurai_plugins.knizia.engine.backends import engine_report

    edition = knizia_edition(edition)
    reports: dict[tuple[str, str | None], list[int]] = {}
    for players in sorted(edition.manifest.players):
        rules = edition.rules(players)
        engine, why = engine_report(rules)
        if engine == "native":
            why = (f"the winner decided natively: {rules.native_scoring.replace('_', ' ')}"
                   if rules.native_scoring != "python" else "the edition's scoring hook asked once a game")
        reports.setdefault((engine, why), []).append(players)
    for (engine, why), counts in reports.items():
        which = "" if len(reports) == 1 else f" with {', '.join(map(str, counts))} players"
        yield f"engine{which}: {engine}" + (f" ({why})" if why else "")


def try_end_of_game_hooks(edition: Edition) -> None:
    """Call the hooks a game calls only at its end (scoring, metrics) once per player count, so a plugin that
    fails there is caught when ``samurai editions`` lists its edition rather than after a long run."""
    from samurai_plugins.knizia.adapters.measures import contributed_metrics
    from samurai_plugins.knizia.core.facts import GameFacts
    from samurai_plugins.knizia.core.tiles import CASTES

    edition = knizia_edition(edition)
    for players in edition.manifest.players:
        rules = edition.rules(players)
        captured = {seat: {caste: int(seat == 0) for caste in CASTES} for seat in range(players)}
        result = rules.scorer(captured)
        facts = GameFacts(winners=result.winners, end_reason="caste_exhausted", turns=players * 4,
                          tiles_played=players * 6, captured=tuple((1, 1, 1) if seat == 0 else (0, 0, 0)
                                                                   for seat in range(players)),
                          removed=0, midpoint_leader=0)
        for metric in contributed_metrics([edition], players, rules.setup.first_player):
            metric.value(facts)


def play_scenario(path: str, edition: str | None, bots: Sequence[str], seed: int,
                  trust: Sequence[str]) -> PlayedScenario:
    """``samurai play-scenario``: bots play the scenario at ``path`` to the end on the fast engine
    (``samurai_plugins.knizia.adapters.runner.play_out``); the game told as ``samurai replay`` tells it, and its record
    (which holds the scenario's data, so it stands alone) saved on demand."""
    from samurai.catalog.trust import Trust
    from samurai_plugins.knizia.adapters.runner import play_out
    from samurai_plugins.knizia.play.game import edition_of, new_game
    from samurai_plugins.knizia.play.record_files import record_of, write_record
    from samurai_plugins.knizia.play.replays import replay_lines

    trusted = Trust(trust)
    if edition is not None:
        trusted.also(edition_of(edition))  # the edition named on the command line is the user's own
    game = new_game(edition, seed=seed, scenario=path, trace=False, trust=trusted)
    if game.map_name is not None and game.map_name.endswith(".toml"):
        trusted.also(game.map_name)  # the map the scenario was allowed to use, for telling the game
    actions: list[tuple[int, ...]] = []
    final = play_out(game.rules, game.state.copy(), seed, tuple(bots), actions=actions)
    record = record_of(game.rules, seed, actions, final=final, map_name=game.map_name,
                       scenario=game.scenario.data if game.scenario else None)
    lines = list(replay_lines(record, source=path, trust=trusted))
    return PlayedScenario(lines=lines, save=lambda to: str(write_record(record, to)))


STARTER_PLUGIN = '''"""{ident}: a variant of {base}. Its rules: {ident}.toml and the hooks below.

Each hook decides one rule; returning None keeps the rule of {base}.
Every hook and its arguments: {hookspecs}. A walk-through:
docs/designing-editions.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from samurai.catalog.manifests import EditionManifest
from samurai.hooks.specs import hookimpl


@hookimpl
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool | None:
    """Whether every player sees the figures each player has captured (None: as in {base})."""
    return None
'''
"""The plugin a new edition of Knizia's game starts with (``samurai new-edition``): one hook that keeps the base
edition's rule, to change."""


def engine_note() -> str:
    """``samurai --version``: the engine this game's games get and whether the native one was built
    (``samurai_plugins.knizia.engine.backends.engine_note``)."""
    from samurai_plugins.knizia.engine.backends import engine_note as note

    return note()


COMMANDS = GameCommands(score=score_captured, render_file=render_file, bench=bench_lines,
                        try_end_of_game_hooks=try_end_of_game_hooks, play_scenario=play_scenario,
                        starter_plugin=STARTER_PLUGIN, edition_lines=edition_lines, engine_note=engine_note)
"""Knizia's game's work behind ``samurai score``, ``render``, ``bench``, ``editions`` and ``--version``."""
