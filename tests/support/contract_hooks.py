"""What the contract test tells schemathesis beyond the OpenAPI document: JSON Schema cannot compare
two fields, nor a field with the present, so the one rule of that kind a body must meet — a
memory's window does not end before it starts (`valid_until` ≥ `valid_from`, which defaults to
`occurred_at`, then to now), stated in MemoryCreate's description — is kept here when bodies are
generated. Likewise a Markdown file given back (POST .../import): its schema says how it begins
(its title), not how each line after must read, which the description states and a 422 naming the
line enforces; a generated file is kept to its title line. A topic to forget must name something
to look for, not only words such as "the" or a lone letter (its description says so; a 422 says
which): a generated topic that names nothing gets a word. And one case schemathesis 4.32 makes
wrong: for a header its coverage phase keeps to letters and digits, and so makes a "valid"
Last-Event-ID (whose pattern needs a colon) that breaks the pattern (e.g. "0"); such a case, meant
to fit the schema and not fitting it, is dropped (a case meant to break it is kept). Loaded with
SCHEMATHESIS_HOOKS=tests.support.contract_hooks."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import schemathesis
from schemathesis import GenerationMode

from services.changes import CURSOR
from services.topics import topic_words


def _moment(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@schemathesis.hook("map_case").apply_to(method="POST", path="/v1/users/{user_id}/memories")
def a_window_ends_after_it_starts(ctx: Any, case: Any) -> Any:
    body = case.body
    if not isinstance(body, dict):
        return case
    until = _moment(body.get("valid_until"))
    starts = body.get("valid_from") or body.get("occurred_at")
    start = _moment(starts) if starts is not None else datetime.now(UTC)
    if until is not None and start is not None and until < start:
        case.body = {**body, "valid_until": None}
    return case


@schemathesis.hook("map_case").apply_to(method="POST", path="/v1/users/{user_id}/import")
def a_file_is_its_title_line(ctx: Any, case: Any) -> Any:
    if isinstance(case.body, str):
        case.body = case.body.split("\n", 1)[0].split("\r", 1)[0]
    return case


@schemathesis.hook("filter_case").apply_to(path_regex=r"/changes$")
def a_valid_stream_id_fits_its_pattern(ctx: Any, case: Any) -> bool:
    given = (case.headers or {}).get("Last-Event-ID")
    meant_valid = case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE
    return given is None or not meant_valid or re.match(CURSOR, given) is not None


@schemathesis.hook("map_case").apply_to(method="POST", path="/v1/users/{user_id}/forget")
def a_topic_names_something(ctx: Any, case: Any) -> Any:
    body = case.body
    if isinstance(body, dict) and isinstance(body.get("topic"), str) and not topic_words(body["topic"]):
        case.body = {**body, "topic": (body["topic"] + " cello")[-2_000:]}
    return case
