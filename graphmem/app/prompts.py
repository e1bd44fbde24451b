"""MCP prompts: the three moments an agent's host offers as commands. Each renders real
state from the caller's tenant into one user message, with what to call next."""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from datetime import datetime
from typing import Annotated

from fastmcp import FastMCP
from fastmcp.exceptions import PromptError
from pydantic import Field, ValidationError

from graphmem.app.boundary import tool_error
from graphmem.app.rows import ValueRow
from graphmem.core.errors import GraphmemError
from graphmem.history.chain import list_events
from graphmem.history.models import EventRecord, ReplayRequest
from graphmem.recall.models.recall import MAX_STATE_KEYS, RecallRequest
from graphmem.recall.recall import recall_user_context
from graphmem.store import shaped
from graphmem.toolkit.services import Services

MAX_RULE_KEYS = 20  # current fact keys offered as reopen-rule candidates
MAX_CHANGES = 50


@contextlib.contextmanager
def _refusing() -> Generator[None]:
    """A bad argument or a refused read, as the prompt's error (the tools' words)."""
    try:
        yield
    except (GraphmemError, ValidationError) as error:
        raise PromptError(str(tool_error(error))) from error


def register_prompts(server: FastMCP, services: Services) -> None:
    """The three prompts, each rendering the caller's tenant."""
    for register in (_start_session, _record_decision_with_rules, _changes_since):
        register(server, services)


def _start_session(server: FastMCP, services: Services) -> None:
    @server.prompt(
        title="Start a session: recall a project for a task",
        description="What graphmem holds for this project and task (current facts, "
        "preferences, lessons, open work), to read before starting.",
    )
    async def start_session(
        project: Annotated[str, Field(description="The project to recall.")],
        task: Annotated[str, Field(description="What you are about to do.")],
    ) -> str:
        with _refusing():
            keys = await _project_keys(services, project, MAX_STATE_KEYS)
            request = RecallRequest(query=task, project=project, state_keys=keys)
            recalled = await recall_user_context(services.db(), request, services.retrieval)
        known = recalled.context if not recalled.empty else "(nothing recorded yet)"
        return (
            f"I am starting work on: {task}\nProject: {project}\n\n"
            f"What graphmem remembers for it:\n{known}\n\n"
            "Use it as the current truth. While working, record facts that can change with "
            "record_fact, choices with record_decision (with reopen rules on the facts they "
            "rest on), and lessons with save_memory; check current_state before relying on "
            "a fact."
        )


def _record_decision_with_rules(server: FastMCP, services: Services) -> None:
    @server.prompt(
        title="Record a decision with its reopen rules",
        description="Guides a record_decision call whose reopen rules watch the project's "
        "current fact keys, so the decision reopens when a fact it rests on changes.",
    )
    async def record_decision_with_rules(
        project: Annotated[str, Field(description="The project the decision belongs to.")],
        decision: Annotated[str, Field(description="The decision, in a sentence.")],
    ) -> str:
        with _refusing():
            found = await _project_keys(services, project, MAX_RULE_KEYS)
        keys = ", ".join(found) or "(none yet: record_fact them first)"
        return (
            f"Record this decision in project {project}: {decision}\n\n"
            "Call record_decision with a title, the chosen alternative and the ones rejected, "
            "and for the chosen one the reopen rules: each names a fact key, an operator and "
            "a value that must keep holding (e.g. key db.engine, operator equals, value postgres). "
            f"Current fact keys in {project}: {keys}.\n"
            "When a watched fact changes so that a rule breaks, review_decisions reports the "
            "decision as due for review."
        )


def _changes_since(server: FastMCP, services: Services) -> None:
    @server.prompt(
        title="What changed since a time",
        description="The tenant's recorded changes since an instant (newest first, at most "
        f"{MAX_CHANGES}), optionally only those naming a project.",
    )
    async def changes_since(
        since: Annotated[datetime, Field(description="ISO 8601 instant with a time zone.")],
        project: Annotated[str | None, Field(description="Only this project's changes.")] = None,
    ) -> str:
        with _refusing():
            request = ReplayRequest(since_ts=since, limit=MAX_CHANGES)
            events = await list_events(services.db(), request)
        if project is not None:
            events = [e for e in events if e.payload.get("project") == project]
        lines = "\n".join(_change_line(event) for event in events) or "(no changes)"
        scope = f" in project {project}" if project else ""
        return (
            f"What changed{scope} since {since.isoformat()}, newest first:\n{lines}\n\n"
            "Check current_state for any key you rely on; replay_memory shows an event's "
            "whole payload."
        )


async def _project_keys(services: Services, project: str, limit: int) -> list[str]:
    """The project's fact keys, in key order (the completion statement with no prefix)."""
    rows = await services.store.read(
        "facts/list_state_keys", services.tenant(), prefix="", project=project, limit=limit
    )
    return [row["value"] for row in shaped(ValueRow, rows)]


def _change_line(event: EventRecord) -> str:
    subject = f" {event.aggregate_kind} {event.aggregate_id}" if event.aggregate_id else ""
    detail = ", ".join(
        f"{key}={value}"
        for key, value in event.payload.items()
        if key in ("project", "key", "title", "status", "to", "value_json")
    )
    return f"- r{event.revision} {event.occurred_at.isoformat()} {event.event_type}{subject}" + (
        f" ({detail})" if detail else ""
    )
