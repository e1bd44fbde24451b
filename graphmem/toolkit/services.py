"""What every tool needs: the store, the settings, the retrieval parts, and the caller's
tenant."""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from graphmem.core.settings import Settings
from graphmem.store import Store, TenantStore
from graphmem.toolkit.retrieval import WITHOUT_MODELS, Retrieval
from graphmem.toolkit.startup import StoreGate


@dataclass(frozen=True)
class Services:
    gate: StoreGate  # the store, once open (calls wait for it: graphmem/toolkit/startup.py)
    settings: Settings
    # the tenant the caller's credentials name, if any (the transport's: graphmem/app/tools.py);
    # required, so no constructor can forget it and serve a token's caller as the default tenant
    credentials_tenant: Callable[[], str | None]
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
        return self.credentials_tenant() or self.settings.tenant
