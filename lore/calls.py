"""Every operation of Lore's v1 API, described once (`Calls`): its method, path, parameters, body
and the model its answer is read with. `LoreClient` and `AsyncLoreClient` (lore/client.py) send
the same descriptions; tests/unit/test_client.py checks each against the OpenAPI document the
server publishes, and that no operation of it is left without one."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from lore.schemas import (
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
    SummaryPage,
    TodoPage,
    TopicForgetOut,
    WriteAccepted,
)

M = TypeVar("M", bound=BaseModel)
TodoState = Literal["open", "done", "overdue", "all"]


class LoreError(Exception):
    """An answer other than success: `status` (401, 403, 404, 409, 422, 429, ...), and the API's
    `detail` and `code` (memory_not_found, ...); `line` for a Markdown file's line it could not read."""

    def __init__(self, status: int, detail: Any, code: str | None = None, line: int | None = None) -> None:
        super().__init__(f"{status}: {detail}")
        self.status, self.detail, self.code, self.line = status, detail, code, line


def refusal(response: httpx.Response) -> LoreError:
    try:
        problem = response.json()
    except ValueError:
        problem = {"detail": response.text}
    if not isinstance(problem, dict):
        problem = {"detail": problem}
    return LoreError(response.status_code, problem.get("detail"), problem.get("code"), problem.get("line"))


@dataclass(frozen=True)
class Call(Generic[M]):
    method: str
    path: str  # an OpenAPI path template, e.g. /v1/users/{user_id}/memories
    answer: type[M]
    path_params: dict[str, str] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    body: dict[str, Any] | None = None
    text: str | None = None  # a body sent as is (a Markdown file), not as JSON
    media_type: str = "application/json"

    def url(self) -> str:
        return self.path.format(**{k: quote(v, safe="") for k, v in self.path_params.items()})

    def query(self) -> dict[str, Any]:
        return {k: _plain(v) for k, v in self.params.items() if v is not None}

    def json(self) -> dict[str, Any] | None:
        return None if self.body is None else {k: _plain(v) for k, v in self.body.items() if v is not None}

    def request(self) -> dict[str, Any]:
        """The keyword arguments of httpx's `request` for this call."""
        sent: dict[str, Any] = {"params": self.query()}
        if self.text is not None:
            sent.update(content=self.text.encode(), headers={"Content-Type": self.media_type})
        else:
            sent["json"] = self.json()
        return sent

    def read(self, response: httpx.Response) -> M:
        if response.status_code >= 400:
            raise refusal(response)
        return self.answer.model_validate(response.json())


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bool):
        return value
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    return value


def _user(user_id: str, **more: str) -> dict[str, str]:
    return {"user_id": user_id, **more}


def _memory(user_id: str, memory_id: str) -> dict[str, str]:
    return {"user_id": user_id, "memory_id": memory_id}


