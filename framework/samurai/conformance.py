"""The conformance kit: the rules any edition must keep, as plain checks.

``samurai.pytest_plugin`` runs them under pytest (``pytest --samurai-edition
ID_OR_MANIFEST``); ``run_checks`` runs them from a program. Each check takes
an edition, a player count, a seed and a number of games, and raises
``ConformanceFailure`` naming the rule that broke and the seed (and bots)
that reproduce it.

``PROTOCOL_CHECKS`` hold for any game and speak only the game protocol
(games end, same seed same game, records round-trip, a determinized
position shows the seat the same view). A game's definition adds its own
(``samurai.games.GameDefinition.checks``) and may give a stronger check of
the same name: Knizia's game gives ``CHECKS``, which read its engine
(figures and tiles conserved, its record format, greedy bots); Daimyo's adds
its tiles conserved. ``checks_for(edition)`` is what runs.

The first rule of every game, "the manifest and its hooks are valid", calls
every hook the edition's plugins implement (``check_hook_results``) and holds
each answer against its specification (``samurai.hookcalls.HOOK_RESULTS``),
so a plugin whose hook answers ``"no"`` where ``False`` is meant fails the kit.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pluggy

from .bots import play_bots
from .errors import DataError, SamuraiError
from .games import KNIZIA
from .hookcalls import call_hook, guarded
from .knizia import engine
from .knizia.facts import GameFacts
from .knizia.game import Game, new_game
from .knizia.records import from_record, record_from_dict, record_to_dict, to_record
from .knizia.rules import Rules
from .knizia.state import HANDS, OVER, State
from .knizia.tiles import CASTES
from .knizia.views import seat_view
from .plugins import Edition, load_edition
from .protocol import Move
from .simulate import derive_seed

__all__ = ["ConformanceFailure", "Check", "CHECKS", "PROTOCOL_CHECKS", "checks_for", "run_checks", "MAX_ACTIONS",
           "check_hook_results"]

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
            raise _fail(self.rule, edition, players, f"the engine refused a plugin's answer: {refused}") from None


def _fail(rule: str, edition: Edition, players: int, detail: str, seed: int | None = None,
          bots: tuple[str, ...] = ()) -> ConformanceFailure:
    return ConformanceFailure(rule, detail, edition=edition.reference, players=players, seed=seed, bots=bots)


def _seeds(seed: int, games: int) -> Iterator[int]:
    return (derive_seed(seed, index) for index in range(games))


def _played(edition: Edition, players: int, seed: int, bots: tuple[str, ...], rule: str) -> Game:
    game = new_game(edition, players=players, seed=seed)
    try:
        play_bots(game, list(bots), seed=seed, actions=MAX_ACTIONS)
    except SamuraiError as exc:
        raise _fail(rule, edition, players, f"a bot's action was refused: {exc}", seed, bots) from None
    return game


# --- the checks ----------------------------------------------------------------------------------

_SCORED_CAPTURES = 4
"""How many seeded random captures ``check_hook_results`` scores besides nobody capturing anything."""


def _option_sets(edition: Edition) -> list[dict[str, Any]]:
    """The options the hooks are asked about: the defaults, then each listed choice (a flag: the other value)
    of every option, one at a time."""
    manifest = edition.manifest
    chosen: list[dict[str, Any]] = [{}]
    for name, option in manifest.options.items():
        values = option.choices or ((not option.default,) if isinstance(option.default, bool) else ())
        chosen += [{name: value} for value in values if value != option.default]
    return [manifest.resolve_options(given) for given in chosen]


def check_hook_results(edition: Edition, players: int, seed: int, games: int) -> None:
    """Every hook the edition's own plugins implement answers as its specification says
    (``samurai.hookcalls.HOOK_RESULTS``), asked with the default options and each listed choice of every option;
    the scoring hook scores nobody capturing anything and a few seeded random captures, and every metric a plugin
    contributes gives a number for a finished game's facts."""
    rule = "the manifest and its hooks are valid"
    manifest, pm = edition.manifest, edition.plugin_manager
    own = set(manifest.plugins)
    callers = [(caller, caller.spec.argnames) for caller in vars(pm.hook).values()
               if isinstance(caller, pluggy.HookCaller) and caller.spec is not None
               and any(impl.plugin_name in own for impl in caller.get_hookimpls())]
    rng = random.Random(seed)
    captures = [{seat: dict.fromkeys(CASTES, 0) for seat in range(players)}]
    captures += [{seat: {caste: rng.randrange(4) for caste in CASTES} for seat in range(players)}
                 for _ in range(_SCORED_CAPTURES)]
    facts = GameFacts(winners=(0,), end_reason="caste_exhausted", turns=4 * players, tiles_played=6 * players,
                      captured=tuple((1, 1, 1) if seat == 0 else (0, 0, 0) for seat in range(players)), removed=0,
                      midpoint_leader=0)
    try:
        for options in _option_sets(edition):
            given: dict[str, Any] = {"edition": manifest, "players": players, "options": options}
            for caller, argnames in callers:
                asked: list[dict[str, Any]]
                if caller.name == "samurai_score":
                    asked = [dict(given, captured=captured) for captured in captures]
                elif caller.name == "samurai_game_metrics":
                    asked = [{"players": players, "first_player": first} for first in range(players)]
                else:
                    asked = [given]
                for arguments in asked:
                    answer = call_hook(caller, source=manifest.path,
                                       **{name: arguments[name] for name in argnames})
                    if caller.name == "samurai_game_metrics" and manifest.game == KNIZIA:
                        _try_metrics(answer, facts, source=manifest.path)
    except SamuraiError as exc:
        raise _fail(rule, edition, players, str(exc)) from None


