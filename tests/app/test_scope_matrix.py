"""The scope matrix: every MCP method graphmem answers, for a token of each combination of
`read`, `write` and `admin`, and for a JWT holding none of graphmem's scopes. A principal
without `read` lists and reads nothing of the tenant (no resource, template, prompt or
completion), and no answer it gets carries the tenant's content."""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.server.auth.providers.jwt import RSAKeyPair
from mcp_types import PromptReference, ResourceTemplateReference

from graphmem.app.tokens import issue_token
from tests.app.helpers import HttpServer, clean_env, serving_http
from tests.neo4j_endpoint import Endpoint

AUDIENCE = "https://graphmem.test/mcp"
ISSUER = "https://idp.test"
CANARY = f"canary-{uuid.uuid4().hex}"  # in every piece of the tenant's content
SCOPES = ("read", "write", "admin")
WRITES_THAT_ANSWER: dict[str, dict[str, Any]] = {
    "build_context_pack": {"project": CANARY},
    "record_fact": {"project": CANARY, "key": f"{CANARY}.key", "value": "other"},
    "erase": {"project": CANARY},  # a dry run: ids and previews
}
COMBINATIONS = [
    list(chosen) for size in (1, 2, 3) for chosen in itertools.combinations(SCOPES, size)
]


@dataclass(frozen=True)
class Matrix:
    server: HttpServer
    tokens: dict[str, str]  # "read,write" -> token; "jwt:none" -> a JWT without our scopes
    memory_id: str
    decision_id: str
    key: str


def _jwt_without_our_scopes(keys: RSAKeyPair, tenant: str) -> str:
    return keys.create_token(
        subject="agent",
        issuer=ISSUER,
        audience=AUDIENCE,
        scopes=["openid", "profile"],
        additional_claims={"tenant": tenant},
    )


@pytest.fixture(scope="module")
def matrix(neo4j_endpoint: Endpoint, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Matrix]:
    folder = tmp_path_factory.mktemp("scopes")
    tokens_file, key_file = folder / "tokens.json", folder / "jwt.pem"
    tenant = f"scopes-{uuid.uuid4().hex[:8]}"
    keys = RSAKeyPair.generate()
    key_file.write_text(keys.public_key)
    tokens = {",".join(c): issue_token(tokens_file, tenant, c)[0] for c in COMBINATIONS}  # type: ignore[arg-type]
    tokens["jwt:none"] = _jwt_without_our_scopes(keys, tenant)
    env = clean_env(
        **neo4j_endpoint.env(),
        GRAPHMEM_TOKENS_FILE=str(tokens_file),
        GRAPHMEM_JWT_PUBLIC_KEY_FILE=str(key_file),
        GRAPHMEM_JWT_ISSUER=ISSUER,
        GRAPHMEM_JWT_AUDIENCE=AUDIENCE,
        GRAPHMEM_TOOLSET="full",
    )
    with serving_http(env) as server:
        ids = _seed(server.url, tokens["read,write"])
        yield Matrix(server, tokens, *ids)


def _seed(url: str, token: str) -> tuple[str, str, str]:
    import asyncio

    async def seed() -> tuple[str, str, str]:
        async with Client(url, auth=token) as client:
            memory = await client.call_tool(
                "save_memory",
                {"project": CANARY, "type": "note", "title": CANARY, "content": CANARY},
            )
            decision = await client.call_tool(
                "record_decision", {"project": CANARY, "title": CANARY, "choice": CANARY}
            )
            key = f"{CANARY}.key"
            await client.call_tool("record_fact", {"project": CANARY, "key": key, "value": CANARY})
            return memory.structured_content["id"], decision.structured_content["id"], key  # type: ignore[index]

    return asyncio.run(seed())


def _has(scopes: str, *needed: str) -> bool:
    return all(scope in scopes.split(",") for scope in needed)


