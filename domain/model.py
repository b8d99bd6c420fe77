"""Value objects shared by commands, events and state."""

from __future__ import annotations

import hashlib
import re
import uuid
from datetime import UTC, datetime
from enum import StrEnum
from functools import lru_cache
from typing import Annotated

from pydantic import AfterValidator


class MemoryKind(StrEnum):
    PREFERENCE = "preference"
    FACT = "fact"
    LESSON = "lesson"
    GOAL = "goal"
    EVENT = "event"
    PERSON = "person"
    TODO = "todo"
    CONTEXT = "context"
    HEALTH = "health"  # a condition, a treatment, an allergy, an operation, a habit given up
    PLAN = "plan"  # something arranged for a time ahead: a move, a start date, a booked trip

    @property
    def label(self) -> str:
        """The Neo4j label beside `:Memory`, e.g. `Preference`."""
        return self.value.capitalize()


class MemoryStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    FORGOTTEN = "forgotten"
    MERGED = "merged"
    COMPRESSED = "compressed"


_LORE_NAMESPACE = uuid.UUID("6f0a4c1e-7d1b-4f7e-9a51-3c2d8e0b5a10")
_SPACES = re.compile(r"\s+")


_NAMESPACE_BYTES = _LORE_NAMESPACE.bytes


def derived_id(*parts: str) -> str:
    """A stable id from its parts, so that deciding the same command twice names the same things.

    It is `str(uuid.uuid5(_LORE_NAMESPACE, "\x1f".join(parts)))`, spelled out: the UUID object
    uuid5 builds on the way cost more than the hash, and a replay derives ids for every event."""
    digest = bytearray(hashlib.sha1(_NAMESPACE_BYTES + "\x1f".join(parts).encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    h = digest.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


@lru_cache(maxsize=100_000)  # a projection asks it of every event, twice: once-per-command and the record
def command_key(user_id: str, command_id: str) -> str:
    """A command's identity: its id is the client's choice, so it names a command of one person."""
    return derived_id("command-key", user_id, command_id)


def episode_key(user_id: str, episode_id: str) -> str:
    """An episode's identity in the graph: a client-chosen episode id belongs to its person."""
    return derived_id("episode-key", user_id, episode_id)


def session_key(user_id: str, session_id: str) -> str:
    """A session's identity in the graph: a client-chosen session id belongs to its person."""
    return derived_id("session-key", user_id, session_id)


def message_id(user_id: str, episode_id: str, position: int) -> str:
    """The id of the `position`th message of a person's episode."""
    return derived_id("message", user_id, episode_id, str(position))


def normalized(text: str) -> str:
    """The form in which two statements of one value compare equal."""
    return _SPACES.sub(" ", text).strip().casefold()


def utc(moment: datetime) -> datetime:
    """Every time in Lore is timezone-aware UTC; a naive time is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


UtcDatetime = Annotated[datetime, AfterValidator(utc)]
