"""Bearer tokens for the HTTP transport, mapped to a principal: a tenant plus scopes (`read`,
`write`, `admin`).

Tokens come from a tokens file managed by `graphmem token issue|revoke|list` and from
`GRAPHMEM_HTTP_TOKEN_SHA256` digests (tokens.py keeps them hashed at rest), or, when an
identity provider's key is configured, are JWTs. The clear token is shown once, at issue.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fastmcp.server.auth import AccessToken, TokenVerifier
from fastmcp.server.auth.providers.jwt import JWTVerifier

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
        self._jwt_verifier = (
            JWTVerifier(
                public_key=jwt.public_key,
                jwks_uri=jwt.jwks_uri,
                issuer=jwt.issuer,
                audience=jwt.audience,
            )
            if jwt
            else None
        )
        self._tokens = TokenTable(digests, tenant, tokens_file)

    async def verify_token(self, token: str) -> AccessToken | None:
        found = self._tokens.find(token)
        if found is None:
            if self._jwt_verifier is not None and token.count(".") == 2:
                return await self._verify_jwt(token)
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
    public_key: str | None  # a PEM key, or
    jwks_uri: str | None  # the identity provider's published keys
    issuer: str | None
    audience: str  # this server's canonical URI unless configured (RFC 8707)
    tenant_claim: str
