"""A maintenance run: for each person, what the rules of domain/lifecycle decide at `as_of`, sent
as one MaintainMemory command, so that every change is an event carrying the run's id.

One run at a time across processes (a lease in the graph). A run's commands are named by the run
and the person, so a run started twice (two servers at 03:00, or a run resumed after a crash)
changes each person once. A dry run reads and plans, and sends nothing.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from domain.commands import Command, Compression, ContradictionDecision, DecayDecision, MaintainMemory
from domain.lifecycle.maintenance import OFFLINE_COMPRESSOR, Decay, Group, Plan, compress_offline, plan
from projections.maintenance import PersonInputs

log = logging.getLogger(__name__)

LEASE = "maintenance"
LEASE_FOR = timedelta(minutes=10)


class MaintenanceReads(Protocol):
    def people(self, after: str | None, limit: int, only: str | None = None) -> list[str]: ...

    def inputs(self, user_ids: Collection[str], as_of: datetime) -> list[PersonInputs]: ...

    def runs(self, limit: int = ..., run_id: str | None = ...) -> list[dict[str, Any]]: ...

    def take_lease(self, name: str, holder: str, now: datetime, until: datetime) -> bool: ...

    def release_lease(self, name: str, holder: str) -> None: ...


class Compressor(Protocol):
    def compress(self, group: Group) -> Compression: ...


class OfflineCompressor:
    """Deterministic: the originals' sentences in one memory, word for word."""

    def compress(self, group: Group) -> Compression:
        return Compression(memory_ids=group.memory_ids, contents=tuple(compress_offline(group)),
                           compressor=OFFLINE_COMPRESSOR)


# Sends commands and returns once they have taken effect.
Send = Callable[[Sequence[Command]], None]


class MaintenanceBusy(RuntimeError):
    """Another process holds the maintenance lease."""


@dataclass
class MaintenanceReport:
    run_id: str
    as_of: datetime
    dry_run: bool
    users: int = 0
    evaluated: int = 0
    forgotten: int = 0
    demoted: int = 0
    compressed: int = 0
    contradictions: int = 0
    expired: int = 0
    duration_s: float = 0.0

    def count(self, found: Plan, expiring: int) -> None:
        self.users += 1
        self.evaluated += found.evaluated
        self.forgotten += len(found.forget)
        self.demoted += len(found.demote)
        self.compressed += sum(len(g.memory_ids) for g in found.compress)
        self.contradictions += len(found.contradictions)
        self.expired += expiring

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "as_of": self.as_of.isoformat()}


def run_id_for(as_of: datetime, scheduled: bool) -> str:
    """A scheduled run is named by its moment, so two servers firing together make one run."""
    stamp = f"{as_of:%Y%m%dT%H%M%SZ}"
    return f"scheduled-{stamp}" if scheduled else f"run-{stamp}-{uuid.uuid4().hex[:8]}"


def maintain_command_id(run_id: str) -> str:
    return f"maintain-{run_id}"


class MaintenanceService:
    def __init__(self, reads: MaintenanceReads, send: Send, compressor: Compressor | None = None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC), batch: int = 100,
                 ready: Callable[[], None] = lambda: None) -> None:
        self.reads = reads
        self.ready = ready
        self.send = send
        self.compressor = compressor or OfflineCompressor()
        self.clock = clock
        self.batch = batch
        self.holder = f"lore-{uuid.uuid4().hex[:12]}"

    def run(self, as_of: datetime | None = None, user_id: str | None = None, dry_run: bool = False,
            run_id: str | None = None, on_progress: Callable[[int], None] | None = None) -> MaintenanceReport:
        self.ready()  # the graph's constraints first: the lease is unique by them
        started = self.clock()
        as_of = as_of or started
        run_id = run_id or run_id_for(as_of, scheduled=False)
        report = MaintenanceReport(run_id, as_of, dry_run)
        clock = time.perf_counter()
        if not dry_run and not self._lease():
            raise MaintenanceBusy("another maintenance run holds the lease; try again when it is done")
        try:
            after: str | None = None
            while people := self.reads.people(after, self.batch, only=user_id):
                after = people[-1]
                commands = self._plan(self.reads.inputs(people, as_of), as_of, started, run_id, report)
                if commands and not dry_run:
                    self.send(commands)
                    self._lease()
                if on_progress:
                    on_progress(len(people))
        finally:
            if not dry_run:
                self.reads.release_lease(LEASE, self.holder)
        report.duration_s = round(time.perf_counter() - clock, 3)
        if not dry_run:
            self._applied(report)
        log.info("maintenance %s%s: %s", run_id, " (dry run)" if dry_run else "", report.as_dict())
        return report

    def reserve(self) -> None:
        """Take the run lease now (a run of this service goes on with it), or raise MaintenanceBusy."""
        self.ready()
        if not self._lease():
            raise MaintenanceBusy("another maintenance run holds the lease; try again when it is done "
                                  f"(a run cut short by a crash holds it at most {LEASE_FOR.seconds // 60} "
                                  "minutes after its last batch)")

    def release(self) -> None:
        self.reads.release_lease(LEASE, self.holder)

    def _lease(self) -> bool:
        now = self.clock()
        return self.reads.take_lease(LEASE, self.holder, now, now + LEASE_FOR)

    def _plan(self, people: list[PersonInputs], as_of: datetime, started: datetime, run_id: str,
              report: MaintenanceReport) -> list[Command]:
        commands: list[Command] = []
        for person in people:
            if not person.memories and not person.expiring:
                continue
            found = plan(person.memories, as_of, person.pinned)
            report.count(found, len(person.expiring))
            commands.append(MaintainMemory(
                command_id=maintain_command_id(run_id), user_id=person.user_id, occurred_at=as_of,
                run_id=run_id, as_of=as_of, started_at=started, evaluated=found.evaluated,
                forget=tuple(_decision(d) for d in found.forget),
                demote=tuple(_decision(d) for d in found.demote),
                compress=tuple(self.compressor.compress(g) for g in found.compress),
                contradictions=tuple(ContradictionDecision(memory_id=c.memory_id, by_memory_id=c.by_memory_id,
                                                           valid_until=c.valid_until)
                                     for c in found.contradictions),
                expire_episodes=tuple(person.expiring)))
        return commands

    def _applied(self, report: MaintenanceReport) -> None:
        """What the run's commands came to, as the graph counts them (a person changed since the
        plan is left as it is, and not counted)."""
        found = self.reads.runs(limit=1, run_id=report.run_id)
        if found:
            run = found[0]
            for name in _COUNTS:
                setattr(report, name, int(run.get(name) or 0))


_COUNTS = ("users", "evaluated", "forgotten", "demoted", "compressed", "contradictions", "expired")


def _decision(decay: Decay) -> DecayDecision:
    return DecayDecision(memory_id=decay.memory_id, relevance=decay.relevance,
                         access_count=decay.access_count, last_used_at=decay.last_used_at,
                         importance=decay.importance)
