"""The knowledge area's rule modules are pure: importing them loads no driver, no store and no
write path (their tests need no database)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.pure

PURE = (
    "graphmem.core.text",
    "graphmem.knowledge.lifecycle",
    "graphmem.knowledge.heuristics",
    "graphmem.knowledge.claim_rules",
    "graphmem.knowledge.questions",
    "graphmem.knowledge.pack_rules",
    "graphmem.knowledge.pack_scoring",
    "graphmem.knowledge.audit_rules",
)
FORBIDDEN = ("neo4j", "graphmem.store", "graphmem.history")


def test_rule_modules_import_no_driver_store_or_write_path() -> None:
    probe = (
        "import importlib, sys\n"
        f"for name in {PURE!r}: importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] == 'neo4j' or "
        f"m.startswith({FORBIDDEN[1:]!r})))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"
