"""Structured output from any OpenAI-compatible chat endpoint (OpenAI, Azure, DeepSeek, Ollama,
vLLM, llama.cpp's server, LM Studio), through the official `openai` client.

The answer is asked for with `response_format` = the pydantic model's JSON schema. An endpoint
that refuses JSON schemas is asked in JSON mode instead, with the schema in the prompt, and from
then on in that mode. Either way the answer is validated; one that does not fit gets one round
of repair (the model is told what was wrong), then the call fails with the model's text.
A request the endpoint refuses in both modes (too long for its context, say) fails as
`LLMRefused`: asking again would not help. Errors worth a retry (down, timeouts, 429, 5xx) are
retried by the client, then raised as they are.
"""

from __future__ import annotations

import json
import logging
from typing import Any, TypeVar

from openai import APIStatusError, BadRequestError, OpenAI, UnprocessableEntityError
from pydantic import BaseModel, ValidationError

from infra.llm.port import LLMRefused, Structured, StructuredOutputError

log = logging.getLogger(__name__)
T = TypeVar("T", bound=BaseModel)


class OpenAILLM:
    def __init__(self, base_url: str | None, api_key: str, model: str, timeout_s: float = 120.0,
                 max_retries: int = 2, max_answer_tokens: int = 1024) -> None:
        self._client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=max_retries)
        self.model = model
        # A small model at temperature 0 can repeat itself until its context is full: an answer
        # is cut off here, and asked again once, briefly.
        self.max_answer_tokens = max_answer_tokens
        self._schemas_refused = False

    def structured(self, system: str, user: str, schema: type[T], name: str) -> Structured[T]:
        messages: list[dict[str, str]] = [{"role": "system", "content": system},
                                          {"role": "user", "content": user}]
        mode, response = self._ask(messages, schema, name)
        raw, usage = _text(response), _usage(response)
        try:
            return Structured(schema.model_validate_json(raw), raw, self.model, mode, *usage)
        except ValidationError as error:
            problems = _problems(error)
        if _cut_off(response):
            log.info("the answer of %s to %s was cut off at %d tokens; asking once more, briefly", self.model,
                     name, self.max_answer_tokens)
            messages = [messages[0], {"role": "user", "content": f"{user}\n\n(An answer to this was cut off "
                                      "at its length limit. Answer briefly: the most important items only, "
                                      "none twice.)"}]
        else:
            log.info("the answer of %s did not fit %s (%s); asking once more", self.model, name, problems)
            messages += [{"role": "assistant", "content": raw},
                         {"role": "user", "content": "That answer does not fit the required JSON schema: "
                          f"{problems}. Answer again with only the corrected JSON."}]
        _, response = self._ask(messages, schema, name)
        repaired, more = _text(response), _usage(response)
        try:
            value = schema.model_validate_json(repaired)
        except ValidationError as error:
            raise StructuredOutputError(
                f"{self.model} answered {name} with JSON that does not fit its schema, also after one "
                f"repair: {_problems(error)}", repaired, usage[0] + more[0], usage[1] + more[1]) from error
        return Structured(value, repaired, self.model, "repaired", usage[0] + more[0], usage[1] + more[1])

    def _ask(self, messages: list[dict[str, str]], schema: type[BaseModel], name: str) -> tuple[str, Any]:
        refusal: BadRequestError | None = None
        if not self._schemas_refused:
            try:
                return "json_schema", self._client.chat.completions.create(
                    model=self.model, temperature=0, messages=messages,  # type: ignore[arg-type]
                    max_tokens=self.max_answer_tokens,
                    response_format={"type": "json_schema", "json_schema": {
                        "name": name, "schema": schema.model_json_schema(), "strict": False}})
            except BadRequestError as error:
                refusal = error  # the schema, or the request itself (too long): JSON mode tells
        shape = json.dumps(schema.model_json_schema())
        described = [{**messages[0], "content": f"{messages[0]['content']}\n\nAnswer with one JSON object "
                      f"that fits this JSON schema:\n{shape}"}, *messages[1:]]
        try:
            answer = self._client.chat.completions.create(
                model=self.model, temperature=0, messages=described,  # type: ignore[arg-type]
                max_tokens=self.max_answer_tokens,
                response_format={"type": "json_object"})
        except (BadRequestError, UnprocessableEntityError) as error:
            raise LLMRefused(f"{self.model} refused the request: {_message(error)}") from error
        except APIStatusError as error:
            if error.status_code == 413:
                raise LLMRefused(f"{self.model} refused the request as too large: "
                                 f"{_message(error)}") from error
            raise
        if refusal is not None:
            log.warning("%s refuses JSON schemas (%s): asking in JSON mode from now on", self.model,
                        _message(refusal))
            self._schemas_refused = True
        return "json_object", answer


def _message(error: APIStatusError) -> str:
    body = error.body if isinstance(error.body, dict) else {}
    detail = body.get("error", body) if isinstance(body, dict) else body
    text = detail.get("message") if isinstance(detail, dict) else None
    return f"HTTP {error.status_code}: {text or error.message}"[:300]


def _cut_off(response: Any) -> bool:
    return bool(response.choices) and response.choices[0].finish_reason == "length"


def _text(response: Any) -> str:
    return str(response.choices[0].message.content or "") if response.choices else ""


def _usage(response: Any) -> tuple[int, int]:
    usage = getattr(response, "usage", None)
    return (getattr(usage, "prompt_tokens", 0) or 0, getattr(usage, "completion_tokens", 0) or 0)


def _problems(error: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(the answer)'}: {e['msg']}"
                     for e in error.errors()[:5])
