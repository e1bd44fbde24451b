"""Retrieval levers over the cached rankings of bench.locomo_folds, each chosen leave-one-out.

    python -m bench.locomo_levers --cache /tmp/locomo-e5.json --data DIR   # a locomo_folds cache

DIR holds the LoCoMo conversations the cache was made from (read in place); without --data,
GRAPHMEM_LOCOMO_DIR names it.

Each lever adds one ranked list to the product's fusion of raw turns (graphmem.search.ranking
``fuse``) with a weight from a small grid; the weight is chosen, per held-out conversation, by
the best mean recall@10 on the other six (ties: the smaller weight), on top of that fold's own
base constants (bench.locomo_folds ``best``). Printed: the held-out recall@1/5/10/25/50 of the
base and of each lever, the weights the folds chose, and each lever's change per category.

The levers (prototypes over the cache and the conversations' texts, read in place; a lever
that earns its cost here is then built into search and measured through it):
- ``temporal``: for "when / how long / what year..." questions, the base's top 100 that name
  a time (yesterday, last week, a month, a year...) as a list of their own;
- ``entity``: turns naming the question's names (capitalised words, not the two speakers);
- ``expansion``: a second full-text ranking (BM25 over the conversation with the product's
  tokens) for the question plus the names its top 5 turns mention most (search's multi-hop
  ``discover_entities``);
- ``prf``: the same with the 10 rarest words of the top 5 turns (pseudo-relevance feedback);
- ``per-class``: not a list but learned fusion: the base constants chosen per question class
  (its first words: when / what / who / where / why / how / yes-no), in the fold's training
  questions of that class (30 at least, else the fold's constants).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness import say
from bench.locomo import data_files, evidence_ids, sessions, turn_text
from bench.locomo_folds import (
    KS,
    Constants,
    Question,
    best,
    mean_at,
    neighbourhood,
    product_constants,
    recalls,
    score_grid,
)
from graphmem.core.text import STOP_WORDS, stem, words
from graphmem.search.channels.graph import GRAPH_SEEDS
from graphmem.search.entities import discover_entities
from graphmem.search.ranking import fuse, graph_ranking

DEPTH = 50
WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0)
_TIME = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|ago|weekend|recently|last \w+|next \w+|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d{4})\b",
    re.IGNORECASE,
)
_WHEN = re.compile(r"^\s*(when|how long|what (year|month|date|day|time))\b", re.IGNORECASE)
_NAME = re.compile(r"\b[A-Z][\w'-]{2,}\b")
_YES_NO = {"would", "is", "does", "did", "do", "are", "was", "has", "could", "can", "will"}
Row = tuple[float, ...]


@dataclass
class Conversation:
    texts: dict[str, str]  # dia id -> the turn's text as archived
    speakers: set[str]
    documents: dict[str, Counter[str]]  # dia id -> stemmed tokens
    frequency: Counter[str]  # in how many turns a token is
    mean_length: float

    @classmethod
    def of(cls, data: dict[str, Any]) -> Conversation:
        texts = {
            item["dia_id"]: turn_text(item) for _, _, items in sessions(data) for item in items
        }
        documents = {dia: Counter(tokens(text)) for dia, text in texts.items()}
        frequency = Counter(t for counts in documents.values() for t in counts)
        length = statistics.mean(sum(c.values()) for c in documents.values())
        speakers = {data["speaker_a"].lower(), data["speaker_b"].lower()}
        return cls(texts, speakers, documents, frequency, length)

    def bm25(self, query: str, top: int = 100) -> list[str]:
        terms = [stem(w) for w in words(query) if w not in STOP_WORDS]
        n = len(self.documents)
        scores: dict[str, float] = {}
        for dia, counts in self.documents.items():
            length, score = sum(counts.values()), 0.0
            for t in terms:
                if t in counts:
                    idf = math.log(1 + (n - self.frequency[t] + 0.5) / (self.frequency[t] + 0.5))
                    f = counts[t]
                    score += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * length / self.mean_length))
            if score > 0:
                scores[dia] = score
        return sorted(scores, key=lambda d: -scores[d])[:top]


def tokens(text: str) -> list[str]:
    return [stem(w) for w in words(text)]


def question_class(text: str) -> str:
    first = text.strip().lower().split()[0] if text.strip() else ""
    if _WHEN.search(text):
        return "when"
    if first in _YES_NO:
        return "yes-no"
    return first if first in ("who", "where", "why", "how") else "what"


class Levers:
    def __init__(self, cache: dict[str, Any], data: Path) -> None:
        self.questions: list[Question] = []
        self.texts: list[str] = []
        self.conversations: dict[str, Conversation] = {}
        for name, conversation in cache["conversations"].items():
            raw = json.loads((data / f"{name}.json").read_text())
            self.conversations[name] = Conversation.of(raw)
            known = set(self.conversations[name].texts)
            asked = [
                qa["question"] for qa in raw["qa"] if evidence_ids(qa.get("evidence", []), known)[0]
            ]
            assert len(asked) == len(conversation["questions"]), name  # the cache's order
            self.texts += asked
            self.questions += [
                Question(name, q["category"], q["evidence"], q["rankings"])
                for q in conversation["questions"]
            ]
        self.near = {n: neighbourhood(c["sessions"]) for n, c in cache["conversations"].items()}
        self.defaults = product_constants(cache["embeddings"])
        self.scores = score_grid(self.questions, self.near, self.defaults)
        self.base = {name: best(self.scores, self.train(name), self.defaults) for name in self.near}

    def train(self, name: str) -> list[int]:
        return [i for i, q in enumerate(self.questions) if q.conversation != name]

    def held_out_base(self) -> list[Row]:
        return [self.scores[self.base[q.conversation]][i] for i, q in enumerate(self.questions)]

    def fused_lists(
        self, q: Question, c: Constants
    ) -> tuple[dict[str, list[str]], dict[str, float]]:
        weights = {"fulltext": 1.0, "vector": c.vector, "graph": c.graph}
        lists = dict(q.rankings)
        ranked = fuse(lists, weights, k=c.k)
        if c.graph > 0 and ranked:
            seeds = ranked[:GRAPH_SEEDS]
            near = self.near[q.conversation]
            rows = [(s.id, n, d) for s in seeds for n, d in near.get(s.id, [])]
            lists["graph"] = graph_ranking(seeds, rows, c.decay)
        return lists, weights

    def with_lever(self, i: int, lever: str, weight: float) -> Row:
        q, text = self.questions[i], self.texts[i]
        c = self.base[q.conversation]
        lists, weights = self.fused_lists(q, c)
        extra = self.extra_list(lever, q, text, [e.id for e in fuse(lists, weights, k=c.k)])
        if weight > 0 and extra:
            lists[lever], weights = extra, {**weights, lever: weight}
        return recalls([e.id for e in fuse(lists, weights, k=c.k)[:DEPTH]], q.evidence)

    def extra_list(self, lever: str, q: Question, text: str, ranked: list[str]) -> list[str]:
        conversation = self.conversations[q.conversation]
        if lever == "temporal":
            if not _WHEN.search(text):
                return []
            return [d for d in ranked[:100] if _TIME.search(conversation.texts[d])]
        if lever == "entity":
            names = [
                stem(m.lower())
                for m in _NAME.findall(text)
                if m.lower() not in conversation.speakers and m.lower() not in STOP_WORDS
            ]
            order = {d: r for r, d in enumerate(ranked)}
            named = [d for d, c in conversation.documents.items() if any(n in c for n in names)]
            return sorted(named, key=lambda d: order.get(d, len(order)))[:100]
        top = [conversation.texts[d] for d in ranked[:5]]
        if lever == "expansion":
            names = [
                n for n in discover_entities(text, top) if n.lower() not in conversation.speakers
            ]
            return conversation.bm25(f"{text} {' '.join(names)}") if names else []
        rarity: defaultdict[str, float] = defaultdict(float)  # prf: the top turns' rarest words
        for turn in top:
            for t in set(tokens(turn)):
                if t not in STOP_WORDS and len(t) > 2:
                    rarity[t] += math.log(len(conversation.documents) / conversation.frequency[t])
        rarest = sorted(rarity, key=lambda t: -rarity[t])[:10]
        return conversation.bm25(f"{text} {' '.join(rarest)}")

    def lever(self, lever: str) -> tuple[list[Row], list[float]]:
        per_weight = {
            w: [self.with_lever(i, lever, w) for i in range(len(self.questions))] for w in WEIGHTS
        }
        held: list[Row] = [()] * len(self.questions)
        chosen = []
        for name in self.near:
            train = self.train(name)
            w = max(WEIGHTS, key=lambda w: (mean_at([per_weight[w][i] for i in train], 10), -w))
            chosen.append(w)
            for i, q in enumerate(self.questions):
                if q.conversation == name:
                    held[i] = per_weight[w][i]
        return held, chosen

    def per_class(self) -> tuple[list[Row], list[str]]:
        classes = [question_class(t) for t in self.texts]
        held: list[Row] = [()] * len(self.questions)
        chosen = []
        for name in self.near:
            train = self.train(name)
            for kind in sorted(set(classes)):
                of_kind = [i for i in train if classes[i] == kind]
                fold = self.base[name]
                c = best(self.scores, of_kind, fold) if len(of_kind) >= 30 else fold
                chosen.append(f"{name}/{kind}: {c}")
                for i, q in enumerate(self.questions):
                    if q.conversation == name and classes[i] == kind:
                        held[i] = self.scores[c][i]
        return held, chosen


def line(label: str, rows: Sequence[Row]) -> str:
    return f"{label:>22} " + " ".join(f"{mean_at(rows, k):6.1f}" for k in KS)


def by_category(questions: list[Question], base: list[Row], rows: list[Row]) -> str:
    grouped: dict[int, list[tuple[Row, Row]]] = defaultdict(list)
    for q, b, r in zip(questions, base, rows, strict=True):
        grouped[q.category].append((b, r))

    def change(pairs: list[tuple[Row, Row]], k: int) -> float:
        return mean_at([r for _, r in pairs], k) - mean_at([b for b, _ in pairs], k)

    return "; ".join(
        f"cat {cat} " + " ".join(f"@{k} {change(pairs, k):+.1f}" for k in (1, 10, 50))
        for cat, pairs in sorted(grouped.items())
    )


def by_conversation(questions: list[Question], rows: list[Row]) -> str:
    grouped: dict[str, list[Row]] = defaultdict(list)
    for q, r in zip(questions, rows, strict=True):
        grouped[q.conversation].append(r)
    return "@10/@50 " + "; ".join(
        f"{name} {mean_at(found, 10):.1f}/{mean_at(found, 50):.1f}"
        for name, found in sorted(grouped.items())
    )


def main(arguments: argparse.Namespace) -> None:
    cache = json.loads(Path(arguments.cache).read_text())
    levers = Levers(cache, data_files(arguments.data)[0].parent)
    base = levers.held_out_base()
    say(f"embeddings {cache['embeddings']}; {len(base)} questions; held out recall@k, %")
    say(f"{'':>22} " + " ".join(f"{'@' + str(k):>6}" for k in KS))
    say(line("base (locomo_folds)", base))
    say(f"{'':>22} {by_conversation(levers.questions, base)}")
    runs: list[tuple[str, Callable[[], tuple[list[Row], list[Any]]]]] = [
        (name, lambda name=name: levers.lever(name))  # type: ignore[misc]
        for name in ("temporal", "entity", "expansion", "prf")
    ]
    runs.append(("per-class", levers.per_class))
    for name, run in runs:
        rows, chosen = run()
        say(line(name, rows))
        say(f"{'':>22} the folds chose {chosen if name != 'per-class' else len(chosen)}")
        say(f"{'':>22} {by_category(levers.questions, base, rows)}")
        say(f"{'':>22} {by_conversation(levers.questions, rows)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Retrieval levers, chosen leave-one-out.")
    parser.add_argument("--cache", required=True, help="a rankings cache of bench.locomo_folds")
    parser.add_argument("--data", help="the conversations' folder (default: $GRAPHMEM_LOCOMO_DIR)")
    main(parser.parse_args())
