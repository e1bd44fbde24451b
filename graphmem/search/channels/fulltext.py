"""The full-text channel: BM25 of the Neo4j full-text index over tenant-prefixed tokens
(graphmem/retrieval/lexical.py)."""

from __future__ import annotations

from graphmem.core.errors import InvalidArgument
from graphmem.retrieval.lexical import FETCH_GROWTH, MAX_QUERY_TERMS, lucene_query, widening
from graphmem.search.channels.context import Hit, Reading
from graphmem.search.channels.names import ChannelName
from graphmem.search.rows import FullTextHit, FullTextRow
from graphmem.store import Params, shaped


class FullText:
    name = ChannelName.FULLTEXT
    expands = False

    async def ranked(self, reading: Reading) -> list[Hit] | None:
        rows = await fulltext_rows(reading)
        return [Hit(row["id"], row["type"]) for row in rows]


async def fulltext_rows(reading: Reading) -> list[FullTextHit]:
    """The channel's best hits after the filters, best first (ties by id).

    Lucene is asked for its top 4 x pool first (a top-k read, cheap at any corpus size); when
    the filters keep fewer than the pool and Lucene had more, for 4 times more (``widening``).
    """
    context, sources, query = reading.context, reading.sources, reading.query
    if len(query.split()) > MAX_QUERY_TERMS:
        raise InvalidArgument("query", f"more than {MAX_QUERY_TERMS} terms")
    lucene = lucene_query(context.db.tenant, query, MAX_QUERY_TERMS)
    if not lucene:
        return []
    params: Params = {"lucene": lucene, "pool": context.pool, **sources.channel_params()}

    async def read(fetch: int) -> FullTextRow:
        [row] = shaped(FullTextRow, await context.db.read(sources.fulltext, fetch=fetch, **params))
        return row

    row = await widening(
        read,
        FETCH_GROWTH * context.pool,
        lambda row, fetch: len(row["hits"]) >= context.pool or row["fetched"] < fetch,
    )
    return sorted(row["hits"], key=lambda hit: (-hit["score"], hit["id"]))
