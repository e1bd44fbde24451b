"""What a failed start tells the operator (the server log) and a client (a plain reason)."""

from __future__ import annotations

import neo4j.exceptions as neo4j_errors
import pytest

from graphmem.toolkit.startup import DatabaseNotStarted

pytestmark = pytest.mark.pure

CODE = "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"


def test_the_log_names_a_driver_errors_code_and_the_client_gets_only_a_reason() -> None:
    cause = neo4j_errors.Neo4jError._hydrate_neo4j(code=CODE, message="an index exists")
    assert repr(cause) == "ClientError()"  # what the log said before: nothing to act on
    failure = DatabaseNotStarted(cause)
    assert failure.message.startswith("the database could not be started: ClientError: ")
    assert CODE in failure.message and "an index exists" in failure.message
    told = str(failure.client_payload())
    assert "an unexpected error" in told and CODE not in told and "index" not in told
