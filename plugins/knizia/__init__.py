"""Reiner Knizia's Samurai, the hex tile-placement game (docs/rules/samurai.md), as a game package of the framework.

A peer of Daimyo and Shinobi: ``plugins/knizia/`` is ``samurai_plugins.knizia`` as ``plugins/daimyo/`` is
``samurai_plugins.daimyo``, each registered through the ``samurai`` entry points by its ``plugin`` module, and the
framework in ``framework/`` names no game. Its editions (``editions/original.toml``, ``editions/ffg2015.toml``) are
plugins of this game (``samurai_plugins.original``, ``samurai_plugins.ffg2015``).

The package is built in floors; a floor imports only the floors below it (pyproject's import-linter contract):

- ``core``: the game's nouns, deciding nothing.
  ``hexgrid`` (coordinates, neighbours, map pictures), ``tiles`` (castes and tile kinds), ``maps`` (hex maps cut
  into board pieces), ``state`` (the fast position: flat lists of small ints), ``actions`` (the friendly actions),
  ``result`` (who won and why), ``facts`` (what a finished game shows), ``identity`` (the game's one name).
- ``editions``: what an edition decides, and the one import line for edition authors (its ``__all__``).
  ``hookspecs`` (the game's hooks), ``defaults`` (the game's own answers), ``hook_results`` (what each hook must
  return), ``manifest_keys`` (the keys a manifest of this game adds), ``setup`` (the set-up procedures and what a
  figure placement must leave possible), ``native_scoring`` (scorings the native engine decides itself), ``rules``
  (an edition compiled into ``Rules``).
- ``engine``: legal moves and turns. ``reference`` (the Python reference engine), ``consistency`` (what a
  position handed to an engine must satisfy, in the native engine's words), ``edition`` (the framework's
  ``Edition`` with the map and the rules, its starting position checked), ``special_tiles`` (the behaviours of
  Move and Switch: each tile's rules and faces, its one home), ``backends`` (the Python engine and the native one,
  the Rust crate in ``engine/native/`` built as ``engine._native``, behind one face, chosen by ``SAMURAI_ENGINE``),
  ``greedy`` (the greedy player), ``evaluation`` (the estimate searches judge a position by).
- ``play``: the friendly face. ``game`` (``new_game``, ``Game``, ``score``), ``views`` (what a seat may know, as
  JSON), ``knowledge`` (a seat's knowledge for bots), ``scenarios`` (positions from files), ``record_files`` (this
  game's record files), ``replays`` (a record told in words), ``render`` (the SVG picture).
- ``adapters``: the game on each layer of the framework. ``game_state`` (the game protocol), ``search_bots``
  (the bots by name), ``runner`` (the runner's accelerator), ``measures`` (what ``compare`` measures), ``records``
  (records as the framework reads them), ``play_bots`` (built-in bots playing a ``Game``), ``conformance`` (the
  kit's checks), ``commands`` (what only a game can do for the command line), ``bench`` (speed), ``web`` (the web
  face), ``encoding``, ``action_space`` and ``pettingzoo`` (the game as numbers for learning libraries),
  ``features`` (a position's whole-number features per seat for a value model, ``samurai.learn``).
- ``plugin``: the game's definition (``GAME``) and its hooks, registered through the ``samurai`` entry points.

The module names from before this layout (under ``samurai.knizia``: its ``game``, ``engine``, ...) still import,
with a ``DeprecationWarning``, for one release (CHANGELOG "Moved").
"""
