"""An erasure's `remaining` is true at its end: what its selector reaches that was written
while it ran (after the dry run's selection was confirmed) is counted, and its fingerprint is
what the next confirmation needs."""

from __future__ import annotations

from typing import Any

import neo4j
from fastmcp import Client

from tests.erasure.helpers import confirmed_while_locked
from tests.support import call

LATE = "written while the erasure waited for the tenant's lock"


async def test_roots_written_during_the_run_are_said_to_remain(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await call(client, "save_memory", project="gone", title="first", content="erase me")
    dry = await call(client, "erase", project="gone")
    assert dry["counts"] == {"Memory": 1}
    late = (  # a memory of the project, as another process would have saved it
        "CREATE (:Memory {tenant: $tenant, id: 'late-1', project: 'gone', title: 'late', "
        "content: $content, type: 'note', updated_at: datetime(), created_at: datetime()})",
        {"content": LATE},
    )
    done = await confirmed_while_locked(client, raw_driver, tenant, dry, late, project="gone")
    assert done["counts"] == {"Memory": 1}
    assert done["remaining"] == 1, done
    again = await call(client, "erase", project="gone")
    assert again["counts"] == {"Memory": 1} and again["fingerprint"] == done["fingerprint"]
