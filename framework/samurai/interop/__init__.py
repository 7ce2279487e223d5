"""Any game behind the protocol as an environment of a learning library (optional extras ``rl`` and ``openspiel``).

A game takes part by supplying an *encoding* through its definition (``GameDefinition.faces.interop``): a fixed
numbering of its actions and a seat's observation as a tensor, built from that seat's view only
(``samurai.interop.encoding.GameEncoding``, after OpenSpiel's ``Game`` and observer API). The environments run on
the game protocol (``GameState.apply``, ``legal_actions``, ``view``, ``returns``, ``determinize``):

- ``samurai.interop.pettingzoo``: ``GameEnv``, a PettingZoo AEC environment (needs ``pettingzoo``, ``gymnasium``,
  ``numpy``);
- ``samurai.interop.openspiel``: the games as OpenSpiel Python games, registered under each game's name
  (``pyspiel.load_game("knizia", ...)``, ``"daimyo"``; needs ``open_spiel``).

Nothing is imported here, so that ``import samurai.interop.encoding`` needs no optional library.
"""
