"""Bearer tokens for the HTTP transport, mapped to a principal: a tenant plus scopes (`read`,
`write`, `admin`).

Tokens come from a tokens file managed by `graphmem token issue|revoke|list` and from
`GRAPHMEM_HTTP_TOKEN_SHA256` digests (tokens.py keeps them hashed at rest), or, when an
identity provider's key is configured, are JWTs. The clear token is shown once, at issue.

A JWT verifies only under an algorithm of GRAPHMEM_JWT_ALGORITHMS (asymmetric ones, RS256 by
default: never `none`, never HS* keyed with the public key) and only with an expiry (`exp`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import cast

from fastmcp.server.auth import AccessToken, TokenVerifier
from fastmcp.server.auth.providers.jwt import JWTVerifier
from fastmcp.utilities.auth import decode_jwt_header

from graphmem.app.tokens import ALL_SCOPES, TokenTable


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
        self._jwt_verifiers = _jwt_verifiers(jwt) if jwt is not None else {}
        self._tokens = TokenTable(digests, tenant, tokens_file)

    async def verify_token(self, token: str) -> AccessToken | None:
        found = self._tokens.find(token)
        if found is None:
            if self._jwt_verifiers and token.count(".") == 2:
                return await self._verify_jwt(token)
            return None
        return AccessToken(
            token=token,
            client_id=found.id,
            scopes=list(found.scopes),
            claims={"tenant": found.tenant, "token_id": found.id},
        )

    async def _verify_jwt(self, token: str) -> AccessToken | None:
        assert self._jwt is not None
        verifier = self._jwt_verifiers.get(_algorithm(token) or "")
        verified = await verifier.verify_token(token) if verifier is not None else None
        expires = verified.claims.get("exp") if verified is not None else None
        if verified is None or not isinstance(expires, int | float) or isinstance(expires, bool):
            return None  # FastMCP accepts a token without `exp` (or a null one) for ever
        tenant = verified.claims.get(self._jwt.tenant_claim)
        if not isinstance(tenant, str) or not tenant or len(tenant) > 128:
            return None
        scopes = [scope for scope in verified.scopes if scope in ALL_SCOPES]
        return verified.model_copy(
            update={"scopes": scopes, "claims": {**verified.claims, "tenant": tenant}}
        )


def _jwt_verifiers(jwt: JWTSettings) -> dict[str, JWTVerifier]:
    """FastMCP's verifier checks one algorithm: one per accepted algorithm, picked by the
    token's header (any other algorithm, `none` included, is refused before a key is used)."""
    return {
        algorithm: JWTVerifier(
            public_key=jwt.public_key,
            jwks_uri=jwt.jwks_uri,
            issuer=jwt.issuer,
            audience=jwt.audience,
            algorithm=algorithm,
        )
        for algorithm in jwt.algorithms
    }


def _algorithm(token: str) -> str | None:
    """The algorithm a token's header names (None when it names none or does not parse)."""
    try:
        header = cast("object", decode_jwt_header(token))  # typed a dict: any JSON parses
    except ValueError:  # base64 and JSON errors included
        return None
    algorithm = cast("dict[str, object]", header).get("alg") if isinstance(header, dict) else None
    return algorithm if isinstance(algorithm, str) else None


@dataclass(frozen=True)
class JWTSettings:
    public_key: str | None  # a PEM key, or
    jwks_uri: str | None  # the identity provider's published keys
    issuer: str | None  # required with jwks_uri (server.load_jwt_settings)
    audience: str  # this server's canonical URI unless configured (RFC 8707)
    tenant_claim: str
    algorithms: tuple[str, ...] = ("RS256",)  # asymmetric only (settings.JWT_ALGORITHMS)
