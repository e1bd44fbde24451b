"""Two actors sharing a raw session and a commit: each actor's erasure takes only what that
actor created. A turn appended to another's session is that turn alone; linking a session to
an existing commit creates nothing; a session goes with the actor who opened it only when no
other actor's live turn is in it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import neo4j
from fastmcp import Client

from tests.erasure.helpers import confirmed_while_locked, erase
from tests.support import call

SHA = "c0ffee" + "0" * 34
SESSION = {"project": "p", "session_ref": "shared", "host": "h", "source_root": "/r"}


async def _share(client: Client[Any]) -> str:
    """Alice opens the raw session and records the commit; Bob appends a turn and links the
    commit to his agent session. The raw session's id."""
    start = datetime(2026, 12, 1, 9, tzinfo=UTC)
    opened = await call(
        client,
        "archive_turns",
        **SESSION,
        turns=[{"role": "user", "content": "alice says amber-falcon", "ts": start.isoformat()}],
        actor="alice",
    )
    later = (start + timedelta(minutes=1)).isoformat()
    appended = await call(
        client,
        "archive_turns",
        **SESSION,
        turns=[{"role": "user", "content": "bob says blue-otter", "ts": later}],
        actor="bob",
    )
    assert opened["session_created"] and not appended["session_created"]
    commit = {"project": "p", "sha": SHA, "message": "fix the build"}
    await call(client, "record_commit", **commit, session_id="alice-run", actor="alice")
    linked = await call(client, "record_commit", **commit, session_id="bob-run", actor="bob")
    assert linked["linked"] and not linked["created"]
    return opened["session"]["id"]


async def _found(client: Client[Any], text: str) -> int:
    return (await call(client, "search_raw", query=text))["count"]


async def test_an_appended_turn_is_that_turn_alone(client: Client[Any]) -> None:
    session_id = await _share(client)
    dry = await call(client, "erase", written_by="bob")
    assert dry["counts"] == {"Turn": 1}, dry
    done = await erase(client, written_by="bob")
    assert done["counts"] == {"Turn": 1}
    assert await _found(client, "blue-otter") == 0
    assert await _found(client, "amber-falcon") == 1
    sessions = (await call(client, "list_raw_sessions", project="p"))["sessions"]
    assert [session["session_id"] for session in sessions] == [session_id], sessions
    assert (await call(client, "lookup_commit", sha=SHA))["commits"]
    # what is left is Alice's alone: her erasure now takes the session too
    done = await erase(client, written_by="alice")
    assert done["counts"] == {"Commit": 1, "Session": 1, "Turn": 1}
    assert await _found(client, "amber-falcon") == 0


async def test_the_opener_takes_the_session_only_when_it_is_theirs_alone(
    client: Client[Any],
) -> None:
    await _share(client)
    done = await erase(client, written_by="alice")
    assert done["counts"] == {"Commit": 1, "Turn": 1}  # Bob's turn keeps the session
    assert await _found(client, "amber-falcon") == 0
    assert await _found(client, "blue-otter") == 1
    done = await erase(client, written_by="bob")
    assert done["counts"] == {"Session": 1, "Turn": 1}
    assert await _found(client, "blue-otter") == 0


async def test_turn_numbers_freed_by_an_erasure_are_never_taken_again(client: Client[Any]) -> None:
    await _share(client)
    await erase(client, written_by="alice")  # the session's count drops: its numbers do not
    later = datetime(2026, 12, 1, 10, tzinfo=UTC).isoformat()
    carol = {"role": "user", "content": "carol says coral-heron", "ts": later}
    await call(client, "archive_turns", **SESSION, turns=[carol], actor="carol")
    dry = await call(client, "erase", written_by="bob")
    assert dry["counts"] == {"Turn": 1}, dry  # Bob's turn; Carol's keeps the session
    await erase(client, written_by="bob")
    assert await _found(client, "coral-heron") == 1


async def test_a_turn_appended_while_an_erasure_waits_keeps_the_session(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    start = datetime(2026, 12, 1, 9, tzinfo=UTC).isoformat()
    turn = {"role": "user", "content": "alice alone says amber-falcon", "ts": start}
    opened = await call(client, "archive_turns", **SESSION, turns=[turn], actor="alice")
    dry = await call(client, "erase", written_by="alice")
    assert dry["counts"] == {"Session": 1, "Turn": 1}
    appended = (  # another writer's turn, appended after the erasure was planned
        "MATCH (s:Session {tenant: $tenant, id: $sid}) "
        "CREATE (s)-[:HAS_TURN]->(:Turn {tenant: $tenant, id: 'carol-turn', "
        "session_id: $sid, project: 'p', role: 'user', content: 'carol was here', "
        "seq: 7, archived_revision: 999999, ts: datetime(), lexical: ''})",
        {"sid": opened["session"]["id"]},
    )
    done = await confirmed_while_locked(
        client, raw_driver, tenant, dry, appended, written_by="alice"
    )
    assert done["counts"] == {"Turn": 1}, done  # Alice's turn; the session is shared now
    assert done["remaining"] == 0
    sessions = (await call(client, "list_raw_sessions", project="p"))["sessions"]
    assert [s["session_id"] for s in sessions] == [opened["session"]["id"]]
