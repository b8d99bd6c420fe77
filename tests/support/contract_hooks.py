"""What the contract test tells schemathesis beyond the OpenAPI document: JSON Schema cannot compare
two fields, nor a field with the present, so the one rule of that kind a body must meet — a
memory's window does not end before it starts (`valid_until` ≥ `valid_from`, which defaults to
`occurred_at`, then to now), stated in MemoryCreate's description — is kept here when bodies are
generated. Likewise a Markdown file given back (POST .../import): its schema says how it begins
(its title), not how each line after must read, which the description states and a 422 naming the
line enforces; a generated file is kept to its title line. Loaded with
SCHEMATHESIS_HOOKS=tests.support.contract_hooks."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import schemathesis


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
