"""Where the managed Neo4j's jars come from: a Maven repository, over HTTP(S).

Every jar is pinned by coordinates and SHA-256 (the lock file), so nothing is resolved: each is
fetched by its address, over one kept-alive connection per download thread (a new TLS
connection per small jar cost most of a first start: jgo, which resolved each jar's POM and
metadata first, took 22-26 s for what these downloads do in about one). Through a proxy of
the environment (``https_proxy`` and the like) or a mirror's redirect, urllib's own way. A
repository address with credentials (``https://user:secret@nexus...``) signs in with them
(basic authentication); they are never shown (``shown``). A server that asks to slow down
(429, 503) is asked again after its ``Retry-After`` (at most ``BUSY_WAIT`` s), twice.
"""

from __future__ import annotations

import http.client
import ssl
import threading
import time
import urllib.parse
import urllib.request
from typing import BinaryIO

from graphmem.core.tls import signed_request, without_credentials
from graphmem.localdb.lockfile import LockedArtifact

DOWNLOAD_TIMEOUT = 60.0  # seconds without a byte before a download fails
CHUNK = 1 << 20
REDIRECTS = (301, 302, 303, 307, 308)
BUSY = (429, 503)
BUSY_WAIT = 10.0


class Source:
    """A Maven repository the jars are downloaded from, and the TLS context to reach it."""

    def __init__(self, repository: str, context: ssl.SSLContext) -> None:
        bare, self._authorization = without_credentials(repository.rstrip("/"))
        self._url = urllib.parse.urlsplit(bare)
        host = self._url.hostname or ""
        self._headers = {"Authorization": self._authorization} if self._authorization else {}
        self._context = context
        self._local = threading.local()
        proxy = urllib.request.getproxies().get(self._url.scheme)
        self._proxied = bool(proxy) and not urllib.request.proxy_bypass(host)

    @property
    def shown(self) -> str:
        """The repository's address without its credentials (for messages and logs)."""
        return urllib.parse.urlunsplit(self._url)

    def get(self, artifact: LockedArtifact, out: BinaryIO) -> None:
        """Write the artifact's bytes to ``out``."""
        group = artifact.group.replace(".", "/")
        path = f"{self._url.path}/{group}/{artifact.artifact}/{artifact.version}/"
        path += artifact.file_name
        if self._proxied:
            self._get_by_urllib(path, out)
            return
        for attempt in range(3):
            answer = self._answer(path)
            if answer.status in BUSY and attempt < 2:
                answer.read()
                time.sleep(_retry_after(answer.getheader("Retry-After")))
                continue
            if answer.status in REDIRECTS:  # a mirror that sends elsewhere: urllib follows
                answer.read()
                self._get_by_urllib(path, out)
                return
            if answer.status != 200:
                answer.read()
                raise OSError(f"HTTP {answer.status}")
            while chunk := answer.read(CHUNK):
                out.write(chunk)
            return

    def _answer(self, path: str) -> http.client.HTTPResponse:
        """The server's answer to GET ``path`` (again on a fresh connection once, when a kept
        one was closed by the server meanwhile)."""
        for attempt in (1, 2):
            connection = self._connection()
            try:
                connection.request("GET", path, headers=self._headers)
                return connection.getresponse()
            except (OSError, http.client.HTTPException):
                self._local.connection = None
                connection.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _get_by_urllib(self, path: str, out: BinaryIO) -> None:
        url = urllib.parse.urlunsplit(self._url._replace(path=path))
        request = signed_request(url, self._authorization)  # never sent on by a redirect
        opened = urllib.request.urlopen(  # noqa: S310 - the repository's own https or http
            request, timeout=DOWNLOAD_TIMEOUT, context=self._context
        )
        with opened as answer:
            while chunk := answer.read(CHUNK):
                out.write(chunk)

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            host, port = self._url.hostname or "", self._url.port
            connection = (
                http.client.HTTPSConnection(
                    host, port, timeout=DOWNLOAD_TIMEOUT, context=self._context
                )
                if self._url.scheme == "https"
                else http.client.HTTPConnection(host, port, timeout=DOWNLOAD_TIMEOUT)
            )
            self._local.connection = connection
        return connection


def _retry_after(value: str | None) -> float:
    """Seconds to wait before asking a busy server again: its Retry-After when that is a
    number (an HTTP date or nonsense: 2 s), never below 0 nor above ``BUSY_WAIT``."""
    try:
        seconds = float(value) if value else 2.0
    except ValueError:
        seconds = 2.0
    return min(max(seconds, 0.0), BUSY_WAIT)
