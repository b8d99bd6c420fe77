"""GET /v1/users/{user_id}/summaries and /profile: the layers above single facts."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query

from domain.access import split_person
from domain.model import utc
from lore.schemas import (
    BasicInfoOut,
    Instant,
    Problem,
    ProfileHistory,
    ProfileOut,
    SummaryOut,
    SummaryPage,
)
from projections.layers import ProfileView, SummaryView
from services.api.deps import LoreDep, UserId

router = APIRouter(prefix="/users/{user_id}", tags=["layers"])


def summary_out(view: SummaryView) -> SummaryOut:
    s = view.summary
    return SummaryOut(
        summary_id=view.summary_id,
        session_id=view.session_id,
        summary=s.summary,
        topics=list(s.topics),
        user_intent=s.user_intent,
        emotional_tone=s.emotional_tone,
        key_facts=list(s.key_facts),
        unresolved=s.unresolved,
        summarized_by=view.summarizer,
        fallback=view.fallback,
        failure=view.failure,
        pending=view.pending,
        summarized_at=view.summarized_at,
        said_until=view.said_until,
        episode_ids=list(dict.fromkeys(r.episode_id for r in view.window)),
    )


def profile_out(user_id: str, view: ProfileView) -> ProfileOut:
    return ProfileOut(
        user_id=split_person(user_id)[1],
        version=view.version,
        narrative=view.narrative,
        basic_info=[BasicInfoOut(key=b.key, value=b.value) for b in view.basic_info],
        written_by=view.writer,
        reason=view.reason,
        revised_at=view.revised_at,
        summaries=list(view.summaries),
    )


def empty_profile(user_id: str) -> ProfileOut:
    return ProfileOut(
        user_id=split_person(user_id)[1],
        version=0,
        narrative="",
        basic_info=[],
        written_by=None,
        reason=None,
        revised_at=None,
        summaries=[],
        note="No profile yet: one is written after the person's first conversation that "
        "ends (or is extracted) with something to summarize.",
    )


@router.get("/summaries", response_model=SummaryPage, summary="Session summaries, newest first")
def summaries(
    user_id: UserId,
    lore: LoreDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> SummaryPage:
    found = lore.layer_queries.summaries(user_id, limit=limit + 1, offset=offset)
    items = [summary_out(v) for v in found[:limit]]
    more = len(found) > limit
    return SummaryPage(items=items, summaries=items, next_offset=offset + limit if more else None)


@router.get("/profile", response_model=ProfileOut, summary="The person's profile (now, or a version)",
            responses={404: {"model": Problem, "description": "The profile has no such version."}})
def profile(
    user_id: UserId,
    lore: LoreDep,
    version: Annotated[int | None, Query(ge=1, le=2**63 - 1, description="That version.")] = None,
    known_at: Annotated[Instant | None, Query(description="The version Lore held then.")] = None,
) -> ProfileOut:
    """The latest version; `version=N` that one; `known_at` the one Lore held at that time ("what
    did Lore think of me in March"). A person without one gets version 0, said plainly."""
    if version is None and known_at is not None:
        version = lore.layer_queries.profile_version_at(user_id, utc(known_at))
        if version is None:
            return empty_profile(user_id)
    found = lore.layer_queries.profiles(user_id, version=version)
    if not found:
        if version is not None:
            raise HTTPException(404, f"the profile of {user_id} has no version {version}")
        return empty_profile(user_id)
    return profile_out(user_id, found[0])


@router.get("/profile/history", response_model=ProfileHistory, summary="Every version of the profile")
def profile_history(
    user_id: UserId, lore: LoreDep, limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> ProfileHistory:
    found = lore.layer_queries.profiles(user_id, limit=offset + limit + 1)[offset:]
    items = [profile_out(user_id, v) for v in found[:limit]]
    return ProfileHistory(user_id=split_person(user_id)[1], items=items, versions=items,
                          next_offset=offset + limit if len(found) > limit else None)
