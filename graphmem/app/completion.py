"""Argument completion (MCP `completion/complete`) for the prompts' and resource templates'
arguments: project, state_key (also a template's `key`) and topic_key, from the caller's tenant
only, for a bounded prefix, at most MAX_VALUES values. Anything else completes to nothing."""

from __future__ import annotations

import mcp_types

from graphmem.app.rows import ValueRow
from graphmem.app.tools import current_services
from graphmem.core.errors import GraphmemError
from graphmem.store import shaped

MAX_PREFIX = 200  # as long as a Name: a longer prefix cannot match anything
MAX_VALUES = 50

# argument name -> the statement that lists its values
_SOURCES = {
    "project": "store/list_project_names",
    "state_key": "facts/list_state_keys",
    "key": "facts/list_state_keys",
    "topic_key": "memories/list_topic_keys",
}


async def complete(
    reference: mcp_types.PromptReference | mcp_types.ResourceTemplateReference,
    argument: mcp_types.CompletionArgument,
    context: mcp_types.CompletionContext | None,
) -> mcp_types.Completion:
    source = _SOURCES.get(argument.name)
    if source is None or len(argument.value) > MAX_PREFIX:
        return mcp_types.Completion(values=[])
    services = current_services()
    given = (context.arguments if context else None) or {}
    project = given.get("project") if argument.name != "project" else None
    try:
        store = await services.gate.wait(services.settings.start_wait)
        rows = await store.read(
            source, services.tenant(), prefix=argument.value, project=project, limit=MAX_VALUES + 1
        )
    except GraphmemError:  # starting, or the database is away: nothing to offer yet
        return mcp_types.Completion(values=[])
    values = [row["value"] for row in shaped(ValueRow, rows)]
    more = len(values) > MAX_VALUES
    return mcp_types.Completion(values=values[:MAX_VALUES], has_more=more)
