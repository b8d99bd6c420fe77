"""A deterministic, realistic command history: slot changes, late arrivals, repeats, facts with
entities, episodes, forgets and restores (some refused), and erasures."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from domain.commands import (
    Command,
    EraseUser,
    ForgetMemory,
    Message,
    RecordEpisode,
    RecordMemory,
    RestoreMemory,
)
from domain.memories.deciders import memory_id_for

START = datetime(2025, 1, 1, tzinfo=UTC)
SLOTS = {
    "favorite_color": ["blue", "green", "red", "black", "yellow"],
    "home_city": ["Lisbon", "Berlin", "Osaka", "Toronto", "Nairobi"],
    "employer": ["ACME", "Globex", "Initech", "Umbrella", "Hooli"],
    "editor_theme": ["dark", "light", "solarized", "monokai"],
    "diet": ["vegetarian", "vegan", "omnivore", "pescatarian"],
}
TOPICS = ["Kafka", "Neo4j", "Python", "climbing", "jazz", "sourdough", "chess", "Rust", "gardening"]
PEOPLE = ["Ada", "Grace", "Linus", "Margaret", "Alan", "Barbara", "Ken"]


def history(users: int, commands: int, seed: int = 7) -> Iterator[Command]:
    """`commands` commands spread over `users` people, interleaved as a live stream would be."""
    rng = random.Random(seed)
    memories: dict[str, list[str]] = {f"user-{u:05d}": [] for u in range(users)}
    forgotten: dict[str, list[str]] = {u: [] for u in memories}
    user_ids = list(memories)
    for n in range(commands):
        user = rng.choice(user_ids)
        day = n * 365 / max(commands, 1)
        at = START + timedelta(days=day, seconds=rng.randint(0, 3600))
        common = {"command_id": f"cmd-{seed}-{n}", "user_id": user, "occurred_at": at}
        roll = rng.random()
        if roll < 0.40:
            slot = rng.choice(list(SLOTS))
            value = rng.choice(SLOTS[slot])
            # One in six values arrives late: it was true some weeks before it was told.
            late = rng.random() < 1 / 6
            valid_from = at - timedelta(days=rng.randint(10, 90)) if late else at
            memory_id = memory_id_for(user, common["command_id"])
            memories[user].append(memory_id)
            yield RecordMemory(**common, kind="preference", attribute=slot,
                               value=value, content=f"{slot.replace('_', ' ')} is {value}",
                               valid_from=valid_from, importance=round(rng.random(), 2))
        elif roll < 0.70:
            topic, person = rng.choice(TOPICS), rng.choice(PEOPLE)
            memory_id = memory_id_for(user, common["command_id"])
            memories[user].append(memory_id)
            yield RecordMemory(**common, kind=rng.choice(["fact", "lesson", "goal"]),
                               content=f"talked with {person} about {topic} (note {n % 97})",
                               entities=(topic, person), importance=round(rng.random(), 2))
        elif roll < 0.80:
            yield RecordEpisode(**common, session_id=f"{user}-s{n // 50}", messages=(
                Message(role="user", content=f"I have been thinking about {rng.choice(TOPICS)}",
                        timestamp=at),
                Message(role="assistant", content="Tell me more.", timestamp=at),
            ))
        elif roll < 0.90 and memories[user]:
            memory_id = rng.choice(memories[user])
            forgotten[user].append(memory_id)
            yield ForgetMemory(**common, memory_id=memory_id, reason="asked to")
        elif roll < 0.995 and (forgotten[user] or memories[user]):
            memory_id = rng.choice(forgotten[user] or memories[user])
            yield RestoreMemory(**common, memory_id=memory_id)
        elif roll >= 0.995:
            memories[user].clear()
            forgotten[user].clear()
            yield EraseUser(**common)
        else:
            yield ForgetMemory(**common, memory_id=f"{user}-no-such-memory")
