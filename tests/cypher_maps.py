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


def head_fields(text: str) -> dict[str, str]:
    """The history head's properties a statement's SET clauses set (``SET h.x = ...``, a
    clause running on over indented lines), each with its value, an UNWIND row's ``top.x``
    and ``ev.x`` written as ``$x`` (a WHERE's ``h.x = $x`` is a check, not a field)."""
    fields: dict[str, str] = {}
    for clause in re.findall(r"^SET (h\..*?)(?=\n\S|\Z)", text, re.DOTALL | re.MULTILINE):
        for assignment in _top_level_split(" ".join(clause.split())):
            name, value = assignment.split(" = ", 1)
            fields[name.removeprefix("h.")] = re.sub(r"\b(top|ev|first)\.", "$", value)
    return fields


def _top_level_split(text: str) -> list[str]:
    """``text`` cut at its commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:at].strip())
            start = at + 1
    return [*parts, text[start:].strip()]


def anonymous_maps(text: str, label: str) -> list[str]:
    """The property maps of the anonymous nodes of ``label`` a statement creates, in order,
    an UNWIND row's ``ev.x`` written as ``$x``."""
    found = re.findall(r"\(:" + label + r" \{(.*?)\}\)", text, re.DOTALL)
    return [re.sub(r"\bev\.", "$", one) for one in found]
