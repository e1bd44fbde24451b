"""The raw archive: every conversation turn, stored once, searchable word for word.

Graph: ``(:Session {tenant, id, project, session_ref, host, source_root, first_ts, last_ts,
message_count, next_seq, content_hash})`` -[:HAS_TURN]-> ``(:Turn {tenant, id, session_id,
project, role, content, ts, seq, content_hash, quarantined, quarantine_reasons, archived_at,
archived_revision})``, and
``(turn)-[:NEXT]->(turn)`` threading a session's turns in (ts, seq) order.

Rules of archive_turns:
- A session is identified by (project, source_root, host, session_ref) within the tenant; it is
  made on first use with a server-generated id. govern_memory never touches the archive.
- Every turn passes the poisoning gate (graphmem/screening/gate.py) first: secrets are replaced by
  ``[REDACTED:<kind>]`` (reported per turn index) and instruction-like content is stored with
  ``quarantined`` true and its reasons (reported per turn index).
- ``ts`` must carry a UTC offset and is stored normalised to UTC, so the same instant written
  with two offsets is the same turn.
- A turn's ``content_hash`` is the sha256 of its content as stored (after redaction). The same
  turn twice (same session, role, ts and content hash) is stored once: a uniqueness constraint
  holds it, repeats in the store and within one call count as ``duplicates``.
- ``seq`` is the order of arrival in the session (0, 1, ...; within a call, in ts order, ties
  in the order given). NEXT follows (ts, seq); a late turn re-threads only the suffix it lands
  in, appending costs only the new turns.
- The session's ``content_hash`` is the XOR of sha256(role, ts, content hash) over its turns:
  updated incrementally, independent of batching and arrival order.
- Bounds: 1 to 500 turns per call, 100,000 characters per turn, 2,000,000 per call.
- One transaction per call: the session, every new turn (one UNWIND statement), the NEXT
  threading and one history event. A call that stores nothing (every turn already there)
  writes nothing and commits no revision.

Rules of search_raw:
- The query is read as plain words, never as Lucene syntax: its letter/digit runs are
  lower-cased, lightly stemmed and turned into the tenant's tokens (graphmem/retrieval/lexical.py),
  so operators (AND, OR, NOT, +, -), wildcards, fields (``a:b``), ranges, fuzzy and boost
  markers are plain words and never raise a parse error. The content words are OR-ed (stop
  words only count inside the phrase) and the whole query is added as a phrase boosted twice,
  so turns holding the exact phrase rank first and turns holding more of the terms rank next
  (BM25 of the Neo4j full-text index ``turn_lexical``). A query without any letter or digit
  returns no hits. At most 64 whitespace-separated terms.
- A turn is indexed with its date words ("8 May 2023") and its content, so a question naming a
  day finds it.
- The full-text index is shared by every tenant, but its tokens are tenant-prefixed: document
  frequencies count the caller's own turns, a query can only match them, and hits are also
  filtered on the tenant before they are ordered, counted or paged.
- Filters: project, session_id (server id), session_ref, role, since/until (inclusive),
  include_quarantined (default true). Quarantined turns are returned flagged: literal recall
  is not a context bundle, a pack or current state, which exclude them.
- Order: score, then newer first, then id. ``limit`` 1-100 (default 20), ``offset`` up to
  10,000; ``has_more`` and ``next_offset`` page on.

Rules of list_raw_sessions:
- Sessions with at least one turn in [since, until] (both optional, inclusive), newest last
  turn first, at most ``latest`` (1-500, default 50); a session whose turns all fall outside
  the window takes no slot. ``has_more`` says more sessions of the window exist.
- Whole-session fields (first/last ts, message_count, content_hash) and window fields
  (counts per role, first/last in-window ts). ``samples`` (0-20) first in-window user turns in
  time order, quarantined ones skipped, each cut to ``sample_chars`` (1-2,000).
"""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.archive.models import (
    ArchiveTurnsRequest,
    ArchiveTurnsResult,
    ListRawSessionsRequest,
    ListRawSessionsResult,
    RawHit,
    RawSessionSummary,
    SearchRawRequest,
    SearchRawResult,
)
from graphmem.archive.rows import (
    ArchivedTurnRow,
    MergedSessionRow,
    RawHitRow,
    RawSearchRow,
    RawSessionSummaryRow,
    SessionRow,
    ThreadedRow,
)
from graphmem.archive.turns import (
    EMPTY_HASH,
    TurnBatch,
    TurnCandidate,
    check_call_size,
    check_window,
    fold_hash,
    query_terms,
    screen_turns,
    snippet,
    turn_digest,
)
from graphmem.core.clock import utc_iso
from graphmem.core.errors import InvalidArgument
from graphmem.core.ids import new_id
from graphmem.core.models import from_node, paged, pick
from graphmem.core.progress import step
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.retrieval.indexing import indexer_of
from graphmem.retrieval.lexical import FETCH_GROWTH, MAX_QUERY_TERMS, lucene_query, widening
from graphmem.store import Params, TenantStore, shaped
from graphmem.subjects.reading import reader_of
from graphmem.toolkit.retrieval import WITHOUT_MODELS, Retrieval

