"""The reminder relay: sends what is due once, only while it holds the lease, and a restart in
embedded mode (a new relay over the same file) sends nothing twice."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from domain.lifecycle.reminders import ReminderDue, reminder_id
from infra.reminders import SqliteReminderOutbox
from projections.reminders import TodoDue
from services.lifecycle.reminders import ReminderRelay

NOW = datetime(2026, 3, 20, 8, tzinfo=UTC)


class Todos:
    def __init__(self, todos: list[TodoDue]) -> None:
        self.todos = todos
        self.asked: list[tuple[datetime, datetime]] = []

    def due(self, since: datetime, until: datetime, limit: int = 10_000) -> list[TodoDue]:
        self.asked.append((since, until))
        return [t for t in self.todos if since < t.remind_at <= until]


class Lease:
    def __init__(self, free: bool = True) -> None:
        self.free = free
        self.holders: list[str] = []

    def take_lease(self, name: str, holder: str, now: datetime, until: datetime) -> bool:
        self.holders.append(holder)
        return self.free

    def release_lease(self, name: str, holder: str) -> None:
        pass


class Hook:
    def __init__(self) -> None:
        self.posted: list[ReminderDue] = []

    def post(self, reminder: ReminderDue) -> bool:
        self.posted.append(reminder)
        return True


def todo(n: int, minutes_ago: int) -> TodoDue:
    return TodoDue("ada", f"todo-{n}", f"to-do {n}", NOW + timedelta(hours=1),
                   NOW - timedelta(minutes=minutes_ago))


def test_due_reminders_are_sent_once_and_not_again_after_a_restart(tmp_path: Path) -> None:
    todos = Todos([todo(1, 5), todo(2, 1)])
    hook = Hook()
    outbox = SqliteReminderOutbox(tmp_path / "r.sqlite3")
    first = ReminderRelay(todos, Lease(), outbox, hook, clock=lambda: NOW)
    assert first.run_once() == 2 and first.run_once() == 0
    assert [r.reminder_id for r in hook.posted] == [
        reminder_id("ada", f"todo-{n}", todos.todos[n - 1].remind_at) for n in (1, 2)]
    todos.todos.append(todo(3, 0))
    restarted = ReminderRelay(todos, Lease(), SqliteReminderOutbox(tmp_path / "r.sqlite3"), hook,
                              clock=lambda: NOW)
    assert restarted.run_once() == 1 and [r.memory_id for r in hook.posted][-1] == "todo-3"
    # It looks back as far as the catch-up window, and no further.
    assert todos.asked[-1] == (NOW - timedelta(days=7), NOW)


def test_a_relay_without_the_lease_sends_nothing(tmp_path: Path) -> None:
    hook = Hook()
    outbox = SqliteReminderOutbox(tmp_path / "r.sqlite3")
    relay = ReminderRelay(Todos([todo(1, 5)]), Lease(free=False), outbox, hook, clock=lambda: NOW)
    assert relay.run_once() == 0 and hook.posted == []
