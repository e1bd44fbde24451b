"""graphmem's HTTP server serves the Browser files too, for a Neo4j that does not serve them
itself (docker-compose: the Neo4j image serves its own Browser). Kept apart from ``served`` so
the managed Neo4j's start does not import the web stack."""

from __future__ import annotations

from fastmcp import FastMCP
from starlette.requests import Request
from starlette.responses import Response

from graphmem.browser.served import GUIDE_PATH, STYLE_PATH, browser_files

MEDIA_TYPES = {STYLE_PATH: "text/plain", GUIDE_PATH: "text/html"}
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
    bodies = browser_files(tenant)

    async def serve_file(request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=CORS)
        path = request.url.path.removeprefix("/")
        return Response(bodies[path], media_type=MEDIA_TYPES[path], headers=CORS)

    for path in bodies:
        server.custom_route(f"/{path}", methods=["GET", "OPTIONS"])(serve_file)
