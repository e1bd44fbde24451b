"""The MCP tool catalogue, assembled from one list of specs per area."""

from graphmem.tools import (
    archive,
    audit,
    clarify,
    decisions,
    facts,
    history,
    impact,
    knowledge,
    memories,
    packs,
    pipeline,
    recall,
    timeline,
    workstreams,
)
from graphmem.tools.spec import Toolset, ToolSpec

CATALOGUE: list[ToolSpec] = [
    *facts.SPECS,
    *decisions.SPECS,
    *knowledge.SPECS,
    *impact.SPECS,
    *history.SPECS,
    *packs.SPECS,
    *pipeline.SPECS,
    *clarify.SPECS,
    *audit.SPECS,
    *workstreams.SPECS,
    *archive.SPECS,
    *memories.SPECS,
    *timeline.SPECS,
    *recall.SPECS,
]


def tools_for(toolset: Toolset) -> list[ToolSpec]:
    return [spec for spec in CATALOGUE if spec.in_toolset(toolset)]
