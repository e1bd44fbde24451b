"""Impact domain: record impact links, and explain a change's downstream impact.

link_impact records ``(source)-[:IMPACTS {id, type, score, rationale}]->(target)`` from a chunk,
claim or fact to a fact, a decision or an external target (``ImpactTarget {kind, ref}``), in
one locked write transaction with one history event (aggregate_kind "impact").

explain_impact is read-only: it takes no lock and writes nothing (the seed's version appends
a run-log entry, which made a read need write access). It walks outgoing edges from the
source, level by level, for at most max_depth hops (quick 1, standard 3, deep 5):

- recorded ``IMPACTS`` links out of facts, claims and chunks, with their own type and score;
- derived edges, typed and scored by ``DERIVED`` below:
  fact -> decision that DEPENDS_ON the fact        requires_review 1.0   (via DEPENDS_ON)
  fact -> decision that DEPENDS_ON the fact's key  requires_review 0.9   (via DEPENDS_ON_KEY)
  fact -> decision whose alternative REOPEN_WHEN
          watches the fact's key                   risks           0.8   (via WATCHES_KEY)
  fact -> pack that INCLUDES the fact              informs         0.7   (via INCLUDES)
  chunk -> claim EVIDENCED_BY the chunk            informs  claim confidence, else 1.0
  claim -> fact it was PROMOTED_TO                 informs         1.0   (via PROMOTED_TO)

Decisions, packs and external targets are leaves. A path's score is the product of its hops'
scores; each affected target is reported once, with its best path (highest product over
paths of at most max_depth hops; on a tie the fewer hops, then a fixed order). Targets that
are no longer valid (a fact not active or lapsed, a superseded or reverted decision, a
rejected claim, a retired pack) are neither reported nor walked through. The source itself is
walked whatever its state: asking what a superseded fact informed is a fair question.

The walk is a level-synchronous relaxation: round k runs ONE query (``impact/list_impact_edges``)
for the frontier, the nodes whose best score improved in round k-1, and a node's new path is
built from its parent's path as it stood at the end of round k-1, so after round k every best
path has at most k hops and is simple (scores are at most 1, so a cycle never strictly
improves a path and nothing is expanded twice without a strictly better score). Every lookup
is an index seek by id and then an expansion, so the cost follows the neighbourhood walked,
not the size of the store; the bounds below cap it on dense neighbourhoods and set
``truncated``. Each level is its own auto-commit read (one round trip), so a write landing
between two levels is seen by the later levels only.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol, TypeGuard, get_args

from graphmem.core.clock import utc_now_iso
from graphmem.core.errors import NotFound
from graphmem.core.ids import new_id
from graphmem.core.models import from_node, pick
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, write
from graphmem.impact.models import (
    DEPTHS,
    KIND_ORDER,
    DepthName,
    ExplainImpactRequest,
    ExplainImpactResult,
    Impact,
    ImpactEndpoint,
    ImpactHop,
    ImpactType,
    LinkImpactRequest,
    LinkImpactResult,
    Via,
    depth_of,
    node_name,
)
from graphmem.impact.rows import EdgeItem, EdgesRow, EndpointsRow, LinkedRow
from graphmem.store import Params, Row, TenantStore, shaped

# Derived edges: the impact type and score they carry (EVIDENCED_BY: the claim's confidence
# when it has one in [0, 1]).
DERIVED: dict[Via, tuple[ImpactType, float]] = {
    "DEPENDS_ON": ("requires_review", 1.0),
    "DEPENDS_ON_KEY": ("requires_review", 0.9),
    "WATCHES_KEY": ("risks", 0.8),
    "INCLUDES": ("informs", 0.7),
    "EVIDENCED_BY": ("informs", 1.0),
    "PROMOTED_TO": ("informs", 1.0),
}
IMPACT_TYPES = frozenset(get_args(ImpactType))
EXPANDABLE = ("fact", "claim", "chunk")  # kinds whose outgoing edges are walked
MAX_TARGETS = 500  # affected targets reported, best first
MAX_FRONTIER = 1_000  # nodes expanded per round, best first
FANOUT = 100  # edges read per node and edge kind (recorded links: best score first)
SCORE_DIGITS = 6


# --- link_impact ---------------------------------------------------------------------------------
async def link_impact(db: TenantStore, request: LinkImpactRequest) -> LinkImpactResult:
    edge_id = new_id()
    ends: Params = {
        "source_kind": request.source_kind,
        "source_ref": request.source_ref,
        "target_kind": request.target_kind,
        "target_ref": request.target_ref,
        "external": request.external,
    }

    async def work(w: Write) -> LinkImpactResult:
        found = shaped(EndpointsRow, await w.run("impact/find_impact_endpoints", **ends))[0]
        if not found["source_found"]:
            raise NotFound(request.source_kind, request.source_ref)
        if not found["target_found"]:
            raise NotFound(request.target_kind, request.target_ref)
        rows = await w.run(
            "impact/link_impact",
            **ends,
            **pick(request, "impact_type score rationale"),
            edge_id=edge_id,
        )
        row = shaped(LinkedRow, rows)[0]
        revision = await w.record(
            "impact",
            row["edge_id"],
            [request.source_ref, request.target_ref],
            {
                "source": node_name(request.source_kind, request.source_ref),
                "target": node_name(request.target_kind, request.target_ref),
                "impact_type": request.impact_type,
                "score": request.score,
                "rationale": request.rationale,
                "created": row["created"],
            },
        )
        return from_node(
            LinkImpactResult,
            row,
            source=ImpactEndpoint(kind=request.source_kind, ref=request.source_ref),
            target=ImpactEndpoint(kind=request.target_kind, ref=request.target_ref),
            impact_type=request.impact_type,
            revision=revision,
        )

    return await write(db, "link_impact", work, audit=Audit.of(request))


# --- explain_impact ------------------------------------------------------------------------------
Node = tuple[str, str]  # (kind, id or external ref)


@dataclass(frozen=True)
class _Best:
    """The best path found so far to one node."""

    score: float
    hops: tuple[ImpactHop, ...]
    label: str | None


@dataclass(frozen=True)
class _Edge:
    to: Node
    label: str | None
    via: Via
    impact_type: ImpactType
    score: float
    rationale: str | None


class EdgeReader(Protocol):
    """Runs ``impact/list_impact_edges`` with the given parameters: in a read of its own, or
    inside a caller's transaction (knowledge's enrich sees its own run's writes)."""

    def __call__(self, **params: object) -> Awaitable[list[Row]]: ...


