"""An OTLP/HTTP traces endpoint that keeps every span it is sent and writes them to a file when
stopped, one JSON object per line (bench.tail reads them back): a process of its own, so the
bench's client keeps its interpreter to itself.

    python -m bench.span_sink PORT FILE

Each line: trace and span ids (hex), the parent's span id, the name, start and end (Unix
nanoseconds), the span ids it links to, and its integer and string attributes.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span


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


def handler(kept: list[Span]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            request = ExportTraceServiceRequest.FromString(body)
            for resource_spans in request.resource_spans:
                for scope_spans in resource_spans.scope_spans:
                    kept.extend(scope_spans.spans)
            answer = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

    return Handler


def main() -> None:
    port, path = int(sys.argv[1]), sys.argv[2]
    kept: list[Span] = []
    server = ThreadingHTTPServer(("127.0.0.1", port), handler(kept))
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    server.serve_forever()
    with open(path, "w") as out:
        for span in kept:
            out.write(json.dumps(flat(span)) + "\n")
    print(f"{len(kept)} spans kept in {path}", flush=True)


if __name__ == "__main__":
    main()
