"""The Python client and the MCP server against a real Lore (uvicorn over the real Neo4j, keys
on): what the client remembers it finds, sync and async; the `mcp` SDK's own client drives
`lore-mcp` over stdio: remember, then recall finds it; and the key's tenant bounds both."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from neo4j import Driver

from domain.access import Scope
from infra.apikeys.sqlite import SqliteApiKeyStore
from infra.local.process import free_port
from infra.settings import Settings
from lore.client import AsyncLoreClient, LoreClient, LoreError
from tests.support.api_server import api_key, running_api
from tests.support.kafka_flow import wait_until
from tests.support.servers import ServerEndpoints


@pytest.fixture()
def lore_url(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[tuple[str, Settings]]:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", auth="keys")
    with running_api(settings) as url:
        yield url, settings


def test_the_client_remembers_and_finds_sync_and_async(lore_url: tuple[str, Settings]) -> None:
    url, settings = lore_url
    acme = api_key(settings, "acme")
    with LoreClient(url, api_key=acme) as lore:
        done = lore.remember("ada", "Ada prefers the dark editor theme", kind="preference",
                             attribute="editor_theme", value="dark")
        assert done.status == "applied" and done.memory_id
        assert [m.value for m in lore.timeline("ada", "editor_theme").items] == ["dark"]
        assert lore.search("ada", "editor theme").hits[0].id == done.memory_id
        assert lore.memory("ada", done.memory_id).content == "Ada prefers the dark editor theme"
        with pytest.raises(LoreError) as missing:
            lore.forget("ada", "no-such-memory")
        assert missing.value.status == 404 and missing.value.code == "memory_not_found"
    with LoreClient(url, api_key=api_key(settings, "globex")) as other:
        assert other.memories("ada").items == []  # another tenant's ada
    with LoreClient(url) as anonymous, pytest.raises(LoreError) as refused:
        anonymous.memories("ada")
    assert refused.value.status == 401

    async def asynchronously() -> list[str]:
        async with AsyncLoreClient(url, api_key=acme) as lore:
            await lore.remember("ada", "Ada's cat is called Miso", kind="fact")
            return [m.content for m in (await lore.memories("ada", kind="fact")).items]

    assert asyncio.run(asynchronously()) == ["Ada's cat is called Miso"]


def test_the_mcp_sdks_client_remembers_then_recalls_through_lore_mcp(lore_url: tuple[str, Settings]) -> None:
    url, settings = lore_url
    server = StdioServerParameters(command=sys.executable, args=["-m", "lore.mcp", "--url", url],
                                   env={**os.environ, "LORE_API_KEY": api_key(settings, "acme")},
                                   cwd=str(Path(__file__).resolve().parents[2]))

    async def session() -> tuple[set[str], str, str]:
        async with Client(server, read_timeout_seconds=120) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            remembered = await client.call_tool("remember", {
                "user_id": "ada", "content": "Ada is learning the cello", "kind": "fact"})
            assert not remembered.is_error, remembered
            recalled = await client.call_tool("recall", {"user_id": "ada", "query": "which cello?"})
            context = await client.call_tool("context", {"user_id": "ada",
                                                         "message": "Any tips for my cello lessons?"})
            return tools, str(recalled.content), str(context.content)

    tools, recalled, context = asyncio.run(session())
    assert {"remember", "recall", "context", "timeline", "forget", "list_todos"} <= tools
    assert "Ada is learning the cello" in recalled, recalled
    assert "cello" in context
    # The key's tenant: acme's ada has the memory, the default tenant's ada does not.
    with LoreClient(url, api_key=api_key(settings, "default")) as operator:
        assert operator.memories("ada").items == []


def test_over_http_each_mcp_client_brings_its_own_key(lore_url: tuple[str, Settings], tmp_path: Path) -> None:
    """One `lore-mcp --http` for two assistants: each sends its own Lore key and reaches its own
    tenant's ada; no key, a bad key or a revoked one is refused (401) before any tool runs."""
    url, settings = lore_url
    acme, globex = api_key(settings, "acme"), api_key(settings, "globex")
    port = free_port()
    log = (tmp_path / "mcp.log").open("wb")
    mcp_server = subprocess.Popen(
        [sys.executable, "-m", "lore.mcp", "--http", "--url", url, "--port", str(port)],
        env={k: v for k, v in os.environ.items() if k != "LORE_API_KEY"},
        stdout=log, stderr=subprocess.STDOUT, cwd=str(Path(__file__).resolve().parents[2]))
    endpoint = f"http://127.0.0.1:{port}/mcp"

    def listening() -> bool:
        try:
            return httpx.post(endpoint, json={}, timeout=2).status_code == 401
        except httpx.HTTPError:
            return False

    async def as_client(key: str, content: str | None, query: str) -> str:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=120)
        transport = streamable_http_client(endpoint, http_client=http)
        async with Client(transport, read_timeout_seconds=120) as client:
            if content:
                remembered = await client.call_tool("remember", {"user_id": "ada", "content": content})
                assert not remembered.is_error, remembered
            return str((await client.call_tool("recall", {"user_id": "ada", "query": query})).content)

    try:
        wait_until(listening, "lore-mcp --http to listen", workers=[mcp_server])
        assert "plays the oboe" in asyncio.run(as_client(acme, "Ada plays the oboe", "oboe"))
        assert "lives in Oslo" in asyncio.run(as_client(globex, "Ada lives in Oslo", "Oslo"))
        assert "oboe" not in asyncio.run(as_client(globex, None, "oboe"))  # acme's ada is not globex's
        assert "Oslo" not in asyncio.run(as_client(acme, None, "Oslo"))
        store = SqliteApiKeyStore(settings.home / "api-keys.sqlite3")
        store.revoke(next(k.key_id for k in store.all() if k.tenant == "globex"))
        store.close()
        for key in (None, "lore_not-a-real-key", globex):  # none, never made, revoked just now
            headers = {"Accept": "application/json, text/event-stream"}
            if key:
                headers["Authorization"] = f"Bearer {key}"
            listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
            answer = httpx.post(endpoint, headers=headers, json=listing)
            assert answer.status_code == 401, answer.text
    finally:
        mcp_server.terminate()
        mcp_server.wait(30)
        log.close()


