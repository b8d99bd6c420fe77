"""A typed client of Lore's v1 HTTP API, sync (`LoreClient`) and async (`AsyncLoreClient`).

Answers are the API's own pydantic models (lore/schemas.py), so a client and a server of
one version agree by construction; tests/unit/test_client.py checks every call against the
OpenAPI document the server publishes. Each call is described once (`_Call`) and sent by either
client.

    from lore.client import LoreClient

    with LoreClient("http://127.0.0.1:8000", api_key="lore_…") as lore:
        lore.remember("ada", "Ada prefers the dark editor theme", kind="preference",
                      attribute="editor_theme", value="dark")
        print(lore.search("ada", "which theme?").hits[0].content)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from lore.schemas import (
    ContextResponse,
    KeyView,
    MemoryPage,
    MemoryView,
    ProfileOut,
    SearchResponse,
    Stats,
    TodoPage,
    WriteAccepted,
)

M = TypeVar("M", bound=BaseModel)
TodoState = Literal["open", "done", "overdue", "all"]


class LoreError(Exception):
    """An answer other than success: `status` (401, 403, 404, 409, 422, 429, ...), and the API's
    `detail` and `code` (memory_not_found, ...)."""

    def __init__(self, status: int, detail: Any, code: str | None = None) -> None:
        super().__init__(f"{status}: {detail}")
        self.status, self.detail, self.code = status, detail, code


@dataclass(frozen=True)
class _Call(Generic[M]):
    method: str
    path: str  # an OpenAPI path template, e.g. /v1/users/{user_id}/memories
    answer: type[M]
    path_params: dict[str, str] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    body: dict[str, Any] | None = None

    def url(self) -> str:
        return self.path.format(**{k: quote(v, safe="") for k, v in self.path_params.items()})

    def query(self) -> dict[str, Any]:
        return {k: _plain(v) for k, v in self.params.items() if v is not None}

    def json(self) -> dict[str, Any] | None:
        return None if self.body is None else {k: _plain(v) for k, v in self.body.items() if v is not None}

    def read(self, response: httpx.Response) -> M:
        if response.status_code >= 400:
            try:
                problem = response.json()
            except ValueError:
                problem = {"detail": response.text}
            raise LoreError(response.status_code, problem.get("detail"), problem.get("code"))
        return self.answer.model_validate(response.json())


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _user(user_id: str) -> dict[str, str]:
    return {"user_id": user_id}


class _Calls:
    """Every call of the client, described once."""

    @staticmethod
    def remember(user_id: str, content: str, *, kind: str | None = None, attribute: str | None = None,
                 value: str | None = None, valid_from: datetime | None = None,
                 importance: float | None = None, command_id: str | None = None,
                 wait: bool = True, **more: Any) -> _Call[WriteAccepted]:
        body = {"content": content, "kind": kind, "attribute": attribute, "value": value,
                "valid_from": valid_from, "importance": importance, "command_id": command_id, **more}
        return _Call("POST", "/v1/users/{user_id}/memories", WriteAccepted, _user(user_id),
                     {"wait": wait}, body)

    @staticmethod
    def memories(user_id: str, *, kind: str | None = None, status: str | None = None,
                 attribute: str | None = None, valid_at: datetime | None = None,
                 known_at: datetime | None = None, offset: int = 0, limit: int = 50) -> _Call[MemoryPage]:
        return _Call("GET", "/v1/users/{user_id}/memories", MemoryPage, _user(user_id), {
            "kind": kind, "status": status, "attribute": attribute, "valid_at": valid_at,
            "known_at": known_at, "offset": offset, "limit": limit})

    @staticmethod
    def memory(user_id: str, memory_id: str) -> _Call[MemoryView]:
        return _Call("GET", "/v1/users/{user_id}/memories/{memory_id}", MemoryView,
                     {"user_id": user_id, "memory_id": memory_id})

    @staticmethod
    def timeline(user_id: str, attribute: str, *, offset: int = 0, limit: int = 100) -> _Call[MemoryPage]:
        return _Call("GET", "/v1/users/{user_id}/timeline", MemoryPage, _user(user_id),
                     {"attribute": attribute, "offset": offset, "limit": limit})

    @staticmethod
    def search(user_id: str, query: str, *, limit: int = 10, valid_at: datetime | None = None,
               known_at: datetime | None = None, kinds: list[str] | None = None,
               include_history: bool | None = None, context_rules: bool | None = None,
               min_relevance: float | None = None) -> _Call[SearchResponse]:
        return _Call("POST", "/v1/users/{user_id}/search", SearchResponse, _user(user_id), body={
            "query": query, "limit": limit, "valid_at": valid_at, "known_at": known_at, "kinds": kinds,
            "include_history": include_history, "context_rules": context_rules,
            "min_relevance": min_relevance})

    @staticmethod
    def context(user_id: str, message: str, *, token_budget: int = 1000,
                recent_messages: list[dict[str, str]] | None = None, min_relevance: float | None = None,
                relevant_limit: int | None = None) -> _Call[ContextResponse]:
        return _Call("POST", "/v1/users/{user_id}/context", ContextResponse, _user(user_id), body={
            "message": message, "token_budget": token_budget, "recent_messages": recent_messages,
            "min_relevance": min_relevance, "relevant_limit": relevant_limit})

    @staticmethod
    def forget(user_id: str, memory_id: str, *, purge: bool = False,
               wait: bool = True) -> _Call[WriteAccepted]:
        """Forget (restorable); `purge`: delete it for good, with the words it came from."""
        return _Call("DELETE", "/v1/users/{user_id}/memories/{memory_id}", WriteAccepted,
                     {"user_id": user_id, "memory_id": memory_id}, {"wait": wait, "purge": purge or None})

    @staticmethod
    def restore(user_id: str, memory_id: str, *, wait: bool = True) -> _Call[WriteAccepted]:
        return _Call("POST", "/v1/users/{user_id}/memories/{memory_id}/restore", WriteAccepted,
                     {"user_id": user_id, "memory_id": memory_id}, {"wait": wait})

    @staticmethod
    def todos(user_id: str, state: TodoState = "open") -> _Call[TodoPage]:
        return _Call("GET", "/v1/users/{user_id}/todos", TodoPage, _user(user_id), {"state": state})

    @staticmethod
    def profile(user_id: str) -> _Call[ProfileOut]:
        return _Call("GET", "/v1/users/{user_id}/profile", ProfileOut, _user(user_id))

    @staticmethod
    def stats(user_id: str) -> _Call[Stats]:
        return _Call("GET", "/v1/users/{user_id}/stats", Stats, _user(user_id))

    @staticmethod
    def feedback(user_id: str, memory_id: str, verdict: Literal["helpful", "wrong"], *,
                 note: str | None = None, wait: bool = True) -> _Call[WriteAccepted]:
        return _Call("POST", "/v1/users/{user_id}/feedback", WriteAccepted, _user(user_id), {"wait": wait},
                     {"memory_id": memory_id, "verdict": verdict, "note": note})

    @staticmethod
    def erase(user_id: str, *, wait: bool = True) -> _Call[WriteAccepted]:
        return _Call("DELETE", "/v1/users/{user_id}", WriteAccepted, _user(user_id), {"wait": wait})

    @staticmethod
    def whoami() -> _Call[KeyView]:
        return _Call("GET", "/v1/keys/me", KeyView, {})


CALLS = [name for name in vars(_Calls) if not name.startswith("_")]


def _headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


class LoreClient:
    """Blocking client. `api_key`: a key of `lore keys create` (none on a loopback server
    without keys)."""

    def __init__(self, base_url: str = "http://127.0.0.1:8000", api_key: str | None = None,
                 timeout_s: float = 60.0, transport: httpx.BaseTransport | None = None) -> None:
        self._http = httpx.Client(base_url=base_url, headers=_headers(api_key), timeout=timeout_s,
                                  transport=transport)

    def _send(self, call: _Call[M]) -> M:
        return call.read(self._http.request(call.method, call.url(), params=call.query(), json=call.json()))

    def remember(self, user_id: str, content: str, **fields: Any) -> WriteAccepted:
        """Record a memory (applied before the answer, unless wait=False)."""
        return self._send(_Calls.remember(user_id, content, **fields))

    def memories(self, user_id: str, **filters: Any) -> MemoryPage:
        return self._send(_Calls.memories(user_id, **filters))

    def memory(self, user_id: str, memory_id: str) -> MemoryView:
        return self._send(_Calls.memory(user_id, memory_id))

    def timeline(self, user_id: str, attribute: str, **paging: Any) -> MemoryPage:
        return self._send(_Calls.timeline(user_id, attribute, **paging))

    def search(self, user_id: str, query: str, **options: Any) -> SearchResponse:
        return self._send(_Calls.search(user_id, query, **options))

    def context(self, user_id: str, message: str, **options: Any) -> ContextResponse:
        return self._send(_Calls.context(user_id, message, **options))

    def forget(self, user_id: str, memory_id: str, **options: Any) -> WriteAccepted:
        return self._send(_Calls.forget(user_id, memory_id, **options))

    def restore(self, user_id: str, memory_id: str, **options: Any) -> WriteAccepted:
        return self._send(_Calls.restore(user_id, memory_id, **options))

    def todos(self, user_id: str, state: TodoState = "open") -> TodoPage:
        return self._send(_Calls.todos(user_id, state))

    def profile(self, user_id: str) -> ProfileOut:
        return self._send(_Calls.profile(user_id))

    def stats(self, user_id: str) -> Stats:
        return self._send(_Calls.stats(user_id))

    def feedback(self, user_id: str, memory_id: str, verdict: Literal["helpful", "wrong"],
                 **options: Any) -> WriteAccepted:
        """Say a cited memory was helpful, or wrong (its confidence is halved)."""
        return self._send(_Calls.feedback(user_id, memory_id, verdict, **options))

    def erase(self, user_id: str, **options: Any) -> WriteAccepted:
        return self._send(_Calls.erase(user_id, **options))

    def whoami(self) -> KeyView:
        """The tenant and scope of this client's key."""
        return self._send(_Calls.whoami())

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> LoreClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AsyncLoreClient:
    """The same calls, awaitable."""

    def __init__(self, base_url: str = "http://127.0.0.1:8000", api_key: str | None = None,
                 timeout_s: float = 60.0, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._http = httpx.AsyncClient(base_url=base_url, headers=_headers(api_key), timeout=timeout_s,
                                       transport=transport)

    async def _send(self, call: _Call[M]) -> M:
        return call.read(await self._http.request(call.method, call.url(), params=call.query(),
                                                  json=call.json()))

    async def remember(self, user_id: str, content: str, **fields: Any) -> WriteAccepted:
        return await self._send(_Calls.remember(user_id, content, **fields))

    async def memories(self, user_id: str, **filters: Any) -> MemoryPage:
        return await self._send(_Calls.memories(user_id, **filters))

    async def memory(self, user_id: str, memory_id: str) -> MemoryView:
        return await self._send(_Calls.memory(user_id, memory_id))

    async def timeline(self, user_id: str, attribute: str, **paging: Any) -> MemoryPage:
        return await self._send(_Calls.timeline(user_id, attribute, **paging))

    async def search(self, user_id: str, query: str, **options: Any) -> SearchResponse:
        return await self._send(_Calls.search(user_id, query, **options))

    async def context(self, user_id: str, message: str, **options: Any) -> ContextResponse:
        return await self._send(_Calls.context(user_id, message, **options))

    async def forget(self, user_id: str, memory_id: str, **options: Any) -> WriteAccepted:
        return await self._send(_Calls.forget(user_id, memory_id, **options))

    async def restore(self, user_id: str, memory_id: str, **options: Any) -> WriteAccepted:
        return await self._send(_Calls.restore(user_id, memory_id, **options))

    async def todos(self, user_id: str, state: TodoState = "open") -> TodoPage:
        return await self._send(_Calls.todos(user_id, state))

    async def profile(self, user_id: str) -> ProfileOut:
        return await self._send(_Calls.profile(user_id))

    async def stats(self, user_id: str) -> Stats:
        return await self._send(_Calls.stats(user_id))

    async def feedback(self, user_id: str, memory_id: str, verdict: Literal["helpful", "wrong"],
                       **options: Any) -> WriteAccepted:
        return await self._send(_Calls.feedback(user_id, memory_id, verdict, **options))

    async def erase(self, user_id: str, **options: Any) -> WriteAccepted:
        return await self._send(_Calls.erase(user_id, **options))

    async def whoami(self) -> KeyView:
        return await self._send(_Calls.whoami())

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncLoreClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()
