"""``graphmem browse``: where the Neo4j Browser of graphmem's database is, and how to log in.

The URL preselects the connection (``?dbms=``). It does not preselect the guide: a guide named
in the URL turns off ``browser.post_connect_cmd`` for that page load, and with it the style
sheet; the managed Neo4j opens the guide and applies the style itself after login.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from graphmem.core.errors import ConfigurationError
from graphmem.core.settings import Settings

DEFAULT_BROWSER_PORT = 7474


@dataclass(frozen=True)
class BrowserLogin:
    url: str  # the Browser with the connection preselected
    user: str
    password_source: str

    def describe(self) -> str:
        return (
            f"Neo4j Browser: {self.url}\n"
            f"  login:    user {self.user}, password {self.password_source}\n"
            "  Browser access is database-admin access: every tenant's data is visible; the\n"
            "  graphmem guide's queries are scoped by the tenant parameter."
        )


def browser_login(settings: Settings, say: Callable[[str], None] = lambda _: None) -> BrowserLogin:
    """The managed Neo4j's Browser (started when it is not running), or the Browser of the
    external NEO4J_URI; refused with one line when no Browser answers there."""
    if settings.neo4j_uri:
        return _external(settings)
    from graphmem.localdb import LocalNeo4j
    from graphmem.store import ping_sync

    local = LocalNeo4j(settings, progress=say)
    status, _ = local.start(ready_check=ping_sync)
    url = _with_connection(status.browser_url, status.bolt_uri, local.user)
    return BrowserLogin(url, local.user, f"in {local.data_dir / 'auth.secret'}")


def _external(settings: Settings) -> BrowserLogin:
    uri = settings.neo4j_uri or ""
    host = urlsplit(uri).hostname or "localhost"
    base = settings.browser_url or f"http://{host}:{DEFAULT_BROWSER_PORT}/browser/"
    if not _answers(base):
        raise ConfigurationError(
            f"no Neo4j Browser answers at {base} for NEO4J_URI {uri}; set GRAPHMEM_BROWSER_URL "
            "to its address"
        )
    url = _with_connection(base, uri, settings.neo4j_user)
    return BrowserLogin(url, settings.neo4j_user, "from NEO4J_PASSWORD")


def _with_connection(browser_url: str, bolt_uri: str, user: str) -> str:
    parts = urlsplit(bolt_uri)
    dbms = f"{parts.scheme}://{user}@{parts.hostname}:{parts.port or 7687}"
    return f"{browser_url}?dbms={quote(dbms, safe=':/@')}"


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 (http only)
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError, ValueError):
        return False


def open_in_system_browser(url: str) -> bool:
    """Open ``url`` when a graphical browser is there (never a console browser, which would
    take over the terminal); False when there is none."""
    graphical = sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if not graphical:
        return False
    try:
        return webbrowser.open(url, new=2)
    except webbrowser.Error:
        return False
