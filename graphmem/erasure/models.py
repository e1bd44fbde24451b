"""What an erasure is asked and answers: one selector, a dry run first, then a confirmed run
that must carry the dry run's fingerprint (see graphmem/erasure/service.py)."""

from __future__ import annotations

from pydantic import Field, model_validator

from graphmem.core.errors import InvalidArgument
from graphmem.core.models import AuditedRequest, AuditText, Name, OutputModel

MAX_IDS = 1_000
SELECTORS = ("ids", "project", "raw_session_id", "topic_key", "written_by", "written_in_session")


class EraseRequest(AuditedRequest):
    ids: list[Name] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_IDS,
        description="Ids of memories, facts, chunks, claims, raw turns or sessions, decisions, "
        "workstreams, attempts, questions or packs; commits by sha.",
    )
    project: Name | None = Field(default=None, description="Everything of this project.")
    raw_session_id: Name | None = Field(
        default=None, description="A raw-archive session and its turns."
    )
    topic_key: Name | None = Field(
        default=None, description="Every version of a memory topic and the fact key of that name."
    )
    written_by: AuditText | None = Field(
        default=None, description="Everything this actor wrote (the writes' `actor`)."
    )
    written_in_session: AuditText | None = Field(
        default=None, description="Everything written with this `session_id`."
    )
    dry_run: bool = Field(default=True, description="List what would go; erase nothing.")
    confirm_destructive: bool = Field(default=False, description="True for a real run.")
    reason: str | None = Field(
        default=None, min_length=1, max_length=2000, description="Why (real run; recorded)."
    )
    expected_fingerprint: str | None = Field(
        default=None,
        min_length=64,
        max_length=64,
        pattern="^[0-9a-f]{64}$",
        description="The dry run's fingerprint: what it listed is what is erased.",
    )

    @model_validator(mode="after")
    def _one_selector_and_a_confirmed_run(self) -> EraseRequest:
        chosen = [name for name in SELECTORS if getattr(self, name) is not None]
        if len(chosen) != 1:
            raise InvalidArgument(
                "ids", f"give exactly one selector of {', '.join(SELECTORS)} (got {len(chosen)})"
            )
        if self.dry_run:
            return self
        for field, problem in (
            ("confirm_destructive", not self.confirm_destructive),
            ("reason", self.reason is None or not self.reason.strip()),
            ("expected_fingerprint", self.expected_fingerprint is None),
        ):
            if problem:
                raise InvalidArgument(field, "required for a real run (dry_run=false)")
        return self

    @property
    def selector(self) -> str:
        return next(name for name in SELECTORS if getattr(self, name) is not None)

    @property
    def by_authorship(self) -> bool:
        """What an actor or agent session wrote (not a place in the graph) is selected."""
        return self.written_by is not None or self.written_in_session is not None

    def selector_record(self) -> dict[str, str | int]:
        """What the erasure's events say was selected: the selector's kind and, for ids, how
        many (never a value: a project, topic or actor name is itself content)."""
        return {"selector": self.selector, **({"ids": len(self.ids)} if self.ids else {})}


class ErasureSample(OutputModel):
    kind: str
    id: str
    preview: str = Field(description="The start of what it holds (dry run only).")


class EraseResult(OutputModel):
    dry_run: bool
    fingerprint: str = Field(
        description="Of the selection (a real run: of what it left past the bound); a real "
        "run must pass the dry run's."
    )
    counts: dict[str, int] = Field(description="Nodes by kind: selected (dry run) or erased.")
    total: int
    event_payloads: int = Field(description="History payloads erased (or to erase).")
    ids: list[str] = Field(description=f"The ids, the first {MAX_IDS}.")
    sample: list[ErasureSample] = Field(default_factory=list[ErasureSample])
    remaining: int = Field(
        default=0,
        description="Selected beyond this call's bound: run the dry run again for the rest.",
    )
    erasure_id: str | None = Field(default=None, description="Names this erasure's events.")
    revisions: list[int] = Field(
        default_factory=list[int], description="The erasure's own events (one per batch)."
    )

    @property
    def erased_something(self) -> bool:
        """A real run that erased nodes or history payloads (what a log push follows)."""
        return not self.dry_run and bool(self.total or self.event_payloads)
