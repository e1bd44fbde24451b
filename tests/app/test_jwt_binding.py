"""JWTs bound to this server (RFC 8707), with keys from an identity provider's JWKS served on
loopback: a token for this server's canonical URI is accepted; one for another audience, an
expired one, one signed by a key the JWKS does not hold and an unsigned (`none`) one are each
refused with 401, an RFC 6750 `invalid_token` challenge and nothing internal in the body. The
protected resource metadata names the resource exactly as tokens must carry it."""

from __future__ import annotations

import base64
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key
from fastmcp.server.auth.providers.jwt import RSAKeyPair

from tests.app.helpers import INITIALIZE, HttpServer, clean_env, serving_http
from tests.neo4j_endpoint import Endpoint

ISSUER = "https://idp.example"
KID = "idp-key-1"


def _jwk(keys: RSAKeyPair) -> dict[str, str]:
    public = load_pem_public_key(keys.public_key.encode())
    assert isinstance(public, RSAPublicKey)
    numbers = public.public_numbers()

    def b64(value: int) -> str:
        raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    return {
        "kty": "RSA",
        "kid": KID,
        "use": "sig",
        "alg": "RS256",
        "n": b64(numbers.n),
        "e": b64(numbers.e),
    }


@pytest.fixture(scope="module")
def jwks() -> Iterator[tuple[str, RSAKeyPair]]:
    """The identity provider's JWKS on a loopback port; its URL and the key it publishes."""
    keys = RSAKeyPair.generate()
    body = json.dumps({"keys": [_jwk(keys)]}).encode()

    class Published(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Published)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/jwks.json", keys
    server.shutdown()


@pytest.fixture(scope="module")
def bound(neo4j_endpoint: Endpoint, jwks: tuple[str, RSAKeyPair]) -> Iterator[HttpServer]:
    env = clean_env(
        **neo4j_endpoint.env(),
        GRAPHMEM_JWT_JWKS_URI=jwks[0],
        GRAPHMEM_JWT_ISSUER=ISSUER,
        GRAPHMEM_AUTHORIZATION_SERVERS=ISSUER,
    )
    with serving_http(env) as server:
        yield server


def _post(url: str, token: str) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(  # noqa: S310 (loopback test server)
        url,
        data=INITIALIZE,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "Authorization": f"Bearer {token}",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def _unsigned(claims: dict[str, Any]) -> str:
    def part(document: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(document).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."


def test_only_tokens_for_this_server_are_accepted(
    bound: HttpServer, jwks: tuple[str, RSAKeyPair]
) -> None:
    keys, canonical = jwks[1], bound.url  # http://127.0.0.1:<port>/mcp

    def token(signer: RSAKeyPair = keys, audience: str = canonical, expires: int = 600) -> str:
        return signer.create_token(
            subject="agent",
            issuer=ISSUER,
            audience=audience,
            scopes=["read", "write"],
            expires_in_seconds=expires,
            additional_claims={"tenant": "jwt-bound"},
            kid=KID,
        )

    status, _, _ = _post(bound.url, token())
    assert status == 200
    claims = {
        "iss": ISSUER,
        "aud": canonical,
        "sub": "agent",
        "tenant": "jwt-bound",
        "scope": "read write",
        "exp": 4102444800,
    }
    refused = {
        "another audience": token(audience="https://elsewhere.example/mcp"),
        "expired": token(expires=-60),
        "an unknown key": token(signer=RSAKeyPair.generate()),
        "no signature": _unsigned(claims),
    }
    for why, bad in refused.items():
        status, headers, body = _post(bound.url, bad)
        challenge = headers.get("www-authenticate") or headers.get("WWW-Authenticate") or ""
        assert status == 401, why
        assert 'error="invalid_token"' in challenge, (why, challenge)
        assert "Traceback" not in body and "jwks" not in body.lower(), (why, body)


def test_the_metadata_names_the_resource_tokens_carry(bound: HttpServer) -> None:
    base = bound.url.removesuffix("/mcp")
    with urllib.request.urlopen(  # noqa: S310 (loopback test server)
        f"{base}/.well-known/oauth-protected-resource/mcp", timeout=10
    ) as response:
        metadata = json.loads(response.read())
    assert metadata["resource"] == bound.url


@pytest.mark.pure
def test_a_jwks_url_is_tls_or_loopback() -> None:
    from pydantic import ValidationError

    from graphmem.core.settings import Settings

    for accepted in ("https://idp.example/jwks.json", "http://127.0.0.1:9000/jwks.json"):
        assert Settings(jwt_jwks_uri=accepted).has_credentials
    for refused in ("http://idp.example/jwks.json", "file:///etc/keys", "ftp://x"):
        with pytest.raises(ValidationError, match="https"):
            Settings(jwt_jwks_uri=refused)
