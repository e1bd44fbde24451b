"""graphmem's own HTTPS (the managed Neo4j's jars, the embedding model's jar) trusts what the
operating system trusts, as pip does, with certifi's bundle as the fallback.

Why: behind a TLS-inspecting proxy every download is signed by the proxy's CA, which a
company installs in the system's trust store. The MCP SDKs spawn a stdio server with a
whitelisted environment, so ``SSL_CERT_FILE`` / ``REQUESTS_CA_BUNDLE`` set in a shell do not
reach it; jgo's downloads (requests) would trust certifi's bundle alone and fail. So the
process's TLS contexts come from ``truststore`` (the system store: OpenSSL's paths on Linux,
Keychain on macOS, the Windows store), and ``GRAPHMEM_CA_FILE`` names a PEM bundle trusted
besides it (set in the MCP client's ``env`` block, which the SDKs pass on).
"""

from __future__ import annotations

import base64
import os
import ssl
import threading
import urllib.parse
import urllib.request
from pathlib import Path

import certifi
import truststore

CA_SETTING = "GRAPHMEM_CA_FILE"
_INJECTED = threading.Lock()
_done = False


def trust_system_store(ca_file: Path | None) -> None:
    """From now on, this process's HTTPS clients (urllib, requests) verify against the system
    trust store, plus ``ca_file`` when given (else certifi's bundle)."""
    global _done
    with _INJECTED:
        if not _done:
            truststore.inject_into_ssl()
            _done = True
    if ca_file is not None:  # requests loads it into each (system-store) context it makes
        os.environ["REQUESTS_CA_BUNDLE"] = str(ca_file.expanduser())


def https_context(ca_file: Path | None) -> ssl.SSLContext:
    """A client context of the system store, with ``ca_file`` (or certifi's bundle) besides."""
    context = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    extra = ca_file.expanduser() if ca_file is not None else Path(certifi.where())
    context.load_verify_locations(cafile=str(extra))
    return context


def is_certificate_failure(error: BaseException) -> bool:
    """True when ``error`` (or what caused it) is a certificate the client did not trust."""
    seen: BaseException | None = error
    for _ in range(8):  # requests and urllib wrap the ssl error a few levels deep
        if seen is None:
            return False
        if isinstance(seen, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in str(
            seen
        ):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def untrusted_advice(what: str) -> str:
    """One line for an operator whose download met a certificate it does not trust."""
    return (
        f"{what}: the server's TLS certificate is not trusted (behind a proxy that inspects "
        f"TLS, it is the proxy's): install the proxy's CA in the system's trust store, or set "
        f"{CA_SETTING} to its PEM file"
    )


def without_credentials(url: str) -> tuple[str, str | None]:
    """``url`` without the ``user:password@`` a repository address may carry (the address to
    show and to fetch), and that login as a basic ``Authorization`` value (None without one)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address keeps its brackets
        host = f"[{host}]"
    bare = urllib.parse.urlunsplit(
        parts._replace(netloc=host + (f":{parts.port}" if parts.port else ""))
    )
    if not parts.username:
        return bare, None
    login = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
    return bare, "Basic " + base64.b64encode(login.encode()).decode()


def signed_request(url: str, authorization: str | None) -> urllib.request.Request:
    """A GET of ``url`` whose login is never sent on to where a redirect points (urllib copies
    ordinary headers onto the redirected request, whatever its host or scheme)."""
    request = urllib.request.Request(url)  # noqa: S310 - the caller's repository address
    if authorization is not None:
        request.add_unredirected_header("Authorization", authorization)
    return request
