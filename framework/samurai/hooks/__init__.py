"""Hooks: the hook specifications (``specs``, importing only pluggy), the checked calls of a hook and the report
that names the plugin, the hook and the value when one fails or answers wrongly (``calls``), and the engine's
own default answers (``defaults``).
"""
