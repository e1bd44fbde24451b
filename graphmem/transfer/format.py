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
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Literal, TypeGuard, cast

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from graphmem.transfer.rows import PropertyPair

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
    properties: dict[str, object]  # a property value, or a typed value ({"$tag": text})


class RelationshipLine(_Line):
    line: Literal["relationship"] = "relationship"
    from_ref: str = Field(min_length=1)
    to_ref: str = Field(min_length=1)
    type: str = Field(pattern=r"^[A-Z][A-Z0-9_]*$")
    properties: dict[str, object]  # a property value, or a typed value ({"$tag": text})


class Trailer(_Line):
    line: Literal["trailer"] = "trailer"
    nodes: int = Field(ge=0)
    events: int = Field(ge=0)
    relationships: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


Body = Annotated[NodeLine | RelationshipLine, Field(discriminator="line")]
BODY = TypeAdapter(Body)


@dataclass(frozen=True)
class Chained:
    """What an event's place in its chain is read from: its properties of those names."""

    revision: int
    op: str
    at_text: str
    hash: str
    payload_json: str | None  # None once erased
    payload_digest: str | None  # sealed events

    @classmethod
    def of(cls, event: Mapping[str, object]) -> Chained:
        """Raises ValueError when one is missing or of another type."""
        revision, op, at_text = event.get("revision"), event.get("op"), event.get("at_text")
        hash_, payload_json = event.get("hash"), event.get("payload_json")
        payload_digest = event.get("payload_digest")
        if not isinstance(revision, int):
            raise ValueError(f"event revision {revision} is not a number")
        if not (isinstance(op, str) and isinstance(at_text, str) and isinstance(hash_, str)):
            raise ValueError(f"event {revision}: its op, at_text and hash are not all text")
        if not (_text_or_none(payload_json) and _text_or_none(payload_digest)):
            raise ValueError(f"event {revision}: its payload_json or payload_digest is not text")
        return cls(revision, op, at_text, hash_, payload_json, payload_digest)


def _text_or_none(value: object) -> TypeGuard[str | None]:
    return value is None or isinstance(value, str)


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


def properties_of(pairs: list[PropertyPair]) -> dict[str, object]:
    """A statement's [name, value] / [name, text, Cypher type] pairs as the file's properties."""
    properties: dict[str, object] = {}
    for pair in pairs:
        match pair:
            case [str() as name, value]:
                properties[name] = _packed(value)
            case [str() as name, text, str() as cypher_type]:
                kind = _KINDS[cypher_type.removeprefix("LIST<").split(" NOT NULL")[0].rstrip(">")]
                properties[name] = {f"${kind}": text}
            case _:
                raise ValueError(f"not a property pair: {pair!r}")
    return properties


def split_properties(properties: dict[str, object]) -> tuple[dict[str, object], list[list[object]]]:
    """The file's properties as plain values and [name, kind, text] temporal ones (for the
    import's statements); raises ValueError on a malformed typed value."""
    plain: dict[str, object] = {}
    temporal: list[list[object]] = []
    for name, value in properties.items():
        if not isinstance(value, dict):
            plain[name] = value
            continue
        # a typed value: {"$tag": text} (JSON's keys are text; isinstance cannot say so)
        typed = cast("dict[str, object]", value)
        if len(typed) != 1:
            raise ValueError(f"{name}: a typed value has exactly one tag")
        [(tag, text)] = typed.items()
        if tag == "$f64":
            plain[name] = _floats(name, text)
        elif tag in _TAGS:
            _check_temporal(name, text)
            temporal.append([name, _TAGS[tag] + ("[]" if isinstance(text, list) else ""), text])
        else:
            raise ValueError(f"{name}: unknown typed value {tag}")
    return plain, temporal


def _packed(value: object) -> object:
    if not isinstance(value, list):
        return value
    items = cast("list[object]", value)
    if all(type(item) is float for item in items) and len(items) >= MIN_PACKED:
        return {"$f64": base64.b64encode(struct.pack(f"<{len(items)}d", *items)).decode()}
    return items


def _floats(name: str, text: object) -> list[float]:
    if not isinstance(text, str):
        raise ValueError(f"{name}: $f64 needs a string")
    packed = base64.b64decode(text, validate=True)
    if len(packed) % 8:
        raise ValueError(f"{name}: $f64 is not a whole number of float64 values")
    return list(struct.unpack(f"<{len(packed) // 8}d", packed))


def _check_temporal(name: str, text: object) -> None:
    texts: list[object] = cast("list[object]", text) if isinstance(text, list) else [text]
    if not all(isinstance(item, str) and _TEMPORAL_TEXT.match(item) for item in texts):
        raise ValueError(f"{name}: not a temporal value")
