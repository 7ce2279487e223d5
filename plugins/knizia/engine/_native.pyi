"""Knizia's native engine, the Rust extension module built from ``plugins/knizia/engine/native`` (docs/native.md).

Present only where the package was built with a Rust toolchain: the engine (``NativeRules``, ``NativeState``,
``play_games``) and the generator every game draws from. ``samurai_plugins.knizia.engine.backends`` is its face; docs/native.md.
"""

from typing import Any, final

__all__ = ["MersenneTwister", "NativeRules", "NativeState", "play_games", "derive_seed", "derive_seeds",
           "native_scoring_decision", "search_decision"]

@final
class MersenneTwister:
    """CPython's Mersenne Twister, value for value with ``random.Random(seed)`` for a whole-number seed."""

    def __new__(cls, seed: int) -> MersenneTwister:
        """The generator of ``random.Random(seed)``; a seed that is not an int is refused with TypeError."""
    def seed(self, seed: int) -> None:
        """Reseeds as ``random.Random.seed(seed)`` does for an int."""
    def random(self) -> float:
        """``random()``: a float in [0, 1) from 53 random bits."""
    def getrandbits(self, k: int) -> int:
        """``getrandbits(k)`` for k from 0 to 64; any other k is refused with ValueError."""
    def randbelow(self, n: int) -> int:
        """CPython's ``_randbelow(n)``: an int in [0, n) for n from 1 to 2**64 - 1, else ValueError."""
    def random_index(self, n: int) -> int:
        """``floor(random() * n)``, how Knizia's engine picks an index, for n from 1 to 2**53, else ValueError."""
    def shuffle(self, items: list[Any]) -> None:
        """Shuffles a list in place as ``random.Random.shuffle`` does; anything but a list is refused."""
    def getstate(self) -> tuple[int, tuple[int, ...], float | None]:
        """The state as ``random.Random.getstate()`` gives it (version 3, 624 words and the index, gauss_next)."""
    def setstate(self, state: tuple[int, tuple[int, ...], float | None]) -> None:
        """Takes a ``getstate()`` tuple of this class or of ``random.Random``; a malformed one raises ValueError."""
    def copy(self) -> MersenneTwister:
        """An independent copy at the same point of the sequence."""

@final
class NativeRules:
    """An edition compiled for one player count, options and map, as the native engine reads it
    (``samurai_plugins.knizia.engine.backends.native_rules`` makes one per compiled ``Rules``)."""

    def __new__(cls, spec: dict[str, Any], template: Any) -> NativeRules:
        """The tables of ``spec`` (``samurai_plugins.knizia.engine.backends.native_spec``) and the starting position ``template`` (a
        Python engine ``State``); ``ValueError`` naming the table or field that is malformed."""
    @property
    def players(self) -> int:
        """The number of seats."""
    @property
    def scoring(self) -> str:
        """``leader_tokens``, ``majorities``, ``most_figures``, or ``python`` (only the edition's hook decides)."""

