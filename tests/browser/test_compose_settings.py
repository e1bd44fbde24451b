"""docker-compose.yml sets the same Browser behaviour as the managed Neo4j, by environment."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphmem.browser.served import GUIDE_PATH, STYLE_PATH, browser_settings

pytestmark = pytest.mark.pure

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"


def _environment() -> dict[str, str]:
    pairs = re.findall(r'^\s+(NEO4J_\w+): "?(.*?)"?$', COMPOSE.read_text(), re.M)
    return dict(pairs)


def _variable(setting: str) -> str:
    """Neo4j's image maps NEO4J_a_b__c to a.b_c."""
    return "NEO4J_" + setting.replace("_", "__").replace(".", "_")


def test_compose_sets_every_browser_setting_graphmem_uses() -> None:
    environment = _environment()
    for setting in browser_settings(7474):
        assert _variable(setting) in environment, setting
    command = environment[_variable("browser.post_connect_cmd")]
    assert command == (
        f"style http://localhost:8000/{STYLE_PATH}; guide http://localhost:8000/{GUIDE_PATH}"
    )
    assert "localhost" in environment[_variable("browser.remote_content_hostname_whitelist")]
    assert environment[_variable("client.allow_telemetry")] == "false"
