"""What the interop tests share: graphmem served over streamable HTTP with a tokens file, one
bearer token (read and write) for one tenant, and a refusal's HTTP answer as a framework's own
HTTP client received it."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx2

from graphmem.app.catalogue import tools_for

# A read,write token sees the core toolset (the default): what every framework must load.
CORE_TOOLS = frozenset(spec.name for spec in tools_for("core"))
WRONG_TOKEN = "gm_" + "0" * 43  # shaped like a token, issued to nobody
REFUSED_HEADERS = {"wrong token": {"Authorization": f"Bearer {WRONG_TOKEN}"}, "no token": {}}


@dataclass(frozen=True)
class Graphmem:
    url: str
    token: str
    tenant: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def a_fact(framework: str) -> tuple[str, dict[str, Any]]:
    """A key and a value nobody else writes: what current_state reads back proves the write."""
    nonce = uuid.uuid4().hex[:12]
    return f"interop.{framework}.{nonce}", {"framework": framework, "nonce": nonce}


@dataclass
class HttpLog:
    """The answers a client's own HTTP client received (its ``event_hooks``)."""

    answers: list[tuple[int, str]] = field(default_factory=list)  # status, WWW-Authenticate

    async def heard(self, response: httpx2.Response) -> None:
        self.answers.append((response.status_code, response.headers.get("www-authenticate", "")))

    def client(self, headers: dict[str, str] | None = None, **options: Any) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(
            headers=headers, event_hooks={"response": [self.heard]}, **options
        )

    def assert_refused(self, headers: dict[str, str]) -> None:
        """Every answer was 401 with a Bearer challenge; a wrong token's says invalid_token."""
        assert self.answers, "the client sent nothing"
        assert {status for status, _ in self.answers} == {401}, self.answers
        challenges = {challenge for _, challenge in self.answers}
        assert all(challenge.startswith("Bearer") for challenge in challenges), challenges
        if headers:
            assert all('error="invalid_token"' in c for c in challenges), challenges
