"""A channel: one way of finding candidates, ranked best first. A new one is a file in this
package implementing ``Channel``, a member of ``ChannelName`` and its weights (plans.py,
ranking.py), and its place in ``fusion.CHANNELS``."""

from __future__ import annotations

from typing import Protocol

from graphmem.search.channels.context import Hit, Reading
from graphmem.search.channels.names import ChannelName


class Channel(Protocol):
    @property
    def name(self) -> ChannelName: ...

    @property
    def expands(self) -> bool:
        """True: it reads the fusion of the channels before it (``Reading.fused``), after
        them; False: it reads the query, at once with the other such channels."""
        ...

    async def ranked(self, reading: Reading) -> list[Hit] | None:
        """Its hits, best first; None when it has nothing to read (no query vector, no
        seeds) and so takes no part in the ranking."""
        ...
