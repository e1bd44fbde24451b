from __future__ import annotations

import base64
import copy
import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from pydantic import ValidationError

from graphmem.core.errors import ConfigurationError
from graphmem.core.settings import Settings
from graphmem.facts.attestation import (
    CLAIM_FIELDS,
    Attestation,
    TrustedVerifiers,
    VerificationRefused,
    _instant,
    check_attestation,
    configured_verifiers,
    fact_claim,
    fact_digest,
    generate_keypair,
    load_private_key,
    load_verifiers,
    public_key_b64,
    sign_attestation,
    signed_payload,
)

pytestmark = pytest.mark.pure

T0 = datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)
IDENTITY = "alice@example.org"


def _fact() -> dict[str, Any]:
    return {
        "id": "fact-1",
        "kind": "fact",
        "project": "proj",
        "origin_id": "origin-1",
        "key": "service.port",
        "value": {"port": 8080, "note": "héllo"},
        "status": "active",
        "source_class": "tool_observed",
        "source_raw": None,
        "actor": "agent-a",
        "client": "cli",
        "session_id": "s-1",
        "confidence": 0.9,
        "observed_at": T0,
        "expires_at": None,
        "verification_status": "unverified",
        "temporal": {
            "valid_from": T0,
            "valid_to": None,
            "recorded_at": T0 + timedelta(seconds=1, microseconds=5),
            "invalidated_at": None,
        },
    }


