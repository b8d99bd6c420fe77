"""`lore mcp`: Lore's tools for an assistant, over MCP (lore/mcp.py)."""

from __future__ import annotations

import anyio
import typer

from infra.settings import Settings


def mcp(
    url: str = typer.Option(None, help="Lore's HTTP API (default: http://LORE_API_HOST:LORE_API_PORT)."),
    api_key: str = typer.Option(None, envvar="LORE_API_KEY",
                                help="A key of `lore keys create` (LORE_API_KEY); the tools reach its "
                                "tenant's people only. Over --http without it, each MCP client sends "
                                "its own key as `Authorization: Bearer <key>`."),
    http: bool = typer.Option(False, "--http", help="Serve streamable HTTP instead of stdio."),
    port: int = typer.Option(8765, help="Port of the streamable HTTP endpoint (/mcp)."),
) -> None:
    """Serve the MCP tools remember, recall, context, timeline, forget and list_todos, and each
    person's profile as a resource. Over stdio by default: point your assistant's MCP config at
    `lore mcp` with LORE_API_KEY in its environment. With --http and no LORE_API_KEY, every MCP
    client brings its own Lore key, checked with Lore on each request."""
    from lore.client import AsyncLoreClient
    from lore.mcp import KeyPerClient, build_server

    settings = Settings()
    base = url or f"http://{settings.api_host}:{settings.api_port}"

    async def serve() -> None:
        if http and not api_key:
            clients = KeyPerClient(base)
            try:
                await build_server(clients, port=port).run_streamable_http_async(host="127.0.0.1", port=port)
            finally:
                await clients.aclose()
            return
        async with AsyncLoreClient(base, api_key=api_key) as client:
            server = build_server(client)
            if http:
                await server.run_streamable_http_async(host="127.0.0.1", port=port)
            else:
                await server.run_stdio_async()

    anyio.run(serve)