CHAT = [{"role": "user", "content": "Morning! I moved to Lisbon last month."},
        {"role": "assistant", "content": "Thank you for telling me."},
        {"role": "user", "content": "And my favourite colour is green."},
        {"role": "assistant", "content": "Lovely."}]


def test_the_client_carries_the_whole_loop_and_the_persons_controls(lore_url: tuple[str, Settings]) -> None:
    """Record a conversation, end it, read what came of it (memories, summary, profile), to-dos,
    settings, forget / restore, a correction, feedback, export (JSON Lines and Markdown), a Markdown
    import, paging, and a page link that reaches its person only."""
    url, settings = lore_url
    with LoreClient(url, api_key=api_key(settings, "acme")) as lore:
        said = lore.record_conversation("ada", "s1", CHAT, episode_id="e1")
        assert said.status == "applied"
        ended = lore.end_session("ada", "s1")
        assert ended.status in ("accepted", "applied", "duplicate"), ended
        wait_until(lambda: any("Lisbon" in m.content for m in lore.iter_memories("ada")),
                   "a memory taken from the conversation")
        wait_until(lambda: list(lore.iter_summaries("ada")) and lore.profile("ada").version >= 1,
                   "the session's summary and the profile")
        (summary,) = lore.summaries("ada").items
        with pytest.warns(DeprecationWarning):  # the old field, kept one release
            assert summary.session_id == "s1" and lore.summaries("ada").summaries == [summary]
        assert [p.version for p in lore.iter_profile_versions("ada")][-1] == 1
        assert "Lisbon" in lore.context("ada", "Where do I live now?").text

        todo = lore.add_todo("ada", "Renew the passport").memory_id or ""
        assert [t.memory_id for t in lore.iter_todos("ada")] == [todo]
        assert lore.complete_todo("ada", todo).status == "applied"
        assert lore.todos("ada").items == []
        assert [t.memory_id for t in lore.todos("ada", "done").items] == [todo]
        lore.reopen_todo("ada", todo)
        assert [t.memory_id for t in lore.todos("ada").items] == [todo]

        lore.configure("ada", citations=False)
        assert lore.settings("ada").citations is False
        cat = lore.remember("ada", "Ada's cat is called Mango", kind="fact").memory_id or ""
        lore.forget("ada", cat)
        assert [m.memory_id for m in lore.memories("ada", status="forgotten").items] == [cat]
        lore.restore("ada", cat)
        fixed = lore.correct("ada", cat, "Ada's cat is called Miso")
        assert fixed.memory_id and fixed.memory_id != cat
        assert [m.content for m in lore.history("ada", fixed.memory_id).items] == [
            "Ada's cat is called Mango", "Ada's cat is called Miso"]  # the old wording kept
        assert lore.feedback("ada", fixed.memory_id, "helpful").status == "applied"
        assert lore.memory("ada", fixed.memory_id).helpful_count == 1

        exported = list(lore.export("ada"))
        assert exported[0]["type"] == "export" and any(r.get("content") == "Ada's cat is called Miso"
                                                       for r in exported)
        text = lore.export_markdown("ada")
        assert "- Ada's cat is called Miso" in text and "Renew the passport" in text
        edited = text.replace("- Ada's cat is called Miso", "- Ada's cat is called Miso Soup")
        planned = lore.import_markdown("ada", edited)
        assert planned.dry_run and planned.corrected == 1
        assert lore.memory("ada", fixed.memory_id).status == "active"  # a dry run changes nothing
        with pytest.raises(LoreError) as bad:
            lore.import_markdown("ada", edited.replace("## Facts", "## Facts\n* not a line Lore reads"))
        assert bad.value.status == 422 and bad.value.line, bad.value.detail

        for n in range(5):
            lore.remember("bo", f"Bo's note number {n}", kind="fact")
        paged = [m.content for m in lore.iter_memories("bo", limit=2)]
        assert sorted(paged) == [f"Bo's note number {n}" for n in range(5)]

        link = lore.page_link("ada", ttl_s=600, scope="read")
        assert link.user_id == "ada" and link.url.startswith("/ui/open?token=")
    with LoreClient(url, api_key=link.token) as ada_only:
        assert ada_only.whoami().user_id == "ada"
        assert any(m.content == "Ada's cat is called Miso" for m in ada_only.iter_memories("ada"))
        with pytest.raises(LoreError) as other:
            ada_only.memories("bo")
        assert other.value.status == 403 and other.value.code == "not_this_person"
        with pytest.raises(LoreError) as read_only:
            ada_only.remember("ada", "something")
        assert read_only.value.status == 403
    with LoreClient(url, api_key=api_key(settings, "acme", Scope.ADMIN)) as admin:
        assert admin.health().status == "ok"
        assert admin.stats("ada").by_status["active"] >= 2


