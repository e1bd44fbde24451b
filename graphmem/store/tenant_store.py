"""One tenant's view of the store: every statement it runs is scoped to that tenant."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from graphmem.store import continuations
from graphmem.store.continuations import Position
from graphmem.store.rows import Row
from graphmem.store.tx import Tx

if TYPE_CHECKING:
    from graphmem.store.store import Store

T = TypeVar("T")


@dataclass(frozen=True)
class TenantStore:
    """The store bound to one tenant, which is how the domain sees it: a service cannot run a
    statement for any other tenant, nor forget to pass one."""

    store: Store
    tenant: str

    async def read(self, name: str, **params: object) -> list[Row]:
        return await self.store.read(name, self.tenant, **params)

    async def write(self, name: str, **params: object) -> list[Row]:
        return await self.store.write(name, self.tenant, **params)

    async def write_transaction(
        self, label: str, work: Callable[[Tx], Awaitable[T]], *, budget: float | None = None
    ) -> T:
        return await self.store.write_transaction(label, self.tenant, work, budget=budget)

    async def write_statement(self, label: str, name: str, **params: object) -> list[Row] | None:
        return await self.store.write_statement(label, self.tenant, name, **params)

    def continuation(self, tool: str, position: Position | None) -> str | None:
        """A token for where a batched call stopped (None when it finished)."""
        if position is None:
            return None
        return continuations.issue(self.store.chain_key, tool, self.tenant, position)

    def resume(self, tool: str, token: str | None) -> Position | None:
        """The position a client's token names (None without one); a token this tenant's
        call was not given is ``invalid_argument``."""
        if token is None:
            return None
        return continuations.resume(self.store.chain_key, tool, self.tenant, token)
