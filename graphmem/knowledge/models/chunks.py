"""The knowledge pipeline: chunks of raw context, candidate claims, clarification questions,
context packs, audit issues and the run history of every pipeline call."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from graphmem.core.models import Audit, AuditText, Name, OutputModel, ShortText, StrictModel
from graphmem.screening.gate import Redaction
from graphmem.toolkit.answers import compact

ChunkState = Literal[
    "no_enrich", "enrichable", "uncertain", "awaiting_human", "frozen", "stale", "archived"
]
Scope = Literal["memory", "bridge", "mapping", "validation", "export"]
SENSITIVE_SCOPES: frozenset[str] = frozenset({"bridge", "mapping", "validation", "export"})
Predicate = Literal[
    "uses", "depends_on", "is", "requires", "produces", "validates", "contains", "replaces"
]
ClaimStatus = Literal["candidate", "promoted", "rejected"]
RunStatus = Literal["success", "skipped", "blocked"]

MAX_CHUNK_CHARS = 100_000
Body = Annotated[str, Field(min_length=1, max_length=MAX_CHUNK_CHARS)]


class AddContextChunkRequest(StrictModel):
    project: Name = Field(description="Project.")
    body: Body = Field(description="Raw text.")
    title: ShortText | None = Field(default=None, description="Title.")
    origin: AuditText | None = Field(default=None, description="File, URL or tool.")
    session_id: Audit = None
    workstream_id: Name | None = Field(default=None, description="Existing workstream.")
    actor: Audit = None
    client: Audit = None


class Chunk(OutputModel):
    id: str
    kind: Literal["chunk"] = "chunk"
    project: str
    title: str | None
    body: str
    origin: str | None
    session_id: str | None
    workstream_id: str | None
    source_hash: str = Field(description="sha256 of the body as stored.")
    state: ChunkState
    quarantined: bool = Field(
        description="Instruction-like content: kept, but excluded from packs and claims until "
        "released through govern_memory."
    )
    materiality: float | None
    uncertainty: float | None
    signals: list[str]
    created_at: datetime
    updated_at: datetime


class AddContextChunkResult(OutputModel):
    compact_answer = compact(
        "created",
        "redactions",
        "quarantine_reasons",
        "revision",
        id="chunk.id",
        state="chunk.state",
    )
    chunk: Chunk
    created: bool = Field(description="False when the same body was already in the project.")
    redactions: list[Redaction] = Field(
        description="Secrets replaced by [REDACTED:<kind>] before storing."
    )
    quarantine_reasons: list[str]
    revision: int | None = Field(description="Revision committed, null when nothing was written.")