def _try_metrics(contributions: list[Any], facts: GameFacts, *, source: str) -> None:
    """Each contributed metric computed for ``facts``: a ``DataError`` naming the plugin when one fails or gives
    no number, as ``samurai compare`` would give after its games."""
    from .statistics import is_metric_value

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
        rules = edition.rules(players)
        result = rules.score([0] * (3 * players))
    except SamuraiError as exc:
        raise _fail(rule, edition, players, str(exc)) from None
    if not result.winners or any(not 0 <= w < players for w in result.winners):
        raise _fail(rule, edition, players, f"scoring no captures named winners {result.winners!r}")
    if not isinstance(result.explanation, str) or not result.explanation:
        raise _fail(rule, edition, players, "scoring gave no explanation")


def check_games_end(edition: Edition, players: int, seed: int, games: int) -> None:
    """Random and greedy games end, with a result, within ``MAX_ACTIONS`` actions."""
    rule = "random and greedy games end"
    for bots in (("random",), ("greedy",), ("random", "greedy")):
        for game_seed in _seeds(seed, games):
            game = _played(edition, players, game_seed, bots, rule)
            if not game.is_over:
                raise _fail(rule, edition, players, f"not over after {MAX_ACTIONS} actions", game_seed, bots)
            result = game.result
            if result is None or not result.winners or result.end_reason is None:
                raise _fail(rule, edition, players, f"the game ended without a full result: {result!r}",
                            game_seed, bots)


def _random_play(edition: Edition, players: int, game_seed: int) -> Iterator[tuple[int, Rules, State]]:
    """A game of random legal actions: yields (actions so far, rules, position) before each action and at the end."""
    rng = random.Random(game_seed)
    rules = edition.rules(players)
    st = engine.new_state(rules, game_seed)
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
    for game_seed in _seeds(seed, games):
        for step, rules, st in _random_play(edition, players, game_seed):
            problem = _conservation_problem(rules, st)
            if problem is not None:
                raise _fail(rule, edition, players, f"after {step} random actions: {problem}", game_seed, ("random",))


def check_records_round_trip(edition: Edition, players: int, seed: int, games: int) -> None:
    """A game's record, written out and read back, replays to the same position."""
    rule = "records round-trip to the same game"
    for game_seed in _seeds(seed, games):
        game = _played(edition, players, game_seed, ("greedy", "random"), rule)
        try:
            again = from_record(record_from_dict(record_to_dict(to_record(game))), edition=edition)
        except SamuraiError as exc:
            raise _fail(rule, edition, players, f"the record does not replay: {exc}", game_seed) from None
        if again.state.fingerprint() != game.state.fingerprint() or again.history != game.history:
            raise _fail(rule, edition, players, "the replayed game differs from the one recorded", game_seed)


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
    for game_seed in _seeds(seed, games):
        hidden = random.Random(game_seed + 1)
        for _, rules, st in _random_play(edition, players, game_seed):
            for seat in range(players):
                if seat_view(rules, _hidden_changed(st, seat, hidden), seat) != seat_view(rules, st, seat):
                    raise _fail(rule, edition, players, f"seat {seat}'s view changed with tiles it cannot see "
                                f"(turn {st.turn})", game_seed)


def check_determinism(edition: Edition, players: int, seed: int, games: int) -> None:
    """The same seed and bots give the same game, action for action."""
    rule = "same seed, same game"
    for game_seed in _seeds(seed, games):
        first = _played(edition, players, game_seed, ("greedy", "random"), rule)
        second = _played(edition, players, game_seed, ("greedy", "random"), rule)
        if first.history != second.history or first.state.fingerprint() != second.state.fingerprint():
            raise _fail(rule, edition, players, "two games from the same seed differ", game_seed)
        if first.result != second.result:
            raise _fail(rule, edition, players, f"two games from the same seed end differently: "
                        f"{first.result!r} and {second.result!r}", game_seed)


CHECKS: tuple[Check, ...] = (
    Check("manifest_and_hooks", "the manifest and its hooks are valid", check_manifest_and_hooks),
    Check("games_end", "random and greedy games end", check_games_end),
    Check("conservation", "figures and tiles are conserved", check_conservation),
    Check("records_round_trip", "records round-trip to the same game", check_records_round_trip),
    Check("views_hide", "views hide what they must", check_views_hide),
    Check("determinism", "same seed, same game", check_determinism),
)
"""Every check of the kit, in the order they run."""


