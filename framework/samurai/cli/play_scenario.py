"""``samurai play-scenario``: play bots from a hand-written position to the end."""

from __future__ import annotations

import argparse

from .arguments import MAX_SEED, _trust_args, _whole
from .outputs import _check_outputs, _check_record_name, _manifest_paths


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``play-scenario`` to the command line's commands."""
    ps = commands.add_parser("play-scenario", help="play bots from a hand-written position to the end",
                             description="Start from a scenario file (TOML), let bots play it out and tell the "
                                         "game action by action.")
    ps.add_argument("file", metavar="FILE")
    ps.add_argument("--edition", default=None, help="edition id or manifest path (default: the scenario's, or "
                                                    "ffg2015); a path given here is trusted")
    _trust_args(ps)
    ps.add_argument("--bots", default="random", help="comma-separated bots by seat (random, greedy, easy, medium, "
                                                   "hard, mcts:N, mcts:Xs)")
    ps.add_argument("--seed", type=_whole(0, MAX_SEED), default=1, help="seed of the draws and the bots")
    ps.add_argument("--save", metavar="FILE", help="save the game's record (.json or .toml; not the scenario itself)")
    ps.add_argument("--force", action="store_true", help="overwrite an existing --save file")
    ps.set_defaults(run=_play_scenario)


def _play_scenario(args: argparse.Namespace) -> int:
    from ..catalog.trust import Trust
    from ..knizia.game import edition_of, new_game
    from ..knizia.records import record_of, write_record
    from ..knizia.replays import replay_lines
    from ..knizia.seat_bots import parse_bots
    from ..knizia.simulate import play_out

    bots = parse_bots(args.bots)
    if args.save:
        _check_record_name(args.save)
        _check_outputs([("--save", args.save)], force=args.force, inputs=[args.file, *_manifest_paths(args.edition)])
    trust = Trust(args.trust)
    if args.edition is not None:
        trust.also(edition_of(args.edition))  # the edition named on the command line is the user's own
    game = new_game(args.edition, seed=args.seed, scenario=args.file, trace=False, trust=trust)
    if game.map_name is not None and game.map_name.endswith(".toml"):
        trust.also(game.map_name)  # the map the scenario was allowed to use, for telling the game
    actions: list[tuple[int, ...]] = []
    final = play_out(game.rules, game.state.copy(), args.seed, bots, actions=actions)
    record = record_of(game.rules, args.seed, actions, final=final, map_name=game.map_name,
                       scenario=game.scenario.data if game.scenario else None)
    print("\n".join(replay_lines(record, source=args.file, trust=trust)))
    if args.save:
        print(f"saved: {write_record(record, args.save)}")
    return 0

