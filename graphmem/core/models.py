"""Shared model bases and bounded field types."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, TypedDict, TypeVar, get_origin

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
)

MAX_JSON_BYTES = 64 * 1024
MAX_JSON_DEPTH = 32


class StrictModel(BaseModel):
    """Inputs: unknown fields are refused, values are not coerced across types."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# A batched call's position, as the previous call answered it (graphmem/store/continuations.py).
Continuation = Annotated[
    str,
    Field(
        max_length=1024,
        description="The continuation the previous call returned; omit to start over.",
    ),
]


class OutputModel(BaseModel):
    """A result. A write's result may name its compact answer as a class attribute:
    ``compact_answer = compact("revision", id="decision.id")`` (see toolkit/answers.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    # Declared here so a result's own assignment is a class attribute, not a field; its type is
    # the toolkit's (a kernel model knows nothing of tools).
    compact_answer: ClassVar[object] = None


Out = TypeVar("Out", bound=OutputModel)


def pick(source: object, names: str) -> dict[str, object]:
    """The named attributes of ``source`` (names space-separated) as keyword arguments: for
    passing a request's fields on to a statement or a result without listing each twice."""
    return {name: getattr(source, name) for name in names.split()}


def from_node(model: type[Out], node: Mapping[str, object], **given: object) -> Out:
    """An output model from a node's properties: each field reads the property of its name.
    Neo4j stores no nulls, so an absent property takes the field's default, else None, or []
    for a list. ``given`` supplies what differs (renamed, decoded or derived fields)."""
    values: dict[str, object] = dict(given)
    for name, field in model.model_fields.items():
        if name in values:
            continue
        value = node.get(name)
        if value is not None:
            values[name] = value
        elif field.is_required():
            values[name] = [] if get_origin(field.annotation) is list else None
    return model(**values)


def _depth(value: JsonValue, level: int = 0) -> int:
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def canonical_json(value: Any) -> str:
    """Lossless, deterministic JSON: sorted keys, no NaN/Infinity, unicode kept."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def _bounded_json(value: JsonValue) -> JsonValue:
    if _depth(value) > MAX_JSON_DEPTH:
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        size = len(canonical_json(value).encode())
    except ValueError as error:  # NaN or Infinity
        raise ValueError("numbers must be finite") from error
    if size > MAX_JSON_BYTES:
        raise ValueError(f"larger than {MAX_JSON_BYTES} bytes as JSON")
    return value


BoundedJson = Annotated[JsonValue, AfterValidator(_bounded_json)]
TRIMMED_PATTERN = r"^\S(.*\S)?$"  # no leading or trailing whitespace
Name = Annotated[str, Field(min_length=1, max_length=200, pattern=TRIMMED_PATTERN)]
AuditText = Annotated[str, Field(min_length=1, max_length=200)]
ShortText = Annotated[str, Field(min_length=1, max_length=500)]  # a title, blocker or reference


# Argument types several tools share, declared once with their client-facing text.
Audit = Annotated[AuditText | None, Field(description="Audit label; grants nothing.")]


class AuditedRequest(StrictModel):
    """A write's request: who asks, as the caller says (recorded with its history event)."""

    session_id: Audit = None
    actor: Audit = None
    client: Audit = None

    def fingerprint(self) -> dict[str, object]:
        """What a retry must repeat to be the same logical write: the arguments, without the
        idempotency key and the audit fields."""
        return self.model_dump(
            mode="json", exclude={"idempotency_key", "session_id", "actor", "client"}
        )


def _blank_to_none(value: Any) -> Any:
    return None if value == "" else value


# The seed's rule for some optional arguments: an empty string behaves as absent. (An
# AfterValidator: a before-validator would make strict JSON validation of the inner type
# fail for values that are not JSON-native, such as instants.)
BlankAsNone = AfterValidator(_blank_to_none)


def _name_or_none(value: str | None) -> str | None:
    return None if value is None or value == "" else _NAME.validate_python(value)


_NAME: TypeAdapter[str] = TypeAdapter(Name)
# An optional id that may arrive empty: bounded like a Name, empty is absent, else a Name.
BlankableName = Annotated[str | None, Field(max_length=200), AfterValidator(_name_or_none)]
# An optional instant that may arrive empty (read "" as absent: `effective_at or now`).
BlankableInstant = Annotated[AwareDatetime | Literal[""] | None, BlankAsNone]


T = TypeVar("T")


class Paging(TypedDict):
    """The paging fields every paged result carries."""

    count: int
    limit: int
    offset: int
    has_more: bool
    next_offset: int | None


def paged(rows: list[T], limit: int, offset: int) -> tuple[list[T], Paging]:
    """A page of rows read with ``limit + 1`` (the extra row says there is more), and the
    paging fields every paged result carries."""
    page = rows[:limit]
    more = len(rows) > limit
    return page, {
        "count": len(page),
        "limit": limit,
        "offset": offset,
        "has_more": more,
        "next_offset": offset + len(page) if more else None,
    }


def owner_of(project: str | None, origin_id: str | None) -> str:
    """The namespace a fact key lives in: its project, else its capture origin alone."""
    return f"project:{project}" if project is not None else f"origin:{origin_id}"
