"""A search as of a time finds what a list as of that time holds: every source keeps to the
window before it cuts its candidates, over the real Neo4j, with the local embedding model."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from neo4j import Driver

from domain.commands import ForgetMemory, RecordMemory
from infra.settings import Settings
from projections.search import Window
from services.bootstrap import Lore, bootstrap
from tests.support.servers import ServerEndpoints

DAY0 = datetime(2020, 1, 1, tzinfo=UTC)


@pytest.fixture()
def lore(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[Lore]:
    app = bootstrap(Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path))  # the local model
    yield app
    app.close()


def record(lore: Lore, user: str, contents: list[tuple[str, datetime]], **fields: object) -> list[str]:
    commands = [RecordMemory(command_id=f"c{n}-{uuid.uuid4().hex[:6]}", user_id=user, occurred_at=at,
                             content=text, valid_from=at, **fields) for n, (text, at) in enumerate(contents)]
    outcomes = lore.commands.handle(commands)
    assert all(o.status == "applied" for o in outcomes)
    return [str(o.memory_id) for o in outcomes]


def hits(lore: Lore, user: str, query: str, at: datetime, limit: int = 10) -> list[str]:
    return [h.id for h in lore.search.search(user, query, Window(valid_at=at, known_at=None), limit=limit)]


def test_an_old_memory_is_found_as_of_its_time_behind_many_newer_ones(lore: Lore) -> None:
    jasmine = ("In 2021 Ada drank jasmine tea every morning", datetime(2021, 1, 5, tzinfo=UTC))
    (old,) = record(lore, "ada", [jasmine])
    newer = [(f"Ada tried a new tea today, a sencha from shop number {n}", datetime(2025, 1, 1, tzinfo=UTC)
              + timedelta(days=n)) for n in range(80)]
    record(lore, "ada", newer)
    then = datetime(2021, 6, 1, tzinfo=UTC)
    assert [m.memory_id for m in lore.queries.memories("ada", valid_at=then)] == [old]
    assert hits(lore, "ada", "which tea does Ada drink?", then) == [old]
    assert hits(lore, "ada", "sencha tea from the shop", then) == [old]  # the newer ones' own words
    assert hits(lore, "ada", "which tea does Ada drink?", datetime(2020, 6, 1, tzinfo=UTC)) == []


# Things said again and again over the years, in words the others do not share: asked in those
# words, every time they were said ties for every source, and only the window tells them apart.
PHRASES = ["had a migraine in the afternoon", "walked the dog along the river", "baked sourdough bread"]
said = st.tuples(
    st.sampled_from([PHRASES[0]] * 3 + PHRASES[1:]),  # one of them said far more often
    st.sampled_from(["event", "fact", "preference"]),
    st.integers(0, 2000),                          # valid_from, in days
    st.one_of(st.none(), st.integers(1, 300)),     # how long it held, if it ended
    st.booleans(),                                 # forgotten afterwards
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(said, min_size=100, max_size=200), st.integers(0, 30), st.integers(0, 3))
def test_every_memory_a_list_holds_at_a_time_a_search_then_finds_by_its_words(
    lore: Lore, history: list[tuple[str, str, int, int | None, bool]], nth: int, after: int
) -> None:
    user = f"p-{uuid.uuid4().hex[:10]}"
    commands = [RecordMemory(
        command_id=f"{user}-r{n}", user_id=user, occurred_at=DAY0 + timedelta(days=start), kind=kind,
        content=f"{phrase} (note {n})",
        valid_from=DAY0 + timedelta(days=start),
        valid_until=DAY0 + timedelta(days=start + length) if length else None)
        for n, (phrase, kind, start, length, _) in enumerate(history)]
    outcomes = lore.commands.handle(commands)
    forgotten = {str(o.memory_id) for o, said_ in zip(outcomes, history, strict=True) if said_[4]}
    lore.commands.handle([ForgetMemory(command_id=f"{user}-f{n}", user_id=user, occurred_at=DAY0, memory_id=m)
                          for n, m in enumerate(sorted(forgotten))])

    # As of a day soon after the nth thing said: few are true yet, many come later.
    at = DAY0 + timedelta(days=sorted(start for _, _, start, _, _ in history)[nth] + after)
    listed = lore.queries.memories(user, valid_at=at, limit=1000)
    for phrase in PHRASES:
        held = {m.memory_id for m in listed if m.content.startswith(phrase)}
        found = hits(lore, user, phrase, at, limit=10)
        assert set(found) <= {m.memory_id for m in listed}, "a search found what was not true then"
        if len(held) <= 10:  # all of them fit in the answer
            assert held <= set(found), (phrase, at, len(held))
