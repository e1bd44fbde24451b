"""The MCP tool catalogue, assembled from one list of specs per area."""

from graphmem.archive import tools as archive
from graphmem.commits import tools as commits
from graphmem.decisions import tools as decisions
from graphmem.erasure import tools as erasure
from graphmem.facts import tools as facts
from graphmem.history import tools as history
from graphmem.impact import tools as impact
from graphmem.knowledge.tools import audit, clarify, packs, pipeline
from graphmem.knowledge.tools import chunks as knowledge
from graphmem.memories.tools import memories
from graphmem.recall.tools import recall, timeline
from graphmem.search import tools as search
from graphmem.subjects import tools as subjects
from graphmem.toolkit.toolspec import Toolset, ToolSpec
from graphmem.workstreams import tools as workstreams

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
    *commits.SPECS,
    *archive.SPECS,
    *memories.SPECS,
    *search.SPECS,
    *subjects.SPECS,
    *timeline.SPECS,
    *recall.SPECS,
    *erasure.SPECS,
]


def tools_for(toolset: Toolset) -> list[ToolSpec]:
    return [spec for spec in CATALOGUE if spec.in_toolset(toolset)]
