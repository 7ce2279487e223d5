"""The engine's fast paths give what the plain ones gave (issue 9 item 8: a faster engine, same games).

Speed itself is measured by ``samurai bench``, never asserted here; these
tests pin down that the shortcuts change nothing a caller can see.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

import samurai
from samurai_plugins.knizia.core.actions import Action
from samurai_plugins.knizia.core.state import OVER, PLAY
from samurai_plugins.knizia.engine import reference as engine

# About the Python engine's own lists and paths (the native engine is pinned to it in test_native_engine.py).
pytestmark = pytest.mark.usefixtures("python_engine")


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


def test_the_scoring_hook_called_directly_answers_as_pluggy_would():
    """Compiled rules call the scoring hook's plain implementations themselves (every playout scores once):
    the first answer in pluggy's order wins; a plugin registered or removed later, or one wrapping the hook,
    sends the call through pluggy again."""
    from samurai.hooks.specs import hookimpl

    class SeatOneWins:  # most castle figures wins
        @hookimpl(tryfirst=True)
        def samurai_score(self, captured):  # takes fewer arguments than the hook gives
            return samurai.Result((max(captured, key=lambda seat: captured[seat]["castle"]),), "castles", "")

    class Undecided:
        @hookimpl(tryfirst=True)
        def samurai_score(self, options, edition):  # in another order
            assert edition.id == "ffg2015" and options["removed_to_end"] == 4
            return None

    captured = [3, 1, 0, 0, 0, 1]  # seat 0 takes the buddha and rice tokens, seat 1 the castle token
    edition = samurai.load_edition("ffg2015")
    rules = edition.rules(2)
    assert rules.score(captured).reason == "most_leader_tokens" and rules.score(captured).winners == (0,)
    seat_one, undecided = SeatOneWins(), Undecided()
    edition.plugin_manager.register(seat_one, name="seat-one")
    assert rules.score(captured).winners == (1,)  # registered after compiling: through pluggy
    edition.plugin_manager.unregister(seat_one)
    assert rules.score(captured).winners == (0,)

    # Loading an edition compiles its rules with the default options: other options compile them again, now.
    fresh = {"first_player": 1}
    edition = samurai.load_edition("ffg2015")
    edition.plugin_manager.register(seat_one, name="seat-one")
    edition.plugin_manager.register(undecided, name="undecided")  # tried first, answers None: the next answers
    rules = edition.rules(2, fresh)
    assert rules.score(captured).winners == (1,)
    edition.plugin_manager.unregister(seat_one)
    assert rules.score(captured).winners == (0,)

    seen = []

    class Wrapping:
        @hookimpl(wrapper=True)
        def samurai_score(self, captured):
            result = yield
            seen.append(result.reason)
            return result

    edition = samurai.load_edition("ffg2015")
    edition.plugin_manager.register(Wrapping(), name="wrapping")
    assert edition.rules(2, fresh).score(captured).winners == (0,) and seen == ["most_leader_tokens"]


def test_the_editions_scorings_explain_when_asked(ffg, original):
    captured = {0: {"buddha": 3, "rice": 1, "castle": 0}, 1: {"buddha": 1, "rice": 3, "castle": 2}}
    assert samurai.score(ffg, captured).explanation.startswith("Seat 0 leads buddha with 3")
    assert samurai.score(original, captured).explanation.startswith("Seat 0 holds the buddha majority with 3")


def test_facts_collected_while_playing_equal_the_facts_of_the_replayed_record(ffg, original):
    from samurai.seeds import derive_seed
    from samurai_plugins.knizia.adapters.measures import game_facts
    from samurai_plugins.knizia.adapters.runner import play_game
    from samurai_plugins.knizia.core.facts import FactsWatch
    from samurai_plugins.knizia.play.record_files import record_of

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
    from samurai_plugins.knizia.engine.special_tiles import SwitchBehaviour

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


def test_switch_can_play_exactly_when_some_two_settlements_may_exchange(ffg):
    """Every set of distinct figure masks on the board, with and without two villages of different castes
    (``can_play``'s quick answer), against the full list of exchanges."""
    from samurai_plugins.knizia.engine.special_tiles import SwitchBehaviour

    switch = SwitchBehaviour()
    game = _positions(ffg, 4, seed=9, every=1000)[0]
    rules, st = game.rules, game.state.copy()
    settlements = len(st.figures)
    answers = set()
    for chosen in range(1 << 7):
        masks = [mask for mask in range(1, 8) if chosen >> (mask - 1) & 1]
        for copies in (1, 2):  # one or two settlements holding each mask
            st.figures = (masks * copies + [0] * settlements)[:settlements]
            expected = bool(switch.legal(rules, st, 0, 0))
            assert switch.can_play(rules, st, 0, 0) == expected, st.figures
            answers.add(expected)
    assert answers == {True, False}


def test_seeded_random_is_random_random():
    """The games' and random seats' generators (``state.seeded_random``) are seeded as ``random.Random`` seeds."""
    from samurai_plugins.knizia.core.state import seeded_random

    for seed in (0, 1, 7, 2**31, 2**62 + 12345, 2**63 - 1, 2**80 + 3, "text", 2.5):
        made, plain = seeded_random(seed), random.Random(seed)  # type: ignore[arg-type]
        assert type(made) is random.Random and made.getstate() == plain.getstate()
        assert [made.random() for _ in range(3)] == [plain.random() for _ in range(3)]
        assert made.gauss(0, 1) == plain.gauss(0, 1) and made.getstate() == plain.getstate()


def test_random_figure_placement_follows_its_procedure_with_few_or_no_tries(ffg, original, tiny, tiny_core):
    """``setup_rules.place_random_figures`` (which keeps empty villages' fills off ``st.cut`` until someone
    reads it) against its procedure step by step, also with so few tries that the full list decides."""
    from samurai_plugins.knizia.core.state import FIGURES
    from samurai_plugins.knizia.editions.setup import (
        figure_placement_is_feasible,
        figure_stage,
        legal_figure_placements,
        place_figure,
        place_random_figures,
    )

    for edition, players in ((ffg, 4), (ffg, 2), (original, 3), (tiny, 2), (tiny, 3), (tiny_core, 2)):
        rules = edition.rules(players)
        for seed in range(6):
            st = engine.new_state(rules, seed)
            rng = random.Random(seed)
            while st.phase != FIGURES:
                engine.apply(rules, st, engine.sample_action(rules, st, rng))
            for tries in (0, 1, 2, 16):
                fast, plain = st.copy(), st.copy()
                fast_rngs = [random.Random(seed * 10 + k) for k in range(players)]
                plain_rngs = [random.Random(seed * 10 + k) for k in range(players)]
                seen: list[object] = []
                last = place_random_figures(fast, rules.capacities, rules.stage_of, [r.random for r in fast_rngs],
                                            tries, lambda c, s, st=fast, seen=seen: seen.append((c, s, st.cut[:],
                                                                                                   st.current)))
                expected: list[object] = []
                while True:
                    seat = plain.current
                    draw = plain_rngs[seat].random
                    for _ in range(tries):
                        stage = figure_stage(plain)
                        s = stage[int(draw() * len(stage))]
                        castes = [c for c in range(3) if plain.supply[c] and not plain.figures[s] >> c & 1]
                        if castes:
                            c = castes[int(draw() * len(castes))]
                            if figure_placement_is_feasible(plain, rules.capacities[s], s, c):
                                break
                    else:
                        moves = legal_figure_placements(plain, rules.capacities)
                        c, s = moves[int(draw() * len(moves))]
                    place_figure(plain, rules.capacities, rules.stage_of, c, s)
                    if not any(plain.supply):
                        break
                    plain.current = (seat + 1) % players
                    expected.append((c, s, plain.cut[:], plain.current))
                assert last == (c, s) and seen == expected
                assert _everything(fast) == _everything(plain)
                assert [r.getstate() for r in fast_rngs] == [r.getstate() for r in plain_rngs]
                # Unwatched, the fills stay off st.cut the whole phase: the same figures all the same.
                unwatched = st.copy()
                rngs = [random.Random(seed * 10 + k) for k in range(players)]
                assert place_random_figures(unwatched, rules.capacities, rules.stage_of, [r.random for r in rngs],
                                            tries) == last
                assert _everything(unwatched) == _everything(plain)
                assert [r.getstate() for r in rngs] == [r.getstate() for r in plain_rngs]


def _plain_random_game(rules: samurai.Rules, seed: int) -> tuple[engine.State, list[tuple[int, ...]], list]:
    """A game between random bots played the straightforward way, through the game protocol: every
    action drawn by ``sample_action`` with the seat's bot generator (seeded as ``play_out`` seeds it),
    checked legal, then applied."""
    from samurai.seeds import derive_seed
    from samurai_plugins.knizia.adapters.game_state import HexGameState

    state = HexGameState(rules, engine.new_state(rules, seed, trace=True))
    rngs = [random.Random(derive_seed(seed, seat)) for seat in range(rules.players)]
    actions = []
    while not state.is_over:
        action = state.sample_action(rngs[state.to_act])
        assert state.check(action) is None
        state.apply(action)
        actions.append(action)
    return state.state, actions, [rng.getstate() for rng in rngs]


def _everything(st: engine.State) -> dict[str, object]:
    """Every field of a position as it is now (lists frozen into tuples) but its generator, which is
    compared by its state; the result with its text."""
    def frozen(value: object) -> object:
        return tuple(map(frozen, value)) if isinstance(value, list) else value

    fields = {name: frozen(getattr(st, name)) for name in engine.State.__slots__ if name != "rng"}
    fields["explanation"] = st.result.explanation if st.result is not None else None
    return fields


def _editions_to_pin(ffg, original, tiny, tiny_core, tiny_original):
    """Every shipped edition, the tiny maps (land or sea runs out, seats pass, nobody can play), and
    options that end games early through ties or set up at random."""
    few_tiles = samurai.load_edition(str(Path(__file__).parent / "data" / "tiny-few-tiles.toml"))
    beginner = samurai.load_edition("ffg2015-beginner")
    for edition in (ffg, beginner, original, tiny, tiny_core, tiny_original, few_tiles):
        for players in edition.manifest.players:
            yield edition.rules(players)
    yield ffg.rules(3, {"removed_to_end": 1, "first_player": 2})
    yield original.rules(4, {"removed_to_end": 2})


def test_fused_random_games_are_the_straightforward_games(ffg, original, tiny, tiny_core, tiny_original):
    from samurai.search.bots import RandomBot
    from samurai.seeds import derive_seed
    from samurai_plugins.knizia.adapters.runner import play_game

    reasons = set()
    for rules in _editions_to_pin(ffg, original, tiny, tiny_core, tiny_original):
        for index in range(12):
            seed = derive_seed(11, index)
            plain, plain_actions, plain_rngs = _plain_random_game(rules, seed)
            # play_game with random bots at every seat takes the fused path (engine.play_random)
            recorded: list[tuple[int, ...]] = []
            fast = play_game(rules, seed, ("random",), trace=True, actions=recorded)
            assert recorded == plain_actions
            assert _everything(fast) == _everything(plain)  # events (captures, refills, passes) included
            assert fast.rng.getstate() == plain.rng.getstate()
            reasons.add(fast.end_reason)
            # The bare loop (what bench and compare run) and the generators it leaves behind.
            rngs = [RandomBot(derive_seed(seed, seat)).rng for seat in range(rules.players)]
            bare = engine.new_state(rules, seed)
            engine.play_random(rules, bare, rngs)
            bare.events = plain.events  # traced only in the games above
            assert _everything(bare) == _everything(plain) and bare.rng.getstate() == plain.rng.getstate()
            assert [rng.getstate() for rng in rngs] == plain_rngs
    assert reasons >= {"caste_exhausted", "removed_by_ties", "no_tiles"}


def test_a_fused_game_shows_each_position_as_apply_leaves_it(ffg, original):
    # Started anywhere (setup, mid-turn, after a special tile), the fused loop goes on as apply would,
    # and what its caller watches after each action is the very position apply leaves.
    for edition, players, seed in ((ffg, 4, 3), (original, 3, 8), (ffg, 2, 21)):
        rules = edition.rules(players)
        for start in (0, 9, 40, 75, 90):
            st = engine.new_state(rules, seed)
            rngs = [random.Random(seed * 10 + seat) for seat in range(players)]
            for _ in range(start):
                if st.phase != OVER:
                    engine.apply(rules, st, engine.sample_action(rules, st, rngs[st.current]))
            plain, plain_rngs = st.copy(), [_copy_of(rng) for rng in rngs]
            seen_plain = []
            while plain.phase != OVER:
                engine.apply(rules, plain, engine.sample_action(rules, plain, plain_rngs[plain.current]))
                seen_plain.append((plain.fingerprint(), _everything(plain)))
            seen_fast: list[tuple[object, object]] = []
            engine.play_random(rules, st, rngs, after=_watcher(st, seen_fast))
            assert seen_fast == seen_plain


def _watcher(st: engine.State, seen: list[tuple[object, object]]) -> Callable[[tuple[int, ...]], None]:
    """A callback for ``play_random`` that notes the position after each action."""
    return lambda action: seen.append((st.fingerprint(), _everything(st)))


def _copy_of(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def test_a_played_out_game_leaves_its_explanation_unwritten_until_read(ffg, original):
    from samurai_plugins.knizia.adapters.runner import play_game

    for edition in (ffg, original):
        final = play_game(edition.rules(3), 5, ("random",))
        assert final.result is not None and callable(final.result._explanation)  # checked, not written
        assert final.result.explanation and isinstance(final.result._explanation, str)  # written once read
    with pytest.raises(TypeError, match="explanation function returned 42, not text"):
        _ = samurai.Result((0,), "most_figures", lambda: 42).explanation  # type: ignore[arg-type,return-value]


# --- Knizia's accelerators of the one runner, pinned to the protocol path ---------------------------------------

@pytest.mark.parametrize("bots", [("random",), ("greedy", "random"), ("mcts:6", "random")])
def test_knizias_batch_accelerator_plays_what_the_protocol_path_plays(bots):
    """Same seeds -> the same games, results, facts and records from Knizia's fast batch as through the protocol."""
    from samurai.catalog.editions import load_edition
    from samurai.runs.matches import Batch, play_batch_on_protocol
    from samurai_plugins.knizia.adapters.runner import play_batch
    from tests.helpers import TINY_EDITION

    edition = load_edition(TINY_EDITION)
    for players in (2, 3):
        batch = Batch(TINY_EDITION, players, {}, 17, bots, (0, 1, 4), True)
        fast = play_batch(edition, batch)
        general = play_batch_on_protocol(batch)
        assert fast == general
        assert all(game.facts is not None and record.check is not None for _, game, record in fast)
        # Without records the fused loop counts the actions instead of collecting them: the same lengths.
        unrecorded = play_batch(edition, attrs.evolve(batch, keep_records=False))
        assert unrecorded == [(index, game, None) for index, game, _ in general]
        assert [game.actions for _, game, _ in fast] == [len(record.actions) for _, _, record in general]


@pytest.mark.parametrize("edition_name", ["ffg2015", "original"])
def test_the_fused_random_loop_counts_the_actions_it_plays(edition_name):
    """``engine.play_random`` returns the number of actions it played, which is how many it reports to ``after``."""
    from samurai.catalog.editions import load_edition
    from samurai.seeds import derive_seed
    from samurai_plugins.knizia.core.state import seeded_random

    for players in (2, 3, 4):
        rules = load_edition(edition_name).rules(players)
        for seed in range(6):
            seen: list[tuple[int, ...]] = []
            rngs = [seeded_random(derive_seed(seed, seat)) for seat in range(players)]
            st = engine.new_state(rules, seed)
            assert engine.play_random(rules, st, rngs, after=seen.append) == len(seen) > 0
            st = engine.new_state(rules, seed)
            rngs = [seeded_random(derive_seed(seed, seat)) for seat in range(players)]
            assert engine.play_random(rules, st, rngs) == len(seen)


def test_knizias_paired_games_accelerator_plays_what_the_protocol_path_plays():
    """``samurai compare``'s fast player of Knizia's game gives the facts and records the protocol path gives."""
    from samurai.runs.compare import play_pairs_on_protocol
    from samurai.runs.folders import PairTask
    from samurai_plugins.knizia.adapters.measures import play_pairs
    from tests.helpers import TINY_EDITION, TINY_ORIGINAL_EDITION

    for bots in (("random",), ("greedy", "random")):
        task = PairTask((TINY_EDITION, TINY_ORIGINAL_EDITION), 2, 5, bots, (0, 3), True, ({}, {}))
        assert play_pairs(task) == play_pairs_on_protocol(task)


def test_simulate_of_knizias_game_is_the_one_runner_with_its_summary(tmp_path):
    """``samurai_plugins.knizia.adapters.runner.simulate`` is the one runner summed up as Knizia's game shows it."""
    from samurai.catalog.editions import load_edition
    from samurai.runs.matches import simulate_matches
    from samurai_plugins.knizia.adapters.runner import simulate, summary_of
    from tests.helpers import TINY_EDITION

    edition = load_edition(TINY_EDITION)
    given = simulate(edition, 2, 12, 3, ["greedy", "random"])
    assert given == summary_of(simulate_matches(edition, 2, 12, 3, ["greedy", "random"]))
    assert given.games[0].turns >= 1 and len(given.games) == 12
