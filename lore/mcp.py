"""Lore as an MCP server (the official `mcp` SDK): an assistant remembers, recalls and reads a
person's context through tools, over stdio (a desktop assistant starts `lore mcp`) or streamable
HTTP (`lore mcp --http`).

It talks to a running Lore through `lore.client`, with an API key of a tenant, so keys and
tenants apply exactly as on the HTTP API: the MCP server can reach no one its key cannot.

- One key for the server (`LORE_API_KEY`): what a desktop assistant starting `lore mcp` over
  stdio wants; every call goes with that key.
- A key per MCP client (streamable HTTP without LORE_API_KEY): each client sends its own Lore key
  as `Authorization: Bearer <key>`; the server checks it with Lore (GET /v1/keys/me) on every
  request, so a revoked key stops at once, and calls Lore with it. Two assistants sharing one MCP
  server reach their own tenants only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from collections import OrderedDict
from datetime import datetime
from typing import Any

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken, TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer

from lore.client import AsyncLoreClient, LoreError, TodoState

INSTRUCTIONS = (
    "Lore remembers what people tell you between conversations. Call `context` with the person's "
    "message before answering and put what it returns in your prompt; send each exchange with "
    "`record_turns` and call `end_session` when the conversation is over (Lore takes memories from "
    "it); call `remember` when they tell you a lasting fact or preference (one per fact, in their "
    "words); `recall` searches; `timeline` shows how one preference changed; `forget` when they ask "
    "you to; `list_todos` and `complete_todo` for their to-dos."
)


def _brief(memory: Any) -> dict[str, Any]:
    return {"memory_id": memory.memory_id, "content": memory.content, "kind": memory.kind,
            "attribute": memory.attribute, "value": memory.value,
            "valid_from": memory.valid_from.isoformat() if memory.valid_from else None,
            "valid_until": memory.valid_until.isoformat() if memory.valid_until else None}


class LoreKeys(TokenVerifier):
    """An MCP client's bearer token is a Lore API key: valid while Lore says so."""

    def __init__(self, lore_url: str) -> None:
        self.lore_url = lore_url

    async def verify_token(self, token: str) -> AccessToken | None:
        async with AsyncLoreClient(self.lore_url, api_key=token) as lore:
            try:
                key = await lore.whoami()
            except LoreError as refused:
                if refused.status in (401, 403, 429):
                    return None
                raise
        return AccessToken(token=token, client_id=key.key_id or key.tenant, scopes=[key.scope],
                           subject=key.tenant)


class KeyPerClient:
    """A Lore client for the key of the MCP request being answered. The clients of the keys
    used last are kept (each holds its connections); the least recently used one beyond `keep`
    is closed."""

    def __init__(self, lore_url: str, keep: int = 256) -> None:
        self.lore_url = lore_url
        self.keep = keep
        self._clients: OrderedDict[str, AsyncLoreClient] = OrderedDict()
        self._closing: set[asyncio.Task[None]] = set()

    def __call__(self) -> AsyncLoreClient:
        token = get_access_token()
        if token is None:  # the SDK's bearer middleware lets no such request through
            raise PermissionError("no Lore API key came with this request")
        client = self._clients.pop(token.token, None) or AsyncLoreClient(self.lore_url, api_key=token.token)
        self._clients[token.token] = client
        while len(self._clients) > self.keep:
            _, oldest = self._clients.popitem(last=False)
            # Closed in the background: the least recently used key has no request under way.
            task = asyncio.get_running_loop().create_task(oldest.aclose())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        return client

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.aclose()
        self._clients.clear()


