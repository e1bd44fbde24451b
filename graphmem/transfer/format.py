"""The export file: JSON Lines, one object a line.

    {"line": "header", "format": "graphmem-export", "format_version": 1, ...}
    {"line": "node", "ref": "...", "labels": ["Fact"], "properties": {...}}
    {"line": "event", "ref": "...", "labels": ["Event"], "properties": {...}}  (revision order)
    {"line": "relationship", "from_ref": "..", "to_ref": "..", "type": "..", "properties": {..}}
    {"line": "trailer", "nodes": N, "events": E, "relationships": R, "sha256": "..."}

Property values are JSON; a JSON object is a typed value (Neo4j property values are never
maps): {"$datetime": text} and likewise $localdatetime, $date, $duration, $time, $localtime,
in Cypher's own text form (a list of them: a list of texts), and {"$f64": base64} for a list
of floats (embeddings: little-endian float64, exact and a third of the text's size).
``ref`` is the source's element id, meaningful only inside the file. The trailer's sha256
covers every line before it (bytes as written, newlines included): a file cut short or
changed is refused before anything is written.
"""

from __future__ import annotations

import base64
import re
import struct
from datetime import datetime
from typing import Annotated, Any, Literal, cast

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
    project: str | None = Field(
        default=None, description="Set when one project was exported: no history then."
    )


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


# --- property values -------------------------------------------------------------------------
_KINDS = {
    "ZONED DATETIME": "datetime",
    "LOCAL DATETIME": "localdatetime",
    "DATE": "date",
    "DURATION": "duration",
    "ZONED TIME": "time",
    "LOCAL TIME": "localtime",
}
_TAGS = {f"${kind}": kind for kind in _KINDS.values()}
_TEMPORAL_TEXT = re.compile(r"^[0-9PTYMWDHS:+\-.Z\[\]/_A-Za-z]{1,64}$")


MIN_PACKED = 8  # float lists at least this long (embeddings) are packed as $f64


def properties_of(pairs: list[list[Any]]) -> dict[str, Any]:
    """A statement's [name, value] / [name, text, Cypher type] pairs as the file's properties."""
    properties: dict[str, Any] = {}
    for pair in pairs:
        if len(pair) == 2:
            properties[pair[0]] = _packed(pair[1])
            continue
        name, text, cypher_type = pair
        kind = _KINDS[cypher_type.removeprefix("LIST<").split(" NOT NULL")[0].rstrip(">")]
        properties[name] = {f"${kind}": text}
    return properties


def split_properties(properties: dict[str, Any]) -> tuple[dict[str, Any], list[list[Any]]]:
    """The file's properties as plain values and [name, kind, text] temporal ones (for the
    import's statements); raises ValueError on a malformed typed value."""
    plain: dict[str, Any] = {}
    temporal: list[list[Any]] = []
    for name, value in properties.items():
        if not isinstance(value, dict):
            plain[name] = value
            continue
        typed = cast("dict[str, Any]", value)  # a typed value: {"$tag": text}
        if len(typed) != 1:
            raise ValueError(f"{name}: a typed value has exactly one tag")
        [(tag, text)] = typed.items()
        if tag == "$f64":
            plain[name] = _floats(name, text)
        elif tag in _TAGS:
            temporal.append([name, _TAGS[tag] + ("[]" if isinstance(text, list) else ""), text])
            _check_temporal(name, text)
        else:
            raise ValueError(f"{name}: unknown typed value {tag}")
    return plain, temporal


def _packed(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    items = cast("list[object]", value)
    if all(type(item) is float for item in items) and len(items) >= MIN_PACKED:
        return {"$f64": base64.b64encode(struct.pack(f"<{len(items)}d", *items)).decode()}
    return items


def _floats(name: str, text: Any) -> list[float]:
    if not isinstance(text, str):
        raise ValueError(f"{name}: $f64 needs a string")
    packed = base64.b64decode(text, validate=True)
    if len(packed) % 8:
        raise ValueError(f"{name}: $f64 is not a whole number of float64 values")
    return list(struct.unpack(f"<{len(packed) // 8}d", packed))


def _check_temporal(name: str, text: Any) -> None:
    texts: list[object] = cast("list[object]", text) if isinstance(text, list) else [text]
    if not all(isinstance(item, str) and _TEMPORAL_TEXT.match(item) for item in texts):
        raise ValueError(f"{name}: not a temporal value")
