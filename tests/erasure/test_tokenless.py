"""Callers without credentials (stdio, token-less loopback HTTP) hold every scope but erasure:
an agent can be steered by text it recalled, so erasing from such a caller needs the operator's
GRAPHMEM_ERASE_WITHOUT_CREDENTIALS. Without it, erase is neither listed nor run (its dry run
included), and nothing is erased."""

from __future__ import annotations

import json
from typing import Any

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.support import WholeRecordClient, call


async def test_tokenless_callers_do_not_erase_unless_the_operator_says(
    store: Store, settings: Settings
) -> None:
    default = settings.model_copy(update={"erase_without_credentials": False})
    assert Settings().erase_without_credentials is False
    async with WholeRecordClient(create_server(store, default)) as agent:
        saved = await call(agent, "save_memory", project="p", title="keep", content="kept")
        assert "erase" not in {tool.name for tool in await agent.list_tools()}
        for arguments in (
            {"project": "p"},
            {"project": "p", "dry_run": False, "confirm_destructive": True, "reason": "r"},
        ):
            refused = await agent.call_tool("erase", arguments, raise_on_error=False)
            payload = json.loads(refused.content[0].text)  # type: ignore[union-attr]
            assert payload["error"] == "permission_denied"
            assert "GRAPHMEM_ERASE_WITHOUT_CREDENTIALS" in payload["message"]
        read = await call(agent, "get_observations", ids=[saved["memory"]["id"]])
        assert read["details"][0]["content"] == "kept"
    allowed = settings.model_copy(update={"erase_without_credentials": True})
    async with WholeRecordClient(create_server(store, allowed)) as operator_allowed:
        assert "erase" in {tool.name for tool in await operator_allowed.list_tools()}
        dry: Any = await call(operator_allowed, "erase", project="p")
        assert dry["counts"] == {"Memory": 1}
