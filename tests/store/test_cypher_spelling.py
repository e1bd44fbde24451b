"""Predicates and bookkeeping Cypher repeats are spelled one way, so a reader learns them once
and a change finds every copy (Cypher has no includes; the spelling is enforced here)."""

from __future__ import annotations

import re

import pytest

from graphmem.store.catalog import default_catalog

pytestmark = pytest.mark.pure

# A fact is live now when its validity boundary (the earlier of valid_to and expires_at) has
# not passed: `coalesce(f.effective_until > datetime($now), true)`.
LIVE_NOW = re.compile(r"coalesce\(([\w.]+)\.effective_until > datetime\(\$now\), true\)")
ANY_LIVE_TEST = re.compile(r"effective_until\s*(>|IS NULL)")
# A fact's stint as its key's current fact, kept when it ends.
WAS_CURRENT = re.compile(
    r"CREATE \((\w+)\)-\[:WAS_CURRENT \{since: ([\w.]+), until: datetime\(\$now\)\}\]->\((\w+)\)"
)


def _statements() -> dict[str, str]:
    catalog = default_catalog()
    return {name: catalog[name].text for name in catalog.names()}


def test_the_live_fact_predicate_has_one_spelling() -> None:
    for name, text in _statements().items():
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        tests = len(ANY_LIVE_TEST.findall(code))
        assert tests == len(LIVE_NOW.findall(code)), f"{name}: spell it as {LIVE_NOW.pattern}"


def test_a_current_stint_is_kept_one_way() -> None:
    for name, text in _statements().items():
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        if "WAS_CURRENT" in code and "CREATE" in code.split("WAS_CURRENT")[0][-40:]:
            assert WAS_CURRENT.search(code), f"{name}: keep the stint as {WAS_CURRENT.pattern}"


def test_the_live_predicate_is_used_where_facts_are_read_as_live() -> None:
    users = [name for name, text in _statements().items() if LIVE_NOW.search(text)]
    assert len(users) >= 10, users  # the spelling is the shared one, not a rare variant


# A name's spellings: the normal forms of every alias of the one subject group whose subjects
# bear it (subjects/list_group_spellings; facts/record_fact, its one statement and
# get_current_state find their key's the same way, in the statement, not a round trip before
# it). Whitespace aside, spelled as one: the tenant's key lookup, the group's root, its
# aliases, their order and bound.
SPELLINGS = re.compile(
    re.escape("OPTIONAL MATCH (:SubjectKey {tenant: $tenant, key: 'n:' + ")
    + r"(?P<name>\$subject|name)"
    + re.escape(
        "})-[:KEYS]->(:Alias) -[:OF]->(s:Subject) "
        "OPTIONAL MATCH (s)-[:MERGED_INTO*0..]->(root:Subject) "
        "WHERE NOT EXISTS { (root)-[:MERGED_INTO]->() } "
        "WITH collect(DISTINCT root) AS roots "
        "UNWIND CASE size(roots) WHEN 1 THEN roots ELSE [null] END AS root "
        "RETURN COLLECT { MATCH (root)<-[:MERGED_INTO*0..]-(:Subject)<-[:OF]-(a:Alias) "
        "RETURN DISTINCT a.normal ORDER BY a.normal <> "
    )
    + r"(?P=name), a\.normal LIMIT \$(spellings_limit|limit) \} AS spellings"
)


def test_a_names_spellings_are_found_one_way() -> None:
    finders = []
    for name, text in _statements().items():
        code = " ".join(
            line.split("//")[0] for line in text.splitlines() if not line.lstrip().startswith("//")
        )
        code = re.sub(r"\s+", " ", code).replace("( ", "(")
        if "MERGED_INTO*0..]-(:Subject)<-[:OF]-" in code:
            assert SPELLINGS.search(code), f"{name}: find the spellings as {SPELLINGS.pattern}"
            finders.append(name)
    expected = {
        "subjects/list_group_spellings",
        "facts/record_fact",
        "facts/record_fact_at_head",
        "facts/get_current_state",
    }
    assert expected <= set(finders), finders
