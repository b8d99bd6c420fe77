"""The embedded log: one command id per person, and a log of an earlier version rewritten in place."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from domain import codec
from domain.events import MemoryRecorded
from domain.stored import Decided
from infra.eventlog.sqlite import SqliteEventLog

AT = datetime(2026, 1, 1, tzinfo=UTC)


def decided(user: str, command_id: str) -> Decided:
    event = MemoryRecorded(event_id=f"e-{user}-{command_id}", user_id=user, command_id=command_id,
                           occurred_at=AT, recorded_at=AT, memory_id=f"m-{user}-{command_id}", kind="fact",
                           content=f"{user} says {command_id}", valid_from=AT)
    return Decided(command_id, user, [event])


def test_two_people_may_log_the_same_command_id_and_one_person_only_once(tmp_path: Path) -> None:
    log = SqliteEventLog(tmp_path / "events.sqlite3")
    assert len(log.append([decided("ada", "chat-1"), decided("bob", "chat-1")])) == 2
    assert log.append([decided("ada", "chat-1")]) == []
    assert log.count() == 2


def test_a_log_of_an_earlier_version_keeps_its_entries_and_positions(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    old = sqlite3.connect(path)
    old.executescript("""
        CREATE TABLE entries (position INTEGER PRIMARY KEY, user_id TEXT NOT NULL,
                              command_id TEXT NOT NULL UNIQUE, events INTEGER NOT NULL,
                              payload BLOB NOT NULL);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('log_id', 'sqlite:the-old-one');
    """)
    for d in (decided("ada", "c1"), decided("ada", "c2")):
        old.execute("INSERT INTO entries(user_id, command_id, events, payload) VALUES (?, ?, 1, ?)",
                    (d.user_id, d.command_id, codec.encode_entry(d.events)))
    old.commit()
    old.close()

    log = SqliteEventLog(path)
    assert log.log_id == "sqlite:the-old-one"
    assert [(s.position, s.event.command_id) for b in log.read({}) for s in b] == [(0, "c1"), (1, "c2")]
    assert [s.position for s in log.append([decided("bob", "c1")])] == [2]
    log.close()
    again = SqliteEventLog(path)  # opening it again changes nothing
    assert again.count() == 3 and again.end() == {0: 2}
    again.close()
