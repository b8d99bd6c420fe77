"""The MCP server keeps a Lore client per API key: the ones used last, not every key ever seen."""

from __future__ import annotations

import asyncio

import pytest
from mcp.server.auth.provider import AccessToken

import lore.mcp as mcp
from lore.mcp import KeyPerClient


def test_the_least_recently_used_client_beyond_the_bound_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr(mcp, "get_access_token",
                        lambda: AccessToken(token=asked[-1], client_id="c", scopes=["read"]))

    async def scenario() -> None:
        clients = KeyPerClient("http://127.0.0.1:9", keep=2)

        def client_of(key: str) -> object:
            asked.append(key)
            return clients()

        first = client_of("key-a")
        assert client_of("key-a") is first  # the same key: the same client
        second = client_of("key-b")
        assert client_of("key-a") is first  # a is now the most recently used
        client_of("key-c")  # b is the least recently used: closed
        await asyncio.sleep(0)
        await asyncio.gather(*clients._closing)
        assert second._http.is_closed and not first._http.is_closed  # type: ignore[attr-defined]
        again = client_of("key-b")  # a new one, when b comes back; a goes
        assert again is not second
        await clients.aclose()
        await asyncio.gather(*clients._closing)
        assert first._http.is_closed and again._http.is_closed  # type: ignore[attr-defined]

    asyncio.run(scenario())
