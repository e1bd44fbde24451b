"""Resolution without a model: is a mention one of the subjects it shares a key with, or a new
subject, or a question for a person? Pure: the caller fetches the candidates (by
``names.lookup_keys``, an index read) and persists the verdict.

Evidence, each with the confidence it gives (the first that applies to a candidate):

  evidence      confidence  when
  alias         1.00        the normal forms are equal ("ACME Corporation", "Acme Corp")
  initials      0.85 / 0.55  the mention is written as initials of the candidate's name
                            ("A.C.", "Amara Chen"): in the same source / elsewhere
  short_form    0.85 / 0.55  a one-word mention is the candidate's first or last word, or a
                            nickname it begins ("Mel", "Melanie"; 3+ letters): same / elsewhere
  described     0.85        a definite description names the head of a candidate in the same
                            source ("the trust", "Riverside Housing Trust"); elsewhere: none
  surname       0.55        same last word, a first word or initial that differs ("J.
                            Marchetti", "Giulia Marchetti"): people are asked about, not merged
  spelling      0.55        near-equal spellings (Jaro-Winkler >= 0.93, six letters or more,
                            the same digits)

A candidate of another kind never matches (a mention or subject of no kind matches any). The
best candidate at ``JOIN_AT`` or above is the mention's subject when no other candidate reaches
``ASK_AT`` (an equal name wins over lesser evidence, and over another equal name: the older
namesake); a best candidate between ``ASK_AT`` and ``JOIN_AT``, or two that compete, make a
question. Subjects merged into one count as one candidate. Below ``ASK_AT``: a new subject.
A wrong merge costs more than a missed one (it joins two truths into one), so only ``alias``
or evidence backed by the same source merges unasked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from graphmem.subjects.names import Name, similarity

JOIN_AT = 0.8
ASK_AT = 0.5
SPELLING = 0.93
MIN_NICKNAME = 3
MIN_SPELLING_CHARS = 6

Verdict = Literal["same", "ask", "new"]


@dataclass(frozen=True)
class Candidate:
    """A subject as resolution sees it: its aliases, kind and the sources that mention it."""

    id: str
    kind: str | None
    aliases: tuple[Name, ...]
    sources: frozenset[str]
    root: str | None = None  # the subject its merges end at (None: itself)


@dataclass(frozen=True)
class Mention:
    name: Name
    kind: str | None
    source: str  # the memory, turn, chunk or claim it was found in


@dataclass(frozen=True)
class Match:
    subject_id: str
    confidence: float
    evidence: str


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    best: Match | None  # the subject it is (same), or the one asked about (ask)
    rivals: tuple[Match, ...] = ()  # other candidates at ASK_AT or above


def decide(mention: Mention, candidates: Sequence[Candidate]) -> Decision:
    """The verdict on ``mention`` over ``candidates`` (oldest first: an equal rank goes to the
    older subject)."""
    plausible = [m for m in _ranked(mention, candidates) if m.confidence >= ASK_AT]
    if not plausible:
        return Decision("new", None)
    best, rivals = plausible[0], tuple(plausible[1:])
    if best.confidence < JOIN_AT:
        return Decision("ask", best, rivals)
    if best.evidence == "alias":
        # A namesake the memory already holds (another equal name) makes no new subject: the
        # first ranked is it. Lesser evidence for another subject does not outrank an equal
        # name; strong evidence for another does, and a person is asked.
        contested = any(r.evidence != "alias" and r.confidence >= JOIN_AT for r in rivals)
        return Decision("ask" if contested else "same", best, rivals)
    return Decision("ask" if rivals else "same", best, rivals)


def _ranked(mention: Mention, candidates: Sequence[Candidate]) -> list[Match]:
    """The best match of each group (a subject and those merged with it: one subject), the
    strongest first, then the mention's own kind, then the oldest."""
    best: dict[str, tuple[tuple[float, int, int], Match]] = {}
    for position, candidate in enumerate(candidates):
        found = match(mention, candidate)
        if found is None:
            continue
        rank = (-found.confidence, 0 if candidate.kind == mention.kind else 1, position)
        group = candidate.root or candidate.id
        if group not in best or rank < best[group][0]:
            best[group] = (rank, found)
    return [found for _, found in sorted(best.values(), key=lambda item: item[0])]


def match(mention: Mention, candidate: Candidate) -> Match | None:
    """The strongest evidence that ``mention`` names ``candidate``, or None."""
    if mention.kind and candidate.kind and mention.kind != candidate.kind:
        return None
    together = mention.source in candidate.sources
    best: tuple[float, str] | None = None
    for alias in candidate.aliases:
        found = _evidence(mention.name, alias, together)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    return Match(candidate.id, best[0], best[1]) if best else None


def _evidence(name: Name, alias: Name, together: bool) -> tuple[float, str] | None:
    near = 0.85 if together else 0.55
    if name.normal == alias.normal and not name.described:
        return 1.0, "alias"
    if name.acronym != alias.acronym:
        short, full = (name, alias) if name.acronym else (alias, name)
        return (near, "initials") if short.normal == full.initials else None
    if name.acronym:
        return None  # two different acronyms
    if name.described:
        return (0.85, "described") if together and name.last == alias.last else None
    if len(name.words) == 1 or len(alias.words) == 1:
        return _short_form(name, alias, near)
    if name.last == alias.last and name.first != alias.first:
        return 0.55, "surname"
    return _spelling(name, alias)


def _short_form(name: Name, alias: Name, near: float) -> tuple[float, str] | None:
    short, full = (name, alias) if len(name.words) <= len(alias.words) else (alias, name)
    word = short.first
    if len(full.words) > 1 and word in (full.first, full.last):
        return near, "short_form"
    if len(word) >= MIN_NICKNAME and full.first.startswith(word) and full.first != word:
        return near, "short_form"
    return _spelling(name, alias)


def _spelling(name: Name, alias: Name) -> tuple[float, str] | None:
    if len(name.words) != len(alias.words) or len(name.normal) < MIN_SPELLING_CHARS:
        return None
    if _digits(name.normal) != _digits(alias.normal):
        return None  # "Halcyon 200" and "Halcyon 300" are two things, however alike

    return (0.55, "spelling") if similarity(name.normal, alias.normal) >= SPELLING else None


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())
