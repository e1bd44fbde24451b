"""Serve the style sheet and the guide from the managed Neo4j itself, so they load after
login with no graphmem process running (stdio users included).

Neo4j's HTTP server serves the Browser from the first ``browser/`` folder on its classpath;
the managed Neo4j puts its config folder's jars first. So graphmem writes there a copy of the
Browser jar with ``browser/graphmem/style.grass`` and ``browser/graphmem/guide.html`` added:
same origin as the Browser (no CORS), and ``browser.post_connect_cmd`` loads both on connect.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from graphmem.browser.guide import guide_html
from graphmem.browser.style import grass
from graphmem.store.catalog import default_catalog

JAR_NAME = "graphmem-browser.jar"
STYLE_PATH = "browser/graphmem/style.grass"
GUIDE_PATH = "browser/graphmem/guide.html"


def browser_settings(http_port: int) -> dict[str, str]:
    """Neo4j settings that apply the style and open the guide after login, and keep the
    Browser from asking to report usage."""
    base = f"http://127.0.0.1:{http_port}"
    return {
        # Browser commands, run in order on every connect (no leading colon).
        "browser.post_connect_cmd": f"style {base}/{STYLE_PATH}; guide {base}/{GUIDE_PATH}",
        # The Browser matches bare host names: the managed Neo4j is reached as 127.0.0.1.
        "browser.remote_content_hostname_whitelist": "127.0.0.1,localhost",
        "client.allow_telemetry": "false",
    }


def browser_files(tenant: str) -> dict[str, str]:
    """The files graphmem adds to the Browser, by path: the style sheet and the guide (whose
    first slide sets ``tenant``). The managed Neo4j's jar and the HTTP routes serve these."""
    return {STYLE_PATH: grass(), GUIDE_PATH: guide_html(default_catalog(), tenant)}


def write_browser_jar(home: Path, conf_dir: Path, tenant: str) -> Path:
    """The Browser jar of ``home`` with graphmem's files added, in ``conf_dir``: a byte copy
    of the jar with entries appended (nothing is recompressed, so a start pays milliseconds)."""
    [original] = sorted((home / "lib").glob("neo4j-browser-*.jar"))
    target = conf_dir / JAR_NAME
    partial = target.with_suffix(".partial")
    shutil.copyfile(original, partial)
    with zipfile.ZipFile(partial, "a") as jar:
        for path, body in browser_files(tenant).items():
            jar.writestr(path, body)
    partial.replace(target)
    return target
