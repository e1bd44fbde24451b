"""What every tool needs: the store, the settings, and the caller's tenant."""

from dataclasses import dataclass

from fastmcp.server.dependencies import get_access_token

from graphmem.app.settings import Settings
from graphmem.facts.verification import TrustedVerifiers
from graphmem.search.embeddings import Embedder
from graphmem.store import Store


@dataclass(frozen=True)
class Services:
    store: Store
    settings: Settings
    trusted_verifiers: TrustedVerifiers | None = None
    embedder: Embedder | None = None  # GRAPHMEM_EMBEDDINGS; None: no vector channel

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
