"""Helpers for the tests: tiny-map coordinates and a way to reach exact positions.

``setup_tiny`` plays an edition's setup on the tiny map (maps/tiny.toml)
through ordinary actions, in the edition's order of phases: each seat chooses
the hand the test names, and figures go where the test says (the city first,
then villages, as the FFG rules require), so a rule test starts from a known
position. ``tiny_scenario`` starts from a scenario given as data instead, for
positions no short run of legal actions reaches. Both go through the public
API only, so the rule tests pin whichever engine plays the game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

import samurai
from samurai import Action, ChooseTile, EndTurn, Game, IllegalAction, PlaceFigure, PlaceTile
from samurai_plugins.knizia.adapters.game_state import HexGameState, start

ROOT = Path(__file__).resolve().parent.parent


def packages_view(folder: Path) -> Path:
    """A folder where the source packages stand under their import names (``samurai``, ``samurai_plugins``), for
    mypy, which names a module by its folders and cannot follow pyproject's mapping of ``plugins/`` nor an editable
    install's import hook. Put it on ``MYPYPATH``, or run mypy in it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in (("samurai", ROOT / "framework" / "samurai"), ("samurai_plugins", ROOT / "plugins")):
        (folder / name).symlink_to(source, target_is_directory=True)
    return folder
DATA = Path(__file__).resolve().parent / "data"
TINY_EDITION = str(DATA / "tiny-ffg2015.toml")
TINY_CORE_EDITION = str(DATA / "tiny-core.toml")
TINY_ORIGINAL_EDITION = str(DATA / "tiny-original.toml")

# Tiny map coordinates (maps/tiny.toml).
KITA, HIGASHI, MIYAKO, MACHI, NISHI, MINAMI = (1, 1), (5, 1), (3, 3), (5, 3), (1, 5), (4, 5)
KITA_LAND = ((2, 1), (2, 2))
KITA_SEA = ((0, 1), (1, 0), (2, 0), (1, 2))
MIYAKO_LAND = ((4, 3), (2, 3), (4, 4), (3, 4), (4, 2), (3, 2))
MACHI_LAND = ((4, 3), (5, 4), (6, 2), (5, 2))

# Default figures: Machi (city) first, then the villages; Miyako starts with one of each.
DEFAULT_FIGURES = (("buddha", MACHI), ("rice", MACHI), ("castle", KITA), ("buddha", HIGASHI),
                   ("rice", NISHI), ("castle", MINAMI))
DEFAULT_HAND = ("castle-4", "samurai-1", "ship-2", "ronin", "move")


def setup_tiny(tiny: samurai.Edition, hands: Mapping[int, Sequence[str]] | None = None,
               figures: Sequence[tuple[str, tuple[int, int]]] = DEFAULT_FIGURES, players: int = 2,
               seed: int = 1, options: Mapping[str, object] | None = None) -> Game:
    """A tiny-map game in the play phase with the given starting hands and figures."""
    game = samurai.new_game(tiny, players=players, seed=seed, options=options)
    hands = hands or {}
    # The edition decides the order of the phases (docs/rules/samurai.md#setup-order: the original places figures
    # first).
    while game.phase != "play":
        if game.phase == "choose_hands":
            for seat in range(players):
                for tile in hands.get(seat, DEFAULT_HAND):
                    game.apply(ChooseTile(tile))
        else:
            for caste, at in figures:
                game.apply(PlaceFigure(caste, at))
    return game


STARTING_FIGURES = {"Kita": ["castle"], "Higashi": ["buddha"], "Miyako": ["buddha", "rice", "castle"],
                    "Machi": ["buddha", "rice"], "Nishi": ["rice"], "Minami": ["castle"]}
"""``DEFAULT_FIGURES`` by settlement name, as a scenario's ``[figures]`` table gives them."""


def tiny_scenario(edition: samurai.Edition, *, players: int = 2, to_act: int = 0, turn: int = 1,
                  tiles: Sequence[tuple[tuple[int, int], str, int]] = (),
                  figures: Mapping[str, Sequence[str]] = STARTING_FIGURES,
                  hands: Mapping[int, Sequence[str]] | None = None,
                  stacks: Mapping[int, Sequence[str]] | None = None, seed: int = 1) -> Game:
    """A tiny-map game in the play phase, started from a scenario given as data (``new_game(scenario=...)``).

    By default it is the position ``setup_tiny`` reaches: every seat holds ``DEFAULT_HAND`` and the figures
    stand where ``DEFAULT_FIGURES`` puts them. ``tiles`` are ``(hex, tile, owner)`` placed on earlier turns;
    a seat named in ``stacks`` has exactly that stack (``[]``: nothing left to draw), the others every tile
    of theirs not in hand or on the board. Positions that no short run of legal actions reaches (an empty
    stack, a seat with nothing left to play) are set up this way, on whichever engine plays the game.
    """
    seats = []
    for seat in range(players):
        setup: dict[str, object] = {"hand": list((hands or {}).get(seat, DEFAULT_HAND))}
        if stacks is not None and seat in stacks:
            setup["stack"] = list(stacks[seat])
        seats.append(setup)
    data = {"players": players, "to_act": to_act, "turn": turn,
            "figures": {name: list(castes) for name, castes in figures.items()},
            "tiles": [{"at": list(at), "tile": tile, "owner": owner} for at, tile, owner in tiles],
            "seats": seats}
    return samurai.new_game(edition, seed=seed, scenario=data)


def figures_at(game: Game, at: tuple[int, int]) -> list[str]:
    """The castes standing in the settlement at ``at``."""
    for settlement in game.view(0)["board"]["settlements"]:
        if tuple(settlement["at"]) == at:
            return settlement["figures"]
    raise KeyError(at)


