"""A fact key's subject (pure), and the spellings statement read through its shape."""

from __future__ import annotations

import pytest

from graphmem.subjects.spellings import SpellingsRow, key_subject
from tests.row_shapes import column_test

pytestmark = pytest.mark.pure


def test_a_keys_subject_is_its_first_part_read_as_a_name() -> None:
    acme = key_subject("acme_corp.ceo")
    assert acme is not None and (acme.subject, acme.attribute) == ("acme", "ceo")
    spelled = key_subject("ACME-Corporation.office.city")
    assert spelled is not None and (spelled.subject, spelled.attribute) == ("acme", "office.city")
    dotted = key_subject("Dr. Dana Park.role")  # the first dot ends the subject
    assert dotted is not None and (dotted.subject, dotted.attribute) == ("dr", " Dana Park.role")
    assert key_subject("timeout") is None and key_subject("acme.") is None
    assert key_subject(".ceo") is None and key_subject("x" * 300 + ".ceo") is None
    assert key_subject("---.ceo") is None  # no word: no subject


test_the_spellings_are_read_as_returned = column_test(
    {"subjects/list_group_spellings": SpellingsRow}
)
