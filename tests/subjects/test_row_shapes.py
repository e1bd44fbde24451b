"""The TypedDicts the subjects pass reads rows through name exactly their statements' columns
(and the keys of the aliases' map)."""

from __future__ import annotations

import pytest

from graphmem.subjects.key_walk import UnnamedKeyRow
from graphmem.subjects.merging import MergedRow, MergeEndRow
from graphmem.subjects.questions import QuestionRow
from graphmem.subjects.reading import AliasItem, CandidateRow, LedgerRow, StaleRow, UnreadRow
from graphmem.subjects.service import GroupRow
from tests.row_shapes import fields, keys_of_map, returned

pytestmark = pytest.mark.pure


def test_the_unread_sources_and_the_candidates_are_read_as_returned() -> None:
    assert sorted(returned("subjects/list_unread_sources")) == fields(UnreadRow)
    candidates = returned("subjects/find_subject_candidates")
    assert sorted(candidates) == fields(CandidateRow)
    assert sorted(keys_of_map(candidates["aliases"].split("RETURN")[-1])) == fields(AliasItem)


def test_a_subject_group_is_read_as_returned() -> None:
    # chunks and claims answer beside memories and turns
    assert sorted(returned("subjects/get_subject_group")) == fields(GroupRow)


def test_a_merge_answers_as_its_shape_says() -> None:
    assert sorted(returned("subjects/merge_subjects")) == fields(MergedRow)
    assert sorted(returned("subjects/get_merge_ends")) == fields(MergeEndRow)


def test_a_question_is_read_as_returned() -> None:
    assert sorted(returned("subjects/get_subject_question")) == fields(QuestionRow)


def test_the_key_walk_reads_as_returned() -> None:
    assert sorted(returned("subjects/list_unnamed_fact_keys")) == fields(UnnamedKeyRow)


def test_the_locked_sources_answer_their_mentions() -> None:
    assert sorted(returned("subjects/lock_read_sources")) == fields(StaleRow)


def test_the_ledger_says_which_walks_are_left() -> None:
    assert sorted(returned("subjects/lock_subject_ledger")) == fields(LedgerRow)
