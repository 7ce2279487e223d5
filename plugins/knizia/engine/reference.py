"""The rules engine: legal actions, checking and applying them, turn flow.

Actions on this fast path are tuples of small ints (see ``CHOOSE`` ...
``END``); ``samurai_plugins.knizia.play.game`` turns them into friendly ``Action`` values. The
rules of a turn, surrounding, resolution, refill and the end (docs/rules/samurai.md#turn
and docs/rules/samurai.md#end) have their one home here; setup procedures live in
``samurai_plugins.knizia.editions.setup`` and special tiles in ``samurai_plugins.knizia.engine.special_tiles``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import floor

from samurai_plugins.knizia.core.maps import LAND, SEA
from samurai_plugins.knizia.core.state import EMPTY, FIGURES, HANDS, OVER, PLAY, State, seeded_random
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import LAND_TILE, SEA_TILE, SPECIAL_TILE, Rules
from samurai_plugins.knizia.editions.setup import (
    choose_tile,
    figure_placement_is_feasible,
    figure_stage,
    legal_figure_placements,
    place_figure,
    place_random_figures,
)

__all__ = ["CHOOSE", "FIGURE", "PLACE", "SPECIAL", "END", "new_state", "legal_actions", "check", "apply",
           "sample_action", "play_random", "can_play", "figure_placements", "playable_tiles", "put_tile",
           "end_trigger", "begin_play"]

CHOOSE, FIGURE, PLACE, SPECIAL, END = range(5)
"""Action tuples: ``(CHOOSE, tile)``, ``(FIGURE, caste, settlement)``, ``(PLACE, tile, hex)``,
``(SPECIAL, tile, *targets)``, ``(END,)``."""

# Random play turns a draw into an index as ``floor(rng.random() * n)``: the same whole number as
# ``int(rng.random() * n)`` for a product that is never negative, and several percent of a random game
# faster, as int() of a float goes through a general type call that builds a tuple of its argument.

_FIGURE_SAMPLE_TRIES = 16
_CASTES_IN = tuple(tuple(c for c in range(3) if mask >> c & 1) for mask in range(8))
"""The castes of a caste bitmask, in caste order."""


# --- starting a game ---------------------------------------------------------------------

def new_state(rules: Rules, seed: int, *, trace: bool = False) -> State:
    """A new game seeded ``seed``: a copy of the rules' starting position, random setup done.

    ``trace`` keeps a list of events (captures, removals, refills, passes) in
    ``State.events`` for people to read; playouts leave it off.
    """
    st = rules.template.copy(rng=seeded_random(seed))
    st.events = [] if trace else None
    _run_automatic_setup(rules, st)
    return st


def _run_automatic_setup(rules: Rules, st: State) -> None:
    """Carry out the setup phases nobody chooses in (random hands or figures), then start play."""
    while True:
        if st.phase == HANDS and rules.setup.hands == "random":
            for seat in range(rules.players):
                pool = st.pools[seat]
                for _ in range(rules.hand_size):
                    choose_tile(st, seat, pool[floor(st.rng.random() * len(pool))])
            _leave_setup_phase(rules, st)
        elif st.phase == FIGURES and (rules.setup.figures == "random" or not _figures_to_place(rules, st)):
            while _figures_to_place(rules, st):
                _, caste, settlement = _sample_figure(rules, st, st.rng)
                place_figure(st, rules.capacities, rules.stage_of, caste, settlement)
            _leave_setup_phase(rules, st)
        else:
            return


def _figures_to_place(rules: Rules, st: State) -> bool:
    """Whether a figure in the supply can still be placed (the figures phase goes on).

    Under the fit ruling (``SetupProcedure.figures_must_fit``) every figure in
    the supply has a place. Without it, a stage whose open slots no figure
    left can take closes, and figures with no place at all stay out of play.
    """
    if not any(st.supply):
        return False
    if rules.setup.figures_must_fit:
        return True
    while True:
        stage = figure_stage(st)
        if not stage:
            return False
        if _unchecked_figure_placements(st):
            return True
        stage.clear()


def _unchecked_figure_placements(st: State) -> list[tuple[int, int]]:
    """Every ``(caste, settlement)`` of the open stage that has room for a caste it lacks."""
    return [(c, s) for s in sorted(figure_stage(st)) for c in range(3) if st.supply[c] and not st.figures[s] >> c & 1]


def figure_placements(rules: Rules, st: State) -> list[tuple[int, int]]:
    """Every ``(caste, settlement)`` figure placement legal now under the edition's setup ruling."""
    if rules.setup.figures_must_fit:
        return legal_figure_placements(st, rules.capacities)
    return _unchecked_figure_placements(st)


