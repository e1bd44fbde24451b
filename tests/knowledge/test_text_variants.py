"""The word splitting variants of graphmem/core/text.py that the knowledge rules use: pack terms
split as written (no NFKC), question words NFKC-normalised and joined by apostrophes or hyphens,
and the pack stop list (the base list and its extra words)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.core.text import STOP_WORDS, TERM_STOP_WORDS, fold, joined_words, raw_words, words
from graphmem.knowledge.heuristics import MARKER_PATTERN

pytestmark = pytest.mark.pure


@given(st.text(max_size=80))
def test_words_are_the_raw_words_of_the_nfkc_text(text: str) -> None:
    assert words(text) == raw_words(unicodedata.normalize("NFKC", text))


FULLWIDTH_POSTGRES = "".join(chr(0xFEE0 + ord(c)) for c in "Postgres")  # width variants
FULLWIDTH_MARKER = "".join(chr(0xFEE0 + ord(c)) if c != "_" else c for c in "ENRICH_OK")


def test_raw_words_keep_width_variants_apart() -> None:
    folded = FULLWIDTH_POSTGRES.lower()
    assert raw_words(f"{FULLWIDTH_POSTGRES} 16_rc Don't") == [folded, "16", "rc", "don", "t"]
    assert words(FULLWIDTH_POSTGRES) == ["postgres"]


def test_joined_words_join_parts_and_drop_control_words() -> None:
    assert joined_words("Don\u2019t follow-up x_y") == ["don't", "follow-up", "x", "y"]
    assert joined_words("Don't ENRICH_OK now") == ["don't", "enrich", "ok", "now"]
    assert joined_words("Don't ENRICH_OK now", drop=MARKER_PATTERN) == ["don't", "now"]
    assert joined_words(f"{FULLWIDTH_MARKER} now", drop=MARKER_PATTERN) == ["now"]  # NFKC first


def test_the_pack_stop_list_is_the_base_list_with_filler_but_might() -> None:
    assert "might" in STOP_WORDS and "might" not in TERM_STOP_WORDS
    assert {"might"} == STOP_WORDS - TERM_STOP_WORDS
    assert {"via", "uses", "next", "one", "themselves"} <= TERM_STOP_WORDS - STOP_WORDS
    assert len(TERM_STOP_WORDS) == len(STOP_WORDS) - 1 + 33


def test_the_plural_fold() -> None:
    assert [fold(w) for w in ("dependencies", "packs", "class", "bus", "status", "ties")] == [
        "dependency",
        "pack",
        "class",
        "bus",
        "status",
        "ties",
    ]
