"""Runs: the executors that play batches (``executors``, ``workerpool``), the runner of games over the protocol
(``matches``), ``compare`` with its statistics (``statistics``), printed report (``report``) and plots (``plot``),
ratings and ``tournament``, and the save folders of a run (``folders``).
"""
