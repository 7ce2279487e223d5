"""Information-set Monte Carlo tree search (single-observer IS-MCTS; Cowling, Powley and Whitehouse 2012).

The bot searches its seat's information set, never the real position: each
iteration draws a fresh position consistent with what the seat knows
(``Knowledge.determinize``), walks one tree shared by all those positions,
adds one node and scores it. It speaks the game
protocol only (``samurai.protocol``), so it plays every phase (starting-hand
choices, figure placement, several tiles and an end of turn per turn) and
every edition, and any other game behind the protocol too.

- A node is reached by a sequence of actions from the seat's decision point
  (the tree's root); its children are keyed by action. An action legal in one
  drawn position may not be in another (an opponent's tiles differ), so a
  child counts how often it was *available* and the exploration term uses that
  count in place of the parent's visits (Cowling et al., section 4.2).
- Each node keeps the return of the seat that acted into it, so a node of an
  opponent's move is chosen for that opponent's good (multi-player, max^n
  style); returns are the protocol's (1 a sole win, 1/k a shared win, 0 a loss).
- A simulation ends where the tree ends: the new leaf's position is scored by
  the game's own estimate (``GameState.evaluate``), after ``playout`` random
  actions (0 by default), or, with ``playout=None``, played out to the end by
  the fast random policy (``sample_action``) and scored by its returns. In
  Samurai the estimate wins far more often (docs/strength.md): random play after
  the leaf drowns what one tile changes.
- With ``replies``, the leaf is scored after the game's quick player
  (``GameState.policy_action``) has finished the searching seat's turn and
  played every other seat's until the searching seat is to act again: a
  position is judged after the answers it invites (a settlement left one hex
  from surrounded is taken by the next seat that can), not as if nobody
  answered.
  A node's first child is then the quick player's action too, so the tree
  starts from the answers the leaves assume and tries others as visits grow.
- With ``finish`` (a share from 0 to 1, with replies), the quick player then
  plays the game on to its end, and the leaf's score is that share of the
  returns there plus the rest of the estimate after the replies: two judges
  that err differently. The estimate alone tells positions apart finely but
  knows nothing of how the game goes on; one quick game to the end knows
  that but is noisy. A small share of the end (0.15) made the search
  stronger than either alone (docs/strength.md "A level above hard").
- With ``worlds``, the positions come from a pool of that many drawn once per
  decision, and the n-th visit of a root action uses world ``n % worlds``
  (with a generator of its own for the replies): the root's actions are
  compared on the same hidden tiles (common random numbers), so what the
  replies draw from an opponent's hand does not decide between two actions.
- The budget is a number of simulations (deterministic for the bot's seed) or
  a number of seconds (depends on the machine). The most visited action is
  played.
- A game may run this very search natively: before searching, ``act`` offers
  its options to the knowledge's ``search_natively(rng, ...)`` if it has one,
  which returns the decision and the simulations run, or None to leave the
  search to this module. Knizia's game does so on its native engine
  (``samurai_plugins.knizia.adapters.game_state.HexSeatKnowledge.search_natively``), with the same
  decisions draw for draw (docs/native.md "The search inside the engine").
"""

from __future__ import annotations

import math
import random
import time

import attrs

from ..protocol import GameState, Knowledge, Move

__all__ = ["MCTSBot", "DEFAULT_EXPLORATION", "ActionStatistics", "RootStatistics"]

DEFAULT_EXPLORATION = 0.35
"""The UCT exploration constant for returns in [0, 1]: half the textbook 1/sqrt(2) (Kocsis and Szepesvári).
Against ``greedy`` (2 players, FFG 2015, 800 simulations, the same 40 seeded games) 0.35 won 31.5, 0.7 won
25.5; 0.2 and 1.2 did worse in shorter runs."""

_TIME_CHECK_EVERY = 16
"""With a time budget, the clock is read every this many simulations."""


