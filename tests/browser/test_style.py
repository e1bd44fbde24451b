"""The Browser style sheet covers the graph model: every label styled, captions that explain."""

from __future__ import annotations

import re

import pytest

from graphmem.browser.style import BOOKKEEPING, LABELS, RELATIONSHIP_CAPTIONS, grass
from graphmem.store.graph_model import GRAPH_MODEL

pytestmark = pytest.mark.pure

NODE_PROPERTIES = {node.label: set(node.properties) for node in GRAPH_MODEL.nodes}
BOOKKEEPING_LABELS = {
    "FactState",
    "IdempotencyRecord",
    "History",
    "Event",
    "EventSubject",
    "AuditState",
    "Run",
}


def test_every_label_of_the_graph_model_has_a_style_and_no_other() -> None:
    assert set(LABELS) == set(NODE_PROPERTIES)


def test_captions_show_properties_the_label_has_and_never_only_an_id_or_the_tenant() -> None:
    for label, style in LABELS.items():
        shown = style.properties()
        assert shown <= NODE_PROPERTIES[label], (label, shown - NODE_PROPERTIES[label])
        assert not shown or shown - {"id", "tenant"}, (label, style.caption)
        assert "{tenant}" not in style.caption and "{id}" not in style.caption, label


def test_bookkeeping_is_muted_and_knowledge_is_not() -> None:
    muted = {label for label, style in LABELS.items() if style.area is BOOKKEEPING}
    assert muted >= BOOKKEEPING_LABELS
    assert {"Fact", "Decision", "Memory", "Claim", "Turn", "Session"}.isdisjoint(muted)


def test_relationship_captions_name_properties_the_relationship_has() -> None:
    edges: dict[str, set[str]] = {}
    for edge in GRAPH_MODEL.edges:
        edges.setdefault(edge.type, set()).update(edge.properties)
    for type_, caption in RELATIONSHIP_CAPTIONS.items():
        shown = set(re.findall(r"\{(\w+)\}", caption))
        assert shown and shown <= edges[type_], (type_, shown)
    assert "score" in RELATIONSHIP_CAPTIONS["IMPACTS"]


def test_the_sheet_has_one_rule_per_label_with_its_caption() -> None:
    sheet = grass()
    rules = dict(re.findall(r"^(node\.\w+|relationship\.\w+) \{\n(.*?)^\}", sheet, re.M | re.S))
    for label, style in LABELS.items():
        body = rules[f"node.{label}"]
        assert f"caption: '{style.caption}';" in body
        assert f"color: {style.area.color};" in body
    for type_ in RELATIONSHIP_CAPTIONS:
        assert f"relationship.{type_}" in rules