class Calls:
    """Every call of the client, described once, named as the client names it."""

    # ---- memories ----------------------------------------------------------------------------

    @staticmethod
    def remember(user_id: str, content: str, *, kind: str | None = None, attribute: str | None = None,
                 value: str | None = None, valid_from: datetime | None = None,
                 importance: float | None = None, command_id: str | None = None,
                 wait: bool = True, **more: Any) -> Call[WriteAccepted]:
        body = {"content": content, "kind": kind, "attribute": attribute, "value": value,
                "valid_from": valid_from, "importance": importance, "command_id": command_id, **more}
        return Call("POST", "/v1/users/{user_id}/memories", WriteAccepted, _user(user_id), {"wait": wait},
                    body)

    @staticmethod
    def memories(user_id: str, *, kind: str | None = None, status: str | None = None,
                 attribute: str | None = None, category: str | None = None, valid_at: datetime | None = None,
                 known_at: datetime | None = None, offset: int = 0, limit: int = 100) -> Call[MemoryPage]:
        return Call("GET", "/v1/users/{user_id}/memories", MemoryPage, _user(user_id), {
            "kind": kind, "status": status, "attribute": attribute, "category": category,
            "valid_at": valid_at, "known_at": known_at, "offset": offset, "limit": limit})

    @staticmethod
    def memory(user_id: str, memory_id: str) -> Call[MemoryView]:
        return Call("GET", "/v1/users/{user_id}/memories/{memory_id}", MemoryView,
                    _memory(user_id, memory_id))

    @staticmethod
    def history(user_id: str, memory_id: str, *, offset: int = 0, limit: int = 100) -> Call[MemoryPage]:
        return Call("GET", "/v1/users/{user_id}/memories/{memory_id}/history", MemoryPage,
                    _memory(user_id, memory_id), {"offset": offset, "limit": limit})

    @staticmethod
    def timeline(user_id: str, attribute: str, *, offset: int = 0, limit: int = 100) -> Call[MemoryPage]:
        return Call("GET", "/v1/users/{user_id}/timeline", MemoryPage, _user(user_id),
                    {"attribute": attribute, "offset": offset, "limit": limit})

    @staticmethod
    def forget(user_id: str, memory_id: str, *, purge: bool = False, reason: str | None = None,
               command_id: str | None = None, wait: bool = True) -> Call[WriteAccepted]:
        """Forget (restorable); `purge`: delete it for good, with the words it came from."""
        return Call("DELETE", "/v1/users/{user_id}/memories/{memory_id}", WriteAccepted,
                    _memory(user_id, memory_id), {"wait": wait, "purge": purge or None, "reason": reason,
                                                  "command_id": command_id})

    @staticmethod
    def restore(user_id: str, memory_id: str, *, command_id: str | None = None,
                wait: bool = True) -> Call[WriteAccepted]:
        return Call("POST", "/v1/users/{user_id}/memories/{memory_id}/restore", WriteAccepted,
                    _memory(user_id, memory_id), {"wait": wait, "command_id": command_id})

    @staticmethod
    def correct(user_id: str, memory_id: str, content: str, *, value: str | None = None,
                command_id: str | None = None, wait: bool = True) -> Call[WriteAccepted]:
        return Call("POST", "/v1/users/{user_id}/memories/{memory_id}/correct", WriteAccepted,
                    _memory(user_id, memory_id), {"wait": wait},
                    {"content": content, "value": value, "command_id": command_id})

    @staticmethod
    def feedback(user_id: str, memory_id: str, verdict: Literal["helpful", "wrong"], *,
                 note: str | None = None, command_id: str | None = None,
                 wait: bool = True) -> Call[WriteAccepted]:
        return Call("POST", "/v1/users/{user_id}/feedback", WriteAccepted, _user(user_id), {"wait": wait},
                    {"memory_id": memory_id, "verdict": verdict, "note": note, "command_id": command_id})

    @staticmethod
    def forget_topic(user_id: str, topic: str, *, dry_run: bool = True, purge: bool = False,
                     since: datetime | None = None, until: datetime | None = None,
                     min_relevance: float | None = None, command_id: str | None = None,
                     wait: bool = True) -> Call[TopicForgetOut]:
        return Call("POST", "/v1/users/{user_id}/forget", TopicForgetOut, _user(user_id), {"wait": wait}, {
            "topic": topic, "dry_run": dry_run, "purge": purge, "since": since, "until": until,
            "min_relevance": min_relevance, "command_id": command_id})

    @staticmethod
    def stats(user_id: str) -> Call[Stats]:
        return Call("GET", "/v1/users/{user_id}/stats", Stats, _user(user_id))

    # ---- conversations and what is made of them ------------------------------------------------

    @staticmethod
    def record_conversation(user_id: str, session_id: str, messages: list[dict[str, Any]], *,
                            episode_id: str | None = None, occurred_at: datetime | None = None,
                            command_id: str | None = None, wait: bool = True) -> Call[WriteAccepted]:
        """`messages`: [{"role": "user" | "assistant" | ..., "content": ..., "timestamp": ...}]."""
        return Call("POST", "/v1/users/{user_id}/episodes", WriteAccepted, _user(user_id), {"wait": wait}, {
            "session_id": session_id, "messages": messages, "episode_id": episode_id,
            "occurred_at": occurred_at, "command_id": command_id})

    @staticmethod
    def end_session(user_id: str, session_id: str, *, command_id: str | None = None,
                    wait: bool = True) -> Call[ExtractionAccepted]:
        return Call("POST", "/v1/users/{user_id}/sessions/{session_id}/end", ExtractionAccepted,
                    _user(user_id, session_id=session_id), {"wait": wait}, {"command_id": command_id})

    @staticmethod
    def extract(user_id: str, episode_id: str, *, model: str | None = None, command_id: str | None = None,
                wait: bool = True) -> Call[ExtractionAccepted]:
        return Call("POST", "/v1/users/{user_id}/extract", ExtractionAccepted, _user(user_id), {"wait": wait},
                    {"episode_id": episode_id, "model": model, "command_id": command_id})

    @staticmethod
    def extraction(user_id: str, extraction_id: str) -> Call[ExtractionState]:
        return Call("GET", "/v1/users/{user_id}/extractions/{extraction_id}", ExtractionState,
                    _user(user_id, extraction_id=extraction_id))

    @staticmethod
    def summaries(user_id: str, *, offset: int = 0, limit: int = 20) -> Call[SummaryPage]:
        return Call("GET", "/v1/users/{user_id}/summaries", SummaryPage, _user(user_id),
                    {"offset": offset, "limit": limit})

    @staticmethod
    def profile(user_id: str, *, version: int | None = None,
                known_at: datetime | None = None) -> Call[ProfileOut]:
        return Call("GET", "/v1/users/{user_id}/profile", ProfileOut, _user(user_id),
                    {"version": version, "known_at": known_at})

    @staticmethod
    def profile_history(user_id: str, *, offset: int = 0, limit: int = 50) -> Call[ProfileHistory]:
        return Call("GET", "/v1/users/{user_id}/profile/history", ProfileHistory, _user(user_id),
                    {"offset": offset, "limit": limit})

    # ---- context and search --------------------------------------------------------------------

    @staticmethod
    def search(user_id: str, query: str, *, limit: int = 10, valid_at: datetime | None = None,
               known_at: datetime | None = None, kinds: list[str] | None = None,
               include_history: bool | None = None, include_messages: bool | None = None,
               types: list[str] | None = None, context_rules: bool | None = None,
               min_relevance: float | None = None, synthesize_questions: bool | None = None,
               recent_messages: list[str] | None = None, mmr_lambda: float | None = None,
               ) -> Call[SearchResponse]:
        return Call("POST", "/v1/users/{user_id}/search", SearchResponse, _user(user_id), body={
            "query": query, "limit": limit, "valid_at": valid_at, "known_at": known_at, "kinds": kinds,
            "include_history": include_history, "include_messages": include_messages, "types": types,
            "context_rules": context_rules, "min_relevance": min_relevance,
            "synthesize_questions": synthesize_questions, "recent_messages": recent_messages,
            "mmr_lambda": mmr_lambda})

    @staticmethod
    def context(user_id: str, message: str, *, token_budget: int = 1000,
                recent_messages: list[dict[str, str]] | None = None, min_relevance: float | None = None,
                relevant_limit: int | None = None, format: Literal["text", "markdown", "json"] | None = None,
                synthesize_questions: bool | None = None) -> Call[ContextResponse]:
        return Call("POST", "/v1/users/{user_id}/context", ContextResponse, _user(user_id), body={
            "message": message, "token_budget": token_budget, "recent_messages": recent_messages,
            "min_relevance": min_relevance, "relevant_limit": relevant_limit, "format": format,
            "synthesize_questions": synthesize_questions})

    # ---- to-dos ------------------------------------------------------------------------------

    @staticmethod
    def add_todo(user_id: str, content: str, *, due_at: datetime | None = None,
                 remind_at: datetime | None = None, importance: float | None = None,
                 command_id: str | None = None, wait: bool = True) -> Call[WriteAccepted]:
        return Call("POST", "/v1/users/{user_id}/todos", WriteAccepted, _user(user_id), {"wait": wait}, {
            "content": content, "due_at": due_at, "remind_at": remind_at, "importance": importance,
            "command_id": command_id})

    @staticmethod
    def todos(user_id: str, state: TodoState = "open", *, offset: int = 0,
              limit: int = 100) -> Call[TodoPage]:
        return Call("GET", "/v1/users/{user_id}/todos", TodoPage, _user(user_id),
                    {"state": state, "offset": offset, "limit": limit})

    @staticmethod
    def complete_todo(user_id: str, todo_id: str, *, completed_at: datetime | None = None,
                      command_id: str | None = None, wait: bool = True) -> Call[WriteAccepted]:
        return Call("POST", "/v1/users/{user_id}/todos/{todo_id}/complete", WriteAccepted,
                    _user(user_id, todo_id=todo_id), {"wait": wait},
                    {"completed_at": completed_at, "command_id": command_id})

    @staticmethod
    def reopen_todo(user_id: str, todo_id: str, *, wait: bool = True) -> Call[WriteAccepted]:
        return Call("POST", "/v1/users/{user_id}/todos/{todo_id}/reopen", WriteAccepted,
                    _user(user_id, todo_id=todo_id), {"wait": wait})

    # ---- the person ------------------------------------------------------------------------------

    @staticmethod
    def settings(user_id: str) -> Call[PersonSettings]:
        return Call("GET", "/v1/users/{user_id}/settings", PersonSettings, _user(user_id))

    @staticmethod
    def configure(user_id: str, *, memory: bool | None = None, extraction: bool | None = None,
                  citations: bool | None = None, temporary: bool | None = None,
                  episode_retention_days: int | None = None, pinned_kinds: list[str] | None = None,
                  command_id: str | None = None, wait: bool = True) -> Call[WriteAccepted]:
        return Call("PUT", "/v1/users/{user_id}/settings", WriteAccepted, _user(user_id), {"wait": wait}, {
            "memory": memory, "extraction": extraction, "citations": citations, "temporary": temporary,
            "episode_retention_days": episode_retention_days, "pinned_kinds": pinned_kinds,
            "command_id": command_id})

    @staticmethod
    def import_markdown(user_id: str, text: str, *, dry_run: bool = True, command_id: str | None = None,
                        wait: bool = True) -> Call[ImportOut]:
        """An edited file of export_markdown: what it changes (dry run), or done as one revision."""
        return Call("POST", "/v1/users/{user_id}/import", ImportOut, _user(user_id),
                    {"format": "markdown", "dry_run": dry_run, "command_id": command_id, "wait": wait},
                    text=text, media_type="text/markdown; charset=utf-8")

    @staticmethod
    def page_link(user_id: str, *, ttl_s: int = 3600,
                  scope: Literal["read", "write"] = "write") -> Call[PageTokenOut]:
        return Call("POST", "/v1/users/{user_id}/page-token", PageTokenOut, _user(user_id),
                    body={"ttl_s": ttl_s, "scope": scope})

    @staticmethod
    def person_run(user_id: str, run_id: str) -> Call[PersonRunStatus]:
        """A write that runs in the background (an erasure, a purge), as it stands."""
        return Call("GET", "/v1/users/{user_id}/runs/{run_id}", PersonRunStatus,
                    {**_user(user_id), "run_id": run_id})

    @staticmethod
    def erase(user_id: str, *, command_id: str | None = None, wait: bool = True) -> Call[WriteAccepted]:
        return Call("DELETE", "/v1/users/{user_id}", WriteAccepted, _user(user_id),
                    {"wait": wait, "command_id": command_id})

    # ---- the deployment --------------------------------------------------------------------------

    @staticmethod
    def maintenance_runs(*, offset: int = 0, limit: int = 20) -> Call[MaintenanceRunPage]:
        return Call("GET", "/v1/maintenance/runs", MaintenanceRunPage,
                    params={"offset": offset, "limit": limit})

    @staticmethod
    def run_maintenance(*, as_of: datetime | None = None, user_id: str | None = None, dry_run: bool = False,
                        run_id: str | None = None) -> Call[MaintenanceRunStatus]:
        """Starts a run (202): follow it with maintenance_run(run_id) until its state is done."""
        return Call("POST", "/v1/maintenance/runs", MaintenanceRunStatus, body={
            "as_of": as_of, "user_id": user_id, "dry_run": dry_run, "run_id": run_id})

    @staticmethod
    def maintenance_run(run_id: str) -> Call[MaintenanceRunStatus]:
        return Call("GET", "/v1/maintenance/runs/{run_id}", MaintenanceRunStatus, {"run_id": run_id})

    @staticmethod
    def whoami() -> Call[KeyView]:
        return Call("GET", "/v1/keys/me", KeyView)

    @staticmethod
    def health() -> Call[Health]:
        return Call("GET", "/v1/health", Health)


CALLS = [name for name in vars(Calls) if not name.startswith("_")]
# Operations answered otherwise than as one JSON model: streams (JSON Lines, Markdown, Server-Sent
# Events), sent by the clients' own methods of these names.
STREAMS = {("GET", "/v1/users/{user_id}/export"): ("export", "export_markdown"),
           ("GET", "/v1/users/{user_id}/changes"): ("changes",),
           ("GET", "/v1/changes"): ("all_changes",)}
