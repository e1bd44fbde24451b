"""Query rows to models: the archive area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

from typing import Any

from graphmem.archive.models import RawSession
from graphmem.core.models import from_node


def session_from_node(node: dict[str, Any]) -> RawSession:
    return from_node(RawSession, node)
