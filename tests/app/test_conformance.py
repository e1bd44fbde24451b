"""The MCP conformance suite's server scenarios against `graphmem serve --transport http`, once
per protocol revision: `--requirements 2025-11-25` (the initialize handshake) and
`--requirements 2026-07-28` (stateless: server/discover, per-request _meta). Each runs exactly
the scenarios its revision requires, at its revision's wire; extensions and pending scenarios
run too but are not scored.

@modelcontextprotocol/conformance needs Node 22 (it imports fs.globSync); npx fetches one from
the npm registry (`-p node@22`). The checks that need the suite's own fixture tools, resources
and prompts, or features graphmem deliberately lacks, are expected failures, each with its
reason, in conformance-baseline-<revision>.yml, one check at a time; everything else must pass.
A run takes a few seconds once npx has its packages."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from tests.app.helpers import clean_env, serving_http
from tests.neo4j_endpoint import Endpoint

SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12"
HERE = Path(__file__).parent
# Scenarios that must pass whole at each revision: proof the run reached that revision's wire.
WHOLE = {
    "2025-11-25": ["server-initialize", "ping", "tools-list", "completion-complete"],
    "2026-07-28": ["tools-list", "completion-complete", "caching", "sep-2164-resource-not-found"],
}


def _suite(url: str, revision: str, output: Path) -> subprocess.CompletedProcess[str]:
    baseline = HERE / f"conformance-baseline-{revision}.yml"
    command = (
        f"conformance server --url {url} --requirements {revision} "
        f"--expected-failures {baseline} --output-dir {output}"
    )
    return subprocess.run(
        ["npx", "-y", "-p", "node@22", "-p", SUITE, "-c", command],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=output.parent,
    )


def _unexpected(stdout: str, results: Path) -> str:
    """The run's verdict on the baseline, with each unexpected failure's failing checks and
    their messages (from the saved checks.json), so a failure explains itself."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", stdout)  # the suite colours its report
    if "Total:" not in text:
        return ""  # it did not get to run the scenarios: stderr says why
    verdict = text[text.find("Total:") :]
    named = {line.split(":")[0] for line in re.findall(r"^\s+✗ (\S+)$", verdict, re.M)}
    details = []
    for checks in sorted(results.glob("server-*/checks.json")):
        scenario = re.sub(r"^server-|-\d{4}-\d\d-\d\dT.*$", "", checks.parent.name)
        for check in json.loads(checks.read_text()) if scenario in named else []:
            if check["status"] in ("FAILURE", "WARNING"):
                details.append(f"{scenario}:{check['id']}: {check.get('errorMessage')}")
    return "\n".join([verdict, *details])


@pytest.mark.skipif(shutil.which("npx") is None, reason="needs Node's npx")
@pytest.mark.timeout(900)  # a cold npx cache fetches Node 22 and the suite first
@pytest.mark.parametrize("revision", list(WHOLE))
def test_the_conformance_scenarios_pass_but_the_listed_fixture_checks(
    neo4j_endpoint: Endpoint, tmp_path: Path, revision: str
) -> None:
    env = clean_env(**neo4j_endpoint.env(), GRAPHMEM_TENANT=f"conf-{uuid.uuid4().hex[:10]}")
    results = tmp_path / "results"
    with serving_http(env) as server:
        run = _suite(server.url, revision, results)
    assert run.returncode == 0, _unexpected(run.stdout, results) or run.stderr[-2000:]
    summary = run.stdout[run.stdout.find("=== SUMMARY ===") :]
    assert f"Running requirements {revision} " in run.stdout, run.stdout[:2000]
    for scenario in WHOLE[revision]:
        assert re.search(rf"{scenario}: [1-9]\d* passed, 0 failed", summary), (scenario, summary)
