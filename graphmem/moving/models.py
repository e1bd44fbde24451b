"""The report of ``graphmem import --from mcp-neo4j-memory``: what the peer holds, what maps
(and, on a real run, what was written), what cannot and why."""

from __future__ import annotations

from pydantic import Field

from graphmem.core.models import OutputModel

MAX_EXAMPLES = 20  # refused items named in the report (the counts cover them all)


class ItemCounts(OutputModel):
    found: int = Field(description="Read from the peer.")
    maps: int = Field(description="Valid for graphmem and not imported before.")
    written: int = Field(description="Saved by this run (0 in a dry run).")
    already: int = Field(description="Imported before (its topic is in the project): skipped.")
    refused: int = Field(description="Cannot map: see refusals.")
    failed: int = Field(description="Valid, but its write failed (nothing of it was written).")
    quarantined: int = Field(description="Maps, stored quarantined by the poisoning gate.")
    redacted: int = Field(description="Maps, with a secret the gate replaces.")


class RefusedItem(OutputModel):
    item: str
    origin: str
    reason: str


class ImportReport(OutputModel):
    source: str
    peer: str = Field(description="The peer database's URI.")
    tenant: str
    project: str
    dry_run: bool
    peer_entities: int = Field(description="The peer's Memory nodes.")
    peer_nameless: int = Field(description="Of them, without a name that is text (not read).")
    peer_relations: int
    entities: ItemCounts
    observations: ItemCounts
    relations: ItemCounts
    kinds: dict[str, int] = Field(
        description="Entities by the subject kind their peer type names (not set on subjects: "
        "about carries no kind)."
    )
    refusals: dict[str, int] = Field(description="Refused and failed items by reason.")
    examples: list[RefusedItem] = Field(description=f"The first {MAX_EXAMPLES} refused items.")
    names_read: bool = Field(
        description="The imported memories' names were read (subjects made); false: a pass "
        "failed and the next one reads them (a dry run: true, nothing to read)."
    )
