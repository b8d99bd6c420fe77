"""Lore as an MCP server (the official `mcp` SDK): an assistant remembers, recalls and reads a
person's context through tools, over stdio (a desktop assistant starts `lore mcp`) or streamable
HTTP (`lore mcp --http`).

It talks to a running Lore through `lore.client`, with an API key of a tenant, so keys and
tenants apply exactly as on the HTTP API: the MCP server can reach no one its key cannot.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from mcp.server.mcpserver import MCPServer

from lore.client import AsyncLoreClient, LoreError, TodoState

INSTRUCTIONS = (
    "Lore remembers what people tell you between conversations. Call `context` with the person's "
    "message before answering and put what it returns in your prompt; call `remember` when they "
    "tell you a lasting fact or preference (one per fact, in their words); `recall` searches; "
    "`timeline` shows how one preference changed; `forget` when they ask you to."
)


def _brief(memory: Any) -> dict[str, Any]:
    return {"memory_id": memory.memory_id, "content": memory.content, "kind": memory.kind,
            "attribute": memory.attribute, "value": memory.value,
            "valid_from": memory.valid_from.isoformat() if memory.valid_from else None,
            "valid_until": memory.valid_until.isoformat() if memory.valid_until else None}


def build_server(client: AsyncLoreClient) -> MCPServer:
    """The MCP server, calling Lore through `client` (whose key decides whom it can reach)."""
    server = MCPServer(name="lore", title="Lore memory", instructions=INSTRUCTIONS)

    @server.tool()
    async def remember(user_id: str, content: str, kind: str | None = None, attribute: str | None = None,
                       value: str | None = None) -> dict[str, Any]:
        """Remember something the person said. `kind`: fact, preference, event, todo, ...;
        for a preference, `attribute` (the slot, e.g. editor_theme) and `value` (dark)."""
        done = await client.remember(user_id, content, kind=kind, attribute=attribute, value=value)
        return done.model_dump()

    @server.tool()
    async def recall(user_id: str, query: str, limit: int = 10,
                     valid_at: str | None = None) -> list[dict[str, Any]]:
        """Search what Lore remembers of the person (now, or as it was at `valid_at`, ISO time):
        memories, and turns of past conversations."""
        when = datetime.fromisoformat(valid_at) if valid_at else None
        found = await client.search(user_id, query, limit=limit, valid_at=when)
        return [{"type": hit.type, "id": hit.id, "content": hit.content, "kind": hit.kind,
                 "score": round(hit.score, 4)} for hit in found.hits]

    @server.tool()
    async def context(user_id: str, message: str, token_budget: int = 800) -> str:
        """What to know about the person before answering `message`: a block for the prompt."""
        return (await client.context(user_id, message, token_budget=token_budget)).text

    @server.tool()
    async def timeline(user_id: str, attribute: str) -> list[dict[str, Any]]:
        """The values one slot (e.g. editor_theme) held over time, oldest first."""
        return [_brief(m) for m in (await client.timeline(user_id, attribute)).items]

    @server.tool()
    async def forget(user_id: str, memory_id: str) -> dict[str, Any]:
        """Forget one memory (restorable by the person)."""
        try:
            return (await client.forget(user_id, memory_id)).model_dump()
        except LoreError as error:
            return {"error": error.code or str(error.status), "detail": error.detail}

    @server.tool()
    async def list_todos(user_id: str, state: TodoState = "open") -> list[dict[str, Any]]:
        """The person's to-dos, by due time."""
        page = await client.todos(user_id, state)
        return [{**_brief(t), "due_at": t.due_at.isoformat() if t.due_at else None} for t in page.items]

    @server.resource("lore://users/{user_id}/profile", mime_type="application/json")
    async def profile(user_id: str) -> str:
        """Who the person is: the profile Lore keeps of them."""
        return json.dumps((await client.profile(user_id)).model_dump(mode="json"))

    return server