def _leave_setup_phase(rules: Rules, st: State) -> None:
    if st.phase == HANDS:
        # The tiles not chosen become the personal stack, drawn from at random (docs/rules/samurai.md#starting-hands).
        st.stacks = st.pools
        st.pools = [[] for _ in st.stacks]
    st.current = rules.setup.first_player
    if st.setup_queue:
        st.phase = st.setup_queue.pop(0)
        return
    begin_play(rules, st, rules.setup.first_player, turn=1)


def begin_play(rules: Rules, st: State, first: int, *, turn: int) -> None:
    """Enter the play phase at ``turn`` with ``first`` (or the next seat that can play) to act."""
    st.phase = PLAY
    st.turn = turn
    st.played = 0
    st.normal_played = False
    if not _seek_player(rules, st, first):
        _finish(rules, st, "no_tiles")


# --- what may be done --------------------------------------------------------------------

def playable_tiles(rules: Rules, st: State, seat: int, normal_played: bool) -> list[int]:
    """The tiles in ``seat``'s hand that have a legal target now (one entry per tile held).

    Normal tiles only until the turn's normal tile is down; land tiles need
    an empty land hex, ships an empty sea hex, special tiles a target their
    behaviour accepts (docs/rules/samurai.md#playing-tiles).
    """
    playable = []
    fast, placement = rules.tile_fast, rules.tile_on
    land, sea = bool(st.empty_land), bool(st.empty_sea)
    for tile in st.hands[seat]:
        if normal_played and not fast[tile]:
            continue
        on = placement[tile]
        if on == LAND_TILE:
            if land:
                playable.append(tile)
        elif on == SEA_TILE:
            if sea:
                playable.append(tile)
        elif rules.behaviours[tile].can_play(rules, st, seat, tile):  # type: ignore[union-attr]
            playable.append(tile)
    return playable


def can_play(rules: Rules, st: State, seat: int) -> bool:
    """Whether ``seat`` could start a turn now: some tile in hand has a legal target.

    The same test as ``playable_tiles(..., normal_played=False)``, stopping at the first tile that has one.
    """
    placement = rules.tile_on
    for tile in st.hands[seat]:
        on = placement[tile]
        if on == LAND_TILE:
            if st.empty_land:
                return True
        elif on == SEA_TILE:
            if st.empty_sea:
                return True
        elif rules.behaviours[tile].can_play(rules, st, seat, tile):  # type: ignore[union-attr]
            return True
    return False


def legal_actions(rules: Rules, st: State) -> list[tuple[int, ...]]:
    """Every legal action now, in a stable order (empty when the game is over)."""
    seat = st.current
    if st.phase == HANDS:
        return [(CHOOSE, tile) for tile in sorted(set(st.pools[seat]))]
    if st.phase == FIGURES:
        return [(FIGURE, c, s) for c, s in figure_placements(rules, st)]
    if st.phase != PLAY:
        return []
    actions: list[tuple[int, ...]] = []
    land = sea = None
    for tile in sorted(set(playable_tiles(rules, st, seat, st.normal_played))):
        on = rules.tile_on[tile]
        if on == LAND_TILE:
            if land is None:
                land = sorted(st.empty_land)
            actions += [(PLACE, tile, h) for h in land]
        elif on == SEA_TILE:
            if sea is None:
                sea = sorted(st.empty_sea)
            actions += [(PLACE, tile, h) for h in sea]
        else:
            behaviour = rules.behaviours[tile]
            actions += [(SPECIAL, tile, *params)
                        for params in behaviour.legal(rules, st, seat, tile)]  # type: ignore[union-attr]
    if st.played:
        actions.append((END,))
    return actions


