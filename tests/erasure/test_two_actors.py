"""Two actors sharing a raw session and a commit: each actor's erasure takes only what that
actor created. A turn appended to another's session is that turn alone; linking a session to
an existing commit creates nothing; a session goes with the actor who opened it only when no
other actor's live turn is in it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastmcp import Client

from tests.erasure.helpers import erase
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
