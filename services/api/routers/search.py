"""POST /v1/users/{user_id}/search and /context: hybrid retrieval that respects time."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter

from domain.access import Scope
from domain.model import utc
from lore.schemas import (
    Citations,
    ContextItem,
    ContextRequest,
    ContextResponse,
    ContextSection,
    Degraded,
    HitSource,
    SearchHit,
    SearchRequest,
    SearchResponse,
)
from projections.search import ItemType, Window
from projections.views import MemoryView
from services.api.auth import needs
from services.api.deps import LoreDep, UserId
from services.bootstrap import Lore
from services.context import INSTRUCTION, Renderer, default_floor
from services.context_note import with_partial_note
from services.degraded import Degradation, noted
from services.search import Hit, RecallPaused, recall_paused
from services.selection import select
from services.telemetry import DEGRADED_ANSWERS

router = APIRouter(prefix="/users/{user_id}", tags=["search"])


def public(hit: Hit) -> SearchHit:
    f = hit.fields
    source = None
    if hit.type in ("message", "summary") or f.get("episode_id"):
        source = HitSource(episode_id=f.get("episode_id"), session_id=f.get("session_id"), role=f.get("role"),
                           occurred_at=f.get("occurred_at"), position=f.get("position"))
    return SearchHit(
        type=hit.type, id=hit.id, content=f.get("content", ""), score=hit.score, scores=hit.scores,
        ranks=hit.ranks, kind=f.get("kind"), attribute=f.get("attribute"), value=f.get("value"),
        status=f.get("status"), valid_from=f.get("valid_from") or f.get("occurred_at"),
        valid_until=f.get("valid_until"), superseded_by=f.get("superseded_by"),
        recorded_at=f.get("recorded_at"), importance=f.get("importance"), source=source,
    )


@router.post("/search", response_model=SearchResponse, summary="Hybrid search, as of a time")
@needs(Scope.READ)
def search(user_id: UserId, body: SearchRequest, lore: LoreDep) -> SearchResponse:
    """Vector (HNSW), BM25 and graph candidates, scoped to the person and to what was true at
    `valid_at` as known at `known_at`, fused by reciprocal rank and reranked by recency,
    importance and use. Each source gives one list over memories and turns, so that they compete
    on one scale; a memory and the turn it was extracted from are one hit. Each hit says what each
    source scored it. With `synthesize_questions`, the questions the memory should answer about
    the query are searched too, and fused. With `context_rules`, the context block's rules apply
    (no turn that says little, nothing twice, the relevance floor)."""
    started = time.perf_counter()
    synthesizer = lore.context.synthesizer if body.synthesize_questions else None
    # Whether the person paused recall is read with the search's first query; before it only when
    # a model would be asked for questions first. A paused person's query goes to no model: the
    # search embeds it before the pause is known only with a model run in this process.
    paused = _paused(lore, user_id) if synthesizer is not None else None
    if paused:
        return _paused_answer(body, paused)
    now = datetime.now(UTC)
    window = Window(valid_at=utc(body.valid_at) if body.valid_at else now,
                    known_at=utc(body.known_at) if body.known_at else None,
                    include_history=body.include_history, kinds=tuple(k.value for k in body.kinds))
    if body.types:
        types: tuple[ItemType, ...] = tuple(dict.fromkeys(body.types))
    else:
        types = ("memory", "message") if body.include_messages and not body.kinds else ("memory",)
    questions: list[str] = []
    questions_ms = None
    with noted() as left_out:
        if synthesizer is not None:
            asked = time.perf_counter()
            questions = synthesizer.questions(body.query, body.recent_messages)
            questions_ms = round((time.perf_counter() - asked) * 1000, 2)
        floor = body.min_relevance if body.min_relevance is not None or not body.context_rules else (
            default_floor(lore.search.embedder.model if lore.search.embedder else None))
        wanted = body.limit * 2 if body.context_rules else body.limit
        try:
            hits = lore.search.search(user_id, body.query, window, wanted, types=types,
                                      mmr_lambda=body.mmr_lambda, also=tuple(questions),
                                      measure=floor is not None, honour_pause=True)
        except RecallPaused as why:
            return _paused_answer(body, str(why))
    if body.context_rules or floor is not None:
        hits = select(hits, [body.query, *questions], floor, body.limit) if body.context_rules else [
            h for h in hits if h.scores.get("cosine", 1.0) >= floor]  # type: ignore[operator]
    lore.use.found(user_id, (h.id for h in hits if h.type == "memory"), now)
    return SearchResponse(query=body.query, hits=[public(h) for h in hits],
                          took_ms=round((time.perf_counter() - started) * 1000, 2), questions=questions,
                          questions_ms=questions_ms,
                          degraded=_degraded("/v1/users/{user_id}/search", left_out))


def _paused_answer(body: SearchRequest, why: str) -> SearchResponse:
    return SearchResponse(query=body.query, hits=[], took_ms=0.0, note=why)


def _degraded(route: str, left_out: list[Degradation]) -> list[Degraded]:
    """What an answer left out, counted (lore_degraded_answers_total) and said."""
    for found in left_out:
        DEGRADED_ANSWERS.labels(route, found.source, found.code).inc()
    return [Degraded(source=d.source, code=d.code, detail=d.detail, fix=d.fix)  # type: ignore[arg-type]
            for d in left_out]


def _paused(lore: Lore, user_id: str, settings: dict[str, Any] | None = None) -> str | None:
    """Why nothing is recalled for the person now, if it is not."""
    return recall_paused(lore.queries.settings(user_id) if settings is None else settings)


def _label(text: str, most: int = 60) -> str:
    line = " ".join(text.split())
    return line if len(line) <= most else line[:most - 1].rstrip() + "…"


def view_hit(m: MemoryView) -> SearchHit:
    return SearchHit(type="memory", id=m.memory_id, content=m.content, score=1.0, scores={}, ranks={},
                     kind=m.kind, attribute=m.attribute, value=m.value, status=m.status,
                     valid_from=m.valid_from, valid_until=m.valid_until, importance=m.importance)


@router.post("/context", response_model=ContextResponse, summary="The block for a system prompt")
@needs(Scope.READ)
def context(user_id: UserId, body: ContextRequest, lore: LoreDep) -> ContextResponse:
    """The person in layers, within `token_budget` (counted with cl100k_base): their profile, the
    last sessions in brief, what always matters (preferences, what works for them), what is due,
    then the memories and turns relevant to `message` (searched with the questions the memory
    should answer about it): at most `relevant_limit`, each at least `min_relevance` close to what
    was asked, no turn that says little (an acknowledgement, a greeting), nothing said twice (a
    memory takes the place of a turn that says the same). The block opens with one line telling
    the model how to use it. Each section only if it has something; every item cited by id."""
    settings = lore.queries.settings(user_id)
    paused = _paused(lore, user_id, settings)
    if paused:
        return ContextResponse(text="", instruction=INSTRUCTION, relevant_count=0, min_relevance=None,
                               tokens=0, tokenizer="cl100k_base", sections=[],
                               cited=Citations(memories=[], summaries=[], messages=[], profile_version=None),
                               questions=[], timings_ms={}, memories=[], note=paused)
    now = datetime.now(UTC)
    with noted() as left_out:
        block = lore.context.build(user_id, body.message, [m.content for m in body.recent_messages],
                                   body.token_budget, now, body.format, body.synthesize_questions,
                                   floor=body.min_relevance, relevant=body.relevant_limit)
    block = with_partial_note(block, left_out, Renderer(lore.context.counter, body.format), now,
                              body.token_budget)
    lore.use.cited(user_id, block.cited("memory"), now)
    sections = [ContextSection(name=s.name, title=s.title,  # type: ignore[arg-type]
                               items=[ContextItem(type=i.type, id=i.id, text=i.text) for i in s.items])
                for s in block.sections]
    labels = {i.id: _label(i.text) for s in block.sections for i in s.items if i.type != "profile"}
    cited = Citations(memories=block.cited("memory"), summaries=block.cited("summary"),
                      messages=block.cited("message"), profile_version=block.profile_version or None,
                      labels=labels)
    if settings.get("citations") is False:  # the person chose not to be shown what was used
        cited = Citations(memories=[], summaries=[], messages=[], profile_version=None)
    return ContextResponse(text=block.text, instruction=block.instruction,
                           relevant_count=block.relevant_found, min_relevance=block.floor,
                           tokens=block.tokens, tokenizer=block.tokenizer, sections=sections,
                           cited=cited, questions=block.questions, timings_ms=block.timings_ms,
                           memories=[*map(view_hit, block.always), *map(view_hit, block.todos),
                                     *(public(h) for h in block.relevant)],
                           degraded=_degraded("/v1/users/{user_id}/context", left_out))
