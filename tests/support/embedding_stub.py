"""A stand-in for an OpenAI-compatible embeddings endpoint: small deterministic vectors made from
a text's words (texts that share words are close), or an HTTP error while `failing` is set."""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIMENSIONS = 16


def vector(text: str) -> list[float]:
    found = [0.0] * DIMENSIONS
    for word in text.lower().split():
        found[hashlib.sha256(word.strip(".,?!").encode()).digest()[0] % DIMENSIONS] += 1.0
    norm = math.sqrt(sum(x * x for x in found)) or 1.0
    return [x / norm for x in found]


@dataclass
class EmbeddingStub:
    url: str = ""
    failing: bool = False
    asked: int = 0


@contextmanager
def embedding_stub() -> Iterator[EmbeddingStub]:
    stub = EmbeddingStub()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            stub.asked += 1
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            if stub.failing:
                status, reply = 500, {"error": {"message": "the model server is down"}}
            else:
                status, reply = 200, {"object": "list", "model": body["model"], "usage": {
                    "prompt_tokens": 1, "total_tokens": 1}, "data": [
                    {"object": "embedding", "index": i, "embedding": vector(t)} for i, t in enumerate(texts)]}
            data = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        server.shutdown()
        server.server_close()
