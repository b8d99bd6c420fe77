"""Search over the real Neo4j: as of a time, never forgotten memories, never another person's,
whatever characters a query holds; conversation turns found on their own; the context block."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from infra.settings import Settings
from projections.graph.decision_state import GraphDecisionReads
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.chat_stub import chat_stub
from tests.support.kafka_flow import wait_until
from tests.support.servers import ServerEndpoints


@pytest.fixture()
def client(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path)  # the local embedding model
    with TestClient(create_app(lambda: bootstrap(settings))) as test_client:
        yield test_client


def remember(client: TestClient, user: str, content: str, **fields: object) -> str:
    response = client.post(f"/v1/users/{user}/memories", params={"wait": "true"},
                           json={"content": content, **fields})
    assert response.status_code == 202, response.text
    return str(response.json()["memory_id"])


def search(client: TestClient, user: str, query: str, **fields: object) -> list[dict]:
    response = client.post(f"/v1/users/{user}/search", json={"query": query, **fields})
    assert response.status_code == 200, response.text
    return list(response.json()["hits"])


def colours(client: TestClient) -> None:
    for value, month in (("blue", 1), ("green", 3), ("red", 2)):  # red arrives late, for February
        remember(client, "ada", f"Ada's favourite colour is {value}", kind="preference",
                 attribute="favorite_color", value=value, valid_from=f"2026-{month:02d}-01T00:00:00Z")


def test_as_of_search_answers_the_value_valid_then_and_not_the_current_one(client: TestClient) -> None:
    colours(client)
    remember(client, "ada", "Ada drinks green tea every morning", kind="fact")
    asked = "what is my favourite colour?"
    now = [h["value"] for h in search(client, "ada", asked) if h.get("attribute")]
    assert now == ["green"]
    for month, value in ((1, "blue"), (2, "red"), (3, "green")):
        then = search(client, "ada", asked, valid_at=f"2026-{month:02d}-15T00:00:00Z")
        assert [h["value"] for h in then if h.get("attribute")] == [value]
    history = search(client, "ada", asked, include_history=True)
    assert sorted(h["value"] for h in history if h.get("attribute")) == ["blue", "green", "red"]
    red = next(h for h in history if h.get("value") == "red")
    assert red["status"] == "superseded" and red["superseded_by"] and red["valid_until"]


def test_a_later_memory_that_begins_like_an_earlier_one_leaves_it_where_it_ranks(client: TestClient) -> None:
    # Both true at once: each ranks by what was asked, never below the other for being older
    # (which memory replaces which is decided when it is written, with a slot). Told days apart,
    # so that recency, which the rerank weighs on purpose, does not decide between them.
    told = iter(f"2026-01-{day:02d}T00:00:00Z" for day in range(1, 30, 3))
    peanuts = remember(client, "ada", "Ada is allergic to peanuts", valid_from=next(told))
    shellfish = remember(client, "ada", "Ada is allergic to shellfish", valid_from=next(told))
    rome_2019 = remember(client, "ada", "Ada visited Rome in 2019", valid_from=next(told))
    rome_2023 = remember(client, "ada", "Ada visited Rome in 2023", valid_from=next(told))
    for query, first, second in (("is Ada allergic to peanuts?", peanuts, shellfish),
                                 ("is Ada allergic to shellfish?", shellfish, peanuts),
                                 ("Ada's trip to Rome in 2019", rome_2019, rome_2023),
                                 ("Ada's trip to Rome in 2023", rome_2023, rome_2019)):
        ids = [h["id"] for h in search(client, "ada", query)]
        assert ids.index(first) < ids.index(second), query
    allergies = search(client, "ada", "allergic")
    assert all(set(h["scores"]) <= {"vector", "text", "graph", "rrf"} for h in allergies)


def test_known_at_answers_what_lore_believed_then(client: TestClient) -> None:
    colours(client)  # recorded now: before now, Lore knew nothing
    assert search(client, "ada", "favourite colour", known_at="2020-01-01T00:00:00Z") == []


def test_forgotten_memories_never_appear_and_come_back_when_restored(client: TestClient) -> None:
    secret = remember(client, "ada", "Ada's bank PIN hint is the cat's birthday")
    remember(client, "ada", "Ada's cat is called Turing")
    assert secret in [h["id"] for h in search(client, "ada", "bank PIN hint")]
    assert client.delete(f"/v1/users/ada/memories/{secret}", params={"wait": "true"}).status_code == 202
    for query in ("bank PIN hint", "cat birthday", "Ada"):
        assert secret not in [h["id"] for h in search(client, "ada", query, include_history=True)]
    client.post(f"/v1/users/ada/memories/{secret}/restore", params={"wait": "true"})
    assert secret in [h["id"] for h in search(client, "ada", "bank PIN hint")]


def test_one_persons_search_never_returns_anothers_memory(client: TestClient) -> None:
    theirs = {remember(client, "bob", f"Bob's favourite colour is {c}", entities=["colour"])
              for c in ("yellow", "orange")}
    mine = remember(client, "ada", "Ada's favourite colour is teal", entities=["colour"])
    client.post("/v1/users/bob/episodes", params={"wait": "true"}, json={
        "session_id": "s", "messages": [{"role": "user", "content": "my favourite colour is yellow"}]})
    for query in ("favourite colour", "yellow", "Bob", "colour"):
        found = {h["id"] for h in search(client, "ada", query, include_history=True)}
        assert not found & theirs
        assert all(h["type"] == "memory" for h in search(client, "ada", query))
    assert mine in {h["id"] for h in search(client, "ada", "favourite colour")}


LUCENE_SYNTAX = ['AND OR NOT', '"', ':', '(', ')~', '*?', 'content:x AND user_key:*', '\\', '[a TO z]', '{!}',
                 '-+&&||', 'colour" OR user_key:* OR "', "%s %d ' ; DROP"]


@pytest.mark.parametrize("syntax", LUCENE_SYNTAX)
def test_lucene_syntax_in_a_query_neither_breaks_nor_widens_it(client: TestClient, syntax: str) -> None:
    theory = remember(client, "ada", "Ada likes colour theory")
    remember(client, "ada", "Ada waters the plants on Sundays")
    remember(client, "bob", "Bob hides his colour theory notes")
    for query in (f"colour theory {syntax}", f"{syntax} colour theory", f"colour {syntax} theory"):
        hits = search(client, "ada", query)
        assert hits and hits[0]["id"] == theory, query
        assert "text" in hits[0]["scores"], query  # BM25 found it: the syntax did not break the query
        assert "Bob" not in " ".join(h["content"] for h in hits)


@pytest.mark.parametrize("query", ["   ", "\t\n", "?!", '"()"'])
def test_a_query_without_a_word_is_422_naming_the_query(client: TestClient, query: str) -> None:
    response = client.post("/v1/users/ada/search", json={"query": query})
    assert response.status_code == 422 and "query" in response.text


def test_chinese_text_is_found_by_its_words(client: TestClient) -> None:
    tea = remember(client, "ada", "我每天早上喝绿茶", kind="preference")
    remember(client, "ada", "我在柏林工作", kind="fact")
    hits = search(client, "ada", "绿茶")
    assert hits[0]["id"] == tea and "text" in hits[0]["scores"]


def test_each_turn_of_a_conversation_is_found_with_its_session_and_time(client: TestClient) -> None:
    response = client.post("/v1/users/ada/episodes", params={"wait": "true"}, json={
        "session_id": "spring-chat", "messages": [
            {"role": "user", "content": "Last weekend we hiked up to the glacier near Chamonix",
             "timestamp": "2026-04-12T09:00:00Z"},
            {"role": "assistant", "content": "That sounds wonderful. Was it cold?",
             "timestamp": "2026-04-12T09:00:20Z"},
            {"role": "user", "content": "Freezing, but the view was worth it",
             "timestamp": "2026-04-12T09:01:00Z"},
        ]})
    assert response.status_code == 202
    hits = search(client, "ada", "hiking trip to the glacier")
    top = hits[0]
    assert top["type"] == "message" and "glacier" in top["content"]
    assert top["source"]["session_id"] == "spring-chat" and top["source"]["role"] == "user"
    assert top["valid_from"] == "2026-04-12T09:00:00Z"
    assert {"vector", "text"} <= set(top["scores"])
    assert search(client, "ada", "glacier", valid_at="2026-03-01T00:00:00Z") == []  # not yet said
    # The reply is found by the words of the turns before it (its context), not by a graph hop.
    neighbour = next(h for h in hits if "worth it" in h["content"])
    assert "text" in neighbour["scores"]
    assert all("graph" not in h["scores"] for h in hits if h["type"] == "message")


def test_a_short_answer_is_found_by_the_question_it_answers_and_shows_itself(client: TestClient) -> None:
    def episode(session: str, *turns: tuple[str, str]) -> None:
        response = client.post("/v1/users/ada/episodes", params={"wait": "true"}, json={
            "session_id": session, "messages": [
                {"role": role, "content": text, "timestamp": f"2026-05-0{n + 1}T10:00:00Z"}
                for n, (role, text) in enumerate(turns)]})
        assert response.status_code == 202, response.text

    episode("house", ("assistant", "Has the plumber repaired your boiler yet?"),
            ("user", "Yes, on Saturday, finally!"), ("assistant", "Great, warm showers again."))
    episode("other", ("assistant", "Shall I book the table for two?"), ("user", "Yes, definitely."))
    hits = search(client, "ada", "when was the boiler repaired?")
    # The hit is the turn itself, not its context:
    answer = next(h for h in hits if h["content"] == "Yes, on Saturday, finally!")
    assert "text" in answer["scores"]  # found by the words of the turn before it
    # A turn of another episode does not borrow this one's words.
    assert all("text" not in h["scores"] for h in hits if h["content"] == "Yes, definitely.")
    # "When" favours the turn that says when.
    reply = next(i for i, h in enumerate(hits) if h["content"] == "Great, warm showers again.")
    assert hits.index(answer) < reply


def test_entities_named_in_a_query_bring_their_memories(client: TestClient) -> None:
    lead = remember(client, "ada", "Her team lead is Grace", entities=["Globex", "Grace"])
    remember(client, "ada", "Ada waters the plants on Sundays", entities=["plants"])
    hits = search(client, "ada", "Globex")
    assert hits[0]["id"] == lead and "graph" in hits[0]["scores"]


def test_mmr_keeps_near_duplicates_apart(client: TestClient) -> None:
    teas = {remember(client, "ada", text) for text in (
        "Ada drinks green tea in the morning", "Ada drinks green tea in the mornings",
        "Every morning Ada drinks green tea")}
    coffee = remember(client, "ada", "Ada drinks black coffee before her morning run")
    asked = "what does Ada drink in the morning?"
    plain = search(client, "ada", asked, limit=2)
    assert {h["id"] for h in plain} <= teas
    spread = search(client, "ada", asked, limit=2, mmr_lambda=0.5)
    assert spread[0]["id"] == plain[0]["id"] and spread[1]["id"] == coffee
    assert [h["ranks"]["mmr"] for h in spread] == [1, 2]


def test_a_models_questions_are_searched_too(servers: ServerEndpoints, neo4j: Driver, tmp_path: Path) -> None:
    asked = "where does the feline rest?"
    # The model gives a question that names the memory's words, and the query itself (dropped).
    with chat_stub('{"questions": ["Turing sleeping basket", "where does the feline rest?"]}') as stub:
        settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, llm="openai", llm_base_url=stub.url,
                            questions="llm", extractor="off", layers="off")
        with TestClient(create_app(lambda: bootstrap(settings))) as client:
            basket = remember(client, "ada", "Turing naps in the wicker basket by the window")
            remember(client, "ada", "Ada drinks green tea in the morning")
            answer = client.post("/v1/users/ada/search",
                                 json={"query": asked, "synthesize_questions": True}).json()
    assert len(stub.asked) == 1 and answer["questions"] == ["Turing sleeping basket"]
    top = answer["hits"][0]
    assert top["id"] == basket
    assert "text~1" in top["scores"] and "text" not in top["scores"]  # only the question has its words
    assert not any(key.endswith("~2") for key in top["scores"])  # the query itself is not asked twice


def test_searching_and_context_record_use_as_events_and_only_citations_lift_the_ranking(
        client: TestClient) -> None:
    memory = remember(client, "ada", "Ada collects vintage fountain pens")
    for _ in range(3):
        search(client, "ada", "fountain pens")
    # Sent in the background (one RecordUse per person a second for every search in it), never twice.
    lore = client.app.state.lore
    wait_until(lambda: client.get(f"/v1/users/ada/memories/{memory}").json()["access_count"] >= 3,
               "three uses recorded")
    lore.use.flush()  # whatever the thread still holds
    found = client.get(f"/v1/users/ada/memories/{memory}").json()
    assert (found["access_count"], found["cited_count"], found["last_cited_at"]) == (3, 0, None)
    assert found["last_used_at"] is not None
    # A search answer is not a citation: searching again leaves the ranking as it was.
    before = search(client, "ada", "fountain pens")[0]["score"]
    lore.use.flush()
    wait_until(lambda: client.get(f"/v1/users/ada/memories/{memory}").json()["access_count"] >= 4,
               "the fourth use recorded")
    assert search(client, "ada", "fountain pens")[0]["score"] == before
    body = client.post("/v1/users/ada/context", json={"message": "what do I collect?"}).json()
    assert memory in body["cited"]["memories"]
    lore.use.flush()
    wait_until(lambda: client.get(f"/v1/users/ada/memories/{memory}").json()["cited_count"] >= 1,
               "the citation recorded")
    after = search(client, "ada", "fountain pens")[0]["score"]
    assert before < after <= before * 1.1  # cited: lifted, by at most the bounded use weight


def test_use_is_decided_on_the_memories_it_names_read_as_the_whole_state_holds_them(
        client: TestClient, neo4j: Driver) -> None:
    pens = remember(client, "ada", "Ada collects vintage fountain pens")
    remember(client, "ada", "Ada drinks green tea in the morning")
    reads = GraphDecisionReads(neo4j)
    whole = reads.states(["ada"])["ada"]
    part = reads.memory_states({"ada": [pens, "no-such-memory"], "nobody": ["x"]})
    assert set(part["ada"].memories) == {pens} and set(whole.memories) > {pens}
    # The same memory as the whole state reads it (but its place in the person's order).
    assert replace(part["ada"].memories[pens], sequence=0) == replace(whole.memories[pens], sequence=0)
    assert (part["ada"].profile, part["ada"].settings) == (whole.profile, whole.settings)
    assert not part["nobody"].memories


def test_the_context_block_puts_preferences_first_within_the_budget(client: TestClient) -> None:
    remember(client, "ada", "Prefers short answers with code examples", kind="preference", importance=0.9)
    remember(client, "ada", "Explaining with analogies works well for Ada", kind="lesson")
    remember(client, "ada", "Ada is migrating the billing service from Python 2 to Python 3", kind="fact")
    for n in range(30):
        remember(client, "ada", f"Ada read chapter {n} of a cookbook about sourdough baking", kind="event")
    body = client.post("/v1/users/ada/context", json={
        "message": "How should I handle unicode in the billing migration?", "token_budget": 120}).json()
    text = body["text"]
    assert text.index("short answers") < text.index("analogies") < text.index("billing service")
    assert body["tokens"] <= 120 and len(text) <= 120 * 4
    assert "sourdough" not in text.split("billing service")[0]


def test_a_context_request_with_a_very_long_message_is_answered_from_its_telling_words(
    client: TestClient,
) -> None:
    remember(client, "ada", "Ada is migrating the billing service from Python 2 to Python 3", kind="fact")
    remember(client, "ada", "Ada waters the plants on Sundays", kind="fact")
    filler = " ".join(f"word{n} and some more text about nothing in particular" for n in range(2_000))
    message = (f"{filler} billing migration billing unicode {filler}")[:100_000]
    assert len(message) == 100_000
    response = client.post("/v1/users/ada/context", json={"message": message, "token_budget": 300})
    assert response.status_code == 200, response.text[:500]
    assert "billing service" in response.json()["text"]
    hits = search(client, "ada", " ".join(f"w{n}" for n in range(400)) + " billing")
    assert hits and "billing" in hits[0]["content"]  # 401 words: more than Lucene's clause budget
    too_long = client.post("/v1/users/ada/context", json={"message": "x" * 200_001})
    assert too_long.status_code == 422 and "message" in too_long.text


def test_the_context_block_says_each_thing_once_without_filler_and_says_how_to_use_it(
    client: TestClient,
) -> None:
    response = client.post("/v1/users/ada/episodes", params={"wait": "true"}, json={
        "session_id": "family", "messages": [
            {"role": "user", "content": "My sister Ife moved to Lagos with her husband Tunde last spring",
             "timestamp": "2026-04-12T09:00:00Z"},
            {"role": "assistant", "content": "Got it, thanks!", "timestamp": "2026-04-12T09:00:20Z"},
            {"role": "user", "content": "Tunde teaches chemistry at a school in Lagos",
             "timestamp": "2026-04-12T09:01:00Z"}]})
    assert response.status_code == 202
    remember(client, "ada", "Ada's sister Ife moved to Lagos with her husband Tunde last spring")
    body = client.post("/v1/users/ada/context", json={
        "message": "what does my sister's husband in Lagos do?", "synthesize_questions": False}).json()
    relevant = next(s for s in body["sections"] if s["name"] == "relevant")["items"]
    texts = [i["text"] for i in relevant]
    assert not any("Got it" in t for t in texts)                                   # filler: left out
    assert sum("moved to Lagos" in t for t in texts) == 1                          # said once,
    assert next(i for i in relevant if "moved to Lagos" in i["text"])["type"] == "memory"  # by the memory
    assert any("chemistry" in t for t in texts)
    assert body["relevant_count"] == len(relevant) >= 2
    assert body["instruction"] and body["text"].splitlines()[1] == body["instruction"]
    one = client.post("/v1/users/ada/context", json={"message": "what does my sister's husband in Lagos do?",
                                                      "relevant_limit": 1, "min_relevance": -1}).json()
    assert one["relevant_count"] == 1 and one["min_relevance"] == -1
    hits = search(client, "ada", "what does my sister's husband in Lagos do?", context_rules=True)
    assert hits and not any("Got it" in h["content"] for h in hits)
    assert all("cosine" in h["scores"] for h in search(client, "ada", "Lagos", min_relevance=0.0))