def check(rules: Rules, st: State, action: tuple[int, ...]) -> str | None:
    """Why ``action`` is illegal now, in words, or None when it is legal. Changes nothing."""
    if st.phase == OVER:
        return "the game is over"
    kind, seat = action[0], st.current
    if st.phase == HANDS:
        if kind != CHOOSE:
            return "seats are choosing their starting hands: choose a tile"
        if action[1] not in st.pools[seat]:
            return f"you have no {_tile_name(rules, action[1])} tile left to choose"
        return None
    if st.phase == FIGURES:
        if kind != FIGURE:
            return "seats are placing figures: place a figure"
        _, caste, settlement = action
        name = rules.board.settlements[settlement].name
        if settlement not in figure_stage(st):
            if st.figures[settlement] and rules.capacities[settlement] == bin(st.figures[settlement]).count("1"):
                return f"{name} is full"
            return f"{name} is not open for figures yet: fill the earlier settlements first"
        if not st.supply[caste]:
            return f"no {CASTES[caste]} figure is left in the supply"
        if st.figures[settlement] >> caste & 1:
            return f"{name} already holds a {CASTES[caste]} figure"
        if rules.setup.figures_must_fit and not figure_placement_is_feasible(st, rules.capacities[settlement],
                                                                             settlement, caste):
            return (f"a {CASTES[caste]} figure in {name} would leave figures that cannot fill the other "
                    f"settlements without two of one caste in one settlement")
        return None
    if kind == END:
        return None if st.played else "play at least one tile before ending the turn"
    if kind not in (PLACE, SPECIAL):
        return "it is the play phase: place a tile or end the turn"
    tile = action[1]
    if tile not in st.hands[seat]:
        return f"there is no {_tile_name(rules, tile)} tile in your hand"
    if st.normal_played and not rules.tile_fast[tile]:
        return "you have already played your one normal tile this turn; only fast tiles may follow"
    on = rules.tile_on[tile]
    if kind == SPECIAL:
        if on != SPECIAL_TILE:
            return f"{_tile_name(rules, tile)} is placed with a place-tile action"
        return rules.behaviours[tile].check(rules, st, seat, tile, action[2:])  # type: ignore[union-attr]
    if on == SPECIAL_TILE:
        return f"{_tile_name(rules, tile)} is a special tile: play it with its own action"
    h = action[2]
    where = rules.board.terrain[h]
    if on == SEA_TILE and where != SEA:
        return f"{_tile_name(rules, tile)} goes on an empty sea hex only"
    if on == LAND_TILE and where != LAND:
        return f"{_tile_name(rules, tile)} goes on an empty land hex (not sea, not a settlement)"
    if st.tile_owner[h] != EMPTY:
        return "that hex already holds a tile"
    return None


def _tile_name(rules: Rules, tile: int) -> str:
    return rules.tile_types[tile].name if 0 <= tile < len(rules.tile_types) else f"#{tile}"


# --- doing it ----------------------------------------------------------------------------

def apply(rules: Rules, st: State, action: tuple[int, ...]) -> None:
    """Carry out a legal action (check it first: this path trusts its caller)."""
    kind = action[0]
    seat = st.current
    if kind == PLACE:
        tile = action[1]
        st.hands[seat].remove(tile)
        put_tile(rules, st, seat, tile, action[2])
        _after_tile(rules, st, tile)
    elif kind == END:
        _end_turn(rules, st)
    elif kind == SPECIAL:
        tile = action[1]
        st.hands[seat].remove(tile)
        rules.behaviours[tile].apply(rules, st, seat, tile, action[2:])  # type: ignore[union-attr]
        _after_tile(rules, st, tile)
    elif kind == FIGURE:
        place_figure(st, rules.capacities, rules.stage_of, action[1], action[2])
        if _figures_to_place(rules, st):
            st.current = (seat + 1) % rules.players
        else:
            _leave_setup_phase(rules, st)
            _run_automatic_setup(rules, st)
    elif kind == CHOOSE:
        choose_tile(st, seat, action[1])
        if len(st.hands[seat]) == rules.hand_size:
            st.current = (seat + 1) % rules.players
            if st.current == rules.setup.first_player:
                _leave_setup_phase(rules, st)
                _run_automatic_setup(rules, st)


