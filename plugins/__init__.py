"""Edition plugins shipped with the Samurai engine, one module per edition.

Each is registered under the ``samurai`` entry-point group in pyproject.toml
and named by its edition manifest in ``editions/``.
"""
