from __future__ import annotations

import hashlib

import pytest
from pydantic import ValidationError

from graphmem.core.settings import Settings

pytestmark = pytest.mark.pure


def test_neo4j_variables_use_their_conventional_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j://db.example:7687")
    monkeypatch.setenv("NEO4J_USER", "reader")
    monkeypatch.setenv("NEO4J_PASSWORD", "s3cret-pass")
    monkeypatch.setenv("NEO4J_DATABASE", "graph")
    settings = Settings()
    assert settings.neo4j_uri == "neo4j://db.example:7687"
    assert settings.neo4j_user == "reader"
    assert settings.neo4j_database == "graph"
    assert settings.neo4j_password is not None
    assert "s3cret-pass" not in repr(settings)  # secrets never printed
    assert not settings.uses_local_database


def test_defaults_use_the_managed_local_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    settings = Settings()
    assert settings.uses_local_database
    assert settings.host == "127.0.0.1"
    assert settings.toolset == "core"


def test_token_digests_parse_from_a_comma_list(monkeypatch: pytest.MonkeyPatch) -> None:
    digests = [hashlib.sha256(t.encode()).hexdigest() for t in ("a", "b")]
    monkeypatch.setenv("GRAPHMEM_HTTP_TOKEN_SHA256", f" {digests[0]} ,{digests[1].upper()}")
    assert Settings().http_token_sha256 == digests


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("GRAPHMEM_HTTP_TOKEN_SHA256", "not-a-digest"),
        ("GRAPHMEM_TOOLSET", "everything"),
        ("GRAPHMEM_PORT", "70000"),
        ("GRAPHMEM_LOCAL_HEAP", "lots"),
    ],
)
def test_bad_settings_are_refused(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValidationError):
        Settings()


def test_generated_local_passwords_never_look_like_options() -> None:
    from graphmem.localdb.server import _random_password

    passwords = [_random_password() for _ in range(500)]
    assert all(p.isalnum() and len(p) == 32 for p in passwords)
    assert len(set(passwords)) == 500


@pytest.mark.parametrize(
    "refused",
    [
        "http://127.0.0.1:1@idp.example/jwks.json",  # loopback in the userinfo, host idp.example
        "http://localhost@idp.example/jwks.json",
        "http://user:pw@127.0.0.1:9000/jwks.json",
        "https://user:pw@idp.example/jwks.json",
        "http://127.0.0.1.idp.example/jwks.json",
        "http://localhost.idp.example/jwks.json",
        "https:///jwks.json",
        "http://127.0.0.1:notaport/jwks.json",
    ],
)
def test_a_jwks_url_is_judged_by_its_parsed_host(refused: str) -> None:
    with pytest.raises(ValidationError, match="GRAPHMEM_JWT_JWKS_URI"):
        Settings(jwt_jwks_uri=refused)


@pytest.mark.parametrize(
    "accepted",
    ["http://[::1]:9000/jwks.json", "http://localhost:9000/jwks", "https://idp.example/jwks"],
)
def test_a_jwks_url_on_loopback_or_tls_is_accepted(accepted: str) -> None:
    assert Settings(jwt_jwks_uri=accepted).jwt_jwks_uri == accepted


def test_jwt_algorithms_are_asymmetric_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().jwt_algorithms == ["RS256"]
    monkeypatch.setenv("GRAPHMEM_JWT_ALGORITHMS", " RS256, ES256 ")
    assert Settings().jwt_algorithms == ["RS256", "ES256"]
    for refused in ("HS256", "none", "RS256,HS512", "rs256", ""):
        monkeypatch.setenv("GRAPHMEM_JWT_ALGORITHMS", refused)
        with pytest.raises(ValidationError, match="GRAPHMEM_JWT_ALGORITHMS"):
            Settings()
