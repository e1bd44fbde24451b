"""An erasure's `remaining` is true at its end: what its selector reaches that was written
while it ran (after the dry run's selection was confirmed) is counted, and its fingerprint is
what the next confirmation needs."""

from __future__ import annotations

import asyncio
from typing import Any

import neo4j
from fastmcp import Client

from tests.erasure.helpers import confirm
from tests.support import call

LATE = "written while the erasure waited for the tenant's lock"


async def test_roots_written_during_the_run_are_said_to_remain(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await call(client, "save_memory", project="gone", title="first", content="erase me")
    dry = await call(client, "erase", project="gone")
    assert dry["counts"] == {"Memory": 1}
    async with raw_driver.session() as session:
        holding = await session.begin_transaction()  # the tenant's lock, as a writer takes it
        await holding.run(
            "MATCH (h:History {tenant: $tenant}) SET h.lock_token = 'test'", tenant=tenant
        )
        running = asyncio.create_task(confirm(client, dry, project="gone"))
        await asyncio.sleep(1.0)
        assert not running.done(), "the erasure should wait for the tenant's lock"
        await holding.run(  # a memory of the project, as another process would have saved it
            "CREATE (:Memory {tenant: $tenant, id: 'late-1', project: 'gone', title: 'late', "
            "content: $content, type: 'note', updated_at: datetime(), created_at: datetime()})",
            tenant=tenant,
            content=LATE,
        )
        await holding.commit()
        done = await running
    assert done["counts"] == {"Memory": 1}
    assert done["remaining"] == 1, done
    again = await call(client, "erase", project="gone")
    assert again["counts"] == {"Memory": 1} and again["fingerprint"] == done["fingerprint"]
