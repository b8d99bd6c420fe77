"""bench.history's commands decided by the domain and appended to an event log, without Neo4j.

The command handler (services/commands.py) decides each command on its person's state, read from
the graph, and appends the entries in batches. Here the states stay in memory (as the handler's
cache keeps them), and an erasure is given the person's commands so far as the handler gives it
the graph's (every command of theirs that took effect): the log is the one the live path writes,
at the speed of the domain and the log alone, so that a benchmark of the rebuild can have a log of
ten million events without waiting on Neo4j for it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from domain.commands import Command, EraseUser
from domain.decide import decide, rejected
from domain.errors import DomainError
from domain.model import command_key
from domain.state import UserState, evolve
from domain.stored import Decided
from infra.eventlog.port import EventLog


def append_decided(event_log: EventLog, commands: Iterable[Command], batch: int = 2000,
                   on_batch: Callable[[int], None] = lambda _: None,
                   clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> int:
    """Decide and append `commands` in order; how many events the log took."""
    states: dict[str, UserState] = {}
    keys: dict[str, list[str]] = defaultdict(list)
    pending: list[Decided] = []
    events = 0

    def flush() -> None:
        nonlocal events
        if pending:
            events += len(event_log.append(pending))
            on_batch(len(pending))
            pending.clear()

    for command in commands:
        state = states.setdefault(command.user_id, UserState(command.user_id))
        now = clock()
        try:
            decided = decide(state, command, now, (), command_keys=keys[command.user_id]
                             if isinstance(command, EraseUser) else ())
        except DomainError as error:
            decided = [rejected(command, error, now)]
        else:
            evolve(state, decided)
        if decided:
            # The graph keeps every command that took effect, erased ones too (AppliedCommand).
            keys[command.user_id].append(command_key(command.user_id, command.command_id))
            pending.append(Decided(command.command_id, command.user_id, decided))
        if len(pending) >= batch:
            flush()
    flush()
    return events
