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


TOPICS = ["tea", "coffee", "running", "Lisbon", "chess"]
memory_specs = st.lists(
    st.tuples(
        st.sampled_from(TOPICS),                     # what it is about (shared words across memories)
        st.integers(0, 1000),                         # valid_from, in days
        st.one_of(st.none(), st.integers(1, 400)),    # how long it held, if it ended
        st.sampled_from([None, None, "favourite_drink"]),  # sometimes a slot: values supersede
        st.booleans(),                                # forgotten afterwards
    ),
    min_size=1, max_size=18,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(memory_specs, st.integers(0, 1200))
def test_every_memory_a_list_holds_at_a_time_a_search_then_finds_by_its_words(
    lore: Lore, specs: list[tuple[str, int, int | None, str | None, bool]], day: int
) -> None:
    user = f"p-{uuid.uuid4().hex[:10]}"
    commands = []
    for n, (topic, start, length, slot, _) in enumerate(specs):
        valid_from = DAY0 + timedelta(days=start)
        commands.append(RecordMemory(
            command_id=f"r{n}", user_id=user, occurred_at=valid_from, kind="fact",
            content=f"note {n} of the person about {topic} and how it went",
            valid_from=valid_from, valid_until=valid_from + timedelta(days=length) if length else None,
            attribute=slot, value=f"{topic} {n}" if slot else None))
    outcomes = lore.commands.handle(commands)
    forgets = [ForgetMemory(command_id=f"f{n}", user_id=user, occurred_at=DAY0, memory_id=str(o.memory_id))
               for n, (o, spec) in enumerate(zip(outcomes, specs, strict=True))
               if spec[4] and o.status == "applied" and o.events >= 1]
    lore.commands.handle(forgets)

    at = DAY0 + timedelta(days=day)
    listed = lore.queries.memories(user, valid_at=at, limit=1000)
    for memory in listed:
        found = hits(lore, user, memory.content, at)
        assert memory.memory_id in found, (memory.content, at)
    # And nothing a list as of then leaves out.
    allowed = {m.memory_id for m in listed}
    for topic in TOPICS:
        assert set(hits(lore, user, topic, at, limit=50)) <= allowed
