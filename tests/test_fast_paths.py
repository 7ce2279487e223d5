"""The engine's fast paths give what the plain ones gave (issue 9 item 8: a faster engine, same games).

Speed itself is measured by ``samurai bench``, never asserted here; these
tests pin down that the shortcuts change nothing a caller can see.
"""

from __future__ import annotations

import pickle
import random

import attrs

import samurai
from samurai import engine
from samurai.actions import Action
from samurai.state import OVER, PLAY


def _old_order(action: Action) -> tuple[str, tuple[object, ...]]:
    """How actions were ordered before the fast key: class name, then ``attrs.astuple``."""
    return type(action).__name__, attrs.astuple(action)  # type: ignore[arg-type]


def _positions(edition: samurai.Edition, players: int, seed: int, every: int = 7) -> list[samurai.Game]:
    """Positions along one game played by random legal actions (setup, play with special tiles, end)."""
    game = samurai.new_game(edition, players=players, seed=seed)
    rng = random.Random(seed)
    out = []
    while not game.is_over:
        if len(game.history) % every == 0:
            out.append(game.copy())
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    return out


def test_legal_actions_keep_the_order_the_actions_compare_in(ffg, original):
    seen_switch = False
    for edition in (ffg, original):
        for players in (2, 4):
            for game in _positions(edition, players, seed=players):
                actions = game.legal_actions()
                assert actions == sorted(actions, key=_old_order)
                assert actions == sorted(actions)
                expected = {game.to_action(a) for a in engine.legal_actions(game.rules, game.state)}
                assert set(actions) == expected and len(actions) == len(expected)
                seen_switch = seen_switch or any(type(a).__name__ == "SwitchFigures" for a in actions)
    assert seen_switch


@attrs.frozen(order=False)
class _Nested(Action):
    """An action with an attrs value inside: its sort key must recurse as ``attrs.astuple`` does."""

    inner: samurai.PlaceTile
    where: tuple[samurai.PlaceTile, ...]


def test_the_sort_key_equals_astuple_for_plain_and_nested_fields():
    plain = [samurai.PlaceTile("castle-2", (3, 4)), samurai.EndTurn(), samurai.ChooseTile("ronin"),
             samurai.PlaceFigure("rice", (1, 1)), samurai.MoveTile((1, 2), (3, 4)),
             samurai.SwitchFigures((5, 1), "rice", (1, 1), "castle")]
    nested = [_Nested(samurai.PlaceTile("ship-1", (0, 1)), (samurai.PlaceTile("ronin", (2, 2)),))]
    for action in plain + nested:
        assert action._sort_key() == _old_order(action)


def test_a_copy_given_a_generator_draws_from_it_and_leaves_the_original_alone(ffg):
    game = samurai.new_game(ffg, players=3, seed=5)
    samurai.play_bots(game, ["random"], seed=2, actions=80)
    before = game.state.fingerprint()
    shared = random.Random(11)
    copy = game.state.copy(rng=shared)
    assert copy.rng is shared
    assert copy.fingerprint()[:-1] == before[:-1]
    rng = random.Random(3)
    while copy.phase != OVER:
        engine.apply(game.rules, copy, engine.sample_action(game.rules, copy, rng))
    assert game.state.fingerprint() == before
    # The default copy still carries a copy of the generator, so it continues exactly as the game would.
    twin = game.copy()
    assert twin.state.rng is not game.state.rng
    assert twin.state.rng.getstate() == game.state.rng.getstate()
    samurai.play_bots(twin, ["random"], seed=4)
    samurai.play_bots(game, ["random"], seed=4)
    assert twin.state.fingerprint() == game.state.fingerprint()
    assert game.copy(rng=shared).state.rng is shared


def test_a_result_writes_its_explanation_only_when_read_and_once():
    calls = []

    def text() -> str:
        calls.append(1)
        return "Seat 1 has the most and wins."

    lazy = samurai.Result((1,), "most_figures", text)
    assert not calls and lazy.winners == (1,)
    written = samurai.Result((1,), "most_figures", "Seat 1 has the most and wins.")
    assert lazy.explanation == written.explanation
    assert lazy == written and hash(lazy) == hash(written) and repr(lazy) == repr(written)
    assert lazy.to_dict() == written.to_dict()
    assert calls == [1]
    assert samurai.Result((0,), "most_figures", lambda: "other words") != written
    unread = samurai.Result((1,), "most_figures", lambda: "Seat 1 has the most and wins.", "no_tiles")
    assert pickle.loads(pickle.dumps(unread)) == unread.with_end_reason("no_tiles")  # pickles with its text
    assert repr(written) == ("Result(winners=(1,), reason='most_figures', explanation='Seat 1 has the most and "
                             "wins.', end_reason=None)")


def test_the_editions_scorings_explain_when_asked(ffg, original):
    captured = {0: {"buddha": 3, "rice": 1, "castle": 0}, 1: {"buddha": 1, "rice": 3, "castle": 2}}
    assert samurai.score(ffg, captured).explanation.startswith("Seat 0 leads buddha with 3")
    assert samurai.score(original, captured).explanation.startswith("Seat 0 holds the buddha majority with 3")


def test_facts_collected_while_playing_equal_the_facts_of_the_replayed_record(ffg, original):
    from samurai.metrics import FactsWatch, game_facts
    from samurai.records import record_of
    from samurai.simulate import derive_seed, play_game

    seen_leader = False
    for edition in (ffg, original):
        for players in (2, 3, 4):
            rules = edition.rules(players)
            for index in range(6):
                seed = derive_seed(3, index)
                watch, actions = FactsWatch(players), []
                final = play_game(rules, seed, ("greedy", "random"), actions=actions, watch=watch.see)
                live = watch.facts(final)
                assert live == game_facts(record_of(rules, seed, actions, final=final), edition=edition)
                seen_leader = seen_leader or live.midpoint_leader is not None
    assert seen_leader


def test_the_shortcut_checks_agree_with_the_full_lists(ffg, original):
    from samurai.special_tiles import SwitchBehaviour

    switch = SwitchBehaviour()
    checked = 0
    for game in _positions(ffg, 4, seed=9, every=3) + _positions(original, 2, seed=4, every=3):
        rules, st = game.rules, game.state
        for seat in range(rules.players):
            # Switch's targets are every exchange its check accepts, in settlement then caste order,
            # and it can be played exactly when it has one.
            everything = [(s1, c1, s2, c2) for s1 in range(len(st.figures)) for s2 in range(s1 + 1, len(st.figures))
                          for c1 in range(3) for c2 in range(3)
                          if switch.check(rules, st, seat, 0, (s1, c1, s2, c2)) is None]
            assert switch.legal(rules, st, seat, 0) == everything
            assert switch.can_play(rules, st, seat, 0) == bool(everything)
            if st.phase == PLAY:
                # can_play stops at the first playable tile; the full list agrees.
                assert engine.can_play(rules, st, seat) == bool(engine.playable_tiles(rules, st, seat, False))
                checked += 1
    assert checked > 50
