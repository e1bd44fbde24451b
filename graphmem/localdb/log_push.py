"""After an erasure on the managed Neo4j: push its transaction log past the erased content.

An erasure removes content from the graph, but Neo4j's transaction log keeps every committed
change, the erased text included (twice: as written, and as the before-image of its
deletion), and Neo4j Community offers no procedure to checkpoint or rotate it. The managed
config keeps as few log files as Neo4j allows (``GRAPHMEM_LOCAL_TX_LOG_RETENTION``, default
``keep_none``: the file holding the last checkpoint and newer ones), rotates small files
(``GRAPHMEM_LOCAL_TX_LOG_ROTATION``) and checkpoints often (``GRAPHMEM_LOCAL_CHECKPOINT_INTERVAL``).
What is left is to move the log on: filler transactions (random text on one LogFiller node of
the tenant) totalling one rotation and more, then one more transaction. The next checkpoint
then prunes every file that holds the erased content. Long filler strings also take the
freed string-store records, overwriting the erased text there.

docs/operations.md ("Copies an erasure cannot reach") says which copies remain and until when.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path

from graphmem.core.clock import utc_now_iso
from graphmem.core.settings import Settings
from graphmem.store import TenantStore

log = logging.getLogger("graphmem")

CHUNK = 1 << 20  # bytes of filler per transaction
_SIZE = re.compile(r"^(\d+)([kmg])$", re.IGNORECASE)
_UNIT = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def byte_size(value: str) -> int:
    """A Neo4j byte size as the managed config writes it (``4m``) in bytes."""
    matched = _SIZE.match(value)
    if matched is None:
        raise ValueError(f"not a size like 4m: {value!r}")
    return int(matched.group(1)) * _UNIT[matched.group(2).lower()]


async def push_transaction_log(db: TenantStore, rotation: int) -> int:
    """Write filler until the log has rotated past what was written before; the bytes."""
    written = 0
    while written <= rotation:
        filler = secrets.token_hex(CHUNK // 2)  # random: no two transactions alike
        await db.write("localdb/set_log_filler", filler=filler, now=utc_now_iso())
        written += CHUNK
    await db.write("localdb/delete_log_filler")
    return written


def log_pusher(settings: Settings) -> Callable[[TenantStore], Awaitable[bool]] | None:
    """What runs after an erasure: the push on the managed Neo4j; nothing on another (its
    operator's log settings rule there: docs/operations.md). The push sizes its filler by
    the rotation the running Neo4j was started with (its neo4j.conf), else the setting's. A
    push that fails is logged and costs only its shortening: the erasure stands."""
    if not settings.uses_local_database:
        return None
    conf = settings.data_dir / "conf" / "neo4j.conf"

    async def push(db: TenantStore) -> bool:
        rotation = max(running_rotation(conf) or 0, byte_size(settings.local_tx_log_rotation))
        try:
            await push_transaction_log(db, rotation)
        except Exception as error:  # the erasure committed: its answer must reach the caller
            log.warning(
                "the transaction log was not pushed past the erasure: %s", type(error).__name__
            )
            return False
        return True

    return push


def running_rotation(conf: Path) -> int | None:
    """The rotation size the managed Neo4j's neo4j.conf gives, or None."""
    try:
        lines = conf.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        name, _, value = line.partition("=")
        if name.strip() == "db.tx_log.rotation.size":
            try:
                return byte_size(value.strip())
            except ValueError:
                return None
    return None