# --- the checks of any game, through the protocol ---------------------------------------------

_PROTOCOL_BOTS: tuple[tuple[str, ...], ...] = (("random",), ("mcts:4", "random"))
"""The bots of the protocol checks: random, and a small search against random (both play any game)."""


def _protocol_game(edition: Edition, players: int, seed: int, bots: tuple[str, ...],
                   rule: str) -> tuple[Any, list[Move]]:
    """A whole game between bots through the protocol; a refused action or an endless game breaks ``rule``."""
    from .matches import play_match

    try:
        return play_match(edition, players, seed, bots)
    except SamuraiError as exc:
        raise _fail(rule, edition, players, str(exc), seed, bots) from None


def check_protocol_games_end(edition: Edition, players: int, seed: int, games: int) -> None:
    """Games between random and MCTS bots end, with returns that share one win."""
    rule = "games end"
    for bots in _PROTOCOL_BOTS:
        for game_seed in _seeds(seed, games):
            state, _ = _protocol_game(edition, players, game_seed, bots, rule)
            returns = state.returns()
            if len(returns) != players or abs(sum(returns) - 1.0) > 1e-9 or min(returns) < 0:
                raise _fail(rule, edition, players, f"the game ended with returns {returns!r}, which do not share "
                            f"one win", game_seed, bots)


def check_protocol_determinism(edition: Edition, players: int, seed: int, games: int) -> None:
    """The same seed and bots give the same game, action for action, and the same returns."""
    rule = "same seed, same game"
    from .game_records import position_check_of

    for bots in _PROTOCOL_BOTS:
        for game_seed in _seeds(seed, games):
            first, first_actions = _protocol_game(edition, players, game_seed, bots, rule)
            second, second_actions = _protocol_game(edition, players, game_seed, bots, rule)
            if first_actions != second_actions or position_check_of(first) != position_check_of(second):
                raise _fail(rule, edition, players, "two games from the same seed differ", game_seed, bots)


def check_protocol_records(edition: Edition, players: int, seed: int, games: int) -> None:
    """A game's record, written as JSON and read back, replays to the same position."""
    import json

    from .game_records import play_record_from_dict, play_record_of, play_record_to_dict, position_check_of, replayed

    rule = "records round-trip to the same game"
    for game_seed in _seeds(seed, games):
        state, actions = _protocol_game(edition, players, game_seed, ("random",), rule)
        text = json.dumps(play_record_to_dict(play_record_of(edition, players, game_seed, None, actions, state)))
        try:
            record = play_record_from_dict(json.loads(text))
            again = replayed(record, trust=[edition])
        except SamuraiError as exc:
            raise _fail(rule, edition, players, f"the record does not replay: {exc}", game_seed) from None
        if position_check_of(again) != position_check_of(state) or list(record.actions) != actions:
            raise _fail(rule, edition, players, "the replayed game differs from the one recorded", game_seed)


def check_protocol_views_hide(edition: Edition, players: int, seed: int, games: int) -> None:
    """What a seat knows is all it is shown: a position drawn from its knowledge (``determinize``) gives the
    seat the same view and, when it is to act, the same legal actions and the same quick player's action
    (``policy_action``, which must be legal)."""
    rule = "views hide what they must"
    for game_seed in _seeds(seed, games):
        rng, draws = random.Random(game_seed), random.Random(game_seed + 1)
        state = edition.start(players, game_seed)
        for step in range(MAX_ACTIONS):
            for seat in range(players):
                drawn = state.determinize(seat, draws)
                if drawn.view(seat) != state.view(seat):
                    raise _fail(rule, edition, players, f"after {step} random actions, a position drawn from seat "
                                f"{seat}'s knowledge shows it another view", game_seed, ("random",))
                if seat == state.to_act and drawn.legal_actions() != state.legal_actions():
                    raise _fail(rule, edition, players, f"after {step} random actions, a position drawn from seat "
                                f"{seat}'s knowledge has other legal actions", game_seed, ("random",))
                if seat == state.to_act:
                    policy = state.policy_action(random.Random(step))
                    if state.check(policy) is not None:
                        raise _fail(rule, edition, players, f"after {step} random actions, the quick player "
                                    f"(policy_action) chose an illegal action {list(policy)}", game_seed, ("random",))
                    if drawn.policy_action(random.Random(step)) != policy:
                        raise _fail(rule, edition, players, f"after {step} random actions, the quick player "
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
            return [ConformanceFailure(CHECKS[0].rule, f"the edition does not load: {refused}", edition=edition,
                                       players=0)]
    failures = []
    for players in sorted(ed.player_counts):
        for check in checks_for(ed):
            try:
                check.run(ed, players, seed, games)
            except ConformanceFailure as failure:
                failures.append(failure)
    return failures