def _with(fact: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(fact)
    if field == "fact_id":
        changed["id"] = value
    elif field in ("valid_from", "valid_to", "recorded_at"):
        changed["temporal"][field] = value
    else:
        changed[field] = value
    return changed


def _trusted(key: Ed25519PrivateKey, identity: str = IDENTITY) -> TrustedVerifiers:
    return TrustedVerifiers.from_json(json.dumps({identity: public_key_b64(key)}))


def _refusal(fact: dict[str, Any], att: Attestation, trusted: TrustedVerifiers) -> str:
    with pytest.raises(VerificationRefused) as caught:
        check_attestation(fact, att, trusted)
    return caught.value.reason


def test_instant_normal_form() -> None:
    assert _instant(T0) == "2025-03-01T12:00:00Z"
    assert _instant(T0.replace(microsecond=120)) == "2025-03-01T12:00:00.000120Z"
    assert _instant("2025-03-01T14:00:00+02:00") == "2025-03-01T12:00:00Z"
    assert _instant("2025-03-01T12:00:00Z") == "2025-03-01T12:00:00Z"
    with pytest.raises(ValueError, match="timezone"):
        _instant(datetime(2025, 3, 1, 12))
    with pytest.raises(ValueError, match="timezone"):
        _instant("2025-03-01T12:00:00")


def test_claim_flattens_and_fills_missing() -> None:
    claim = fact_claim({"id": "f", "key": "k"})
    assert tuple(sorted(claim)) == tuple(sorted(CLAIM_FIELDS))
    assert claim["fact_id"] == "f"
    assert claim["valid_from"] is None
    full = fact_claim(_fact())
    assert full["recorded_at"] == "2025-03-01T12:00:01.000005Z"
    assert "status" not in full
    assert "temporal" not in full


def test_digest_is_stable_and_ignores_key_order() -> None:
    fact = _fact()
    digest = fact_digest(fact)
    assert digest.startswith("sha256:")
    assert len(digest) == len("sha256:") + 64
    assert fact_digest(copy.deepcopy(fact)) == digest
    reordered = dict(reversed(list(fact.items())))
    reordered["value"] = {"note": "héllo", "port": 8080}
    assert fact_digest(reordered) == digest


def test_digest_ignores_non_claim_fields() -> None:
    fact = _fact()
    assert fact_digest({**fact, "status": "superseded", "verification_status": "x"}) == (
        fact_digest(fact)
    )


def test_datetime_and_equivalent_iso_string_digest_alike() -> None:
    fact = _fact()
    as_strings = _with(fact, "observed_at", "2025-03-01T13:00:00+01:00")
    as_strings = _with(as_strings, "valid_from", "2025-03-01T12:00:00Z")
    as_strings = _with(as_strings, "recorded_at", "2025-03-01T07:00:01.000005-05:00")
    shifted = _with(fact, "observed_at", T0.astimezone(timezone(timedelta(hours=9))))
    assert fact_digest(as_strings) == fact_digest(fact)
    assert fact_digest(shifted) == fact_digest(fact)


@pytest.mark.parametrize("field", CLAIM_FIELDS)
def test_digest_changes_with_every_claim_field(field: str) -> None:
    fact = _fact()
    current = fact_claim(fact)[field]
    if field.endswith(("_at", "_from", "_to")):
        replacement: Any = T0 + timedelta(days=3)
    elif field == "confidence":
        replacement = 0.5
    else:
        replacement = f"{current}-changed"
    assert fact_digest(_with(fact, field, replacement)) != fact_digest(fact)


def test_round_trip() -> None:
    key = Ed25519PrivateKey.generate()
    fact = _fact()
    att = sign_attestation(fact, key, IDENTITY, "https://ci.example.org/run/42", T0)
    assert att.fact_id == "fact-1"
    assert att.fact_digest == fact_digest(fact)
    assert att.verification_method == "ed25519-graphmem-v1"
    check_attestation(fact, att, _trusted(key))
    # Survives a JSON round trip, as a client would send it.
    again = Attestation.model_validate_json(att.model_dump_json())
    assert signed_payload(again) == signed_payload(att)
    check_attestation(fact, again, _trusted(key))


def test_sign_defaults_verified_at_to_now() -> None:
    key = Ed25519PrivateKey.generate()
    att = sign_attestation(_fact(), key, IDENTITY, "evidence")
    assert abs(datetime.now(UTC) - att.verified_at) < timedelta(minutes=1)
    check_attestation(
        _fact(), Attestation.model_validate_json(att.model_dump_json()), _trusted(key)
    )


def test_verified_at_offset_is_normalised_in_the_payload() -> None:
    key = Ed25519PrivateKey.generate()
    local = (T0 + timedelta(microseconds=7)).astimezone(timezone(timedelta(hours=-3)))
    att = sign_attestation(_fact(), key, IDENTITY, "evidence", local)
    assert b'"verified_at":"2025-03-01T12:00:00.000007Z"' in signed_payload(att)
    check_attestation(
        _fact(), Attestation.model_validate_json(att.model_dump_json()), _trusted(key)
    )


def test_refuses_other_fact() -> None:
    key = Ed25519PrivateKey.generate()
    att = sign_attestation(_fact(), key, IDENTITY, "evidence", T0)
    other = _with(_fact(), "fact_id", "fact-2")
    assert _refusal(other, att, _trusted(key)) == "fact_mismatch"


def test_refuses_changed_fact() -> None:
    key = Ed25519PrivateKey.generate()
    att = sign_attestation(_fact(), key, IDENTITY, "evidence", T0)
    changed = _with(_fact(), "value", {"port": 9090})
    assert _refusal(changed, att, _trusted(key)) == "stale_digest"


def test_refuses_unknown_verifier() -> None:
    key = Ed25519PrivateKey.generate()
    att = sign_attestation(_fact(), key, "mallory", "evidence", T0)
    assert _refusal(_fact(), att, _trusted(key)) == "unknown_verifier"


def test_refuses_tampered_signature() -> None:
    key = Ed25519PrivateKey.generate()
    att = sign_attestation(_fact(), key, IDENTITY, "evidence", T0)
    raw = bytearray(base64.b64decode(att.signature))
    raw[0] ^= 0x01
    tampered = att.model_copy(update={"signature": base64.b64encode(raw).decode()})
    assert _refusal(_fact(), tampered, _trusted(key)) == "bad_signature"


def test_refuses_tampered_field() -> None:
    key = Ed25519PrivateKey.generate()
    att = sign_attestation(_fact(), key, IDENTITY, "evidence", T0)
    tampered = att.model_copy(update={"evidence_reference": "something else"})
    assert _refusal(_fact(), tampered, _trusted(key)) == "bad_signature"


@pytest.mark.parametrize("signature", ["", "not base64!", base64.b64encode(b"x" * 63).decode()])
def test_refuses_malformed_signature(signature: str) -> None:
    key = Ed25519PrivateKey.generate()
    att = sign_attestation(_fact(), key, IDENTITY, "evidence", T0)
    malformed = Attestation.model_validate({**att.model_dump(), "signature": signature})
    assert _refusal(_fact(), malformed, _trusted(key)) == "bad_signature"


def test_refuses_untrusted_key_under_trusted_name() -> None:
    trusted_key = Ed25519PrivateKey.generate()
    impostor = Ed25519PrivateKey.generate()
    att = sign_attestation(_fact(), impostor, IDENTITY, "evidence", T0)
    assert _refusal(_fact(), att, _trusted(trusted_key)) == "bad_signature"


def test_refusal_order_checks_fact_before_verifier() -> None:
    key = Ed25519PrivateKey.generate()
    att = sign_attestation(_fact(), key, "mallory", "evidence", T0)
    changed = _with(_fact(), "key", "other.key")
    assert _refusal(changed, att, _trusted(key)) == "stale_digest"


def test_model_refuses_extra_field_and_bad_shapes() -> None:
    key = Ed25519PrivateKey.generate()
    body = sign_attestation(_fact(), key, IDENTITY, "evidence", T0).model_dump()
    with pytest.raises(ValidationError):
        Attestation.model_validate({**body, "verified": True})
    with pytest.raises(ValidationError):
        Attestation.model_validate({**body, "fact_digest": "sha256:ABC"})
    with pytest.raises(ValidationError):
        Attestation.model_validate({**body, "verification_method": "rsa"})
    with pytest.raises(ValidationError):
        Attestation.model_validate({**body, "schema_version": 2})
    with pytest.raises(ValidationError):
        Attestation.model_validate({**body, "verified_at": "2025-03-01T12:00:00"})
    with pytest.raises(ValidationError):
        Attestation.model_validate({**body, "evidence_reference": ""})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "expected a JSON object"),
        ('{"bob": "not base64!"}', "'bob'"),
        ('{"bob": 12}', "'bob'"),
        ('{"bob": "' + base64.b64encode(b"k" * 31).decode() + '"}', "'bob'"),
        ('{"": "' + base64.b64encode(b"k" * 32).decode() + '"}', "1..200"),
        ('{"bob": "a", "bob": "b"}', "listed twice"),
    ],
)
def test_trusted_verifiers_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrustedVerifiers.from_json(text)


