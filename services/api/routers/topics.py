"""POST /v1/users/{user_id}/forget: forget (or purge) everything about a topic, shown first."""

from __future__ import annotations

import json

from fastapi import APIRouter, HTTPException, status
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from lore.schemas import TopicForget, TopicForgetOut, TopicItemOut
from services.api.deps import IntakeDep, LoreDep, UserId
from services.api.writes import WRITE_RESPONSES, command, submit
from services.topics import TopicFinder, TopicItem, topic_words

router = APIRouter(prefix="/users/{user_id}", tags=["memories"])


def _out(item: TopicItem) -> TopicItemOut:
    return TopicItemOut(type=item.type, id=item.id, content=item.content, relevance=item.relevance,
                        at=item.at, session_id=item.fields.get("session_id"))


@router.post("/forget", response_model=TopicForgetOut, summary="Forget everything about a topic",
             responses={202: {"model": TopicForgetOut,
                              "description": "Done (accepted, in Kafka mode without wait): its command."},
                        **WRITE_RESPONSES})
async def forget_topic(user_id: UserId, body: TopicForget, lore: LoreDep, intake: IntakeDep,
                       wait: bool = True) -> JSONResponse:
    """Lore's own search finds the memories, turns and session summaries about `topic` (between
    `since` and `until`), each held to `min_relevance`. A dry run (the default) shows them; with
    `dry_run: false` they are forgotten as one recorded decision — the memories and the turns they
    came from hidden, the turns about it hidden, those sessions' summaries and the profile written
    anew — or, with `purge`, deleted for good as a purge deletes one memory."""
    if not topic_words(body.topic):
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT,
                            f"topic: {body.topic!r} names nothing to look for (only words such as "
                            "'what', 'my', 'the')")
    found = await run_in_threadpool(TopicFinder(lore.search).find, user_id, body.topic, body.since,
                                    body.until, body.min_relevance)
    answer = TopicForgetOut(topic=body.topic, dry_run=body.dry_run, purge=body.purge,
                            items=[_out(i) for i in found],
                            memories=sum(i.type == "memory" for i in found),
                            messages=sum(i.type == "message" for i in found),
                            summaries=sum(i.type == "summary" for i in found))
    if body.dry_run or not found:
        return JSONResponse(answer.model_dump(mode="json"))
    decision = command("ForgetTopic", user_id, {
        "topic": body.topic, "purge": body.purge, "command_id": body.command_id,
        "memory_ids": tuple(i.id for i in found if i.type == "memory"),
        "messages": tuple({"episode_id": i.fields["episode_id"], "position": i.fields["position"]}
                          for i in found if i.type == "message"),
        "sessions": tuple(dict.fromkeys(str(i.fields["session_id"]) for i in found if i.type == "summary"))})
    receipt = await submit(intake, decision, wait)
    if receipt.status_code != status.HTTP_202_ACCEPTED:
        return receipt
    done = answer.model_copy(update={"command_id": decision.command_id,
                                     "status": json.loads(bytes(receipt.body))["status"]})
    return JSONResponse(done.model_dump(mode="json"), status_code=status.HTTP_202_ACCEPTED)
