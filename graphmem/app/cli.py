"""Command line: ``serve``, ``browse``, ``neo4j start|stop|status|lock|backup|restore``,
``doctor``, ``stats``, ``export``, ``import`` (an export file, or ``--from mcp-neo4j-memory``),
``embeddings fetch|backfill``, ``token``, ``history``, ``verifier``.

Every failure graphmem expects ends as one line on stderr saying what to do, exit code 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from pydantic import ValidationError

from graphmem import __version__
from graphmem.app import embeddings_commands, erase_command, import_peer_command
from graphmem.console.terminal import progress_bar
from graphmem.console.terminal import say as _say
from graphmem.core.errors import ConfigurationError, GraphmemError
from graphmem.core.keys import load
from graphmem.core.settings import Settings
from graphmem.localdb.connect import resolve_connection, start_early
from graphmem.transfer import commands as transfer_commands

if TYPE_CHECKING:  # the web stack is imported only by the commands that serve
    from graphmem.history.verification import Anchor


def _load_settings(**overrides: object) -> Settings:
    try:
        base = Settings()
        return base.model_copy(update={k: v for k, v in overrides.items() if v is not None})
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        field = ".".join(str(part) for part in first["loc"])
        raise ConfigurationError(f"invalid setting {field}: {first['msg']}") from error


# --- neo4j ------------------------------------------------------------------------------------
def neo4j_command(settings: Settings, action: str) -> int:
    from graphmem.localdb import LocalNeo4j
    from graphmem.store import ping_sync

    local = LocalNeo4j(settings, progress=_say)
    if action == "start":
        began = time.monotonic()
        status, started = local.start(ready_check=ping_sync)
        verb = f"started in {time.monotonic() - began:.1f} s" if started else "already running"
        print(f"{verb}\n{status.describe()}")
    elif action == "stop":
        print("stopped" if local.stop() else "not running")
    elif action == "status":
        status = local.status()
        print(status.describe())
        return 0 if status.running else 3
    elif action == "fetch":  # the verified jars, e.g. for docker/build-images.sh
        from graphmem.localdb.assemble import assemble

        print(
            assemble(
                local.lock,
                settings.cache_dir.expanduser(),
                settings.maven_repository,
                _say,
                settings.ca_file,
            )
        )
    elif action == "lock":
        from graphmem.core.tls import trust_system_store
        from graphmem.localdb.lockfile import generate_lock, write_lock

        trust_system_store(settings.ca_file)  # jgo resolves over requests
        lock = generate_lock(settings.maven_repository, _say)
        write_lock(lock)
        print(f"pinned {len(lock.artifacts)} jars ({lock.total_size / 1e6:.0f} MB)")
    return 0


def backup_command(settings: Settings, args: argparse.Namespace) -> int:
    from graphmem.localdb import backup

    path = args.to if args.action == "backup" else args.source
    with progress_bar(f"{args.action} of the managed Neo4j", None):  # the admin tool's steps
        done = backup.command(settings, args.action, path, force=args.force, say=_say)
    print(done)
    return 0


def doctor_command(settings: Settings) -> int:
    from graphmem.app.doctor import run_doctor

    report = run_doctor(settings)
    print(report.describe())
    return 1 if report.failed else 0


def browse_command(settings: Settings, *, open_browser: bool) -> int:
    from graphmem.app.browse import browser_login, open_in_system_browser

    login = browser_login(settings, _say)
    print(login.describe())
    if open_browser and not open_in_system_browser(login.url):
        _say("no graphical browser here: open the URL above")
    return 0


def history_command(settings: Settings, args: argparse.Namespace) -> int:
    """verify: the whole chain (against an anchor if given), which also moves the checkpoint
    ordinary checks start from; anchor: the head that full check verified, to keep outside the
    database. Both need the existing key file (they never make one)."""
    return asyncio.run(_history(settings, args))


async def _history(settings: Settings, args: argparse.Namespace) -> int:
    from graphmem.history.verification import verify_and_checkpoint
    from graphmem.store import Store

    tenant = args.tenant or settings.tenant
    chain_key = load(settings.history_key_path)  # the key the history was written with
    uri, user, password = resolve_connection(settings)
    store = await Store.connect(uri, user, password, settings.neo4j_database)
    store.chain_key = chain_key
    try:
        given = _anchor(args.anchor) if getattr(args, "anchor", None) else None
        began = time.perf_counter()
        with progress_bar("verifying the history", None):  # a spinner: the length is unknown
            verdict, head_hash = await verify_and_checkpoint(
                store.of(tenant), limit=10**12, full=True, anchor=given
            )
        seconds = time.perf_counter() - began
    finally:
        await store.close()
    rate = verdict.checked_events / seconds if seconds else 0.0
    _say(f"checked {verdict.checked_events} events in {seconds:.2f} s ({rate:,.0f}/s)")
    if args.action == "verify":
        print(verdict.model_dump_json(indent=1))
    if not verdict.verified:
        raise ConfigurationError(
            f"the history of tenant {tenant} does not verify ({verdict.status}): {verdict.reason}"
        )
    if args.action == "anchor":  # the head the full check just verified
        anchor = {"tenant": tenant, "revision": verdict.head_revision, "hash": head_hash}
        print(json.dumps({**anchor, "anchor": f"{verdict.head_revision}:{head_hash}"}))
    return 0


def _anchor(text: str) -> Anchor:
    from graphmem.history.verification import Anchor

    revision, colon, digest = text.partition(":")
    if not colon or not revision.isdigit() or len(digest) != 64:
        raise ConfigurationError(
            "--anchor takes REVISION:HASH, as `graphmem history anchor` prints"
        )
    return Anchor(int(revision), digest)


def stats_command(settings: Settings, args: argparse.Namespace) -> int:
    """One tenant's numbers (default GRAPHMEM_TENANT) and the database-wide index states."""
    from graphmem.app.stats_command import render, run_stats

    tenant = args.tenant or settings.tenant
    report = asyncio.run(run_stats(resolve_connection(settings), settings.neo4j_database, tenant))
    print(report.model_dump_json(indent=1) if args.json else render(report))
    return 0


