"""The graphmem guide for Neo4j Browser (``:guide <url>``): one slide per question a person
asks of the graph, each with a runnable, parameterised query from ``cypher/browser/``.

The Browser splits the document on ``<slide>`` elements and puts a ``<pre class="runnable">``
into its editor with one click. Every query is scoped by ``$tenant`` (a query run before the
parameter is set fails with the Browser's "Expected parameter(s): tenant", and the first slide
sets it) and leaves bookkeeping nodes out unless the slide is about them.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from graphmem.store.catalog import QueryCatalog

ACCESS_NOTE = (
    "Neo4j Browser shows a logged-in user the whole database: Browser access is database-admin "
    "access. Keep it on loopback (graphmem binds it to 127.0.0.1) and scope every query by the "
    "tenant parameter, as these do."
)


@dataclass(frozen=True)
class Slide:
    title: str
    question: str
    query: str  # a statement under cypher/browser/
    parameters: tuple[str, ...] = ()  # set with :param before running
    note: str = ""


SLIDES: tuple[Slide, ...] = (
    Slide(
        "Start here",
        "Which projects does my tenant hold?",
        "browser/list_projects",
        note="Set the tenant first (graphmem's default tenant is 'default'), then a project "
        "from this list. Every slide's query reads these parameters.",
    ),
    Slide(
        "What is current",
        "What is true in this project now?",
        "browser/list_current_facts",
        ("project",),
        "Each fact key with its current fact: the caption shows the key and its value.",
    ),
    Slide(
        "A fact's history",
        "How did this key's value change, and when was each value valid?",
        "browser/list_fact_history",
        ("key",),
        "valid_from/valid_to are valid time; current_since/current_until the time graphmem "
        "held each fact as current (transaction time).",
    ),
    Slide(
        "Contradictions",
        "Which facts disagree right now?",
        "browser/list_open_contradictions",
        note="Both facts active and the contradiction not cleared (govern_fact clears it).",
    ),
    Slide(
        "Decisions under review",
        "Why is a decision under review?",
        "browser/explain_decision_reviews",
        note="For each open review signal: the decision, the alternative it rejected, the "
        "breached reopen rule, the fact key it watches and that key's current fact.",
    ),
    Slide(
        "Dead rules",
        "Which decisions have rules that cannot fire?",
        "browser/list_dead_rules",
        note="Reopen rules whose key has no current fact (often a misspelt or never-recorded "
        "key), an expired one, a value of another type or conflicting evidence: until that "
        "changes the rule can never reopen its decision. The relationship's unknown_reason "
        "says which; review_decisions lists them as diagnostics.",
    ),
    Slide(
        "Impact",
        "What does this fact affect?",
        "browser/trace_fact_impact",
        ("key",),
        "Recorded IMPACTS links (up to three hops), decisions resting on the fact and reopen "
        "rules watching its key.",
    ),
    Slide(
        "From context to facts",
        "How did raw context become facts?",
        "browser/trace_chunks_to_facts",
        ("project",),
        "Chunk, the claim mined from it, the canonical fact the claim was promoted to.",
    ),
    Slide(
        "A memory's versions",
        "How has this memory topic evolved?",
        "browser/list_memory_versions",
        ("project", "topic_key"),
        "Each version of the topic; SUPERSEDES points from the newer to the older.",
    ),
    Slide(
        "A session's turns",
        "What was said in this session, in order?",
        "browser/list_session_turns",
        ("session_ref",),
        "Turns word for word (secrets redacted); quarantined turns are shown, never followed.",
    ),
    Slide(
        "Quarantine",
        "What is quarantined, and why?",
        "browser/list_quarantined",
        note="Instruction-like content graphmem keeps but never follows: chunks, turns and "
        "memories with their reasons.",
    ),
    Slide(
        "What do we know about …?",
        "What is known about a person, organisation, place or project, under any name?",
        "browser/show_subject",
        ("subject",),
        "The subject a name (any spelling) resolves to, the subjects merged into it, and the "
        "memories and turns that mention them (the about tool answers the same).",
    ),
    Slide(
        "Merged names",
        "Which names were merged, by whom, and why?",
        "browser/list_subject_merges",
        note="Each MERGED_INTO with its revision, actor and reason (merge_subjects); "
        "split_subject undoes one exactly.",
    ),
    Slide(
        "History",
        "Which writes changed this thing?",
        "browser/list_thing_events",
        ("id",),
        "The hash-chained history events of one fact, decision, memory or chunk (bookkeeping, "
        "shown here on purpose). replay_memory verifies the chain.",
    ),
)

EXAMPLE_VALUES = {
    "project": "my-project",
    "key": "db.engine",
    "topic_key": "architecture/database",
    "session_ref": "session-1",
    "id": "<a node id>",
    "subject": "Acme",
}


def guide_html(catalog: QueryCatalog, tenant: str = "default") -> str:
    """The guide document: a title and one ``<slide>`` per question."""
    slides = [_slide(slide, catalog, tenant) for slide in SLIDES]
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>graphmem</title></head>\n'
        '<body><article class="guide">\n' + "\n".join(slides) + "\n</article></body></html>\n"
    )


def _slide(slide: Slide, catalog: QueryCatalog, tenant: str) -> str:
    parameters = [f":param tenant => '{tenant}'"] if slide is SLIDES[0] else []
    parameters += [f":param {name} => '{EXAMPLE_VALUES[name]}'" for name in slide.parameters]
    runnable = [_runnable(command) for command in parameters]
    runnable.append(_runnable(catalog[slide.query].text.strip()))
    footer = f"<p><small>{html.escape(ACCESS_NOTE)}</small></p>" if slide is SLIDES[0] else ""
    return (
        f"<slide>\n<h3>{html.escape(slide.title)}</h3>\n"
        f'<p class="lead">{html.escape(slide.question)}</p>\n'
        + (f"<p>{html.escape(slide.note)}</p>\n" if slide.note else "")
        + "\n".join(runnable)
        + f"\n{footer}</slide>"
    )


def _runnable(text: str) -> str:
    return f'<pre class="runnable">{html.escape(text)}</pre>'
