"""What every tool needs: the store, the settings, the retrieval parts, and the caller's
tenant."""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from fastmcp import FastMCP
from fastmcp.server.dependencies import get_access_token, get_server

from graphmem.core.attestation import TrustedVerifiers
from graphmem.core.settings import Settings
from graphmem.store import Store, TenantStore
from graphmem.toolkit.retrieval import WITHOUT_MODELS, Retrieval
from graphmem.toolkit.startup import StoreGate


@dataclass(frozen=True)
class Services:
    gate: StoreGate  # the store, once open (calls wait for it: graphmem/toolkit/startup.py)
    settings: Settings
    trusted_verifiers: TrustedVerifiers | None = None
    # the embedder and a second stage (toolkit/retrieval.py), loaded at first use unless the
    # store's opening decided on them (the gate's): see ``retrieval``
    configured_retrieval: Callable[[], Retrieval] = lambda: WITHOUT_MODELS
    # after an erasure erased something: what the process can do about copies outside the
    # graph (the managed Neo4j's transaction log: localdb/log_push.py); None: nothing
    after_erasure: Callable[[TenantStore], Awaitable[object]] | None = None

    @property
    def retrieval(self) -> Retrieval:
        decided = self.gate.retrieval
        return decided if decided is not None else self.configured_retrieval()

    @property
    def store(self) -> Store:
        return self.gate.store

    def db(self) -> TenantStore:
        """The store as the caller's tenant sees it."""
        return self.store.of(self.tenant())

    def tenant(self) -> str:
        """The caller's tenant: from its credentials on HTTP, else the configured default.

        Never from a tool argument.
        """
        token = get_access_token()
        if token is not None:
            claimed = token.claims.get("tenant")
            if isinstance(claimed, str) and claimed:
                return claimed
        return self.settings.tenant


# A server's services, found by the server that handles the call: tool functions are derived
# once per handler and shared by every server in the process (see toolspec.mcp_tool).
_SERVICES: WeakKeyDictionary[FastMCP, Services] = WeakKeyDictionary()


def attach(server: FastMCP, services: Services) -> None:
    _SERVICES[server] = services


def current_services() -> Services:
    """The services of the server handling the current call."""
    return _SERVICES[get_server()]
