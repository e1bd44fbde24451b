"""The one error tree of graphmem.

    GraphmemError                 every error graphmem raises on purpose
    ├── InvalidArgument           bad input; names the field          (code: invalid_argument)
    ├── NotFound                  no such thing for this tenant        (code: not_found)
    ├── Conflict                  state changed under the caller       (code: conflict)
    │   └── InvalidState          not allowed in the entity's state     (code: invalid_state)
    ├── PermissionDenied          the principal may not do this        (code: permission_denied)
    ├── ConfigurationError        settings or environment are unusable (code: configuration)
    │   ├── JavaNotFound          no Java 17 or 21 to run Neo4j
    │   └── PortInUse             a configured port is taken
    ├── LocalDatabaseError        the managed local Neo4j failed       (code: local_database)
    │   ├── ArtifactDownloadFailed   Maven repository unreachable or jar corrupt
    │   └── DatabaseStartFailed      the server process did not come up
    └── StoreError                the database failed                  (code: store_unavailable)
        ├── StoreUnavailable      cannot reach Neo4j
        └── StoreAuthFailed       Neo4j refused the credentials

Domain code raises these; the store translates driver exceptions into them with
``raise ... from e``; the MCP boundary (``graphmem.app.boundary``) turns them into tool errors,
and the CLI into a one-line message. Anything else is a bug and is masked from clients.
Every message says what went wrong and, where it can, what to do about it.
"""

from __future__ import annotations


class GraphmemError(Exception):
    """Base of every deliberate graphmem error."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def payload(self) -> dict[str, object]:
        """The machine-readable form sent to MCP clients."""
        return {"error": self.code, "message": self.message}


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


class Conflict(GraphmemError):
    code = "conflict"


class InvalidState(Conflict):
    """An operation the entity's lifecycle state does not allow; names the state."""

    code = "invalid_state"

    def __init__(self, kind: str, ref: str, state: str, message: str) -> None:
        super().__init__(f"{kind} {ref!r} is {state}: {message}")
        self.state = state

    def payload(self) -> dict[str, object]:
        return {**super().payload(), "state": self.state}


class PermissionDenied(GraphmemError):
    code = "permission_denied"


class ConfigurationError(GraphmemError):
    code = "configuration"


class JavaNotFound(ConfigurationError):
    pass


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


class StoreUnavailable(StoreError):
    pass


class StoreAuthFailed(StoreError):
    pass
