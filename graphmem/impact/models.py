"""Impact: recorded links from knowledge (chunks, claims, facts) to what it affects, and the
bounded walk that explains a change's downstream impact."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, model_validator

from graphmem.core.errors import InvalidArgument
from graphmem.core.models import Audit, BlankAsNone, Name, OutputModel, StrictModel
from graphmem.toolkit.answers import compact

SourceKind = Literal["chunk", "claim", "fact"]
TargetKind = Literal["session", "snapshot", "mapping", "validation", "export", "fact", "decision"]
ImpactType = Literal["informs", "blocks", "risks", "invalidates", "requires_review"]
DepthName = Literal["quick", "standard", "deep"]
Via = Literal[
    "IMPACTS",
    "DEPENDS_ON",
    "DEPENDS_ON_KEY",
    "WATCHES_KEY",
    "INCLUDES",
    "EVIDENCED_BY",
    "PROMOTED_TO",
]

# Targets that are nodes of their own; the other target kinds name something outside the
# graph and are stored as (:ImpactTarget {tenant, kind, ref}).
NODE_TARGETS: tuple[TargetKind, ...] = ("fact", "decision")
EXTERNAL_TARGETS: tuple[TargetKind, ...] = (
    "session",
    "snapshot",
    "mapping",
    "validation",
    "export",
)
DEPTHS: dict[DepthName, int] = {"quick": 1, "standard": 3, "deep": 5}
# Kinds of affected things in the order results and the summary list them: the seed's six,
# then what the derived edges reach.
KIND_ORDER = (
    "session",
    "snapshot",
    "mapping",
    "validation",
    "export",
    "fact",
    "claim",
    "decision",
    "pack",
)


def node_name(kind: str, ref: str) -> str:
    """How results name a node: ``<kind>:<id or ref>``."""
    return f"{kind}:{ref}"


def depth_of(requested: str) -> DepthName:
    """quick, standard or deep (case and surrounding blanks ignored); anything else behaves as
    standard, as the seed specifies."""
    folded = requested.strip().lower()
    return folded if folded in DEPTHS else "standard"


class LinkImpactRequest(StrictModel):
    source_kind: SourceKind = Field(description="Source kind.")
    source_ref: Name = Field(description="Source id.")
    target_kind: TargetKind = Field(description="fact, decision: must exist; others: external.")
    target_ref: Name = Field(description="Target id or external ref.")
    impact_type: ImpactType = Field(description="Impact kind.")
    score: float = Field(default=0.5, ge=0.0, le=1.0, description="Multiplied along a path.")
    # The seed's rule for link_impact: an empty rationale behaves as absent.
    rationale: Annotated[str | None, Field(max_length=2000), BlankAsNone] = Field(
        default=None, description="Why."
    )
    session_id: Audit = None
    actor: Audit = None

    @model_validator(mode="after")
    def _not_itself(self) -> LinkImpactRequest:
        if self.source_kind == self.target_kind and self.source_ref == self.target_ref:
            raise InvalidArgument("target_ref", "a fact cannot impact itself")
        return self

    @property
    def external(self) -> bool:
        return self.target_kind in EXTERNAL_TARGETS


class ImpactEndpoint(OutputModel):
    kind: str
    ref: str = Field(description="The node's id, or the external reference.")


class LinkImpactResult(OutputModel):
    compact_answer = compact("edge_id", "created", "revision")
    edge_id: str
    source: ImpactEndpoint
    target: ImpactEndpoint
    impact_type: ImpactType
    score: float
    rationale: str | None
    created: bool = Field(
        description="False when the same source, target and impact_type were already linked: "
        "the link kept its id and created_at and took the new score and rationale."
    )
    created_at: datetime
    updated_at: datetime
    revision: int = Field(description="The tenant's history revision this write committed.")


class ExplainImpactRequest(StrictModel):
    source_kind: SourceKind = Field(default="fact", description="Kind of source_ref.")
    source_ref: Name = Field(description="Source id.")
    depth: str = Field(
        default="standard",
        max_length=20,
        description="quick: 1 hop, standard: 3, deep: 5; anything else: standard.",
    )


class ImpactHop(OutputModel):
    # "from" is a Python keyword: the field is from_, published and serialised as "from".
    model_config = ConfigDict(
        extra="forbid", frozen=True, validate_by_name=True, serialize_by_alias=True
    )

    from_: str = Field(alias="from", description="<kind>:<ref> the hop leaves.")
    to: str = Field(description="<kind>:<ref> the hop reaches.")
    via: Via = Field(
        description="IMPACTS (a recorded link) or the derived edge followed: DEPENDS_ON, "
        "DEPENDS_ON_KEY, WATCHES_KEY, INCLUDES, EVIDENCED_BY, PROMOTED_TO."
    )
    impact_type: ImpactType
    score: float
    rationale: str | None


class Impact(OutputModel):
    target_kind: str
    target_ref: str
    label: str | None = Field(description="A decision's or pack's title, a fact's key.")
    impact_type: ImpactType = Field(description="Type of the last hop, into the target.")
    edge_score: float = Field(description="Score of the last hop.")
    propagated_score: float = Field(description="Product of the scores along the path.")
    depth: int = Field(description="Hops from the source.")
    rationale: str | None = Field(description="Rationale of the last hop.")
    path: list[ImpactHop] = Field(description="The best path from the source, hop by hop.")


class ExplainImpactResult(OutputModel):
    source: str = Field(description="<kind>:<id> of the source.")
    depth: DepthName = Field(description="The depth walked (unknown names walk standard).")
    max_depth: int
    total_impacts: int = Field(description="Distinct affected targets reported.")
    impacts_by_kind: dict[str, list[Impact]] = Field(
        description="Affected targets per kind, best propagated score first."
    )
    truncated: bool = Field(
        description="True when a bound cut the walk or the answer (500 targets, 1,000 nodes "
        "expanded per hop, 100 edges per node and edge kind)."
    )
    summary: str
