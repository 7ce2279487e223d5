"""``samurai train``: play seeded games between bots, fit a value model to them and measure its calibration."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .arguments import whole_number_in
from .progress import progress_bar


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``train`` to the command line's commands."""
    train = commands.add_parser(
        "train", help="train a value model (each seat's chance of winning) on seeded self-play",
        description="Play seeded games between bots into OUT/data (run the same command again to carry on a run "
                    "cut short), fit a value model to them (needs numpy: pip install \"samurai-engine[train]\"), "
                    "write OUT/model.json and print its calibration on held-out games (docs/learning.md).")
    train.add_argument("edition", help="the edition: an installed id (ffg2015) or a manifest path")
    train.add_argument("--players", type=whole_number_in(2, 99), default=2, help="seats (default 2)")
    train.add_argument("--games", type=whole_number_in(1, 10_000_000), default=200, help="games to play (default 200)")
    train.add_argument("--bots", default="medium,greedy", help="the bots, by seat in turn (default medium,greedy)")
    train.add_argument("--seed", type=whole_number_in(0, 2 ** 63 - 1), default=1,
                       help="seed of the games and of the training (default 1)")
    train.add_argument("--every", type=whole_number_in(1, 1000), default=4,
                       help="sample every N-th decision of a game (default 4)")
    train.add_argument("--hidden", type=whole_number_in(1, 256), default=16, help="hidden units (default 16)")
    train.add_argument("--steps", type=whole_number_in(1, 100_000), default=300,
                       help="steps of gradient descent (default 300)")
    train.add_argument("--out", required=True, metavar="DIR", help="the folder of the data and the model")
    train.add_argument("--workers", type=whole_number_in(1, 1024), default=1,
                       help="worker processes playing the games (default 1)")
    train.add_argument("--plot", action="store_true", help="also draw OUT/calibration.png (needs matplotlib)")
    train.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    train.set_defaults(run=_train)


def _train(args: argparse.Namespace) -> int:
    from ..catalog.editions import load_edition
    from ..learn.calibration import plot_reliability
    from ..learn.data import generate_data
    from ..learn.train import TrainingSettings, train_model
    from ..search.bots import parse_bots

    edition = load_edition(args.edition)
    bots = parse_bots(args.bots, edition.game)
    out = Path(args.out)
    with progress_bar("playing", args.games, not args.no_progress) as advance:
        generate_data(out / "data", edition, args.players, args.games, args.seed, bots, every=args.every,
                      workers=args.workers, progress=advance)
    trained = train_model(out / "data", out / "model.json",
                          TrainingSettings(hidden=args.hidden, steps=args.steps, seed=args.seed))
    lines = trained.calibration.table()
    (out / "calibration.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    if args.plot:
        plot_reliability(trained.calibration, out / "calibration.png")
    print(f"samurai: wrote {trained.path}", file=sys.stderr)
    return 0
