"""Instants read as text. A query returns each instant as Neo4j writes it (`toString`: ISO 8601)
and Python parses it in about 2 µs; the driver's own DateTime, built in pure Python, costs about
45 µs a value, which made most of the CPU of reading a few hundred memories (bench/README,
"Reads of one person's memories"). Every instant Lore stores is UTC (domain.model.utc)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any, overload

# Python reads at most microseconds; a value Neo4j made itself may carry nanoseconds.
_FRACTION = re.compile(r"(\.\d{6})\d+")
# A zone's name after the offset ("+01:00[Europe/Paris]"): Python reads the offset.
_ZONE_NAME = re.compile(r"\[[^\]]*\]$")


def as_text(alias: str, names: Iterable[str]) -> str:
    """Map-projection entries that return `alias`'s instants `names` as text, under their own names."""
    return ", ".join(f"{name}: toString({alias}.{name})" for name in names)


@overload
def instant(text: str) -> datetime: ...
@overload
def instant(text: None) -> None: ...
def instant(text: str | None) -> datetime | None:
    """An instant a query returned as text (None stays None)."""
    if text is None:
        return None
    return datetime.fromisoformat(_ZONE_NAME.sub("", _FRACTION.sub(r"\1", text)))


def parsed(row: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """`row` with its instants `names` parsed, where they are text (in place; returned)."""
    for name in names:
        value = row.get(name)
        if isinstance(value, str):
            row[name] = instant(value)
    return row
