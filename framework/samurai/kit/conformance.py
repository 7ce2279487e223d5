"""The conformance kit: the rules any edition must keep, as plain checks.

``samurai.kit.pytest_plugin`` runs them under pytest (``pytest --samurai-edition
ID_OR_MANIFEST``); ``run_checks`` runs them from a program. Each check takes
an edition, a player count, a seed and a number of games, and raises
``ConformanceFailure`` naming the rule that broke and the seed (and bots)
that reproduce it.

``PROTOCOL_CHECKS`` hold for any game and speak only the game protocol
(games end, same seed same game, records round-trip, a determinized
position shows the seat the same view). A game's definition adds its own
(``samurai.catalog.games.GameDefinition.checks``) and may give a stronger check of
the same name: Knizia's game gives ``samurai_plugins.knizia.adapters.conformance.CHECKS``, which read its engine
(figures and tiles conserved, its record format, greedy bots); Daimyo's adds
its tiles conserved. ``checks_for(edition)`` is what runs.

The first rule of every game, "the manifest and its hooks are valid", calls
every hook the edition's plugins implement (``check_hook_results``) and holds
each answer against its specification (``samurai.hooks.calls.HOOK_RESULTS``),
so a plugin whose hook answers ``"no"`` where ``False`` is meant fails the kit.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pluggy

from ..catalog.editions import Edition, load_edition
from ..catalog.games import GAMES_RESULT
from ..errors import DataError, SamuraiError
from ..hooks.calls import HOOK_RESULTS, HookResult, call_hook
from ..protocol import Move
from ..runs.executors import EXECUTORS_RESULT
from ..seeds import derive_seed

__all__ = ["ConformanceFailure", "Check", "PROTOCOL_CHECKS", "broken_rule", "game_seeds", "checks_for", "run_checks",
           "MAX_ACTIONS",
           "check_hook_results", "FRAMEWORK_HOOK_RESULTS"]

MAX_ACTIONS = 20_000
"""A game that has not ended after this many actions counts as endless."""


class ConformanceFailure(AssertionError):
    """A rule an edition broke, with what reproduces it."""

    def __init__(self, rule: str, detail: str, *, edition: str, players: int, seed: int | None = None,
                 bots: tuple[str, ...] = ()) -> None:
        where = f"edition {edition!r}" + (f", {players} players" if players else "")
        if seed is not None:
            where += f", seed {seed}"
        if bots:
            where += f", bots {','.join(bots)}"
        super().__init__(f"rule broken: {rule}: {detail} ({where})")
        self.rule = rule
        self.seed = seed


@attrs.frozen
class Check:
    """One rule of the kit: its name, what it means, and the function that checks it."""

    name: str
    rule: str
    check: Callable[[Edition, int, int, int], None]
    """``check(edition, players, seed, games)`` raises ``ConformanceFailure`` when the rule breaks."""

    def run(self, edition: Edition, players: int, seed: int, games: int) -> None:
        """Check the rule; a plugin the engine refuses on the way (a hook that fails or answers wrongly)
        breaks this rule too, and is reported as such."""
        try:
            self.check(edition, players, seed, games)
        except ConformanceFailure:
            raise
        except SamuraiError as refused:
            raise broken_rule(self.rule, edition, players, f"the engine refused a plugin's answer: {refused}") from None


def broken_rule(rule: str, edition: Edition, players: int, detail: str, seed: int | None = None,
                bots: tuple[str, ...] = ()) -> ConformanceFailure:
    """The ``ConformanceFailure`` of ``rule`` for ``edition``, naming what reproduces it."""
    return ConformanceFailure(rule, detail, edition=edition.reference, players=players, seed=seed, bots=bots)


def game_seeds(seed: int, games: int) -> Iterator[int]:
    """The seeds of a check's ``games`` games, derived from its ``seed`` as every run derives them."""
    return (derive_seed(seed, index) for index in range(games))


# --- the checks ----------------------------------------------------------------------------------


def _option_sets(edition: Edition) -> list[dict[str, Any]]:
    """The options the hooks are asked about: the defaults, then each listed choice (a flag: the other value)
    of every option, one at a time."""
    manifest = edition.manifest
    chosen: list[dict[str, Any]] = [{}]
    for name, option in manifest.options.items():
        values = option.choices or ((not option.default,) if isinstance(option.default, bool) else ())
        chosen += [{name: value} for value in values if value != option.default]
    return [manifest.resolve_options(given) for given in chosen]