def build_server(client: AsyncLoreClient | KeyPerClient, *, host: str = "127.0.0.1",
                 port: int = 8765) -> MCPServer:
    """The MCP server, calling Lore through `client` (whose key decides whom it can reach), or,
    given a KeyPerClient, with each MCP client's own key, asked for at `http://host:port/mcp`."""
    def lore() -> AsyncLoreClient:
        return client() if isinstance(client, KeyPerClient) else client

    auth: dict[str, Any] = {}
    if isinstance(client, KeyPerClient):
        auth = {"token_verifier": LoreKeys(client.lore_url),
                "auth": AuthSettings(issuer_url=client.lore_url,  # type: ignore[arg-type]
                                     resource_server_url=f"http://{host}:{port}/mcp")}  # type: ignore[arg-type]
    server = MCPServer(name="lore", title="Lore memory", instructions=INSTRUCTIONS, **auth)

    @server.tool()
    async def remember(user_id: str, content: str, kind: str | None = None, attribute: str | None = None,
                       value: str | None = None) -> dict[str, Any]:
        """Remember something the person said. `kind`: fact, preference, event, todo, ...;
        for a preference, `attribute` (the slot, e.g. editor_theme) and `value` (dark)."""
        done = await lore().remember(user_id, content, kind=kind, attribute=attribute, value=value)
        return done.model_dump()

    @server.tool()
    async def recall(user_id: str, query: str, limit: int = 10,
                     valid_at: str | None = None) -> list[dict[str, Any]]:
        """Search what Lore remembers of the person (now, or as it was at `valid_at`, ISO time):
        memories, and turns of past conversations."""
        when = datetime.fromisoformat(valid_at) if valid_at else None
        found = await lore().search(user_id, query, limit=limit, valid_at=when)
        return [{"type": hit.type, "id": hit.id, "content": hit.content, "kind": hit.kind,
                 "score": round(hit.score, 4)} for hit in found.hits]

    @server.tool()
    async def context(user_id: str, message: str, token_budget: int = 800) -> str:
        """What to know about the person before answering `message`: a block for the prompt."""
        return (await lore().context(user_id, message, token_budget=token_budget)).text

    @server.tool()
    async def timeline(user_id: str, attribute: str) -> list[dict[str, Any]]:
        """The values one slot (e.g. editor_theme) held over time, oldest first."""
        return [_brief(m) for m in (await lore().timeline(user_id, attribute)).items]

    @server.tool()
    async def forget(user_id: str, memory_id: str, purge: bool = False) -> dict[str, Any]:
        """Forget one memory (restorable by the person). `purge`: only when the person asks to delete
        it for good — it and the words it came from become unreadable, and it cannot be restored."""
        try:
            return (await lore().forget(user_id, memory_id, purge=purge)).model_dump()
        except LoreError as error:
            return {"error": error.code or str(error.status), "detail": error.detail}

    @server.tool()
    async def list_todos(user_id: str, state: TodoState = "open") -> list[dict[str, Any]]:
        """The person's to-dos, by due time."""
        page = await lore().todos(user_id, state)
        return [{**_brief(t), "due_at": t.due_at.isoformat() if t.due_at else None} for t in page.items]

    @server.tool()
    async def record_turns(user_id: str, session_id: str, turns: list[dict[str, str]]) -> dict[str, Any]:
        """Record turns of the conversation with the person: `turns` is a list of {"role": "user" |
        "assistant", "content": ...}, in order; send each exchange as it happens. Lore takes memories
        from them (when the session ends, or as it goes)."""
        done = await lore().record_conversation(user_id, session_id, [dict(t) for t in turns])
        return done.model_dump()

    @server.tool()
    async def end_session(user_id: str, session_id: str) -> dict[str, Any]:
        """The conversation is over: Lore takes its memories and writes its summary (and the profile)."""
        try:
            return (await lore().end_session(user_id, session_id)).model_dump(mode="json")
        except LoreError as error:
            return {"error": error.code or str(error.status), "detail": error.detail}

    @server.tool()
    async def complete_todo(user_id: str, todo_id: str) -> dict[str, Any]:
        """Mark one of the person's to-dos (an id of `list_todos`) done."""
        try:
            return (await lore().complete_todo(user_id, todo_id)).model_dump()
        except LoreError as error:
            return {"error": error.code or str(error.status), "detail": error.detail}

    @server.resource("lore://users/{user_id}/profile", mime_type="application/json")
    async def profile(user_id: str) -> str:
        """Who the person is: the profile Lore keeps of them."""
        return json.dumps((await lore().profile(user_id)).model_dump(mode="json"))

    return server


def main(argv: list[str] | None = None) -> None:
    """`lore-mcp`: serve the MCP tools (record_turns, end_session, context, remember, recall, timeline,
    forget, list_todos, complete_todo) and each person's profile as a resource. Over stdio by
    default: point your assistant's MCP config at `lore-mcp` with LORE_API_KEY in its environment.
    With --http and no LORE_API_KEY, every MCP client brings its own Lore key, checked with Lore on
    each request."""
    parser = argparse.ArgumentParser(prog="lore-mcp", description=main.__doc__)
    parser.add_argument("--url", default=None,
                        help="Lore's HTTP API (default: http://LORE_API_HOST:LORE_API_PORT, 127.0.0.1:8000).")
    parser.add_argument("--api-key", default=os.environ.get("LORE_API_KEY"),
                        help="A key of `lore keys create` (LORE_API_KEY): the tools reach its tenant's "
                        "people only. Over --http without it, each MCP client sends its own (Bearer).")
    parser.add_argument("--http", action="store_true", help="Serve streamable HTTP instead of stdio.")
    parser.add_argument("--port", type=int, default=8765, help="Port of the streamable HTTP endpoint (/mcp).")
    args = parser.parse_args(argv)
    base = args.url or (f"http://{os.environ.get('LORE_API_HOST', '127.0.0.1')}:"
                        f"{os.environ.get('LORE_API_PORT', '8000')}")

    async def serve() -> None:
        if args.http and not args.api_key:
            clients = KeyPerClient(base)
            try:
                await build_server(clients, port=args.port).run_streamable_http_async(host="127.0.0.1",
                                                                                      port=args.port)
            finally:
                await clients.aclose()
            return
        async with AsyncLoreClient(base, api_key=args.api_key) as client:
            server = build_server(client)
            if args.http:
                await server.run_streamable_http_async(host="127.0.0.1", port=args.port)
            else:
                await server.run_stdio_async()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
