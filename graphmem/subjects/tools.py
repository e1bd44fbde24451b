"""MCP tools over subjects: what is known under a name, and merges a person decides. Thin."""

from graphmem.subjects import models, questions, service
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("What is known about a subject", Effect.READS)
async def about(services: Services, request: models.AboutRequest) -> models.AboutResult:
    """Everything known under a name, any spelling: the subject, its aliases and merged
    subjects, mention count, the latest memories, turns, chunks and claims naming it, the
    current facts of keys naming it (acme.ceo), decisions watching them, open questions (is
    it one with another?); lists paged by offset. similar: names it may be. Read-only.
    """
    return await service.about(services.db(), request, services.settings.subjects)


@SPECS.tool("Merge two subjects", Effect.CHANGES)
async def merge_subjects(
    services: Services, request: models.MergeSubjectsRequest
) -> models.MergeSubjectsResult:
    """Record that two subjects (ids from about) are one: afterwards either name finds
    both. Nothing moves; split_subject undoes it exactly. Settles the open questions
    between them. One transaction, one history revision.
    """
    return await service.merge_subjects(services.db(), request)


@SPECS.tool("Undo a merge of subjects", Effect.CHANGES)
async def split_subject(
    services: Services, request: models.SplitSubjectRequest
) -> models.SplitSubjectResult:
    """Undo merge_subjects for a subject (the id it was merged with): it stands alone
    again, exactly as before the merge, its spellings and mentions its own; a subject
    never merged is refused (invalid_state). One transaction, one history revision.
    """
    return await service.split_subject(services.db(), request)


@SPECS.tool("Answer a question about two subjects", Effect.CHANGES)
async def answer_subject_question(
    services: Services, request: questions.AnswerSubjectQuestionRequest
) -> questions.AnswerSubjectQuestionResult:
    """A person's answer to an open subject question (about lists them: a name that may be
    another subject): same merges the two (as merge_subjects; split_subject undoes it),
    different closes the question and keeps them apart. One transaction, one revision.
    """
    return await questions.answer_subject_question(services.db(), request)
