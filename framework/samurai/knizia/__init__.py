"""Reiner Knizia's Samurai, the hex tile-placement game (docs/rules/samurai.md), as a game package of the framework.

Its editions (``editions/original.toml``, ``editions/ffg2015.toml``) are plugins of this game
(``samurai_plugins.original``, ``samurai_plugins.ffg2015``). The modules, from the board up:

- ``hexgrid``, ``tiles``, ``maps``: coordinates, the tile set and the hex maps;
- ``state``, ``rules``, ``setup_rules``, ``special_tiles``, ``engine``: the fast position (flat lists of small
  ints), the rules compiled from an edition, the set-up procedures, the special tiles, and the move generator;
- ``engines``: the Python engine and the native one (the Rust crate in ``native/``, the extension ``_native``)
  behind one face, chosen by ``SAMURAI_ENGINE`` or ``engine=``; ``native_scoring``: a scoring hook's claim
  that the native engine decides its winners as it does;
- ``result``: who won and why;
- ``actions``, ``game``, ``views``, ``scenarios``: the friendly face (``Game``, ``new_game``, ``score``), a
  seat's view, positions from scenario files;
- ``knowledge``, ``greedy``, ``evaluation``: what a seat knows, the greedy player and position evaluation;
- ``position``: the game on the framework's game protocol (``HexGameState``) and its ``GameDefinition``;
- ``records``, ``replays``: this game's own record files and their replay in words;
- ``render``: the SVG picture of a position or a seat's view;
- ``action_space``: the fixed flat numbering of actions for reinforcement learning;
- ``web``: the game as ``samurai serve`` offers it.
"""
