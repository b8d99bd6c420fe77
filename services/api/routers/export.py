"""GET /v1/users/{user_id}/export: everything Lore holds about a person, as JSON Lines, streamed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from domain.access import split_person
from services.api.deps import LoreDep, UserId
from services.memory_file import markdown

router = APIRouter(prefix="/users/{user_id}", tags=["people"])


def lines(lore: LoreDep, user_id: str) -> Iterator[str]:
    """A header line, then one line per memory, episode, summary and profile version."""
    yield json.dumps({"type": "export", "user_id": split_person(user_id)[1],
                      "exported_at": datetime.now(UTC).isoformat(),
                      "format": "lore-export/1"}) + "\n"
    for item in lore.exports.items(user_id):
        yield json.dumps(item, ensure_ascii=False) + "\n"


@router.get("/export", summary="Everything about a person, as JSON Lines or Markdown",
            response_class=StreamingResponse,
            responses={200: {"content": {"application/x-ndjson": {}, "text/markdown": {}},
                             "description": "jsonl: one JSON object a line: a header, then each memory (with "
                             "its window and history), episode (with its turns), session summary and profile "
                             "version, each with its `type`. markdown: a file the person can read and edit "
                             "(who they are now, then their memories by kind, with dates and history), to "
                             "give back with POST .../import."}})
def export(user_id: UserId, lore: LoreDep,
           format: Annotated[Literal["jsonl", "markdown"], Query(
               description="jsonl: everything, as data; markdown: the memories in force, to read and "
               "edit.")] = "jsonl") -> StreamingResponse:
    """Streamed page by page: a person with 100,000 memories is never held in memory at once. A
    person Lore knows nothing of gets the header line alone (jsonl) or an empty file (markdown)."""
    name = split_person(user_id)[1]
    if format == "markdown":
        return StreamingResponse(markdown(lore.queries, lore.layer_queries, user_id, datetime.now(UTC)),
                                 media_type="text/markdown; charset=utf-8",
                                 headers={"Content-Disposition": f'attachment; filename="{name}.md"'})
    return StreamingResponse(lines(lore, user_id), media_type="application/x-ndjson",
                             headers={"Content-Disposition": f'attachment; filename="{name}.jsonl"'})
