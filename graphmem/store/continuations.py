"""Continuation tokens: where a batched call stopped, handed to the client and taken back.

A token carries its position (JSON) and a MAC over the tool, the tenant, the position and the
time it was issued, under a secret derived from the history key (so every graphmem process of
one database accepts the others' tokens), or a per-process secret when the history is not
keyed. A token that does not verify, was issued to another tool or tenant, or is older than
``MAX_AGE`` is refused in the same words whatever the reason: no existence oracle.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
from typing import TypeAlias, TypedDict, cast

from graphmem.core.errors import InvalidArgument
from graphmem.core.keys import ChainKey

MAX_AGE = 3600  # seconds a token stays valid
MAX_TOKEN_CHARS = 1024
_PROCESS_SECRET = secrets.token_bytes(32)
_REFUSAL = "is not one this server issued for this call, or has expired: call again without it"

Position: TypeAlias = dict[str, object]
"""Where a batched call stopped, in the tool's own JSON terms (the next batch's start)."""


class _Body(TypedDict):
    """A token's signed body."""

    p: Position
    i: int  # when it was issued, in Unix seconds


def issue(key: ChainKey | None, tool: str, tenant: str, position: Position) -> str:
    body = json.dumps(_Body(p=position, i=int(time.time())), separators=(",", ":"))
    return f"{_encode(body.encode())}.{_encode(_mac(key, tool, tenant, body))}"


def resume(key: ChainKey | None, tool: str, tenant: str, token: str) -> Position:
    """The position a token names; InvalidArgument('continuation') for any other token."""
    try:
        encoded_body, encoded_mac = token.split(".")
        body = _decode(encoded_body).decode()
        if not hmac.compare_digest(_decode(encoded_mac), _mac(key, tool, tenant, body)):
            raise ValueError("mac")
        parsed = json.loads(body)
        position, issued = parsed["p"], parsed["i"]
        if not isinstance(position, dict) or not 0 <= time.time() - issued <= MAX_AGE:
            raise ValueError("age")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, binascii.Error):
        raise InvalidArgument("continuation", _REFUSAL) from None
    return cast(Position, position)  # a JSON object: its keys are text


def _secret(key: ChainKey | None) -> bytes:
    if key is None:
        return _PROCESS_SECRET
    return hmac.new(key.secret, b"graphmem-continuation", hashlib.sha256).digest()


def _mac(key: ChainKey | None, tool: str, tenant: str, body: str) -> bytes:
    material = json.dumps([tool, tenant, body]).encode()
    return hmac.new(_secret(key), material, hashlib.sha256).digest()[:16]


def _encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
