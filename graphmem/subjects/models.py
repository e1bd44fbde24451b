"""What crosses the subjects area's boundary: the names a writer gives (``about``), the
``about`` read, and the merge and split of subjects."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, Field, JsonValue, model_validator

from graphmem.core.errors import InvalidArgument
from graphmem.core.models import AuditedRequest, Name, OutputModel, ShortText, StrictModel
from graphmem.subjects.names import MAX_NAME_CHARS

MAX_ABOUT = 16  # names one write may give


def _printable(name: str) -> str:
    if any(not ch.isprintable() for ch in name):
        raise ValueError("a name holds no control characters or line breaks")
    return name


SubjectName = Annotated[
    str,
    Field(min_length=1, max_length=MAX_NAME_CHARS, pattern=r"^\S(.*\S)?$"),
    AfterValidator(_printable),
]
ABOUT_DESCRIPTION = "Names of who or what it is about (people, organisations, places, projects)."


class AboutRequest(StrictModel):
    name: SubjectName = Field(description="A name, as written anywhere (any spelling).")
    limit: int = Field(default=10, ge=1, le=50, description="Items per list.")
    offset: int = Field(default=0, ge=0, le=10_000, description="Items of each list skipped.")


class SubjectMember(OutputModel):
    id: str
    name: str
    kind: str | None
    merged_into: str | None = Field(description="The subject it was merged into (null: root).")


class MentioningMemory(OutputModel):
    id: str
    project: str
    title: str
    updated_at: datetime


class MentioningTurn(OutputModel):
    id: str
    session_id: str
    role: str
    ts: datetime
    content: str = Field(description="Its first 300 characters.")


class MentioningChunk(OutputModel):
    id: str
    project: str
    title: str | None
    state: str
    updated_at: datetime


class MentioningClaim(OutputModel):
    id: str
    project: str
    subject: str
    predicate: str
    object: str
    status: str
    chunk_id: str | None = Field(description="The chunk it was first mined from.")


class WatchingDecision(OutputModel):
    id: str
    project: str
    title: str
    status: str


class FactAbout(OutputModel):
    id: str
    key: str
    owner: str
    value: JsonValue
    recorded_at: datetime


class SubjectQuestionItem(OutputModel):
    id: str
    subject_id: str
    other_id: str
    other_name: str
    evidence: str
    confidence: float


class SubjectView(OutputModel):
    id: str = Field(description="The subject (the root of its merges).")
    name: str
    kind: str | None
    aliases: list[str]
    members: list[SubjectMember]
    mentions: int
    memories: list[MentioningMemory]
    turns: list[MentioningTurn]
    chunks: list[MentioningChunk] = Field(description="Not quarantined, latest first.")
    claims: list[MentioningClaim] = Field(description="Not rejected, latest first.")
    facts: list[FactAbout] = Field(description="Current facts of keys naming it (acme.ceo).")
    decisions: list[WatchingDecision] = Field(description="Live decisions watching its keys.")
    questions: list[SubjectQuestionItem] = Field(description="Open: is it one with another?")


class AboutResult(OutputModel):
    subjects: list[SubjectView] = Field(description="Subjects with this name (usually one).")
    similar: list[str] = Field(description="Names of others it may be (ask before merging).")
    next_offset: int | None = Field(
        default=None, description="A list was full: the offset of the next page (null: none)."
    )


class MergeSubjectsRequest(AuditedRequest):
    subject_id: Name = Field(description="The subject to merge (its whole group).")
    into_id: Name = Field(description="The subject it is one with.")
    reason: ShortText = Field(description="Why they are one (kept in history).")

    @model_validator(mode="after")
    def _not_itself(self) -> MergeSubjectsRequest:
        if self.subject_id == self.into_id:
            raise InvalidArgument("into_id", "a subject is already one with itself")
        return self


class MergeSubjectsResult(OutputModel):
    subject_id: str
    into_id: str = Field(description="The root both now resolve to.")
    settled_questions: int
    revision: int


class SplitSubjectRequest(AuditedRequest):
    subject_id: Name = Field(description="A subject that was merged: its merge is undone.")
    reason: ShortText = Field(description="Why they are two (kept in history).")


class SplitSubjectResult(OutputModel):
    subject_id: str
    was_merged_into: str
    revision: int
