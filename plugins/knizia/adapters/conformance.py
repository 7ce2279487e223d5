"""Knizia's game's conformance checks (its ``GameDefinition.checks``): stronger checks than the kit's protocol
checks of the same names (``samurai.kit.conformance.PROTOCOL_CHECKS``), read from its engine: figures and tiles
conserved, its record format, greedy bots, the scoring of a few captures, the metrics its plugins contribute.

``hook_arguments`` and ``check_hook_answer`` tell the kit's first rule (``samurai.kit.conformance.check_hook_results``)
how to ask this game's hooks that take more than an edition, a player count and options, and what to try with
their answers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from samurai.catalog.editions import Edition
from samurai.errors import SamuraiError
from samurai.hooks.calls import guarded
from samurai.kit.conformance import MAX_ACTIONS, Check, broken_rule, check_hook_results, game_seeds
from samurai.runs.statistics import is_metric_value
from samurai_plugins.knizia.adapters.play_bots import play_bots
from samurai_plugins.knizia.core.facts import GameFacts
from samurai_plugins.knizia.core.state import HANDS, OVER, State
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.engine.backends import NATIVE, PYTHON, native_module_or_error, native_unsupported
from samurai_plugins.knizia.engine.edition import knizia_edition
from samurai_plugins.knizia.play.game import Game, new_game
from samurai_plugins.knizia.play.record_files import from_record, record_from_dict, record_to_dict, to_record
from samurai_plugins.knizia.play.views import seat_view

__all__ = ["CHECKS", "hook_arguments", "check_hook_answer"]


def hook_arguments(edition: Edition, players: int, seed: int) -> Mapping[str, Sequence[Mapping[str, Any]]]:
    """What the kit asks this game's hooks beyond the edition, players and options: the scoring hook scores nobody
    capturing anything and a few seeded random captures; the metrics hook is asked for each first player."""
    rng = random.Random(seed)
    captures = [{seat: dict.fromkeys(CASTES, 0) for seat in range(players)}]
    captures += [{seat: {caste: rng.randrange(4) for caste in CASTES} for seat in range(players)}
                 for _ in range(_SCORED_CAPTURES)]
    return {"samurai_score": [{"captured": captured} for captured in captures],
            "samurai_game_metrics": [{"players": players, "first_player": first} for first in range(players)]}


def check_hook_answer(hook: str, answer: Any, edition: Edition, players: int) -> None:
    """Every metric a plugin contributes gives a number for a finished game's facts, as ``samurai compare`` would
    ask after its games; a ``DataError`` naming the plugin otherwise."""
    if hook != "samurai_game_metrics":
        return
    facts = GameFacts(winners=(0,), end_reason="caste_exhausted", turns=4 * players, tiles_played=6 * players,
                      captured=tuple((1, 1, 1) if seat == 0 else (0, 0, 0) for seat in range(players)), removed=0,
                      midpoint_leader=0)
    _try_metrics(answer, facts, source=edition.manifest.path)


def _played(edition: Edition, players: int, seed: int, bots: tuple[str, ...], rule: str) -> Game:
    game = new_game(edition, players=players, seed=seed)
    try:
        play_bots(game, list(bots), seed=seed, actions=MAX_ACTIONS)
    except SamuraiError as exc:
        raise broken_rule(rule, edition, players, f"a bot's action was refused: {exc}", seed, bots) from None
    return game


_SCORED_CAPTURES = 4
"""How many seeded random captures ``check_hook_results`` scores besides nobody capturing anything."""


def _try_metrics(contributions: list[Any], facts: GameFacts, *, source: str) -> None:
    """Each contributed metric computed for ``facts``: a ``DataError`` naming the plugin when one fails or gives
    no number, as ``samurai compare`` would give after its games."""
    for metrics in contributions:
        for metric in metrics:
            guarded(metric.value, f"samurai_game_metrics metric {metric.name!r}", source=source,
                    check=is_metric_value, expected="a number")(facts)


def check_manifest_and_hooks(edition: Edition, players: int, seed: int, games: int) -> None:
    """The manifest compiles for this player count and every hook its plugins implement answers as its
    specification says (``check_hook_results``)."""
    rule = "the manifest and its hooks are valid"
    check_hook_results(edition, players, seed, games)
    try:
        rules = knizia_edition(edition).rules(players)
        result = rules.score([0] * (3 * players))
    except SamuraiError as exc:
        raise broken_rule(rule, edition, players, str(exc)) from None
    if not result.winners or any(not 0 <= w < players for w in result.winners):
        raise broken_rule(rule, edition, players, f"scoring no captures named winners {result.winners!r}")
    if not isinstance(result.explanation, str) or not result.explanation:
        raise broken_rule(rule, edition, players, "scoring gave no explanation")


def check_games_end(edition: Edition, players: int, seed: int, games: int) -> None:
    """Random and greedy games end, with a result, within ``MAX_ACTIONS`` actions."""
    rule = "random and greedy games end"
    for bots in (("random",), ("greedy",), ("random", "greedy")):
        for game_seed in game_seeds(seed, games):
            game = _played(edition, players, game_seed, bots, rule)
            if not game.is_over:
                raise broken_rule(rule, edition, players, f"not over after {MAX_ACTIONS} actions", game_seed, bots)
            result = game.result
            if not result.winners or result.end_reason is None:
                raise broken_rule(rule, edition, players, f"the game ended without a full result: {result!r}",
                            game_seed, bots)


def _random_play(edition: Edition, players: int, game_seed: int) -> Iterator[tuple[int, Rules, State]]:
    """A game of random legal actions on the Python engine (the checks below change its positions' lists): yields
    (actions so far, rules, position) before each action and at the end."""
    rng = random.Random(game_seed)
    rules = knizia_edition(edition).rules(players)
    st = PYTHON.new_state(rules, game_seed)
    for step in range(MAX_ACTIONS):
        yield step, rules, st
        if st.phase == OVER:
            return
        engine.apply(rules, st, engine.sample_action(rules, st, rng))


def _conservation_problem(rules: Rules, s: State) -> str | None:
    n, total_tiles = rules.players, len(rules.player_tiles)
    for caste in range(3):
        captured = sum(s.captured[seat * 3 + caste] for seat in range(n))
        if s.on_board[caste] + captured + s.removed[caste] + s.supply[caste] != rules.figures_per_caste:
            return (f"caste {caste}: {s.on_board[caste]} on the board + {captured} captured + {s.removed[caste]} "
                    f"removed + {s.supply[caste]} in the supply != {rules.figures_per_caste} figures")
        if s.on_board[caste] != sum(1 for mask in s.figures if mask >> caste & 1):
            return f"caste {caste}: the count on the board disagrees with the settlements"
    for seat in range(n):
        on_board = sum(1 for owner in s.tile_owner if owner == seat)
        held = len(s.pools[seat]) + len(s.hands[seat]) + len(s.stacks[seat])
        if held + on_board + s.spent[seat] != total_tiles:
            return (f"seat {seat}: {held} held + {on_board} on the board + {s.spent[seat]} spent != "
                    f"{total_tiles} tiles")
        if len(s.hands[seat]) > rules.hand_size:
            return f"seat {seat} holds {len(s.hands[seat])} tiles, more than {rules.hand_size}"
    return None


def check_conservation(edition: Edition, players: int, seed: int, games: int) -> None:
    """Figures and tiles are conserved after every action, and no hand grows past its size."""
    rule = "figures and tiles are conserved"
    for game_seed in game_seeds(seed, games):
        for step, rules, st in _random_play(edition, players, game_seed):
            problem = _conservation_problem(rules, st)
            if problem is not None:
                raise broken_rule(rule, edition, players, f"after {step} random actions: {problem}", game_seed,
                                  ("random",))


def check_records_round_trip(edition: Edition, players: int, seed: int, games: int) -> None:
    """A game's record, written out and read back, replays to the same position."""
    rule = "records round-trip to the same game"
    for game_seed in game_seeds(seed, games):
        game = _played(edition, players, game_seed, ("greedy", "random"), rule)
        try:
            again = from_record(record_from_dict(record_to_dict(to_record(game))), edition=edition)
        except SamuraiError as exc:
            raise broken_rule(rule, edition, players, f"the record does not replay: {exc}", game_seed) from None
        if again.state.fingerprint() != game.state.fingerprint() or again.history != game.history:
            raise broken_rule(rule, edition, players, "the replayed game differs from the one recorded", game_seed)


def _hidden_changed(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` changed only in what ``seat`` may not know: the others' tiles and every stack's order."""
    other = state.copy()
    for them in range(len(other.hands)):
        if them == seat:
            continue
        if other.phase == HANDS:
            rng.shuffle(other.pools[them])
            continue
        held = other.hands[them] + other.stacks[them]
        rng.shuffle(held)
        size = len(other.hands[them])
        other.hands[them], other.stacks[them] = held[:size], held[size:]
    for stack in other.stacks:
        rng.shuffle(stack)
    other.rng = random.Random(rng.random())
    return other


def check_views_hide(edition: Edition, players: int, seed: int, games: int) -> None:
    """A seat's view is the same however the tiles it cannot see lie (other hands, stack order, generator)."""
    rule = "views hide what they must"
    for game_seed in game_seeds(seed, games):
        hidden = random.Random(game_seed + 1)
        for _, rules, st in _random_play(edition, players, game_seed):
            for seat in range(players):
                if seat_view(rules, _hidden_changed(st, seat, hidden), seat) != seat_view(rules, st, seat):
                    raise broken_rule(rule, edition, players, f"seat {seat}'s view changed with tiles it cannot see "
                                f"(turn {st.turn})", game_seed)


def check_determinism(edition: Edition, players: int, seed: int, games: int) -> None:
    """The same seed and bots give the same game, action for action."""
    rule = "same seed, same game"
    for game_seed in game_seeds(seed, games):
        first = _played(edition, players, game_seed, ("greedy", "random"), rule)
        second = _played(edition, players, game_seed, ("greedy", "random"), rule)
        if first.history != second.history or first.state.fingerprint() != second.state.fingerprint():
            raise broken_rule(rule, edition, players, "two games from the same seed differ", game_seed)
        if first.result != second.result:
            raise broken_rule(rule, edition, players, f"two games from the same seed end differently: "
                        f"{first.result!r} and {second.result!r}", game_seed)


def check_engines_agree(edition: Edition, players: int, seed: int, games: int) -> None:
    """Where the native engine plays the edition (``samurai_plugins.knizia.engine.backends``), it plays the Python
    engine's games: the same legal actions and position after every action of seeded random games, the same result; and
    a scoring hook that claims a native scoring (``samurai_plugins.knizia.editions.native_scoring``) decides as it does
    on random captures."""
    rule = "both engines play the same games"
    rules = knizia_edition(edition).rules(players)
    if native_unsupported(rules) is not None:
        return  # the Python engine alone plays it: nothing to compare
    if rules.native_scoring != "python":  # the claim first: a wrong one would make the games differ too
        _check_scoring_claim(edition, players, seed, rules, rule)
    for game_seed in game_seeds(seed, games):
        reference, native = PYTHON.new_state(rules, game_seed), NATIVE.new_state(rules, game_seed)
        draws, twin = random.Random(game_seed), random.Random(game_seed)
        for step in range(MAX_ACTIONS):
            if reference.fingerprint() != native.fingerprint():
                raise broken_rule(rule, edition, players, f"the positions differ after {step} random actions",
                                  game_seed, ("random",))
            if reference.phase == OVER:
                break
            if PYTHON.legal_actions(rules, reference) != NATIVE.legal_actions(rules, native):
                raise broken_rule(rule, edition, players, f"the legal actions differ after {step} random actions",
                                  game_seed, ("random",))
            PYTHON.apply(rules, reference, PYTHON.sample_action(rules, reference, draws))
            NATIVE.apply(rules, native, NATIVE.sample_action(rules, native, twin))
        if reference.result != native.result:
            raise broken_rule(rule, edition, players, f"the results differ: {reference.result!r} and "
                              f"{native.result!r}", game_seed, ("random",))


def _check_scoring_claim(edition: Edition, players: int, seed: int, rules: Rules, rule: str) -> None:
    """The scoring hook decides as the native scoring it claims, on random captures."""
    decide = native_module_or_error().native_scoring_decision
    rng = random.Random(seed)
    for _ in range(_SCORED_CAPTURES * 50):
        captured = [rng.randrange(4) for _ in range(3 * players)]
        hook = rules.score(captured)
        if decide(rules.native_scoring, captured, players) != (list(hook.winners), hook.reason):
            raise broken_rule(rule, edition, players, f"the scoring hook claims the native scoring "
                              f"{rules.native_scoring!r} but decides {captured} as {hook.winners} "
                              f"({hook.reason}), which it does not")


CHECKS: tuple[Check, ...] = (
    Check("manifest_and_hooks", "the manifest and its hooks are valid", check_manifest_and_hooks),
    Check("games_end", "random and greedy games end", check_games_end),
    Check("conservation", "figures and tiles are conserved", check_conservation),
    Check("records_round_trip", "records round-trip to the same game", check_records_round_trip),
    Check("views_hide", "views hide what they must", check_views_hide),
    Check("determinism", "same seed, same game", check_determinism),
    Check("engines_agree", "both engines play the same games", check_engines_agree),
)
"""Every check of the kit, in the order they run."""