def test_the_mcp_sdks_client_runs_the_assistants_loop(lore_url: tuple[str, Settings]) -> None:
    """Through `lore-mcp` alone: record the turns, end the session, the context block, remember,
    recall, list the to-dos and complete one, forget."""
    url, settings = lore_url
    server = StdioServerParameters(command=sys.executable, args=["-m", "lore.mcp", "--url", url],
                                   env={**os.environ, "LORE_API_KEY": api_key(settings, "acme")},
                                   cwd=str(Path(__file__).resolve().parents[2]))

    async def session() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Client(server, read_timeout_seconds=120) as client:
            async def call(tool: str, **arguments: Any) -> Any:
                answer = await client.call_tool(tool, {"user_id": "ada", **arguments})
                assert not answer.is_error, (tool, answer)
                found = answer.structured_content or {}
                return found.get("result", found)  # a list or a string comes as {"result": ...}

            seen["turns"] = await call("record_turns", session_id="s1", turns=CHAT)
            seen["end"] = await call("end_session", session_id="s1")
            await call("remember", content="Renew the passport", kind="todo")
            (todo,) = await call("list_todos")
            seen["complete"] = await call("complete_todo", todo_id=todo["memory_id"])
            seen["open_after"] = await call("list_todos")
            for _ in range(600):  # the memories of the conversation, once extraction has run
                seen["recall"] = await call("recall", query="Lisbon")
                if any("Lisbon" in hit["content"] for hit in seen["recall"] if hit["type"] == "memory"):
                    break
                await asyncio.sleep(0.2)
            seen["context"] = await call("context", message="Where do I live now?")
            (lisbon,) = [hit["id"] for hit in seen["recall"]
                         if hit["type"] == "memory" and "Lisbon" in hit["content"]]
            seen["forget"] = await call("forget", memory_id=lisbon)
            seen["recall_after"] = await call("recall", query="Lisbon")
        return seen

    seen = asyncio.run(session())
    assert seen["turns"]["status"] == "applied", seen["turns"]
    assert "error" not in seen["end"] and seen["complete"]["status"] == "applied", seen
    assert seen["open_after"] == []
    assert "Lisbon" in seen["context"], seen["context"]
    assert seen["forget"]["status"] == "applied"
    assert not any(hit["type"] == "memory" and "Lisbon" in hit["content"] for hit in seen["recall_after"])
