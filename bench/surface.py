"""What an agent pays for graphmem's tools before doing anything useful.

    python -m bench.surface

Per toolset: the tools, their model-visible tokens (name, description and input schema as
sent, ÷ 4) and the whole tools/list (output schemas included, ÷ 4), against the budgets; then
each tool's characters. No database is needed: tools/list never touches it.
"""

from __future__ import annotations

import asyncio

from bench.harness import say
from tests.app.surface import BUDGETS, CORE_WHOLE_BUDGET, measure


async def main() -> None:
    surfaces = [await measure("core"), await measure("full")]
    say(f"{'toolset':<8} {'tools':>5} {'model-visible':>14} {'budget':>7} {'whole':>7}")
    for surface in surfaces:
        say(
            f"{surface.toolset:<8} {len(surface.tools):>5} {surface.model_visible_tokens:>14,}"
            f" {BUDGETS[surface.toolset]:>7,} {surface.whole_tokens:>7,}"
        )
    say(f"(whole core tools/list budget: {CORE_WHOLE_BUDGET:,} tokens)\n")
    say(f"{'tool (full)':<26} {'description':>11} {'input':>6} {'output':>6} {'visible':>8}")
    for tool in sorted(surfaces[1].tools, key=lambda tool: -tool.model_visible):
        say(
            f"{tool.name:<26} {tool.description:>11} {tool.input_schema:>6}"
            f" {tool.output_schema:>6} {tool.model_visible:>8}"
        )


if __name__ == "__main__":
    asyncio.run(main())