def put_tile(rules: Rules, st: State, seat: int, tile: int, h: int) -> None:
    """Put a tile on the empty hex ``h`` and count down the empty land around settlements.

    A settlement whose last empty land neighbour fills is surrounded
    (docs/rules/samurai.md#surround: sea hexes never need a tile) and waits in
    ``st.pending`` for resolution.
    """
    st.tile_owner[h] = seat
    st.tile_type[h] = tile
    st.tile_turn[h] = st.turn
    if rules.tile_movable[tile]:
        st.movable_count[seat] += 1
    if rules.board.terrain[h] == LAND:
        _take(st.empty_land, st.empty_land_pos, h)
        empty_around = st.empty_around
        for s in rules.board.adjacent_settlements[h]:
            empty_around[s] -= 1
            if not empty_around[s] and st.figures[s]:
                st.pending.append(s)
    else:
        _take(st.empty_sea, st.empty_sea_pos, h)


def _take(empty: list[int], pos: list[int], h: int) -> None:
    """Remove ``h`` from an unordered list of empty hexes in O(1)."""
    i = pos[h]
    last = empty.pop()
    if last != h:
        empty[i] = last
        pos[last] = i
    pos[h] = EMPTY


def _after_tile(rules: Rules, st: State, tile: int) -> None:
    st.played += 1
    st.tiles_played += 1
    if not rules.tile_fast[tile]:
        st.normal_played = True
    if rules.resolve_each_tile and st.pending:
        _resolve_pending(rules, st)


def _resolve_pending(rules: Rules, st: State) -> None:
    """Resolve every surrounded settlement, each figure separately (docs/rules/samurai.md#influence).

    Each player's influence on a figure is the sum of that player's adjacent
    tiles counting for its caste; the unique highest captures it, a tie for
    highest (0 against 0 too) removes it. The active player's choice of order
    cannot change who gets what, so figures go in caste order.

    Ruling (docs/rules/samurai.md#ruling-resolution-order, the original edition): the figures
    one tile surrounds are decided by the same tiles, so they all resolve
    before an immediate end check; "play stops at once" then stops the turn
    (no more tiles, no refill), never half a settlement.
    """
    nobody = [0] * rules.players
    owner, kind, value = st.tile_owner, st.tile_type, rules.tile_value
    # Every random game resolves some twenty figures here: the lists it changes are read into locals once.
    figures, on_board, captured, neighbours = st.figures, st.on_board, st.captured, rules.settlement_neighbours
    events = st.events
    for s in st.pending:
        mask = figures[s]
        around = neighbours[s]
        for caste in _CASTES_IN[mask]:  # mostly one figure (villages hold one): read the tiles around per figure
            influence = nobody[:]
            for h in around:
                o = owner[h]
                if o >= 0:
                    influence[o] += value[kind[h] * 3 + caste]
            best = max(influence)
            on_board[caste] -= 1
            mask &= ~(1 << caste)
            figures[s] = mask
            if influence.count(best) == 1:
                winner = influence.index(best)
                captured[winner * 3 + caste] += 1
                if events is not None:
                    events.append(("capture", s, caste, winner, tuple(influence)))
            else:
                st.removed[caste] += 1
                st.removed_total += 1
                if events is not None:
                    events.append(("remove", s, caste, tuple(influence)))
    st.pending = []
    if rules.end_immediate:
        reason = end_trigger(rules, st)
        if reason:
            _finish(rules, st, reason)


def _end_turn(rules: Rules, st: State) -> None:
    """Resolve (if the edition waits for the end of the turn), refill, check the end, pass on."""
    if st.pending:
        _resolve_pending(rules, st)
        if st.phase == OVER:
            return
    seat = st.current
    hand, stack, rng = st.hands[seat], st.stacks[seat], st.rng
    drawn = 0
    while len(hand) < rules.hand_size and stack:
        i = floor(rng.random() * len(stack))
        hand.append(stack[i])
        stack[i] = stack[-1]
        stack.pop()
        drawn += 1
    if st.events is not None:
        st.events.append(("refill", seat, drawn))
    reason = end_trigger(rules, st)
    if reason:
        _finish(rules, st, reason)
        return
    st.turn += 1
    st.played = 0
    st.normal_played = False
    following = (seat + 1) % rules.players
    if can_play(rules, st, following):  # as nearly always; _seek_player passes the seats that cannot
        st.current = following
    elif not _seek_player(rules, st, following):
        _finish(rules, st, "no_tiles")


