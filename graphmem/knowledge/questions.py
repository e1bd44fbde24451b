"""Clarification questions for a chunk (queue_clarification): deterministic rules, English
text, no model, no network. Pure: the caller persists what ``generate`` returns.

Words. The chunk's title and body are read as words: runs of letters and digits (an
apostrophe or hyphen may join two runs: ``don't``, ``follow-up``), lower-cased; the four
signal markers (ENRICH_OK, ...) are left out. A keyword matches whole words only, never
inside another word (``prefix`` holds no ``fix``, ``debug`` no ``bug``, ``taskbar`` no
``task``); a phrase matches consecutive words. Lists marked *inflected* also match a word
with the ending -s, -es, -d, -ed or -ing (``fixes``, ``updated``, ``migrating``).

Subject. Every question says what in the chunk prompted it: it quotes the chunk's title, or
its first eight words when it has none, cut to 60 characters at a word boundary ("…" marks a
cut). A quarantined chunk, or a subject that the poisoning gate would redact or flag, is never
quoted: such questions say "this chunk" instead, so no suspicious text spreads into questions
(which context packs include).

Rules, one question per type at most (``reason`` records the trigger):

  type            priority  asked when                                      reason
  scope           0.90      the chunk has no workstream and names no        no_scope
                            SCOPE_WORDS (inflected)
  semantics       0.85      a HEDGES word or phrase occurs (the first one,  hedge:<word>
                            in text order, is quoted)
                  0.85      else: the text asks a question (the first       asks:<question>
                            sentence ending in "?", quoted, up to 80 chars)
                  0.80      else: fewer than 30 words                      brief:<n> words
  time            0.70      no date or time reference: no ISO or numeric    no_time
                            date, clock time, year 1900-2099, quarter (Q1-
                            Q4), month or weekday name ("May" only next to
                            a number), TIME_WORDS word, or "last/next/this/
                            every/per + day|week|month|...", "in N days"
  action          0.60      no ACTION_WORDS word (inflected) or phrase      no_action
  downstream_use  0.50      no CONSUMER_WORDS word (inflected) or phrase;   no_consumer
                            also asked (same priority) when no other rule   nothing_else
                            fired, so a queued chunk always gets at least
                            one question

Questions are sorted by priority, highest first (ties in the order of the table), and cut to
``max_questions`` (1 to 5).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.core.text import joined_words
from graphmem.knowledge.heuristics import MARKER_PATTERN
from graphmem.knowledge.models.clarify import MAX_QUESTIONS, QuestionType
from graphmem.screening.gate import screen

TYPE_ORDER: tuple[QuestionType, ...] = ("scope", "semantics", "time", "action", "downstream_use")
BRIEF_WORDS = 30
SUBJECT_WORDS = 8
SUBJECT_CHARS = 60
QUOTE_CHARS = 80

SCOPE_WORDS = frozenset(
    {
        "memory", "memories", "bridge", "mapping", "validation", "export", "workflow",
        "workstream", "project", "task", "pipeline", "module", "service", "component",
        "repository", "repositories", "repo", "feature", "ticket", "epic", "release",
    }
)  # fmt: skip
HEDGES = (
    "perhaps", "maybe", "unclear", "tbd", "todo", "fixme", "possibly", "probably",
    "presumably", "apparently", "somehow", "unsure", "ambiguous", "roughly", "approximately",
    "allegedly", "supposedly", "unconfirmed", "not sure", "to be determined", "to be decided",
    "i think", "i guess", "kind of", "sort of", "or so", "might be", "could be", "seems to",
    "not clear",
)  # fmt: skip
ACTION_WORDS = frozenset(
    {
        "fix", "add", "remove", "update", "create", "delete", "deploy", "migrate", "implement",
        "change", "replace", "rename", "refactor", "revert", "rollback", "upgrade",
        "downgrade", "install", "configure", "enable", "disable", "investigate", "review",
        "should", "must", "need", "todo", "assign", "schedule", "ship", "merge", "release",
    }
)  # fmt: skip
ACTION_PHRASES = ("have to", "has to", "action item", "next step", "next steps", "follow up")
CONSUMER_WORDS = frozenset(
    {
        "decision", "decide", "report", "dashboard", "pack", "check", "consumer",
        "downstream", "audit", "invoice", "alert", "export",
    }
)  # fmt: skip
CONSUMER_PHRASES = (
    "used by", "relies on", "rely on", "depends on", "depend on", "input to", "feeds into",
    "blocked by", "needed by", "needed for",
)  # fmt: skip
TIME_WORDS = frozenset(
    {
        "today", "tomorrow", "yesterday", "tonight", "deadline", "ago", "until", "till",
        "daily", "weekly", "monthly", "quarterly", "yearly", "annually", "midnight", "noon",
        "overnight", "weekend", "expires", "expiry", "january", "february", "march", "april",
        "june", "july", "august", "september", "october", "november", "december", "jan",
        "feb", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "monday",
        "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    }
)  # fmt: skip
_TIME = re.compile(
    r"\b\d{4}-\d{2}(?:-\d{2})?\b"  # 2026-03, 2026-03-01
    r"|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b"  # 01.03.2026, 1/3/26
    r"|\b\d{1,2}:\d{2}\b"  # 14:30, 1:56 pm
    r"|\b(?:19|20)\d{2}\b"  # a year
    r"|\bq[1-4]\b"  # a quarter
    r"|\bmay\s+\d{1,2}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+may\b"  # May 8, 8 May
    r"|\b(?:last|next|this|every|each|per)\s+(?:day|night|week|month|year|quarter|sprint"
    r"|morning|evening|afternoon)\b"
    r"|\bin\s+\d+\s+(?:minutes?|hours?|days?|weeks?|months?|years?)\b",
    re.I,
)
_QUESTION = re.compile(r"[^.!?\n]*[A-Za-z][^.!?\n]*\?")
_ENDINGS = ("ing", "ed", "es", "s", "d")


@dataclass(frozen=True)
class QuestionDraft:
    type: QuestionType
    text: str
    priority: float
    reason: str  # what in the chunk prompted it


def words(text: str) -> list[str]:
    """Lower-cased whole words, markers left out."""
    return joined_words(text, drop=MARKER_PATTERN)


def _inflected(word: str, bases: frozenset[str]) -> bool:
    if word in bases:
        return True
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) > len(ending) + 1:
            root = word[: -len(ending)]
            if root in bases or root + "e" in bases:
                return True
            doubled = ending in ("ed", "ing") and len(root) > 2 and root[-1] == root[-2]
            if doubled and root[:-1] in bases:  # shipped, merging → ship, merge
                return True
    return False


def _phrase(tokens: list[str], phrases: tuple[str, ...]) -> str | None:
    """The first phrase (in text order) that occurs as consecutive words."""
    joined = " " + " ".join(tokens) + " "
    hits = [(joined.find(" " + p + " "), p) for p in phrases]
    found = [(at, p) for at, p in hits if at >= 0]
    return min(found)[1] if found else None


def subject_of(title: str | None, body: str, quarantined: bool = False) -> str | None:
    """What the questions quote: the title, else the body's first words; None when it must
    not be quoted."""
    if quarantined:
        return None
    source = title if title and title.strip() else body
    plain = " ".join(MARKER_PATTERN.sub(" ", source).split())
    if not (title and title.strip()):
        plain = " ".join(plain.split(" ")[:SUBJECT_WORDS])
    if not plain:
        return None
    if len(plain) > SUBJECT_CHARS:
        head = plain[:SUBJECT_CHARS]
        whole = plain[SUBJECT_CHARS] == " "  # the cut falls between two words
        cut = head if whole else (head.rsplit(" ", 1)[0] if " " in head else head)
        plain = cut.rstrip(" ,;:.-") + "…"
    screened = screen(plain)
    if screened.redactions or screened.quarantine_reasons:
        return None
    return plain.replace('"', "'")


def _quote(subject: str | None) -> str:
    return f'"{subject}"' if subject else "this chunk"


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def generate(
    title: str | None,
    body: str,
    *,
    workstream_id: str | None = None,
    quarantined: bool = False,
    max_questions: int = MAX_QUESTIONS,
) -> list[QuestionDraft]:
    """The questions for one chunk, highest priority first (see the module docstring)."""
    text = f"{title}\n{body}" if title else body
    tokens = words(text)
    subject = _quote(subject_of(title, body, quarantined))
    drafts: list[QuestionDraft] = []

    if workstream_id is None and not any(_inflected(t, SCOPE_WORDS) for t in tokens):
        drafts.append(
            QuestionDraft(
                "scope",
                f"Which workflow or part of the project does {subject} belong to (memory, "
                "bridge, mapping, validation, export, or another)?",
                0.9,
                "no_scope",
            )
        )

    semantics = _semantics(text, tokens, subject, quarantined)
    if semantics is not None:
        drafts.append(semantics)

    if not _TIME.search(text) and not any(t in TIME_WORDS for t in tokens):
        drafts.append(
            QuestionDraft(
                "time",
                f"When does {subject} apply: since when has it been true, and until when "
                "(or is it open-ended)?",
                0.7,
                "no_time",
            )
        )

    if not any(_inflected(t, ACTION_WORDS) for t in tokens) and not _phrase(tokens, ACTION_PHRASES):
        drafts.append(
            QuestionDraft(
                "action", f"What should be done about {subject}, and by whom?", 0.6, "no_action"
            )
        )

    downstream = _downstream(tokens, subject, nothing_else=not drafts)
    if downstream is not None:
        drafts.append(downstream)

    drafts.sort(key=lambda d: (-d.priority, TYPE_ORDER.index(d.type)))
    return drafts[: max(1, min(MAX_QUESTIONS, max_questions))]


def _downstream(tokens: list[str], subject: str, *, nothing_else: bool) -> QuestionDraft | None:
    """The downstream_use question: when no consumer is named, or when no other rule fired."""
    consumer = any(_inflected(t, CONSUMER_WORDS) for t in tokens) or _phrase(
        tokens, CONSUMER_PHRASES
    )
    if consumer and not nothing_else:
        return None
    return QuestionDraft(
        "downstream_use",
        f"Who or what will rely on {subject} (a decision, a context pack, a check), "
        "and what breaks if it is wrong?",
        0.5,
        "no_consumer" if not consumer else "nothing_else",
    )


def _semantics(
    text: str, tokens: list[str], subject: str, quarantined: bool
) -> QuestionDraft | None:
    hedge = _phrase(tokens, HEDGES)
    if hedge is not None:
        return QuestionDraft(
            "semantics",
            f'{_cap(subject)} says "{hedge}": what exactly is meant, and is it confirmed or '
            "still open?",
            0.85,
            f"hedge:{hedge}",
        )
    asked = _QUESTION.search(text)
    if asked is not None:
        question = " ".join(asked.group().split())
        if len(question) > QUOTE_CHARS:
            question = "…" + question[-(QUOTE_CHARS - 1) :]
        screened = screen(question)
        quotable = not (quarantined or screened.redactions or screened.quarantine_reasons)
        return QuestionDraft(
            "semantics",
            (
                f'{_cap(subject)} asks "{question.replace(chr(34), chr(39))}": what is the answer?'
                if quotable
                else f"{_cap(subject)} asks a question: what is the answer?"
            ),
            0.85,
            f"asks:{question}" if quotable else "asks",
        )
    if len(tokens) < BRIEF_WORDS:
        return QuestionDraft(
            "semantics",
            f"{_cap(subject)} is brief ({len(tokens)} words): what does it mean in full, and "
            "which terms need defining?",
            0.8,
            f"brief:{len(tokens)} words",
        )
    return None
