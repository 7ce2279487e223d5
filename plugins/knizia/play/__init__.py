"""The friendly face of Knizia's game: ``Game`` and ``new_game``, views, knowledge, scenarios, record files,
replays in words, pictures and ``play_bots``."""
