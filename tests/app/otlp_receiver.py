"""An OTLP/HTTP traces endpoint on loopback that decodes what arrives (tests/app/test_traces.py;
bench.speed --traced sends its spans here too)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span


@dataclass
class Received:
    spans: list[Span]
    services: set[str]


def handler(received: Received) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            request = ExportTraceServiceRequest.FromString(body)
            for resource_spans in request.resource_spans:
                for attribute in resource_spans.resource.attributes:
                    if attribute.key == "service.name":
                        received.services.add(attribute.value.string_value)
                for scope_spans in resource_spans.scope_spans:
                    received.spans.extend(scope_spans.spans)
            answer = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

    return Handler


@contextmanager
def otlp_receiver() -> Iterator[tuple[str, Received]]:
    """An OTLP/HTTP traces endpoint on loopback: decodes each export into ``spans``."""
    received = Received([], set())

    server = ThreadingHTTPServer(("127.0.0.1", 0), handler(received))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()


def main() -> None:
    """``python -m tests.app.otlp_receiver PORT``: a receiver in a process of its own (the
    bench's client keeps its interpreter to itself); prints the spans decoded when stopped."""
    import signal
    import sys

    received = Received([], set())
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler(received))
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    server.serve_forever()
    print(f"{len(received.spans)} spans received and decoded", flush=True)


if __name__ == "__main__":
    main()
