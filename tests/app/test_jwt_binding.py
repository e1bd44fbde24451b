"""JWTs bound to this server (RFC 8707), with keys from an identity provider's JWKS served on
loopback: a token for this server's canonical URI is accepted; one for another audience, an
expired one, one without an expiry, one signed by a key the JWKS does not hold, an unsigned
(`none`) one and one MACed with the public key (HS256) are each refused with 401, an RFC 6750
`invalid_token` challenge and nothing internal in the body. Only the algorithms configured
(GRAPHMEM_JWT_ALGORITHMS, RS256 by default) verify. The protected resource metadata names the
resource exactly as tokens must carry it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key
from fastmcp.server.auth.providers.jwt import RSAKeyPair
from joserfc import jwk, jwt

from graphmem.app.auth import GraphmemTokenVerifier, JWTSettings
from graphmem.app.server import load_jwt_settings
from graphmem.core.errors import ConfigurationError
from graphmem.core.settings import Settings
from tests.app.helpers import INITIALIZE, HttpServer, clean_env, serving_http
from tests.neo4j_endpoint import Endpoint

ISSUER = "https://idp.example"
KID = "idp-key-1"
EC_KID = "idp-ec-key-1"
AUDIENCE = "http://127.0.0.1:8000/mcp"
EC_PRIVATE = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
)


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


def _ec_jwk() -> dict[str, Any]:
    public = jwk.import_key(EC_PRIVATE, "EC").as_dict(private=False)
    return {**public, "kid": EC_KID, "use": "sig", "alg": "ES256"}


@pytest.fixture(scope="module")
def jwks() -> Iterator[tuple[str, RSAKeyPair]]:
    """The identity provider's JWKS on a loopback port; its URL and the RSA key it publishes
    (beside an EC key, for ES256)."""
    keys = RSAKeyPair.generate()
    body = json.dumps({"keys": [_jwk(keys), _ec_jwk()]}).encode()

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


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _hs256_with(secret: bytes, claims: dict[str, Any]) -> str:
    """HS256 keyed with ``secret``: with the public key as secret, the algorithm confusion."""
    header = {"alg": "HS256", "typ": "JWT", "kid": KID}
    signed = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(claims).encode())}"
    mac = hmac.new(secret, signed.encode(), hashlib.sha256).digest()
    return f"{signed}.{_b64(mac)}"


def _signed(private_pem: str | bytes, claims: dict[str, Any], alg: str, kid: str) -> str:
    key = jwk.import_key(private_pem, "RSA" if alg.startswith(("RS", "PS")) else "EC")
    return jwt.encode({"alg": alg, "kid": kid}, claims, key, algorithms=[alg])


def _claims(audience: str, **more: Any) -> dict[str, Any]:
    claims = {"iss": ISSUER, "aud": audience, "sub": "agent", "tenant": "jwt-bound"}
    return {**claims, "scope": "read write", "exp": int(time.time()) + 600, **more}


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
    claims = _claims(canonical)
    no_expiry = {k: v for k, v in claims.items() if k != "exp"}
    private = keys.private_key.get_secret_value()
    refused = {
        "another audience": token(audience="https://elsewhere.example/mcp"),
        "expired": token(expires=-60),
        "no expiry": _signed(private, no_expiry, "RS256", KID),
        "a null expiry": _signed(private, {**no_expiry, "exp": None}, "RS256", KID),
        "a text expiry": _signed(private, {**no_expiry, "exp": "4102444800"}, "RS256", KID),
        "an unknown key": token(signer=RSAKeyPair.generate()),
        "no signature": _unsigned(claims),
        "HS256 keyed with the public key": _hs256_with(keys.public_key.encode(), claims),
        "ES256, not accepted by default": _signed(EC_PRIVATE, claims, "ES256", EC_KID),
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


def _verifier(jwks_uri: str, *algorithms: str) -> GraphmemTokenVerifier:
    settings = JWTSettings(None, jwks_uri, ISSUER, AUDIENCE, "tenant", algorithms)
    return GraphmemTokenVerifier([], "default", None, settings)


@pytest.mark.pure
async def test_only_the_configured_algorithms_verify(jwks: tuple[str, RSAKeyPair]) -> None:
    private = jwks[1].private_key.get_secret_value()
    rs256 = _signed(private, _claims(AUDIENCE), "RS256", KID)
    es256 = _signed(EC_PRIVATE, _claims(AUDIENCE), "ES256", EC_KID)
    both = _verifier(jwks[0], "RS256", "ES256")
    assert await both.verify_token(rs256) is not None
    assert await both.verify_token(es256) is not None
    only_ec = _verifier(jwks[0], "ES256")
    assert await only_ec.verify_token(es256) is not None
    assert await only_ec.verify_token(rs256) is None
    for confused in (_hs256_with(jwks[1].public_key.encode(), _claims(AUDIENCE)), "a.b.c"):
        assert await both.verify_token(confused) is None
    no_expiry = {k: v for k, v in _claims(AUDIENCE).items() if k != "exp"}
    assert await both.verify_token(_signed(EC_PRIVATE, no_expiry, "ES256", EC_KID)) is None


@pytest.mark.pure
def test_a_jwks_uri_needs_an_issuer() -> None:
    settings = Settings(jwt_jwks_uri="https://idp.example/jwks.json")
    with pytest.raises(ConfigurationError, match="GRAPHMEM_JWT_ISSUER") as refused:
        load_jwt_settings(settings)
    assert "\n" not in str(refused.value)
    issued = settings.model_copy(update={"jwt_issuer": ISSUER})
    loaded = load_jwt_settings(issued)
    assert loaded is not None and loaded.issuer == ISSUER and loaded.algorithms == ("RS256",)
