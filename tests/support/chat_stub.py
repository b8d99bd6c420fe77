"""A stand-in for an OpenAI-compatible chat endpoint (the real ones are out of reach in tests):
answers every chat completion with the given text, or with an HTTP error, and notes the asks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.support.json_server import json_server


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

    def reply(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        stub.asked.append(body["messages"][-1]["content"])
        with lock:
            stub.requests.append(body)
            computed = stub.respond(stub.asked[-1]) if stub.respond else None
            status, text = computed or (stub.script.pop(0) if stub.script else (stub.status, stub.answer))
            holding = stub.hold > 0
            stub.hold -= holding
            finish = "length" if stub.cut_off > 0 else "stop"
            stub.cut_off -= stub.cut_off > 0
        if holding:
            stub.held.set()
            stub.release.wait()
        if status != 200:
            return status, {"error": {"message": text or "down"}}
        return status, {"id": "stub", "object": "chat.completion", "created": 0, "model": body["model"],
                        "choices": [{"index": 0, "finish_reason": finish,
                                     "message": {"role": "assistant", "content": text}}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}

    with json_server(reply) as stub.url:
        try:
            yield stub
        finally:
            stub.release.set()  # a held ask ends before the server does
