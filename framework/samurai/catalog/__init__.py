"""The catalog: edition manifests (``manifests``), the plugins and the loaded editions with their plugin managers
(``editions``), the games a manifest may name (``games``), which manifests a data file may name (``trust``), and
the one cache of loaded editions of a process (``cache``).
"""
