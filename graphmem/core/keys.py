"""The history key: events and checkpoints are chained with HMAC-SHA256 under a secret kept
outside the database, so whoever can write the database cannot rewrite history undetected.

The key lives in a file (``GRAPHMEM_HISTORY_KEY_FILE``, default ``<data dir>/history.key``),
created on first start with mode 0600; a file others can read is refused. Every graphmem
process writing the same database must use the same file. The key is never logged; what
events record is its id (a hash of it), so a wrong key is told apart from tampering.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from graphmem.core.errors import ConfigurationError

KEY_BYTES = 32
SCHEME = "hmac-sha256"


@dataclass(frozen=True)
class ChainKey:
    secret: bytes = field(repr=False)

    @property
    def key_id(self) -> str:
        """Names the key without revealing it."""
        return hashlib.sha256(b"graphmem-history-key-id\0" + self.secret).hexdigest()[:16]

    def mac(self, material: bytes) -> str:
        return hmac.new(self.secret, material, hashlib.sha256).hexdigest()


def load_or_create(path: Path) -> ChainKey:
    """The key in ``path``; a new one, created 0600, if there is none (several processes
    starting at once end up with the same key: the first file published wins)."""
    return _opened(path, create=True)


def load(path: Path) -> ChainKey:
    """The key in ``path``, which must exist (checking history never makes a new key)."""
    if not path.exists():
        raise ConfigurationError(
            f"no history key file at {path}: point GRAPHMEM_HISTORY_KEY_FILE at the key the "
            "history was written with"
        )
    return _opened(path, create=False)


def _opened(path: Path, create: bool) -> ChainKey:
    try:
        return _load(path, create)
    except OSError as error:
        raise ConfigurationError(
            f"cannot read or create the history key file {path} ({error.strerror}): set "
            "GRAPHMEM_HISTORY_KEY_FILE to a file this user can write"
        ) from error


def _load(path: Path, create: bool) -> ChainKey:
    if create and not path.exists():
        _publish_new_key(path)
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        raise ConfigurationError(
            f"history key file {path} is open to others (mode {mode:o}): chmod 600 it"
        )
    text = path.read_text().strip()
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) != KEY_BYTES:
        raise ConfigurationError(
            f"history key file {path} does not hold a {KEY_BYTES}-byte hex key"
        )
    return ChainKey(secret)


def _publish_new_key(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    partial = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_hex(KEY_BYTES) + "\n")
            handle.flush()
            os.fsync(handle.fileno())  # on disk before any event is chained with it
        with contextlib.suppress(FileExistsError):  # another process published first
            os.link(partial, path)
    finally:
        partial.unlink(missing_ok=True)
