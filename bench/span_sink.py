"""An OTLP/HTTP traces endpoint that keeps every span it is sent and writes them to a file when
stopped, one JSON object per line (bench.tail reads them back): a process of its own, so the
bench's client keeps its interpreter to itself. It decodes as the tests' receiver does
(tests/app/otlp_receiver.py).

    python -m bench.span_sink PORT FILE

Each line: trace and span ids (hex), the parent's span id, the name, start and end (Unix
nanoseconds), the span ids it links to, and its integer and string attributes.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from http.server import ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.trace.v1.trace_pb2 import Span

from tests.app.otlp_receiver import Received, handler


def flat(span: Span) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    for attribute in span.attributes:
        value = attribute.value
        kind = value.WhichOneof("value")
        if kind in ("int_value", "string_value", "bool_value"):
            attributes[attribute.key] = getattr(value, kind)
    return {
        "trace": span.trace_id.hex(),
        "span": span.span_id.hex(),
        "parent": span.parent_span_id.hex(),
        "name": span.name,
        "start": span.start_time_unix_nano,
        "end": span.end_time_unix_nano,
        "links": [link.span_id.hex() for link in span.links],
        "attributes": attributes,
    }


def main() -> None:
    port, path = int(sys.argv[1]), sys.argv[2]
    received = Received([], set())
    server = ThreadingHTTPServer(("127.0.0.1", port), handler(received))
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    server.serve_forever()
    with open(path, "w") as out:
        for span in received.spans:
            out.write(json.dumps(flat(span)) + "\n")
    print(f"{len(received.spans)} spans kept in {path}", flush=True)


if __name__ == "__main__":
    main()