async def explain_impact(db: TenantStore, request: ExplainImpactRequest) -> ExplainImpactResult:
    async def read_edges(**params: object) -> list[Row]:
        return await db.read("impact/list_impact_edges", **params)

    return await walk(read_edges, request, utc_now_iso())


async def walk(
    read_edges: EdgeReader, request: ExplainImpactRequest, now: str
) -> ExplainImpactResult:
    """The bounded walk from the request's source: one edge query per level, each node's
    best-scoring path kept (the module's docstring)."""
    depth = depth_of(request.depth)
    max_depth = DEPTHS[depth]
    source: Node = (request.source_kind, request.source_ref)
    best: dict[Node, _Best] = {source: _Best(1.0, (), None)}
    frontier = [source]
    truncated = False
    for level in range(1, max_depth + 1):
        rows = await read_edges(
            now=now,
            fanout=FANOUT,
            **{f"{kind}_ids": [ref for k, ref in frontier if k == kind] for kind in EXPANDABLE},
        )
        found = shaped(EdgesRow, rows)
        if level == 1 and not found:
            raise NotFound(request.source_kind, request.source_ref)
        candidates: dict[Node, _Best] = {}
        for row in sorted(found, key=lambda row: (row["from_kind"], row["from_id"])):
            origin: Node = (row["from_kind"], row["from_id"])
            parent = best[origin]
            edges, cut = _edges(row["edges"])
            truncated |= cut
            for edge in edges:
                offer = _offer(origin, parent, edge)
                held = candidates.get(edge.to) or best.get(edge.to)
                if held is None or offer.score > held.score:
                    candidates[edge.to] = offer
        improved = sorted(candidates, key=lambda node: (-candidates[node].score, node))
        best.update(candidates)
        frontier = [node for node in improved if node[0] in EXPANDABLE]
        if len(frontier) > MAX_FRONTIER:
            frontier, truncated = frontier[:MAX_FRONTIER], True
        if not frontier:
            break
    del best[source]
    return _result(request, depth, best, truncated)


