"""The MCP features agents' hosts use, through the MCP client: prompts, resource templates and
argument completion, each from the caller's tenant only."""

from __future__ import annotations

import json
from typing import Any

import mcp_types
import pytest
from fastmcp import Client
from mcp.shared.exceptions import MCPError

from tests.support import call

START = mcp_types.PromptReference(type="ref/prompt", name="start_session")
FACT_TEMPLATE = mcp_types.ResourceTemplateReference(
    type="ref/resource", uri="graphmem://facts/{key}"
)


async def _read(client: Client[Any], uri: str) -> Any:
    content = (await client.read_resource(uri))[0]
    assert isinstance(content, mcp_types.TextResourceContents)
    return json.loads(content.text)


def _text(result: mcp_types.GetPromptResult) -> str:
    content = result.messages[0].content
    assert isinstance(content, mcp_types.TextContent)
    return content.text


async def _decision(client: Client[Any]) -> dict[str, Any]:
    rule = {"key": "db.engine", "operator": "equals", "value": "postgres"}
    result = await call(
        client,
        "record_decision",
        project="shop",
        title="Use Postgres full-text search",
        choice="postgres-fts",
        alternatives=[{"title": "elasticsearch", "reopen_when": [rule]}],
    )
    return result["decision"]


async def test_the_prompts_are_listed_with_their_arguments(client: Client[Any]) -> None:
    prompts = {prompt.name: prompt for prompt in await client.list_prompts()}
    assert set(prompts) == {"start_session", "record_decision_with_rules", "changes_since"}
    required = {
        name: {a.name for a in prompt.arguments or [] if a.required}
        for name, prompt in prompts.items()
    }
    assert required == {
        "start_session": {"project", "task"},
        "record_decision_with_rules": {"project", "decision"},
        "changes_since": {"since"},
    }


async def test_start_session_renders_what_the_project_holds(client: Client[Any]) -> None:
    await call(client, "record_fact", project="shop", key="db.engine", value="postgres")
    result = await client.get_prompt(
        "start_session", {"project": "shop", "task": "tune the database engine"}
    )
    text = _text(result)
    assert "db.engine" in text and "postgres" in text and "tune the database engine" in text
    empty = await client.get_prompt("start_session", {"project": "void", "task": "anything"})
    assert "(nothing recorded yet)" in _text(empty)


async def test_a_prompt_without_its_required_arguments_is_refused(client: Client[Any]) -> None:
    with pytest.raises(Exception, match="task"):
        await client.get_prompt("start_session", {"project": "shop"})
    with pytest.raises(Exception, match="since"):
        await client.get_prompt("changes_since", {"since": "not a time"})


async def test_record_decision_with_rules_offers_the_projects_keys(client: Client[Any]) -> None:
    await call(client, "record_fact", project="shop", key="db.engine", value="postgres")
    await call(client, "record_fact", project="other", key="cache.engine", value="redis")
    text = _text(
        await client.get_prompt(
            "record_decision_with_rules", {"project": "shop", "decision": "search in postgres"}
        )
    )
    assert "db.engine" in text and "cache.engine" not in text


async def test_changes_since_lists_the_recorded_changes(client: Client[Any]) -> None:
    await call(client, "record_fact", project="shop", key="db.engine", value="postgres")
    text = _text(await client.get_prompt("changes_since", {"since": "2000-01-01T00:00:00Z"}))
    assert "record_fact" in text and "key=db.engine" in text
    later = await client.get_prompt("changes_since", {"since": "2999-01-01T00:00:00Z"})
    assert "(no changes)" in _text(later)
    scoped = await client.get_prompt(
        "changes_since", {"since": "2000-01-01T00:00:00Z", "project": "elsewhere"}
    )
    assert "(no changes)" in _text(scoped)


