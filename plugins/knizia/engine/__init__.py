"""Legal moves and turns of Knizia's game: the Python reference engine (``reference``) beside its Rust twin
(``native/``, built as ``_native``), the two behind one face (``backends``), the special tiles' behaviours
(``special_tiles``), the greedy player (``greedy``) and the estimate searches judge positions by (``evaluation``).
"""
