"""Names as resolution reads them: one normal form, the keys a candidate is found by, and the
ways two names of one subject differ. Pure: no database, no model, deterministic.

A name's normal form: NFKC, marks removed (Brandão, Brandao meet), case folded, a possessive
``'s`` dropped, punctuation made space, honorifics (Dr, Mr, Ms, ...) dropped, a leading
"the" dropped, and an organisation's legal suffix (Corp, Corporation, Inc, Ltd, LLC, ...)
dropped where something is left before it. "ACME Corporation", "Acme Corp" and "acme" share
the normal form ``acme``.

Keys (``lookup_keys``) are what the store's index is asked for: the normal form, the first
and last word, and the initials. A new mention is compared only with subjects that share a
key, never with every subject of the tenant.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_NAME_CHARS = 200

# Dropped before a full name ("Dr. Amara Chen"); kept before a lone word ("Mr. Chen" and "Ms.
# Chen" are not one name, nor "Lady Gaga" and "Gaga"). "St" is never one: St Louis is a place.
HONORIFICS = frozenset(
    "dr mr mrs ms miss mx prof sir dame lord lady rev fr".split()  # noqa: SIM905 - words
)
LEGAL_SUFFIXES = frozenset(
    [
        "corp",
        "corporation",
        "inc",
        "incorporated",
        "ltd",
        "limited",
        "llc",
        "llp",
        "plc",
        "co",
        "company",
        "gmbh",
        "ag",
        "sa",
        "bv",
        "nv",
        "oy",
        "ab",
        "pty",
        "srl",
        "spa",
    ]
)
ARTICLES = frozenset({"the"})
_WORD = re.compile(r"[^\W_]+")
_POSSESSIVE = re.compile(r"['\u2019]s\b", re.IGNORECASE)
_ACRONYM = re.compile(r"^(?:[^\W\d_]\.?\s*){2,5}$")


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


@dataclass(frozen=True)
class Name:
    """A name as written and the words resolution compares."""

    written: str
    words: tuple[str, ...]  # normal form's words
    acronym: bool = False  # written as initials or capitals ("A.C.", "NYC", "ACME")
    described: bool = False  # a definite description: "the trust", "The union"

    @property
    def normal(self) -> str:
        return " ".join(self.words)

    @property
    def first(self) -> str:
        return self.words[0] if self.words else ""

    @property
    def last(self) -> str:
        return self.words[-1] if self.words else ""

    @property
    def initials(self) -> str:
        """The first letters of the words ("amara chen": "ac"); an acronym's own letters."""
        if self.acronym:
            return self.normal
        return "".join(word[0] for word in self.words) if len(self.words) > 1 else ""


def name_of(written: str) -> Name:
    """The normal form of a name as written."""
    text = _POSSESSIVE.sub("", written.strip())
    if _ACRONYM.fullmatch(text) and ("." in text or text.isupper()):
        letters = "".join(ch for ch in _plain(text) if ch.isalpha())
        return Name(written, (letters,), acronym=True)
    words = _WORD.findall(_plain(text))
    described = len(words) == 2 and words[0] in ARTICLES and text.split()[-1].islower()
    while (len(words) > 2 and words[0] in HONORIFICS) or (len(words) > 1 and words[0] in ARTICLES):
        words = words[1:]
    while len(words) > 1 and words[-1] in LEGAL_SUFFIXES:
        words = words[:-1]
    return Name(written, tuple(words), described=described)


def lookup_keys(name: Name) -> list[str]:
    """What the index is asked for: a candidate shares at least one of these."""
    keys = {f"n:{name.normal}"}
    if name.acronym:
        keys.add(f"i:{name.normal}")
        return sorted(keys)
    if len(name.words) > 1:
        keys |= {f"f:{name.first}", f"l:{name.last}", f"i:{name.initials}"}
    else:
        keys |= {f"f:{name.first}", f"l:{name.first}"}
    return sorted(k for k in keys if len(k) > 2)


def similarity(a: str, b: str) -> float:
    """Jaro-Winkler similarity of two normal forms (1.0: equal)."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    window = max(max(len(a), len(b)) // 2 - 1, 0)
    matched_a = [False] * len(a)
    matched_b = [False] * len(b)
    matches = 0
    for i, ch in enumerate(a):
        for j in range(max(0, i - window), min(len(b), i + window + 1)):
            if not matched_b[j] and b[j] == ch:
                matched_a[i] = matched_b[j] = True
                matches += 1
                break
    if matches == 0:
        return 0.0
    left = [ch for ch, hit in zip(a, matched_a, strict=True) if hit]
    right = [ch for ch, hit in zip(b, matched_b, strict=True) if hit]
    transpositions = sum(x != y for x, y in zip(left, right, strict=True)) / 2
    jaro = (matches / len(a) + matches / len(b) + (matches - transpositions) / matches) / 3
    prefix = 0
    for x, y in zip(a[:4], b[:4], strict=False):
        if x != y:
            break
        prefix += 1
    return jaro + prefix * 0.1 * (1 - jaro)
