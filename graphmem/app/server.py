"""The server factory: ``create_server(store, settings)`` assembles a FastMCP server."""

from __future__ import annotations

import functools

from fastmcp import FastMCP
from fastmcp.server.auth import AuthProvider, RemoteAuthProvider
from pydantic import AnyHttpUrl

from graphmem import __version__
from graphmem.app.access import ScopeMiddleware
from graphmem.app.auth import GraphmemTokenVerifier, JWTSettings
from graphmem.app.boundary import ArgumentErrorMiddleware
from graphmem.app.catalogue import tools_for
from graphmem.app.completion import complete
from graphmem.app.metrics import CallObserver, ToolMetrics, register_metrics_route
from graphmem.app.prompts import register_prompts
from graphmem.app.protocol_guard import ProtocolParamsGuard
from graphmem.app.readiness import ReadinessMiddleware
from graphmem.app.resources import STATIC_RESOURCES, register_resources
from graphmem.app.tools import attach, credentials_tenant, mcp_tool
from graphmem.browser.routes import register_browser_files
from graphmem.core.errors import ConfigurationError
from graphmem.core.settings import Settings
from graphmem.facts.attestation import load_verifiers
from graphmem.localdb.log_push import log_pusher
from graphmem.store import Store
from graphmem.toolkit.retrieval import load_retrieval
from graphmem.toolkit.services import Services
from graphmem.toolkit.startup import StoreGate

INSTRUCTIONS = """\
graphmem is a governed, temporal knowledge graph. Record observations that can change with
record_fact (project + key) and read what is true now with current_state. Nothing is silently
lost: a new fact supersedes the old one and keeps it as history. Errors come back as JSON
with an `error` code (invalid_argument, not_found, conflict, ...) and a message.
"""


def load_jwt_settings(settings: Settings) -> JWTSettings | None:
    """JWTs checked with a key file or an identity provider's JWKS, bound to this server: the
    audience is its canonical resource URI (RFC 8707) unless GRAPHMEM_JWT_AUDIENCE says. A
    JWKS needs an issuer: its keys may sign for others (a shared IdP, other realms)."""
    key_file, jwks_uri = settings.jwt_public_key_file, settings.jwt_jwks_uri
    if key_file is None and jwks_uri is None:
        return None
    if key_file is not None and jwks_uri is not None:
        raise ConfigurationError(
            "set GRAPHMEM_JWT_PUBLIC_KEY_FILE or GRAPHMEM_JWT_JWKS_URI, not both"
        )
    if jwks_uri is not None and not settings.jwt_issuer:
        raise ConfigurationError(
            "GRAPHMEM_JWT_JWKS_URI needs GRAPHMEM_JWT_ISSUER: set it to the issuer (iss) "
            "the identity provider writes in the tokens it signs"
        )
    try:
        key = key_file.read_text() if key_file is not None else None
    except OSError as error:
        raise ConfigurationError(f"GRAPHMEM_JWT_PUBLIC_KEY_FILE: {error}") from error
    audience = settings.jwt_audience or resource_url(settings)
    return JWTSettings(
        key,
        jwks_uri,
        settings.jwt_issuer,
        audience,
        settings.jwt_tenant_claim,
        tuple(settings.jwt_algorithms),
    )


def resource_url(settings: Settings) -> str:
    base = settings.public_url or f"http://{settings.host}:{settings.port}"
    return base.rstrip("/") + "/mcp"


def _auth(settings: Settings) -> AuthProvider | None:
    """Bearer tokens and JWTs; with authorization servers configured for JWTs, an OAuth 2.1
    resource server (RFC 9728 metadata, WWW-Authenticate on 401, read scope required)."""
    if not settings.has_credentials:
        return None
    jwt = load_jwt_settings(settings)
    verifier = GraphmemTokenVerifier(
        settings.http_token_sha256, settings.tenant, settings.tokens_file, jwt
    )
    if jwt is None or not settings.authorization_servers:
        return verifier
    return RemoteAuthProvider(
        token_verifier=verifier,
        authorization_servers=[AnyHttpUrl(url) for url in settings.authorization_servers],
        base_url=resource_url(settings).removesuffix("/mcp"),
        scopes_supported=["read", "write"],
        resource_name="graphmem",
        required_scopes=["read"],
    )


LIST_CACHE_SECONDS = 3600  # tools, prompts, resources and templates change only with a restart


def create_server(store: Store | StoreGate, settings: Settings) -> FastMCP:
    """Build the MCP server around a store, open or still opening behind a gate (calls wait
    for it). The caller owns the store's lifetime."""
    gate = store if isinstance(store, StoreGate) else StoreGate(store)
    auth = _auth(settings)
    specs = tools_for(settings.toolset)
    load_verifiers(settings)  # a verifier keys file that cannot be read stops the start
    services = Services(
        gate=gate,
        settings=settings,
        configured_retrieval=functools.cache(lambda: load_retrieval(settings)),
        credentials_tenant=credentials_tenant,
        after_erasure=log_pusher(settings),
    )
    metrics = ToolMetrics()
    server = FastMCP(
        name="graphmem",
        instructions=INSTRUCTIONS,
        version=__version__,
        auth=auth,
        mask_error_details=True,  # unexpected errors reach clients as a generic message
        strict_input_validation=True,  # no silent "7" -> 7 coercion
        dereference_schemas=False,  # input schemas come inlined, output schemas keep $defs
        # lists are fixed for the process: clients of the 2026-07-28 protocol may cache them,
        # each principal its own when tokens scope them (access.py)
        cache_ttl=LIST_CACHE_SECONDS,
        cache_scope="private" if auth is not None else "public",
        middleware=[
            ProtocolParamsGuard(),  # a malformed request is a protocol error, not a call
            # then: times and counts every call, refused ones included
            CallObserver(metrics, (spec.name for spec in specs), services.tenant),
            ScopeMiddleware(specs, erase_without_credentials=settings.erase_without_credentials),
            ReadinessMiddleware(gate, settings.start_wait, STATIC_RESOURCES),
            ArgumentErrorMiddleware(),
        ],
    )
    attach(server, services)
    for spec in specs:
        if spec.available(services):
            server.add_tool(mcp_tool(spec).model_copy())
    register_resources(server, services)
    register_prompts(server, services)
    server.add_completion_handler(complete)
    register_browser_files(server, settings.tenant)
    register_metrics_route(server, metrics, credentials=auth is not None)
    _uncached_reads(server)
    return server


def _uncached_reads(server: FastMCP) -> None:
    """FastMCP's cache hint covers every cacheable method alike; a resource read answers the
    graph as it is now (graphmem://stats, a fact), so it carries none."""
    hints = server._mcp_server.cache_hints  # pyright: ignore[reportPrivateUsage]  # FastMCP offers no per-method hint
    hints.pop("resources/read", None)
