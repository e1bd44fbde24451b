"""Server-generated, time-ordered identifiers (UUIDv7 layout: 48-bit ms timestamp + random)."""

from __future__ import annotations

import os
import time
import uuid


def new_id() -> str:
    millis = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (millis & ((1 << 48) - 1)) << 80 | rand & ((1 << 80) - 1)
    value = value & ~(0xF << 76) | 0x7 << 76  # version 7
    value = value & ~(0x3 << 62) | 0x2 << 62  # RFC 4122 variant
    return str(uuid.UUID(int=value))