async def test_the_templates_read_a_fact_key_a_decision_and_a_memory(client: Client[Any]) -> None:
    uris = {template.uri_template for template in await client.list_resource_templates()}
    assert {
        "graphmem://facts/{key}",
        "graphmem://decisions/{decision_id}",
        "graphmem://memories/{memory_id}",
    } <= uris
    await call(client, "record_fact", project="shop", key="db.engine", value="postgres")
    decision = await _decision(client)
    memory = await call(client, "save_memory", project="shop", title="Indexes", content="GIN")

    state = await _read(client, "graphmem://facts/db.engine")
    assert state["status"] == "current" and state["answer"]["value"] == "postgres"
    read = await _read(client, f"graphmem://decisions/{decision['id']}")
    rules = [rule for alt in read["alternatives"] for rule in alt["rules"]]
    assert read["title"] == decision["title"] and rules[0]["verdict"] == "true"
    saved = await _read(client, f"graphmem://memories/{memory['memory']['id']}")
    assert saved["title"] == "Indexes"


async def test_another_tenants_ids_read_like_unknown_ones(
    client: Client[Any], other_client: Client[Any]
) -> None:
    decision = await _decision(client)
    unknown = "0" * len(decision["id"])
    for template in ("graphmem://decisions/{}", "graphmem://memories/{}"):
        with pytest.raises(MCPError) as theirs:
            await other_client.read_resource(template.format(decision["id"]))
        with pytest.raises(MCPError) as nobodys:
            await other_client.read_resource(template.format(unknown))
        assert str(theirs.value).replace(decision["id"], unknown) == str(nobodys.value)
        assert "not_found" in str(theirs.value)


async def test_completion_offers_the_callers_projects_and_keys_only(
    client: Client[Any], other_client: Client[Any]
) -> None:
    await call(client, "record_fact", project="shop", key="db.engine", value="postgres")
    await call(client, "record_fact", project="shop", key="db.pool", value=10)
    await call(client, "record_fact", project="ship", key="db.region", value="eu")
    await call(
        client, "save_memory", project="shop", title="t", content="c", topic_key="style.guide"
    )
    await call(other_client, "record_fact", project="shoe", key="db.secret", value=1)

    projects = await client.complete(START, {"name": "project", "value": "sh"})
    assert projects.values == ["ship", "shop"]
    keys = await client.complete(
        FACT_TEMPLATE, {"name": "key", "value": "db."}, context_arguments={"project": "shop"}
    )
    assert keys.values == ["db.engine", "db.pool"]
    every = await client.complete(FACT_TEMPLATE, {"name": "key", "value": "db."})
    assert every.values == ["db.engine", "db.pool", "db.region"]  # never db.secret
    topics = await client.complete(START, {"name": "topic_key", "value": "sty"})
    assert topics.values == ["style.guide"]
    too_long = await client.complete(START, {"name": "project", "value": "s" * 201})
    assert too_long.values == []
    other = await client.complete(START, {"name": "task", "value": "a"})
    assert other.values == []


@pytest.mark.parametrize(
    ("tool", "arguments", "steps"),
    [
        (
            "archive_turns",
            {
                "project": "p",
                "session_ref": "s-1",
                "host": "laptop",
                "source_root": "claude",
                "turns": [{"role": "user", "content": "hello", "ts": "2024-03-01T10:00:00Z"}],
            },
            3,
        ),
        ("enrich_context", {}, 2),  # the chunks batch, then the packs
        ("audit_memory", {}, None),  # one step a scan
        ("maintain", {}, 3),  # a batch a phase in an empty tenant
    ],
)
async def test_long_tools_report_progress_when_asked(
    client: Client[Any], tool: str, arguments: dict[str, Any], steps: int | None
) -> None:
    heard: list[tuple[float, float | None, str | None]] = []

    async def listen(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, total, message))

    result = await client.call_tool(tool, arguments, progress_handler=listen)
    assert not result.is_error
    assert heard, f"{tool} sent no progress"
    total = heard[-1][1]
    assert total is not None and (steps is None or total == steps)
    assert [done for done, _, _ in heard] == [float(n) for n in range(1, int(total) + 1)]
    assert all(message for _, _, message in heard)
