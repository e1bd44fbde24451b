"""`graphmem browse`: the Browser URL with the connection preselected, the login, and one clear
line when no Browser answers."""

from __future__ import annotations

import urllib.request

import pytest

from graphmem.app.cli import main
from graphmem.core.settings import Settings
from tests.neo4j_endpoint import Endpoint, free_port

pytestmark = pytest.mark.managed  # tests of the managed local Neo4j itself


def test_an_external_neo4j_without_a_browser_is_one_line_and_exit_code_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("NEO4J_URI", f"bolt://127.0.0.1:{free_port()}")
    # a port nothing listens on: the derived :7474 may be another Neo4j on this machine
    monkeypatch.setenv("GRAPHMEM_BROWSER_URL", f"http://127.0.0.1:{free_port()}/browser/")
    assert main(["browse", "--no-open"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "no Neo4j Browser answers at" in err


@pytest.fixture
def local(neo4j_endpoint: Endpoint) -> Settings:
    """The managed Neo4j's settings: the one server whose Browser address the tests know."""
    if neo4j_endpoint.local_settings is None:
        pytest.skip("the tests run against a Neo4j that graphmem does not manage")
    return neo4j_endpoint.local_settings


def test_the_managed_neo4j_browser_url_preselects_the_connection_and_says_how_to_log_in(
    local: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    monkeypatch.setenv("GRAPHMEM_DATA_DIR", str(local.data_dir))
    monkeypatch.setenv("GRAPHMEM_LOCAL_BOLT_PORT", str(local.local_bolt_port))
    monkeypatch.setenv("GRAPHMEM_LOCAL_HTTP_PORT", str(local.local_http_port))
    assert main(["browse", "--no-open"]) == 0
    out = capsys.readouterr().out
    url = out.split("Neo4j Browser: ")[1].split()[0]
    assert url == (
        f"http://127.0.0.1:{local.local_http_port}/browser/"
        f"?dbms=bolt://neo4j@127.0.0.1:{local.local_bolt_port}"
    )
    assert f"password in {local.data_dir.resolve() / 'auth.secret'}" in out
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310
        assert b"Neo4j Browser" in response.read()


def test_an_external_neo4j_uses_its_browser_url(
    neo4j_endpoint: Endpoint,
    local: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("NEO4J_URI", neo4j_endpoint.uri)
    monkeypatch.setenv("GRAPHMEM_BROWSER_URL", f"http://127.0.0.1:{local.local_http_port}/browser/")
    assert main(["browse", "--no-open"]) == 0
    out = capsys.readouterr().out
    assert f"?dbms=bolt://neo4j@127.0.0.1:{local.local_bolt_port}" in out
    assert "password from NEO4J_PASSWORD" in out
