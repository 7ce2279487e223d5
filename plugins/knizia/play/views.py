"""What one seat may know: a JSON-ready view of a game (docs/rules/samurai.md#hidden-information).

A seat sees its own hand (and, while choosing, its unchosen tiles), every
seat's hand and stack size, the board (tiles are face up, figures stand in
the open), the supply and the figures removed by ties, and the captured
figures the edition makes public: its own always; everyone's when the
edition says so or once the game is over and the screens are lifted.
It never sees another seat's tiles, the order of any stack or the game's
random generator.
"""

from __future__ import annotations

from typing import Any

from samurai.errors import DataError
from samurai_plugins.knizia.core.state import EMPTY, HANDS, OVER, PHASE_NAMES, State
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import Rules

__all__ = ["seat_view"]


def seat_view(rules: Rules, st: State, seat: int) -> dict[str, Any]:
    """The view of ``seat`` (0..players-1) as plain dicts, lists, strings and ints."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TypeError(f"seat must be a whole number from 0 to {rules.players - 1}, not {seat!r:.40}")
    if not 0 <= seat < rules.players:
        raise DataError(f"seat must be a whole number from 0 to {rules.players - 1}, not {seat}", source="seat")
    board = rules.board
    names = rules.tile_types
    captures_public = rules.public_captures or st.phase == OVER
    seats = []
    for other in range(rules.players):
        entry: dict[str, Any] = {
            "seat": other,
            "hand_size": len(st.hands[other]),
            # Before and while hands are chosen the seat's tiles wait in its pool, after it in its stack.
            "stack_size": len(st.pools[other]) + len(st.stacks[other]),
        }
        if other == seat or captures_public:
            entry["captured"] = {caste: st.captured[other * 3 + c] for c, caste in enumerate(CASTES)}
        seats.append(entry)
    view: dict[str, Any] = {
        "edition": rules.edition.id,
        "map": board.map.name,
        "players": rules.players,
        "seat": seat,
        "phase": PHASE_NAMES[st.phase],
        "current_player": None if st.current == EMPTY else st.current,
        "turn": st.turn,
        "hand": sorted(names[t].name for t in st.hands[seat]),
        "seats": seats,
        "board": {
            "tiles": [{"at": list(board.coords[h]), "tile": names[st.tile_type[h]].name, "owner": st.tile_owner[h]}
                      for h in range(board.size) if st.tile_owner[h] != EMPTY],
            "settlements": [
                {"name": s.name, "at": list(s.at), "kind": s.kind,
                 "figures": [caste for c, caste in enumerate(CASTES) if st.figures[i] >> c & 1],
                 "empty_land_around": st.empty_around[i]}
                for i, s in enumerate(board.settlements)],
        },
        "supply": {caste: st.supply[c] for c, caste in enumerate(CASTES)},
        "removed": {caste: st.removed[c] for c, caste in enumerate(CASTES)},
        "this_turn": {"tiles_played": st.played, "normal_tile_played": st.normal_played},
        "result": st.result.to_dict() if st.result else None,
    }
    if st.phase == HANDS:
        view["unchosen"] = sorted(names[t].name for t in st.pools[seat])
    return view
