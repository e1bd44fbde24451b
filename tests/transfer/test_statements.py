"""The export reads every label of the graph model, each by a tenant seek: its statements are
generated from the model and must be regenerated when a label is added."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from graphmem.store.graph_model import GRAPH_MODEL

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]


def _generator() -> ModuleType:
    path = ROOT / "scripts" / "generate_transfer_cypher.py"
    spec = importlib.util.spec_from_file_location("generate_transfer_cypher", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_statements_are_current() -> None:
    generator = _generator()
    folder = ROOT / "cypher" / "transfer"
    assert (folder / "list_tenant_nodes.cypher").read_text() == generator.tenant_nodes()
    assert (folder / "list_project_nodes.cypher").read_text() == generator.project_nodes()
    assert (folder / "find_any_tenant_node.cypher").read_text() == generator.any_node()


def test_every_label_is_exported() -> None:
    text = (ROOT / "cypher" / "transfer" / "list_tenant_nodes.cypher").read_text()
    missing = [
        kind.label
        for kind in GRAPH_MODEL.nodes
        if kind.label != "Event" and f"MATCH (n:{kind.label})" not in text
    ]
    assert missing == [], "run scripts/generate_transfer_cypher.py"
