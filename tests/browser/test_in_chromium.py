"""Neo4j Browser in a real, headless Chromium with a fresh profile, against the managed Neo4j:
after login the graphmem guide opens and the style sheet applies with nothing typed; a guide
query on a seeded graph draws the explaining captions and no bookkeeping.

Needs Debian's Chromium (`apt-get install chromium`; the README's test command installs it
where it can) and the `playwright` package (its driver only: no browser download). Without
them the test skips and says why. GRAPHMEM_SCREENSHOT=path keeps the screenshot there.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from tests.neo4j_endpoint import Endpoint
from tests.support import call

pytestmark = pytest.mark.managed  # tests of the managed local Neo4j itself

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# The machine's flags for a headless Chromium as root on a closed network.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BOOKKEEPING_CAPTIONS = ("head r", "audit cursors")
BOOKKEEPING_LABELS = ("Event", "FactState", "History", "IdempotencyRecord", "Run", "AuditState")


def _requirements() -> Any:
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here (apt-get install chromium)")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install -e '.[dev]')")
    return async_playwright


async def _stored_style_includes(page: Any, text: str, seconds: float = 30) -> bool:
    """Poll the Browser's stored style (the page's CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        stored = await page.evaluate("localStorage.getItem('neo4j.grass')") or ""
        if text in stored:
            return True
        await page.wait_for_timeout(250)
    return False


async def test_the_browser_opens_the_guide_and_styles_the_graph_by_itself(
    neo4j_endpoint: Endpoint, client: Client[Any], tenant: str, tmp_path: Path
) -> None:
    async_playwright = _requirements()
    local = neo4j_endpoint.local_settings
    if local is None:
        pytest.skip("the guide and style are served by the managed Neo4j; the tests use another")
    for key, value in (("db.engine", "postgres"), ("cache.engine", "redis")):
        await call(client, "record_fact", project="shop", key=key, value=value)
    screenshot = Path(os.environ.get("GRAPHMEM_SCREENSHOT") or tmp_path / "neo4j-browser.png")
    began = time.monotonic()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = await (
                await browser.new_context(viewport={"width": 1400, "height": 900})
            ).new_page()
            await page.goto(
                f"http://127.0.0.1:{local.local_http_port}/browser/"
                f"?dbms=bolt://neo4j@127.0.0.1:{local.local_bolt_port}"
            )
            await page.get_by_test_id("password").wait_for(timeout=60_000)
            stored = await page.evaluate("localStorage.getItem('neo4j.grass')")
            assert stored in (None, "null")  # a fresh profile: no style stored yet
            await page.get_by_test_id("password").fill(neo4j_endpoint.password)
            await page.get_by_test_id("connect").click()

            # Nothing typed: the guide opens and the style sheet is stored by themselves.
            await page.get_by_text("Which projects does my tenant hold?").first.wait_for(
                timeout=60_000
            )
            assert await _stored_style_includes(page, "{key} = {value_canon}")
            assert await page.get_by_text("allow Neo4j to collect").count() == 0  # no banner

            # One guide query, run from its slide, on the seeded graph.
            await page.locator(".monaco-editor").first.click()
            await page.keyboard.type(f":params {{tenant: '{tenant}', project: 'shop'}}")
            await page.keyboard.press("Control+Enter")
            await page.get_by_text('"project": "shop"').first.wait_for(timeout=20_000)
            await page.get_by_text("Next", exact=True).click()
            await page.get_by_text("What is true in this project now?").wait_for(timeout=10_000)
            await page.locator("pre.runnable", has_text="MATCH (k:FactKey)-[:CURRENT]").click()
            await page.keyboard.press("Control+Enter")
            await page.locator("svg text", has_text="db.engine").first.wait_for(timeout=30_000)
            captions = [t or "" for t in await page.locator("svg text").all_text_contents()]
            image = await page.screenshot(path=str(screenshot))
            overview = await page.locator("body").inner_text()
        finally:
            await browser.close()
    print(f"\nbrowser test: {time.monotonic() - began:.1f} s; screenshot: {screenshot}")
    shown = " ".join(captions)
    assert "db.engine" in shown and "cache.en" in shown  # keys, not ids (long ones cut with …)
    # a fact: its key, then "=" and the start of its value (the Browser wraps and cuts it)
    assert any(c.strip() == "=" or "= " in c for c in captions), captions
    assert not any(marker in shown for marker in BOOKKEEPING_CAPTIONS)
    assert not any(f"{label} (" in overview for label in BOOKKEEPING_LABELS)
    assert len(image) > 10_000
