"""Serve the style sheet and the guide from the managed Neo4j itself, so they load after
login with no graphmem process running (stdio users included).

Neo4j's HTTP server serves the Browser from the first ``browser/`` folder on its classpath;
the managed Neo4j puts its config folder's jars first. So graphmem writes there a copy of the
Browser jar with ``browser/graphmem/style.grass`` and ``browser/graphmem/guide.html`` added:
same origin as the Browser (no CORS), and ``browser.post_connect_cmd`` loads both on connect.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from fastmcp import FastMCP
from starlette.requests import Request
from starlette.responses import Response

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


def write_browser_jar(home: Path, conf_dir: Path, tenant: str) -> Path:
    """The Browser jar of ``home`` with graphmem's style and guide added, in ``conf_dir``."""
    [original] = sorted((home / "lib").glob("neo4j-browser-*.jar"))
    target = conf_dir / JAR_NAME
    partial = target.with_suffix(".partial")
    with zipfile.ZipFile(original) as source, zipfile.ZipFile(partial, "w") as copy:
        for entry in source.infolist():
            copy.writestr(entry, source.read(entry))
        copy.writestr("browser/graphmem/", "")
        copy.writestr(STYLE_PATH, grass())
        copy.writestr(GUIDE_PATH, guide_html(default_catalog(), tenant))
    partial.replace(target)
    return target


# --- over graphmem's HTTP server (docker-compose: the Neo4j image serves its own Browser) ---
BROWSER_FILES = {f"/{STYLE_PATH}": "text/plain", f"/{GUIDE_PATH}": "text/html"}
CORS = {
    # The Browser fetches from its own page (another port: another origin). The two files
    # hold no data (the style sheet and the guide's queries), so any origin may read them.
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, OPTIONS",
    "Access-Control-Allow-Headers": "pragma, cache-control",  # the Browser's guide fetch
    "Access-Control-Max-Age": "600",
}


def register_browser_files(server: FastMCP, tenant: str) -> None:
    """GET (and the CORS preflight) for the style sheet and the guide, so a Neo4j that does
    not serve them itself can load them from graphmem's HTTP server."""
    bodies = {f"/{STYLE_PATH}": grass(), f"/{GUIDE_PATH}": guide_html(default_catalog(), tenant)}

    async def serve_file(request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=CORS)
        path = request.url.path
        return Response(bodies[path], media_type=BROWSER_FILES[path], headers=CORS)

    for path in BROWSER_FILES:
        server.custom_route(path, methods=["GET", "OPTIONS"])(serve_file)
