"""Structured output from an OpenAI-compatible endpoint, against a stand-in chat server (a local
HTTP process answering programmed responses, tests/support/chat_stub.py): the JSON schema is
asked for, JSON mode is the fallback, an answer that does not fit gets one repair round; and what
the extractor makes of the model's answer."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from openai import APIStatusError
from pydantic import BaseModel

from domain.commands import Message, Similar
from domain.extraction.candidate import Candidate
from domain.extraction.taxonomy import Category, Taxonomy
from domain.model import MemoryKind
from infra.llm import LLMRefused, StructuredOutputError
from infra.llm.openai import OpenAILLM
from projections.extraction import MemoryShown
from services.extraction.extractors import LLMExtractor
from services.extraction.llm_consolidator import LLMConsolidator
from services.extraction.llm_extractor import (
    PROMPT_VERSION,
    estimated_tokens,
    extract_with,
    parts,
    transcript,
)
from tests.support.chat_stub import chat_stub

SAID_AT = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


class Colour(BaseModel):
    name: str
    warm: bool


def llm(url: str) -> OpenAILLM:
    return OpenAILLM(base_url=url, api_key="test", model="stand-in", max_retries=0)


def test_the_answer_is_asked_for_with_the_json_schema_and_validated() -> None:
    with chat_stub('{"name": "teal", "warm": false}') as stub:
        answer = llm(stub.url).structured("Name a colour.", "one please", Colour, "colour")
    assert answer.value == Colour(name="teal", warm=False) and answer.mode == "json_schema"
    assert (answer.prompt_tokens, answer.completion_tokens) == (100, 20)
    (request,) = stub.requests
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["schema"] == Colour.model_json_schema()


def test_an_endpoint_that_refuses_schemas_is_asked_in_json_mode_from_then_on() -> None:
    refused = (400, "response_format json_schema is not supported")
    with chat_stub('{"name": "red", "warm": true}', script=[refused]) as stub:
        model = llm(stub.url)
        first = model.structured("Name a colour.", "one", Colour, "colour")
        second = model.structured("Name a colour.", "another", Colour, "colour")
    assert first.mode == second.mode == "json_object" and first.value.warm
    asked_as = [r["response_format"]["type"] for r in stub.requests]
    assert asked_as == ["json_schema", "json_object", "json_object"]
    assert '"warm"' in stub.requests[1]["messages"][0]["content"]  # the schema, in the prompt


def test_an_answer_that_does_not_fit_gets_one_repair_round() -> None:
    script = [(200, '{"name": "blue"}')]  # "warm" missing
    with chat_stub('{"name": "blue", "warm": false}', script=script) as stub:
        answer = llm(stub.url).structured("Name a colour.", "one", Colour, "colour")
    assert answer.mode == "repaired" and answer.value.name == "blue"
    assert (answer.prompt_tokens, answer.completion_tokens) == (200, 40)
    assert "warm: Field required" in stub.requests[1]["messages"][-1]["content"]


def test_an_answer_that_does_not_fit_twice_is_a_clear_failure_with_the_models_text() -> None:
    with chat_stub("not json at all") as stub, pytest.raises(StructuredOutputError) as failed:
        llm(stub.url).structured("Name a colour.", "one", Colour, "colour")
    assert "does not fit its schema, also after one repair" in str(failed.value)
    assert failed.value.raw == "not json at all" and len(stub.requests) == 2
    assert (failed.value.prompt_tokens, failed.value.completion_tokens) == (200, 40)  # spent all the same


def test_the_extractor_turns_the_models_answer_into_candidates() -> None:
    said = [("user", "I moved to Lisbon last month, and I use Zed now."), ("assistant", "Nice!"),
            ("user", "Remind me to book movers next Friday.")]
    messages = [Message(role=role, content=text, timestamp=SAID_AT) for role, text in said]
    answer = {"memories": [
        {"kind": "fact", "content": "Moved to Lisbon", "attribute": "City", "value": "Lisbon",
         "when": "last month", "entities": ["Lisbon"], "confidence": 0.9, "messages": [0]},
        {"kind": "preference", "content": "Uses the Zed editor", "attribute": "ide", "value": "Zed",
         "confidence": 0.8, "asserted": False, "messages": [0, 7]},
        {"kind": "todo", "content": "Book movers", "due": "next Friday", "confidence": 0.9, "messages": [2]},
    ]}
    with chat_stub(json.dumps(answer)) as stub:
        candidates, raw = extract_with(llm(stub.url), messages, SAID_AT)
    lisbon, zed, movers = candidates
    assert (lisbon.attribute, lisbon.value, lisbon.valid_from) == ("home_city", "Lisbon",
                                                                   datetime(2026, 2, 1, tzinfo=UTC))
    assert (zed.attribute, zed.asserted, zed.positions) == ("editor", False, (0,))  # 7 is no message
    assert movers.kind is MemoryKind.TODO and movers.due_at == datetime(2026, 3, 13, tzinfo=UTC)
    assert all(c.extractor == f"stand-in:{PROMPT_VERSION}" for c in candidates)
    assert json.loads(raw.raw) == answer and "[2] (2026-03-10) user: Remind me" in stub.asked[0]


def test_what_a_model_says_ended_names_canonical_slots() -> None:
    messages = [Message(role="user", content=text, timestamp=SAID_AT) for text in
                ("I was laid off last week.", "We had to put our dog Bruno down.")]
    answer = {"memories": [
        {"kind": "event", "content": "Was laid off in the week of 2 March 2026", "ends": ["Company", "job"],
         "confidence": 0.9, "messages": [0]},
        {"kind": "event", "content": "Dog Bruno died", "ends": ["pet_dog"], "ended_value": "Bruno",
         "confidence": 0.9, "messages": [1]},
        {"kind": "fact", "content": "Has a dog named Bruno", "ended_value": "Bruno", "confidence": 0.9,
         "messages": [1]},
    ]}
    with chat_stub(json.dumps(answer)) as stub:
        laid_off, died, kept = extract_with(llm(stub.url), messages, SAID_AT)[0]
    assert (laid_off.ends, laid_off.ended_value) == (("employer", "job_title"), None)
    assert (died.ends, died.ended_value) == (("pet_dog",), "Bruno")
    assert (kept.ends, kept.ended_value) == ((), None)  # a value that ends nothing is dropped
    assert '"ends"' in stub.requests[0]["messages"][0]["content"]  # the prompt asks for it


def test_what_a_model_leaves_out_the_rules_make_exact_and_nothing_more() -> None:
    at = datetime(2026, 3, 15, 10, tzinfo=UTC)
    said = ["Big news: I moved to Lisbon last month.", "Congratulations!", "I switched to Neovim.", "Brave.",
            "Remind me to renew my passport next Friday.", "I will."]
    messages = [Message(role="user" if i % 2 == 0 else "assistant", content=text, timestamp=at)
                for i, text in enumerate(said)]
    answer = {"memories": [
        {"kind": "fact", "content": "Moved to Lisbon last month", "confidence": 0.9, "messages": [0]},
        {"kind": "fact", "content": "Switched to Neovim", "confidence": 0.9, "messages": [3]},
        {"kind": "todo", "content": "Renew my passport next Friday", "confidence": 0.9, "messages": [4]},
        {"kind": "preference", "content": "Loves Lisbon's food", "confidence": 0.8, "messages": [0]},
    ]}
    with chat_stub(json.dumps(answer)) as stub:
        found, _ = extract_with(OpenAILLM(stub.url, "k", "stand-in"), messages, at)
    city, editor, todo, food = found
    assert (city.attribute, city.value) == ("home_city", "Lisbon")
    assert city.valid_from == datetime(2026, 2, 1, 10, tzinfo=UTC)
    # The model pointed at the assistant's answer: the message that says it is taken instead.
    assert (editor.attribute, editor.value, editor.kind) == ("editor", "Neovim", "preference")
    assert editor.positions == (2,)
    assert todo.due_at == datetime(2026, 3, 20, tzinfo=UTC)
    assert todo.valid_from == at and todo.attribute is None
    # The same city named, but not said the same way: no slot is made up for it.
    assert food.attribute is None and food.valid_from == at


def test_the_models_relations_are_kept_with_known_types_only() -> None:
    at = datetime(2026, 3, 15, 10, tzinfo=UTC)
    messages = [Message(role="user", content="My sister Maya joined Globex in Oslo.", timestamp=at)]
    answer = {"memories": [{
        "kind": "person", "content": "Sister Maya works at Globex", "confidence": 0.9, "messages": [0],
        "relations": [
            {"subject": None, "predicate": "Sister", "object": "Maya", "object_type": "person"},
            {"subject": "Maya", "predicate": "works at", "object": "Globex", "object_type": "Company!"},
            {"subject": "Maya", "predicate": "  ", "object": "Oslo", "object_type": "place"}]}]}
    with chat_stub(json.dumps(answer)) as stub:
        (found,), _ = extract_with(OpenAILLM(stub.url, "k", "stand-in"), messages, at)
    assert [(r.subject, r.predicate, r.object) for r in found.relations] == \
        [(None, "sister", "Maya"), ("Maya", "works_at", "Globex")]
    assert found.entity_types == (("Maya", "person"), ("Oslo", "place"))  # "Company!" is no type of ours


TOO_LONG = (400, "the request exceeds the available context size, try increasing it")


def test_a_request_refused_in_both_modes_is_a_refusal_and_schemas_are_still_asked_for() -> None:
    with chat_stub('{"name": "red", "warm": true}', script=[TOO_LONG, TOO_LONG]) as stub:
        model = llm(stub.url)
        with pytest.raises(LLMRefused) as refused:
            model.structured("Name a colour.", "a very long question", Colour, "colour")
        after = model.structured("Name a colour.", "a short one", Colour, "colour")
    assert "HTTP 400" in str(refused.value) and "exceeds the available context size" in str(refused.value)
    # The refusal was of the request, not of schemas: the next one is asked with its schema.
    assert after.mode == "json_schema"
    assert [r["response_format"]["type"] for r in stub.requests] == ["json_schema", "json_object",
                                                                     "json_schema"]


def said(*texts: str) -> list[Message]:
    return [Message(role="user" if i % 2 == 0 else "assistant", content=text, timestamp=SAID_AT)
            for i, text in enumerate(texts)]


def test_a_conversation_is_cut_into_consecutive_parts_that_fit() -> None:
    messages = said(*(f"message number {i} " + "word " * 40 for i in range(10)))
    cut = parts(messages, max_tokens=200)
    assert [start for start, _ in cut] == [0, 2, 4, 6, 8]
    assert [m for _, part in cut for m in part] == messages  # nothing left out, in order
    assert all(estimated_tokens(transcript(part)) <= 200 for _, part in cut)
    assert parts(messages, max_tokens=10_000) == [(0, messages)]


def test_a_message_longer_than_any_part_is_shortened_to_fit() -> None:
    messages = said("short", "x" * 5_000, "short again")
    cut = parts(messages, max_tokens=300)
    (long,) = [m for _, part in cut for m in part if m.content.startswith("x")]
    assert len(long.content) < 1_000 and long.content.endswith("…")
    assert all(estimated_tokens(transcript(part)) <= 300 for _, part in cut)


def test_a_window_longer_than_the_context_is_asked_in_parts_and_put_together() -> None:
    messages = said(*(f"I like colour {i}. " + "and more " * 110 for i in range(4)))  # ~340 tokens each
    answers = [(200, json.dumps({"memories": [{"kind": "preference", "content": f"Likes colour {i}",
                                               "confidence": 0.9, "messages": [0]}]}))
               for i in (0, 3)]
    with chat_stub("unused", script=answers) as stub:  # 4,300 tokens leave ~1,200 for a part
        extraction = LLMExtractor(llm(stub.url), context_tokens=4_300).extract(messages, SAID_AT)
    assert len(stub.requests) == 2
    assert stub.asked[1].startswith("[0] (2026-03-10) assistant: I like colour 3.")  # positions start again
    assert [(c.content, c.positions) for c in extraction.candidates] == [("Likes colour 0", (0,)),
                                                                         ("Likes colour 3", (3,))]
    assert (extraction.prompt_tokens, extraction.completion_tokens) == (200, 40)
    assert [json.loads(raw) for raw in json.loads(extraction.raw_output or "")] == \
        [json.loads(text) for _, text in answers]
    assert extraction.skipped is None


def test_a_window_the_endpoint_refuses_is_a_skip_that_says_why() -> None:
    with chat_stub("unused", status=TOO_LONG[0]) as stub:
        stub.answer = TOO_LONG[1]
        extraction = LLMExtractor(llm(stub.url)).extract(said("I moved to Oslo.", "ok", "bye"), SAID_AT)
    assert extraction.candidates == [] and extraction.skipped is not None
    assert "exceeds the available context size" in extraction.skipped


def test_an_endpoint_that_is_down_is_no_skip_the_extraction_stays_due() -> None:
    with chat_stub("unused", status=503) as stub, pytest.raises(APIStatusError):
        LLMExtractor(llm(stub.url)).extract(said("I moved to Oslo.", "ok", "bye"), SAID_AT)


def test_what_the_model_copies_from_its_example_or_makes_up_is_left_out() -> None:
    messages = said("Hey! I finally adopted a dog, his name is Rufus.", "Lovely!")
    answer = {"memories": [
        {"kind": "fact", "content": "Works at Acme as a designer", "attribute": "employer", "value": "Acme",
         "confidence": 0.9, "messages": [0]},                                  # the prompt's example
        {"kind": "fact", "content": "Adopted a dog named Rex", "confidence": 0.9, "messages": [0]},
        {"kind": "fact", "content": "Adopted a dog named Rufus", "confidence": 0.9, "messages": [0]}]}
    with chat_stub(json.dumps(answer)) as stub:
        found, raw = extract_with(llm(stub.url), messages, SAID_AT)
    assert [c.content for c in found] == ["Adopted a dog named Rufus"]
    assert json.loads(raw.raw) == answer  # what was left out stays in the log's raw answer


def test_the_consolidator_shows_each_candidate_with_its_close_memories_and_keeps_what_it_asked() -> None:
    candidates = [Candidate(kind=MemoryKind.PREFERENCE, content=text, valid_from=SAID_AT, confidence=0.9,
                            extractor="x") for text in ("Enjoys sencha", "Has a dog", "Runs daily")]
    similar = [(Similar(memory_id="m-tea", cosine=0.9),), (), (Similar(memory_id="m-gone", cosine=0.88),)]
    shown = {"m-tea": MemoryShown("m-tea", "preference", "Likes green tea", None, "2026-02-01")}
    answer = {"verdicts": [
        {"candidate": 0, "verdict": "same", "memory_id": "m-tea", "reason": "sencha is a green tea"},
        {"candidate": 1, "verdict": "merge", "memory_id": "m-tea", "content": "x", "reason": "not asked"}]}
    with chat_stub(json.dumps(answer)) as stub:
        proposals = LLMConsolidator(llm(stub.url)).propose(candidates, similar, shown)
    (asked,) = stub.asked
    assert asked == 'New memory 0 (preference): "Enjoys sencha"\n' \
                    '  close: m-tea (preference, since 2026-02-01): "Likes green tea"'
    first, second, third = proposals.proposed
    assert first is not None and (first.verdict, first.memory_id) == ("same", "m-tea")
    assert first.by == "stand-in:consolidate-memories/1"
    assert second is None and third is None   # not asked: nothing close, or nothing it could be shown
    assert (proposals.prompt_tokens, proposals.completion_tokens) == (100, 20)


def test_a_consolidation_the_model_cannot_answer_is_left_to_the_rules() -> None:
    candidate = Candidate(kind=MemoryKind.FACT, content="Has a dog", valid_from=SAID_AT, confidence=0.9,
                          extractor="x")
    shown = {"m1": MemoryShown("m1", "fact", "Has a dog named Rufus", None, "")}
    with chat_stub("not json") as stub:
        close = [(Similar(memory_id="m1", cosine=0.9),)]
        proposals = LLMConsolidator(llm(stub.url)).propose([candidate], close, shown)
    assert proposals.proposed == (None,) and proposals.failed
    assert (proposals.prompt_tokens, proposals.completion_tokens) == (200, 40)


def test_an_answer_cut_off_at_its_length_is_asked_again_briefly_without_the_runaway_text() -> None:
    runaway = '{"name": "red", "warm": tr' + "ue, ue, ue" * 50
    with chat_stub('{"name": "red", "warm": true}', script=[(200, runaway)]) as stub:
        stub.cut_off = 1
        answer = OpenAILLM(stub.url, "k", "stand-in", max_retries=0, max_answer_tokens=300).structured(
            "Name a colour.", "one", Colour, "colour")
    assert answer.value.warm and answer.mode == "repaired"
    first, again = stub.requests
    assert first["max_tokens"] == again["max_tokens"] == 300
    assert [m["role"] for m in again["messages"]] == ["system", "user"]  # not the runaway answer
    asked = again["messages"][-1]["content"]
    assert asked.startswith("one") and "cut off" in asked


def test_a_deployments_categories_are_in_the_prompt_its_version_and_the_candidates() -> None:
    coach = Taxonomy(categories=(
        Category(name="SOMA", kind=MemoryKind.FACT, description="the body: sleep, pain, energy"),
        Category(name="EFFECTIVE", kind=MemoryKind.LESSON, description="what worked for them")))
    answer = {"memories": [{"kind": "fact", "category": "SOMA", "content": "Sleeps badly after late runs",
                            "confidence": 0.9, "messages": [0]}]}
    with chat_stub(json.dumps(answer)) as stub:
        extraction = LLMExtractor(llm(stub.url), taxonomy=coach).extract(
            said("I sleep badly after late runs.", "Noted."), SAID_AT)
    system = stub.requests[0]["messages"][0]["content"]
    assert "- SOMA (a fact): the body: sleep, pain, energy" in system and "- EFFECTIVE (a lesson)" in system
    (found,) = extraction.candidates
    assert found.category == "SOMA"
    assert extraction.prompt_version is not None
    assert extraction.prompt_version.startswith(f"{PROMPT_VERSION}+taxonomy-")
    assert LLMExtractor(llm(stub.url)).prompt.version == PROMPT_VERSION  # none named: the plain prompt


def test_an_extraction_the_model_cannot_answer_is_a_skip_that_still_counts_its_tokens() -> None:
    with chat_stub("not json at all") as stub:
        extraction = LLMExtractor(llm(stub.url)).extract(said("I moved to Oslo.", "ok", "bye"), SAID_AT)
    assert extraction.candidates == [] and "did not fit the schema" in (extraction.skipped or "")
    assert (extraction.prompt_tokens, extraction.completion_tokens) == (200, 40)