FRAMEWORK_HOOK_RESULTS: dict[str, HookResult] = {**HOOK_RESULTS, "samurai_games": GAMES_RESULT,
                                                 "samurai_executors": EXECUTORS_RESULT}
"""What every hook of the framework (``samurai.hooks.specs``) must return, by hook name: the checkers of
``samurai.hooks.calls.HOOK_RESULTS`` and those that live beside the types they check (``GameDefinition``,
``ExecutorFactory``)."""


def check_hook_results(edition: Edition, players: int, seed: int, games: int) -> None:
    """Every hook the edition's own plugins implement answers as its specification says
    (``FRAMEWORK_HOOK_RESULTS``, and the game's ``GameDefinition.editions.hook_results`` for its own hooks), asked
    with the default options and each listed choice of every option.

    A hook is asked with the edition's manifest, the player count and the options; the hooks of a game that take
    more are asked as the game's ``GameDefinition.editions.hook_arguments`` says (Knizia's game scores a few
    captures), and its ``check_hook_answer`` tries what they answer (the metrics its plugins contribute)."""
    rule = "the manifest and its hooks are valid"
    manifest, pm, game = edition.manifest, edition.plugin_manager, edition.game
    own = set(manifest.plugins)
    callers = [(caller, caller.spec.argnames) for caller in vars(pm.hook).values()
               if isinstance(caller, pluggy.HookCaller) and caller.spec is not None
               and any(impl.plugin_name in own for impl in caller.get_hookimpls())]
    special = game.editions.hook_arguments(edition, players, seed) if game.editions.hook_arguments is not None else {}
    checkers = {**FRAMEWORK_HOOK_RESULTS, **game.editions.hook_results}
    try:
        for options in _option_sets(edition):
            given: dict[str, Any] = {"edition": manifest, "players": players, "options": options}
            for caller, argnames in callers:
                asked = [dict(given, **extra) for extra in special.get(caller.name, ({},))]
                for arguments in asked:
                    missing = [name for name in argnames if name not in arguments]
                    if missing:
                        raise broken_rule(rule, edition, players, f"the kit cannot ask {caller.name}: the game "
                                          f"{game.name!r} does not say what to give for {', '.join(missing)}")
                    answer = call_hook(caller, source=manifest.path, hook_results=checkers,
                                       **{name: arguments[name] for name in argnames})
                    if game.editions.check_hook_answer is not None:
                        game.editions.check_hook_answer(caller.name, answer, edition, players)
    except SamuraiError as exc:
        raise broken_rule(rule, edition, players, str(exc)) from None


# --- the checks of any game, through the protocol ---------------------------------------------

_PROTOCOL_BOTS: tuple[tuple[str, ...], ...] = (("random",), ("mcts:4", "random"))
"""The bots of the protocol checks: random, and a small search against random (both play any game)."""


def _protocol_game(edition: Edition, players: int, seed: int, bots: tuple[str, ...],
                   rule: str) -> tuple[Any, list[Move]]:
    """A whole game between bots through the protocol; a refused action or an endless game breaks ``rule``."""
    from ..runs.matches import play_match

    try:
        return play_match(edition, players, seed, bots)
    except SamuraiError as exc:
        raise broken_rule(rule, edition, players, str(exc), seed, bots) from None


def check_protocol_games_end(edition: Edition, players: int, seed: int, games: int) -> None:
    """Games between random and MCTS bots end, with returns that share one win."""
    rule = "games end"
    for bots in _PROTOCOL_BOTS:
        for game_seed in game_seeds(seed, games):
            state, _ = _protocol_game(edition, players, game_seed, bots, rule)
            returns = state.returns()
            if len(returns) != players or abs(sum(returns) - 1.0) > 1e-9 or min(returns) < 0:
                raise broken_rule(rule, edition, players,
                                  f"the game ended with returns {returns!r}, which do not share "
                                  f"one win", game_seed, bots)


def check_protocol_determinism(edition: Edition, players: int, seed: int, games: int) -> None:
    """The same seed and bots give the same game, action for action, and the same returns."""
    rule = "same seed, same game"
    from ..records import position_check_of

    for bots in _PROTOCOL_BOTS:
        for game_seed in game_seeds(seed, games):
            first, first_actions = _protocol_game(edition, players, game_seed, bots, rule)
            second, second_actions = _protocol_game(edition, players, game_seed, bots, rule)
            if first_actions != second_actions or position_check_of(first) != position_check_of(second):
                raise broken_rule(rule, edition, players, "two games from the same seed differ", game_seed, bots)


