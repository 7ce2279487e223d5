"""A deliberately unfair scoring for the tests of ``samurai balance``: seat 0 counts one more figure of every
caste than it captured, then FFG 2015's Leader tokens decide
(docs/rules/samurai.md#ffg2015-scoring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from samurai.catalog.manifests import EditionManifest
from samurai.hooks.specs import hookimpl
from samurai_plugins.ffg2015 import score_leader_tokens
from samurai_plugins.knizia.core.result import Result


@hookimpl(tryfirst=True)
def samurai_score(edition: EditionManifest, captured: Mapping[int, Mapping[str, int]],
                  options: Mapping[str, Any]) -> Result:
    """FFG 2015's scoring with a figure of each caste added to seat 0's captures."""
    head_start = {seat: dict(held) for seat, held in captured.items()}
    for caste in ("buddha", "rice", "castle"):
        head_start[0][caste] = head_start[0].get(caste, 0) + 1
    return score_leader_tokens(head_start)