class _Node:
    """A node of the tree: the statistics of the action that led here, and the children by action."""

    __slots__ = ("seat", "chooser", "visits", "total", "available", "children", "totals")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        """The seat that acted into this node (whose return it keeps)."""
        self.chooser = -1
        """The seat that chooses among the children (set on the first arrival)."""
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.children: dict[Move, _Node] = {}
        self.totals: list[float] | None = None
        """A root child's sums of every seat's returns (None elsewhere): ``RootStatistics``."""


@attrs.frozen
class ActionStatistics:
    """One legal action of a search's root: how often the search tried it and the mean of every seat's returns
    over those simulations (``means[seat]``; the returns are the game's ``evaluate``/``returns`` values, 1 for a
    sole win and 1/k for a shared one)."""

    action: Move
    visits: int
    means: tuple[float, ...]


@attrs.frozen
class RootStatistics:
    """What one decision's search found at its root (``MCTSBot.statistics``): the seat that searched, the action
    the bot plays (``MCTSBot.act``'s), the simulations run, and each tried legal action's statistics in the legal
    order (an action the budget never reached is left out; none at all for a forced decision, where
    ``simulations`` is 0)."""

    seat: int
    chosen: Move
    simulations: int
    actions: tuple[ActionStatistics, ...]

    @property
    def forced(self) -> bool:
        """The seat had one legal action: no search ran."""
        return self.simulations == 0 and not self.actions

    def of(self, action: Move) -> ActionStatistics | None:
        """The statistics of ``action``, or None where the search never tried it."""
        for entry in self.actions:
            if entry.action == action:
                return entry
        return None


