"""The Neo4j Browser style sheet (GraSS) for every label graphmem writes.

One declaration per label: its area (the colour), whether it is bookkeeping (muted and small)
and its caption. GraSS substitutes properties only (``{key}``); the Browser fits a caption
into its node and cuts it with an ellipsis, so a long value or turn shows its first words.
A test checks the declarations against the graph model (every label styled, no caption that
is only an id or the tenant).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Area:
    name: str
    color: str
    border: str
    text: str


FACTS = Area("facts", "#4C8EDA", "#2870C2", "#FFFFFF")
DECISIONS = Area("decisions", "#F79767", "#F36924", "#FFFFFF")
KNOWLEDGE = Area("knowledge pipeline", "#8DCC93", "#5DB665", "#2A2C34")
MEMORY = Area("memory and archive", "#FFC454", "#D7A013", "#2A2C34")
IMPACT = Area("impact", "#C990C0", "#B261A5", "#FFFFFF")
SUBJECTS = Area("subjects", "#57C7E3", "#23B3D7", "#2A2C34")
BOOKKEEPING = Area("bookkeeping", "#E4E4E4", "#C4C4C4", "#6B6B6B")


@dataclass(frozen=True)
class LabelStyle:
    area: Area
    caption: str

    @property
    def bookkeeping(self) -> bool:
        return self.area is BOOKKEEPING

    def properties(self) -> set[str]:
        """The node properties the caption shows."""
        return set(re.findall(r"\{(\w+)\}", self.caption))


LABELS: dict[str, LabelStyle] = {
    "FactKey": LabelStyle(FACTS, "{key}"),
    "Fact": LabelStyle(FACTS, "{key} = {value_canon}"),
    "Decision": LabelStyle(DECISIONS, "{title}"),
    "Alternative": LabelStyle(DECISIONS, "{title}"),
    "ReviewSignal": LabelStyle(DECISIONS, "review {status}"),
    "Attempt": LabelStyle(DECISIONS, "{title}"),
    "Outcome": LabelStyle(DECISIONS, "{result}: {summary}"),
    "Workstream": LabelStyle(DECISIONS, "{title}"),
    "ImpactTarget": LabelStyle(IMPACT, "{kind} {ref}"),
    "Chunk": LabelStyle(KNOWLEDGE, "{title} ({state})"),
    "Claim": LabelStyle(KNOWLEDGE, "{subject} {predicate} {object}"),
    "Question": LabelStyle(KNOWLEDGE, "{text}"),
    "Answer": LabelStyle(KNOWLEDGE, "{text}"),
    "Pack": LabelStyle(KNOWLEDGE, "{pack_type} pack, {items_included} items"),
    "Issue": LabelStyle(KNOWLEDGE, "{issue_type} ({severity})"),
    "Memory": LabelStyle(MEMORY, "{title}"),
    "Session": LabelStyle(MEMORY, "{session_ref}"),
    "Turn": LabelStyle(MEMORY, "{role}: {content}"),
    "Commit": LabelStyle(MEMORY, "{message}"),
    "Subject": LabelStyle(SUBJECTS, "{name}"),
    "Alias": LabelStyle(SUBJECTS, "{written}"),
    "SubjectQuestion": LabelStyle(SUBJECTS, "same? {evidence}"),
    "Mention": LabelStyle(SUBJECTS, "{written}"),
    "SubjectKey": LabelStyle(BOOKKEEPING, "{key}"),
    "SubjectLedger": LabelStyle(BOOKKEEPING, "subjects ledger"),
    "FactState": LabelStyle(BOOKKEEPING, "{status}"),
    "Annotation": LabelStyle(BOOKKEEPING, "{kind}: {marker}"),
    "Run": LabelStyle(BOOKKEEPING, "{tool} {status}"),
    "AuditState": LabelStyle(BOOKKEEPING, "audit cursors"),
    "IdempotencyRecord": LabelStyle(BOOKKEEPING, "{scope}"),
    "History": LabelStyle(BOOKKEEPING, "head r{revision}"),
    "Event": LabelStyle(BOOKKEEPING, "{op} r{revision}"),
    "EventSubject": LabelStyle(BOOKKEEPING, "{subject_id} r{revision}"),
    "Erased": LabelStyle(BOOKKEEPING, "erased {erased_kind}"),
}

# Relationships show their type, except where a property says more.
RELATIONSHIP_CAPTIONS = {
    "IMPACTS": "{type} {score}",
    "EVIDENCED_BY": "{type} {weight}",
    "MERGED_INTO": "merged r{revision}",
}

NODE_DIAMETER = "55px"
BOOKKEEPING_DIAMETER = "25px"


def grass() -> str:
    """The whole style sheet, as Neo4j Browser's ``:style`` reads it."""
    parts = [
        _rule("node", diameter=NODE_DIAMETER, **{"font-size": "10px"}),
        _rule("relationship", **{"shaft-width": "1px", "font-size": "8px", "caption": "'<type>'"}),
    ]
    for label, style in LABELS.items():
        parts.append(_node_rule(label, style))
    for type_, caption in RELATIONSHIP_CAPTIONS.items():
        parts.append(_rule(f"relationship.{type_}", caption=f"'{caption}'"))
    return "\n".join(parts) + "\n"


def _node_rule(label: str, style: LabelStyle) -> str:
    area = style.area
    return _rule(
        f"node.{label}",
        diameter=BOOKKEEPING_DIAMETER if style.bookkeeping else NODE_DIAMETER,
        color=area.color,
        caption=f"'{style.caption}'",
        **{"border-color": area.border, "text-color-internal": area.text},
    )


def _rule(selector: str, **declarations: str) -> str:
    body = "".join(f"  {name}: {value};\n" for name, value in declarations.items())
    return f"{selector} {{\n{body}}}"
