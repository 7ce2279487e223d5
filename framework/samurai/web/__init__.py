"""The web layer: ``samurai serve``, a local page to play against bots and replay games, and its JSON API.

It needs the ``web`` extra (Starlette, uvicorn, sse-starlette). The layer
speaks the game protocol (``samurai.protocol``) plus a ``GameDefinition`` per
game (``samurai.web.games``); Samurai's is ``samurai_plugins.knizia.adapters.web``.
"""
