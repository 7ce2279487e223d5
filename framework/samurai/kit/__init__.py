"""The conformance kit: the checks every game and edition must pass (``conformance``) and the pytest plugin that runs
them (``pytest_plugin``, ``pytest --samurai-edition ID_OR_MANIFEST``).
"""
