"""Reading a one-statement write's Cypher against the statements it stands for: the property
maps it creates and the history head's fields it sets (tests/memories/test_one_statement_save.py,
tests/facts/test_one_statement_record.py)."""

from __future__ import annotations

import re


def created(text: str, label: str) -> dict[str, str]:
    """The property map of the CREATE of ``label`` in ``text``: key -> value expression, the
    values of an UNWIND's row (``ev.x``) written as parameters (``$x``)."""
    match = re.search(r"CREATE \(\w+:" + label + r" \{(.*?)\}\)", text, re.DOTALL)
    assert match is not None, f"no CREATE of {label}"
    pairs = [pair.strip() for pair in match.group(1).split(",") if pair.strip()]
    fields = dict(pair.split(": ", 1) for pair in pairs)
    return {key: re.sub(r"\bev\.", "$", value) for key, value in fields.items()}


def head_fields(text: str) -> set[str]:
    """The history head's properties a statement sets (``h.x = ...``)."""
    return set(re.findall(r"\bh\.(\w+) =", text))


def anonymous_maps(text: str, label: str) -> list[str]:
    """The property maps of the anonymous nodes of ``label`` a statement creates, in order."""
    return re.findall(r"\(:" + label + r" \{(.*?)\}\)", text, re.DOTALL)
