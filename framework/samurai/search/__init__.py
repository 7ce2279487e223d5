"""Search: information-set MCTS over the game protocol (``mcts``) and the bots by name and level (``bots``).
"""
