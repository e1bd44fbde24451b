"""Bearer tokens at rest: SHA-256 digests in a tokens file (0600, re-read when it changes, so
a revocation takes effect on the next request) and in ``GRAPHMEM_HTTP_TOKEN_SHA256``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from graphmem.core.clock import utc_now
from graphmem.core.errors import ConfigurationError, NotFound

Scope = Literal["read", "write", "admin"]
ALL_SCOPES: tuple[Scope, ...] = ("read", "write", "admin")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> tuple[str, str]:
    """A fresh random token and the digest to configure."""
    token = "gm_" + secrets.token_urlsafe(32)
    return token, token_digest(token)


class TokenRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    tenant: str = Field(min_length=1, max_length=128)
    scopes: list[Scope]
    label: str | None = None
    created_at: datetime
    revoked_at: datetime | None = None


class TokenFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tokens: list[TokenRecord] = Field(default_factory=list[TokenRecord])

    @classmethod
    def load(cls, path: Path) -> TokenFile:
        if not path.exists():
            return cls()
        try:
            return cls.model_validate_json(path.read_text())
        except ValueError as error:
            raise ConfigurationError(f"tokens file {path} is not valid: {error}") from error

    def save(self, path: Path) -> None:
        """Atomic replace, readable by the owner only."""
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(self.model_dump_json(indent=1))
        partial.replace(path)


def issue_token(
    path: Path, tenant: str, scopes: list[Scope], label: str | None = None
) -> tuple[str, TokenRecord]:
    token, digest = new_token()
    record = TokenRecord(
        id="tok_" + secrets.token_hex(6),
        sha256=digest,
        tenant=tenant,
        scopes=sorted(set(scopes), key=ALL_SCOPES.index),
        label=label,
        created_at=utc_now(),
    )
    tokens = TokenFile.load(path)
    tokens.tokens.append(record)
    tokens.save(path)
    return token, record


def revoke_token(path: Path, token_id: str) -> TokenRecord:
    tokens = TokenFile.load(path)
    for record in tokens.tokens:
        if record.id == token_id:
            if record.revoked_at is None:
                record.revoked_at = utc_now()
                tokens.save(path)
            return record
    raise NotFound("token", token_id)


class TokenTable:
    """The accepted tokens: the configured digests (tenant ``tenant``, scopes read and write)
    and the tokens file's entries."""

    def __init__(self, digests: list[str], tenant: str, tokens_file: Path | None) -> None:
        self._env_records = [
            TokenRecord(
                id=f"env_{d[:8]}",
                sha256=d,
                tenant=tenant,
                scopes=["read", "write"],
                created_at=utc_now(),
            )
            for d in digests
        ]
        self._tokens_file = tokens_file
        self._loaded: tuple[float, list[TokenRecord]] = (-1.0, [])

    def _records(self) -> list[TokenRecord]:
        if self._tokens_file is None:
            return self._env_records
        try:
            mtime = self._tokens_file.stat().st_mtime
        except FileNotFoundError:
            mtime = 0.0
        if mtime != self._loaded[0]:
            self._loaded = (mtime, TokenFile.load(self._tokens_file).tokens)
        return self._env_records + self._loaded[1]

    def find(self, token: str) -> TokenRecord | None:
        """The live record of ``token``, or None (unknown or revoked)."""
        presented = token_digest(token)
        found: TokenRecord | None = None
        for record in self._records():  # compare with every entry: timing says nothing
            if hmac.compare_digest(presented, record.sha256) and found is None:
                found = record
        return found if found is not None and found.revoked_at is None else None
