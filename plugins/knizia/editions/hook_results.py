"""What each hook of Knizia's game (``samurai_plugins.knizia.editions.hookspecs``) must return: its game definition's
``hook_results``, held against every answer where the hook is called (``samurai.hooks.calls.call_hook``).

The refusals read like the framework's (``samurai.hooks.calls``): one line naming the plugin, the hook, the
value it returned and what it should have.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from samurai.hooks.calls import (
    PLUGIN_FAILURES,
    Field,
    HookResult,
    bool_problem,
    field_problem,
    instance_of,
    is_sequence,
    is_text,
    is_whole,
    list_of,
    not_expected,
    one_of,
    record_problem,
    short,
)
from samurai.runs.statistics import GameMetric
from samurai_plugins.knizia.core.actions import Action
from samurai_plugins.knizia.core.maps import SETTLEMENT_CAPACITY
from samurai_plugins.knizia.core.result import END_REASONS, Result
from samurai_plugins.knizia.editions.setup import SETUP_PHASES, SetupProcedure

__all__ = ["KNIZIA_HOOK_RESULTS", "score_problem"]


def _settlement_kinds_problem(kinds: Any) -> str | None:
    if is_sequence(kinds) and all(isinstance(kind, str) and kind in SETTLEMENT_CAPACITY for kind in kinds):
        return None
    return f"a list of settlement kinds ({', '.join(map(repr, SETTLEMENT_CAPACITY))})"


def _setup_problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
    if not isinstance(value, SetupProcedure):
        return not_expected(value, "a SetupProcedure")
    kind, phases = "SetupProcedure", tuple(SETUP_PHASES)
    order = value.order
    if not (is_sequence(order) and all(isinstance(p, str) for p in order) and sorted(order) == sorted(phases)):
        return field_problem(kind, "order", order, f"each of {', '.join(map(repr, phases))} once")
    for name in ("hands", "figures"):
        chosen = getattr(value, name)
        if not (isinstance(chosen, str) and chosen in ("choose", "random")):
            return field_problem(kind, name, chosen, "'choose' or 'random'")
    stages = value.figure_stages
    if not is_sequence(stages) or any(_settlement_kinds_problem(stage) for stage in stages):
        return field_problem(kind, "figure_stages", stages, "a list of stages, each a list of settlement kinds")
    wrong = _settlement_kinds_problem(value.prefilled)
    if wrong is not None:
        return field_problem(kind, "prefilled", value.prefilled, wrong)
    players = arguments["players"]
    if not (is_whole(value.first_player) and 0 <= value.first_player < players):
        return (f"a {kind} whose first_player {short(value.first_player)} is not a seat of a {players}-player game "
                f"(0 to {players - 1})")
    if value.figures_must_fit is not True and value.figures_must_fit is not False:
        return field_problem(kind, "figures_must_fit", value.figures_must_fit, "True or False")
    return None


def score_problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
    """What is wrong with a scoring hook's answer for the ``captured`` it was given, or None (see
    ``KNIZIA_HOOK_RESULTS``).

    ``samurai_plugins.knizia.editions.rules`` checks every game's result on a faster path and asks here only
    for the words.
    """
    expected = "a Result naming winning seats"
    if not isinstance(value, Result):
        return not_expected(value, expected)
    seats = arguments["captured"]
    winners = value.winners
    if not isinstance(winners, tuple) or not winners:
        return f"{not_expected(value, expected)}: winners must be a tuple of one seat or more"
    for seat in winners:
        if not is_whole(seat) or seat not in seats:
            return f"{not_expected(value, expected)}: {short(seat)} is not a seat of the {len(seats)} scored"
    if len(set(winners)) != len(winners):
        return f"{not_expected(value, expected)}: a seat is named twice among the winners"
    if not is_text(value.reason):
        return f"{not_expected(value, expected)}: reason must be a short code (text), not {short(value.reason)}"
    explanation = value._explanation
    if not (isinstance(explanation, str) or callable(explanation)):
        return f"{not_expected(value, expected)}: the explanation must be text or a function writing it"
    if value.end_reason is not None and value.end_reason not in END_REASONS:
        return (f"{not_expected(value, expected)}: end_reason is the engine's to fill in: None or one of "
                f"{', '.join(map(repr, END_REASONS))}")
    return None


def _behaviour_problem(item: Any) -> str | None:
    name = getattr(item, "name", None)
    if not is_text(name):
        return field_problem("tile behaviour", "name", name, "a text naming the behaviour")
    try:
        action_type = item.action_type
    except PLUGIN_FAILURES as exc:
        return f"a tile behaviour {name!r} whose action_type fails ({type(exc).__name__})"
    if not (isinstance(action_type, type) and issubclass(action_type, Action)):
        return field_problem(f"tile behaviour {name!r},", "action_type", action_type,
                             "a samurai_plugins.knizia.core.actions.Action class")
    for method in ("can_play", "legal", "check", "sample", "apply", "to_action", "from_action", "parameter_ranges",
                   "describe", "words", "clicks", "marks", "draw_glyph", "greedy_worth"):
        if not callable(getattr(item, method, None)):
            return (f"a tile behaviour {name!r} without the method {method} "
                    f"(see samurai_plugins.knizia.engine.special_tiles.TileBehaviour; TileFaces gives the faces)")
    try:
        title = item.title
    except PLUGIN_FAILURES as exc:
        return f"a tile behaviour {name!r} whose title fails ({type(exc).__name__})"
    if not is_text(title):
        return field_problem(f"tile behaviour {name!r},", "title", title, "a text naming the tile in words")
    return None


_METRIC_PROBLEM = record_problem(GameMetric, "a text", (
    Field("label", instance_of(str), "a text"),
    Field("kind", lambda kind: isinstance(kind, str) and kind in ("rate", "mean"), "'rate' or 'mean'"),
    Field("value", callable, "a function of one game's facts"),
))


KNIZIA_HOOK_RESULTS: dict[str, HookResult] = {
    "samurai_setup_procedure": HookResult("a SetupProcedure", _setup_problem),
    "samurai_resolution_timing": one_of("end_of_turn", "each_tile"),
    "samurai_end_check_timing": one_of("end_of_turn", "immediate"),
    "samurai_cannot_play": one_of("pass", "end"),
    "samurai_tile_behaviours": list_of("TileBehaviour", _behaviour_problem),
    "samurai_public_captures": HookResult("True or False", bool_problem),
    "samurai_score": HookResult("a Result naming winning seats", score_problem),
    "samurai_game_metrics": list_of("GameMetric", _METRIC_PROBLEM),
}
"""What every hook of ``samurai_plugins.knizia.editions.hookspecs`` must return, by hook name
(docs/designing-editions.md lists them). Bools must be ``True`` or ``False`` themselves, choices one of their texts,
seats whole numbers of the game, sequences lists or tuples."""
