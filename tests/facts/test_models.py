from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from graphmem.core.errors import InvalidArgument
from graphmem.core.ids import new_id
from graphmem.core.models import canonical_json
from graphmem.facts.models import RecordFactRequest, normalise_source

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        (None, ("agent_claimed", None)),
        ("tool_observed", ("tool_observed", None)),
        ("production_verified", ("production_verified", None)),
        ("Tool_Observed", ("tool_observed", "Tool_Observed")),
        (" human-confirmed ", ("human_confirmed", " human-confirmed ")),
        ("model_inferred", ("agent_claimed", "model_inferred")),
        ("oracle", ("agent_claimed", "oracle")),
    ],
)
def test_source_labels_downgrade(label: str | None, expected: tuple[str, str | None]) -> None:
    assert normalise_source(label) == expected


def test_source_class_wins_over_the_legacy_alias() -> None:
    request = RecordFactRequest(
        project="p", key="k", source_class="human_confirmed", source="tool_observed"
    )
    assert request.provenance == ("human_confirmed", None)


def test_canonical_json_is_deterministic_and_lossless() -> None:
    assert canonical_json({"b": 1, "a": [2**70, "ü"]}) == '{"a":[1180591620717411303424,"ü"],"b":1}'
    with pytest.raises(ValueError):
        canonical_json(float("nan"))


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"key": ""}, "key"),
        ({"key": " padded"}, "key"),
        ({"confidence": -0.1}, "confidence"),
        ({"value": float("inf")}, "value"),
        ({"value": "x" * (64 * 1024 + 1)}, "value"),
        ({"valid_from": datetime(2026, 1, 1)}, "valid_from"),  # naive: no offset
        ({"surprise": 1}, "surprise"),
    ],
)
def test_record_fact_request_refuses(changes: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        RecordFactRequest.model_validate({"project": "p", "key": "k", **changes})
    assert caught.value.errors()[0]["loc"][0] == field


def test_validity_window_must_be_ordered() -> None:
    start = datetime(2026, 1, 2, tzinfo=UTC)
    with pytest.raises(InvalidArgument, match="valid_to: must be later"):
        RecordFactRequest(project="p", key="k", valid_from=start, valid_to=start)


def test_ids_are_unique_and_time_ordered() -> None:
    ids = [new_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    assert all(identifier[14] == "7" for identifier in ids)  # UUID version 7
    prefixes = [identifier[:13] for identifier in ids]  # millisecond timestamp part
    assert prefixes == sorted(prefixes)