async def _every_method(matrix: Matrix, token: str) -> dict[str, Any]:
    """Each method's answer (its result, or the error it raised), as text."""
    answers: dict[str, Any] = {}
    reads = {
        "stats": "graphmem://stats",
        "memory": f"graphmem://memories/{matrix.memory_id}",
        "decision": f"graphmem://decisions/{matrix.decision_id}",
        "fact": f"graphmem://facts/{matrix.key}",
        "schema": "graphmem://schema",
    }
    async with Client(matrix.server.url, auth=token) as client:
        answers["tools/list"] = await _attempt(client.list_tools)
        answers["resources/list"] = await _attempt(client.list_resources)
        answers["resources/templates/list"] = await _attempt(client.list_resource_templates)
        answers["prompts/list"] = await _attempt(client.list_prompts)
        for name, uri in reads.items():
            answers[f"resources/read {name}"] = await _attempt(client.read_resource, uri)
        answers["prompts/get"] = await _attempt(
            client.get_prompt, "start_session", {"project": CANARY, "task": "go on"}
        )
        answers["completion/complete prompt"] = await _attempt(
            client.complete,
            PromptReference(name="start_session"),
            {"name": "project", "value": CANARY[:8]},
        )
        template = ResourceTemplateReference(uri="graphmem://facts/{key}")
        answers["completion/complete template"] = await _attempt(
            client.complete, template, {"name": "key", "value": CANARY[:8]}
        )
        answers["tools/call read"] = await _attempt(
            client.call_tool, "current_state", {"state_key": matrix.key, "project": CANARY}
        )
        for tool, arguments in WRITES_THAT_ANSWER.items():  # a write's answer is content too
            answers[f"tools/call {tool}"] = await _attempt(client.call_tool, tool, arguments)
    return answers


async def _attempt(method: Any, *args: Any) -> Any:
    try:
        return await method(*args)
    except Exception as error:  # the refusal, as the client raised it
        return error


def _text(answer: Any) -> str:
    if isinstance(answer, Exception):
        return f"{type(answer).__name__}: {answer}"
    return json.dumps(answer, default=lambda item: repr(item))


@pytest.mark.parametrize("scopes", [*(",".join(c) for c in COMBINATIONS), "jwt:none"])
async def test_each_method_answers_as_the_scopes_allow(matrix: Matrix, scopes: str) -> None:
    answers = await _every_method(matrix, matrix.tokens[scopes])
    tools = {tool.name for tool in answers["tools/list"]}
    assert ("current_state" in tools) == _has(scopes, "read")
    assert ("record_fact" in tools) == _has(scopes, "read", "write")
    assert ("erase" in tools) == _has(scopes, "read", "write", "admin")
    resources = {str(resource.uri) for resource in answers["resources/list"]}
    assert "graphmem://schema" in resources  # the graph model is no tenant's content
    assert ("graphmem://stats" in resources) == _has(scopes, "read")
    assert bool(answers["resources/templates/list"]) == _has(scopes, "read")
    assert bool(answers["prompts/list"]) == _has(scopes, "read")
    assert not isinstance(answers["resources/read schema"], Exception)
    gated = [name for name in answers if name.startswith(("resources/read ", "prompts/get"))]
    gated += ["completion/complete prompt", "completion/complete template", "tools/call read"]
    for tool in WRITES_THAT_ANSWER:
        text = _text(answers[f"tools/call {tool}"])
        if not _has(scopes, "read"):
            assert CANARY not in text and "'read' scope" in text, (tool, text)
    for name in gated:
        if name == "resources/read schema":
            continue
        text = _text(answers[name])
        if _has(scopes, "read"):
            assert CANARY in text, (name, text)
        else:
            assert CANARY not in text, (name, text)
            assert "permission_denied" in text or "'read' scope" in text, (name, text)


async def test_nothing_of_the_tenant_reaches_a_principal_without_read(matrix: Matrix) -> None:
    for scopes, token in matrix.tokens.items():
        if _has(scopes, "read") and scopes != "jwt:none":
            continue
        answers = await _every_method(matrix, token)
        leaked = {
            name: _text(answer) for name, answer in answers.items() if CANARY in _text(answer)
        }
        assert leaked == {}, scopes
