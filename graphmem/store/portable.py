"""Property values as JSON and back, losslessly, for export files (graphmem/transfer).

Neo4j property values are scalars, temporal values or lists of one of them (never maps), so a
JSON object always marks a typed value: {"$datetime": iso} (with an offset), {"$zoned":
"iso[Zone/Id]"}, {"$localdatetime": iso}, {"$date": iso}, {"$duration": iso}, {"$time": iso},
{"$localtime": iso}, and {"$f64": base64} for a list of floats (embeddings: little-endian
float64, exact and a third of the text's size).
"""

from __future__ import annotations

import base64
import struct
from datetime import timezone
from typing import Any
from zoneinfo import ZoneInfo

from neo4j.time import Date, DateTime, Duration, Time

MIN_PACKED = 8  # float lists at least this long are packed


def portable(value: Any) -> Any:
    kind = type(value)
    if kind in (str, int, bool, type(None)) or kind is float:
        return value
    if kind is list:
        if len(value) >= MIN_PACKED and all(type(item) is float for item in value):
            return {"$f64": base64.b64encode(struct.pack(f"<{len(value)}d", *value)).decode()}
        return [portable(item) for item in value]
    if kind is dict:  # a map a statement returns (properties(n)); property values are never maps
        return {name: portable(item) for name, item in value.items()}
    if isinstance(value, DateTime):
        if value.tzinfo is None:
            return {"$localdatetime": value.iso_format()}
        zone = _zone_name(value)
        if zone is not None:
            return {"$zoned": f"{value.iso_format()}[{zone}]"}
        return {"$datetime": value.iso_format()}
    if isinstance(value, Date):
        return {"$date": value.iso_format()}
    if isinstance(value, Time):
        return {"$time" if value.tzinfo is not None else "$localtime": value.iso_format()}
    if isinstance(value, Duration):
        return {"$duration": value.iso_format()}
    raise TypeError(f"no portable form for a {kind.__name__}")


def _zone_name(value: DateTime) -> str | None:
    """The zone id of a datetime stored with one (Neo4j keeps "Europe/Paris" apart from an
    offset); None for an offset. The driver reads an offset of zero as the zone "UTC" (and
    graphmem writes offsets), so "UTC" is taken as the offset."""
    zone = getattr(value.tzinfo, "zone", None) or getattr(value.tzinfo, "key", None)
    return None if zone in (None, "UTC") else zone


def _offset_datetime(text: str) -> DateTime:
    # from_iso_format names UTC as a zone; the driver would then store "[UTC]", not an offset
    value = DateTime.from_iso_format(text)
    offset = value.utcoffset()
    return value if offset is None else value.replace(tzinfo=timezone(offset))


def _zoned_datetime(text: str) -> DateTime:
    moment, _, zone = text.rstrip("]").partition("[")
    value = _offset_datetime(moment)
    return DateTime.from_native(value.to_native().astimezone(ZoneInfo(zone)))


_PARSERS = {
    "$datetime": _offset_datetime,
    "$zoned": _zoned_datetime,
    "$localdatetime": DateTime.from_iso_format,
    "$date": Date.from_iso_format,
    "$time": Time.from_iso_format,
    "$localtime": Time.from_iso_format,
    "$duration": Duration.from_iso_format,
}


def native(value: Any) -> Any:
    """The driver value of a portable one (raises ValueError on a malformed typed value)."""
    if isinstance(value, list):
        return [native(item) for item in value]
    if not isinstance(value, dict):
        return value
    if len(value) != 1:
        raise ValueError("a typed value has exactly one tag")
    [(tag, text)] = value.items()
    if not isinstance(text, str):
        raise ValueError(f"{tag} needs a string")
    if tag == "$f64":
        packed = base64.b64decode(text, validate=True)
        if len(packed) % 8:
            raise ValueError("$f64 is not a whole number of float64 values")
        return list(struct.unpack(f"<{len(packed) // 8}d", packed))
    parser = _PARSERS.get(tag)
    if parser is None:
        raise ValueError(f"unknown typed value {tag}")
    return parser(text)


def native_properties(properties: dict[str, Any]) -> dict[str, Any]:
    return {name: native(value) for name, value in properties.items()}
