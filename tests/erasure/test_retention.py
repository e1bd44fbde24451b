"""Retention: maintain erases what is past the configured retention, per project where one
is named, through the erasure path with its events; what is within it, or live, stays."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import neo4j
import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.days import DaysByProject
from graphmem.core.settings import Settings
from graphmem.erasure import retention
from graphmem.history.verification import verify_chain
from graphmem.store import Store
from tests.support import WholeRecordClient, call

LONG_AGO = (datetime.now(UTC) - timedelta(days=3)).isoformat()


@pytest.fixture
async def retaining(store: Store, settings: Settings, tmp_path: Path) -> AsyncIterator[Client[Any]]:
    policy = {
        "retention_raw": "1,kept=3650",
        "retention_retired": "1",
        "memory_backup_dir": tmp_path / "backups",
    }
    async with WholeRecordClient(create_server(store, settings.model_copy(update=policy))) as c:
        yield c


async def _archive(client: Client[Any], project: str) -> dict[str, Any]:
    turns = [{"role": "user", "content": f"old talk in {project}", "ts": LONG_AGO}]
    return await call(
        client,
        "archive_turns",
        project=project,
        session_ref="s",
        host="h",
        source_root="/r",
        turns=turns,
    )


async def test_maintain_erases_what_is_past_retention(
    retaining: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, tmp_path: Path
) -> None:
    await _archive(retaining, "p")
    await _archive(retaining, "kept")  # its project keeps raw sessions ten years
    await call(retaining, "save_memory", project="p", title="plan", content="v1", topic_key="t")
    live = await call(
        retaining, "save_memory", project="p", title="plan", content="v2", topic_key="t"
    )
    await call(retaining, "record_fact", project="p", key="k", value="old")
    current = await call(retaining, "record_fact", project="p", key="k", value="new")
    await raw_driver.execute_query(  # retired three days ago
        "MATCH (n) WHERE n.tenant = $tenant AND (n:Memory OR n:Fact) AND n.status <> 'active' "
        "SET n.updated_at = datetime($then), n.superseded_at = datetime($then)",
        tenant=tenant,
        then=LONG_AGO,
    )
    backups = sorted((tmp_path / "backups").rglob("*.md"))
    assert len(backups) == 2
    result = await call(retaining, "maintain")
    assert result["erased_past_retention"] == {"Fact": 1, "Memory": 1, "Session": 1, "Turn": 1}
    kept = sorted((tmp_path / "backups").rglob("*.md"))
    assert len(kept) == 1 and live["memory"]["id"] in kept[0].name
    assert result["continuation"] is None
    assert (await call(retaining, "search_raw", query="talk"))["count"] == 1  # kept's
    assert (await call(retaining, "get_observations", ids=[live["memory"]["id"]]))["details"]
    state = await call(retaining, "current_state", state_key="k", project="p")
    assert state["answer"]["id"] == current["id"] and state["history"] == []
    again = await call(retaining, "maintain")
    assert again["erased_past_retention"] == {}
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.verified and verdict.erased_payloads > 0
    erasures = [
        e for e in (await call(retaining, "replay_memory"))["events"] if e["event_type"] == "erase"
    ]
    assert [e["payload"]["reason"] for e in erasures] == ["retention"]


async def test_a_long_session_goes_in_bounded_batches(
    retaining: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(retention, "RETENTION_BATCH", 2)
    turns = [{"role": "user", "content": f"old talk {n}", "ts": LONG_AGO} for n in range(5)]
    await call(
        retaining,
        "archive_turns",
        project="p",
        session_ref="s",
        host="h",
        source_root="/r",
        turns=turns,
    )
    result = await call(retaining, "maintain")
    erased = dict(result["erased_past_retention"])
    while result["continuation"] is not None:
        result = await call(retaining, "maintain", continuation=result["continuation"])
        for kind, count in result["erased_past_retention"].items():
            erased[kind] = erased.get(kind, 0) + count
    assert erased == {"Session": 1, "Turn": 5}
    events = (await call(retaining, "replay_memory"))["events"]
    assert sum(e["event_type"] == "erase" for e in events) == 3  # 2 + 2 + 2 nodes
    assert (await call(retaining, "search_raw", query="talk"))["count"] == 0


def test_retention_settings_are_checked() -> None:
    assert DaysByProject.parse("30,alpha=7") == DaysByProject(days=30, projects={"alpha": 7})
    assert DaysByProject.parse("alpha=7") == DaysByProject(days=None, projects={"alpha": 7})
    for bad in ("0", "thirty", "=7", "alpha=", "99999999"):
        with pytest.raises(ValueError, match="DAYS"):
            DaysByProject.parse(bad)
