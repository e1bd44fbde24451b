"""Mentions found in a text when the writer named none: deterministic, no model.

What counts as a mention:
- a proper-name span: capitalised words in a row ("Giulia Marchetti", "Acme Corp"), joined by
  the small words names carry ("Bank of America", "The Name of the Wind"), a possessive cut
  off. A lone capitalised word that opens a sentence may be grammar, not a name ("Thanks",
  "Caroline"): unless the text also capitalises it mid-sentence it is *weak*, and resolution
  keeps a weak mention only when it is an alias of a subject the memory already knows;
- a handle (``@dana_park``), an e-mail address, a URL's host, and a code identifier
  (``snake_case``, ``camelCase``, ``dotted.module.name``, ``PascalCase`` with two humps).
Words that are capitalised for grammar, not for naming (I, days, months, greetings, the verbs
and linking words a sentence opens with: "Ask Zelda", "Thanks Mel") never start a name.
At most ``MAX_MENTIONS`` per text, in order of first appearance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.subjects.names import MAX_NAME_CHARS

MAX_MENTIONS = 32
MAX_TEXT_CHARS = 20_000  # a text is read for names this far (a turn's, a memory's content)

JOINERS = frozenset(
    "of the de da do dos das del della di du van von der den le la &".split()  # noqa: SIM905 - a word list reads best as words
)
NOT_NAMES = frozenset(
    """
    i i'm i've i'll i'd im ive a an the and but or so if oh ok okay yes no hey hi hello thanks
    thank wow yeah yep nope sure great cool nice awesome sorry please well also just this that
    these those what when where why how who which it it's its my your our their his her we you
    they he she me us them there here then now today tomorrow yesterday tonight
    ask tell call email mail message text ping send invite remind meet met see saw check let
    talk talked spoke visited went go going get got make made take took give gave find found
    maybe perhaps also then after before since until while because although though however
    dear regards cheers congrats congratulations happy good glad love enjoy welcome sounds
    did do does is are was were has have had can could will would should shall might must
    monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    """.split()  # noqa: SIM905 - a word list reads best as words
)
_TOKEN = re.compile(r"[^\W\d_][\w'\u2019\-]*|[&]|\d+")
_SENTENCE_END = re.compile(r"[.!?]\s*$")
_HANDLE = re.compile(r"(?<![\w@])@([A-Za-z0-9_]{2,39})\b")
# Bounded, and anchored where a run of address characters starts: linear on any text
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}\b")
_URL = re.compile(r"\bhttps?://([\w.-]+)", re.IGNORECASE)
_IDENTIFIER = re.compile(
    r"\b(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+"
    r"|[a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*){2,})\b"
)


@dataclass(frozen=True)
class Found:
    text: str  # as written
    kind: str | None  # None: resolution decides by its candidates
    start: int
    weak: bool = False  # a lone sentence opener: a name only if it is a known alias


def mentions_in(text: str) -> list[Found]:
    text = text[:MAX_TEXT_CHARS]
    found = [*_names(text), *_marked(text)]
    found.sort(key=lambda f: f.start)
    seen: set[str] = set()
    unique: list[Found] = []
    for item in found:
        if item.text.casefold() not in seen and len(item.text) <= MAX_NAME_CHARS:
            seen.add(item.text.casefold())
            unique.append(item)
    return unique[:MAX_MENTIONS]


def _marked(text: str) -> list[Found]:
    found = [Found("@" + m.group(1), "person", m.start()) for m in _HANDLE.finditer(text)]
    found += [Found(m.group(0), "person", m.start()) for m in _EMAIL.finditer(text)]
    found += [Found(m.group(1).lower(), "organisation", m.start()) for m in _URL.finditer(text)]
    taken = [
        (m.start(), m.end()) for pattern in (_EMAIL, _URL, _HANDLE) for m in pattern.finditer(text)
    ]
    for m in _IDENTIFIER.finditer(text):
        if not any(a <= m.start() < b for a, b in taken):
            found.append(Found(m.group(0), "thing", m.start()))
    return found


def _names(text: str) -> list[Found]:
    tokens = list(_TOKEN.finditer(text))
    midsentence = {
        t.group(0)
        for i, t in enumerate(tokens)
        if t.group(0)[0].isupper() and not _opens_sentence(text, tokens, i)
    }
    found: list[Found] = []
    i = 0
    while i < len(tokens):
        end = _span_end(text, tokens, i)
        if end == i:
            i += 1
            continue
        words = [t.group(0) for t in tokens[i:end]]
        weak = len(words) == 1 and _opens_sentence(text, tokens, i) and words[0] not in midsentence
        start, stop = tokens[i].start(), tokens[end - 1].end()
        found.append(Found(_without_possessive(text[start:stop]), None, start, weak))
        i = end
    return found


def _capitalised(word: str) -> bool:
    return word[0].isupper() and word.casefold() not in NOT_NAMES


def _span_end(text: str, tokens: list[re.Match[str]], i: int) -> int:
    """Where the name that starts at token ``i`` ends (``i``: no name starts there)."""
    first = tokens[i].group(0)
    titled = first == "The" and i + 1 < len(tokens) and _capitalised(tokens[i + 1].group(0))
    if not (_capitalised(first) or titled):
        return i
    end = i + 1
    while end < len(tokens):
        word = tokens[end].group(0)
        between = text[tokens[end - 1].end() : tokens[end].start()]
        if between not in (" ", "\u00a0") and not (_initial(tokens[end - 1]) and between == ". "):
            break  # a name's words are one space apart (or an initial's ". "): nothing else
        if _capitalised(word) or (word.isdigit() and len(word) <= 4):
            end += 1
        elif word.casefold() in JOINERS:
            after = end
            while after < len(tokens) and tokens[after].group(0).casefold() in JOINERS:
                after += 1
            if after - end > 2 or after == len(tokens) or not _capitalised(tokens[after].group(0)):
                break
            end = after + 1
        else:
            break
    return end


def _initial(token: re.Match[str]) -> bool:
    """A capital letter standing for a name ("J." in "J. Marchetti")."""
    return len(token.group(0)) == 1 and token.group(0).isupper()


def _opens_sentence(text: str, tokens: list[re.Match[str]], i: int) -> bool:
    if i == 0:
        return True
    if _initial(tokens[i - 1]):
        return False  # "J. Marchetti": the full stop ends an initial, not a sentence
    between = text[tokens[i - 1].end() : tokens[i].start()]
    return bool(_SENTENCE_END.search(text[tokens[i - 1].start() : tokens[i].start()])) or any(
        ch in between for ch in '\n:"“'
    )


def _without_possessive(name: str) -> str:
    for suffix in ("'s", "\u2019s"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name
