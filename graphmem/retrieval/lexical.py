"""Lexical text for the full-text indexes, partitioned by tenant.

Neo4j full-text indexes are shared by every tenant, and Lucene's BM25 weighs a term by how many
documents of the whole index hold it. Were the words stored as they are, one tenant's writes
would move another's scores: a side channel. So the words are written as tokens prefixed with
a digest of the tenant (``t3fa9c1d2e07_paint``): a term's document frequency then counts only
the tenant's own documents, and a query can only ever match its own tenant's tokens. (Lucene's
average field length stays index-wide: it scales every document of a query alike within one
length class and reveals no term.)

The tokens are made here, not by Lucene: lower-cased letter/digit runs, lightly stemmed
(plurals, -ed, -ing, a final e, y/i), so "painted", "paints" and "painting" meet. The index
uses the whitespace analyzer and sees exactly these tokens.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from graphmem.core.text import STOP_WORDS, stem, tenant_prefix, words

T = TypeVar("T")


def terms(text: str) -> list[str]:
    return [stem(word) for word in words(text)]


def lexical_text(tenant: str, parts: Iterable[str]) -> str:
    """The indexed form of a document: every word of every part, stemmed and tenant-prefixed."""
    prefix = tenant_prefix(tenant)
    return " ".join(prefix + term for part in parts for term in terms(part))


MAX_QUERY_TERMS = 64  # words a search query may have (search and search_raw refuse more)


def leading_words(text: str) -> str:
    """The first MAX_QUERY_TERMS words of a text: a task or question as a search query."""
    return " ".join(text.split()[:MAX_QUERY_TERMS])


def query_terms(query: str, limit: int) -> list[str]:
    """Distinct stemmed terms of a query without stop words (all of them if only stop words)."""
    all_terms = terms(query)
    content = [t for w, t in zip(words(query), all_terms, strict=True) if w not in STOP_WORDS]
    chosen = list(dict.fromkeys(content or all_terms))
    return chosen[:limit]


def lucene_query(tenant: str, query: str, limit: int) -> str:
    """A Lucene query over tenant tokens: the terms OR-ed, the whole phrase boosted; '' if none.

    Every token is made of letters, digits and one underscore, and is quoted anyway, so no
    user input can reach Lucene's syntax.
    """
    prefix = tenant_prefix(tenant)
    chosen = query_terms(query, limit)
    if not chosen:
        return ""
    clauses = [f'"{prefix}{term}"' for term in chosen]
    phrase = [prefix + term for term in terms(query)][:limit]
    if len(phrase) > 1:
        clauses.insert(0, '"' + " ".join(phrase) + '"^2')
    return " OR ".join(clauses)


# Lucene is asked for its top-k, never for every hit: k starts at what a page needs and grows
# by this factor while the filters keep too few and Lucene had more, up to MAX_FETCH.
MAX_FETCH = 16_000
FETCH_GROWTH = 4


async def widening(
    read: Callable[[int], Awaitable[T]], start: int, enough: Callable[[T, int], bool]
) -> T:
    """Read with ``fetch`` = ``start``, then 4x, 16x, ... (at most MAX_FETCH) until ``enough``
    (given the answer and the fetch it was read with) says the answer needs no wider read.
    Every read is bounded, whatever the corpus size; past MAX_FETCH the answer ranks within
    Lucene's best MAX_FETCH hits."""
    fetch = min(start, MAX_FETCH)
    while True:
        answer = await read(fetch)
        if fetch >= MAX_FETCH or enough(answer, fetch):
            return answer
        fetch = min(fetch * FETCH_GROWTH, MAX_FETCH)
