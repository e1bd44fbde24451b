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

import os
import ssl
import threading
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
