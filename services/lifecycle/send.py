"""How a background job's commands reach the log: through this process's own command handler
(embedded mode: it is the one writer), or onto `lore.commands` for the workers (Kafka mode),
returning once each has taken effect."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Sequence

from domain.commands import Command
from domain.sealing import Sealer
from projections.outcomes import CommandOutcome, CommandRef
from services.commands import CommandHandler
from services.wire import to_sealed_message

log = logging.getLogger(__name__)

Publish = Callable[[bytes, str], None]
Outcomes = Callable[[Collection[CommandRef]], dict[CommandRef, CommandOutcome]]


def direct(handler: CommandHandler) -> Callable[[Sequence[Command]], None]:
    def send(commands: Sequence[Command]) -> None:
        handler.handle(list(commands))
    return send


def through_kafka(publish: Publish, flush: Callable[[], None], outcomes: Outcomes,
                  stall_s: float = 600.0, poll_s: float = 0.2,
                  sealer: Sealer | None = None) -> Callable[[Sequence[Command]], None]:
    """Publish (sealed with each person's key, given a `sealer`), then wait while the workers make
    progress; `stall_s` without any is an error."""

    def send(commands: Sequence[Command]) -> None:
        for command in commands:
            publish(to_sealed_message(command, sealer), command.user_id)
        flush()
        waiting = {(c.user_id, c.command_id) for c in commands}
        last = time.monotonic()
        while waiting:
            done = set(outcomes(waiting))
            if done:
                waiting -= done
                last = time.monotonic()
            elif time.monotonic() - last > stall_s:
                raise TimeoutError(f"{len(waiting)} commands not applied after {stall_s:.0f} s without "
                                   "progress: is a `lore worker` (or `lore serve`) consuming lore.commands?")
            else:
                time.sleep(poll_s)
    return send
