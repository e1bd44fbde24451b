"""Names, resolution and extraction of subjects: pure logic, no database."""

from __future__ import annotations

import pytest

from graphmem.subjects.extract import mentions_in
from graphmem.subjects.names import lookup_keys, name_of, similarity
from graphmem.subjects.resolve import Candidate, Mention, decide

pytestmark = pytest.mark.pure


def candidate(id: str, *names: str, kind: str | None = None, sources: str = "") -> Candidate:
    return Candidate(id, kind, tuple(name_of(n) for n in names), frozenset(sources.split()))


def mention(text: str, kind: str | None = None, source: str = "s1") -> Mention:
    return Mention(name_of(text), kind, source)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ACME Corporation", "Acme Corp"),
        ("Acme Corp", "acme"),
        ("Dr. Amara Chen", "amara chen"),
        ("Sofia Brandão", "Sofia Brandao"),
        ("Acme's", "Acme"),
        ("\uff21\uff23\uff2d\uff25", "acme"),  # full-width letters meet by NFKC
    ],
)
def test_names_of_one_subject_share_a_normal_form(a: str, b: str) -> None:
    assert name_of(a).normal == name_of(b).normal


def test_a_legal_suffix_alone_is_a_name() -> None:
    assert name_of("Corp").normal == "corp"
    assert name_of("The Company").normal == "company"


def test_initials_and_descriptions_are_recognised() -> None:
    assert name_of("A.C.").acronym and name_of("A.C.").initials == "ac"
    assert name_of("NYC").initials == name_of("New York City").initials == "nyc"
    assert name_of("ACME").normal == name_of("Acme").normal
    assert name_of("Amara Chen").initials == "ac"
    assert name_of("The trust").described and not name_of("The Hobbit").described


def test_keys_find_short_forms_and_initials() -> None:
    full = set(lookup_keys(name_of("Giulia Marchetti")))
    assert {"n:giulia marchetti", "f:giulia", "l:marchetti", "i:gm"} <= full
    assert set(lookup_keys(name_of("Marchetti"))) & full
    assert set(lookup_keys(name_of("G.M."))) & full


def test_similarity_is_jaro_winkler() -> None:
    assert similarity("martha", "marhta") == pytest.approx(0.9611, abs=1e-4)
    assert similarity("dixon", "dicksonx") == pytest.approx(0.8133, abs=1e-4)
    assert similarity("abc", "") == 0.0


def test_an_equal_name_is_the_same_subject() -> None:
    decision = decide(mention("Acme Corporation"), [candidate("s", "Acme Corp")])
    assert decision.verdict == "same" and decision.best and decision.best.evidence == "alias"


def test_a_short_form_merges_only_beside_its_full_name() -> None:
    marcus = candidate("s", "Marcus Bell", kind="person", sources="doc1")
    assert decide(mention("Marcus", "person", "doc1"), [marcus]).verdict == "same"
    assert decide(mention("Marcus", "person", "doc2"), [marcus]).verdict == "ask"


def test_a_nickname_is_a_short_form() -> None:
    melanie = candidate("s", "Melanie", kind="person", sources="d1")
    assert decide(mention("Mel", "person", "d1"), [melanie]).verdict == "same"
    assert decide(mention("Me", "person", "d1"), [melanie]).verdict == "new"  # too short


def test_another_kind_never_matches() -> None:
    paris = candidate("s", "Paris", kind="place")
    assert decide(mention("Paris", "person"), [paris]).verdict == "new"
    assert decide(mention("Paris", None), [paris]).verdict == "same"


def test_a_different_first_name_is_asked_about_never_merged() -> None:
    giulia = candidate("s", "Giulia Marchetti", kind="person", sources="s1")
    decision = decide(mention("J. Marchetti", "person"), [giulia])
    assert decision.verdict == "ask" and decision.best and decision.best.evidence == "surname"
    assert decide(mention("Anna Bell", "person"), [candidate("t", "Marcus Bell")]).verdict == "ask"


def test_two_candidates_for_one_short_form_make_a_question() -> None:
    one = candidate("a", "Kestrel Robotics", sources="s1")
    two = candidate("b", "Kestrel Airways", sources="s1")
    decision = decide(mention("Kestrel"), [one, two])
    assert decision.verdict == "ask" and len(decision.rivals) == 1


def test_an_equal_name_outranks_a_short_form_of_another() -> None:
    acme = candidate("a", "Acme", sources="s1")
    labs = candidate("b", "Acme Labs", sources="s2")
    decision = decide(mention("Acme"), [acme, labs])
    assert decision.verdict == "same" and decision.best and decision.best.subject_id == "a"


def test_a_description_needs_its_antecedent_in_the_same_source() -> None:
    trust = candidate("s", "Riverside Housing Trust", sources="d6")
    assert decide(mention("The trust", source="d6"), [trust]).verdict == "same"
    assert decide(mention("The trust", source="d7"), [trust]).verdict == "new"


def test_near_spellings_are_asked_about() -> None:
    decision = decide(mention("Shia Labeouf"), [candidate("s", "Shia LaBeouff")])
    assert decision.verdict in ("same", "ask")
    assert decide(mention("Rotterdam"), [candidate("s", "Amsterdam")]).verdict == "new"
    assert decide(mention("Halcyon 200"), [candidate("s", "Halcyon 300")]).verdict == "new"


def test_extraction_finds_names_handles_and_identifiers() -> None:
    found = {
        (f.text, f.weak)
        for f in mentions_in(
            "Thanks! Caroline met Giulia Marchetti at the Bank of America in Porto. "
            "Ask @dana_park or dana@acme.io about record_fact and graphmem.store.rows."
        )
    }
    assert {
        ("Caroline", True),
        ("Giulia Marchetti", False),
        ("Bank of America", False),
        ("Porto", False),
        ("@dana_park", False),
        ("dana@acme.io", False),
        ("record_fact", False),
        ("graphmem.store.rows", False),
    } <= found
    assert not {text for text, _ in found} & {"Thanks", "Ask", "dana_park"}


def test_extraction_is_bounded() -> None:
    text = " ".join(f"Name{n} met Person{n}." for n in range(200))
    assert len(mentions_in(text)) == 32
    assert mentions_in("x" * 100_000) == []


def test_a_namesake_already_held_makes_no_new_subject() -> None:
    person = Candidate("a", "person", (name_of("@acme_corp"),), frozenset())
    thing = Candidate("b", "thing", (name_of("acme_corp"),), frozenset())
    decision = decide(mention("acme corp"), [person, thing])  # no kind: the older one
    assert decision.verdict == "same" and decision.best and decision.best.subject_id == "a"
    decision = decide(mention("acme corp", "thing"), [person, thing])  # its own kind
    assert decision.verdict == "same" and decision.best and decision.best.subject_id == "b"


def test_subjects_merged_into_one_are_one_candidate() -> None:
    root = Candidate("r", None, (name_of("Kestrel Robotics"),), frozenset({"s1"}))
    member = Candidate("m", None, (name_of("Kestrel Airways"),), frozenset({"s1"}), root="r")
    decision = decide(mention("Kestrel"), [root, member])
    assert decision.verdict == "same" and not decision.rivals
