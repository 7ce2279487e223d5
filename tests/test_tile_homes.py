"""One home per special tile (issue 39 point 4): a tile's behaviour (``samurai_plugins.knizia.engine.special_tiles``)
owns its rules and its faces (its native name, words, clicks, marks, glyph, greedy worth), so no other module of
Knizia's game branches on a tile's name, and a plugin's tile written on ``TileFaces`` alone gets the game's plain
faces everywhere: buttons on the page, plain words, its initial, the Python engine."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import samurai
from samurai.web.games import GameSetup
from samurai_plugins.knizia.adapters.web import SamuraiDefinition
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.engine.backends import engine_report
from samurai_plugins.knizia.engine.special_tiles import ENGINE_TILES
from samurai_plugins.knizia.play.render import draw_view, move_marks
from samurai_plugins.knizia.play.replays import describe_action

from helpers import ROOT, write_plugin_edition

KNIZIA = ROOT / "plugins" / "knizia"
TILE_HOME = KNIZIA / "engine" / "special_tiles.py"
NATIVE_CRATE = KNIZIA / "engine" / "native"
TILE_NAMES = frozenset(tile.name for tile in ENGINE_TILES)


def name_branches(source: str, names: frozenset[str]) -> list[int]:
    """The lines of ``source`` that compare something with one of ``names`` (``x == "move"``, ``x in ("move",
    ...)``, ``case "move"``) or key a dict literal by one."""
    def named(node: ast.AST | None) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in names
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(named(element) for element in node.elts)
        return False

    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(named(side) for side in (node.left, *node.comparators)):
            lines.append(node.lineno)
        elif isinstance(node, ast.Dict) and any(named(key) for key in node.keys):
            lines.append(node.lineno)
        elif isinstance(node, ast.MatchValue) and named(node.value):
            lines.append(node.lineno)
    return lines


def test_the_name_check_finds_a_branch_on_a_tiles_name():
    planted = ('if special == "move":\n    pass\nmarks = {"switch": 2}\nok = kind in ("ronin", "switch")\n'
               'match special:\n    case "move":\n        pass\nhand = ["move", "rice-3"]\n')
    assert name_branches(planted, TILE_NAMES) == [1, 3, 4, 6]


def test_no_module_of_knizias_game_but_the_tiles_own_branches_on_a_tiles_name():
    assert TILE_NAMES == {"move", "switch"}
    found = []
    for path in sorted(KNIZIA.rglob("*.py")):
        if path == TILE_HOME or NATIVE_CRATE in path.parents:
            continue
        found += [f"{path.relative_to(ROOT)}:{line}" for line in name_branches(path.read_text(), TILE_NAMES)]
    assert found == [], f"branches on a special tile's name outside special_tiles.py: {found}"


def test_each_engine_tile_names_its_native_twin_on_its_own_class():
    for tile in ENGINE_TILES:
        assert vars(type(tile))["native_name"] == tile.name


SIGNAL = '''
import attrs

from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.core.actions import Action, to_coord
from samurai_plugins.knizia.engine.special_tiles import TileFaces


@attrs.frozen(order=False)
class Signal(Action):
    """Play the Signal tile toward the settlement at ``at``: the tile leaves the game, nothing else happens."""

    at: tuple[int, int] = attrs.field(converter=to_coord)


class SignalBehaviour(TileFaces):
    """The rules alone: every face is TileFaces' default."""

    name = "signal"
    action_type = Signal

    def can_play(self, rules, st, seat, tile):
        return True

    def legal(self, rules, st, seat, tile):
        return [(0,)]

    def check(self, rules, st, seat, tile, params):
        return None if params == (0,) else "Signal goes to the first settlement"

    def sample(self, rules, st, seat, tile, rng):
        return (0,)

    def apply(self, rules, st, seat, tile, params):
        st.spent[seat] += 1

    def to_action(self, rules, tile, params):
        return Signal(rules.board.settlements[params[0]].at)

    def from_action(self, rules, action):
        return (rules.board.settlement_at[rules.board.index[tuple(action.at)]],)

    def parameter_ranges(self, rules):
        return (len(rules.board.settlements),)


@hookimpl
def samurai_tile_behaviours():
    return [SignalBehaviour()]
'''


def test_a_plugins_tile_on_tile_faces_alone_gets_the_games_plain_faces(tmp_path: Path):
    manifest = write_plugin_edition(tmp_path, SIGNAL, '\n[tiles.move]\nspecial = "signal"\n')
    edition = samurai.load_edition(str(manifest))
    definition = SamuraiDefinition([str(manifest)])
    state = definition.start(GameSetup("samurai", "variant", 2, 5, {}))
    rules = state.rules
    assert engine_report(rules)[0] == "python"
    rng, tile = random.Random(5), rules.tile_index["move"]
    for _ in range(400):  # random play until the seat to act may play the Signal tile (the edition's "move")
        signal = [a for a in state.legal_actions() if a[0] == engine.SPECIAL and a[1] == tile]
        if signal:
            break
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
    assert signal == [(engine.SPECIAL, tile, 0)]
    seat = state.to_act
    controls = definition.controls(state, seat)
    [(keys, label)] = [(keys, controls.buttons[keys[1]]) for action, keys in controls.paths if action == signal[0]]
    first = rules.board.settlements[0]
    assert keys[0] == "tile:move" and keys[1].startswith("action:") and label == f"Signal at {list(first.at)}"
    assert controls.hints["tile:move"] == "Choose what move does"
    assert move_marks(rules, signal[0]) == ()
    after = state.copy()
    after.apply(signal[0])
    assert definition.log(state, signal[0], after, seat)[0] == f"You play Signal at {list(first.at)}"

    assert '<g class="hand-tile" data-tile="move">' in (picture := draw_view(state.view(seat), rules))
    assert ">S</text>" in picture.split('data-tile="move">')[1].split("</g>")[0]  # its initial: TileFaces' glyph

    game = samurai.new_game(edition, 2, 5, engine="python")
    assert describe_action(game.to_action(signal[0]), game) == f"plays Signal at={list(first.at)}"
