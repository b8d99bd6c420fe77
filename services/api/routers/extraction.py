"""Memory formation on demand: end a session, extract an episode, see what an extraction did.

Extraction runs in the background (every few turns, at a session's end, on demand); with
`?wait=true` these answer once its memories are in the graph.
"""

from __future__ import annotations

import asyncio
import time
from typing import Annotated

from fastapi import APIRouter, Body, HTTPException, Path, status
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from domain.commands import IDENTIFIER_PATTERN, Command
from domain.model import derived_id
from lore.schemas import (
    ExtractionAccepted,
    ExtractionRequest,
    ExtractionState,
    Problem,
    SessionEnd,
)
from projections.extraction import ExtractionView
from services.api.deps import IntakeDep, LoreDep, UserId, Wait
from services.api.writes import WRITE_RESPONSES, command, submit
from services.bootstrap import Lore

router = APIRouter(prefix="/users/{user_id}", tags=["memory formation"])
SessionId = Annotated[str, Path(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN)]
_ACCEPTED = {"status_code": status.HTTP_202_ACCEPTED, "response_model": ExtractionAccepted,
             "responses": WRITE_RESPONSES}


@router.post("/sessions/{session_id}/end", summary="End a session: extract what it said", **_ACCEPTED)
async def end_session(user_id: UserId, session_id: SessionId, intake: IntakeDep, lore: LoreDep,
                      body: Annotated[SessionEnd | None, Body()] = None, wait: Wait = False) -> JSONResponse:
    """What the session said since its last extraction is extracted now (a session of fewer than
    LORE_EXTRACT_MIN_MESSAGES messages is not). 404 when the session has no messages."""
    fields = (body or SessionEnd()).model_dump()
    return await _extract(lore, intake, command("EndSession", user_id, {**fields, "session_id": session_id}),
                          wait)


@router.post("/extract", summary="Extract the memories of an episode", **_ACCEPTED)
async def extract_episode(user_id: UserId, body: ExtractionRequest, intake: IntakeDep, lore: LoreDep,
                          wait: Wait = False) -> JSONResponse:
    """The whole episode is read again; what it says that the person's memory holds already from
    the same messages is left as it is. 404 when the episode does not exist."""
    return await _extract(lore, intake, command("ExtractEpisode", user_id, body.model_dump()), wait)


@router.get("/extractions/{extraction_id}", response_model=ExtractionState, summary="One extraction",
            responses={404: {"model": Problem, "description": "No such extraction for this person."}})
def extraction(user_id: UserId, extraction_id: SessionId, lore: LoreDep) -> ExtractionState:
    found = lore.extractions.extraction(user_id, extraction_id)
    if found is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"extraction {extraction_id!r} does not exist "
                                                       f"for {user_id!r}")
    return _state(extraction_id, found)


async def _extract(lore: Lore, intake: IntakeDep, cmd: Command, wait: bool) -> JSONResponse:
    answer = await submit(intake, cmd, wait)
    if answer.status_code != status.HTTP_202_ACCEPTED:
        return answer
    body = ExtractionAccepted.model_validate_json(answer.body)
    # The decider names the extraction it makes due after the command that asked for it.
    extraction_id = derived_id("extraction", cmd.user_id, cmd.command_id, "0")
    found = await run_in_threadpool(lore.extractions.extraction, cmd.user_id, extraction_id)
    if wait and body.status != "accepted":
        # Applied: an extraction is due now, or none was made (nothing pending, a short session).
        deadline = time.monotonic() + lore.settings.wait_timeout_s
        while found is not None and found.status != "done" and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            found = await run_in_threadpool(lore.extractions.extraction, cmd.user_id, extraction_id)
    body.extraction = _state(extraction_id, found) if found is not None else None
    return JSONResponse(status_code=status.HTTP_202_ACCEPTED, content=body.model_dump(mode="json"))


def _state(extraction_id: str, found: ExtractionView) -> ExtractionState:
    return ExtractionState(extraction_id=extraction_id, status=found.status, trigger=found.trigger,
                           extractor=found.extractor, skipped=found.skipped, candidates=found.candidates,
                           verdicts=found.verdicts, prompt_tokens=found.prompt_tokens,
                           completion_tokens=found.completion_tokens)

