"""A human verifier can produce an attestation with the command line alone."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from graphmem.facts.attestation import Attestation, TrustedVerifiers, check_attestation
from tests.app.helpers import assert_one_clear_line, clean_env, run_cli

FACT = {
    "id": "01a2-fact",
    "project": "p",
    "origin_id": None,
    "key": "k",
    "value": {"x": 1},
    "source_class": "tool_observed",
    "source_raw": None,
    "actor": None,
    "client": None,
    "session_id": None,
    "confidence": 0.5,
    "observed_at": "2026-01-01T00:00:00Z",
    "expires_at": None,
    "temporal": {
        "valid_from": "2026-01-01T00:00:00Z",
        "valid_to": None,
        "recorded_at": datetime(2026, 1, 1, tzinfo=UTC).isoformat(),
    },
}


def test_keygen_then_attest(tmp_path: Path) -> None:
    key = tmp_path / "verifier.pem"
    made = run_cli("verifier", "keygen", "--out", str(key), "--identity", "alice", env=clean_env())
    assert made.returncode == 0, made.stderr
    assert key.stat().st_mode & 0o077 == 0
    trusted = TrustedVerifiers.from_json(made.stdout.strip().splitlines()[-1])

    fact_file = tmp_path / "fact.json"
    fact_file.write_text(json.dumps({"status": "current", "answer": FACT}))
    signed = run_cli(
        "verifier",
        "attest",
        "--key",
        str(key),
        "--identity",
        "alice",
        "--evidence",
        "JIRA-12",
        "--fact",
        str(fact_file),
        env=clean_env(),
    )
    assert signed.returncode == 0, signed.stderr
    attestation = Attestation.model_validate_json(signed.stdout)
    check_attestation(FACT, attestation, trusted)  # raises if anything is off


def test_keygen_refuses_to_overwrite(tmp_path: Path) -> None:
    key = tmp_path / "verifier.pem"
    key.write_text("precious")
    result = run_cli("verifier", "keygen", "--out", str(key), "--identity", "a", env=clean_env())
    assert_one_clear_line(result, "exists already")
    assert key.read_text() == "precious"


def test_attest_with_a_bad_key_file(tmp_path: Path) -> None:
    key = tmp_path / "not-a-key.pem"
    key.write_text("hello")
    fact_file = tmp_path / "fact.json"
    fact_file.write_text(json.dumps(FACT))
    result = run_cli(
        "verifier",
        "attest",
        "--key",
        str(key),
        "--identity",
        "a",
        "--evidence",
        "e",
        "--fact",
        str(fact_file),
        env=clean_env(),
    )
    assert_one_clear_line(result, "not an unencrypted Ed25519 private key")
