"""The MCP conformance suite's server scenarios against `graphmem serve --transport http`.

@modelcontextprotocol/conformance 0.1.16 needs Node 22 (it imports fs.globSync); the machine's
npx fetches one from the npm registry (`-p node@22`). The scenarios that need the suite's own
fixture tools, resources and prompts are expected failures, each with its reason, in
conformance-baseline.yml; everything else must pass, completion included."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from tests.app.helpers import clean_env, serving_http
from tests.neo4j_endpoint import Endpoint

SUITE = "@modelcontextprotocol/conformance@0.1.16"
BASELINE = Path(__file__).with_name("conformance-baseline.yml")


@pytest.mark.skipif(shutil.which("npx") is None, reason="needs Node's npx")
@pytest.mark.timeout(900)  # npx fetches Node and the suite, which may run 600 s
def test_the_conformance_scenarios_pass_but_the_listed_fixture_ones(
    neo4j_endpoint: Endpoint, tmp_path: Path
) -> None:
    env = clean_env(**neo4j_endpoint.env(), GRAPHMEM_TENANT=f"conf-{uuid.uuid4().hex[:10]}")
    with serving_http(env) as server:
        command = (
            f"conformance server --url {server.url} --expected-failures {BASELINE} "
            f"--output-dir {tmp_path / 'results'}"
        )
        run = subprocess.run(
            ["npx", "-y", "-p", "node@22", "-p", SUITE, "-c", command],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=tmp_path,
        )
    summary = run.stdout[run.stdout.find("=== SUMMARY ===") :]
    assert run.returncode == 0, summary or run.stderr[-2000:]
    assert "completion-complete: 1 passed" in summary