def check_protocol_records(edition: Edition, players: int, seed: int, games: int) -> None:
    """A game's record, written as JSON and read back, replays to the same position."""
    import json

    from ..records import play_record_from_dict, play_record_of, play_record_to_dict, position_check_of, replayed

    rule = "records round-trip to the same game"
    for game_seed in game_seeds(seed, games):
        state, actions = _protocol_game(edition, players, game_seed, ("random",), rule)
        text = json.dumps(play_record_to_dict(play_record_of(edition, players, game_seed, None, actions, state)))
        try:
            record = play_record_from_dict(json.loads(text))
            again = replayed(record, trust=[edition])
        except SamuraiError as exc:
            raise broken_rule(rule, edition, players, f"the record does not replay: {exc}", game_seed) from None
        if position_check_of(again) != position_check_of(state) or list(record.actions) != actions:
            raise broken_rule(rule, edition, players, "the replayed game differs from the one recorded", game_seed)


def check_protocol_views_hide(edition: Edition, players: int, seed: int, games: int) -> None:
    """What a seat knows is all it is shown: a position drawn from its knowledge (``determinize``) gives the
    seat the same view and, when it is to act, the same legal actions and the same quick player's action
    (``policy_action``, which must be legal)."""
    rule = "views hide what they must"
    for game_seed in game_seeds(seed, games):
        rng, draws = random.Random(game_seed), random.Random(game_seed + 1)
        state = edition.start(players, game_seed)
        for step in range(MAX_ACTIONS):
            for seat in range(players):
                drawn = state.determinize(seat, draws)
                if drawn.view(seat) != state.view(seat):
                    raise broken_rule(rule, edition, players,
                                      f"after {step} random actions, a position drawn from seat "
                                      f"{seat}'s knowledge shows it another view", game_seed, ("random",))
                if seat == state.to_act and drawn.legal_actions() != state.legal_actions():
                    raise broken_rule(rule, edition, players,
                                      f"after {step} random actions, a position drawn from seat "
                                      f"{seat}'s knowledge has other legal actions", game_seed, ("random",))
                if seat == state.to_act:
                    policy = state.policy_action(random.Random(step))
                    if state.check(policy) is not None:
                        raise broken_rule(rule, edition, players, f"after {step} random actions, the quick player "
                                    f"(policy_action) chose an illegal action {list(policy)}", game_seed, ("random",))
                    if drawn.policy_action(random.Random(step)) != policy:
                        raise broken_rule(rule, edition, players, f"after {step} random actions, the quick player "
                                    f"(policy_action) chose differently in a position drawn from seat {seat}'s "
                                    "knowledge: it reads what the seat cannot know", game_seed, ("random",))
            if state.is_over:
                break
            state.apply(state.sample_action(rng))


PROTOCOL_CHECKS: tuple[Check, ...] = (
    Check("manifest_and_hooks", "the manifest and its hooks are valid", check_hook_results),
    Check("games_end", "games end", check_protocol_games_end),
    Check("records_round_trip", "records round-trip to the same game", check_protocol_records),
    Check("views_hide", "views hide what they must", check_protocol_views_hide),
    Check("determinism", "same seed, same game", check_protocol_determinism),
)
"""The kit's checks of any game, through the game protocol only."""


def checks_for(edition: Edition) -> tuple[Check, ...]:
    """The checks that run for ``edition``: its game's own (``GameDefinition.checks``), then those of
    ``PROTOCOL_CHECKS`` the game did not replace with a stronger check of the same name."""
    own = tuple(edition.game.checks())
    names = {check.name for check in own}
    return (*own, *(check for check in PROTOCOL_CHECKS if check.name not in names))


def run_checks(edition: str | Edition, *, seed: int = 0, games: int = 5) -> list[ConformanceFailure]:
    """Run every check for every player count the edition supports; the failures (empty when sound)."""
    if isinstance(edition, Edition):
        ed = edition
    else:
        try:
            ed = load_edition(edition)
        except DataError as refused:  # the engine refuses the edition itself: the first rule is broken
            return [ConformanceFailure(PROTOCOL_CHECKS[0].rule, f"the edition does not load: {refused}",
                                       edition=edition,
                                       players=0)]
    failures = []
    for players in sorted(ed.player_counts):
        for check in checks_for(ed):
            try:
                check.run(ed, players, seed, games)
            except ConformanceFailure as failure:
                failures.append(failure)
    return failures
