"""The tracing tests' spans: a provider exporting into memory, enabled for one test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

from graphmem.core import tracing
from tests.core.kept_spans import Kept


@pytest.fixture
def kept() -> Iterator[Kept]:
    exporter = Kept()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.enable(provider, "test", b"k" * 32)
    try:
        yield exporter
    finally:
        tracing.disable()
