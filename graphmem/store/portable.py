"""Row values as JSON, for export files (graphmem/transfer): a list of floats (an embedding)
packed as {"$f64": base64 of little-endian float64}, exact and a third of its text's size.
Temporal values never arrive here: the export's statements return them as Cypher's own text
(the driver's temporal objects are slow to build), see transfer/format.py."""

from __future__ import annotations

import base64
import struct
from typing import Any

MIN_PACKED = 8  # float lists at least this long are packed


def portable(value: Any) -> Any:
    kind = type(value)
    if kind in (str, int, float, bool, type(None)):
        return value
    if kind is list:
        if len(value) >= MIN_PACKED and all(type(item) is float for item in value):
            return {"$f64": base64.b64encode(struct.pack(f"<{len(value)}d", *value)).decode()}
        return [portable(item) for item in value]
    if kind is dict:
        return {name: portable(item) for name, item in value.items()}
    raise TypeError(f"no portable form for a {kind.__name__}")
