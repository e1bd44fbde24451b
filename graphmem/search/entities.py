"""multi_hop's second query, pure: the names the first hop's best hits mention and the query
does not. No database."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from graphmem.retrieval.lexical import STOP_WORDS, words

MULTI_HOP_ENTITIES = 5
_NAME = re.compile(r"\b[A-Z][\w'-]{2,}\b")


def discover_entities(query: str, texts: Sequence[str]) -> list[str]:
    """Names (capitalised words) the texts mention most that the query does not."""
    known = set(words(query))
    counts: Counter[str] = Counter()
    for text in texts:
        for name in dict.fromkeys(_NAME.findall(text)):
            lowered = name.lower()
            if lowered not in known and lowered not in STOP_WORDS:
                counts[name] += 1
    return [name for name, _ in counts.most_common(MULTI_HOP_ENTITIES)]
