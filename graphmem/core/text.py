"""Text normalisation, declared once: the words of a text, stop words, the plural fold and the
light stemmer.

Full-text indexing (graphmem.retrieval.lexical), context packs and the question rules of the
knowledge pipeline all split text into words here, so a word means the same everywhere. The
variants differ on purpose, and each caller's tokens are pinned by its tests:
- ``words``: NFKC, lower-cased letter/digit runs (the full-text index and recall);
- ``raw_words``: the same runs without NFKC (pack relevance terms);
- ``joined_words``: NFKC, runs an apostrophe or hyphen may join (``don't``, ``follow-up``),
  lower-cased after matching (the clarification question rules).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

_WORD = re.compile(r"[^\W_]+")
_JOINED_WORD = re.compile(r"[^\W_]+(?:['\u2019\-][^\W_]+)*")
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
# Words that never make a relevance term of a context pack: the stop words above and the
# filler of task titles, except "might" (packs have always kept it as a term).
TERM_STOP_WORDS = (
    STOP_WORDS
    | frozenset(
        """
        above against because below between down during each few further herself himself
        itself myself off ourselves themselves yourself yourselves get got make need needs
        next via per use uses used using one two
        """.split()  # noqa: SIM905 - a word list reads best as words
    )
) - {"might"}


def tenant_prefix(tenant: str) -> str:
    """The prefix of a tenant's full-text tokens: a digest, so no tenant name is indexed."""
    return "t" + hashlib.sha256(tenant.encode()).hexdigest()[:12] + "_"


def words(text: str) -> list[str]:
    """Lower-cased letter/digit runs of ``text`` (NFKC first, so width variants meet)."""
    return raw_words(unicodedata.normalize("NFKC", text))


def raw_words(text: str) -> list[str]:
    """Lower-cased letter/digit runs of ``text`` as written (no NFKC)."""
    return _WORD.findall(text.lower())


def joined_words(text: str, drop: re.Pattern[str] | None = None) -> list[str]:
    """Whole words of ``text`` (NFKC first), an apostrophe or hyphen joining two runs, each
    lower-cased with a curly apostrophe made straight. ``drop`` matches (control words) are
    blanked after NFKC, so they split words and are never part of one."""
    plain = unicodedata.normalize("NFKC", text)
    if drop is not None:
        plain = drop.sub(" ", plain)
    return [word.lower().replace("\u2019", "'") for word in _JOINED_WORD.findall(plain)]


def fold(word: str) -> str:
    """A light plural fold: dependencies → dependency, packs → pack (not class, bus)."""
    if len(word) > 5 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


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