def _edges(raw: list[EdgeItem]) -> tuple[list[_Edge], bool]:
    """The valid edges of one node, and whether a fanout bound may have cut its list."""
    per_via: dict[str, int] = {}
    edges: list[_Edge] = []
    for item in raw:
        via = item["via"]
        per_via[via] = per_via.get(via, 0) + 1
        kind, ref = item["kind"], item["ref"]
        if not item["valid"] or kind is None or ref is None:
            continue
        if via == "IMPACTS":
            impact_type, score, rationale = item["impact_type"], item["score"], item["rationale"]
            if not _is_impact_type(impact_type) or not _is_score(score):
                continue  # not written by link_impact: nothing to multiply with
        else:
            impact_type, score = DERIVED[via]
            if via == "EVIDENCED_BY" and _is_score(confidence := item["score"]):
                score = float(confidence)
            rationale = _derived_rationale(via, item)
        edges.append(_Edge((kind, ref), item["label"], via, impact_type, float(score), rationale))
    edges.sort(key=lambda edge: (-edge.score, edge.via, edge.to))  # ties: a stable choice
    return edges, any(count >= FANOUT for count in per_via.values())


def _is_impact_type(value: object) -> TypeGuard[ImpactType]:
    return value in IMPACT_TYPES


def _is_score(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def _derived_rationale(via: Via, item: EdgeItem) -> str:
    match via:
        case "DEPENDS_ON":
            return "the decision depends on this fact"
        case "DEPENDS_ON_KEY":
            return f"the decision depends on key {item['key']!r}"
        case "WATCHES_KEY":
            alternative = f" {item['alternative']!r}" if item.get("alternative") else ""
            return (
                f"reopen rule {item['rule_id']} of alternative{alternative} watches key "
                f"{item['key']!r} ({item['operator']})"
            )
        case "INCLUDES":
            return "the pack includes this fact"
        case "EVIDENCED_BY":
            return "the claim is evidenced by this chunk"
        case _:
            return "the claim was promoted to this fact"


def _offer(origin: Node, parent: _Best, edge: _Edge) -> _Best:
    hop = ImpactHop.model_validate(
        {
            "from": node_name(*origin),
            "to": node_name(*edge.to),
            "via": edge.via,
            "impact_type": edge.impact_type,
            "score": edge.score,
            "rationale": edge.rationale,
        }
    )
    return _Best(parent.score * edge.score, (*parent.hops, hop), edge.label)


def _result(
    request: ExplainImpactRequest, depth: DepthName, best: dict[Node, _Best], truncated: bool
) -> ExplainImpactResult:
    ranked = sorted(best.items(), key=lambda item: (-item[1].score, len(item[1].hops), item[0]))
    if len(ranked) > MAX_TARGETS:
        ranked, truncated = ranked[:MAX_TARGETS], True
    by_kind: dict[str, list[Impact]] = {kind: [] for kind in KIND_ORDER}
    for (kind, ref), found in ranked:
        last = found.hops[-1]
        by_kind.setdefault(kind, []).append(
            Impact(
                target_kind=kind,
                target_ref=ref,
                label=found.label,
                impact_type=last.impact_type,
                edge_score=last.score,
                propagated_score=round(found.score, SCORE_DIGITS),
                depth=len(found.hops),
                rationale=last.rationale,
                path=list(found.hops),
            )
        )
    return ExplainImpactResult(
        source=node_name(request.source_kind, request.source_ref),
        depth=depth,
        max_depth=DEPTHS[depth],
        total_impacts=len(ranked),
        impacts_by_kind=by_kind,
        truncated=truncated,
        summary=_summary(by_kind, DEPTHS[depth], truncated),
    )


def _summary(by_kind: dict[str, list[Impact]], max_depth: int, truncated: bool) -> str:
    parts = [
        f"{kind}: {len(found)} affected (max score: {found[0].propagated_score:.2f})"
        for kind, found in by_kind.items()
        if found
    ]
    if not parts:
        hops = "hop" if max_depth == 1 else "hops"
        return f"nothing affected within {max_depth} {hops}"
    return "; ".join(parts) + ("; truncated" if truncated else "")
