"""The raw archive's pure rules (graphmem/archive/service.py documents them): a call's turns
through the gate, their content hashes and the session's XOR of them, a turn's indexed and
embedded text, and search_raw's terms and snippets. No database."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypedDict

from graphmem.archive.models import (
    MAX_CALL_CHARS,
    SNIPPET_CHARS,
    ArchiveTurnsRequest,
    ArchiveTurnsResult,
    Role,
    TurnQuarantine,
    TurnRedaction,
)
from graphmem.archive.rows import SessionRow, session_from_node
from graphmem.core.clock import utc_iso
from graphmem.core.errors import InvalidArgument
from graphmem.core.ids import new_id
from graphmem.retrieval.lexical import MAX_QUERY_TERMS, lexical_text
from graphmem.retrieval.turn_texts import date_words
from graphmem.screening.gate import screen

EMPTY_HASH = "0" * 64


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def turn_digest(role: str, ts: str, content_hash: str) -> str:
    """One turn's identity as it enters the session's content hash."""
    return sha256(f"{role}\x1f{ts}\x1f{content_hash}")


def fold_hash(current: str, digests: list[str]) -> str:
    value = int(current, 16)
    for digest in digests:
        value ^= int(digest, 16)
    return f"{value:064x}"


def check_call_size(request: ArchiveTurnsRequest) -> None:
    total = sum(len(turn.content) for turn in request.turns)
    if total > MAX_CALL_CHARS:
        raise InvalidArgument(
            "turns", f"{total} characters in one call; at most {MAX_CALL_CHARS} (split the call)"
        )


class TurnCandidate(TypedDict):
    """A distinct turn of the call after the gate: stored unless the session holds it."""

    index: int  # its position in the call's turns
    id: str
    role: Role
    ts: str  # UTC, ISO text
    at: datetime  # the same instant, to order by
    content: str
    lexical: str
    content_hash: str
    quarantined: bool
    quarantine_reasons: list[str]


@dataclass
class TurnBatch:
    """A call's turns after the gate: what to report per turn index, and each distinct turn
    to store (a candidate, in the order given)."""

    redactions: list[TurnRedaction] = field(default_factory=list[TurnRedaction])
    quarantined: list[TurnQuarantine] = field(default_factory=list[TurnQuarantine])
    candidates: list[TurnCandidate] = field(default_factory=list[TurnCandidate])

    def result(
        self,
        session_row: SessionRow,
        *,
        created: bool,
        stored: int,
        duplicates: int,
        revision: int | None,
    ) -> ArchiveTurnsResult:
        return ArchiveTurnsResult(
            session=session_from_node(session_row["session"]),
            session_created=created,
            stored=stored,
            duplicates=duplicates,
            redactions=self.redactions,
            quarantined=self.quarantined,
            revision=revision,
        )


def screen_turns(tenant: str, request: ArchiveTurnsRequest) -> TurnBatch:
    batch = TurnBatch()
    seen: set[tuple[str, str, str]] = set()
    for index, turn in enumerate(request.turns):
        screened = screen(turn.content)
        batch.redactions.extend(
            TurnRedaction(index=index, kind=r.kind, start=r.start, end=r.end)
            for r in screened.redactions
        )
        if screened.quarantined:
            batch.quarantined.append(
                TurnQuarantine(index=index, reasons=screened.quarantine_reasons)
            )
        ts = utc_iso(turn.ts)
        content_hash = sha256(screened.text)
        identity = (turn.role, ts, content_hash)
        if identity in seen:
            continue  # a repeat within the call: counted as a duplicate
        seen.add(identity)
        at = turn.ts.astimezone(UTC)
        batch.candidates.append(
            {
                "index": index,
                "id": new_id(),
                "role": turn.role,
                "ts": ts,
                "at": at,
                "content": screened.text,
                "lexical": turn_lexical(tenant, at, screened.text),
                "content_hash": content_hash,
                "quarantined": screened.quarantined,
                "quarantine_reasons": screened.quarantine_reasons,
            }
        )
    return batch


# --- search_raw ------------------------------------------------------------------------------
_WORD = re.compile(r"\w+")


def query_terms(query: str) -> list[str]:
    """The whitespace-separated terms that can match (hold a letter or digit), in order."""
    terms = [term for term in query.split() if any(c.isalnum() for c in term)]
    if len(terms) > MAX_QUERY_TERMS:
        raise InvalidArgument("query", f"{len(terms)} terms; at most {MAX_QUERY_TERMS}")
    return terms


def turn_lexical(tenant: str, ts: datetime, content: str) -> str:
    """The indexed form of a turn: its date words, then its content."""
    return lexical_text(tenant, [date_words(ts), content])


def snippet(content: str, terms: list[str], size: int = SNIPPET_CHARS) -> str:
    """About ``size`` characters around the earliest match of any term's words."""
    lowered = content.lower()
    words = {word.lower() for term in terms for word in _WORD.findall(term)}
    hits = [pos for word in words if (pos := lowered.find(word)) >= 0]
    start = max(0, min(hits) - size // 3) if hits else 0
    end = min(len(content), start + size)
    start = max(0, min(start, end - size))
    text = content[start:end].strip()
    return ("…" if start > 0 else "") + text + ("…" if end < len(content) else "")


def check_window(since: datetime | None, until: datetime | None) -> None:
    if since is not None and until is not None and until < since:
        raise InvalidArgument("until", "must not be before since")
