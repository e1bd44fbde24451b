"""Text normalisation, declared once: the words of a text, stop words, and the light stemmer.

Full-text indexing (graphmem.retrieval.lexical), context packs and the question rules of the
knowledge pipeline all split text into words here, so a word means the same everywhere.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

_WORD = re.compile(r"[^\W_]+")
_VOWEL = re.compile(r"[aeiouy]")
_UNDOUBLE = re.compile(r"([bcdfgkmnprt])\1$")

# Words that carry no topic: dropped from query terms (they stay indexed, for phrases).
STOP_WORDS = frozenset(
    """
    a about after again all also am an and any are as at be been before being both but by
    can could did do does doing done for from had has have having he her here hers him his
    how i if in into is it its just me might more most my no nor not now of on once only
    or other our ours out over own same she should so some such than that the their theirs
    them then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours
    """.split()  # noqa: SIM905 - a word list reads best as words
)


def tenant_prefix(tenant: str) -> str:
    """The prefix of a tenant's full-text tokens: a digest, so no tenant name is indexed."""
    return "t" + hashlib.sha256(tenant.encode()).hexdigest()[:12] + "_"


def words(text: str) -> list[str]:
    """Lower-cased letter/digit runs of ``text`` (NFKC first, so width variants meet)."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def stem(word: str) -> str:
    """A light English stemmer: enough to join inflections, never clever."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "i"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        root = word[: -len(suffix)]
        if word.endswith(suffix) and len(root) >= 3 and _VOWEL.search(root):
            word = _UNDOUBLE.sub(r"\1", root)
            break
    if word.endswith("y") and len(word) > 3:
        word = word[:-1] + "i"
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word