def test_trusted_verifiers_limit() -> None:
    public = public_key_b64(Ed25519PrivateKey.generate())
    too_many = {f"v{i}": public for i in range(101)}
    with pytest.raises(ValueError, match="at most 100"):
        TrustedVerifiers.from_json(json.dumps(too_many))
    del too_many["v100"]
    assert len(TrustedVerifiers.from_json(json.dumps(too_many)).keys) == 100


def test_keypair_files_round_trip(tmp_path: Path) -> None:
    pem, public = generate_keypair()
    assert pem.startswith(b"-----BEGIN PRIVATE KEY-----")
    key_file = tmp_path / "verifier.pem"
    key_file.write_bytes(pem)
    key = load_private_key(key_file)
    assert public_key_b64(key) == public
    trusted_file = tmp_path / "trusted.json"
    trusted_file.write_text(json.dumps({IDENTITY: public}), encoding="utf-8")
    trusted = TrustedVerifiers.from_file(trusted_file)
    check_attestation(_fact(), sign_attestation(_fact(), key, IDENTITY, "ev", T0), trusted)


def test_load_private_key_refuses_other_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pem"
    junk.write_text("hello", encoding="utf-8")
    with pytest.raises(ValueError, match="Ed25519 private key"):
        load_private_key(junk)
    other = tmp_path / "ec.pem"
    other.write_bytes(
        ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    with pytest.raises(ValueError, match="Ed25519 private key"):
        load_private_key(other)


def test_the_keys_are_read_at_each_start_and_served_as_read(tmp_path: Path) -> None:
    keys = tmp_path / "trusted.json"
    settings = Settings.model_validate({"verifier_keys_file": keys})
    keys.write_text(json.dumps({"alice": generate_keypair()[1]}), encoding="utf-8")
    assert set(_keys(load_verifiers(settings))) == {"alice"}
    keys.write_text(json.dumps({"bob": generate_keypair()[1]}), encoding="utf-8")
    assert set(_keys(configured_verifiers(settings))) == {"alice"}  # until the next start
    assert set(_keys(load_verifiers(settings))) == {"bob"}  # a new start reads the file again
    keys.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="GRAPHMEM_VERIFIER_KEYS_FILE"):
        load_verifiers(settings)  # the operator learns which file
    unread = Settings.model_validate({"verifier_keys_file": tmp_path / "never-read.json"})
    with pytest.raises(ConfigurationError) as refused:
        configured_verifiers(unread)  # a call (not a start) names no path
    assert str(tmp_path) not in str(refused.value)
    assert configured_verifiers(Settings.model_validate({})) is None


def _keys(trusted: TrustedVerifiers | None) -> list[str]:
    assert trusted is not None
    return list(trusted.keys)
