"""A typed client of Lore's v1 HTTP API, sync (`LoreClient`) and async (`AsyncLoreClient`).

Answers are the API's own pydantic models (lore/schemas.py, which the server answers with), so a
client and a server of one version agree by construction. Each operation is described once in
lore/calls.py (`Calls`) and sent by either client; tests/unit/test_client.py checks every one
against the OpenAPI document the server publishes, and that no operation is left without one.

    from lore.client import LoreClient

    with LoreClient("http://127.0.0.1:8000", api_key="lore_…") as lore:
        lore.record_conversation("ada", "s1", [{"role": "user", "content": "I moved to Porto"}])
        lore.end_session("ada", "s1")
        print(lore.context("ada", "Where do I live?").text)
        for memory in lore.iter_memories("ada"):
            print(memory.content)
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime
from typing import Any, Literal, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from lore.calls import CALLS, STREAMS, Call, Calls, LoreError, TodoState, refusal
from lore.schemas import (
    Change,
    ContextResponse,
    ExtractionAccepted,
    ExtractionState,
    Health,
    ImportOut,
    KeyView,
    MaintenanceRunPage,
    MaintenanceRunStatus,
    MemoryPage,
    MemoryView,
    PageTokenOut,
    PersonRunStatus,
    PersonSettings,
    ProfileHistory,
    ProfileOut,
    SearchResponse,
    Stats,
    SummaryOut,
    SummaryPage,
    TodoPage,
    TopicForgetOut,
    WriteAccepted,
)
from lore.sse import Following, afollow, follow

__all__ = ["CALLS", "STREAMS", "AsyncLoreClient", "LoreClient", "LoreError", "TodoState"]
M = TypeVar("M", bound=BaseModel)
I = TypeVar("I")  # noqa: E741


def _headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def _url(template: str, user_id: str) -> str:
    return template.format(user_id=quote(user_id, safe=""))


def _pages(fetch: Callable[[int], tuple[list[I], int | None]]) -> Iterator[I]:
    offset: int | None = 0
    while offset is not None:
        items, offset = fetch(offset)
        yield from items


def _following(
    path: str, last_event_id: str | None, from_start: bool, reconnect_for_s: float | None
) -> Following:
    return Following(path, last_event_id, from_start, reconnect_for_s)


class LoreClient:
    """Blocking client. `api_key`: a key of `lore keys create`, or a page link's token (none on a
    loopback server without keys)."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        api_key: str | None = None,
        timeout_s: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url, headers=_headers(api_key), timeout=timeout_s, transport=transport
        )

    def _send(self, call: Call[M]) -> M:
        return call.read(self._http.request(call.method, call.url(), **call.request()))

    # ---- every page of a list ----------------------------------------------------------------

    def iter_memories(self, user_id: str, **filters: Any) -> Iterator[MemoryView]:
        """Every memory `memories` lists with these filters, page after page."""

        def page(offset: int) -> tuple[list[MemoryView], int | None]:
            found = self.memories(user_id, **{**filters, "offset": offset})
            return found.items, found.next_offset

        return _pages(page)

    def iter_summaries(self, user_id: str, *, limit: int = 50) -> Iterator[SummaryOut]:
        def page(offset: int) -> tuple[list[SummaryOut], int | None]:
            found = self.summaries(user_id, offset=offset, limit=limit)
            return found.items, found.next_offset

        return _pages(page)

    def iter_todos(
        self, user_id: str, state: TodoState = "open", *, limit: int = 100
    ) -> Iterator[MemoryView]:
        def page(offset: int) -> tuple[list[MemoryView], int | None]:
            found = self.todos(user_id, state, offset=offset, limit=limit)
            return found.items, found.next_offset

        return _pages(page)

    def iter_profile_versions(self, user_id: str, *, limit: int = 50) -> Iterator[ProfileOut]:
        def page(offset: int) -> tuple[list[ProfileOut], int | None]:
            found = self.profile_history(user_id, offset=offset, limit=limit)
            return found.items, found.next_offset

        return _pages(page)

    # ---- streams -------------------------------------------------------------------------------

    def export(self, user_id: str) -> Iterator[dict[str, Any]]:
        """Everything about the person (GET .../export), one JSON object at a time."""
        with self._http.stream("GET", _url("/v1/users/{user_id}/export", user_id)) as response:
            if response.status_code >= 400:
                response.read()
                raise refusal(response)
            for line in response.iter_lines():
                if line.strip():
                    yield json.loads(line)

    def export_markdown(self, user_id: str) -> str:
        """The person's memory as a Markdown file to read and edit; give it back with import_markdown."""
        response = self._http.get(_url("/v1/users/{user_id}/export", user_id), params={"format": "markdown"})
        if response.status_code >= 400:
            raise refusal(response)
        return response.text

    def changes(
        self,
        user_id: str,
        *,
        last_event_id: str | None = None,
        from_start: bool = False,
        reconnect_for_s: float | None = None,
    ) -> Iterator[Change]:
        """The person's changes as they are logged (Server-Sent Events), reconnecting after a drop
        (a restart of Lore) with the last id received, so nothing is lost or sent twice;
        `reconnect_for_s`: give up after that long without a connection (None: never)."""
        path = _url("/v1/users/{user_id}/changes", user_id)
        return follow(self._http, _following(path, last_event_id, from_start, reconnect_for_s))

    def all_changes(
        self,
        *,
        last_event_id: str | None = None,
        from_start: bool = False,
        reconnect_for_s: float | None = None,
    ) -> Iterator[Change]:
        """The changes of every person of the key's tenant (an admin key)."""
        return follow(self._http, _following("/v1/changes", last_event_id, from_start, reconnect_for_s))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> LoreClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ---- every operation of lore/calls.py ------------------------------------------------------

    def remember(
        self,
        user_id: str,
        content: str,
        *,
        kind: str | None = None,
        attribute: str | None = None,
        value: str | None = None,
        valid_from: datetime | None = None,
        importance: float | None = None,
        command_id: str | None = None,
        wait: bool = True,
        **more: Any,
    ) -> WriteAccepted:
        return self._send(
            Calls.remember(
                user_id,
                content,
                kind=kind,
                attribute=attribute,
                value=value,
                valid_from=valid_from,
                importance=importance,
                command_id=command_id,
                wait=wait,
                **more,
            )
        )

    def memories(
        self,
        user_id: str,
        *,
        kind: str | None = None,
        status: str | None = None,
        attribute: str | None = None,
        category: str | None = None,
        valid_at: datetime | None = None,
        known_at: datetime | None = None,
        offset: int = 0,
        limit: int = 100,
    ) -> MemoryPage:
        return self._send(
            Calls.memories(
                user_id,
                kind=kind,
                status=status,
                attribute=attribute,
                category=category,
                valid_at=valid_at,
                known_at=known_at,
                offset=offset,
                limit=limit,
            )
        )

    def memory(self, user_id: str, memory_id: str) -> MemoryView:
        return self._send(Calls.memory(user_id, memory_id))

    def history(self, user_id: str, memory_id: str, *, offset: int = 0, limit: int = 100) -> MemoryPage:
        return self._send(Calls.history(user_id, memory_id, offset=offset, limit=limit))

    def timeline(self, user_id: str, attribute: str, *, offset: int = 0, limit: int = 100) -> MemoryPage:
        return self._send(Calls.timeline(user_id, attribute, offset=offset, limit=limit))

    def forget(
        self,
        user_id: str,
        memory_id: str,
        *,
        purge: bool = False,
        reason: str | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        """Forget (restorable); `purge`: delete it for good, with the words it came from."""
        return self._send(
            Calls.forget(user_id, memory_id, purge=purge, reason=reason, command_id=command_id, wait=wait)
        )

    def restore(
        self, user_id: str, memory_id: str, *, command_id: str | None = None, wait: bool = True
    ) -> WriteAccepted:
        return self._send(Calls.restore(user_id, memory_id, command_id=command_id, wait=wait))

    def correct(
        self,
        user_id: str,
        memory_id: str,
        content: str,
        *,
        value: str | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return self._send(
            Calls.correct(user_id, memory_id, content, value=value, command_id=command_id, wait=wait)
        )

    def feedback(
        self,
        user_id: str,
        memory_id: str,
        verdict: Literal["helpful", "wrong"],
        *,
        note: str | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return self._send(
            Calls.feedback(user_id, memory_id, verdict, note=note, command_id=command_id, wait=wait)
        )

    def forget_topic(
        self,
        user_id: str,
        topic: str,
        *,
        dry_run: bool = True,
        purge: bool = False,
        since: datetime | None = None,
        until: datetime | None = None,
        min_relevance: float | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> TopicForgetOut:
        return self._send(
            Calls.forget_topic(
                user_id,
                topic,
                dry_run=dry_run,
                purge=purge,
                since=since,
                until=until,
                min_relevance=min_relevance,
                command_id=command_id,
                wait=wait,
            )
        )

    def stats(self, user_id: str) -> Stats:
        return self._send(Calls.stats(user_id))

    def record_conversation(
        self,
        user_id: str,
        session_id: str,
        messages: list[dict[str, Any]],
        *,
        episode_id: str | None = None,
        occurred_at: datetime | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        """`messages`: [{"role": "user" | "assistant" | ..., "content": ..., "timestamp": ...}]."""
        return self._send(
            Calls.record_conversation(
                user_id,
                session_id,
                messages,
                episode_id=episode_id,
                occurred_at=occurred_at,
                command_id=command_id,
                wait=wait,
            )
        )

    def end_session(
        self, user_id: str, session_id: str, *, command_id: str | None = None, wait: bool = True
    ) -> ExtractionAccepted:
        return self._send(Calls.end_session(user_id, session_id, command_id=command_id, wait=wait))

    def extract(
        self,
        user_id: str,
        episode_id: str,
        *,
        model: str | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> ExtractionAccepted:
        return self._send(Calls.extract(user_id, episode_id, model=model, command_id=command_id, wait=wait))

    def extraction(self, user_id: str, extraction_id: str) -> ExtractionState:
        return self._send(Calls.extraction(user_id, extraction_id))

    def summaries(self, user_id: str, *, offset: int = 0, limit: int = 20) -> SummaryPage:
        return self._send(Calls.summaries(user_id, offset=offset, limit=limit))

    def profile(
        self, user_id: str, *, version: int | None = None, known_at: datetime | None = None
    ) -> ProfileOut:
        return self._send(Calls.profile(user_id, version=version, known_at=known_at))

    def profile_history(self, user_id: str, *, offset: int = 0, limit: int = 50) -> ProfileHistory:
        return self._send(Calls.profile_history(user_id, offset=offset, limit=limit))

    def search(
        self,
        user_id: str,
        query: str,
        *,
        limit: int = 10,
        valid_at: datetime | None = None,
        known_at: datetime | None = None,
        kinds: list[str] | None = None,
        include_history: bool | None = None,
        include_messages: bool | None = None,
        types: list[str] | None = None,
        context_rules: bool | None = None,
        min_relevance: float | None = None,
        synthesize_questions: bool | None = None,
        recent_messages: list[str] | None = None,
        mmr_lambda: float | None = None,
    ) -> SearchResponse:
        return self._send(
            Calls.search(
                user_id,
                query,
                limit=limit,
                valid_at=valid_at,
                known_at=known_at,
                kinds=kinds,
                include_history=include_history,
                include_messages=include_messages,
                types=types,
                context_rules=context_rules,
                min_relevance=min_relevance,
                synthesize_questions=synthesize_questions,
                recent_messages=recent_messages,
                mmr_lambda=mmr_lambda,
            )
        )

    def context(
        self,
        user_id: str,
        message: str,
        *,
        token_budget: int = 1000,
        recent_messages: list[dict[str, str]] | None = None,
        min_relevance: float | None = None,
        relevant_limit: int | None = None,
        format: Literal["text", "markdown", "json"] | None = None,
        synthesize_questions: bool | None = None,
    ) -> ContextResponse:
        return self._send(
            Calls.context(
                user_id,
                message,
                token_budget=token_budget,
                recent_messages=recent_messages,
                min_relevance=min_relevance,
                relevant_limit=relevant_limit,
                format=format,
                synthesize_questions=synthesize_questions,
            )
        )

    def add_todo(
        self,
        user_id: str,
        content: str,
        *,
        due_at: datetime | None = None,
        remind_at: datetime | None = None,
        importance: float | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return self._send(
            Calls.add_todo(
                user_id,
                content,
                due_at=due_at,
                remind_at=remind_at,
                importance=importance,
                command_id=command_id,
                wait=wait,
            )
        )

    def todos(
        self, user_id: str, state: TodoState = "open", *, offset: int = 0, limit: int = 100
    ) -> TodoPage:
        return self._send(Calls.todos(user_id, state, offset=offset, limit=limit))

    def complete_todo(
        self,
        user_id: str,
        todo_id: str,
        *,
        completed_at: datetime | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return self._send(
            Calls.complete_todo(user_id, todo_id, completed_at=completed_at, command_id=command_id, wait=wait)
        )

    def reopen_todo(self, user_id: str, todo_id: str, *, wait: bool = True) -> WriteAccepted:
        return self._send(Calls.reopen_todo(user_id, todo_id, wait=wait))

    def settings(self, user_id: str) -> PersonSettings:
        return self._send(Calls.settings(user_id))

    def configure(
        self,
        user_id: str,
        *,
        memory: bool | None = None,
        extraction: bool | None = None,
        citations: bool | None = None,
        temporary: bool | None = None,
        episode_retention_days: int | None = None,
        pinned_kinds: list[str] | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return self._send(
            Calls.configure(
                user_id,
                memory=memory,
                extraction=extraction,
                citations=citations,
                temporary=temporary,
                episode_retention_days=episode_retention_days,
                pinned_kinds=pinned_kinds,
                command_id=command_id,
                wait=wait,
            )
        )

    def import_markdown(
        self,
        user_id: str,
        text: str,
        *,
        dry_run: bool = True,
        command_id: str | None = None,
        wait: bool = True,
    ) -> ImportOut:
        """An edited file of export_markdown: what it changes (dry run), or done as one revision."""
        return self._send(
            Calls.import_markdown(user_id, text, dry_run=dry_run, command_id=command_id, wait=wait)
        )

    def page_link(
        self, user_id: str, *, ttl_s: int = 3600, scope: Literal["read", "write"] = "write"
    ) -> PageTokenOut:
        return self._send(Calls.page_link(user_id, ttl_s=ttl_s, scope=scope))

    def erase(self, user_id: str, *, command_id: str | None = None, wait: bool = True) -> WriteAccepted:
        return self._send(Calls.erase(user_id, command_id=command_id, wait=wait))

    def maintenance_runs(self, *, offset: int = 0, limit: int = 20) -> MaintenanceRunPage:
        return self._send(Calls.maintenance_runs(offset=offset, limit=limit))

    def run_maintenance(
        self,
        *,
        as_of: datetime | None = None,
        user_id: str | None = None,
        dry_run: bool = False,
        run_id: str | None = None,
    ) -> MaintenanceRunStatus:
        return self._send(Calls.run_maintenance(as_of=as_of, user_id=user_id, dry_run=dry_run, run_id=run_id))

    def maintenance_run(self, run_id: str) -> MaintenanceRunStatus:
        return self._send(Calls.maintenance_run(run_id))

    def person_run(self, user_id: str, run_id: str) -> PersonRunStatus:
        return self._send(Calls.person_run(user_id, run_id))

    def whoami(self) -> KeyView:
        return self._send(Calls.whoami())

    def health(self) -> Health:
        return self._send(Calls.health())


class AsyncLoreClient:
    """The same calls, awaitable; the iterators and streams are async iterators."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        api_key: str | None = None,
        timeout_s: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url, headers=_headers(api_key), timeout=timeout_s, transport=transport
        )

    async def _send(self, call: Call[M]) -> M:
        return call.read(await self._http.request(call.method, call.url(), **call.request()))

    # ---- every page of a list ----------------------------------------------------------------

    async def iter_memories(self, user_id: str, **filters: Any) -> AsyncIterator[MemoryView]:
        offset: int | None = 0
        while offset is not None:
            found = await self.memories(user_id, **{**filters, "offset": offset})
            for item in found.items:
                yield item
            offset = found.next_offset

    async def iter_summaries(self, user_id: str, *, limit: int = 50) -> AsyncIterator[SummaryOut]:
        offset: int | None = 0
        while offset is not None:
            found = await self.summaries(user_id, offset=offset, limit=limit)
            for item in found.items:
                yield item
            offset = found.next_offset

    async def iter_todos(
        self, user_id: str, state: TodoState = "open", *, limit: int = 100
    ) -> AsyncIterator[MemoryView]:
        offset: int | None = 0
        while offset is not None:
            found = await self.todos(user_id, state, offset=offset, limit=limit)
            for item in found.items:
                yield item
            offset = found.next_offset

    async def iter_profile_versions(self, user_id: str, *, limit: int = 50) -> AsyncIterator[ProfileOut]:
        offset: int | None = 0
        while offset is not None:
            found = await self.profile_history(user_id, offset=offset, limit=limit)
            for item in found.items:
                yield item
            offset = found.next_offset

    # ---- streams -------------------------------------------------------------------------------

    async def export(self, user_id: str) -> AsyncIterator[dict[str, Any]]:
        async with self._http.stream("GET", _url("/v1/users/{user_id}/export", user_id)) as response:
            if response.status_code >= 400:
                await response.aread()
                raise refusal(response)
            async for line in response.aiter_lines():
                if line.strip():
                    yield json.loads(line)

    async def export_markdown(self, user_id: str) -> str:
        response = await self._http.get(
            _url("/v1/users/{user_id}/export", user_id), params={"format": "markdown"}
        )
        if response.status_code >= 400:
            raise refusal(response)
        return response.text

    def changes(
        self,
        user_id: str,
        *,
        last_event_id: str | None = None,
        from_start: bool = False,
        reconnect_for_s: float | None = None,
    ) -> AsyncIterator[Change]:
        path = _url("/v1/users/{user_id}/changes", user_id)
        return afollow(self._http, _following(path, last_event_id, from_start, reconnect_for_s))

    def all_changes(
        self,
        *,
        last_event_id: str | None = None,
        from_start: bool = False,
        reconnect_for_s: float | None = None,
    ) -> AsyncIterator[Change]:
        return afollow(self._http, _following("/v1/changes", last_event_id, from_start, reconnect_for_s))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncLoreClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    # ---- every operation of lore/calls.py ------------------------------------------------------

    async def remember(
        self,
        user_id: str,
        content: str,
        *,
        kind: str | None = None,
        attribute: str | None = None,
        value: str | None = None,
        valid_from: datetime | None = None,
        importance: float | None = None,
        command_id: str | None = None,
        wait: bool = True,
        **more: Any,
    ) -> WriteAccepted:
        return await self._send(
            Calls.remember(
                user_id,
                content,
                kind=kind,
                attribute=attribute,
                value=value,
                valid_from=valid_from,
                importance=importance,
                command_id=command_id,
                wait=wait,
                **more,
            )
        )

    async def memories(
        self,
        user_id: str,
        *,
        kind: str | None = None,
        status: str | None = None,
        attribute: str | None = None,
        category: str | None = None,
        valid_at: datetime | None = None,
        known_at: datetime | None = None,
        offset: int = 0,
        limit: int = 100,
    ) -> MemoryPage:
        return await self._send(
            Calls.memories(
                user_id,
                kind=kind,
                status=status,
                attribute=attribute,
                category=category,
                valid_at=valid_at,
                known_at=known_at,
                offset=offset,
                limit=limit,
            )
        )

    async def memory(self, user_id: str, memory_id: str) -> MemoryView:
        return await self._send(Calls.memory(user_id, memory_id))

    async def history(self, user_id: str, memory_id: str, *, offset: int = 0, limit: int = 100) -> MemoryPage:
        return await self._send(Calls.history(user_id, memory_id, offset=offset, limit=limit))

    async def timeline(
        self, user_id: str, attribute: str, *, offset: int = 0, limit: int = 100
    ) -> MemoryPage:
        return await self._send(Calls.timeline(user_id, attribute, offset=offset, limit=limit))

    async def forget(
        self,
        user_id: str,
        memory_id: str,
        *,
        purge: bool = False,
        reason: str | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        """Forget (restorable); `purge`: delete it for good, with the words it came from."""
        return await self._send(
            Calls.forget(user_id, memory_id, purge=purge, reason=reason, command_id=command_id, wait=wait)
        )

    async def restore(
        self, user_id: str, memory_id: str, *, command_id: str | None = None, wait: bool = True
    ) -> WriteAccepted:
        return await self._send(Calls.restore(user_id, memory_id, command_id=command_id, wait=wait))

    async def correct(
        self,
        user_id: str,
        memory_id: str,
        content: str,
        *,
        value: str | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return await self._send(
            Calls.correct(user_id, memory_id, content, value=value, command_id=command_id, wait=wait)
        )

    async def feedback(
        self,
        user_id: str,
        memory_id: str,
        verdict: Literal["helpful", "wrong"],
        *,
        note: str | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return await self._send(
            Calls.feedback(user_id, memory_id, verdict, note=note, command_id=command_id, wait=wait)
        )

    async def forget_topic(
        self,
        user_id: str,
        topic: str,
        *,
        dry_run: bool = True,
        purge: bool = False,
        since: datetime | None = None,
        until: datetime | None = None,
        min_relevance: float | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> TopicForgetOut:
        return await self._send(
            Calls.forget_topic(
                user_id,
                topic,
                dry_run=dry_run,
                purge=purge,
                since=since,
                until=until,
                min_relevance=min_relevance,
                command_id=command_id,
                wait=wait,
            )
        )

    async def stats(self, user_id: str) -> Stats:
        return await self._send(Calls.stats(user_id))

    async def record_conversation(
        self,
        user_id: str,
        session_id: str,
        messages: list[dict[str, Any]],
        *,
        episode_id: str | None = None,
        occurred_at: datetime | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        """`messages`: [{"role": "user" | "assistant" | ..., "content": ..., "timestamp": ...}]."""
        return await self._send(
            Calls.record_conversation(
                user_id,
                session_id,
                messages,
                episode_id=episode_id,
                occurred_at=occurred_at,
                command_id=command_id,
                wait=wait,
            )
        )

    async def end_session(
        self, user_id: str, session_id: str, *, command_id: str | None = None, wait: bool = True
    ) -> ExtractionAccepted:
        return await self._send(Calls.end_session(user_id, session_id, command_id=command_id, wait=wait))

    async def extract(
        self,
        user_id: str,
        episode_id: str,
        *,
        model: str | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> ExtractionAccepted:
        return await self._send(
            Calls.extract(user_id, episode_id, model=model, command_id=command_id, wait=wait)
        )

    async def extraction(self, user_id: str, extraction_id: str) -> ExtractionState:
        return await self._send(Calls.extraction(user_id, extraction_id))

    async def summaries(self, user_id: str, *, offset: int = 0, limit: int = 20) -> SummaryPage:
        return await self._send(Calls.summaries(user_id, offset=offset, limit=limit))

    async def profile(
        self, user_id: str, *, version: int | None = None, known_at: datetime | None = None
    ) -> ProfileOut:
        return await self._send(Calls.profile(user_id, version=version, known_at=known_at))

    async def profile_history(self, user_id: str, *, offset: int = 0, limit: int = 50) -> ProfileHistory:
        return await self._send(Calls.profile_history(user_id, offset=offset, limit=limit))

    async def search(
        self,
        user_id: str,
        query: str,
        *,
        limit: int = 10,
        valid_at: datetime | None = None,
        known_at: datetime | None = None,
        kinds: list[str] | None = None,
        include_history: bool | None = None,
        include_messages: bool | None = None,
        types: list[str] | None = None,
        context_rules: bool | None = None,
        min_relevance: float | None = None,
        synthesize_questions: bool | None = None,
        recent_messages: list[str] | None = None,
        mmr_lambda: float | None = None,
    ) -> SearchResponse:
        return await self._send(
            Calls.search(
                user_id,
                query,
                limit=limit,
                valid_at=valid_at,
                known_at=known_at,
                kinds=kinds,
                include_history=include_history,
                include_messages=include_messages,
                types=types,
                context_rules=context_rules,
                min_relevance=min_relevance,
                synthesize_questions=synthesize_questions,
                recent_messages=recent_messages,
                mmr_lambda=mmr_lambda,
            )
        )

    async def context(
        self,
        user_id: str,
        message: str,
        *,
        token_budget: int = 1000,
        recent_messages: list[dict[str, str]] | None = None,
        min_relevance: float | None = None,
        relevant_limit: int | None = None,
        format: Literal["text", "markdown", "json"] | None = None,
        synthesize_questions: bool | None = None,
    ) -> ContextResponse:
        return await self._send(
            Calls.context(
                user_id,
                message,
                token_budget=token_budget,
                recent_messages=recent_messages,
                min_relevance=min_relevance,
                relevant_limit=relevant_limit,
                format=format,
                synthesize_questions=synthesize_questions,
            )
        )

    async def add_todo(
        self,
        user_id: str,
        content: str,
        *,
        due_at: datetime | None = None,
        remind_at: datetime | None = None,
        importance: float | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return await self._send(
            Calls.add_todo(
                user_id,
                content,
                due_at=due_at,
                remind_at=remind_at,
                importance=importance,
                command_id=command_id,
                wait=wait,
            )
        )

    async def todos(
        self, user_id: str, state: TodoState = "open", *, offset: int = 0, limit: int = 100
    ) -> TodoPage:
        return await self._send(Calls.todos(user_id, state, offset=offset, limit=limit))

    async def complete_todo(
        self,
        user_id: str,
        todo_id: str,
        *,
        completed_at: datetime | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return await self._send(
            Calls.complete_todo(user_id, todo_id, completed_at=completed_at, command_id=command_id, wait=wait)
        )

    async def reopen_todo(self, user_id: str, todo_id: str, *, wait: bool = True) -> WriteAccepted:
        return await self._send(Calls.reopen_todo(user_id, todo_id, wait=wait))

    async def settings(self, user_id: str) -> PersonSettings:
        return await self._send(Calls.settings(user_id))

    async def configure(
        self,
        user_id: str,
        *,
        memory: bool | None = None,
        extraction: bool | None = None,
        citations: bool | None = None,
        temporary: bool | None = None,
        episode_retention_days: int | None = None,
        pinned_kinds: list[str] | None = None,
        command_id: str | None = None,
        wait: bool = True,
    ) -> WriteAccepted:
        return await self._send(
            Calls.configure(
                user_id,
                memory=memory,
                extraction=extraction,
                citations=citations,
                temporary=temporary,
                episode_retention_days=episode_retention_days,
                pinned_kinds=pinned_kinds,
                command_id=command_id,
                wait=wait,
            )
        )

    async def import_markdown(
        self,
        user_id: str,
        text: str,
        *,
        dry_run: bool = True,
        command_id: str | None = None,
        wait: bool = True,
    ) -> ImportOut:
        """An edited file of export_markdown: what it changes (dry run), or done as one revision."""
        return await self._send(
            Calls.import_markdown(user_id, text, dry_run=dry_run, command_id=command_id, wait=wait)
        )

    async def page_link(
        self, user_id: str, *, ttl_s: int = 3600, scope: Literal["read", "write"] = "write"
    ) -> PageTokenOut:
        return await self._send(Calls.page_link(user_id, ttl_s=ttl_s, scope=scope))

    async def erase(self, user_id: str, *, command_id: str | None = None, wait: bool = True) -> WriteAccepted:
        return await self._send(Calls.erase(user_id, command_id=command_id, wait=wait))

    async def maintenance_runs(self, *, offset: int = 0, limit: int = 20) -> MaintenanceRunPage:
        return await self._send(Calls.maintenance_runs(offset=offset, limit=limit))

    async def run_maintenance(
        self,
        *,
        as_of: datetime | None = None,
        user_id: str | None = None,
        dry_run: bool = False,
        run_id: str | None = None,
    ) -> MaintenanceRunStatus:
        return await self._send(
            Calls.run_maintenance(as_of=as_of, user_id=user_id, dry_run=dry_run, run_id=run_id)
        )

    async def maintenance_run(self, run_id: str) -> MaintenanceRunStatus:
        return await self._send(Calls.maintenance_run(run_id))

    async def person_run(self, user_id: str, run_id: str) -> PersonRunStatus:
        return await self._send(Calls.person_run(user_id, run_id))

    async def whoami(self) -> KeyView:
        return await self._send(Calls.whoami())

    async def health(self) -> Health:
        return await self._send(Calls.health())