EARLIEST = datetime(1, 1, 1, tzinfo=UTC)


async def archive_turns(
    db: TenantStore,
    request: ArchiveTurnsRequest,
    retrieval: Retrieval = WITHOUT_MODELS,
    read_subjects: bool = True,
) -> ArchiveTurnsResult:
    embedder = retrieval.embedder
    check_call_size(request)
    batch = screen_turns(db.tenant, request)
    await step(1, 3, f"screened {len(request.turns)} turns")
    session_id = new_id()
    stored: list[str] = []  # turns whose vectors follow (the last run of work: it may rerun)

    async def work(w: Write) -> ArchiveTurnsResult:
        merged = await _merge_session(w, request, session_id)
        sid = merged["id"]
        new = await _new_turns(w, merged, batch.candidates)
        stored[:] = [c["id"] for c in new]
        duplicates = len(request.turns) - len(new)
        if not new:
            [row] = shaped(SessionRow, await w.run("archive/get_raw_session", session_id=sid))
            return batch.result(row, created=False, stored=0, duplicates=duplicates, revision=None)
        base = merged["next_seq"]
        # with the model asked for but not loaded, turns still wait: a start with it embeds them
        expected = embedder is not None or retrieval.vectors_off is not None
        await _create_turns(w, sid, base, new, vectors_follow=expected)
        [threaded] = shaped(
            ThreadedRow,
            await w.run(
                "archive/link_raw_turn_sequence",
                session_id=sid,
                from_ts=new[0]["ts"],
                new_ids=[c["id"] for c in new],
            ),
        )
        stored.extend(threaded["stale"])  # a late turn: the one after it is embedded again
        content_hash = fold_hash(
            merged["content_hash"],
            [turn_digest(c["role"], c["ts"], c["content_hash"]) for c in new],
        )
        row = await _update_session(w, sid, new, content_hash, next_seq=base + len(new))
        change = _archive_change(request, batch, sid, new, duplicates, base, content_hash)
        revision = await w.event(change)
        return batch.result(
            row,
            created=merged["created"],
            stored=len(new),
            duplicates=duplicates,
            revision=revision,
        )

    archived = await write(db, "archive_turns", work, audit=Audit.of(request))
    await step(2, 3, f"stored {archived.stored} turns")
    if embedder is not None and archived.stored:  # vectors follow the acknowledgement
        indexer_of(db.store).submit_turns(db.tenant, stored, embedder)
    if read_subjects and archived.stored:  # and the subjects they name (subjects/reading.py)
        reader_of(db.store).soon(db.tenant)
    await step(3, 3, "vectors queued" if embedder is not None else "no embeddings configured")
    return archived


async def _merge_session(
    w: Write, request: ArchiveTurnsRequest, session_id: str
) -> MergedSessionRow:
    """The call's session, made on first use (with ``session_id``) and returned as found."""
    [merged] = shaped(
        MergedSessionRow,
        await w.run(
            "archive/merge_raw_session",
            id=session_id,
            empty_hash=EMPTY_HASH,
            **pick(request, "project source_root host session_ref"),
        ),
    )
    return merged


async def _new_turns(
    w: Write, merged: MergedSessionRow, candidates: list[TurnCandidate]
) -> list[TurnCandidate]:
    """The candidates the session does not hold yet, in (ts, order given) order."""
    existing: set[int] = set()
    if not merged["created"]:
        keys: list[Params] = [
            {
                "index": c["index"],
                "role": c["role"],
                "ts": c["ts"],
                "content_hash": c["content_hash"],
            }
            for c in candidates
        ]
        rows = shaped(
            ArchivedTurnRow,
            await w.run("archive/find_archived_turns", session_id=merged["id"], keys=keys),
        )
        existing = {row["index"] for row in rows}
    return sorted(
        (c for c in candidates if c["index"] not in existing), key=lambda c: (c["at"], c["index"])
    )


