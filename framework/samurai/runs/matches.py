"""Bots playing any game on the protocol: one game, or a seeded run of them summed up: the one runner of batches.

Every game's run (``samurai simulate``) is played here: seeds, bots, executors,
progress, save folders and the summary. A game is played through the protocol
(``GameState.ask`` hands a bot its seat's knowledge, never the position), unless
its definition offers an accelerator for a batch (``GameDefinition.runner.play_batch``:
Knizia's fused random loop and engine), which returns exactly what the protocol
path returns for that batch (tests pin the two together). A bot made for one game
(``greedy`` reads Knizia's hands and hexes) says so with a ``games`` attribute and
is refused, in one line, for another; ``random`` and the MCTS bots play any game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..catalog.cache import edition_named, keep_edition, loadable_name
from ..catalog.editions import Edition, installed_games
from ..catalog.games import GameDefinition
from ..catalog.trust import Trust, TrustLike
from ..errors import DataError
from ..files.reading import whole_number
from ..protocol import GameState, Move
from ..records import read_record_file, record_of, records_of
from ..search.bots import make_bot, parse_bots
from ..seeds import MAX_SEED, check_seed, derive_seed
from .executors import Executor, make_executor
from .folders import RUN_FILE, batches_of, collect_batches, read_run, write_run
from .summary import SummaryTable, seat_table, seat_wins, share_rows, spread, spread_row

__all__ = ["MAX_ACTIONS", "check_bots_play", "play_match", "MatchGame", "MatchSummary", "simulate_matches",
           "result_reason", "Batch", "match_game", "play_batch", "play_batch_on_protocol", "run_summary",
           "resume_matches", "InterruptedRun"]

MAX_ACTIONS = 100_000
"""A game still going after this many actions is refused as endless (a game's own rulings must end it)."""


def check_bots_play(game: str | GameDefinition, bots: Sequence[str]) -> tuple[str, ...]:
    """The bot names, checked to exist and to play ``game`` (its definition, or its name among the installed
    games); ``DataError`` naming ``--bots`` in one line, which for a bot of another game names the games it plays."""
    definition = installed_games().get(game) if isinstance(game, str) else game
    name_of_game = game if isinstance(game, str) else game.name
    try:
        return parse_bots(bots, definition)
    except DataError:
        listed = bots.split(",") if isinstance(bots, str) else bots
        for name in (n.strip() for n in listed if isinstance(n, str)):
            plays = [other.name for other in installed_games().values() if name in other.bots]
            if plays and name_of_game not in plays:
                raise DataError(f"bot {name!r} plays only {', '.join(plays)}, not {name_of_game!r}; random and the "
                                f"MCTS bots (easy, medium, hard, expert, mcts:N) play any game",
                                source="--bots") from None
        raise


def result_reason(state: GameState) -> str:
    """Why a finished game ended, as its views say (``result.reason`` or ``result.end_reason``), else ``"end"``."""
    result = state.view(0).get("result")
    if isinstance(result, Mapping):
        for key in ("reason", "end_reason"):
            if isinstance(result.get(key), str):
                return str(result[key])
    return "end"


def play_match(edition: Edition, players: int, seed: int, bots: Sequence[str], *,
               options: Mapping[str, Any] | None = None,
               watch: Callable[[GameState], None] | None = None) -> tuple[GameState, list[Move]]:
    """Play one game of ``edition`` between bots (seat ``k`` gets ``bots[k % len(bots)]``, seeded from ``seed`` as
    its game seeds bots, ``GameDefinition.runner.bot_seed_offset``);
    the final position and the actions played. ``watch(position)`` is called before the first action and after
    each one (``samurai compare`` collects a game's facts so)."""
    names = check_bots_play(edition.game, bots)
    state = edition.start(players, seed, options)
    if watch is not None:
        watch(state)
    offset = edition.game.runner.bot_seed_offset
    seated = [make_bot(names[seat % len(names)], derive_seed(seed, offset + seat), edition.game)
              for seat in range(players)]
    actions: list[Move] = []
    while not state.is_over:
        if len(actions) >= MAX_ACTIONS:
            raise DataError(f"the game of seed {seed} has not ended after {MAX_ACTIONS} actions",
                            source=edition.manifest.path, key="game")
        seat = state.to_act
        assert seat is not None
        bot = seated[seat]
        action = state.ask(bot)
        if not getattr(bot, "trusted", False):
            reason = state.check(action)
            if reason is not None:
                raise DataError(f"bot {bot.name!r} played {list(action)}: {reason}", source="--bots")
        state.apply(action)
        actions.append(action)
        if watch is not None:
            watch(state)
    return state, actions


@attrs.frozen
class MatchGame:
    """The numbers of one finished game of any game."""

    seed: int
    returns: tuple[float, ...]
    reason: str
    actions: int
    facts: Any = None
    """What the game's definition reads of the finished game (``GameDefinition.runner.outcome``); None when it reads
    nothing more."""


def match_game(edition: Edition, seed: int, state: GameState, actions: int) -> MatchGame:
    """The numbers of a finished game of ``edition`` played from ``seed`` in ``actions`` actions."""
    outcome = edition.game.runner.outcome
    return MatchGame(seed, tuple(state.returns()), result_reason(state), actions,
                     None if outcome is None else outcome(state))


@attrs.frozen
class MatchSummary:
    """What a run showed: wins by seat, shared games (draws), lengths and end reasons."""

    edition: str
    game: str
    players: int
    seed: int
    bots: tuple[str, ...]
    games: tuple[MatchGame, ...]

    def table(self) -> SummaryTable:
        """What ``samurai simulate`` prints of this run (``samurai.runs.summary.print_summary``)."""
        data = self.to_dict()
        games = data["games"]
        figures = [("shared (drawn)", f"{data['shared_games']} games ({data['shared_games'] / games:.1%})"),
                   spread_row("actions", data["actions"]),
                   *share_rows("ended", {r.replace("_", " "): n for r, n in data["end_reasons"].items()}, games)]
        return seat_table(f"{data['edition']} ({data['game']}): {data['players']} players, {games} games, "
                          f"seed {data['seed']}", data["seats"], figures,
                          "shared (drawn): games no seat won alone; actions: every action of the game, each seat's; "
                          "ended: why the game stopped, as the game names it.")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the summary (without the per-game list)."""
        returns = [g.returns for g in self.games]
        return {
            "edition": self.edition, "game": self.game, "players": self.players, "games": len(self.games),
            "seed": self.seed,
            "seats": [{**seat, "score": sum(game[seat["seat"]] for game in returns)}
                      for seat in seat_wins(self.bots, returns)],
            "shared_games": sum(1 for g in self.games if max(g.returns) < 1.0),
            "actions": spread([g.actions for g in self.games]),
            "end_reasons": dict(Counter(g.reason for g in self.games).most_common()),
        }


def simulate_matches(edition: Edition, players: int, games: int, seed: int, bots: Sequence[str], *,
                     options: Mapping[str, Any] | None = None, progress: Callable[[int], None] | None = None,
                     save_dir: str | Path | None = None, workers: int = 1, backend: str = "local",
                     scheduler: str | None = None, executor: Executor | None = None) -> MatchSummary:
    """Play ``games`` seeded games of any game's edition and sum them up; ``progress(k)`` as games are done.

    Game ``i`` uses ``derive_seed(seed, i)`` (as ``samurai simulate`` does for
    every game). The games are played in batches (``samurai.runs.folders.batches_of``)
    on the executor ``backend`` (``"local"`` worker processes, ``"dask"``, or one
    a plugin contributes; see ``samurai.runs.executors``) with ``workers`` workers, or
    on the Dask cluster at ``scheduler``; the summary is the same on every backend
    and for any number of workers. ``executor`` (closed by the caller) plays on
    workers already started instead. ``save_dir`` keeps each game's record as
    ``DIR/game-NNNNN.json`` (``samurai replay`` and ``samurai render`` read them),
    after ``DIR/run.json``, each batch's as it arrives: a run interrupted by
    ``KeyboardInterrupt`` keeps its finished games and its workers are stopped.
    ``run_summary`` gives the summary as the edition's game shows it.
    """
    if games < 1:
        raise DataError(f"games must be at least 1, not {games}", source="--games")
    if workers < 1:
        raise DataError(f"workers must be at least 1, not {workers}", source="--workers")
    check_seed(seed, source="--seed")
    names = check_bots_play(edition.game, bots)
    edition.start(players, seed, options)  # bad players or options are refused before the first game
    name = loadable_name(edition)
    keep_edition(name, edition)  # this process plays with the edition it was given
    chosen = dict(options or {})
    batches = [Batch(name, players, chosen, seed, names, indices, save_dir is not None)
               for indices in batches_of(games)]
    if save_dir is not None:
        write_run(save_dir, command="simulate", games=games, edition=edition.reference, players=players,
                  seed=seed, bots=list(names), options=chosen)
    return _play_run(edition, players, seed, names, batches, {}, save_dir, progress,
                     make_executor(backend, workers=workers, scheduler=scheduler) if executor is None else executor,
                     close=executor is None, games_asked=games)


class InterruptedRun(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM (a ``KeyboardInterrupt``), holding the summary of the games it finished
    (``partial``, a ``MatchSummary``), how many were asked for and the edition played."""

    def __init__(self, partial: MatchSummary, games_asked: int, edition: Edition) -> None:
        super().__init__(f"{len(partial.games)} of {games_asked} games finished")
        self.partial = partial
        self.games_asked = games_asked
        self.edition = edition


def _play_run(edition: Edition, players: int, seed: int, names: Sequence[str], batches: Sequence[Batch],
              finished: Mapping[int, MatchGame], save_dir: str | Path | None,
              progress: Callable[[int], None] | None, runner: Executor, *, close: bool,
              games_asked: int) -> MatchSummary:
    """Play ``batches`` on ``runner`` (closed after when ``close``) beside the games already ``finished`` (by
    number); the run's summary, its games in their numbers' order. Interrupted, it raises ``InterruptedRun`` with
    the summary of the games finished until then."""
    played: list[tuple[int, MatchGame]] = []
    seated = tuple(names[seat % len(names)] for seat in range(players))

    def summary() -> MatchSummary:
        games = sorted([*finished.items(), *played], key=lambda pair: pair[0])
        return MatchSummary(edition.id, edition.game.name, players, seed, seated, tuple(g for _, g in games))

    try:
        collect_batches(runner.map(play_batch, batches), save_dir, records_of(edition.game).write, progress,
                        into=played, done=len(finished))
    except KeyboardInterrupt as stop:
        raise InterruptedRun(summary(), games_asked, edition) from stop
    finally:
        if close:  # an executor of the caller's stays theirs to close
            runner.close()
    return summary()


def resume_matches(folder: str | Path, *, trust: TrustLike = (), progress: Callable[[int], None] | None = None,
                   executor: Executor | None = None) -> tuple[Edition, MatchSummary]:
    """Carry on the run that ``simulate_matches(..., save_dir=folder)`` saved in ``folder`` and was cut short: the
    games its ``run.json`` asked for that have no record yet are played and saved, the saved ones replayed (each
    checked to be that run's game of its number), and the summary is the one the whole run would have given.

    ``run.json`` and the records are data: the edition they name must be installed, or its manifest vouched for
    in ``trust``. ``progress(k)`` counts every finished game, the saved ones first.
    """
    root = Path(folder)
    run = read_run(root)
    source = str(root / RUN_FILE)
    if run is None:
        raise DataError(f"no {RUN_FILE} here: not a folder samurai simulate --save-dir wrote", source=str(root))
    if run.get("run") != "simulate":
        raise DataError(f"the run of samurai {run.get('run')!s:.40}, not of simulate: only simulate runs resume here",
                        source=source, key="run")
    games = int(run["games"])
    players = whole_number(run.get("players"), "players", 1, 99, source=source)
    seed = whole_number(run.get("seed"), "seed", 0, MAX_SEED, source=source)
    bots, options = run.get("bots"), run.get("options", {})
    if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
        raise DataError("bots must be a list of bot names", source=source, key="bots")
    if not isinstance(options, dict):
        raise DataError("options must be a table of option values", source=source, key="options")
    vouched = Trust.of(trust)
    edition = vouched.edition(run.get("edition"), source=source, folder=root)
    names = check_bots_play(edition.game, bots)
    edition.start(players, seed, options)  # a run.json whose players or options the edition refuses stops here
    final = records_of(edition.game).final
    if final is None:
        raise DataError(f"the game {edition.game.name!r} cannot replay its records' final positions, so its runs "
                        f"do not resume", source=source, key="edition")
    wanted = edition.manifest.resolve_options(options, source=source)
    finished: dict[int, MatchGame] = {}
    for file in sorted(root.glob("game-*.json")):
        number = file.stem.removeprefix("game-")
        if not (number.isascii() and number.isdigit()) or not 0 <= int(number) < games:
            raise DataError(f"not a game of this run of {games} games (game-00000.json to "
                            f"game-{games - 1:05d}.json)", source=str(file))
        index = int(number)
        record = read_record_file(file, trust=vouched).record
        if (record.seed != derive_seed(seed, index) or record.players != players or record.edition != edition.id
                or edition.manifest.resolve_options(record.options, source=str(file)) != wanted):
            raise DataError(f"the record is not game {index} of the run in {RUN_FILE} (its edition, players, seed "
                            f"or options differ)", source=str(file))
        finished[index] = match_game(edition, record.seed, final(record, edition, str(file)), len(record.actions))
        if progress is not None:
            progress(len(finished))
    keep_edition(loadable_name(edition), edition)
    missing = [index for index in range(games) if index not in finished]
    batches = [Batch(loadable_name(edition), players, dict(options), seed, names, numbers, True)
               for numbers in batches_of(missing)]
    runner = make_executor("local", workers=1) if executor is None else executor
    return edition, _play_run(edition, players, seed, names, batches, finished, root, progress, runner,
                              close=executor is None, games_asked=games)


def run_summary(edition: Edition, summary: MatchSummary) -> Any:
    """The run's summary as ``edition``'s game shows it (``GameDefinition.runner.summary``), else ``summary``
    itself: what ``samurai simulate`` prints (``table()``) or writes as JSON (``to_dict()``)."""
    shown = edition.game.runner.summary
    return summary if shown is None else shown(summary)


@attrs.frozen
class Batch:
    """A share of a run's games for one worker: the edition (its key or manifest path), players, options, the
    run's seed, the bots, the games' numbers and whether to keep their records. A game's accelerator
    (``GameDefinition.runner.play_batch``) plays the same batches."""

    edition: str
    players: int
    options: dict[str, Any]
    seed: int
    bots: tuple[str, ...]
    indices: tuple[int, ...]
    keep_records: bool


def play_batch(batch: Batch) -> list[tuple[int, MatchGame, Any]]:
    """Play a batch of a run (in any process): each game's number, ``MatchGame`` and record if kept; through the
    game's accelerator when it offers one for the batch, else through the protocol."""
    edition = edition_named(batch.edition)
    accelerator = edition.game.runner.play_batch
    if accelerator is not None:
        played = accelerator(edition, batch)
        if played is not None:
            return list(played)
    return play_batch_on_protocol(batch)


def play_batch_on_protocol(batch: Batch) -> list[tuple[int, MatchGame, Any]]:
    """Play a batch through the protocol (``play_match``): the general path every accelerator is pinned to."""
    edition = edition_named(batch.edition)
    out: list[tuple[int, MatchGame, Any]] = []
    for index in batch.indices:
        game_seed = derive_seed(batch.seed, index)
        state, actions = play_match(edition, batch.players, game_seed, batch.bots, options=batch.options)
        record = (record_of(edition, batch.players, game_seed, batch.options, actions, state)
                  if batch.keep_records else None)
        out.append((index, match_game(edition, game_seed, state, len(actions)), record))
    return out