class MCTSBot:
    """Plays the action its information-set search visits most.

    ``simulations`` or ``seconds`` sets the budget per decision (one of them);
    ``seed`` seeds the bot's own generator (draws, expansions and playouts);
    ``playout`` is how many random actions follow the tree before the game's
    estimate is taken (0, the default: none; None: play out to the end);
    ``replies`` scores a leaf after the game's quick player has answered it,
    ``finish`` mixes that score with the quick player's play to the end and
    ``worlds`` compares the root's actions on a pool of drawn positions
    (all three: the module's docstring).
    """

    trusted = True
    """It only plays actions the knowledge lists as legal; simulations need not check them."""

    def __init__(self, seed: int, *, simulations: int | None = None, seconds: float | None = None,
                 exploration: float = DEFAULT_EXPLORATION, playout: int | None = 0, replies: bool = False,
                 worlds: int | None = None, finish: float = 0.0, name: str | None = None) -> None:
        if (simulations is None) == (seconds is None):
            raise ValueError("give the MCTS bot either a number of simulations or a number of seconds")
        if simulations is not None and (isinstance(simulations, bool) or not isinstance(simulations, int)
                                        or simulations < 1):
            raise ValueError(f"simulations must be a whole number from 1, not {simulations!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be more than 0, not {seconds!r}")
        if playout is not None and (isinstance(playout, bool) or not isinstance(playout, int) or playout < 0):
            raise ValueError(f"playout must be None or a whole number from 0, not {playout!r}")
        if replies and playout != 0:
            raise ValueError("replies are played instead of random playouts: give replies=True with playout=0")
        if isinstance(finish, bool) or not isinstance(finish, (int, float)) or not 0.0 <= finish <= 1.0:
            raise ValueError(f"finish must be a share from 0 to 1, not {finish!r}")
        if finish and not replies:
            raise ValueError("finish plays on after the replies: give finish with replies=True")
        if worlds is not None and (isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1):
            raise ValueError(f"worlds must be None or a whole number from 1, not {worlds!r}")
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.seconds = seconds
        self.exploration = exploration
        self.playout = playout
        self.replies = replies
        self.worlds = worlds
        self.finish = float(finish)
        self._pool: list[tuple[GameState, int]] = []
        budget = f"{simulations}" if simulations is not None else f"{seconds:g}s"
        kind = "mcts-finish" if finish else "mcts-replies" if replies else None
        self.name = name or (f"{kind}:{budget}" if kind else f"mcts:{budget}" if playout == 0
                             else f"mcts-rollouts:{budget}" if playout is None else f"mcts:{budget}:{playout}")
        self.last_simulations = 0
        """How many simulations the last decision ran."""

    def act(self, knowledge: Knowledge) -> Move:
        """The most visited legal action after the search (the only one, without a search)."""
        native = getattr(knowledge, "search_natively", None)
        if native is not None:
            found = native(self.rng, simulations=self.simulations, seconds=self.seconds,
                           exploration=self.exploration, playout=self.playout, replies=self.replies,
                           worlds=self.worlds, finish=self.finish)
            if found is not None:
                action, self.last_simulations = found
                return action  # type: ignore[no-any-return]
        return self._search_root(knowledge).chosen

    def statistics(self, knowledge: Knowledge) -> RootStatistics:
        """``act``'s search, with what it found at the root: the same decision, drawing the same numbers from
        the bot's generator, and per tried legal action its visits and every seat's mean returns. A game that
        searches natively (``search_natively(..., statistics=True)``) gives the very same figures."""
        native = getattr(knowledge, "search_natively", None)
        if native is not None:
            found = native(self.rng, simulations=self.simulations, seconds=self.seconds,
                           exploration=self.exploration, playout=self.playout, replies=self.replies,
                           worlds=self.worlds, finish=self.finish, statistics=True)
            if found is not None:
                action, self.last_simulations, rows = found
                return RootStatistics(knowledge.seat, tuple(action), self.last_simulations, tuple(
                    ActionStatistics(tuple(a), visits, tuple(means)) for a, visits, means in rows))
        return self._search_root(knowledge)

    def _search_root(self, knowledge: Knowledge) -> RootStatistics:
        """The Python search's decision and its root's statistics."""
        legal = knowledge.legal_actions()
        if not legal:
            raise ValueError("the knowledge's seat has no legal action: it is not to act")
        if len(legal) == 1:
            self.last_simulations = 0
            return RootStatistics(knowledge.seat, legal[0], 0, ())
        root = self.search(knowledge, legal)
        best, best_key = legal[0], (-1, -1.0)
        rows = []
        for action in legal:  # in the legal order, so ties break the same way every time
            child = root.children.get(action)
            if child is not None:
                if (child.visits, child.total / child.visits) > best_key:
                    best, best_key = action, (child.visits, child.total / child.visits)
                assert child.totals is not None
                rows.append(ActionStatistics(action, child.visits, tuple(t / child.visits for t in child.totals)))
        return RootStatistics(knowledge.seat, best, self.last_simulations, tuple(rows))

    def search(self, knowledge: Knowledge, legal: list[Move]) -> _Node:
        """Run the budget's simulations from ``knowledge`` (whose legal actions are ``legal``); the tree's root."""
        root = _Node(-1)
        root.chooser = knowledge.seat
        self._pool = []  # this decision's worlds, drawn as the visits need them
        # The seat knows its own legal actions: the same in every drawn position, so the root's
        # untried ones are drawn from one shuffled list.
        untried = legal[:]
        self.rng.shuffle(untried)
        simulate = self._simulate
        if self.simulations is not None:
            for _ in range(self.simulations):
                simulate(root, untried, knowledge, legal)
            self.last_simulations = self.simulations
            return root
        assert self.seconds is not None
        deadline = time.perf_counter() + self.seconds
        done = 0
        while True:
            for _ in range(_TIME_CHECK_EVERY):
                simulate(root, untried, knowledge, legal)
            done += _TIME_CHECK_EVERY
            if time.perf_counter() >= deadline:
                break
        self.last_simulations = done
        return root

    def _simulate(self, root: _Node, root_untried: list[Move], knowledge: Knowledge, root_legal: list[Move]) -> None:
        """One simulation: choose at the root, draw a position, go on down the tree, score the leaf, back up."""
        rng = self.rng
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        # The root's actions are the seat's own, legal in every drawn position, so one is chosen before the
        # position is drawn (with worlds, which one is drawn depends on that action's visits).
        if root_untried:
            action = root_untried.pop()
            node = root.children[action] = _Node(root.chooser)
            expanded = True
        else:
            # Every root action is available in every drawn position, so their availability is the
            # root's visits: one logarithm for all.
            exploration = c * sqrt(log(root.visits))
            action, best_value = root_legal[0], -1.0
            for candidate, child in root.children.items():
                visits = child.visits
                value = child.total / visits + exploration / sqrt(visits)
                if value > best_value:
                    action, best_value = candidate, value
            node = root.children[action]
            expanded = False
        state, policy_rng = self._draw(knowledge, node.visits)
        state.apply(action)
        path = [node]
        while not expanded and not state.is_over:
            seat = state.to_act
            if node.chooser < 0:
                node.chooser = seat  # type: ignore[assignment]
            elif node.chooser != seat:
                break  # here another seat is to act than the first time (a pass the seat cannot foresee)
            legal = state.legal_actions()
            children = node.children
            unexpanded = [a for a in legal if a not in children]
            if unexpanded:
                if self.replies and not children:  # the first answer tried is the one the leaves assume
                    action = state.policy_action(policy_rng)
                else:
                    action = unexpanded[int(rng.random() * len(unexpanded))]
                node = children[action] = _Node(node.chooser)
                expanded = True
            else:
                best_child, action, best_value = root, legal[0], -1.0
                for candidate in legal:
                    child = children[candidate]
                    child.available += 1
                    value = child.total / child.visits + c * sqrt(log(child.available) / child.visits)
                    if value > best_value:
                        best_child, action, best_value = child, candidate, value
                node = best_child
            state.apply(action)
            path.append(node)
        returns = self._play_out(state, policy_rng, knowledge.seat)
        for visited in path:
            visited.visits += 1
            visited.total += returns[visited.seat]
        totals = path[0].totals  # the root child's sums for every seat, in the same order as its total
        if totals is None:
            path[0].totals = [0.0 + r for r in returns]
        else:
            for seat, value in enumerate(returns):
                totals[seat] += value
        root.visits += 1

    def _draw(self, knowledge: Knowledge, visits: int) -> tuple[GameState, random.Random]:
        """The position of a simulation whose root action has ``visits`` visits, and the generator of its
        playout: a fresh draw from the bot's generator, or with ``worlds`` world ``visits % worlds``."""
        if self.worlds is None:
            return knowledge.determinize(self.rng), self.rng
        index = visits % self.worlds
        pool = self._pool
        while len(pool) <= index:
            pool.append((knowledge.determinize(self.rng), self.rng.getrandbits(64)))
        world, seed = pool[index]
        return world.copy(), random.Random(seed)

    def _play_out(self, state: GameState, rng: random.Random, seat: int) -> tuple[float, ...]:
        """The leaf's score (``seat`` searches): the game's estimate after the replies (with ``finish``, mixed
        with the returns of the quick player's play to the end) or ``playout`` random actions, or the returns at
        the end."""
        if self.playout is None:
            while not state.is_over:
                state.apply(state.sample_action(rng))
            return state.returns()
        if self.replies:
            while state.to_act == seat:  # the seat's own turn, finished by the game's policy
                state.apply(state.policy_action(rng))
            while not state.is_over and state.to_act != seat:
                state.apply(state.policy_action(rng))
            share = self.finish
            if not share or state.is_over:
                return state.evaluate()
            estimated = state.evaluate()
            while not state.is_over:
                state.apply(state.policy_action(rng))
            # In this order, as the native search weighs them (the same decisions, to the last bit).
            return tuple((1.0 - share) * e + share * r for e, r in zip(estimated, state.returns(), strict=True))
        for _ in range(self.playout):
            if state.is_over:
                break
            state.apply(state.sample_action(rng))
        return state.evaluate()
