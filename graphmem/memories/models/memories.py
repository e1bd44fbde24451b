"""Curated memories: save_memory, get_observations, govern_memory. Each tool argument is declared
here once (type, bounds, default, description); the tool schemas are derived from it."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, model_validator

from graphmem.core.errors import InvalidArgument
from graphmem.core.models import Audit, AuditedRequest, AuditText, Name, OutputModel, StrictModel
from graphmem.subjects.models import ABOUT_DESCRIPTION, MAX_ABOUT, SubjectName
from graphmem.toolkit.answers import compact

MemoryType = Literal[
    "decision", "bugfix", "discovery", "preference", "procedure", "note", "architecture", "lesson"
]
MEMORY_TYPES: tuple[str, ...] = MemoryType.__args__
MemoryStatus = Literal["active", "stale", "quarantined", "rejected", "deleted"]
GovernAction = Literal["stale", "reject", "delete", "release"]

MAX_TITLE_CHARS = 200
MAX_CONTENT_CHARS = 20_000
MAX_TAGS = 20
MAX_FILES = 50
MAX_IDS = 100
PREVIEW_CHARS = 300

TopicKey = Annotated[
    str,
    Field(
        min_length=1,
        max_length=120,
        pattern=r"^[a-z0-9][a-z0-9._:/-]*$",
        description="Stable topic id.",
    ),
]
Tag = Annotated[str, Field(min_length=1, max_length=50, pattern=r"^\S+$")]
FilePath = Annotated[str, Field(min_length=1, max_length=500)]
MemoryId = Annotated[str, Field(min_length=1, max_length=64)]


class SaveMemoryRequest(StrictModel):
    project: Name = Field(description="Project.")
    type: MemoryType = Field(default="note", description="Kind.")
    title: str = Field(min_length=1, max_length=MAX_TITLE_CHARS, description="Title.")
    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS, description="What and why.")
    topic_key: TopicKey | None = Field(default=None, description="Stable topic id.")
    branch: Name | None = Field(default=None, description="Git branch.")
    tags: list[Tag] = Field(default_factory=list, max_length=MAX_TAGS, description="Tags.")
    files: list[FilePath] = Field(default_factory=list, max_length=MAX_FILES, description="Files.")
    backup: bool = Field(default=True, description="Markdown backup.")
    session_id: AuditText | None = Field(default=None, description="Archived session id.")
    about: list[SubjectName] = Field(
        default_factory=list[str], max_length=MAX_ABOUT, description=ABOUT_DESCRIPTION
    )
    actor: Audit = None
    client: Audit = None

    @model_validator(mode="after")
    def _not_blank(self) -> SaveMemoryRequest:
        for field in ("title", "content"):
            if not getattr(self, field).strip():
                raise InvalidArgument(field, "must not be blank")
        return self


class MemoryRecord(OutputModel):
    id: str
    project: str
    type: MemoryType
    title: str
    content: str
    topic_key: str | None
    topic_version: int = Field(description="Position in the topic's chain of versions, from 1.")
    branch: str | None
    tags: list[str]
    files: list[str]
    status: MemoryStatus
    version: int = Field(
        description="Optimistic-concurrency version: grows by one with every change of the "
        "memory (pass it to govern_memory as expected_versions)."
    )
    created_at: datetime
    updated_at: datetime
    active_from: datetime | None = Field(description="When it became active (null: never).")
    retired_at: datetime | None = Field(description="When it stopped being active.")
    superseded_by: str | None
    status_reason: str | None
    session_id: str | None = Field(description="The session it was saved in, as given.")
    quarantine_reasons: list[str]
    redactions: list[str] = Field(description="Kinds of secrets redacted before storing.")
    access_count: int
    last_accessed_at: datetime | None


class BackupResult(OutputModel):
    status: Literal["saved", "disabled", "skipped", "failed"] = Field(
        description="saved; disabled (no GRAPHMEM_MEMORY_BACKUP_DIR); skipped (backup=false or "
        "nothing written); failed (the memory is saved, the file is not: see error)."
    )
    file: str | None = Field(
        default=None,
        description="The file's name inside the server's backup folder (never the server's "
        "own path).",
    )
    error: str | None = Field(
        default=None, description="Why the file was not written; details are in the server log."
    )


class SaveRedaction(OutputModel):
    field: Literal["title", "content"]
    kind: str
    start: int
    end: int


class NextStep(OutputModel):
    tool: str
    source: str
    ids: list[str]
    reason: str


class SaveMemoryResult(OutputModel):
    compact_answer = compact(
        "operation",
        "superseded_id",
        "quarantined",
        "redactions",
        "revision",
        id="memory.id",
        version="memory.version",
        status="memory.status",
    )
    memory: MemoryRecord
    operation: Literal["created", "new_version", "unchanged"] = Field(
        description="created: a first memory (or topic); new_version: a new version of the "
        "topic, the previous active one now stale; unchanged: the topic's active version "
        "already says exactly this, nothing was written."
    )
    superseded_id: str | None = Field(description="The version this one made stale.")
    quarantined: bool = Field(
        description="Instruction-like content: stored quarantined, out of search results, "
        "bundles and current state until govern_memory releases it."
    )
    redactions: list[SaveRedaction]
    backup: BackupResult
    revision: int | None
    next_step: NextStep


class GetObservationsRequest(StrictModel):
    ids: list[MemoryId] = Field(min_length=1, max_length=MAX_IDS, description="Ids from search.")
    source: Literal["memory", "raw"] = Field(
        default="memory", description="raw: turn ids of raw_hits."
    )


class RawTurnDetail(OutputModel):
    id: str
    session_id: str
    session_ref: str
    project: str
    role: str
    ts: datetime
    seq: int
    content: str
    quarantined: bool
    quarantine_reasons: list[str]


class GetObservationsResult(OutputModel):
    source: Literal["memory", "raw"]
    details: list[MemoryRecord | RawTurnDetail] = Field(
        description="In the order the ids were given."
    )


class GovernMemoryRequest(AuditedRequest):
    ids: list[MemoryId] = Field(min_length=1, max_length=MAX_IDS, description="Memory ids.")
    action: GovernAction = Field(description="release un-quarantines.")
    dry_run: bool = Field(default=True, description="Preview only.")
    confirm_destructive: bool = Field(default=False, description="True for a real run.")
    reason: str | None = Field(default=None, max_length=2000, description="Why (real run).")
    expected_versions: dict[MemoryId, int] | None = Field(
        default=None, max_length=MAX_IDS, description="{id: version} from the dry run."
    )

    @model_validator(mode="after")
    def _real_run(self) -> GovernMemoryRequest:
        if self.dry_run:
            return self
        problems: dict[str, str] = {}
        if not self.confirm_destructive:
            problems["confirm_destructive"] = "must be true for a real run (dry_run=false)"
        if self.reason is None or not self.reason.strip():
            problems["reason"] = "required for a real run (dry_run=false)"
        missing = [i for i in dict.fromkeys(self.ids) if i not in (self.expected_versions or {})]
        if missing:
            problems["expected_versions"] = (
                f"must give the version of every id (dry_run shows them); missing: {missing}"
            )
        extra = [i for i in (self.expected_versions or {}) if i not in self.ids]
        if extra and "expected_versions" not in problems:
            problems["expected_versions"] = f"names ids not in ids: {extra}"
        if problems:
            field = next(iter(problems))
            raise InvalidArgument(field, "; ".join(f"{k}: {v}" for k, v in problems.items()))
        return self


class GovernedMemory(OutputModel):
    id: str
    title: str
    topic_key: str | None
    version: int = Field(description="Version before this call (expected_versions takes it).")
    new_version: int | None = Field(description="Version after a real run; null in a dry run.")
    previous_status: MemoryStatus
    new_status: MemoryStatus
    superseded_id: str | None = Field(
        default=None, description="On release: the active version this one made stale."
    )


class GovernMemoryResult(OutputModel):
    dry_run: bool
    action: GovernAction
    reason: str | None
    affected: list[GovernedMemory]
    revision: int | None


class TopicVersion(OutputModel):
    id: str
    topic_version: int
    title: str
    status: MemoryStatus
    created_at: datetime
    active_from: datetime | None
    retired_at: datetime | None
    superseded_by: str | None


class MemoryTopicState(OutputModel):
    """The memories side of current_state: the versions of the topic named by the state key."""

    status: Literal["current", "no_current", "not_found", "ambiguous"]
    project: str | None = Field(description="Project of the resolved topic (null if none).")
    current: MemoryRecord | None = Field(
        description="The version active (at known_at / as_of, if given); never a quarantined, "
        "rejected or deleted one."
    )
    history: list[TopicVersion] = Field(description="The other versions, newest first.")
    candidates: list[str] = Field(
        default_factory=list, description="Projects holding an active version, when ambiguous."
    )
