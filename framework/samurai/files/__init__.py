"""Files: every read of a data file through one guarded reader (``reading``: TOML and JSON, regular files only,
bounded in size and depth, no repeated keys), every write through one atomic writer (``writing``), and the SVG
builder the board pictures share (``svg``).
"""
