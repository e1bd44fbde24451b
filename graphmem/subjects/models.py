"""What crosses the subjects area's boundary: the names a writer gives (``about``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from graphmem.subjects.names import MAX_NAME_CHARS

MAX_ABOUT = 16  # names one write may give


def _printable(name: str) -> str:
    if any(not ch.isprintable() for ch in name):
        raise ValueError("a name holds no control characters or line breaks")
    return name


SubjectName = Annotated[
    str,
    Field(min_length=1, max_length=MAX_NAME_CHARS, pattern=r"^\S(.*\S)?$"),
    AfterValidator(_printable),
]
ABOUT_DESCRIPTION = "Names of who or what it is about (people, organisations, places, projects)."
