"""Reminders: every to-do whose `remind_at` has passed is sent once as a ReminderDue.

One server sends at a time (a lease in the graph, renewed at each round); the outbox makes a
send exactly once even when the lease changes hands mid-send (infra/reminders.py). A server that
was down sends, when it is back, the reminders of the last `catch_up` it missed.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol

from domain.lifecycle.reminders import ReminderDue, reminder_id
from projections.reminders import TodoDue

log = logging.getLogger(__name__)

LEASE = "reminders"


class ReminderReads(Protocol):
    def due(self, since: datetime, until: datetime, limit: int = ...) -> list[TodoDue]: ...


class Leases(Protocol):
    def take_lease(self, name: str, holder: str, now: datetime, until: datetime) -> bool: ...

    def release_lease(self, name: str, holder: str) -> None: ...


class Outbox(Protocol):
    def send(self, reminders: Sequence[ReminderDue]) -> list[ReminderDue]:
        """Send those not sent before; the ones sent now."""


class Webhook(Protocol):
    def post(self, reminder: ReminderDue) -> bool: ...


class ReminderRelay:
    def __init__(self, reads: ReminderReads, leases: Leases, outbox: Outbox, webhook: Webhook | None,
                 catch_up: timedelta = timedelta(days=7), lease_for: timedelta = timedelta(seconds=15),
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 ready: Callable[[], None] = lambda: None) -> None:
        self.reads = reads
        self.ready = ready
        self.leases = leases
        self.outbox = outbox
        self.webhook = webhook
        self.catch_up = catch_up
        self.lease_for = lease_for
        self.clock = clock
        # Who holds the lease, readable by an operator (and a test): host, process, instance.
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    def run_once(self) -> int:
        """One round: the reminders due now, sent if this server holds the lease; how many were sent."""
        self.ready()  # the graph's constraints first: the lease is unique by them
        now = self.clock()
        if not self.leases.take_lease(LEASE, self.holder, now, now + self.lease_for):
            return 0
        due = [ReminderDue(reminder_id=reminder_id(t.user_id, t.memory_id, t.remind_at), user_id=t.user_id,
                           memory_id=t.memory_id, content=t.content, due_at=t.due_at, remind_at=t.remind_at,
                           sent_at=now)
               for t in self.reads.due(now - self.catch_up, now)]
        if not due:
            return 0
        sent = self.outbox.send(due)
        if self.webhook is not None:
            for reminder in sent:
                if not self.webhook.post(reminder):
                    log.warning("reminder %s could not be posted to the webhook", reminder.reminder_id)
        if sent:
            log.info("reminders: sent %d", len(sent))
        return len(sent)

    def stop(self) -> None:
        self.leases.release_lease(LEASE, self.holder)
