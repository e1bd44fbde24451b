"""Signed verification of facts.

A fact's ``source_class`` is a claim, never proof. The only route to ``verified`` is an
Ed25519 attestation, made by a verifier whose public key the operator configured, over a
canonical digest of the fact's claim fields. If the fact changes after signing, the digest
no longer matches and the attestation is refused. Pure logic: no database, no network.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Literal, cast

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from graphmem.core.clock import canonical_utc, parse_iso, utc_now
from graphmem.core.errors import ConfigurationError, GraphmemError
from graphmem.core.models import canonical_json
from graphmem.core.settings import Settings

CLAIM_FIELDS = (
    "fact_id",
    "project",
    "origin_id",
    "key",
    "value",
    "source_class",
    "source_raw",
    "actor",
    "client",
    "session_id",
    "confidence",
    "observed_at",
    "valid_from",
    "valid_to",
    "recorded_at",
    "expires_at",
)
_TEMPORAL_FIELDS = ("valid_from", "valid_to", "recorded_at")
_INSTANT_FIELDS = frozenset({"observed_at", "expires_at", *_TEMPORAL_FIELDS})
METHOD = "ed25519-graphmem-v1"
MAX_TRUSTED_VERIFIERS = 100

RefusalReason = Literal["fact_mismatch", "stale_digest", "unknown_verifier", "bad_signature"]


class VerificationRefused(GraphmemError):
    """An attestation that must not mark the fact verified."""

    code = "verification_refused"

    def __init__(self, reason: RefusalReason, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason: RefusalReason = reason

    def payload(self) -> dict[str, object]:
        return {**super().payload(), "reason": self.reason}


def _instant(value: object) -> str:  # a fact field: whatever the caller holds
    """ISO 8601 in UTC with a trailing ``Z``; microseconds only when nonzero."""
    moment = parse_iso(value) if isinstance(value, str) else value
    if not isinstance(moment, datetime):
        raise ValueError(f"not an instant: {value!r}")
    return canonical_utc(moment)


def fact_claim(fact: Mapping[str, object]) -> dict[str, object]:
    """The signed fields of a fact (graphmem output shape, as JSON), flattened and normalised."""
    nested = fact.get("temporal")
    # JSON: an object's keys are text
    empty: Mapping[str, object] = {}
    temporal = cast("Mapping[str, object]", nested) if isinstance(nested, Mapping) else empty
    flat = {**fact, "fact_id": fact.get("id")}
    flat.update({name: temporal.get(name) for name in _TEMPORAL_FIELDS})
    claim: dict[str, object] = {}
    for name in CLAIM_FIELDS:
        value = flat.get(name)
        if value is not None and (name in _INSTANT_FIELDS or isinstance(value, datetime)):
            value = _instant(value)
        claim[name] = value
    if isinstance(claim["confidence"], int | float):  # 1 and 1.0 must digest alike
        claim["confidence"] = float(claim["confidence"])
    return claim


def fact_digest(fact: Mapping[str, object]) -> str:
    return "sha256:" + hashlib.sha256(canonical_json(fact_claim(fact)).encode()).hexdigest()


class Attestation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: Literal[1]
    fact_id: str = Field(min_length=1, max_length=100)
    fact_digest: str = Field(pattern=r"^sha256:[0-9a-f]{64}$")
    verifier_identity: str = Field(min_length=1, max_length=200)
    evidence_reference: str = Field(min_length=1, max_length=2000)
    verification_method: Literal["ed25519-graphmem-v1"]
    verified_at: AwareDatetime
    signature: str = Field(max_length=200, description="Base64 of the 64-byte signature.")


def signed_payload(attestation: Attestation) -> bytes:
    """The bytes the verifier signs: every attestation field except ``signature``."""
    body = attestation.model_dump(exclude={"signature"})
    body["verified_at"] = _instant(attestation.verified_at)
    return canonical_json(body).encode()


def sign_attestation(
    fact: Mapping[str, object],
    private_key: Ed25519PrivateKey,
    verifier_identity: str,
    evidence_reference: str,
    verified_at: datetime | None = None,
) -> Attestation:
    draft = Attestation(
        schema_version=1,
        fact_id=str(fact.get("id") or ""),
        fact_digest=fact_digest(fact),
        verifier_identity=verifier_identity,
        evidence_reference=evidence_reference,
        verification_method=METHOD,
        verified_at=verified_at or utc_now(),
        signature="",
    )
    signature = base64.b64encode(private_key.sign(signed_payload(draft))).decode()
    return Attestation.model_validate({**draft.model_dump(), "signature": signature})


def _decode(text: str, size: int) -> bytes | None:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == size else None


def _unique_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for name, value in pairs:
        if name in result:
            raise ValueError(f"trusted verifier {name!r} is listed twice")
        result[name] = value
    return result


@dataclass(frozen=True)
class TrustedVerifiers:
    """Configured verifier identities and their Ed25519 public keys."""

    keys: Mapping[str, Ed25519PublicKey]

    @classmethod
    def from_json(cls, text: str) -> TrustedVerifiers:
        try:
            data = json.loads(text, object_pairs_hook=_unique_pairs)
        except json.JSONDecodeError as exc:
            raise ValueError(f"trusted verifiers: not valid JSON ({exc})") from None
        if not isinstance(data, dict):
            raise ValueError("trusted verifiers: expected a JSON object {identity: public key}")
        data = cast("dict[str, object]", data)  # a JSON object: its keys are text
        if len(data) > MAX_TRUSTED_VERIFIERS:
            raise ValueError(f"trusted verifiers: at most {MAX_TRUSTED_VERIFIERS} identities")
        keys: dict[str, Ed25519PublicKey] = {}
        for identity, encoded in data.items():
            if not 1 <= len(identity) <= 200:
                raise ValueError(f"trusted verifier {identity!r}: identity must be 1..200 chars")
            raw = _decode(encoded, 32) if isinstance(encoded, str) else None
            if raw is None:
                raise ValueError(
                    f"trusted verifier {identity!r}: public key must be base64 of the "
                    "32 raw bytes of an Ed25519 public key"
                )
            keys[identity] = Ed25519PublicKey.from_public_bytes(raw)
        return cls(MappingProxyType(keys))

    @classmethod
    def from_file(cls, path: Path) -> TrustedVerifiers:
        return cls.from_json(path.read_text(encoding="utf-8"))


# The keys each configured file held when a server was last created from it: a change to the
# file takes effect at the next start (docs/operations.md, Verifier keys).
_LOADED: dict[Path, TrustedVerifiers] = {}


def load_verifiers(settings: Settings) -> TrustedVerifiers | None:
    """Read the keys GRAPHMEM_VERIFIER_KEYS_FILE names (at a server's creation: a file that
    cannot be read stops the start, naming the file to the operator); None when unset."""
    path = settings.verifier_keys_file
    if path is None:
        return None
    try:
        _LOADED[path] = TrustedVerifiers.from_file(path)
    except (OSError, ValueError) as error:
        raise ConfigurationError(f"GRAPHMEM_VERIFIER_KEYS_FILE {path}: {error}") from error
    return _LOADED[path]


def configured_verifiers(settings: Settings) -> TrustedVerifiers | None:
    """The keys the server's start read (read now if it did not: a client then learns only that
    verification is not available, never where the keys live)."""
    path = settings.verifier_keys_file
    if path is None:
        return None
    if path not in _LOADED:
        try:
            return load_verifiers(settings)
        except ConfigurationError:
            raise ConfigurationError("verification is not available") from None
    return _LOADED[path]


def check_attestation(
    fact: Mapping[str, object], attestation: Attestation, trusted: TrustedVerifiers
) -> None:
    """Return if the attestation verifies this fact as it is now; else raise."""
    if attestation.fact_id != fact.get("id"):
        raise VerificationRefused(
            "fact_mismatch", f"attestation is for {attestation.fact_id!r}, not {fact.get('id')!r}"
        )
    if attestation.fact_digest != fact_digest(fact):
        raise VerificationRefused("stale_digest", "the fact changed since it was signed")
    public_key = trusted.keys.get(attestation.verifier_identity)
    if public_key is None:
        raise VerificationRefused(
            "unknown_verifier", f"verifier {attestation.verifier_identity!r} is not configured"
        )
    signature = _decode(attestation.signature, 64)
    if signature is None:
        raise VerificationRefused("bad_signature", "signature is not base64 of 64 bytes")
    try:
        public_key.verify(signature, signed_payload(attestation))
    except InvalidSignature:
        raise VerificationRefused(
            "bad_signature", f"signature does not verify for {attestation.verifier_identity!r}"
        ) from None


def generate_keypair() -> tuple[bytes, str]:
    """A new (unencrypted PKCS8 PEM private key, base64 raw public key)."""
    private_key = Ed25519PrivateKey.generate()
    pem = private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return pem, public_key_b64(private_key)


def load_private_key(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        key = None
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path}: not an unencrypted Ed25519 private key in PEM form")
    return key


def public_key_b64(private_key: Ed25519PrivateKey) -> str:
    raw = private_key.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    return base64.b64encode(raw).decode()