def _seek_player(rules: Rules, st: State, start: int) -> bool:
    """Make the first seat from ``start`` on that can play the current one; the others pass.

    Ruling (docs/rules/samurai.md#passing): a player who cannot play passes, and when no
    player can, the game ends. An edition whose ``samurai_cannot_play`` hook
    answers ``"end"`` ends the game as soon as the seat to act cannot play.
    """
    for k in range(rules.players):
        seat = (start + k) % rules.players
        if can_play(rules, st, seat):
            st.current = seat
            return True
        if not rules.pass_when_unable:
            return False  # the edition ends the game instead (hook samurai_cannot_play)
        if st.events is not None:
            st.events.append(("pass", seat))
    return False


def end_trigger(rules: Rules, st: State) -> str | None:
    """The reason the game ends now, if it does (docs/rules/samurai.md#end; key of ``result.END_REASONS``)."""
    on_board = st.on_board
    if not on_board[0] or not on_board[1] or not on_board[2]:
        return "caste_exhausted"
    if st.removed_total >= rules.removed_limit:
        return "removed_by_ties"
    return None


def _finish(rules: Rules, st: State, reason: str) -> None:
    st.phase = OVER
    st.current = EMPTY
    st.end_reason = reason
    st.result = rules.score(st.captured).with_end_reason(reason)
    if st.events is not None:
        st.events.append(("end", reason))


# --- random play -------------------------------------------------------------------------

def sample_action(rules: Rules, st: State, rng: random.Random) -> tuple[int, ...]:
    """A random legal action, found without listing them all.

    It is uniform over the playable tiles in hand (plus ending the turn once a
    tile is down), then uniform over that tile's targets; setup picks a random
    tile or a random feasible figure placement. Uses only what the current
    seat may know. The game must not be over.
    """
    seat = st.current
    phase = st.phase
    if phase == PLAY:
        hand = st.hands[seat]
        if not st.normal_played and st.empty_land and st.empty_sea and rules.special_tiles.isdisjoint(hand):
            options = hand  # what playable_tiles would list: every tile has a target
        else:
            options = playable_tiles(rules, st, seat, st.normal_played)
        k = floor(rng.random() * (len(options) + (1 if st.played else 0)))
        if k == len(options):
            return (END,)
        tile = options[k]
        on = rules.tile_on[tile]
        if on == LAND_TILE:
            return PLACE, tile, st.empty_land[floor(rng.random() * len(st.empty_land))]
        if on == SEA_TILE:
            return PLACE, tile, st.empty_sea[floor(rng.random() * len(st.empty_sea))]
        params = rules.behaviours[tile].sample(rules, st, seat, tile, rng)  # type: ignore[union-attr]
        return (SPECIAL, tile, *params)  # type: ignore[misc]
    if phase == HANDS:
        pool = st.pools[seat]
        return CHOOSE, pool[floor(rng.random() * len(pool))]
    if phase == FIGURES:
        return _sample_figure(rules, st, rng)
    raise ValueError("the game is over: there is no action to sample")


def _sample_figure(rules: Rules, st: State, rng: random.Random) -> tuple[int, ...]:
    if not rules.setup.figures_must_fit:
        moves = _unchecked_figure_placements(st)
        c, s = moves[floor(rng.random() * len(moves))]
        return FIGURE, c, s
    for stage in st.open_by_stage:  # figure_stage(st), without the call
        if stage:
            break
    else:
        stage = []
    supply, figures, capacities = st.supply, st.figures, rules.capacities
    in_supply = (supply[0] > 0) | (supply[1] > 0) << 1 | (supply[2] > 0) << 2
    for _ in range(_FIGURE_SAMPLE_TRIES):
        s = stage[floor(rng.random() * len(stage))]
        castes = _CASTES_IN[in_supply & ~figures[s]]  # in the supply and not yet in s, in caste order
        if castes:
            c = castes[floor(rng.random() * len(castes))]
            if figure_placement_is_feasible(st, capacities[s], s, c):
                return FIGURE, c, s
    # Rare (near the end of a tight distribution): fall back to the full list.
    moves = legal_figure_placements(st, rules.capacities)
    c, s = moves[floor(rng.random() * len(moves))]
    return FIGURE, c, s


