"""The rows of the statements the process itself runs, each read through its TypedDict
(``shaped``; graphmem/store/rows.py says how)."""

from __future__ import annotations

from typing import TypedDict


class ValueRow(TypedDict):
    """store/list_project_names, facts/list_state_keys, memories/list_topic_keys: one value an
    argument completes to."""

    value: str
