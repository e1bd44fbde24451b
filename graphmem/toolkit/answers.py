"""Compact answers: a write tells the agent what it needs next, not the whole record.

A write's ToolSpec names its compact answer: fields taken from the whole result, by name or
by a dotted path into it (``id="decision.id"``): ids, what changed, the revision, the signals
raised. The tool then takes one more argument, ``detail``: ``compact`` (the default) answers
with those fields and no ``record`` key; ``full`` adds ``record``, the whole result as before.
The answer model is derived from the result model, so a field keeps its type and the output
schema stays small (``record`` is an optional object whose shape docs/tools.md describes).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, cast, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, create_model

Detail = Literal["compact", "full"]
DETAIL_ARGUMENT = Annotated[
    Detail, Field(description="compact: the fields above; full adds record, the whole result.")
]


@dataclass(frozen=True)
class CompactAnswer:
    paths: tuple[tuple[str, str], ...]  # (answer field, dotted path into the whole result)

    def of(self, result: BaseModel, detail: Detail) -> BaseModel:
        model = answer_model(type(result), self)
        values = {name: _value_at(result, path) for name, path in self.paths}
        if detail == "full":
            values["record"] = result.model_dump(mode="json")
        return model(**values)


def compact(*names: str, **paths: str) -> CompactAnswer:
    """``compact("revision", id="decision.id")``: fields of the whole result, in order."""
    return CompactAnswer(tuple((name, name) for name in names) + tuple(paths.items()))


@functools.cache
def answer_model(result: type[BaseModel], answer: CompactAnswer) -> type[BaseModel]:
    fields: dict[str, tuple[object, object]] = {
        name: (_annotation_at(result, path), ...) for name, path in answer.paths
    }
    # Absent unless detail is full: not null, so a compact answer carries no empty key.
    fields["record"] = (dict[str, object], Field(default=None, exclude_if=_absent))
    return create_model(
        f"{result.__name__}Compact",
        __config__=ConfigDict(extra="forbid"),
        __doc__=f"The compact answer of {result.__name__}.",
        # pydantic types field definitions as Any (its signature mixes them with its options)
        **cast("Any", fields),
    )


def _absent(value: Any) -> bool:
    return value is None


def _annotation_at(model: type[BaseModel], path: str) -> Any:
    annotation: Any = model
    optional = False
    for part in path.split("."):
        inner = _model_of(annotation)
        if inner is None:
            raise TypeError(f"{model.__name__}: {path} does not lead through models")
        optional = optional or inner is not annotation
        annotation = inner.model_fields[part].annotation
    return annotation | None if optional else annotation


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model an annotation holds: itself, or the model of ``Model | None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) in (Union, type(int | None)):
        models = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(models) == 1:
            return _model_of(models[0])
    return None


def _value_at(result: BaseModel, path: str) -> Any:
    value: Any = result
    for part in path.split("."):
        if value is None:
            return None
        value = getattr(value, part)
    return value
