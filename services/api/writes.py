"""Turning a request into a command, and a receipt into an answer: shared by every write route."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from fastapi import HTTPException, status
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from domain.commands import Command, command_adapter
from lore.schemas import WriteAccepted
from services.intake import Intake, Receipt
from services.wire import describe, to_message

# A refusal of the domain, as HTTP says it.
REFUSALS = {
    "memory_not_found": status.HTTP_404_NOT_FOUND,
    "episode_not_found": status.HTTP_404_NOT_FOUND,
    "session_not_found": status.HTTP_404_NOT_FOUND,
    "memory_already_forgotten": status.HTTP_409_CONFLICT,
    "memory_not_forgotten": status.HTTP_409_CONFLICT,
    "invalid_validity_window": status.HTTP_422_UNPROCESSABLE_CONTENT,
    "not_a_todo": status.HTTP_409_CONFLICT,
    "todo_already_completed": status.HTTP_409_CONFLICT,
    "todo_not_completed": status.HTTP_409_CONFLICT,
    "events_too_large": status.HTTP_422_UNPROCESSABLE_CONTENT,
    "memory_paused": status.HTTP_409_CONFLICT,
    "purge_unavailable": status.HTTP_409_CONFLICT,
    "topic_not_found": status.HTTP_404_NOT_FOUND,
    "memory_not_current": status.HTTP_409_CONFLICT,
    "revision_invalid": status.HTTP_409_CONFLICT,  # it says that already, or contradicts itself
}

WRITE_RESPONSES: dict[int | str, dict[str, Any]] = {
    404: {"description": "The memory does not exist for this user."},
    409: {"description": "The memory's state does not allow it (e.g. restoring one not forgotten, "
          "correcting a memory to the words it already has)."},
    422: {"description": "Invalid input; the message names the field."},
}


def command(type_: str, user_id: str, fields: dict[str, Any]) -> Command:
    """A command from a request's fields; a 422 naming the field when they do not make one."""
    now = datetime.now(UTC)
    body = {k: v for k, v in fields.items() if v is not None}
    body.setdefault("command_id", f"http-{uuid.uuid4()}")
    body.setdefault("occurred_at", now)
    try:
        return command_adapter.validate_python({**body, "type": type_, "user_id": user_id})
    except ValidationError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, describe(exc)) from exc


async def submit(intake: Intake, cmd: Command, wait: bool) -> JSONResponse:
    size = len(to_message(cmd))
    if size > intake.max_command_bytes:
        # The same bound as on lore.commands, so that a command either door takes, both take.
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT,
                            f"body: the command takes {size:,} bytes, at most {intake.max_command_bytes:,} "
                            "are taken (LORE_MAX_COMMAND_BYTES)")
    receipt: Receipt = await intake.submit(cmd, wait)
    if receipt.status == "rejected":
        return JSONResponse(
            status_code=REFUSALS.get(receipt.code or "", status.HTTP_409_CONFLICT),
            content={"detail": receipt.reason, "code": receipt.code, "command_id": receipt.command_id},
        )
    body = WriteAccepted(command_id=receipt.command_id, status=receipt.status, memory_id=receipt.memory_id)
    return JSONResponse(status_code=status.HTTP_202_ACCEPTED, content=body.model_dump())
