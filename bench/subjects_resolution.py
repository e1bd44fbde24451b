"""Subject resolution against hand-made gold sets: B-cubed precision, recall and F1, the
questions a person would be asked per 100 mentions, and a name-only baseline beside them.

    python -m bench.subjects_resolution --gold PATH [--gold PATH ...] [--locomo DIR]

A gold file lists mentions (id, text, type, doc, optionally dia_id) and the cluster of each
(poleo_resolution_gold.json in neo4j-labs/agent-memory's benchmark data has this shape; so does
bench/subjects/locomo_gold.json, written by hand from the seven LoCoMo conversations of
snap-research/locomo). Mentions are resolved in document order, each document's longest names
first (a source's mentions arrive together), by the product's decision (graphmem/subjects/
resolve.py) over the candidates that share an index key, as the store finds them. A
question leaves the mention a subject of its own (as it is until a person answers). A gold
file whose mentions carry a ``dia_id`` is resolved per ``doc`` (one memory per
conversation), with its session (``D3:5``: session 3) as the source; else one memory holds
every document and the document is the source.
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from graphmem.subjects.extract import mentions_in
from graphmem.subjects.ledger import Ledger, in_order
from graphmem.subjects.names import name_of
from graphmem.subjects.resolve import Mention

KINDS = {
    "PERSON": "person",
    "ORGANIZATION": "organisation",
    "LOCATION": "place",
    "OBJECT": "thing",
    "EVENT": "event",
    "PROJECT": "project",
}


def bcubed(predicted: dict[str, str], gold: dict[str, str]) -> tuple[float, float, float]:
    by_predicted: dict[str, set[str]] = defaultdict(set)
    by_gold: dict[str, set[str]] = defaultdict(set)
    for mention, cluster in predicted.items():
        by_predicted[cluster].add(mention)
    for mention, cluster in gold.items():
        by_gold[cluster].add(mention)
    precision = recall = 0.0
    for mention in gold:
        mine, truth = by_predicted[predicted[mention]], by_gold[gold[mention]]
        both = len(mine & truth)
        precision += both / len(mine)
        recall += both / len(truth)
    precision, recall = precision / len(gold), recall / len(gold)
    return precision, recall, 2 * precision * recall / (precision + recall)


def _source(mention: dict[str, str], per_doc: bool) -> str:
    if per_doc:
        return mention["dia_id"].split(":")[0]
    return mention["doc"]


def resolved(mentions: list[dict[str, str]], per_doc: bool) -> tuple[dict[str, str], int]:
    """Each mention's predicted cluster, and how many questions were asked: the product's
    pass (graphmem/subjects/ledger.py) over one memory's mentions, source by source."""
    ledgers: dict[str, Ledger] = {}
    predicted: dict[str, str] = {}
    by_source: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
    for mention in mentions:
        by_source[(mention["doc"], _source(mention, per_doc))].append(mention)
    for (doc, source), group in by_source.items():
        memory = doc if per_doc else "-"
        ledger = ledgers.setdefault(memory, Ledger.of([], _counter()))
        names = [name_of(item["text"]) for item in group]
        for i in in_order(names):
            item = group[i]
            subject = ledger.resolve(Mention(names[i], KINDS.get(item["type"]), source))
            predicted[item["id"]] = f"{memory}/{subject}"
    return predicted, sum(len(ledger.questions) for ledger in ledgers.values())


def _counter() -> Callable[[], str]:
    count = itertools.count(1)
    return lambda: f"s{next(count):06d}"  # grows with time, as ids do


def baseline(mentions: list[dict[str, str]], per_doc: bool) -> dict[str, str]:
    """Name only: lower-cased exact text, nothing else."""
    return {
        m["id"]: f"{m['doc'] if per_doc else '-'}/{m['text'].strip().lower()}" for m in mentions
    }


def report(path: Path) -> None:
    gold = json.loads(path.read_text())
    mentions: list[dict[str, str]] = gold["mentions"]
    clusters: dict[str, str] = gold["clusters"]
    per_doc = all("dia_id" in m for m in mentions)
    predicted, questions = resolved(mentions, per_doc)
    p, r, f = bcubed(predicted, clusters)
    bp, br, bf = bcubed(baseline(mentions, per_doc), clusters)
    print(
        f"{gold.get('name', path.name)}: {len(mentions)} mentions, "
        f"{len(set(clusters.values()))} subjects | graphmem B-cubed P {p:.3f} R {r:.3f} "
        f"F1 {f:.3f}, questions {100 * questions / len(mentions):.1f} per 100 mentions | "
        f"name only P {bp:.3f} R {br:.3f} F1 {bf:.3f}"
    )
    if per_doc:
        per_memory(mentions, predicted, clusters)


def per_memory(
    mentions: list[dict[str, str]], predicted: dict[str, str], gold: dict[str, str]
) -> None:
    """One line per memory (conversation): no constant here was chosen on any of them, so each
    is as good as a held-out one."""
    for doc in sorted({m["doc"] for m in mentions}):
        ids = [m["id"] for m in mentions if m["doc"] == doc]
        p, r, f = bcubed({i: predicted[i] for i in ids}, {i: gold[i] for i in ids})
        print(f"  {doc}: {len(ids)} mentions, P {p:.3f} R {r:.3f} F1 {f:.3f}")


def extraction(gold: Path, locomo: Path) -> None:
    """How many of a LoCoMo gold set's mentions the extraction finds in their turn's text as
    written (strong: not a lone sentence opener), when no writer names them."""
    mentions: list[dict[str, str]] = json.loads(gold.read_text())["mentions"]
    texts: dict[tuple[str, str], str] = {}
    for doc in {m["doc"] for m in mentions}:
        conversation = json.loads((locomo / f"{doc}.json").read_text())
        for key, turns in conversation.items():
            if key.startswith("session_") and isinstance(turns, list):
                for turn in turns:
                    texts[(doc, turn["dia_id"])] = turn["text"]
    found = strong = 0
    for mention in mentions:
        hits = [
            f
            for f in mentions_in(texts[(mention["doc"], mention["dia_id"])])
            if f.text.casefold() == mention["text"].casefold()
        ]
        found += bool(hits)
        strong += bool(hits) and not hits[0].weak
    print(
        f"extraction: {found} of {len(mentions)} gold mentions found as written "
        f"({100 * found / len(mentions):.1f}%; {strong} strong, the rest weak openers)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--gold", type=Path, action="append", required=True)
    parser.add_argument("--locomo", type=Path, help="the LoCoMo folder: measure extraction too")
    args = parser.parse_args()
    for path in args.gold:
        report(path)
        if args.locomo is not None and "locomo" in path.name:
            extraction(path, args.locomo)


if __name__ == "__main__":
    main()