def play_random(rules: Rules, st: State, rngs: Sequence[random.Random], *,
                after: Callable[[tuple[int, ...]], None] | None = None) -> int:
    """Play the game in ``st`` to its end, seat ``k`` drawing ``sample_action`` from ``rngs[k]``.

    The same game, draw for draw, as ``apply(rules, st, sample_action(rules, st, rngs[st.current]))``
    repeated until the game is over (``tests/test_fast_paths.py`` pins this down), only faster where it
    pays (measured with ``samurai bench``, issue 39): placing a figure under the fit ruling
    (``place_random_figures``) and placing a land or sea tile are drawn and carried out in loops on
    local names, without building an action or calling per action; choosing starting tiles, special
    tiles, resolution, ending a turn (refill, end check, passing on) and the rare cases go through the
    general functions. ``after(action)`` is called after each action, the position then as
    ``apply`` would leave it. Returns how many actions it played (counted, not collected: the one runner's
    summary of a game has its length).
    """
    draws = [rng.random for rng in rngs]
    played = 0
    while st.phase != OVER:
        if st.phase == PLAY:
            played += _play_random_turns(rules, st, rngs, draws, after)
        elif st.phase == FIGURES and rules.setup.figures_must_fit and any(st.supply):
            played += _place_random_figures(rules, st, draws, after)
        else:
            action = sample_action(rules, st, rngs[st.current])
            apply(rules, st, action)
            played += 1
            if after is not None:
                after(action)
    return played


def _place_random_figures(rules: Rules, st: State, draws: list[Callable[[], float]],
                          after: Callable[[tuple[int, ...]], None] | None) -> int:
    """``play_random`` through a figures phase under the fit ruling (``setup_rules.place_random_figures``
    draws as ``_sample_figure`` does, and places as ``apply`` does); how many figures (actions) it placed."""
    placed = None if after is None else lambda caste, settlement: after((FIGURE, caste, settlement))
    figures = sum(st.supply)  # every one is placed, one an action
    caste, settlement = place_random_figures(st, rules.capacities, rules.stage_of, draws, _FIGURE_SAMPLE_TRIES, placed)
    _leave_setup_phase(rules, st)  # the supply is empty (apply: _figures_to_place is False)
    _run_automatic_setup(rules, st)
    if after is not None:
        after((FIGURE, caste, settlement))
    return figures


