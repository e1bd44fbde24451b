"""The fact this process last recorded on each key: what a one-statement record_fact expects
to supersede (facts/record_fact_at_head). A guess that saves the managed write's round trips,
never an answer: the statement writes only when the key's current fact is still this one, so
an entry gone stale (another process wrote, a governance step, an erasure) costs one
statement and the managed write, nothing else."""

from __future__ import annotations

from collections import OrderedDict
from weakref import WeakKeyDictionary

from graphmem.store import Store

REMEMBERED = 4096  # keys per store, the least recently recorded forgotten first
Slot = tuple[str, str, str]  # tenant, owner, key


class LastRecorded:
    """Per (tenant, owner, key), the id of the fact this process recorded there last."""

    def __init__(self, bound: int = REMEMBERED) -> None:
        self._ids: OrderedDict[Slot, str] = OrderedDict()
        self._bound = bound

    def get(self, slot: Slot) -> str | None:
        return self._ids.get(slot)

    def remember(self, slot: Slot, fact_id: str) -> None:
        self._ids[slot] = fact_id
        self._ids.move_to_end(slot)
        while len(self._ids) > self._bound:
            self._ids.popitem(last=False)

    def forget(self, slot: Slot) -> None:
        self._ids.pop(slot, None)


_BY_STORE: WeakKeyDictionary[Store, LastRecorded] = WeakKeyDictionary()


def last_recorded(store: Store) -> LastRecorded:
    found = _BY_STORE.get(store)
    if found is None:
        found = _BY_STORE[store] = LastRecorded()
    return found
