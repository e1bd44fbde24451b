"""One pass of resolution: the subjects a batch of sources may name, the mentions resolved in
order against them (``resolve.decide``), and what the pass must write. Pure: the store reads
the candidates first (by ``names.lookup_keys``, an index read) and writes the changes after.

A mention that is its subject's alias adds a source to it; a new spelling adds an alias (and
its keys); a question leaves the mention a subject of its own, with the question to ask; a weak
mention (a lone sentence opener) counts only as an equal name of a subject already known.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from graphmem.subjects.names import Name, lookup_keys
from graphmem.subjects.resolve import Candidate, Match, Mention, decide


@dataclass
class Known:
    """A subject as the pass holds it: read from the store, or made by this pass."""

    id: str
    kind: str | None
    aliases: list[Name]
    sources: set[str]
    new: bool = False
    alias_ids: dict[str, str] = field(default_factory=dict[str, str])  # normal form: alias id
    root: str | None = None  # the subject its merges end at (None: itself)

    def candidate(self) -> Candidate:
        return Candidate(
            self.id, self.kind, tuple(self.aliases), frozenset(self.sources), self.root
        )


@dataclass(frozen=True)
class Resolved:
    subject_id: str
    alias_id: str | None  # the spelling it was written in (None: a description, "the trust")
    source: str
    written: str
    evidence: str  # alias, short_form, ... or "new"


@dataclass(frozen=True)
class NewAlias:
    subject_id: str
    alias_id: str
    name: Name


@dataclass(frozen=True)
class Question:
    subject_id: str  # the mention's own (new) subject
    candidate: Match  # the subject it may be


@dataclass
class Ledger:
    known: dict[str, Known] = field(default_factory=dict[str, Known])
    new_id: Callable[[], str] = lambda: ""
    index: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    mentions: list[Resolved] = field(default_factory=list[Resolved])
    aliases: list[NewAlias] = field(default_factory=list[NewAlias])  # spellings added
    questions: list[Question] = field(default_factory=list[Question])

    @classmethod
    def of(cls, subjects: Iterable[Known], new_id: Callable[[], str]) -> Ledger:
        ledger = cls(new_id=new_id)
        for subject in subjects:
            ledger.known[subject.id] = subject
            for alias in subject.aliases:
                ledger.index_alias(subject.id, alias)
        return ledger

    def index_alias(self, subject_id: str, name: Name) -> None:
        for key in lookup_keys(name):
            self.index[key].add(subject_id)

    def resolve(self, mention: Mention, weak: bool = False) -> str | None:
        """The subject ``mention`` names (made if new), or None for a weak mention unknown."""
        found = {s for key in lookup_keys(mention.name) for s in self.index.get(key, ())}
        decision = decide(mention, [self.known[s].candidate() for s in sorted(found)])
        best = decision.best
        if decision.verdict == "same" and best is not None:
            if weak and best.evidence != "alias":
                return None
            return self._attach(self.known[best.subject_id], mention, best.evidence)
        if weak:
            return None
        subject = Known(self.new_id(), mention.kind, [], set(), new=True)
        self.known[subject.id] = subject
        if decision.verdict == "ask" and best is not None:
            self.questions.append(Question(subject.id, best))
        return self._attach(subject, mention, "new")

    def _attach(self, subject: Known, mention: Mention, evidence: str) -> str:
        subject.sources.add(mention.source)
        name = mention.name
        if not name.described and name.normal not in subject.alias_ids:
            added = NewAlias(subject.id, self.new_id(), name)
            subject.aliases.append(name)
            subject.alias_ids[name.normal] = added.alias_id
            self.aliases.append(added)
            self.index_alias(subject.id, name)
        if subject.kind is None and mention.kind is not None:
            subject.kind = mention.kind
        alias_id = None if name.described else subject.alias_ids[name.normal]
        self.mentions.append(Resolved(subject.id, alias_id, mention.source, name.written, evidence))
        return subject.id


def in_order(names: list[Name]) -> list[int]:
    """The order a source's mentions are resolved in: full names first, then short forms,
    acronyms and descriptions (which lean on them); positions into ``names``."""
    return sorted(
        range(len(names)),
        key=lambda i: (1 if names[i].described or names[i].acronym else 0, -len(names[i].words)),
    )