def _play_random_turns(rules: Rules, st: State, rngs: Sequence[random.Random], draws: list[Callable[[], float]],
                       after: Callable[[tuple[int, ...]], None] | None) -> int:
    """``play_random`` through the play phase: turn after turn until the game is over; how many actions it played
    (a tile placed or a special tile played each, and an end of turn each).

    Each step below is the line of ``sample_action``, ``apply`` or ``put_tile`` it stands for, in the same
    order, so the generators are drawn from exactly as those would draw; a turn ends through ``_end_turn``.
    """
    # Everything the loop reads per action, looked up once (the rules change these lists in place).
    tile_on, tile_fast, tile_movable = rules.tile_on, rules.tile_fast, rules.tile_movable
    special_tiles, behaviours = rules.special_tiles, rules.behaviours
    adjacent_settlements, resolve_each_tile = rules.board.adjacent_settlements, rules.resolve_each_tile
    hands = st.hands
    tile_owner, tile_type, tile_turn, movable_count = st.tile_owner, st.tile_type, st.tile_turn, st.movable_count
    empty_land, empty_land_pos = st.empty_land, st.empty_land_pos
    empty_sea, empty_sea_pos = st.empty_sea, st.empty_sea_pos
    empty_around, figures = st.empty_around, st.figures
    seat, played, normal_played, turn = st.current, st.played, st.normal_played, st.turn
    # While land and sea have room and the hand holds no special tile, a tile's target is an empty hex,
    # and playable_tiles is the hand (or its fast tiles); the hand only shrinks during a turn.
    plain = special_tiles.isdisjoint(hands[seat])
    tiles_before, ends = st.tiles_played, 0
    while True:  # one turn
        hand, draw = hands[seat], draws[seat]
        while True:  # one action of the turn: sample_action, then apply
            if not (empty_land and empty_sea):
                options = playable_tiles(rules, st, seat, normal_played)
            elif plain and not normal_played:
                options = hand
            else:
                # playable_tiles written out (a loop, not a comprehension, which would turn the names it
                # reads into slower cells throughout this function): after the normal tile only fast
                # tiles, and a special tile only with a target its behaviour accepts
                options = []
                for tile in hand:
                    if normal_played and not tile_fast[tile]:
                        continue
                    if plain or tile_on[tile] != SPECIAL_TILE or behaviours[tile].can_play(  # type: ignore[union-attr]
                            rules, st, seat, tile):
                        options.append(tile)
            count = len(options)
            k = floor(draw() * (count + 1 if played else count))
            if k == count:
                break  # ending the turn, below
            tile = options[k]
            on = tile_on[tile]
            if on == LAND_TILE:
                h = empty_land[floor(draw() * len(empty_land))]
                hand.remove(tile)
                # put_tile on land, with _take written out
                last = empty_land.pop()
                if last != h:
                    i = empty_land_pos[h]
                    empty_land[i] = last
                    empty_land_pos[last] = i
                empty_land_pos[h] = EMPTY
                for s in adjacent_settlements[h]:
                    empty_around[s] -= 1
                    if not empty_around[s] and figures[s]:
                        st.pending.append(s)
            elif on == SEA_TILE:
                h = empty_sea[floor(draw() * len(empty_sea))]
                hand.remove(tile)
                last = empty_sea.pop()
                if last != h:
                    i = empty_sea_pos[h]
                    empty_sea[i] = last
                    empty_sea_pos[last] = i
                empty_sea_pos[h] = EMPTY
            else:  # a special tile: its behaviour draws and carries it out (apply's SPECIAL branch written out)
                behaviour = behaviours[tile]
                params = behaviour.sample(rules, st, seat, tile, rngs[seat])  # type: ignore[union-attr]
                action: tuple[int, ...] = (SPECIAL, tile, *params)  # type: ignore[misc]
                hand.remove(tile)
                behaviour.apply(rules, st, seat, tile, action[2:])  # type: ignore[union-attr]
                # _after_tile, on the state (the behaviour may have read or changed it)
                st.played = played = st.played + 1
                st.tiles_played += 1
                if not tile_fast[tile]:
                    st.normal_played = True
                normal_played = st.normal_played
                if resolve_each_tile and st.pending:
                    _resolve_pending(rules, st)
                if after is not None:
                    after(action)
                if st.phase == OVER:
                    return st.tiles_played - tiles_before + ends
                continue
            tile_owner[h] = seat
            tile_type[h] = tile
            tile_turn[h] = turn
            if tile_movable[tile]:
                movable_count[seat] += 1
            # _after_tile
            played += 1
            st.played = played
            st.tiles_played += 1
            if not tile_fast[tile]:
                normal_played = st.normal_played = True
            if resolve_each_tile and st.pending:
                _resolve_pending(rules, st)
                if st.phase == OVER:
                    if after is not None:
                        after((PLACE, tile, h))
                    return st.tiles_played - tiles_before + ends
            if after is not None:
                after((PLACE, tile, h))
        # The turn ends through _end_turn itself: a copy of its refill, end check and passing on here saved
        # under 10% of a random game (samurai bench, issue 39).
        ends += 1
        _end_turn(rules, st)
        if st.phase == OVER:
            if after is not None:
                after((END,))
            return st.tiles_played - tiles_before + ends
        seat, turn, played, normal_played = st.current, st.turn, 0, False
        plain = special_tiles.isdisjoint(hands[seat])
        if after is not None:
            after((END,))
