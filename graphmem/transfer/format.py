"""The export file: JSON Lines, one object a line.

    {"line": "header", "format": "graphmem-export", "format_version": 1, ...}
    {"line": "node", "ref": "...", "labels": ["Fact"], "properties": {...}}
    {"line": "event", "ref": "...", "labels": ["Event"], "properties": {...}}  (revision order)
    {"line": "relationship", "from_ref": "..", "to_ref": "..", "type": "..", "properties": {..}}
    {"line": "trailer", "nodes": N, "events": E, "relationships": R, "sha256": "..."}

Property values are JSON, typed ones tagged (store/portable.py). ``ref`` is the source's
element id, meaningful only inside the file. The trailer's sha256 covers every line before it
(bytes as written, newlines included): a file cut short or changed is refused before anything
is written.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

FORMAT = "graphmem-export"
FORMAT_VERSION = 1
MAX_LINE = 16 * 1024 * 1024  # bytes: far above any node graphmem writes (content is bounded)


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Head(_Line):
    revision: int | None
    hash: str | None
    key_id: str | None = None


class Header(_Line):
    line: Literal["header"] = "header"
    format: Literal["graphmem-export"] = FORMAT
    format_version: int = FORMAT_VERSION
    graphmem_version: str
    source_tenant_digest: str = Field(
        pattern=r"^[0-9a-f]{64}$", description="SHA-256 of the source tenant, not its name."
    )
    exported_at: datetime
    head: Head


class NodeLine(_Line):
    line: Literal["node", "event"]
    ref: str = Field(min_length=1)
    labels: list[Annotated[str, Field(pattern=r"^[A-Z][A-Za-z0-9]*$")]] = Field(min_length=1)
    properties: dict[str, Any]


class RelationshipLine(_Line):
    line: Literal["relationship"] = "relationship"
    from_ref: str = Field(min_length=1)
    to_ref: str = Field(min_length=1)
    type: str = Field(pattern=r"^[A-Z][A-Z0-9_]*$")
    properties: dict[str, Any]


class Trailer(_Line):
    line: Literal["trailer"] = "trailer"
    nodes: int = Field(ge=0)
    events: int = Field(ge=0)
    relationships: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


Body = Annotated[NodeLine | RelationshipLine, Field(discriminator="line")]
BODY = TypeAdapter(Body)
