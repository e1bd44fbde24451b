"""graphmem's HTTP server serves the Browser's style sheet and guide, readable from the Browser's
page on another port (CORS, including the guide fetch's preflight)."""

from __future__ import annotations

import urllib.request

from graphmem.browser.guide import SLIDES
from graphmem.browser.style import grass
from tests.app.helpers import clean_env, serving_http
from tests.neo4j_endpoint import Endpoint

BROWSER_ORIGIN = "http://localhost:7474"


def _request(url: str, method: str = "GET", **headers: str) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, method=method, headers=headers)  # noqa: S310
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        return response.status, dict(response.headers), response.read().decode()


def test_style_and_guide_are_served_with_cors(neo4j_endpoint: Endpoint) -> None:
    env = clean_env(**neo4j_endpoint.env(), GRAPHMEM_TENANT="team-a")
    with serving_http(env) as server:
        base = server.url.removesuffix("/mcp") + "/browser/graphmem"
        status, headers, body = _request(f"{base}/style.grass", Origin=BROWSER_ORIGIN)
        assert (status, body) == (200, grass())
        assert headers["access-control-allow-origin"] == "*"
        status, headers, body = _request(
            f"{base}/guide.html",
            Origin=BROWSER_ORIGIN,
            pragma="no-cache",
            **{"cache-control": "no-cache"},
        )
        assert status == 200 and body.count("<slide>") == len(SLIDES)
        assert ":param tenant =&gt; &#x27;team-a&#x27;" in body
        status, headers, _ = _request(
            f"{base}/guide.html",
            "OPTIONS",
            Origin=BROWSER_ORIGIN,
            **{
                "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "pragma,cache-control",
            },
        )
        assert status == 204
        assert "pragma" in headers["access-control-allow-headers"]
