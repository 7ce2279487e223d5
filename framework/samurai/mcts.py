"""Information-set Monte Carlo tree search (single-observer IS-MCTS; Cowling, Powley and Whitehouse 2012).

The bot searches its seat's information set, never the real position: each
iteration draws a fresh position consistent with what the seat knows
(``Knowledge.determinize``), walks one tree shared by all those positions, and
plays the rest out with the game's own fast random policy. It speaks the game
protocol only (``samurai.protocol``), so it plays every phase (starting-hand
choices, figure placement, several tiles and an end of turn per turn) and
every edition, and any other game behind the protocol too.

- A node is reached by a sequence of actions from the seat's decision point
  (the tree's root); its children are keyed by action. An action legal in one
  drawn position may not be in another (an opponent's tiles differ), so a
  child counts how often it was *available* and the exploration term uses that
  count in place of the parent's visits (Cowling et al. §4.2).
- Each node keeps the return of the seat that acted into it, so a node of an
  opponent's move is chosen for that opponent's good (multi-player, max^n
  style); returns are the protocol's (1 a sole win, 1/k a shared win, 0 a loss).
- The budget is a number of simulations (deterministic for the bot's seed) or
  a number of seconds (depends on the machine). The most visited action is
  played.
"""

from __future__ import annotations

import math
import random
import time

from .protocol import GameState, Knowledge, Move

__all__ = ["MCTSBot", "DEFAULT_EXPLORATION"]

DEFAULT_EXPLORATION = 0.7
"""The UCT exploration constant for returns in [0, 1] (about 1/sqrt(2), Kocsis and Szepesvári)."""

_TIME_CHECK_EVERY = 16
"""With a time budget, the clock is read every this many simulations."""


class _Node:
    """A node of the tree: the statistics of the action that led here, and the children by action."""

    __slots__ = ("seat", "visits", "total", "available", "children")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        """The seat that acted into this node (whose return it keeps)."""
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.children: dict[Move, _Node] = {}


class MCTSBot:
    """Plays the action its information-set search visits most.

    ``simulations`` or ``seconds`` sets the budget per decision (one of them);
    ``seed`` seeds the bot's own generator (draws, expansions and rollouts).
    """

    trusted = True
    """It only plays actions the knowledge lists as legal; simulations need not check them."""

    def __init__(self, seed: int, *, simulations: int | None = None, seconds: float | None = None,
                 exploration: float = DEFAULT_EXPLORATION, name: str | None = None) -> None:
        if (simulations is None) == (seconds is None):
            raise ValueError("give the MCTS bot either a number of simulations or a number of seconds")
        if simulations is not None and (isinstance(simulations, bool) or not isinstance(simulations, int)
                                        or simulations < 1):
            raise ValueError(f"simulations must be a whole number from 1, not {simulations!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be more than 0, not {seconds!r}")
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.seconds = seconds
        self.exploration = exploration
        self.name = name or (f"mcts:{simulations}" if simulations is not None else f"mcts:{seconds:g}s")
        self.last_simulations = 0
        """How many simulations the last decision ran."""

    def act(self, knowledge: Knowledge) -> Move:
        """The most visited legal action after the search (the only one, without a search)."""
        legal = knowledge.legal_actions()
        if not legal:
            raise ValueError("the knowledge's seat has no legal action: it is not to act")
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        root = self.search(knowledge, legal)
        best, best_key = legal[0], (-1, -1.0)
        for action, child in root.children.items():
            key = (child.visits, child.total / child.visits if child.visits else 0.0)
            if key > best_key:
                best, best_key = action, key
        return best

    def search(self, knowledge: Knowledge, legal: list[Move]) -> _Node:
        """Run the budget's simulations from ``knowledge`` and return the tree's root."""
        root = _Node(-1)
        rng = self.rng
        if self.simulations is not None:
            for _ in range(self.simulations):
                self._simulate(root, knowledge, legal, rng)
            self.last_simulations = self.simulations
            return root
        assert self.seconds is not None
        deadline = time.perf_counter() + self.seconds
        done = 0
        while True:
            for _ in range(_TIME_CHECK_EVERY):
                self._simulate(root, knowledge, legal, rng)
            done += _TIME_CHECK_EVERY
            if time.perf_counter() >= deadline:
                break
        self.last_simulations = done
        return root

    def _simulate(self, root: _Node, knowledge: Knowledge, root_legal: list[Move], rng: random.Random) -> None:
        """One iteration: draw a position, select and expand in the tree, play out, back up."""
        state: GameState = knowledge.determinize(rng)
        node = root
        path = []
        legal = root_legal  # the seat knows its own legal actions: the same in every drawn position
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        while True:
            children = node.children
            unexpanded = [a for a in legal if a not in children]
            if unexpanded:
                action = unexpanded[int(rng.random() * len(unexpanded))]
                child = _Node(state.to_act)  # type: ignore[arg-type]
                children[action] = child
                state.apply(action)
                path.append(child)
                break
            best_child, best_action, best_value = None, legal[0], -1.0
            for action in legal:
                child = children[action]
                child.available += 1
                value = child.total / child.visits + c * sqrt(log(child.available) / child.visits)
                if value > best_value:
                    best_child, best_action, best_value = child, action, value
            assert best_child is not None
            state.apply(best_action)
            path.append(best_child)
            node = best_child
            if state.is_over:
                break
            legal = state.legal_actions()
        while not state.is_over:
            state.apply(state.sample_action(rng))
        returns = state.returns()
        for visited in path:
            visited.visits += 1
            visited.total += returns[visited.seat]