@final
class NativeState:
    """One position on the native engine: the Python engine ``State``'s fields, read by name (``__getattribute__``:
    the one list of them is the crate's, ``native/src/state.rs``), and the engine's functions as methods."""

    def __getattribute__(self, name: str, /) -> Any:
        """A field of the position by its name (``phase``, ``hands``, ...: those of the Python engine's ``State``,
        ``samurai_plugins.knizia.core.state``, each read a fresh value, read-only; ``rng`` a ``random.Random`` in
        the state of the game's generator, a copy), else the attribute as Python looks it up."""
    @property
    def result(self) -> Any:
        """The ``Result`` once the game is over and scored (``samurai_plugins.knizia.engine.backends`` scores it),
        else None."""
    @result.setter
    def result(self, result: Any) -> None: ...
    @staticmethod
    def start(rules: NativeRules, seed: int, trace: bool = False) -> NativeState:
        """A new game seeded ``seed``, its random setup done; ``trace`` keeps the events."""
    @staticmethod
    def of_state(rules: NativeRules, state: Any) -> NativeState:
        """The native position of a Python engine ``State``; ``ValueError`` naming what is malformed."""
    def copy(self, rng: Any = None) -> NativeState:
        """An independent copy; its generator a copy of this one's, or of ``rng``'s state when given."""
    def fingerprint(self) -> tuple[Any, ...]:
        """The position as one tuple, equal to ``State.fingerprint()`` of the same position."""
    def legal_actions(self) -> list[tuple[int, ...]]:
        """Every legal action, as the Python engine lists them."""
    def check(self, action: tuple[int, ...]) -> str | None:
        """Why ``action`` is illegal, in the Python engine's words, or None; ``IndexError`` for a number that names
        nothing of the game."""
    def apply(self, action: tuple[int, ...]) -> None:
        """Play ``action``; an illegal one raises ``samurai.IllegalAction`` and changes nothing."""
    def sample_action(self, rng: Any) -> tuple[int, ...]:
        """A random legal action drawn from ``rng`` (a ``MersenneTwister`` or anything with ``random()``)."""
    def greedy_action(self, rng: Any) -> tuple[int, ...]:
        """What the greedy player plays for the seat to act, ties drawn from ``rng``."""
    def play_random(self, rngs: list[Any], keep: bool = False) -> tuple[int, list[tuple[int, ...]] | None]:
        """The game to its end between random players, seat ``k`` drawing from ``rngs[k]``; the number of actions
        and, with ``keep``, the actions."""
    def playouts(self, rng: Any, count: int) -> int:
        """``count`` random playouts, each from a copy of this position, every seat drawing from ``rng``; the actions
        played in all (the position does not change)."""
    def native_decision(self) -> tuple[list[int], str] | None:
        """The winners and reason code of a finished game by its shipped scoring, or None."""
    def __copy__(self) -> NativeState:
        """An independent copy."""
    def __deepcopy__(self, _memo: Any) -> NativeState:
        """An independent copy."""

def play_games(rules: NativeRules, seeds: list[int], bots: list[str],
               keep: bool = False) -> list[tuple[Any, ...]]:
    """Whole games between ``random`` and ``greedy`` bots, one per seed, as ``samurai_plugins.knizia.adapters.runner.play_game``
    plays them: per game a row in the order of ``samurai_plugins.knizia.engine.backends.NativeGame``'s fields (the seed, winners,
    reason and returns, None when only the edition's hook scores; the end reason, turns, tiles played, each seat's
    captures per caste, figures removed, actions played, the seat leading alone after the middle turn, and the
    actions with ``keep``)."""

def derive_seed(seed: int, index: int) -> int:
    """``samurai.seeds.derive_seed``, natively."""

def derive_seeds(seed: int, indices: list[int]) -> list[int]:
    """``samurai.seeds.derive_seed(seed, index)`` of every index, natively."""

def native_scoring_decision(scoring: str, captured: list[int], players: int) -> tuple[list[int], str]:
    """The winners and reason code the native scoring ``scoring`` gives ``captured`` (``seat * 3 + caste``)."""

def search_decision(rules: NativeRules, public: Any, seat: int, hidden: list[list[int]], hand_sizes: list[int],
                    pool_sizes: list[int], rng: Any, *, simulations: int | None, seconds: float | None,
                    exploration: float, playout: int | None, replies: bool, worlds: int | None, finish: float = 0.0,
                    statistics: bool = False) -> tuple[tuple[int, ...], int, Any] | None:
    """The information-set search's decision for ``seat`` (``samurai.search.mcts.MCTSBot.act`` inside the engine)
    from the seat's knowledge only (``public``: a Python ``State`` holding no other seat's tiles; ``hidden``: each
    seat's unseen tiles; each seat's hand and unchosen sizes), ``rng`` advanced exactly as the Python search
    advances it: ``(action, simulations run, root statistics or None)``, or None when the edition scores in
    Python. ``ValueError`` for knowledge or options that do not fit."""
