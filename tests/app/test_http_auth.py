"""Credentials on the HTTP transport, end to end with a real MCP client over HTTP."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.tokens import issue_token, revoke_token
from tests.app.helpers import INITIALIZE, HttpServer, clean_env, run_cli, serving_http
from tests.neo4j_endpoint import Endpoint


@dataclass(frozen=True)
class Principals:
    server: HttpServer
    tokens_file: Path
    writer_a: str
    reader_a: str
    writer_b: str
    tenant_a: str
    admin_a: str
    metrics_only: str  # admin alone: /metrics, no tool


@pytest.fixture(scope="module")
def principals(
    neo4j_endpoint: Endpoint, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Principals]:
    tokens_file = tmp_path_factory.mktemp("auth") / "tokens.json"
    tenant_a, tenant_b = (f"auth-{uuid.uuid4().hex[:8]}" for _ in range(2))
    writer_a, _ = issue_token(tokens_file, tenant_a, ["read", "write"], "writer")
    reader_a, _ = issue_token(tokens_file, tenant_a, ["read"], "reader")
    writer_b, _ = issue_token(tokens_file, tenant_b, ["read", "write"])
    admin_a, _ = issue_token(tokens_file, tenant_a, ["read", "write", "admin"], "operator")
    metrics_only, _ = issue_token(tokens_file, tenant_a, ["admin"], "prometheus")
    env = clean_env(
        **neo4j_endpoint.env(),
        GRAPHMEM_TOKENS_FILE=str(tokens_file),
        GRAPHMEM_MAX_REQUEST_BYTES="65536",
        GRAPHMEM_TOOLSET="full",  # governance and observations are full-toolset tools
    )
    with serving_http(env) as server:
        yield Principals(
            server, tokens_file, writer_a, reader_a, writer_b, tenant_a, admin_a, metrics_only
        )


def _post(url: str, body: bytes, headers: dict[str, str]) -> int:
    return _exchange(url, body, headers)[0]


def _exchange(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    """POST an MCP request; the status and the response headers."""
    request = urllib.request.Request(  # noqa: S310 (loopback test server)
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **headers,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


async def _call(url: str, token: str, tool: str, **arguments: Any) -> Any:
    async with Client(url, auth=token) as client:
        return await client.call_tool(tool, arguments, raise_on_error=False)


def test_no_token_is_401(principals: Principals) -> None:
    assert _post(principals.server.url, INITIALIZE, {}) == 401
    assert _post(principals.server.url, INITIALIZE, {"Authorization": "Bearer nope"}) == 401


async def test_tenants_are_walls(principals: Principals) -> None:
    url = principals.server.url
    written = await _call(
        url, principals.writer_a, "record_fact", project="p", key="secret", value="A only"
    )
    assert not written.is_error
    seen = await _call(url, principals.writer_b, "current_state", state_key="secret", project="p")
    assert seen.structured_content["status"] == "not_found"
    governed = await _call(
        url,
        principals.writer_b,
        "govern_fact",
        fact_id=written.structured_content["id"],
        action="invalidate",
    )
    assert json.loads(governed.content[0].text)["error"] == "not_found"
    mine = await _call(url, principals.reader_a, "current_state", state_key="secret", project="p")
    assert mine.structured_content["answer"]["value"] == "A only"


async def test_read_only_tokens_cannot_write(principals: Principals) -> None:
    refused = await _call(
        principals.server.url, principals.reader_a, "record_fact", project="p", key="k", value=1
    )
    assert refused.is_error
    payload = json.loads(refused.content[0].text)
    assert payload["error"] == "permission_denied" and "'write' scope" in payload["message"]


async def _listed(url: str, token: str) -> dict[str, Any]:
    async with Client(url, auth=token) as client:
        listed = await client.list_tools_mcp()
        assert listed.cache_scope == "private"  # each token caches its own list
        return {tool.name: tool for tool in listed.tools}


async def test_a_token_lists_only_the_tools_its_scopes_allow(principals: Principals) -> None:
    url = principals.server.url
    read = await _listed(url, principals.reader_a)
    write = await _listed(url, principals.writer_a)
    admin = await _listed(url, principals.admin_a)
    assert read and all(tool.annotations.read_only_hint for tool in read.values())
    assert "current_state" in read and "record_fact" not in read
    assert "record_fact" in write and "erase" not in write
    assert set(admin) == set(write) | {"erase"} and set(write) > set(read)
    assert await _listed(url, principals.metrics_only) == {}  # admin alone erases nothing
    refused = await _call(url, principals.metrics_only, "erase", project="p")
    assert json.loads(refused.content[0].text)["error"] == "permission_denied"


async def test_only_admin_tokens_erase(principals: Principals) -> None:
    url = principals.server.url
    refused = await _call(url, principals.writer_a, "erase", project="p")
    payload = json.loads(refused.content[0].text)
    assert payload["error"] == "permission_denied" and "'admin' scope" in payload["message"]
    listed = await _call(url, principals.admin_a, "erase", project="p")
    assert not listed.is_error and listed.structured_content["dry_run"] is True


async def test_read_only_tokens_read_memories_with_their_counters(principals: Principals) -> None:
    url = principals.server.url
    saved = await _call(
        url,
        principals.writer_a,
        "save_memory",
        project="p",
        type="decision",
        title="Read me",
        content="Readers may read this.",
    )
    memory_id = saved.structured_content["id"]
    for expected in (1, 2):
        read = await _call(url, principals.reader_a, "get_observations", ids=[memory_id])
        assert not read.is_error, read.content
        assert read.structured_content["details"][0]["access_count"] == expected


async def test_read_only_tokens_review_decisions(principals: Principals) -> None:
    url = principals.server.url
    rule = {"key": "latency", "operator": "greater_than", "value": 300}
    decided = await _call(
        url,
        principals.writer_a,
        "record_decision",
        project="p",
        title="Cache reads",
        choice="cache",
        alternatives=[{"title": "no cache", "reopen_when": [rule]}],
    )
    assert not decided.is_error, decided.content
    await _call(url, principals.writer_a, "record_fact", project="p", key="latency", value=400)
    review = await _call(url, principals.reader_a, "review_decisions", project="p")
    assert not review.is_error, review.content
    [due] = review.structured_content["due"]
    assert due["decision_id"] == decided.structured_content["id"]
    assert due["signal"]["status"] == "open"


async def test_revoked_token_is_refused(principals: Principals) -> None:
    token, record = issue_token(principals.tokens_file, principals.tenant_a, ["read"])
    ok = await _call(principals.server.url, token, "current_state", state_key="k")
    assert not ok.is_error
    revoke_token(principals.tokens_file, record.id)
    assert _post(principals.server.url, INITIALIZE, {"Authorization": f"Bearer {token}"}) == 401


def test_foreign_host_header_is_refused(principals: Principals) -> None:
    headers = {"Authorization": f"Bearer {principals.writer_a}", "Host": "evil.example:80"}
    assert _post(principals.server.url, INITIALIZE, headers) in (400, 403, 421)
    origin = {"Authorization": f"Bearer {principals.writer_a}", "Origin": "https://evil.example"}
    assert _post(principals.server.url, INITIALIZE, origin) in (400, 403)


def test_oversized_request_is_413(principals: Principals) -> None:
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "x" * 70_000}}
    ).encode()
    headers = {"Authorization": f"Bearer {principals.writer_a}"}
    assert _post(principals.server.url, body, headers) == 413


def test_tokens_are_stored_hashed(principals: Principals) -> None:
    stored = principals.tokens_file.read_text()
    assert principals.writer_a not in stored and principals.reader_a not in stored


def test_token_cli_issue_list_revoke(tmp_path: Path) -> None:
    env = clean_env(GRAPHMEM_TOKENS_FILE=str(tmp_path / "tokens.json"))
    issued = run_cli("token", "issue", "--tenant", "acme", "--scopes", "read", env=env)
    assert issued.returncode == 0, issued.stderr
    token_id = issued.stdout.split(":")[0]
    secret = issued.stdout.strip().splitlines()[-1].split()[-1]
    assert secret.startswith("gm_") and secret not in (tmp_path / "tokens.json").read_text()
    assert (tmp_path / "tokens.json").stat().st_mode & 0o077 == 0
    listed = run_cli("token", "list", env=env)
    assert f"{token_id}  acme  read  active" in listed.stdout
    assert run_cli("token", "revoke", token_id, env=env).returncode == 0
    assert "revoked" in run_cli("token", "list", env=env).stdout
    bad = run_cli("token", "issue", "--tenant", "acme", "--scopes", "root", env=env)
    assert bad.returncode == 1 and "--scopes must be among" in bad.stderr


@contextmanager
def _serving_jwts(
    endpoint: Endpoint, folder: Path, **settings: str
) -> Iterator[tuple[HttpServer, Any]]:
    """An HTTP server trusting JWTs signed by a fresh identity-provider key (issuer
    https://idp.example), with ``settings``; yields it and the key pair that signs."""
    from fastmcp.server.auth.providers.jwt import RSAKeyPair

    keys = RSAKeyPair.generate()
    key_file = folder / "idp.pem"
    key_file.write_text(keys.public_key)
    env = clean_env(
        **endpoint.env(),
        GRAPHMEM_JWT_PUBLIC_KEY_FILE=str(key_file),
        GRAPHMEM_JWT_ISSUER="https://idp.example",
        **settings,
    )
    with serving_http(env) as server:
        yield server, keys


@pytest.fixture(scope="module")
def jwt_server(
    neo4j_endpoint: Endpoint, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[HttpServer, Any]]:
    folder = tmp_path_factory.mktemp("jwt")
    with _serving_jwts(neo4j_endpoint, folder, GRAPHMEM_JWT_AUDIENCE="graphmem") as served:
        yield served


async def test_jwt_principals(jwt_server: tuple[HttpServer, Any]) -> None:
    server, keys = jwt_server
    tenant = f"jwt-{uuid.uuid4().hex[:8]}"

    def token(scopes: list[str], **claims: Any) -> str:
        return keys.create_token(
            subject="agent-7",
            issuer="https://idp.example",
            audience="graphmem",
            scopes=scopes,
            additional_claims=claims,
        )

    writer = token(["read", "write"], tenant=tenant)
    written = await _call(server.url, writer, "record_fact", project="p", key="k", value=1)
    assert not written.is_error
    reader = token(["read"], tenant=tenant)
    seen = await _call(server.url, reader, "current_state", state_key="k", project="p")
    assert seen.structured_content["answer"]["value"] == 1
    refused = await _call(server.url, reader, "record_fact", project="p", key="k", value=2)
    assert json.loads(refused.content[0].text)["error"] == "permission_denied"
    other = token(["read"], tenant=tenant + "-other")
    hidden = await _call(server.url, other, "current_state", state_key="k", project="p")
    assert hidden.structured_content["status"] == "not_found"
    no_tenant = token(["read", "write"])
    assert _post(server.url, INITIALIZE, {"Authorization": f"Bearer {no_tenant}"}) == 401
    wrong_audience = keys.create_token(
        issuer="https://idp.example", audience="someone-else", additional_claims={"tenant": tenant}
    )
    assert _post(server.url, INITIALIZE, {"Authorization": f"Bearer {wrong_audience}"}) == 401


async def test_tokens_never_reach_the_logs(neo4j_endpoint: Endpoint, tmp_path: Path) -> None:
    tokens_file = tmp_path / "tokens.json"
    token, _ = issue_token(tokens_file, f"logs-{uuid.uuid4().hex[:8]}", ["read", "write"])
    env = clean_env(
        **neo4j_endpoint.env(), GRAPHMEM_TOKENS_FILE=str(tokens_file), GRAPHMEM_LOG_LEVEL="DEBUG"
    )
    log = tmp_path / "server.log"
    with log.open("w") as sink, serving_http(env, stderr=sink) as server:
        await _call(server.url, token, "record_fact", project="p", key="k", value=1)
        await _call(server.url, token, "record_fact", project="p", key="k", value="x" * 300)
        _post(server.url, INITIALIZE, {"Authorization": f"Bearer {token}x"})  # a refused one
    text = log.read_text()
    assert "record_fact" in text or "MCP" in text  # the log was written at DEBUG
    assert token not in text and token[:12] not in text


@pytest.fixture(scope="module")
def resource_server(
    neo4j_endpoint: Endpoint, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[HttpServer, Any]]:
    """JWTs from an authorization server: graphmem as an OAuth 2.1 resource server."""
    with _serving_jwts(
        neo4j_endpoint,
        tmp_path_factory.mktemp("oauth"),
        GRAPHMEM_AUTHORIZATION_SERVERS="https://idp.example",
        GRAPHMEM_PUBLIC_URL="https://mcp.example",  # the audience: https://mcp.example/mcp
    ) as served:
        yield served


def _get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 (loopback)
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


async def test_remote_clients_discover_how_to_sign_in(
    resource_server: tuple[HttpServer, Any],
) -> None:
    server, keys = resource_server
    base = server.url.removesuffix("/mcp")
    status, _, body = _get(f"{base}/.well-known/oauth-protected-resource/mcp")
    assert status == 200
    metadata = json.loads(body)
    assert metadata["resource"] == "https://mcp.example/mcp"
    assert [url.rstrip("/") for url in metadata["authorization_servers"]] == ["https://idp.example"]
    assert set(metadata["scopes_supported"]) == {"read", "write"}

    status, headers = _exchange(server.url, INITIALIZE, {})
    challenge = headers.get("www-authenticate") or headers.get("WWW-Authenticate") or ""
    assert status == 401
    assert "resource_metadata=" in challenge
    assert "/.well-known/oauth-protected-resource/mcp" in challenge

    tenant = f"oauth-{uuid.uuid4().hex[:8]}"

    def token(audience: str, scopes: list[str], expires_in: int = 3600) -> str:
        return keys.create_token(
            subject="agent-9",
            issuer="https://idp.example",
            audience=audience,
            scopes=scopes,
            expires_in_seconds=expires_in,
            additional_claims={"tenant": tenant},
        )

    valid = token("https://mcp.example/mcp", ["read", "write"])
    written = await _call(server.url, valid, "record_fact", project="p", key="k", value=1)
    assert not written.is_error
    wrong_audience = token("https://elsewhere.example/mcp", ["read", "write"])
    assert _post(server.url, INITIALIZE, {"Authorization": f"Bearer {wrong_audience}"}) == 401
    expired = token("https://mcp.example/mcp", ["read", "write"], expires_in=-60)
    assert _post(server.url, INITIALIZE, {"Authorization": f"Bearer {expired}"}) == 401
    no_read = token("https://mcp.example/mcp", ["write"])
    status, headers = _exchange(server.url, INITIALIZE, {"Authorization": f"Bearer {no_read}"})
    challenge = headers.get("www-authenticate") or headers.get("WWW-Authenticate") or ""
    assert status == 403 and "insufficient_scope" in challenge
