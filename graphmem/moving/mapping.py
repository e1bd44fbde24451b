"""What an mcp-neo4j-memory graph becomes in graphmem (docs/import-mcp-neo4j-memory.md): the
pure part, no database. Each peer row maps to ``save_memory`` requests (``Planned``) or is
refused with a reason (``Refused``), checked at graphmem's edge exactly as save_memory checks
a caller: the request model's bounds, the names ``about`` takes, the poisoning gate.

- an entity -> one memory naming it (title: its name; content: its name and its type), about
  [name]: the subjects pass makes its subject, so an entity without observations or relations
  still has one;
- each observation -> one memory (content: the observation as written), about [entity name];
- each relation (a)-[TYPE]->(b) -> one memory "a type b" (WORKS_AT read "works at"), about
  [a, b].

Every memory is a ``note`` of the given project, tagged ``mcp-neo4j-memory``, with a topic key
derived from the peer's content (``mcp-neo4j-memory/<item>/<digest>``): the same content maps
to the same key, so a second import finds it and writes nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal, cast

from pydantic import TypeAdapter, ValidationError

from graphmem.core.errors import InvalidArgument
from graphmem.memories.models.memories import MAX_CONTENT_CHARS, SaveMemoryRequest
from graphmem.memories.rules import preview, screen_memory
from graphmem.moving.rows import PeerEntityRow, PeerRelationRow
from graphmem.screening.gate import screen
from graphmem.subjects.models import SubjectName
from graphmem.subjects.names import MAX_NAME_CHARS

SOURCE = "mcp-neo4j-memory"
ACTOR = "graphmem import"  # who the history records as the writer
TITLE_CHARS = 200
ORIGIN_CHARS = 160

Item = Literal["entity", "observation", "relation"]

# The peer's free-form entity types that name one of the kinds graphmem's subjects use (the
# text reader's "person" and "organisation"); any other type is kept as written, in the text.
KINDS: dict[str, str] = {
    **dict.fromkeys(
        ("person", "people", "human", "user", "individual", "contact", "employee", "author"),
        "person",
    ),
    **dict.fromkeys(
        (
            "organisation",
            "organization",
            "company",
            "org",
            "business",
            "corporation",
            "institution",
            "agency",
            "team",
        ),
        "organisation",
    ),
}
UNMAPPED_KIND = "kept as written"
NO_TYPE = "no type"

_NAME = TypeAdapter[str](SubjectName)


@dataclass(frozen=True)
class Planned:
    item: Item
    origin: str  # the peer's item, whole: the report shows it through ``shown``
    request: SaveMemoryRequest
    quarantined: bool  # the gate finds instruction-like text: stored quarantined
    redacted: bool  # the gate replaces a secret

    @property
    def topic_key(self) -> str:
        assert self.request.topic_key is not None  # every planned request has one
        return self.request.topic_key


@dataclass(frozen=True)
class Refused:
    item: Item
    origin: str
    reason: str


Mapped = Planned | Refused


def topic_key(item: Item, *parts: str) -> str:
    """The key one peer item maps to: the same content, the same key."""
    digest = hashlib.sha256("\0".join((SOURCE, item, *parts)).encode()).hexdigest()[:32]
    return f"{SOURCE}/{item}/{digest}"


def kind_of(peer_type: object) -> str:
    """The subject kind a peer type names, ``kept as written`` or ``no type`` (for the report:
    ``about`` carries no kind, so the subject's kind is not set from it)."""
    if not isinstance(peer_type, str) or not peer_type.strip():
        return NO_TYPE
    return KINDS.get(peer_type.strip().casefold(), UNMAPPED_KIND)


def name_problem(name: object) -> str | None:
    """Why a peer name cannot be a graphmem subject's name (None: it can, trimmed)."""
    if not isinstance(name, str) or not name.strip():
        return "no name"
    try:
        _NAME.validate_python(name.strip())
    except ValidationError as error:
        if error.errors()[0]["type"] == "string_too_long":
            return f"a name over {MAX_NAME_CHARS} characters"
        return "a name with control characters or line breaks"
    return None


def shown(origin: str) -> str:
    """An item as the report names it: cut to 160 characters, and withheld when the poisoning
    gate finds a secret or an instruction in it (a report is printed, perhaps logged)."""
    screened = screen(origin)
    if screened.redactions or screened.quarantine_reasons:
        return f"{origin.split(' ', 1)[0]} (withheld: the poisoning gate flags its name)"
    return preview(origin, ORIGIN_CHARS)


def _words(peer_type: str) -> str:
    """WORKS_AT -> works at; worksAt stays as written (lower-cased)."""
    return " ".join(peer_type.replace("_", " ").split()).lower()


def _plan(item: Item, origin: str, key: str, fields: dict[str, str | list[str]]) -> Mapped:
    """A request as save_memory would take it, or why it would refuse it."""
    try:
        request = SaveMemoryRequest.model_validate(
            {"type": "note", "tags": [SOURCE], "topic_key": key, "actor": ACTOR, **fields}
        )
        screened = screen_memory(request)
    except InvalidArgument as error:  # a name the gate refuses (the report withholds it)
        return Refused(item, origin, f"refused by save_memory: {error.message}")
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        return Refused(item, origin, f"refused by save_memory: {where}: {first['msg']}")
    return Planned(
        item, origin, request, bool(screened.quarantine_reasons), bool(screened.redactions)
    )


def entity_items(row: PeerEntityRow, project: str) -> list[Mapped]:
    """An entity's memory and one per observation, or why each cannot map."""
    origin = f"entity {row['name']!r}"
    problem = name_problem(row["name"])
    observations = row["observations"]
    texts: list[object] = (
        list(cast("list[object]", observations)) if isinstance(observations, list) else []
    )
    if problem is not None:
        because = f"its entity has {problem}"
        return [
            Refused("entity", origin, problem),
            *(Refused("observation", origin, because) for _ in texts),
        ]
    name = row["name"].strip()
    peer_type = row["type"] if isinstance(row["type"], str) and row["type"].strip() else None
    content = f"{name}: an entity of {SOURCE}" + (f" of type {peer_type}" if peer_type else "")
    entity = _plan(
        "entity",
        origin,
        topic_key("entity", name, peer_type or ""),
        {"project": project, "title": name, "content": content, "about": [name]},
    )
    if isinstance(entity, Refused):  # the name itself is refused: so is all that names it
        return [entity, *(Refused("observation", origin, entity.reason) for _ in texts)]
    found: list[Mapped] = [entity]
    if not isinstance(observations, list):
        found.append(Refused("observation", origin, "observations that are not a list"))
    for text in texts:
        found.append(_observation(name, origin, text, project))
    return found


def _observation(name: str, origin: str, text: object, project: str) -> Mapped:
    if not isinstance(text, str):
        return Refused("observation", origin, "an observation that is not text")
    if not text.strip():
        return Refused("observation", origin, "an empty observation")
    if len(text) > MAX_CONTENT_CHARS:
        return Refused("observation", origin, f"an observation over {MAX_CONTENT_CHARS:,} chars")
    return _plan(
        "observation",
        origin,
        topic_key("observation", name, text),
        {
            "project": project,
            "title": preview(f"{name}: {' '.join(text.split())}", TITLE_CHARS),
            "content": text,
            "about": [name],
        },
    )


def relation_item(row: PeerRelationRow, project: str) -> Mapped:
    """A relation's memory, or why it cannot map."""
    source, target = row["source"], row["target"]
    origin = f"relation {source!r} {row['type']} {target!r}"
    if source is None or target is None:
        return Refused("relation", origin, "an end without a name")
    for end in (source, target):
        problem = name_problem(end)
        if problem is not None:
            return Refused("relation", origin, f"an end with {problem}")
    a, b = source.strip(), target.strip()
    sentence = f"{a} {_words(row['type']) or 'relates to'} {b}"
    return _plan(
        "relation",
        origin,
        topic_key("relation", a, row["type"], b),
        {
            "project": project,
            "title": preview(sentence, TITLE_CHARS),
            "content": sentence,
            "about": list(dict.fromkeys([a, b])),
        },
    )
