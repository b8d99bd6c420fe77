"""Reading the change stream (GET .../changes, Server-Sent Events) with httpx-sse, as a browser's
EventSource does: when the connection drops (a restart of Lore, a proxy's timeout) it connects
again and sends the last id it received (`Last-Event-ID`), so that the stream goes on after it,
nothing lost and nothing twice."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
from httpx_sse import ServerSentEvent, aconnect_sse, connect_sse

from lore.calls import refusal
from lore.schemas import Change

# A stream sends a comment line every 15 s while quiet: a read that waits longer found a dead peer.
QUIET_S = 60.0
_DROPPED = (httpx.TransportError, httpx.RemoteProtocolError)


class Following:
    """Where a stream is, across its connections."""

    def __init__(self, path: str, last_event_id: str | None, from_start: bool,
                 reconnect_for_s: float | None) -> None:
        self.path = path
        self.last_event_id = last_event_id
        self.from_start = from_start
        self.reconnect_for_s = reconnect_for_s
        self.retry_s = 1.0
        self.failing_since: float | None = None

    def request(self) -> dict[str, Any]:
        headers = {"Accept": "text/event-stream"}
        if self.last_event_id:
            headers["Last-Event-ID"] = self.last_event_id
        params = {} if self.last_event_id or not self.from_start else {"from": "start"}
        return {"headers": headers, "params": params,
                "timeout": httpx.Timeout(30.0, read=QUIET_S)}

    def take(self, sse: ServerSentEvent) -> Change | None:
        if sse.retry is not None:
            self.retry_s = sse.retry / 1000
        if sse.id:
            self.last_event_id = sse.id
        self.failing_since = None
        if not sse.data:
            return None  # the stream's place, or a keepalive: nothing changed
        return Change.model_validate_json(sse.data)

    def check(self, response: httpx.Response) -> None:
        if response.status_code >= 400:
            response.read()
            raise refusal(response)

    def dropped(self, error: Exception) -> float:
        """How long to wait before connecting again; raises once reconnect_for_s has passed."""
        now = time.monotonic()
        self.failing_since = self.failing_since or now
        if self.reconnect_for_s is not None and now - self.failing_since > self.reconnect_for_s:
            raise error
        return self.retry_s


def follow(http: httpx.Client, following: Following) -> Iterator[Change]:
    while True:
        try:
            with connect_sse(http, "GET", following.path, **following.request()) as source:
                following.check(source.response)
                for sse in source.iter_sse():
                    change = following.take(sse)
                    if change is not None:
                        yield change
        except _DROPPED as error:
            time.sleep(following.dropped(error))


async def afollow(http: httpx.AsyncClient, following: Following) -> AsyncIterator[Change]:
    while True:
        try:
            async with aconnect_sse(http, "GET", following.path, **following.request()) as source:
                if source.response.status_code >= 400:
                    await source.response.aread()
                    raise refusal(source.response)
                async for sse in source.aiter_sse():
                    change = following.take(sse)
                    if change is not None:
                        yield change
        except _DROPPED as error:
            await asyncio.sleep(following.dropped(error))
