"""Fuzz every tool from its own input schema and from adversarial mutations of it.

For each call: the server never fails unhandled (no protocol error, no masked internal
error: every error is graphmem's JSON payload), and a refused call leaves no trace (the
tenant's revision and counts are unchanged). Table-driven over the whole catalogue.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastmcp import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from graphmem.app.catalogue import CATALOGUE
from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store
from graphmem.subjects.reading import reader_of
from tests.support import Verifier, stats

INJECTIONS = (
    "' OR 1=1 //",
    '"}) MATCH (n) DETACH DELETE n //',
    "$tenant",
    "x} RETURN 1 UNION MATCH (n) RETURN n //",
    "\u0000\u202e\ud7ff",
    "k" * 5000,
)
OUTCOMES: Counter[tuple[str, str]] = Counter()  # (tool, outcome), printed with -s
WRONG_TYPES = (None, 0, -1, 10**30, 1.5, True, [], {}, ["x"], {"a": {"b": {}}}, "")


@dataclass
class Harness:
    loop: asyncio.AbstractEventLoop
    store: Store
    settings: Settings


@pytest.fixture
async def fuzz_harness(store: Store, tenant: str, verifier: Verifier) -> AsyncIterator[Harness]:
    config = Settings().model_copy(
        update={
            "tenant": tenant,
            "toolset": "full",
            "verifier_keys_file": verifier.keys_file,
            "erase_without_credentials": True,  # erase is fuzzed too
        }
    )
    yield Harness(asyncio.get_running_loop(), store, config)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
INSTANTS = st.datetimes(timezones=st.just(__import__("datetime").UTC)).map(lambda d: d.isoformat())


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid for the JSON-schema subset our tools publish (hypothesis-jsonschema 0.23
    does not run on this hypothesis release)."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    if "anyOf" in schema:
        return st.one_of([from_schema(option) for option in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "string":
        if schema.get("format") == "date-time":
            return INSTANTS
        size = {"min_size": schema.get("minLength", 0), "max_size": schema.get("maxLength", 50)}
        text = st.text(st.characters(blacklist_categories=("Cs",)), **size)
        if "pattern" in schema:
            low, high = schema.get("minLength", 0), schema.get("maxLength", 10_000)
            return st.from_regex(schema["pattern"], fullmatch=True).filter(
                lambda t: low <= len(t) <= high
            )
        return text
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if kind == "integer":
            return st.integers(low, high)
        return st.floats(low, high, allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "object" and "properties" in schema:
        required = set(schema.get("required", []))
        fields = {name: from_schema(sub) for name, sub in schema["properties"].items()}
        return st.fixed_dictionaries(
            {k: v for k, v in fields.items() if k in required},
            optional={k: v for k, v in fields.items() if k not in required},
        )
    return JSON  # an unconstrained value (JsonValue)


def _mutations(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A valid call, then one hostile change: an unknown field, a wrong type, an injection."""
    properties = list(schema.get("properties", {}))
    valid = from_schema(schema)
    unknown = valid.map(lambda args: {**args, "zz_unknown": 1})
    if not properties:
        return st.one_of(valid, unknown)
    field = st.sampled_from(properties)
    wrong = st.tuples(valid, field, st.sampled_from(WRONG_TYPES)).map(
        lambda t: {**t[0], t[1]: t[2]}
    )
    injected = st.tuples(valid, field, st.sampled_from(INJECTIONS)).map(
        lambda t: {**t[0], t[1]: t[2]}
    )
    return st.one_of(valid, unknown, wrong, injected)


async def _settled_stats(client: Client[Any], harness: Harness) -> Any:
    """The stats once the subjects an earlier accepted call left unread are read: a pass
    running behind it (a second later) is no write of the call being checked."""
    await reader_of(harness.store).settle(harness.settings.tenant)
    return await stats(client)


async def _check(
    client: Client[Any], harness: Harness, tool: str, arguments: dict[str, Any]
) -> None:
    before = await _settled_stats(client, harness)
    result = await client.call_tool(tool, arguments, raise_on_error=False)
    if not result.is_error:
        event(f"{tool}: ok")
        OUTCOMES[tool, "ok"] += 1
        return
    text = result.content[0].text  # type: ignore[union-attr]
    try:
        payload = json.loads(text)
    except ValueError:
        pytest.fail(f"{tool} answered a non-graphmem error for {arguments!r}: {text}")
    assert isinstance(payload, dict) and "error" in payload, text
    event(f"{tool}: {payload['error']}")
    OUTCOMES[tool, payload["error"]] += 1
    after = await _settled_stats(client, harness)
    assert after == before, f"{tool} wrote despite refusing {arguments!r}"


async def _schema_of(client: Client[Any], tool: str) -> dict[str, Any]:
    listed = {t.name: t for t in await client.list_tools()}
    return listed[tool].input_schema


@pytest.mark.parametrize("tool", [spec.name for spec in CATALOGUE])
def test_fuzz_tool(fuzz_harness: Harness, tool: str) -> None:
    # One server and client per tool, shared by its examples: building the server for every
    # example cost more than the calls themselves.
    loop = fuzz_harness.loop
    connection = Client(create_server(fuzz_harness.store, fuzz_harness.settings))
    client = loop.run_until_complete(connection.__aenter__())
    try:
        _fuzz(fuzz_harness, client, tool)
    finally:
        loop.run_until_complete(connection.__aexit__(None, None, None))


def _fuzz(harness: Harness, client: Client[Any], tool: str) -> None:
    schema = harness.loop.run_until_complete(_schema_of(client, tool))

    @settings(
        max_examples=25,  # x every tool in the catalogue (41); new seeds every run
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.large_base_example,
        ],
    )
    @given(arguments=_mutations(schema))
    def fuzz(arguments: dict[str, Any]) -> None:
        harness.loop.run_until_complete(_check(client, harness, tool, arguments))

    fuzz()
    mine = {outcome: n for (name, outcome), n in sorted(OUTCOMES.items()) if name == tool}
    print(f"\nfuzz {tool}: {sum(mine.values())} calls {mine}")


def test_injection_strings_are_stored_verbatim(fuzz_harness: Harness) -> None:
    async def scenario() -> None:
        async with Client(create_server(fuzz_harness.store, fuzz_harness.settings)) as client:
            for text in INJECTIONS[:4]:
                written = await client.call_tool(
                    "record_fact", {"project": text, "key": text, "value": text}
                )
                state = await client.call_tool(
                    "current_state", {"state_key": text, "project": text}
                )
                assert state.structured_content is not None
                answer = state.structured_content["answer"]
                assert answer["id"] == written.structured_content["id"]  # type: ignore[index]
                assert (answer["key"], answer["project"], answer["value"]) == (text, text, text)

    fuzz_harness.loop.run_until_complete(scenario())
