"""The one error tree of graphmem.

    GraphmemError                  every error graphmem raises on purpose
    ├── InvalidArgument            bad input; names the field             (code: invalid_argument)
    ├── NotFound                   no such thing for this tenant          (code: not_found)
    ├── Conflict                   the call's expectation no longer holds (code: conflict)
    ├── InvalidState               not allowed from the record's state    (code: invalid_state)
    ├── PermissionDenied           the principal may not do this          (code: permission_denied)
    ├── ConfigurationError         settings or environment are unusable   (code: configuration)
    │   ├── JavaNotFound           no Java 17 or 21 to run Neo4j
    │   ├── VectorSpaceMismatch    the model is not the one that made the vectors
    │   └── PortInUse              a configured port is taken
    ├── LocalDatabaseError         the managed local Neo4j failed         (code: local_database)
    │   ├── ArtifactDownloadFailed Maven repository unreachable or jar corrupt
    │   └── DatabaseStartFailed    the server process did not come up
    ├── StoreError                 the database failed                    (code: store_unavailable)
    │   ├── StoreUnavailable       cannot reach Neo4j
    │   └── StoreAuthFailed        Neo4j refused the credentials
    │       └── HistoryKeyMismatch the tenant's history has another key
    └── TimedOut                   the call did not finish in time        (code: timed_out)

Subclasses that live beside their use (each keeps its parent's code unless it names one):
``Starting`` (code: starting) and ``DatabaseNotStarted`` (a StoreError) in toolkit/startup.py,
``VerificationRefused`` (code: verification_refused) in facts/attestation.py,
``ExtractRefused`` (an InvalidState) in knowledge/, ``BackupRefused`` and
``BackupFailed`` (LocalDatabaseErrors) in localdb/backup.py, ``FetchFailed`` and
``EmbeddingsUnavailable`` (ConfigurationErrors) in embeddings/, and ``BadExportFile`` (code:
invalid_file) in transfer/load.py.

One code per meaning: a call refused because of where a record *is* — its status or state does
not allow the operation (governing a fact that is no longer active, acknowledging a signal
that is not open, recording an outcome on an ended attempt, changing a final decision) — is
``invalid_state``, naming the state. ``conflict`` is only for a call whose expectation of the
graph no longer holds: an idempotency key reused with other arguments, an expected version or
revision that moved, a concurrent write that collided on a unique key.

Domain code raises these; the store translates driver exceptions into them with
``raise ... from e``; the MCP boundary (``graphmem.app.boundary``) turns them into tool errors,
and the CLI into a one-line message. Anything else is a bug and is masked from clients.
Every message says what went wrong and, where it can, what to do about it.

Two audiences: ``message`` is for the operator (CLI, server log) and may name addresses, users
and files; ``client_payload()`` is what an MCP client sees, and for the errors about the
server's own environment (store, timeouts) it is one plain sentence with no internals, plus
``retryable`` where repeating the call can help.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TypeVar

R = TypeVar("R")  # a row, typed as its statement's TypedDict


class GraphmemError(Exception):
    """Base of every deliberate graphmem error."""

    code = "error"
    retryable = False  # whether the same call may succeed later

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def payload(self) -> dict[str, object]:
        """The machine-readable form, with the full message (CLI and server log)."""
        return {"error": self.code, "message": self.message}

    def client_payload(self) -> dict[str, object]:
        """What an MCP client sees; by default the payload itself (input errors name only
        what the caller sent)."""
        payload = self.payload()
        if self.retryable:
            payload["retryable"] = True
        return payload


class InvalidArgument(GraphmemError):
    code = "invalid_argument"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field

    def payload(self) -> dict[str, object]:
        return {**super().payload(), "field": self.field}


class NotFound(GraphmemError):
    """Same message for 'never existed' and 'belongs to another tenant': no existence oracle."""

    code = "not_found"

    def __init__(self, kind: str, ref: str) -> None:
        super().__init__(f"{kind} {ref!r} not found")
        self.kind = kind


def first_row(rows: list[R], kind: str, ref: str) -> R:
    """The first row of a lookup, or NotFound naming what was looked up."""
    if not rows:
        raise NotFound(kind, ref)
    return rows[0]


class Conflict(GraphmemError):
    """The graph is not as the call expected it (key reused, version moved, collision)."""

    code = "conflict"


class InvalidState(GraphmemError):
    """An operation the entity's lifecycle state does not allow; names the state."""

    code = "invalid_state"

    def __init__(self, kind: str, ref: str, state: str, message: str) -> None:
        super().__init__(f"{kind} {ref!r} is {state}: {message}")
        self.state = state

    def payload(self) -> dict[str, object]:
        return {**super().payload(), "state": self.state}


def require_state(kind: str, ref: str, state: str, allowed: Collection[str], why: str) -> None:
    """Refuse with invalid_state, naming ``state``, unless it is one of ``allowed``."""
    if state not in allowed:
        raise InvalidState(kind, ref, state, why)


class PermissionDenied(GraphmemError):
    code = "permission_denied"


class ConfigurationError(GraphmemError):
    code = "configuration"


class JavaNotFound(ConfigurationError):
    pass


class VectorSpaceMismatch(ConfigurationError):
    """The configured embedding model is not the one that made the database's vectors."""


class PortInUse(ConfigurationError):
    pass


class LocalDatabaseError(GraphmemError):
    code = "local_database"


class ArtifactDownloadFailed(LocalDatabaseError):
    pass


class DatabaseStartFailed(LocalDatabaseError):
    pass


class StoreError(GraphmemError):
    code = "store_unavailable"
    retryable = True
    client_message = (
        "The database is not reachable right now. Retry in a moment; if it persists, the "
        "operator will find the cause in the server log (graphmem neo4j status for the "
        "managed database)."
    )

    def client_payload(self) -> dict[str, object]:
        return {"error": self.code, "message": self.client_message, "retryable": True}


class StoreUnavailable(StoreError):
    pass


class StoreAuthFailed(StoreError):
    retryable = False
    client_message = (
        "The server cannot sign in to its database. This is the operator's to fix; the "
        "server log says what to check."
    )

    def client_payload(self) -> dict[str, object]:
        return {"error": self.code, "message": self.client_message, "retryable": False}


class HistoryKeyMismatch(StoreAuthFailed):
    """The tenant's history is keyed with another key than this server's: writing would leave
    a chain no one key can verify, so writes are refused until the operator restores it."""

    client_message = (
        "The server's history key is not the one this tenant's history was written with, so "
        "writes are refused. This is the operator's to fix; the server log says what to check."
    )


class TimedOut(GraphmemError):
    """A transaction outlived its timeout, or the database kept refusing it (busy tenant)."""

    code = "timed_out"
    retryable = True
    client_message = (
        "The call did not finish in time (the database is busy or the tenant's writes are "
        "queued). Nothing was changed; retry it."
    )

    def client_payload(self) -> dict[str, object]:
        return {"error": self.code, "message": self.client_message, "retryable": True}
