"""The web layer serves any game behind the protocol plus a ``GameDefinition`` (issue 10 item 8): here Nim,
a game written in this test, is started, played against a bot and recorded through the same API and page
data as Samurai, with no change to ``samurai.web``."""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from samurai.errors import DataError
from samurai.protocol import GameState, Move
from samurai.web.app import create_app
from samurai.web.games import Controls, EditionChoice, GameSetup, Opened, TrayItem

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class Nim:
    """One pile of stones; a move takes 1 to 3 of them; whoever takes the last stone wins."""

    def __init__(self, stones: int, players: int = 2, moves: int = 0) -> None:
        self.stones, self.players, self.moves = stones, players, moves

    @property
    def to_act(self) -> int | None:
        return None if self.is_over else self.moves % self.players

    @property
    def is_over(self) -> bool:
        return self.stones == 0

    @property
    def move_number(self) -> int:
        return self.moves

    def legal_actions(self) -> list[Move]:
        return [(take,) for take in range(1, min(3, self.stones) + 1)]

    def check(self, action: Move) -> str | None:
        return None if action in self.legal_actions() else f"take 1 to {min(3, self.stones)} stones, not {action}"

    def apply(self, action: Move) -> None:
        self.stones -= action[0]
        self.moves += 1

    def sample_action(self, rng: random.Random) -> Move:
        return rng.choice(self.legal_actions())

    def returns(self) -> tuple[float, ...]:
        winner = (self.moves - 1) % self.players
        return tuple(1.0 if self.is_over and seat == winner else 0.0 for seat in range(self.players))

    def copy(self) -> Nim:
        return Nim(self.stones, self.players, self.moves)

    def knowledge(self, seat: int) -> Any:
        return self.copy()  # nothing is hidden in Nim

    def determinize(self, seat: int, rng: random.Random) -> Nim:
        return self.copy()

    def view(self, seat: int) -> dict[str, Any]:
        return {"stones": self.stones, "to_act": self.to_act, "winner": self.returns().index(1.0)
                if self.is_over else None}

    def describe(self, action: Move) -> dict[str, Any]:
        return {"take": action[0]}


class NimDefinition:
    name = "nim"
    title = "Nim"

    def editions(self) -> Sequence[EditionChoice]:
        return [EditionChoice("nim-15", "Nim with 15 stones", "take 1 to 3; the last stone wins", (2,))]

    def bots(self) -> Sequence[str]:
        return ["random"]

    def start(self, setup: GameSetup) -> GameState:
        if setup.edition != "nim-15" or setup.players != 2:
            raise DataError("Nim is nim-15 for 2 players", source="edition")
        return Nim(15)

    def bot_action(self, state: GameState, seat: int, bot: str, rng: random.Random) -> Move:
        return rng.choice(state.knowledge(seat).legal_actions())

    def render(self, state: GameState, view: Mapping[str, Any], last: Move | None,
               preferred: Move | None = None) -> str:
        return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{view["stones"]} stones</text></svg>'

    def key(self) -> str | None:
        return None

    def open_view(self, state: GameState) -> dict[str, Any]:
        return state.view(0)  # Nim hides nothing

    def status(self, view: Mapping[str, Any]) -> dict[str, Any]:
        winner = view["winner"]
        return {"headline": f"{view['stones']} stones", "phase": "over" if winner is not None else "play",
                "to_act": view["to_act"], "columns": [], "rows": [[], []], "facts": [],
                "result": None if winner is None else {"winners": [winner], "explanation": "took the last stone"}}

    def controls(self, state: GameState, seat: int) -> Controls:
        paths = tuple((a, (f"take:{a[0]}",)) for a in state.legal_actions()) if state.to_act == seat else ()
        return Controls("Pile", (TrayItem("pile", "stones", (), max(1, state.view(seat)["stones"])),), paths,
                        {f"take:{n}": f"Take {n}" for n in (1, 2, 3)}, {"": "Take 1 to 3 stones"})

    def log(self, before: GameState, action: Move, after: GameState, seat: int | None) -> list[str]:
        return [f"Seat {before.to_act} takes {action[0]}"]

    def record(self, setup: GameSetup, actions: Sequence[Move], final: GameState) -> dict[str, Any]:
        return {"game": "nim", "actions": [list(a) for a in actions]}

    def open_record(self, data: Any, allowed: Sequence[str]) -> Opened:
        return Opened(GameSetup("nim", "nim-15", 2, 0), Nim(15), tuple(tuple(a) for a in data["actions"]))


def test_another_game_is_served_through_the_same_api_without_changing_the_web_layer(tmp_path: Path) -> None:
    with TestClient(create_app([NimDefinition()], str(tmp_path))) as client:
        catalog = client.get("/api/catalog").json()["games"]
        assert [g["game"] for g in catalog] == ["nim"]
        created = client.post("/api/games", json={"game": "nim", "edition": "nim-15", "seats": ["human", "random"],
                                                  "seed": 1}).json()
        game, auth = created["game"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        while True:
            page = client.get(f"/api/games/{game}/page", headers=auth).json()
            if page["over"]:
                break
            if page["to_act"] != 0:
                time.sleep(0.005)  # the bot moves in the background
                continue
            path = page["controls"]["paths"][-1]
            assert path["keys"][0] in page["controls"]["buttons"]
            response = client.post(f"/api/games/{game}/actions", headers=auth,
                                   json={"move_number": page["move_number"], "action": path["action"]})
            assert response.status_code == 200, response.text
        assert "stones" in page["svg"] and page["status"]["result"]["explanation"] == "took the last stone"
        record = client.get(f"/api/games/{game}/record").json()
        assert sum(a[0] for a in record["actions"]) == 15
        assert client.get(f"/api/games/{game}/replay?step=1").json()["lines"][0].startswith("Seat 0 takes")
