"""Bearer tokens for the HTTP transport, checked against configured SHA-256 digests.

Tokens are never stored in clear: the settings hold only their digests. (Scopes, per-token
tenants, issuing and revoking are the work of the credentials issue.)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from fastmcp.server.auth import AccessToken, TokenVerifier


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> tuple[str, str]:
    """A fresh random token and the digest to configure."""
    token = "gm_" + secrets.token_urlsafe(32)
    return token, token_digest(token)


class DigestTokenVerifier(TokenVerifier):
    def __init__(self, digests: list[str], tenant: str) -> None:
        super().__init__()
        self._digests = [digest.lower() for digest in digests]
        self._tenant = tenant

    async def verify_token(self, token: str) -> AccessToken | None:
        presented = token_digest(token)
        # Compare against every digest, constant-time, so timing says nothing.
        matched = False
        for digest in self._digests:
            matched |= hmac.compare_digest(presented, digest)
        if not matched:
            return None
        return AccessToken(
            token=token,
            client_id=f"token:{presented[:12]}",
            scopes=["read", "write"],
            claims={"tenant": self._tenant},
        )
