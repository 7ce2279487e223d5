"""Knizia's game on each layer of the framework: the game protocol, bots, runs, measures, records, the conformance
kit, the command line, the web page and learning libraries."""
