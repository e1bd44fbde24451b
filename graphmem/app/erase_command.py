"""`graphmem erase`: the operator's erasure, the same path as the erase tool
(graphmem/erasure/service.py). Without --confirm it is the dry run: it prints what would go
and the fingerprint; with --confirm FINGERPRINT and --reason it erases exactly that selection,
or refuses when the data changed since."""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING

from pydantic import ValidationError

from graphmem.console.terminal import progress_bar, say
from graphmem.core.errors import ConfigurationError
from graphmem.core.keys import load_or_create
from graphmem.core.settings import Settings
from graphmem.erasure.models import EraseRequest, EraseResult
from graphmem.localdb.connect import connect_store
from graphmem.localdb.log_push import log_pusher

if TYPE_CHECKING:
    from graphmem.transfer.commands import Subcommands

CONFIRM_FLAGS = {"expected_fingerprint": "--confirm", "reason": "--reason"}
SELECTOR_FLAGS = {
    "ids": "--ids",
    "project": "--project",
    "raw_session_id": "--raw-session",
    "topic_key": "--topic-key",
    "written_by": "--written-by",
    "written_in_session": "--written-in-session",
}


def add_commands(commands: Subcommands) -> None:
    erase = commands.add_parser(
        "erase", help="erase content for good (dry run unless --confirm), every copy"
    )
    erase.add_argument("--tenant", help="default GRAPHMEM_TENANT")
    selector = erase.add_mutually_exclusive_group(required=True)
    selector.add_argument("--ids", help="comma-separated ids (commits by sha)")
    selector.add_argument("--project", help="everything of this project")
    selector.add_argument("--raw-session", help="a raw-archive session id and its turns")
    selector.add_argument("--topic-key", help="a memory topic and the fact key of that name")
    selector.add_argument("--written-by", help="everything this actor wrote")
    selector.add_argument("--written-in-session", help="everything written with this session_id")
    erase.add_argument("--confirm", metavar="FINGERPRINT", help="the dry run's fingerprint")
    erase.add_argument("--reason", help="why (required with --confirm; recorded)")


def run(settings: Settings, args: argparse.Namespace) -> int:
    try:
        request = EraseRequest.model_validate(_arguments(args))
    except ValidationError as error:
        first = error.errors()[0]
        flag = SELECTOR_FLAGS.get(str(first["loc"][0]), CONFIRM_FLAGS.get(str(first["loc"][0])))
        raise ConfigurationError(f"{flag or first['loc'][0]}: {first['msg']}") from None
    result = asyncio.run(_erase(settings, args.tenant or settings.tenant, request))
    print(result.model_dump_json(indent=1))
    if request.dry_run:
        say("a dry run: nothing erased; erase with --confirm <fingerprint> --reason <why>")
    elif result.remaining:
        say(f"{result.remaining:,} more selected: run the dry run again to erase the rest")
    return 0


def _arguments(args: argparse.Namespace) -> dict[str, object]:
    """The request's fields as the flags gave them (EraseRequest validates them)."""
    arguments: dict[str, object] = {}
    for field in SELECTOR_FLAGS:
        value = getattr(args, field if field != "raw_session_id" else "raw_session")
        if value is not None:
            arguments[field] = (
                [i.strip() for i in value.split(",") if i.strip()] if (field == "ids") else value
            )
    if args.confirm is not None:
        arguments |= {
            "dry_run": False,
            "confirm_destructive": True,
            "expected_fingerprint": args.confirm,
            "reason": args.reason,
        }
    return arguments


async def _erase(settings: Settings, tenant: str, request: EraseRequest) -> EraseResult:
    from graphmem.erasure.service import erase

    store = await connect_store(settings)
    store.chain_key = load_or_create(settings.history_key_path)
    try:
        with progress_bar("erasing" if not request.dry_run else "selecting", None):
            result = await erase(store.of(tenant), request, settings.memory_backup_dir)
        push = log_pusher(settings)
        if result.erased_something and push is not None:
            await push(store.of(tenant))
        return result
    finally:
        await store.close()
