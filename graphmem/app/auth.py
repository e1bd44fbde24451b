"""Bearer tokens for the HTTP transport: hashed at rest, mapped to a principal.

A principal is a tenant plus scopes (`read`, `write`, `admin`). Tokens come from a tokens file
managed by `graphmem token issue|revoke|list` (each entry: id, SHA-256 of the token, tenant,
scopes, label, created/revoked times; the file is written 0600 and re-read when it changes, so
a revocation takes effect on the next request) and from `GRAPHMEM_HTTP_TOKEN_SHA256` digests
(tenant `GRAPHMEM_TENANT`, scopes read and write). The clear token is shown once, at issue.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

from fastmcp.server.auth import AccessToken, TokenVerifier
from fastmcp.server.auth.providers.jwt import JWTVerifier
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

    tokens: list[TokenRecord] = Field(default_factory=list)

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


class GraphmemTokenVerifier(TokenVerifier):
    """Checks a presented token against the tokens file and the configured digests, and,
    when an identity provider's key is configured, as a JWT whose tenant claim names the
    principal's tenant (no tenant claim: refused)."""

    def __init__(
        self,
        digests: list[str],
        tenant: str,
        tokens_file: Path | None,
        jwt: JWTSettings | None = None,
    ) -> None:
        super().__init__()
        self._jwt = jwt
        self._jwt_verifier = (
            JWTVerifier(public_key=jwt.public_key, issuer=jwt.issuer, audience=jwt.audience)
            if jwt
            else None
        )
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

    async def verify_token(self, token: str) -> AccessToken | None:
        presented = token_digest(token)
        found: TokenRecord | None = None
        for record in self._records():  # compare with every entry: timing says nothing
            if hmac.compare_digest(presented, record.sha256) and found is None:
                found = record
        if found is None and self._jwt_verifier is not None and token.count(".") == 2:
            return await self._verify_jwt(token)
        if found is None or found.revoked_at is not None:
            return None
        return AccessToken(
            token=token,
            client_id=found.id,
            scopes=list(found.scopes),
            claims={"tenant": found.tenant, "token_id": found.id},
        )

    async def _verify_jwt(self, token: str) -> AccessToken | None:
        assert self._jwt_verifier is not None and self._jwt is not None
        verified = await self._jwt_verifier.verify_token(token)
        if verified is None:
            return None
        tenant = verified.claims.get(self._jwt.tenant_claim)
        if not isinstance(tenant, str) or not tenant or len(tenant) > 128:
            return None
        scopes = [scope for scope in verified.scopes if scope in ALL_SCOPES]
        return verified.model_copy(
            update={"scopes": scopes, "claims": {**verified.claims, "tenant": tenant}}
        )


@dataclass(frozen=True)
class JWTSettings:
    public_key: str
    issuer: str | None
    audience: str | None
    tenant_claim: str
