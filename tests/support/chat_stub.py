"""A stand-in for an OpenAI-compatible chat endpoint (the real ones are out of reach in tests):
answers every chat completion with the given text, or with an HTTP error, and notes the asks."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class ChatStub:
    url: str
    answer: str
    status: int = 200
    asked: list[str] = field(default_factory=list)
    requests: list[dict] = field(default_factory=list)
    # Answers given in turn, (status, text), before `answer` and `status` for every ask after them.
    script: list[tuple[int, str]] = field(default_factory=list)
    # The first `hold` asks wait for `release` before they are answered; `held` is set once one waits.
    hold: int = 0
    held: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    # The first `cut_off` answers say they were cut off at the length limit (finish_reason).
    cut_off: int = 0
    # Answers computed from the ask (the last message's text) when it returns one, before the rest.
    respond: Callable[[str], tuple[int, str] | None] | None = None


@contextmanager
def chat_stub(answer: str, status: int = 200, script: list[tuple[int, str]] | None = None, hold: int = 0,
              respond: Callable[[str], tuple[int, str] | None] | None = None) -> Iterator[ChatStub]:
    stub = ChatStub(url="", answer=answer, status=status, script=list(script or []), hold=hold,
                    respond=respond)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            stub.asked.append(body["messages"][-1]["content"])
            with lock:
                stub.requests.append(body)
                computed = stub.respond(stub.asked[-1]) if stub.respond else None
                status, answer = computed or (stub.script.pop(0) if stub.script
                                              else (stub.status, stub.answer))
                holding = stub.hold > 0
                stub.hold -= holding
                finish = "length" if stub.cut_off > 0 else "stop"
                stub.cut_off -= stub.cut_off > 0
            if holding:
                stub.held.set()
                stub.release.wait()
            reply = {"id": "stub", "object": "chat.completion", "created": 0, "model": body["model"],
                     "choices": [{"index": 0, "finish_reason": finish,
                                  "message": {"role": "assistant", "content": answer}}],
                     "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}
            data = json.dumps(reply if status == 200 else {"error": {"message": answer or "down"}}).encode()
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
        stub.release.set()
        server.shutdown()
        server.server_close()