async def _create_turns(
    w: Write, sid: str, base: int, new: list[TurnCandidate], *, vectors_follow: bool
) -> None:
    """Every new turn in one statement, numbered on from the session's ``base`` count."""
    await w.run(
        "archive/create_archived_turns",
        session_id=sid,
        revision=w.next_revision,  # the call's event, appended next
        vectors_follow=vectors_follow,
        turns=[
            {
                "id": c["id"],
                "role": c["role"],
                "content": c["content"],
                "lexical": c["lexical"],
                "ts": c["ts"],
                "seq": base + n,
                "content_hash": c["content_hash"],
                "quarantined": c["quarantined"],
                "quarantine_reasons": c["quarantine_reasons"],
            }
            for n, c in enumerate(new)
        ],
    )


async def _update_session(
    w: Write, sid: str, new: list[TurnCandidate], content_hash: str, *, next_seq: int
) -> SessionRow:
    [row] = shaped(
        SessionRow,
        await w.run(
            "archive/update_raw_session",
            session_id=sid,
            next_seq=next_seq,
            first_ts=new[0]["ts"],
            last_ts=max(new, key=lambda c: c["at"])["ts"],
            stored=len(new),
            content_hash=content_hash,
        ),
    )
    return row


def _archive_change(
    request: ArchiveTurnsRequest,
    batch: TurnBatch,
    sid: str,
    new: list[TurnCandidate],
    duplicates: int,
    first_seq: int,
    content_hash: str,
) -> Change:
    """The call's one history event."""
    return Change(
        "archive_turns",
        "session",
        sid,
        [sid],
        {
            "project": request.project,
            "session_ref": request.session_ref,
            "host": request.host,
            "source_root": request.source_root,
            "stored": len(new),
            "duplicates": duplicates,
            "first_seq": first_seq,
            "content_hash": content_hash,
            "redactions": [r.kind for r in batch.redactions],
            "quarantined": len([c for c in new if c["quarantined"]]),
        },
    )


# --- search_raw ------------------------------------------------------------------------------
async def _ranked_turns(db: TenantStore, request: SearchRawRequest, lucene: str) -> list[RawHitRow]:
    """The page (and one more row) of the turns Lucene ranks, filtered; Lucene's top-k grows
    only while the filters keep too few and it had more (``widening``)."""

    async def read(fetch: int) -> RawSearchRow:
        [row] = shaped(
            RawSearchRow,
            await db.read(
                "archive/search_raw_turns",
                lucene=lucene,
                fetch=fetch,
                since=utc_iso(request.since) if request.since else None,
                until=utc_iso(request.until) if request.until else None,
                **pick(
                    request, "project role session_id session_ref include_quarantined offset limit"
                ),
            ),
        )
        return row

    needed = request.offset + request.limit + 1
    row = await widening(
        read,
        FETCH_GROWTH * needed,
        lambda row, fetch: len(row["page"]) > request.limit or row["fetched"] < fetch,
    )
    return row["page"]


async def search_raw(db: TenantStore, request: SearchRawRequest) -> SearchRawResult:
    if not request.query.strip():
        raise InvalidArgument("query", "must not be blank")
    check_window(request.since, request.until)
    terms = query_terms(request.query)
    lucene = lucene_query(db.tenant, request.query, MAX_QUERY_TERMS)
    rows = await _ranked_turns(db, request, lucene) if lucene else []
    page, paging = paged(rows, request.limit, request.offset)
    hits = [
        from_node(
            RawHit, row, snippet=snippet(row["content"], terms), content_chars=len(row["content"])
        )
        for row in page
    ]
    return SearchRawResult(query=request.query, lucene_query=lucene, results=hits, **paging)


# --- list_raw_sessions -----------------------------------------------------------------------
async def list_raw_sessions(
    db: TenantStore, request: ListRawSessionsRequest
) -> ListRawSessionsResult:
    check_window(request.since, request.until)
    rows = shaped(
        RawSessionSummaryRow,
        await db.read(
            "archive/list_raw_sessions",
            since=utc_iso(request.since or EARLIEST),
            until=utc_iso(request.until) if request.until else None,
            **pick(request, "project latest samples sample_chars"),
        ),
    )
    sessions = [
        from_node(
            RawSessionSummary,
            row,
            window_message_count=row["window_count"],
            window_user_message_count=row["user_count"],
            window_assistant_message_count=row["assistant_count"],
            user_message_samples=row["samples"],
        )
        for row in rows[: request.latest]
    ]
    return ListRawSessionsResult(
        since=request.since,
        until=request.until,
        project=request.project,
        latest=request.latest,
        count=len(sessions),
        has_more=len(rows) > request.latest,
        sessions=sessions,
    )