def captured(game: Game, seat: int) -> dict[str, int]:
    """What ``seat`` has captured (from its own view)."""
    return game.view(seat)["seats"][seat]["captured"]


def hand(game: Game, seat: int) -> list[str]:
    """The tiles in ``seat``'s hand (from its own view)."""
    return game.view(seat)["hand"]


def tile_at(game: Game, at: tuple[int, int]) -> dict | None:
    """The tile on hex ``at`` as the views show it, or None."""
    for tile in game.view(0)["board"]["tiles"]:
        if tuple(tile["at"]) == at:
            return tile
    return None


def play_turn(game: Game, *actions: Action) -> None:
    """Apply ``actions`` for the current player, then end the turn."""
    for action in actions:
        game.apply(action)
    game.apply(EndTurn())


def assert_refused_unchanged(game: Game, action: object, match: str | None = None) -> None:
    """``action`` raises IllegalAction (matching ``match``) and the game is exactly as before."""
    before = game.state.fingerprint()
    with pytest.raises(IllegalAction, match=match):
        game.apply(action)  # type: ignore[arg-type]
    assert game.state.fingerprint() == before


CLOSING_HANDS = {0: ("castle-2", "samurai-1", "ship-2", "ronin", "move"),
                 1: ("samurai-1", "ship-2", "ship-1", "ronin", "move")}
"""Hands for the timing tests: seat 0 plays castle-2 beside Kita, seat 1 closes it with samurai-1
and can then add a ship."""


def capture_kita(tiny: samurai.Edition, **kwargs: object) -> Game:
    """A default tiny game after seat 0's castle-4 and seat 1's samurai-1 close Kita: seat 0
    captures its castle figure (4 against 1); seat 0 is to play."""
    game = setup_tiny(tiny, **kwargs)  # type: ignore[arg-type]
    play_turn(game, PlaceTile("castle-4", KITA_LAND[0]))
    play_turn(game, PlaceTile("samurai-1", KITA_LAND[1]))
    return game


SCRIPTED_HANDS = {0: ("castle-4", "samurai-1", "samurai-2", "ronin", "ship-1"),
         1: ("samurai-1", "samurai-2", "ronin", "ship-1", "castle-2")}
TURNS = ((0, "castle-4", KITA_LAND[0]), (1, "samurai-1", KITA_LAND[1]),  # seat 0 captures Kita's castle, 4 to 1
         (0, "samurai-1", MACHI_LAND[0]), (1, "samurai-2", MACHI_LAND[1]),
         (0, "samurai-2", MACHI_LAND[2]), (1, "ronin", MACHI_LAND[3]))  # Machi: 3 against 3 for both figures


def scripted_game(edition: samurai.Edition) -> Game:
    """The hand-computed record of the metrics' and replays' tests: on the tiny map, six turns of
    one tile each; seat 0 captures Kita's castle and the two ties in Machi end the game (option
    removed_to_end = 1)."""
    game = setup_tiny(edition, hands=SCRIPTED_HANDS, options={"removed_to_end": 1})
    for seat, tile, at in TURNS:
        assert game.current_player == seat
        game.apply(PlaceTile(tile, at))
        if not game.is_over:
            game.apply(EndTurn())
    assert game.is_over
    return game


def randomly_played(edition: str, players: int, seed: int, actions: int, engine: str | None = None) -> HexGameState:
    """A protocol position reached by random play: ``actions`` random actions (fewer if the game ends first), on
    ``engine`` (the default engine when None)."""
    state = start(edition, players, seed=seed, engine=engine)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state.apply(state.sample_action(rng))
    return state


def position_and_twin(edition: str, players: int, seed: int, actions: int, twin_draw: int,
                      engine: str | None = None) -> tuple[HexGameState, HexGameState, int] | None:
    """A randomly played position (``randomly_played``), a twin identical in all its seat to act knows and different
    in what that seat cannot know (other seats' tiles, the order of every stack, the game's generator; drawn with
    ``twin_draw``), and that seat; None when the game is over. The bots' and the analysis' never-peek tests."""
    state = randomly_played(edition, players, seed, actions, engine)
    if state.is_over:
        return None
    seat = state.to_act
    assert seat is not None
    twin = state.determinize(seat, random.Random(twin_draw))
    assert twin.view(seat) == state.view(seat)
    return state, twin, seat


def living_group_members(group: int) -> list[int]:
    """The processes of process group ``group`` still alive, read from ``/proc`` (a run's or a server's workers
    share the group of the command that started them); zombies waiting for their parent (``Z``) and dead
    entries (``X``) are not alive."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] not in ("Z", "X"):
                members.append(int(entry.name))
    return members


def write_plugin_edition(folder: Path, plugin: str, extra: str = "", *, key: str = "variant",
                         name: str = "A designer's variant") -> Path:
    """An edition ``key`` extending FFG 2015 with ``plugin`` as its plugin file, written into ``folder`` (``extra``
    appended to its manifest); the manifest's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{key}.py").write_text(plugin)
    manifest = folder / f"{key}.toml"
    manifest.write_text(f'id = "{key}"\nname = "{name}"\nversion = "1.0.0"\nextends = "ffg2015"\n'
                        f'plugins = ["{key}.py"]\n' + extra)
    return manifest


def markdown_anchors(text: str) -> list[str]:
    """The anchors of a Markdown document (a rules page in ``docs/rules``, a guide), in order, repeats kept: its
    explicit ``<a id="...">`` and the ids a Markdown renderer gives its headings (GitHub's: lower case, punctuation
    dropped, spaces to -)."""
    explicit = re.findall(r'<a id="([\w-]+)"></a>', text)
    headings = re.findall(r"^#+ (.+)$", text, re.MULTILINE)
    return explicit + [re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings]
