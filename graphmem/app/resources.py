"""The MCP resources: the graph model, the tenant's statistics, and templates for a fact key's
current state, a decision and a memory, read by URI from the caller's tenant. Another tenant's
id reads exactly like an unknown one (`not_found`)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

from fastmcp import FastMCP
from fastmcp.exceptions import ResourceError
from pydantic import BaseModel, ValidationError

from graphmem.app.boundary import tool_error
from graphmem.core.errors import GraphmemError
from graphmem.decisions.service import read_decision
from graphmem.facts.models import CurrentStateRequest
from graphmem.facts.state import current_state
from graphmem.memories.service import read_memory
from graphmem.store.graph_model import GRAPH_MODEL
from graphmem.store.stats import tenant_stats
from graphmem.toolkit.services import Services

STATIC_RESOURCES = frozenset({"graphmem://schema"})  # answered without the database


async def _json(read: Callable[[], Awaitable[BaseModel]]) -> str:
    try:
        return (await read()).model_dump_json()
    except (GraphmemError, ValidationError) as error:  # the payload a tool's error carries
        raise ResourceError(str(tool_error(error))) from error


def register_resources(server: FastMCP, services: Services) -> None:
    json_resource = functools.partial(server.resource, mime_type="application/json")

    @json_resource(
        "graphmem://schema",
        title="Graph model",
        description="Node labels, edge types and their properties, as stored in Neo4j.",
    )
    async def schema() -> str:
        return GRAPH_MODEL.model_dump_json()

    @json_resource(
        "graphmem://stats",
        title="Tenant statistics",
        description="Counts for the caller's tenant only: nodes per label and per project, "
        "facts per owner and status, key slots, and the history head (revision, hash, time).",
    )
    async def stats() -> str:
        return await _json(lambda: tenant_stats(services.store, services.tenant()))

    @json_resource(
        "graphmem://facts/{key}",
        title="What is current for a fact key",
        description="current_state for the key: the current fact per project (or ambiguous), "
        "its recent history, and the memory topic of the same key.",
    )
    async def fact_state(key: str) -> str:
        async def read() -> BaseModel:
            request = CurrentStateRequest(state_key=key)
            return await current_state(services.db(), request)

        return await _json(read)

    @json_resource(
        "graphmem://decisions/{decision_id}",
        title="A decision",
        description="A decision with its alternatives, reopen rules and each rule's verdict "
        "now (fact writes and maintain keep the review signals).",
    )
    async def decision(decision_id: str) -> str:
        return await _json(lambda: read_decision(services.db(), decision_id))

    @json_resource(
        "graphmem://memories/{memory_id}",
        title="A memory",
        description="One memory version (get_observations also counts the access).",
    )
    async def memory(memory_id: str) -> str:
        return await _json(lambda: read_memory(services.db(), memory_id))
