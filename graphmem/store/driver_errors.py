"""The driver's exceptions that mean 'the database is unusable', as graphmem errors."""

from __future__ import annotations

import contextlib
from collections.abc import Generator

import neo4j.exceptions as neo4j_errors

from graphmem.core.errors import Conflict, StoreAuthFailed, StoreUnavailable, TimedOut

_UNREACHABLE = (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired, OSError)

# Codes of a transaction the server ended for running past its timeout (a lock wait included).
_TIMED_OUT = ("TimedOut", "LockClientStopped", "Transaction.Terminated")


def schema_race(error: BaseException) -> bool:
    """A schema statement refused because another server applied the same one at that moment.

    Neo4j checks IF [NOT] EXISTS before it takes the schema lock, so two servers creating (or
    dropping) the same rule at once collide: the loser gets EquivalentSchemaRuleAlreadyExists
    (or a failed drop). Run again, the statement finds the other's committed result and does
    nothing; a real conflict fails on every attempt and is raised."""
    return isinstance(error, neo4j_errors.ClientError) and (error.code or "").startswith(
        "Neo.ClientError.Schema."
    )


@contextlib.contextmanager
def translated(uri: str, user: str) -> Generator[None]:
    """Driver exceptions that mean 'the database is unusable' become graphmem errors."""
    try:
        yield
    except neo4j_errors.AuthError as error:
        raise StoreAuthFailed(
            f"Neo4j at {uri} refused the credentials of user {user!r}. "
            "Check NEO4J_USER and NEO4J_PASSWORD."
        ) from error
    except neo4j_errors.ConstraintError as error:
        raise Conflict(
            "the write collided with a concurrent one on a unique key; retry it"
        ) from error
    except neo4j_errors.TransientError as error:  # still refused after the driver's retries
        raise TimedOut(f"Neo4j kept refusing the transaction: {error.code}") from error
    except neo4j_errors.ClientError as error:
        if not any(mark in (error.code or "") for mark in _TIMED_OUT):
            raise
        raise TimedOut(f"the transaction outlived its timeout: {error.code}") from error
    except _UNREACHABLE as error:
        raise StoreUnavailable(
            f"cannot reach Neo4j at {uri} ({error.__class__.__name__}). Check NEO4J_URI and "
            "that the server runs (`graphmem neo4j status` for the managed local one)."
        ) from error


def timed_out(error: BaseException) -> bool:
    """A transaction the server ended for running past its timeout (``error`` or, translated,
    its cause): a write may have caused it, unlike the database's other failures."""
    cause = error.__cause__ if isinstance(error, TimedOut) else error
    return isinstance(cause, neo4j_errors.ClientError) and any(
        mark in (cause.code or "") for mark in _TIMED_OUT
    )


def about_the_database(error: BaseException) -> bool:
    """An error that says nothing of the statement that raised it: the database unreachable,
    a transient refusal (a deadlock, a lock wait), a timeout. Any other error is the
    statement's own (a constraint, a refusal of the domain's)."""
    if isinstance(error, (*_UNREACHABLE, neo4j_errors.TransientError, neo4j_errors.DriverError)):
        return True
    if isinstance(error, neo4j_errors.ClientError):
        return any(mark in (error.code or "") for mark in _TIMED_OUT)
    return isinstance(error, (StoreUnavailable, TimedOut, StoreAuthFailed))
