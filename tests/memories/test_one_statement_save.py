"""The one-statement save (memories/create_memory_at_head) stands for two statements: the
memory's CREATE of memories/create_memory and the event's of history/append_events. Field for
field, so a property added to one cannot be missing from the other (nor a head's field)."""

from __future__ import annotations

import pytest

from graphmem.store.catalog import default_catalog
from tests.cypher_maps import created, head_fields

pytestmark = pytest.mark.pure

CATALOG = default_catalog()
FAST = CATALOG["memories/create_memory_at_head"].text


def test_the_memory_is_created_as_create_memory_creates_it() -> None:
    general = CATALOG["memories/create_memory"].text
    label = "Memory:Unindexed:Unread"
    assert created(FAST, label) == created(general, label)
    assert "SET m.active_from = CASE WHEN $status = 'active' THEN datetime($now) END" in general
    assert "SET m.active_from = CASE WHEN $status = 'active' THEN datetime($now) END" in FAST
    assert "CREATE (m)-[:IN_SESSION]->(s)" in general and "CREATE (m)-[:IN_SESSION]->(s)" in FAST


def test_the_event_is_appended_as_append_events_appends_it() -> None:
    general = CATALOG["history/append_events"].text
    assert created(FAST, "Event") == created(general, "Event")
    subject = "CREATE (:EventSubject {tenant: $tenant, subject_id: subject_id, revision: "
    assert subject + "ev.revision})" in general and subject + "$revision})" in FAST
    assert head_fields(FAST) == head_fields(general) | {"lock_token": "$lock_token"}


def test_the_comparison_sees_a_missing_field() -> None:
    fewer = FAST.replace(" access_count: 0,", "")
    assert created(fewer, "Memory:Unindexed:Unread") != created(FAST, "Memory:Unindexed:Unread")
    unmoved = FAST.replace("SET h.revision = $revision, ", "SET ")  # the WHERE still names it
    assert "revision" in head_fields(FAST) and "revision" not in head_fields(unmoved)
