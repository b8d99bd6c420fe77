"""A local HTTP server that answers each POSTed JSON body with JSON of its caller's making: what the
stand-ins for an OpenAI-compatible endpoint (chat_stub, embedding_stub) share."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]


@contextmanager
def json_server(answer: Answer) -> Iterator[str]:
    """The server's base URL (…/v1) while the block runs; `answer(body)` gives (status, JSON)."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            status, reply = answer(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            data = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
