"""Deterministic rules of claims (no model, no network, English only): extraction of typed
triples from a chunk, scope detection and the promotion gate. Whole-word matching and the
signal markers are graphmem/knowledge/heuristics.py's.

Claim extraction (``extract_triples``):
  * A clause is a maximal run of letters, digits, underscores, spaces, tabs, apostrophes and
    hyphens: any other character (punctuation, newline) ends it, so no claim spans punctuation.
    A signal marker ends a clause too: markers are never part of a claim.
  * Predicates and the verb forms that express them (whole words): uses (uses, use),
    depends_on (depends on, depend on), is (is, are), requires (requires, require), produces
    (produces, produce), validates (validates, validate), contains (contains, contain),
    replaces (replaces, replace).
  * In a clause, each verb occurrence splits it: the subject is the text since the previous
    verb (or the clause start), the object the text up to the next verb (or the clause end).
    Words between two verbs are divided at their last clause-joining word (and, or, but,
    which, that, while, ...): "A uses B and C requires D" gives (A uses B), (C requires D).
  * Cleaning: leading articles, conjunctions, demonstratives and discourse adverbs are
    stripped from the subject ("and the trip" → "trip", "finally the cache" → "cache"),
    trailing auxiliaries and adverbs from it ("the builder must" → "builder"); leading
    articles and adverbs from the object, trailing conjunctions and articles from it. The
    subject keeps its last 6 words.
  * Dropped: a negated statement (subject ending in not/never/no/n't, object starting with
    not/never/no): a denial is not a claim; a subject or object under 3 characters, without a
    letter, or a bare pronoun; an object over 8 words (a sentence, not a term); subject equal
    to object (normalised); a triple already extracted from the chunk (normalised).
  * Normalised form: lowercase, whitespace collapsed. triple_key = subject|predicate|object.
  * Confidence is a per-predicate constant (CLAIM_CONFIDENCE): depends_on and validates 0.7,
    requires 0.65, uses and produces 0.6, replaces 0.55, contains 0.5, is 0.4.

Scope detection (``detect_scope``): per scope, count the whole-word hits (inflected) of its
SCOPE_KEYWORDS; the most hits wins, ties go to the order memory, bridge, mapping, validation,
export; no hit at all gives memory. A caller's scope hint overrides it. Claims of the
sensitive scopes (bridge, mapping, validation, export) require a human.

Promotion gate (``promotion_block``): modes human_confirmed, multi_evidence, imported,
auto_layer1.
  * a sensitive scope accepts only human_confirmed (reason human_confirmation_required);
  * human_confirmed is always accepted; imported has no further condition;
  * multi_evidence needs scope memory (wrong_scope), at least 3 evidence chunks
    (insufficient_evidence) and confidence ≥ 0.7 (low_confidence);
  * auto_layer1 needs scope memory (wrong_scope), confidence ≥ 0.7 (low_confidence) and a claim
    that does not require a human (human_confirmation_required).
  The first failing condition in that order is the reason. The fact a promotion creates has
  source class human_confirmed (human_confirmed), tool_observed (imported) or agent_claimed
  (multi_evidence, auto_layer1), and key ``kb:<subject>|<predicate>|<object>`` (normalised; over
  200 characters the tail is replaced by a hash). Only the single-valued predicates (is,
  replaces) can contradict: the same subject and predicate with another object.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Literal

from graphmem.knowledge.heuristics import MARKER_PATTERN, count_hits, word_pattern, wordset
from graphmem.knowledge.models.chunks import SENSITIVE_SCOPES, Predicate, Scope
from graphmem.knowledge.models.pipeline import BlockReason, PromotionMode

SourceClassOfMode = Literal["human_confirmed", "tool_observed", "agent_claimed"]


# --- claim extraction ----------------------------------------------------------------------------
PREDICATE_VERBS: dict[Predicate, tuple[str, ...]] = {
    "uses": ("uses", "use"),
    "depends_on": ("depends on", "depend on"),
    "is": ("is", "are"),
    "requires": ("requires", "require"),
    "produces": ("produces", "produce"),
    "validates": ("validates", "validate"),
    "contains": ("contains", "contain"),
    "replaces": ("replaces", "replace"),
}
CLAIM_CONFIDENCE: dict[Predicate, float] = {
    "uses": 0.6,
    "depends_on": 0.7,
    "is": 0.4,
    "requires": 0.65,
    "produces": 0.6,
    "validates": 0.7,
    "contains": 0.5,
    "replaces": 0.55,
}
SINGLE_VALUED: frozenset[str] = frozenset({"is", "replaces"})  # the only ones that contradict
MIN_TERM_CHARS = 3
MAX_SUBJECT_WORDS = 6
MAX_OBJECT_WORDS = 8
MAX_EXCERPT_CHARS = 500

SUBJECT_LEADING = wordset(
    "a an the and or but nor so then also because while whereas since if when once that",
    "which who whom where thus hence therefore however meanwhile please now this these",
    "those yet still finally again first next additionally moreover furthermore besides",
    "otherwise instead today currently",
)
SUBJECT_TRAILING = wordset(
    "must should will would can could may might shall does do did to also always still",
    "only now then really currently usually often generally typically just and or but",
    "that which who",
)
OBJECT_LEADING = wordset("a an the also always still only really just currently")
OBJECT_TRAILING = wordset("a an the and or but nor so then that which who also too")
CLAUSE_JOINS = wordset(  # split the words between two verbs
    "and or but while whereas which that so because since although though when where then who"
)
NEGATIONS: frozenset[str] = frozenset({"not", "never", "no", "cannot"})
PRONOUNS = wordset(
    "it its they them we us he him she her i me you this that these those there here",
    "which what who something someone anything everything nothing one",
)

_CLAUSE = re.compile("[\\w \t'\u2019-]+")
_VERB_TO_PREDICATE: dict[str, Predicate] = {
    " ".join(verb.split()): predicate
    for predicate, verbs in PREDICATE_VERBS.items()
    for verb in verbs
}
_VERB = word_pattern(tuple(_VERB_TO_PREDICATE))
_TOKEN = re.compile(r"\S+")  # whitespace-delimited, with offsets


def normalise(text: str) -> str:
    """Lowercase, whitespace collapsed: the form triples are compared and keyed in."""
    return " ".join(text.lower().split())


def triple_key(subject_norm: str, predicate: str, object_norm: str) -> str:
    return f"{subject_norm}|{predicate}|{object_norm}"


MAX_FACT_KEY = 200


def fact_key(subject_norm: str, predicate: str, object_norm: str) -> str:
    """The key of the fact a claim promotes to: kb:<triple key>, at most 200 characters (a
    longer key keeps its head and ends with #<16 hex of the whole key's sha256>)."""
    key = "kb:" + triple_key(subject_norm, predicate, object_norm)
    if len(key) <= MAX_FACT_KEY:
        return key
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return key[: MAX_FACT_KEY - 17].rstrip() + "#" + digest


@dataclass(frozen=True)
class Triple:
    subject: str
    predicate: Predicate
    object: str
    start: int  # offsets of the excerpt (subject start .. object end) in the text
    end: int
    excerpt: str
    confidence: float

    @property
    def subject_norm(self) -> str:
        return normalise(self.subject)

    @property
    def object_norm(self) -> str:
        return normalise(self.object)

    @property
    def key(self) -> str:
        return triple_key(self.subject_norm, self.predicate, self.object_norm)


_Span = list[re.Match[str]]  # word matches of one side, in order


def _word(match: re.Match[str]) -> str:
    return match.group().lower()


def _strip(words: _Span, leading: frozenset[str], trailing: frozenset[str]) -> _Span:
    start, end = 0, len(words)
    while start < end and _word(words[start]) in leading:
        start += 1
    while end > start and _word(words[end - 1]) in trailing:
        end -= 1
    return words[start:end]


def _negated_subject(words: _Span) -> bool:
    if not words:
        return False
    last = _word(words[-1])
    return last in NEGATIONS or last.endswith(("n't", "n\u2019t"))


def _term_ok(words: _Span) -> bool:
    if not words:
        return False
    text = normalise(" ".join(word.group() for word in words))
    return len(text) >= MIN_TERM_CHARS and any(ch.isalpha() for ch in text) and text not in PRONOUNS


def _side(text: str, start: int, end: int) -> _Span:
    """The words of text[start:end], as matches carrying offsets in the whole text."""
    return list(_TOKEN.finditer(text, start, end))


def _split_between(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the text between two verbs ends the first verb's object and starts the second
    verb's subject: around its last clause-joining word, else the whole text is both."""
    joins = [word for word in _side(text, start, end) if _word(word) in CLAUSE_JOINS]
    if not joins:
        return end, start
    return joins[-1].start(), joins[-1].end()


def extract_triples(text: str) -> list[Triple]:
    """Subject-predicate-object triples of a text, in order of appearance, deduplicated."""
    seen: set[str] = set()
    triples: list[Triple] = []
    # markers are control words, never part of a claim: they end a clause (offsets kept)
    text = MARKER_PATTERN.sub(lambda marker: "\n" * len(marker.group()), text)
    for clause in _CLAUSE.finditer(text):
        verbs = list(_VERB.finditer(text, clause.start(), clause.end()))
        lefts = [clause.start()] * len(verbs)
        rights = [clause.end()] * len(verbs)
        for index in range(len(verbs) - 1):
            rights[index], lefts[index + 1] = _split_between(
                text, verbs[index].end(), verbs[index + 1].start()
            )
        for verb, left, right in zip(verbs, lefts, rights, strict=True):
            triple = _triple(text, verb, left, right)
            if triple is not None and triple.key not in seen:
                seen.add(triple.key)
                triples.append(triple)
    return triples


def _triple(text: str, verb: re.Match[str], left: int, right: int) -> Triple | None:
    predicate = _VERB_TO_PREDICATE[normalise(verb.group())]
    subject = _strip(_side(text, left, verb.start()), SUBJECT_LEADING, SUBJECT_TRAILING)
    object_words = _strip(_side(text, verb.end(), right), OBJECT_LEADING, OBJECT_TRAILING)
    if _negated_subject(subject) or (object_words and _word(object_words[0]) in NEGATIONS):
        return None  # a denial is not a claim
    subject = _strip(subject[-MAX_SUBJECT_WORDS:], SUBJECT_LEADING, frozenset())
    if len(object_words) > MAX_OBJECT_WORDS or not (_term_ok(subject) and _term_ok(object_words)):
        return None
    subject_text = text[subject[0].start() : subject[-1].end()]
    object_text = text[object_words[0].start() : object_words[-1].end()]
    if normalise(subject_text) == normalise(object_text):
        return None
    start, end = subject[0].start(), object_words[-1].end()
    return Triple(
        subject=" ".join(subject_text.split()),
        predicate=predicate,
        object=" ".join(object_text.split()),
        start=start,
        end=end,
        excerpt=text[start:end][:MAX_EXCERPT_CHARS],
        confidence=CLAIM_CONFIDENCE[predicate],
    )


# --- scope detection -----------------------------------------------------------------------------
SCOPE_ORDER: tuple[Scope, ...] = ("memory", "bridge", "mapping", "validation", "export")
SCOPE_KEYWORDS: dict[Scope, tuple[str, ...]] = {  # inflected
    "memory": ("memory", "memories", "entity", "entities", "observation", "relation", "knowledge"),
    "bridge": ("bridge", "sync", "push", "pull"),
    "mapping": ("mapping", "map", "mapped", "column", "template"),
    "validation": ("validation", "validate", "check", "audit"),
    "export": ("export", "excel", "pdf", "report"),
}
_SCOPE_PATTERNS: dict[Scope, re.Pattern[str]] = {
    scope: word_pattern(SCOPE_KEYWORDS[scope], inflected=True) for scope in SCOPE_ORDER
}


def scope_counts(text: str) -> dict[Scope, int]:
    return {scope: count_hits(_SCOPE_PATTERNS[scope], text) for scope in SCOPE_ORDER}


def detect_scope(text: str, hint: Scope | None = None) -> Scope:
    if hint is not None:
        return hint
    counts = scope_counts(text)
    best = max(counts[scope] for scope in SCOPE_ORDER)
    if best == 0:
        return "memory"
    return next(scope for scope in SCOPE_ORDER if counts[scope] == best)


def requires_human(scope: str) -> bool:
    return scope in SENSITIVE_SCOPES


# --- promotion gate ------------------------------------------------------------------------------
PROMOTION_MODES: tuple[PromotionMode, ...] = (
    "human_confirmed",
    "multi_evidence",
    "imported",
    "auto_layer1",
)
AUTO_PROMOTE_SCOPES: frozenset[str] = frozenset({"memory"})
MIN_PROMOTION_CONFIDENCE = 0.7
MIN_EVIDENCE = 3
SOURCE_CLASS_OF_MODE: dict[PromotionMode, SourceClassOfMode] = {
    "human_confirmed": "human_confirmed",
    "imported": "tool_observed",
    "multi_evidence": "agent_claimed",
    "auto_layer1": "agent_claimed",
}


@dataclass(frozen=True)
class Block:
    """Why a promotion is refused: a reason code and a sentence."""

    reason: BlockReason
    detail: str


def promotion_block(
    mode: PromotionMode, scope: str, evidence_count: int, confidence: float, needs_human: bool
) -> Block | None:
    """None when the claim may be promoted in this mode, else the first failing condition."""
    if (scope in SENSITIVE_SCOPES or needs_human) and mode != "human_confirmed":
        return Block(
            "human_confirmation_required",
            f"scope {scope} is sensitive: only human_confirmed promotes it"
            if scope in SENSITIVE_SCOPES
            else "the claim requires a human (its chunk reads as a sensitive scope): only "
            "human_confirmed promotes it",
        )
    if mode in ("human_confirmed", "imported"):
        return None
    if scope not in AUTO_PROMOTE_SCOPES:
        return Block("wrong_scope", f"{mode} promotes only memory-scope claims, not {scope}")
    if mode == "multi_evidence" and evidence_count < MIN_EVIDENCE:
        return Block(
            "insufficient_evidence",
            f"multi_evidence needs {MIN_EVIDENCE} evidence chunks, the claim has {evidence_count}",
        )
    if confidence < MIN_PROMOTION_CONFIDENCE:
        return Block(
            "low_confidence",
            f"{mode} needs confidence at least {MIN_PROMOTION_CONFIDENCE}, the claim has "
            f"{confidence}",
        )
    return None