def token_command(settings: Settings, args: argparse.Namespace) -> int:
    """issue / revoke / list tokens in the tokens file; digest: one for the environment."""
    from graphmem.app import tokens

    if args.action == "digest":
        token, digest = tokens.new_token()
        print(f"token (give it to the client, it is not stored): {token}")
        print(f"GRAPHMEM_HTTP_TOKEN_SHA256={digest}")
        return 0
    path = settings.tokens_file
    if path is None:
        raise ConfigurationError("set GRAPHMEM_TOKENS_FILE to the tokens file to manage")
    if args.action == "issue":
        scopes = [part.strip() for part in args.scopes.split(",") if part.strip()]
        unknown = sorted(set(scopes) - set(tokens.ALL_SCOPES))
        if unknown or not scopes:
            raise ConfigurationError(f"--scopes must be among {', '.join(tokens.ALL_SCOPES)}")
        token, record = tokens.issue_token(path, args.tenant, scopes, args.label)
        print(f"{record.id}: tenant {record.tenant}, scopes {','.join(record.scopes)}")
        print(f"token (shown once, not stored): {token}")
    elif args.action == "revoke":
        record = tokens.revoke_token(path, args.id)
        print(f"{record.id} revoked at {record.revoked_at}")
    else:
        for record in tokens.TokenFile.load(path).tokens:
            state = f"revoked {record.revoked_at:%Y-%m-%d}" if record.revoked_at else "active"
            print(
                f"{record.id}  {record.tenant}  {','.join(record.scopes)}  {state}  "
                f"{record.label or ''}".rstrip()
            )
    return 0


# --- verifier ---------------------------------------------------------------------------------
def verifier_command(args: argparse.Namespace) -> int:
    """keygen: a new Ed25519 key pair; attest: sign an attestation for a fact."""
    from graphmem.facts import attestation as verification

    try:
        if args.action == "keygen":
            pem, public = verification.generate_keypair()
            fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(pem)
            print(f"private key written to {args.out} (keep it secret)")
            print("add to the GRAPHMEM_VERIFIER_KEYS_FILE JSON object:")
            print(json.dumps({args.identity: public}))
            return 0
        fact = _read_fact(args.fact)
        attestation = verification.sign_attestation(
            fact, verification.load_private_key(Path(args.key)), args.identity, args.evidence
        )
        print(attestation.model_dump_json(indent=2))
        return 0
    except FileExistsError as error:
        raise ConfigurationError(f"{args.out} exists already; choose another path") from error
    except (OSError, ValueError) as error:
        raise ConfigurationError(str(error)) from error


def _read_fact(source: str) -> dict[str, object]:
    """A fact as graphmem returns it, or a result that holds one (answer / fact)."""
    text = sys.stdin.read() if source == "-" else Path(source).read_text()
    document = json.loads(text)
    for wrapper in ("answer", "fact"):
        if isinstance(document.get(wrapper), dict):
            document = document[wrapper]
    if not isinstance(document, dict) or "id" not in document:
        raise ValueError("the input is not a fact (expected the JSON of record_fact's result)")
    return cast("dict[str, object]", document)  # a JSON object: its keys are strings


# --- entry ------------------------------------------------------------------------------------
def _add_neo4j_parser(commands: transfer_commands.Subcommands) -> None:
    neo4j_parser = commands.add_parser("neo4j", help="the managed local Neo4j")
    neo4j_parser.add_argument(
        "action", choices=["start", "stop", "status", "fetch", "lock", "backup", "restore"]
    )
    neo4j_parser.add_argument(
        "--to", type=Path, metavar="FOLDER", help="backup: the folder to write it to"
    )
    neo4j_parser.add_argument(
        "--from", dest="source", type=Path, metavar="PATH", help="restore: a backup folder or .dump"
    )
    neo4j_parser.add_argument(
        "--force",
        action="store_true",
        help="backup/restore: stop a running server for it and start it again; replace an "
        "existing dump or database",
    )


