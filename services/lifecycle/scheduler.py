"""The lifecycle's jobs inside `lore serve`, on APScheduler: maintenance on a cron (03:00 UTC by
default) and the reminders every few seconds. A job never overlaps itself; one missed while the
server was down is run once when it is back (coalesced)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger

from services.lifecycle.maintenance import MaintenanceBusy, MaintenanceService, run_id_for
from services.lifecycle.reminders import ReminderRelay

log = logging.getLogger(__name__)


class LifecycleScheduler:
    def __init__(self, maintenance: MaintenanceService | None, cron: str, relay: ReminderRelay | None,
                 reminder_every_s: float) -> None:
        self.maintenance = maintenance
        self.relay = relay
        defaults = {"coalesce": True, "max_instances": 1, "misfire_grace_time": 3600}
        self._scheduler = BackgroundScheduler(timezone=UTC, job_defaults=defaults)
        if maintenance is not None and cron.strip():
            self._scheduler.add_job(self._maintain, CronTrigger.from_crontab(cron, timezone=UTC),
                                    id="maintenance", name="maintenance")
        if relay is not None:
            self._scheduler.add_job(self._remind, "interval", seconds=reminder_every_s, id="reminders",
                                    name="reminders", next_run_time=datetime.now(UTC))

    def _maintain(self) -> None:
        assert self.maintenance is not None
        # Named by its scheduled minute: servers firing together make one run.
        as_of = datetime.now(UTC).replace(second=0, microsecond=0)
        try:
            self.maintenance.run(as_of=as_of, run_id=run_id_for(as_of, scheduled=True))
        except MaintenanceBusy:
            log.info("maintenance: another server is running it")
        except Exception:
            log.exception("maintenance run failed; the next one tries again")

    def _remind(self) -> None:
        assert self.relay is not None
        try:
            self.relay.run_once()
        except Exception as error:  # noqa: BLE001 - the next round tries again
            log.warning("reminders: round failed (%s); trying again", error)

    def start(self) -> None:
        self._scheduler.start()

    def stop(self) -> None:
        self._scheduler.shutdown(wait=True)
        if self.relay is not None:
            self.relay.stop()
