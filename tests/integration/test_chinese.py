"""A person who speaks Chinese, on the real stack with LORE_LANGUAGE=zh (issue 31): two
conversations become memories by the offline Chinese rules (a move supersedes the city, an allergy,
a to-do with its day resolved), Chinese questions find them, the context block answers in the
person's language, and a rebuild from the log gives the same graph."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from typer.testing import CliRunner

from domain.extraction.zh.rules import RULES_VERSION as ZH_RULES_VERSION
from infra.settings import Settings
from projections.graph import schema
from projections.graph.fingerprint import fingerprint
from services.api import create_app
from services.bootstrap import bootstrap
from services.cli import app
from services.extraction.extractors import RULES_VERSION
from tests.support.kafka_flow import wait_until
from tests.support.servers import ServerEndpoints

FIRST_DAY = "2026-01-10T10:00:00Z"
MOVE_DAY = "2026-03-14T10:00:00Z"  # a Saturday: 下周五 is the 20th, 上个月 is February


def turns(at: str, *said: tuple[str, str]) -> list[dict[str, str]]:
    return [{"role": role, "content": text, "timestamp": at} for role, text in said]


FIRST = turns(FIRST_DAY, ("user", "你好！我住在南京，平时喜欢骑自行车。"),
              ("assistant", "你好，很高兴认识你。"),
              ("user", "我对芒果过敏，吃了会起疹子。"), ("assistant", "好的，我记住了。"))
SECOND = turns(MOVE_DAY, ("user", "跟你说，我上个月从南京搬到了成都。"), ("assistant", "恭喜！新家怎么样？"),
               ("user", "提醒我下周五去办居住证。"), ("assistant", "好的，到时候提醒你。"),
               ("user", "成都哪里的火锅好吃？"), ("assistant", "可以去玉林路看看。"))


@pytest.fixture()
def settings(servers: ServerEndpoints, tmp_path: Path) -> Settings:
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", language="zh",
                    extraction_poll_s=0.1)


def talk(client: TestClient, session: str, messages: list[dict[str, str]]) -> dict[str, Any]:
    response = client.post("/v1/users/lin/episodes", params={"wait": "true"},
                           json={"session_id": session, "messages": messages})
    assert response.status_code == 202 and response.json()["status"] == "applied", response.text
    ended = client.post(f"/v1/users/lin/sessions/{session}/end", params={"wait": "true"})
    assert ended.status_code == 202, ended.text
    return dict(ended.json()["extraction"])


def search(client: TestClient, query: str) -> list[dict[str, Any]]:
    response = client.post("/v1/users/lin/search", json={"query": query, "types": ["memory"]})
    assert response.status_code == 200, response.text
    return list(response.json()["hits"])


def test_a_chinese_speaker_moves_is_allergic_and_asks_for_a_reminder(client: TestClient, neo4j: Driver,
                                                                     settings: Settings) -> None:
    first = talk(client, "first", FIRST)
    assert first["status"] == "done" and first["extractor"] == f"{RULES_VERSION}+{ZH_RULES_VERSION}", first
    second = talk(client, "second", SECOND)
    assert second["status"] == "done", second

    # The move supersedes the city, from the month it happened.
    items = client.get("/v1/users/lin/timeline", params={"attribute": "home_city"}).json()["items"]
    spans = [(m["value"], m["valid_from"][:10], m["valid_until"] and m["valid_until"][:10]) for m in items]
    assert spans == [("南京", "2026-01-10", "2026-02-01"), ("成都", "2026-02-01", None)]
    records, _, _ = neo4j.execute_query(
        "MATCH (new:Memory {value: '成都'})-[:SUPERSEDES]->(old:Memory {value: '南京'}) "
        "RETURN new.content AS c")
    assert [r["c"] for r in records] == ["2026年2月从南京搬到了成都"]

    # The allergy, and the to-do with its day resolved against when it was said.
    facts = client.get("/v1/users/lin/memories", params={"kind": "fact"}).json()["items"]
    assert "对芒果过敏，吃了会起疹子" in [m["content"] for m in facts]
    (todo,) = client.get("/v1/users/lin/memories", params={"kind": "todo"}).json()["items"]
    assert todo["content"] == "去办居住证" and todo["due_at"].startswith("2026-03-20")
    # A question and the assistant's words gave nothing.
    everything = client.get("/v1/users/lin/memories").json()["items"]
    assert not any("火锅" in m["content"] or "玉林路" in m["content"] for m in everything)

    # Both sessions summarized offline, in Chinese, and the profile written.
    def summarized() -> bool:
        found = client.get("/v1/users/lin/summaries").json()["summaries"]
        lore = client.app.state.lore  # type: ignore[attr-defined]
        pending = any(s["pending"] for s in found) or lore.layer_queries.due_profiles(None)
        return len(found) == 2 and not pending
    wait_until(summarized, "two summaries and the profile")
    newest = client.get("/v1/users/lin/summaries").json()["summaries"][0]
    assert newest["summarized_by"] == "narrative/1+narrative-zh/1", newest
    assert "2026年2月从南京搬到了成都" in newest["summary"], newest
    assert "请求提醒：去办居住证" in newest["summary"], newest
    assert "成都" in newest["topics"], newest
    profile = client.get("/v1/users/lin/profile").json()
    moved = "此人住在成都（自2026年2月1日起；之前是南京，自2026年1月10日起）"
    assert profile["narrative"].startswith(moved), profile
    assert {"key": "home_city", "value": "成都"} in profile["basic_info"]

    # A rebuild from the log gives the same graph, and asks no rule again (before any search: a
    # search's uses are recorded after it answers).
    live = fingerprint(neo4j)
    lore = bootstrap(settings)
    try:
        lore.projector.rebuild(lore.event_log)
    finally:
        lore.close()
    assert fingerprint(neo4j) == live

    # Chinese questions find them by their words.
    assert "芒果" in search(client, "我对什么过敏？")[0]["content"]
    assert "居住证" in search(client, "我要办什么证件")[0]["content"]
    assert "成都" in search(client, "我从南京搬去了哪里？")[0]["content"]

    # The context block speaks Chinese and carries the to-do and the allergy.
    block = client.post("/v1/users/lin/context", json={"message": "我下周有什么要办的事？"}).json()
    text = block["text"]
    assert text.startswith("关于这个人你所知道的（截至") and "待办" in text, text
    assert "去办居住证（2026-03-20前）" in text, text
    assert block["instruction"].startswith("这些笔记")


def test_a_store_refuses_another_language_until_lore_language_moves_it(client: TestClient, neo4j: Driver,
                                                                      settings: Settings) -> None:
    made = client.post("/v1/users/lin/memories", params={"wait": "true"},
                       json={"content": "对芒果过敏", "kind": "fact"})
    assert made.status_code == 202, made.text
    english = settings.model_copy(update={"language": "en"})
    env = {"LORE_NEO4J_URI": settings.neo4j_uri, "LORE_HOME": str(settings.home), "LORE_EMBEDDER": "none"}
    with TestClient(create_app(lambda: bootstrap(english))) as other:
        refused = other.post("/v1/users/lin/memories", params={"wait": "true"},
                             json={"content": "Likes green tea", "kind": "preference"})
        assert refused.status_code == 503 and "lore language en" in refused.text, refused.text

        moved = CliRunner().invoke(app, ["language", "en"], env=env)
        assert moved.exit_code == 0, moved.output
        assert schema.store_language(neo4j) == "en"
        again = other.post("/v1/users/lin/memories", params={"wait": "true"},
                           json={"content": "Likes green tea", "kind": "preference"})
        assert again.status_code == 202, again.text
    back = CliRunner().invoke(app, ["language", "zh"], env=env)
    assert back.exit_code == 0, back.output
    assert schema.store_language(neo4j) == "zh"
    # Its Chinese words are found again, by the indexes made over what the projection wrote.
    hits = client.post("/v1/users/lin/search", json={"query": "芒果", "types": ["memory"]}).json()["hits"]
    assert hits and hits[0]["content"] == "对芒果过敏"


def test_a_question_names_an_entity_whole_not_by_one_character(client: TestClient, neo4j: Driver) -> None:
    talk(client, "first", FIRST)
    talk(client, "second", SECOND)
    records, _, _ = neo4j.execute_query(
        "MATCH (e:Entity {user_id: 'lin'}) RETURN e.name AS name, e.entity_id AS id")
    ids = {r["name"]: r["id"] for r in records}
    assert {"南京", "成都"} <= ids.keys(), ids
    queries = client.app.state.lore.search.queries  # type: ignore[attr-defined]
    assert queries.naming("lin", "成都的冬天冷吗？") == ([{"id": ids["成都"], "score": 1.0}], None)
    # 京 of 南京, 都 of 成都: Lucene's characters would match these; no entity is named.
    assert queries.naming("lin", "京剧和都市剧哪个好看？") == ([], None)