def build_parser() -> argparse.ArgumentParser:
    # no abbreviated options: an option is always spelled out, in docs and in agent configs
    parser = argparse.ArgumentParser(prog="graphmem", description=__doc__, allow_abbrev=False)
    parser.add_argument("--version", action="version", version=f"graphmem {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    serve_parser = commands.add_parser(
        "serve", help="serve MCP (stdio by default)", allow_abbrev=False
    )
    serve_parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    serve_parser.add_argument("--host", help="HTTP bind address (default 127.0.0.1)")
    serve_parser.add_argument("--port", type=int, help="HTTP port (default 8000)")
    serve_parser.add_argument("--toolset", choices=["core", "full"])

    browse = commands.add_parser("browse", help="open Neo4j Browser on graphmem's graph")
    browse.add_argument("--no-open", action="store_true", help="print the URL only")

    _add_neo4j_parser(commands)
    commands.add_parser("doctor", help="check the setup: one line per check, exit 1 on a fail")

    token = commands.add_parser("token", help="bearer tokens for the HTTP transport")
    token_actions = token.add_subparsers(dest="action", required=True)
    issue = token_actions.add_parser("issue", help="issue a token into GRAPHMEM_TOKENS_FILE")
    issue.add_argument("--tenant", required=True)
    issue.add_argument("--scopes", default="read,write", help="read, write, admin")
    issue.add_argument("--label", help="what the token is for")
    revoke = token_actions.add_parser("revoke", help="revoke a token by id")
    revoke.add_argument("id")
    token_actions.add_parser("list", help="list tokens (never the secrets)")
    token_actions.add_parser("digest", help="a token + digest for GRAPHMEM_HTTP_TOKEN_SHA256")

    history = commands.add_parser("history", help="anchor and verify the history chain")
    history_actions = history.add_subparsers(dest="action", required=True)
    anchor = history_actions.add_parser("anchor", help="print the verified head to keep elsewhere")
    verify = history_actions.add_parser("verify", help="verify the whole chain")
    verify.add_argument("--anchor", help="REVISION:HASH from `graphmem history anchor`")
    for action in (anchor, verify):
        action.add_argument("--tenant", help="default GRAPHMEM_TENANT")

    stats = commands.add_parser("stats", help="a tenant's numbers and the index states")
    stats.add_argument("--tenant", help="default GRAPHMEM_TENANT")
    stats.add_argument("--json", action="store_true", help="print JSON")

    verifier = commands.add_parser("verifier", help="keys and attestations for verify_fact")
    verifier_actions = verifier.add_subparsers(dest="action", required=True)
    keygen = verifier_actions.add_parser("keygen", help="create an Ed25519 key pair")
    keygen.add_argument("--out", required=True, help="where to write the private key (PEM)")
    keygen.add_argument("--identity", required=True, help="the verifier's name")
    attest = verifier_actions.add_parser("attest", help="sign an attestation for a fact")
    attest.add_argument("--key", required=True, help="the private key file (PEM)")
    attest.add_argument("--identity", required=True, help="the verifier's configured name")
    attest.add_argument("--evidence", required=True, help="what was checked (ticket, URL)")
    attest.add_argument("--fact", default="-", help="the fact's JSON file; - reads stdin")
    transfer_commands.add_commands(commands)
    import_peer_command.point_to_it(commands.choices["import"])
    erase_command.add_commands(commands)
    embeddings_commands.add_commands(commands)
    return parser


def _import_peer(argv: list[str]) -> int:
    """``import --from ...``: its own parser (graphmem/app/import_peer_command.py)."""
    try:
        settings = _load_settings()
        logging.basicConfig(level=settings.log_level, stream=sys.stderr)
        return import_peer_command.run(settings, argv)
    except GraphmemError as error:
        _say(f"graphmem: {error.message}")
        return 1
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if import_peer_command.wanted(arguments):
        return _import_peer(arguments)
    args = build_parser().parse_args(arguments)
    try:
        if args.command == "verifier":
            return verifier_command(args)
        settings = _load_settings(
            host=getattr(args, "host", None),
            port=getattr(args, "port", None),
            toolset=getattr(args, "toolset", None),
        )
        logging.basicConfig(level=settings.log_level, stream=sys.stderr)
        if args.command == "serve":
            if settings.serve_refusal(args.transport) is None:
                start_early(settings)  # the JVM starts while the web stack loads
            from graphmem.app.serve import serve  # the web stack loads for serve only

            return serve(settings, args.transport)
        if args.command == "browse":
            return browse_command(settings, open_browser=not args.no_open)
        if args.command == "token":
            return token_command(settings, args)
        if args.command in ("export", "import"):
            return transfer_commands.run(settings, args)
        if args.command == "history":
            return history_command(settings, args)
        if args.command == "erase":
            return erase_command.run(settings, args)
        if args.command == "embeddings":
            return embeddings_commands.run(settings, args)
        if args.command == "stats":
            return stats_command(settings, args)
        if args.command == "doctor":
            return doctor_command(settings)
        if args.action in ("backup", "restore"):
            return backup_command(settings, args)
        return neo4j_command(settings, args.action)
    except GraphmemError as error:
        _say(f"graphmem: {error.message}")
        return 1
    except KeyboardInterrupt:
        return 130
