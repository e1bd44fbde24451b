"""Deterministic text rules of the knowledge pipeline (no model, no network).

Signal markers: four case-insensitive whole-word markers in a chunk's body, ranked
FREEZE_CONTEXT > NO_ENRICH > WAIT_HUMAN > ENRICH_OK; only the highest present acts.
"""

from __future__ import annotations

import re

from graphmem.models.knowledge import ChunkState

MARKERS = ("FREEZE_CONTEXT", "NO_ENRICH", "WAIT_HUMAN", "ENRICH_OK")  # highest rank first
_MARKER = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(MARKERS) + r")(?![A-Za-z0-9_])", re.I)


def markers(text: str) -> list[str]:
    """The markers present, highest rank first."""
    found = {match.upper() for match in _MARKER.findall(text)}
    return [marker for marker in MARKERS if marker in found]


def initial_state(text: str) -> ChunkState:
    """A new chunk: frozen with FREEZE_CONTEXT, enrichable with ENRICH_OK, else no_enrich
    (enrichment is opt-in; NO_ENRICH and WAIT_HUMAN act when the chunk is assessed)."""
    found = markers(text)
    if "FREEZE_CONTEXT" in found:
        return "frozen"
    if "ENRICH_OK" in found:
        return "enrichable"
    return "no_enrich"
