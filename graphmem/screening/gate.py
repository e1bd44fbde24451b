"""The poisoning gate: every text that enters graphmem (add_context_chunk, record_human_answer,
save_memory, archive_turns) is screened before it is stored.

``screen(text) -> Screened(text, redactions, quarantine_reasons)``. Deterministic patterns only
(no model, no network); ordinary prose about keys, passwords or instructions must pass.

Secrets are never stored in clear: each is replaced by ``[REDACTED:<kind>]`` and reported as a
``Redaction(kind, start, end)`` whose offsets point into the text *as given* (so
``text[start:end]`` is exactly what was removed). Where a secret is the value of an assignment
or of a URL's password, only the value is replaced: ``password=[REDACTED:password]`` keeps what
the line was about. Kinds, first match wins where two overlap:

  private_key            a PEM or PGP private key block (-----BEGIN ... PRIVATE KEY-----), up to
                         its END line; a block cut off before its END line is redacted through
                         its last base64 line. Public certificates and public keys pass.
  aws_access_key         AKIA/ASIA followed by 16 upper-case letters or digits
  aws_secret_key         40 base64 characters assigned to aws_secret_access_key,
                         aws_secret_key or SecretAccessKey (= or :, quoted or not)
  google_api_key         AIza followed by 35 characters; google_oauth_secret GOCSPX-...
  stripe_key             sk_live_/sk_test_/rk_live_/rk_test_ keys; stripe_webhook_secret whsec_
  github_token           ghp_/gho_/ghu_/ghs_/ghr_ tokens and github_pat_ fine-grained tokens
  gitlab_token           glpat- tokens
  slack_token            xoxa-/xoxb-/xoxp-/xoxr-/xoxs- tokens; slack_webhook hooks.slack.com URLs
  anthropic_key          sk-ant-...; openai_key sk-... / sk-proj-...
  jwt                    three base64url segments, the first two starting eyJ
  bearer_token           the token after "Bearer " (20+ token characters)
  basic_auth             the credentials after "Authorization: Basic "
  url_password           the password of scheme://user:password@host
  password               the value assigned to password / passwd / passphrase
  assigned_secret        a high-entropy value assigned to a key naming a secret (secret, token,
                         api_key, access_key, private_key, client_secret, credentials,
                         auth_token, session_key, signing_key, encryption_key), as in
                         ``GITHUB_TOKEN=...``, ``"client_secret": "..."``, ``x-api-key: ...``

Assignments (password, assigned_secret, url_password) skip placeholders: ``${VAR}``, ``$VAR``,
``{{ var }}``, ``<password>``, ``%s``, runs of ``*``/``x``/``.``, and values already redacted.
A password value counts when it is quoted, or has at least 6 characters from two classes
(letters, digits, symbols, or mixed case): ``password: required`` is prose,
``password=hunter22`` is a secret. An assigned_secret value counts only when it is
high-entropy: at least 16 token characters, letters and digits (or mixed case), and a Shannon
entropy of at least 3.0 bits per character, so ``token: this-is-not-a-secret`` passes.

Instruction-like content aimed at an AI/assistant/agent is flagged (the caller stores the text
quarantined: kept, but excluded from claims, packs, bundles and current state until released
through govern_memory). It is looked for after redaction, on a normalised copy (NFKC, so
full-width letters read as plain ones; zero-width characters and soft hyphens removed).
Reasons:

  override_instructions  ignore / disregard / forget / override / bypass + (all) (the)
                         previous|prior|above|earlier|preceding|original|system|safety or
                         "your" + instructions|prompts|rules|directives|guidelines|guardrails|
                         restrictions|programming; "ignore everything above", "forget
                         everything you were told". ("ignore the previous result" passes.)
  role_reassignment      "you are now (a|an|the) ... AI|assistant|model|agent|chatbot|bot|LLM"
                         (at most three words between), "you are (now) unrestricted|
                         unfiltered|uncensored|jailbroken", "you are now in developer|god|
                         jailbreak|DAN|unrestricted mode", "act as an unrestricted ...",
                         "pretend you have no restrictions|rules|guidelines|filters|limits".
                         ("you are now ready", "you are now a member of the team" pass.)
  hidden_prompt          chat-template control text: <system>, </system>, [system]:,
                         "system prompt:", <|im_start|>, <|system|>, <<SYS>>, [INST]
  prompt_extraction      reveal|print|show|repeat|output|dump + your (...) system prompt|
                         instructions|prompt|guidelines, or + the (...) system prompt
  exfiltration           send|post|upload|forward|email|exfiltrate|leak + secrets|credentials|
                         api keys|passwords|private keys|memories|environment variables|
                         conversation/chat history + "to"
  addressed_to_ai        "note/message/instructions/attention to|for the AI/LLM/chatbot/GPT/
                         Claude/...", "if you are an AI/LLM/language model", "AI ... reading
                         this" ("note to the AI team" passes).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from pydantic import Field

from graphmem.core.models import OutputModel


class Redaction(OutputModel):
    kind: str = Field(description="What was found, e.g. aws_access_key, private_key.")
    start: int = Field(description="Offset in the text as given.")
    end: int


# --- secrets ---------------------------------------------------------------------------------
_KEY_END = r"(?![A-Za-z0-9_\-])"
_ASSIGN = r"[\"']?\s*[:=]\s*"  # an optional closing quote of a JSON key, then : or =

_SECRETS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private_key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]{0,20000}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"|(?:(?:\s|\\[nr])+[A-Za-z0-9+/=]{16,})+)"
        ),
    ),
    ("aws_access_key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    (
        "aws_secret_key",
        re.compile(
            r"(?i)\b(?:aws[_-]?secret[_-]?(?:access[_-]?)?key|secret[_-]?access[_-]?key)"
            + _ASSIGN
            + r"[\"']?(?P<value>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
    ),
    ("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}" + _KEY_END)),
    ("google_oauth_secret", re.compile(r"\bGOCSPX-[0-9A-Za-z_\-]{24,}" + _KEY_END)),
    ("stripe_key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}\b")),
    ("stripe_webhook_secret", re.compile(r"\bwhsec_[0-9A-Za-z]{24,}\b")),
    ("github_token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("gitlab_token", re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}" + _KEY_END)),
    ("slack_token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b")),
    (
        "slack_webhook",
        re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9_]+/[A-Za-z0-9_]+/[A-Za-z0-9_]+"),
    ),
    ("anthropic_key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}" + _KEY_END)),
    ("openai_key", re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9_\-]{20,}" + _KEY_END)),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("bearer_token", re.compile(r"(?i)\bbearer\s+(?P<value>[A-Za-z0-9._~+/\-]{20,}=*)")),
    (
        "basic_auth",
        re.compile(r"(?i)\bauthorization\s*:\s*basic\s+(?P<value>[A-Za-z0-9+/]{8,}={0,2})"),
    ),
    (
        "url_password",
        re.compile(
            r"(?i)\b[a-z][a-z0-9+.\-]{1,30}://[^\s:/?#@\"'<>]+:(?P<value>[^\s/?#@\"'<>]+)@"
            r"[A-Za-z0-9\[]"
        ),
    ),
    (
        "password",
        re.compile(
            r"(?i)\b[A-Za-z0-9_.\-]*?(?:password|passwd|passphrase)"
            + _ASSIGN
            + r"(?:(?P<quote>[\"'])(?P<quoted>[^\"'\r\n]{1,200})(?P=quote)"
            r"|(?P<value>[^\s\"'<>,;]{6,200}))"
        ),
    ),
    (
        "assigned_secret",
        re.compile(
            r"(?i)\b[A-Za-z0-9_.\-]*?"
            r"(?:secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?"
            r"|auth[_-]?token|session[_-]?key|signing[_-]?key|encryption[_-]?key)"
            r"[A-Za-z0-9_.\-]*" + _ASSIGN + r"[\"']?(?P<value>[A-Za-z0-9+/=_\-.~]{16,400})"
        ),
    ),
]

_PLACEHOLDER = re.compile(
    r"""^(?:
        \$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\{\{.*\}\}|<[^>]*>|%s|%\([a-z_]+\)s
        |\*+|[xX]+|\.+|…|\[REDACTED:[a-z_]+\]
    )$""",
    re.X,
)
_TRAILING = ".,;:)]}"
_ASSIGNED = frozenset({"password", "assigned_secret", "url_password"})


def _classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _high_entropy(value: str) -> bool:
    letters_and_digits = any(c.isalpha() for c in value) and any(c.isdigit() for c in value)
    mixed_case = any(c.islower() for c in value) and any(c.isupper() for c in value)
    return len(value) >= 16 and (letters_and_digits or mixed_case) and _entropy(value) >= 3.0


def _secret_span(kind: str, match: re.Match[str]) -> tuple[int, int] | None:
    """The span to redact for one match, or None when the match is not a secret after all."""
    group = next(
        (name for name in ("value", "quoted") if name in match.re.groupindex and match[name]), None
    )
    if group is None:
        return match.span()
    start, end = match.span(group)
    value = match[group]
    if kind in _ASSIGNED and _PLACEHOLDER.match(value):
        return None
    if group == "value" and kind in _ASSIGNED:
        stripped = value.rstrip(_TRAILING)
        end -= len(value) - len(stripped)
        value = stripped
    if kind in _ASSIGNED and (not value or _PLACEHOLDER.match(value)):
        return None
    if kind == "password" and group == "value" and (len(value) < 6 or _classes(value) < 2):
        return None
    if kind == "assigned_secret" and not _high_entropy(value):
        return None
    return start, end


# --- instructions ----------------------------------------------------------------------------
_AI = r"(?:ai|a\.i\.|llms?|large\s+language\s+models?|language\s+models?|chatbots?|gpt|chatgpt)"
_NOT_A_TEAM = (
    r"(?!\s+(?:team|group|department|lab|committee|project|course|class|engineers?|experts?"
    r"|researchers?|specialists?|enthusiasts?|developers?|trainers?|ethics|policy)\b)"
)
_AI_TARGET = _AI + r"(?:\s+(?:agents?|assistants?|models?|systems?))?" + _NOT_A_TEAM
_DIRECTIVES = (
    r"(?:instructions|instruction\s+set|prompts?|rules|directives|guidelines|guardrails"
    r"|restrictions|programming)"
)
_IGNORE = r"(?:ignore|disregard|forget|override|bypass)"

_INSTRUCTIONS: list[tuple[str, re.Pattern[str]]] = [
    (
        "override_instructions",
        re.compile(
            r"(?i)\b" + _IGNORE + r"\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?"
            r"(?:(?:the|these|those)\s+)?"
            r"(?:(?:previous|prior|above|earlier|preceding|original|system|safety)\s+"
            r"|your\s+(?:(?:previous|prior|original|system|safety|current)\s+)?)"
            + _DIRECTIVES
            + r"\b"
            r"|\b"
            + _IGNORE
            + r"\s+(?:all\s+)?(?:of\s+)?(?:the|these|those|any)\s+"
            + _DIRECTIVES
            + r"\s+(?:above|before\s+this|you\s+(?:were|have\s+been)\s+(?:given|told))\b"
            r"|\b(?:ignore|disregard|forget)\s+(?:everything|all)\s+(?:above|before\s+this"
            r"|you\s+(?:were|have\s+been)\s+told|you\s+know)\b"
        ),
    ),
    (
        "role_reassignment",
        re.compile(
            r"(?i)\byou\s+are\s+now\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}?"
            + _AI
            + r"(?:\s+(?:assistants?|agents?|models?|bots?))?\b"
            + _NOT_A_TEAM
            + r"|\byou\s+are\s+now\s+(?:an?\s+|the\s+)?(?:different|new|unrestricted|rogue|evil"
            r"|uncensored|unfiltered|unaligned)\s+(?:ai|assistant|model|agent|chatbot|bot|llm)\b"
            r"|\byou\s+are\s+(?:now\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored"
            r"|jailbroken)\b"
            r"|\byou\s+are\s+now\s+(?-i:DAN)\b"
            r"|\byou\s+are\s+now\s+in\s+(?:developer|god|jailbreak|dan|unrestricted)\s+mode\b"
            r"|\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?"
            r"(?:unrestricted|unfiltered|uncensored|jailbroken)\b"
            r"|\bpretend\s+(?:that\s+)?you\s+have\s+no\s+(?:restrictions|rules|guidelines"
            r"|filters|limits)\b"
        ),
    ),
    (
        "hidden_prompt",
        re.compile(
            r"(?i)<\s*/?\s*system\s*>|\[\s*system\s*\]\s*:|\bsystem\s+prompt\s*:"
            r"|<\|\s*(?:im_start|im_end|system|user|assistant)\s*\|>|<<\s*/?\s*SYS\s*>>"
            r"|\[\s*/?\s*INST\s*\]"
        ),
    ),
    (
        "prompt_extraction",
        re.compile(
            r"(?i)\b(?:reveal|print|show|repeat|output|dump|disclose)\s+(?:me\s+)?"
            r"(?:your\s+(?:[\w-]+\s+){0,2}?(?:system\s+prompt|instructions|prompt|guidelines)"
            r"|the\s+(?:[\w-]+\s+){0,2}?system\s+prompt)\b"
        ),
    ),
    (
        "exfiltration",
        re.compile(
            r"(?i)\b(?:send|post|upload|forward|email|exfiltrate|leak)\s+"
            r"(?:(?:all|the|your|any|of|my)\s+)*"
            r"(?:secrets|credentials|api\s+keys|passwords|private\s+keys|memories"
            r"|env(?:ironment)?\s+variables|(?:conversation|chat)\s+history)\s+to\b"
        ),
    ),
    (
        "addressed_to_ai",
        re.compile(
            r"(?i)\b(?:note|message|instructions?|attention|notice)\s+(?:to|for)\s+"
            r"(?:the\s+|any\s+|all\s+|an?\s+)?" + _AI_TARGET + r"\s*[:,.!]"
            r"|\b(?:dear|attention)\s+(?:all\s+)?" + _AI_TARGET + r"\s*[:,!]"
            r"|\bif\s+you\s+are\s+an?\s+"
            + _AI
            + r"\b"
            + _NOT_A_TEAM
            + r"|\b(?:any|an?|the|all|every)\s+"
            + _AI_TARGET
            + r"\s+(?:that\s+is\s+|who\s+is\s+)?reading\s+this\b"
        ),
    ),
]

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


def normalise(text: str) -> str:
    """What instruction patterns read: NFKC, without zero-width characters or soft hyphens."""
    return unicodedata.normalize("NFKC", text).translate(_INVISIBLE)


@dataclass(frozen=True)
class Screened:
    text: str  # as it may be stored: secrets replaced
    redactions: list[Redaction] = field(default_factory=list[Redaction])
    quarantine_reasons: list[str] = field(default_factory=list[str])

    @property
    def quarantined(self) -> bool:
        return bool(self.quarantine_reasons)


def secret_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every secret, in text order; an earlier pattern wins overlaps."""
    spans: list[tuple[int, int, str]] = []
    for kind, pattern in _SECRETS:
        for match in pattern.finditer(text):
            span = _secret_span(kind, match)
            if span is None or span[0] >= span[1]:
                continue
            start, end = span
            if not any(s < end and start < e for s, e, _ in spans):
                spans.append((start, end, kind))
    return sorted(spans)


def instruction_reasons(text: str) -> list[str]:
    """The instruction kinds found in ``text``, sorted."""
    normal = normalise(text)
    return sorted({kind for kind, pattern in _INSTRUCTIONS if pattern.search(normal)})


def screen(text: str) -> Screened:
    """Redact secrets, then look for instruction-like content in what remains."""
    spans = secret_spans(text)
    pieces: list[str] = []
    cursor = 0
    for start, end, kind in spans:
        pieces.append(text[cursor:start])
        pieces.append(f"[REDACTED:{kind}]")
        cursor = end
    pieces.append(text[cursor:])
    cleaned = "".join(pieces)
    return Screened(
        cleaned,
        [Redaction(kind=kind, start=start, end=end) for start, end, kind in spans],
        instruction_reasons(cleaned),
    )
