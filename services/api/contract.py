"""The OpenAPI document made truthful for what every operation shares (issue 35): the answers that
come from the layers around a route rather than the route itself, declared once here rather than on
each of them, so that an operation added later gets them too.

- 400: a body that is not JSON (FastAPI answers it before validation);
- 422: a body or parameter that breaks a rule, said by FastAPI (a list of errors) or by Lore (a
  sentence naming the field, and a `code` for a refusal of the domain);
- 401, 403, 429: a missing or invalid key, a scope too small, too many requests, on every /v1
  route but health, when keys are on (then the document says how to send one);
- 503: the graph, the log or the embedder not answering, on every /v1 route that reads or writes
  the graph (services/api/unavailable.py).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from lore.schemas import Change

# Routes that ask for no key and read no one's data.
_OPEN = {"/v1/health", "/metrics"}
# Routes that do not touch the graph.
_NO_GRAPH = {"/v1/keys/me", "/v1/health", "/metrics"}
_METHODS = {"get", "put", "post", "delete", "patch", "options", "head"}
# Models a route names by reference only (a stream's events), which FastAPI does not collect.
_REFERENCED: tuple[type[BaseModel], ...] = (Change,)

_PROBLEM = {"$ref": "#/components/schemas/Problem"}
_UNAVAILABLE = {"$ref": "#/components/schemas/ServiceUnavailable"}
_RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before trying again.",
                                "schema": {"type": "string"}}}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def truthful_openapi(app: FastAPI, keys_on: bool) -> dict[str, Any]:
    """The app's OpenAPI document with the shared answers declared (see the module's docstring);
    `keys_on`: this deployment asks for API keys (LORE_AUTH), so the document says so."""
    schema = get_openapi(title=app.title, version=app.version, summary=app.summary,
                         description=app.description, routes=app.routes)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("Problem", {
        "title": "Problem", "type": "object", "required": ["detail"],
        "properties": {"detail": {"type": "string", "description": "What is wrong, naming the field."},
                       "code": {"anyOf": [{"type": "string"}, {"type": "null"}],
                                "description": "A refusal's code, e.g. memory_not_found."},
                       "command_id": {"anyOf": [{"type": "string"}, {"type": "null"}]}}})
    for model in _REFERENCED:
        made = model.model_json_schema(ref_template="#/components/schemas/{model}", mode="serialization")
        for name, defined in made.pop("$defs", {}).items():
            components.setdefault(name, defined)
        components.setdefault(model.__name__, made)
    if keys_on:
        schema["components"]["securitySchemes"] = {
            "bearer": {"type": "http", "scheme": "bearer", "description": "An API key (`lore keys create`)."},
            "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}
    for path, item in schema.get("paths", {}).items():
        for method, operation in item.items():
            if method in _METHODS:
                _complete(path, operation, keys_on)
    return schema


def _complete(path: str, operation: dict[str, Any], keys_on: bool) -> None:
    responses = operation.setdefault("responses", {})
    takes_input = "requestBody" in operation or bool(operation.get("parameters"))
    if "requestBody" in operation:
        responses.setdefault("400", {"description": "The body is not JSON.", "content": _json(_PROBLEM)})
    if takes_input:
        said = responses.setdefault("422", {"description": "Invalid input; the message names the field."})
        said["content"] = _json({"anyOf": [{"$ref": "#/components/schemas/HTTPValidationError"}, _PROBLEM]})
    if path.startswith("/v1/") and path not in _OPEN and keys_on:
        operation["security"] = [{"bearer": []}, {"apiKey": []}]
        responses.setdefault("401", {"description": "No API key, or one that is not valid.",
                                     "content": _json(_PROBLEM)})
        responses.setdefault("403", {"description": "The key's tenant or scope does not allow it.",
                                     "content": _json(_PROBLEM)})
        responses.setdefault("429", {"description": "Too many requests for this key (LORE_RATE_LIMIT).",
                                     "content": _json(_PROBLEM), "headers": _RETRY_AFTER})
    if path.startswith("/v1/") and path not in _NO_GRAPH:
        unavailable = responses.setdefault("503", {})
        unavailable.setdefault("description", "The graph, the log or the embedder does not answer now, "
                               "or the store cannot be written on as it is: `code` says which; `/v1/health` "
                               "says what mends it.")
        unavailable["content"] = _json(_UNAVAILABLE)

