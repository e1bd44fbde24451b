"""The poisoning gate: every text that enters graphmem (add_context_chunk, save_memory,
archive_turns) is screened before it is stored.

- Secrets (cloud keys, tokens, private keys, passwords in assignments) are never stored in
  clear: each is replaced by ``[REDACTED:<kind>]`` and reported.
- Instruction-like content aimed at an agent ("ignore previous instructions", "you are now
  ...", hidden system prompts) is flagged: the text is stored as quarantined, excluded from
  packs, bundles and current state until released through govern_memory.

Deterministic patterns only; ordinary prose about keys or instructions must pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graphmem.models.knowledge import Redaction

_SECRETS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private_key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?"
            r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----"
        ),
    ),
    ("aws_access_key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github_token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b")),
    ("slack_token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b")),
    ("openai_key", re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}\b")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b")),
    ("bearer_token", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{20,}")),
    (
        "assigned_secret",
        re.compile(
            r"(?i)\b(?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)"
            r"\s*[:=]\s*['\"]?[^\s'\"]{8,}"
        ),
    ),
]

_INSTRUCTIONS: list[tuple[str, re.Pattern[str]]] = [
    (
        "override_instructions",
        re.compile(
            r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:the\s+)?"
            r"(?:previous|prior|above|earlier|system)\s+(?:instructions|prompts?|rules|messages)"
        ),
    ),
    ("role_reassignment", re.compile(r"(?i)\byou\s+are\s+now\s+(?:a|an|the|in)\b")),
    (
        "hidden_prompt",
        re.compile(r"(?i)(?:<\s*/?\s*system\s*>|\[\s*system\s*\]|\bsystem\s+prompt\s*:)"),
    ),
    (
        "exfiltration",
        re.compile(
            r"(?i)\b(?:send|post|upload|exfiltrate|leak)\s+(?:all\s+|the\s+|your\s+)*"
            r"(?:secrets|credentials|api\s+keys|tokens|passwords|memory|memories)\s+to\b"
        ),
    ),
]


@dataclass(frozen=True)
class Screened:
    text: str  # as it may be stored: secrets replaced
    redactions: list[Redaction] = field(default_factory=list)
    quarantine_reasons: list[str] = field(default_factory=list)

    @property
    def quarantined(self) -> bool:
        return bool(self.quarantine_reasons)


def screen(text: str) -> Screened:
    """Redact secrets, then look for instruction-like content in what remains."""
    spans: list[tuple[int, int, str]] = []
    for kind, pattern in _SECRETS:
        for match in pattern.finditer(text):
            if not any(start < match.end() and match.start() < end for start, end, _ in spans):
                spans.append((match.start(), match.end(), kind))
    spans.sort()
    pieces: list[str] = []
    cursor = 0
    for start, end, kind in spans:
        pieces.append(text[cursor:start])
        pieces.append(f"[REDACTED:{kind}]")
        cursor = end
    pieces.append(text[cursor:])
    cleaned = "".join(pieces)
    reasons = sorted({kind for kind, pattern in _INSTRUCTIONS if pattern.search(cleaned)})
    return Screened(
        cleaned,
        [Redaction(kind=kind, start=start, end=end) for start, end, kind in spans],
        reasons,
    )
