"""A merge racing the writes and passes that mention either side, and names as bad input:
nothing half-merged, one subject per name, the chain verifies. Real Neo4j."""

from __future__ import annotations

import asyncio
from typing import Any

from fastmcp import Client

from graphmem.store import Store
from graphmem.subjects.reading import read_subjects, reader_of
from tests.subjects.test_reading import count
from tests.support import call, call_error


async def test_a_merge_racing_writes_and_passes_that_mention_both_sides(
    client: Client[Any], store: Store, tenant: str
) -> None:
    await call(client, "save_memory", project="p", title="t", content="Dana Park met Lee Wong.")
    dana = (await call(client, "about", name="Dana Park"))["subjects"][0]["id"]
    lee = (await call(client, "about", name="Lee Wong"))["subjects"][0]["id"]
    db = store.of(tenant)

    async def writes() -> None:
        for n in range(12):
            name = "Dana Park" if n % 2 else "Lee Wong"
            content = f"{name} wrote note {n}."
            await call(client, "save_memory", project="p", title=f"n{n}", content=content)
            if n % 4 == 0:
                await read_subjects(db)

    merged, _ = await asyncio.gather(
        call(client, "merge_subjects", subject_id=dana, into_id=lee, reason="one person"), writes()
    )
    await reader_of(store).settle(tenant)
    assert merged["into_id"] == lee
    assert await count(store, tenant, "(n:Unread)") == 0
    assert await count(store, tenant, "(n:Subject)") == 2  # no third subject for either name
    [group] = (await call(client, "about", name="Dana Park"))["subjects"]
    assert group["id"] == lee and group["mentions"] == 14  # 2 in the first memory, 12 after
    replay = await call(client, "replay_memory", limit=1)
    assert replay["chain"]["verified"] is True


async def test_bad_names_are_refused_and_another_script_is_a_name(client: Client[Any]) -> None:
    refused = [
        await call_error(client, "about", name="x" * 10_000),
        await call_error(client, "about", name="Dana\x07Park"),
        await call_error(
            client, "save_memory", project="p", title="t", content="c", about=["x" * 10_000]
        ),
        await call_error(
            client, "save_memory", project="p", title="t", content="c", about=["Dana\x00Park"]
        ),
    ]
    assert {r["error"] for r in refused} == {"invalid_argument"}
    saved = await call(
        client, "save_memory", project="p", title="t", content="c", about=["Фёдор Достоевский"]
    )
    assert "about" not in saved  # the names given are never echoed
    [found] = (await call(client, "about", name="фёдор достоевский"))["subjects"]
    assert found["aliases"] == ["Фёдор Достоевский"]
