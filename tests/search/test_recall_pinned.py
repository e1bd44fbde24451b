"""Recall of a small built-in conversation, pinned: a change that finds less fails here.

Three sessions between two colleagues (written for this test, not LoCoMo), archived through
the tool with the default model on; each question's evidence turns are known. The figures
are what search gives today (evidence turns in their question's top 5, questions answered
first by an evidence turn), so a regression of the ranking, the vectors or the fusion shows
as a lower number; "keeps a week" for "how many days" is the one turn it misses.
"""

from __future__ import annotations

from typing import Any

from fastmcp import Client

from graphmem.retrieval.indexing import indexer_of
from graphmem.store import Store
from tests.support import archive, call

SESSIONS = {
    "monday": [
        "Morning! Did the Postgres migration finish over the weekend?",
        "Yes, it finished on Sunday night, about four hours in all.",
        "Great. Any trouble with the ledger tables?",
        "One index was missing on the invoices table; I recreated it by hand.",
        "Good catch. By the way, my daughter started violin lessons.",
        "Lovely! How old is she now?",
        "She just turned seven in March.",
    ],
    "wednesday": [
        "The staging cluster ran out of disk again this morning.",
        "Was it the logs again?",
        "No, the nightly backups were never pruned, 400 GB of them.",
        "Let's keep seven days of backups and delete the rest.",
        "Agreed, I will write the cron job today.",
        "Also, I am flying to Lisbon on Friday for the conference.",
    ],
    "friday": [
        "Safe travels! Which talk are you giving in Lisbon?",
        "A talk on our event-sourced billing design, Saturday at ten.",
        "Did the cron job for the backups go in?",
        "It did, it runs at two in the morning and keeps a week.",
        "Perfect. My daughter played her first violin concert yesterday.",
    ],
}
QUESTIONS = {
    "How long did the database migration take?": ["monday:1"],
    "What was wrong with the invoices table?": ["monday:3"],
    "What instrument does the daughter play?": ["monday:4", "friday:4"],
    "How old is the daughter?": ["monday:6"],
    "Why did staging run out of disk?": ["wednesday:2"],
    "How many days of backups are kept?": ["wednesday:3", "friday:3"],
    "Where is the conference?": ["wednesday:5", "friday:0"],
    "What is the talk about?": ["friday:1"],
}
PINNED_TOP_5 = 10  # evidence turns in their question's top 5 today (of 11)
PINNED_FIRST = 5  # questions whose first hit is evidence today (of 8)


async def test_recall_of_a_small_conversation_is_pinned(
    e5_client: Client[Any], store: Store
) -> None:
    for day, (name, said) in enumerate(SESSIONS.items()):
        turns = [
            {
                "role": "user" if n % 2 == 0 else "assistant",
                "content": text,
                "ts": f"2026-03-0{day + 2}T09:{n:02d}:00Z",
            }
            for n, text in enumerate(said)
        ]
        await archive(e5_client, turns, name)
    await indexer_of(store).flush()  # the vectors follow the calls: all of them, for the figures
    first, found_evidence = 0, 0
    for question, evidence in QUESTIONS.items():
        found = await call(e5_client, "search", project="p", query=question, limit=5)
        ranked = [f"{hit['session_ref']}:{hit['seq']}" for hit in found["raw_hits"]]
        first += bool(ranked) and ranked[0] in evidence
        found_evidence += len(set(evidence) & set(ranked))
    print(f"evidence in the top 5: {found_evidence} of 11; evidence first: {first} of 8")
    assert found_evidence >= PINNED_TOP_5
    assert first >= PINNED_FIRST
