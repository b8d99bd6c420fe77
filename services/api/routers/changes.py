"""GET /v1/users/{user_id}/changes and GET /v1/changes: the change stream, as Server-Sent Events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Literal

from fastapi import APIRouter, Header, HTTPException, Query, Request, status
from fastapi.responses import StreamingResponse

from domain.access import People, Scope, split_person
from infra.eventlog.port import PeopleReader
from services.api.auth import PrincipalDep, needs
from services.api.deps import UserId
from services.changes import CURSOR, BadCursor, Cursor, follow

router = APIRouter(tags=["changes"])
RETRY_MS = 2000
_DESCRIPTION = (
    "`text/event-stream`: one event per change, `event:` its type (memory.recorded, memory.superseded, "
    "memory.corrected, memory.forgotten, memory.restored, memory.purged, memory.merged, memory.reinforced, "
    "memory.feedback, topic.forgotten, todo.completed, todo.reopened, summary.written, profile.revised, "
    "episode.recorded, settings.changed, person.erased), `data:` the change as JSON (the Change schema), "
    "`id:` where it is in the log. A comment line now and then keeps a quiet stream open. A stream ends "
    "after the server's LORE_CHANGES_MAX_S (600 s by default); reconnect with the last id to go on.")
# Each event as an EventSource reads it; its `data` is a Change in JSON (contentSchema, as OpenAPI
# 3.2 describes a stream's items).
_EVENT = {"type": "object", "title": "ChangeEvent", "properties": {
    "id": {"type": "string", "description": "Where the stream is in the log (send back as Last-Event-ID)."},
    "event": {"type": "string", "description": "The change's type."},
    "data": {"type": "string", "contentMediaType": "application/json",
             "contentSchema": {"$ref": "#/components/schemas/Change"}},
    "retry": {"type": "integer", "minimum": 0, "description": "Milliseconds to wait before reconnecting."}}}
_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {"content": {"text/event-stream": {"schema": _EVENT}}, "description": _DESCRIPTION},
    422: {"description": "Last-Event-ID (or `after`) is not an id of this stream."},
}
# The form is stated in the schema; Cursor.parse is what holds an id to it (one reading of it, so
# that a client's regex and the server's cannot disagree on an edge such as a trailing newline).
# Typed `str` with a default of None (not `str | None`): the schema then says a string or nothing,
# where a nullable header is sent by generic clients as the text "null".
LastEventId = Annotated[str, Header(alias="Last-Event-ID", max_length=4000,
                                           json_schema_extra={"pattern": CURSOR}, description=(
    "The id of the last change received: the stream goes on after it (what an EventSource sends when "
    "it reconnects)."))]
After = Annotated[str, Query(max_length=4000, json_schema_extra={"pattern": CURSOR},
                                    description="The same as Last-Event-ID, for a client "
                                    "that cannot send headers.")]
From = Annotated[Literal["now", "start"], Query(alias="from", description=(
    "Without an id to go on after: now (only what changes from now on, the default) or start (every "
    "change the log holds, then what comes)."))]


def _cursor(reader: PeopleReader, last_event_id: str | None, after: str | None, start: str) -> Cursor:
    given = last_event_id if last_event_id is not None else after
    if given is not None:
        try:
            return Cursor.parse(given)
        except BadCursor as bad:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, f"Last-Event-ID: {bad}") from bad
    end = reader.end()
    return Cursor(done={p: -1 for p in end} if start == "start" else end)


async def _stream(request: Request, people: People, last_event_id: str | None, after: str | None,
                  start: str) -> StreamingResponse:
    lore = request.app.state.lore
    reader = await asyncio.to_thread(lore.event_log.people_reader, people)
    try:
        cursor = await asyncio.to_thread(_cursor, reader, last_event_id, after, start)
    except BaseException:
        await asyncio.to_thread(reader.close)
        raise

    async def events() -> AsyncIterator[str]:
        try:
            # The stream's place from the start, so that a client that reconnects before any change
            # came goes on from here (an id alone moves an EventSource's last id, and is no event).
            yield f"retry: {RETRY_MS}\nid: {cursor.text()}\n\n"
            async for change in follow(reader, cursor, lore.settings.changes_poll_s,
                                       gone=request.is_disconnected, max_s=lore.settings.changes_max_s):
                if change is None:
                    yield f": still here\nid: {cursor.text()}\n\n"
                else:
                    data = json.dumps(change.model_dump(mode="json", exclude_none=True), ensure_ascii=False)
                    yield f"id: {change.id}\nevent: {change.type}\ndata: {data}\n\n"
        finally:
            await asyncio.to_thread(reader.close)

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("/users/{user_id}/changes", summary="What changes in a person's memory (Server-Sent Events)",
            response_class=StreamingResponse, responses=_RESPONSES)
async def person_changes(user_id: UserId, request: Request,
                         last_event_id: LastEventId = None,  # type: ignore[assignment]
                         after: After = None,  # type: ignore[assignment]
                         start: From = "now") -> StreamingResponse:
    """Each change to the person's memory as it is logged, in log order: read with the person's own
    keys (a purged memory's words read [purged]); nothing of anyone else. Reconnect with the last
    id received (`Last-Event-ID`) and the stream goes on after it, also across a restart of Lore:
    nothing is lost, nothing sent twice."""
    tenant, _ = split_person(user_id)
    return await _stream(request, People(tenant, user_id), last_event_id, after, start)


@router.get("/changes", summary="What changes in the memory of the tenant's people (Server-Sent Events)",
            response_class=StreamingResponse, responses=_RESPONSES)
@needs(Scope.ADMIN)
async def tenant_changes(principal: PrincipalDep, request: Request,
                         last_event_id: LastEventId = None,  # type: ignore[assignment]
                         after: After = None,  # type: ignore[assignment]
                         start: From = "now") -> StreamingResponse:
    """The changes of every person of the key's tenant (an admin key), each with its `user_id`; the
    ids carry a position for every partition of the log."""
    return await _stream(request, People(principal.tenant), last_event_id, after, start)
