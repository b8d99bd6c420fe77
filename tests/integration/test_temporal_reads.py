"""As-of reads on a timeline: the value valid then, as Lore knew it then."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from neo4j import Driver

from domain.commands import ForgetMemory, RecordMemory, RestoreMemory
from infra.settings import Settings
from projections.search import Window
from projections.temporal import TemporalQueries
from services.bootstrap import bootstrap
from tests.support.servers import ServerEndpoints


def d(month: int, day: int = 1) -> datetime:
    return datetime(2026, month, day, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = d(1)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture()
def lore(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path):
    app = bootstrap(Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none"))
    app.commands.clock = Clock()
    yield app
    app.close()


def tell(lore, n: int, value: str, valid_from: datetime, told: datetime) -> None:
    lore.commands.clock.now = told
    (outcome,) = lore.commands.handle([RecordMemory(
        command_id=f"c{n}", user_id="ada", occurred_at=told, content=f"favourite colour is {value}",
        kind="preference", attribute="favorite_color", value=value, valid_from=valid_from)])
    assert outcome.status == "applied"


def test_each_month_answers_the_colour_of_that_month(lore) -> None:
    tell(lore, 1, "blue", valid_from=d(1), told=d(1, 2))
    tell(lore, 2, "green", valid_from=d(3), told=d(3, 2))
    tell(lore, 3, "red", valid_from=d(2), told=d(4, 2))  # late: true in February, told in April
    queries = TemporalQueries(lore.driver)

    def colour(valid_at: datetime, known_at: datetime | None = None) -> list[str]:
        return [m.value for m in queries.memories("ada", valid_at=valid_at, known_at=known_at,
                                                  attribute="favorite_color")]

    assert [colour(d(m, 15)) for m in (1, 2, 3, 4, 5)] == [["blue"], ["red"], ["green"], ["green"],
                                                          ["green"]]
    # Before the late value was told, Lore believed blue held through February.
    assert colour(d(2, 15), known_at=d(3, 20)) == ["blue"]
    # Before green was told, blue was still open-ended.
    assert colour(d(5, 15), known_at=d(2, 20)) == ["blue"]
    # Before anything was told, nothing.
    assert colour(d(1, 15), known_at=d(1, 1)) == []

    timeline = queries.timeline("ada", "Favorite_Color")
    assert [(m.value, m.valid_from, m.valid_until) for m in timeline] == [
        ("blue", d(1), d(2)), ("red", d(2), d(3)), ("green", d(3), None)]
    history = queries.history("ada", timeline[-1].memory_id)
    assert [m.value for m in history] == ["blue", "red", "green"]
    assert [m.status for m in history] == ["superseded", "superseded", "active"]


def test_forgotten_memories_are_hidden_now_but_visible_as_known_before(lore) -> None:
    tell(lore, 1, "blue", valid_from=d(1), told=d(1, 2))
    queries = TemporalQueries(lore.driver)
    (blue,) = queries.memories("ada")
    lore.commands.clock.now = d(2, 2)
    lore.commands.handle([ForgetMemory(command_id="f1", user_id="ada", occurred_at=d(2, 2),
                                       memory_id=blue.memory_id)])
    assert queries.memories("ada") == []
    assert [m.memory_id for m in queries.memories("ada", known_at=d(1, 20))] == [blue.memory_id]
    assert queries.memory("ada", blue.memory_id).status == "forgotten"


def test_a_memory_forgotten_then_restored_was_not_known_while_it_was_forgotten(lore) -> None:
    tell(lore, 1, "blue", valid_from=d(1), told=d(1, 2))
    queries = TemporalQueries(lore.driver)
    (blue,) = queries.memories("ada")
    for n, (command, month) in enumerate(((ForgetMemory, 3), (RestoreMemory, 5), (ForgetMemory, 7),
                                          (RestoreMemory, 9))):
        lore.commands.clock.now = d(month)
        (outcome,) = lore.commands.handle([command(command_id=f"x{n}", user_id="ada", occurred_at=d(month),
                                                   memory_id=blue.memory_id)])
        assert outcome.status == "applied"

    def known(month: int, day: int = 15) -> list[str]:
        return [m.memory_id for m in queries.memories("ada", valid_at=d(2), known_at=d(month, day))]

    held = [blue.memory_id]
    assert [known(m) for m in (2, 3, 4, 5, 6, 7, 8, 9, 10)] == [held, [], [], held, held, [], [], held, held]
    assert known(3, 1) == [] and known(5, 1) == [blue.memory_id]  # the instants themselves
    assert [m.memory_id for m in queries.memories("ada")] == [blue.memory_id]  # restored now

    def searched(month: int) -> list[str]:
        window = Window(valid_at=d(2), known_at=d(month, 15))
        return [h.id for h in lore.search.search("ada", "favourite colour blue", window)]

    assert [searched(m) for m in (2, 4, 6, 8, 10)] == [held, [], held, [], held]


def test_memories_by_id_come_in_the_order_asked_and_only_the_persons_own(lore) -> None:
    for n, (value, month) in enumerate((("blue", 1), ("red", 2), ("green", 3)), start=1):
        tell(lore, n, value, valid_from=d(month), told=d(month, 2))
    queries = TemporalQueries(lore.driver)
    by_value = {m.value: m.memory_id for m in queries.memories("ada")}
    asked = [by_value["green"], "no-such-memory", by_value["blue"], by_value["red"]]
    assert [m.value for m in queries.memories_by_id("ada", asked)] == ["green", "blue", "red"]
    assert queries.memories_by_id("grace", asked) == []  # another person's ids answer nothing
    assert queries.memories_by_id("ada", []) == []
