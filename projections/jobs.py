"""Runs of long work (a maintenance run, an erasure, a purge) as the API follows them: one `:Job`
node each, beside the graph like the lease (not projected from the log, left out of fingerprints).

The process running a job beats on it every few seconds; one whose beat has stopped was cut short
(its process stopped), which is how a reader tells a run that is still going from one that died."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from projections.reads import GraphQueries

_CREATE = """
MERGE (j:Job {key: $key})
SET j += $fields, j.started_at = datetime($now), j.updated_at = datetime($now), j.finished_at = null,
    j.state = 'running', j.error = null, j.report = null, j.done = 0, j.total = null
"""

_BEAT = """
MATCH (j:Job {key: $key, holder: $holder}) WHERE j.state = 'running'
SET j.updated_at = datetime($now), j.done = coalesce($done, j.done), j.total = coalesce($total, j.total)
"""

_FINISH = """
MATCH (j:Job {key: $key, holder: $holder})
SET j.state = $state, j.updated_at = datetime($now), j.finished_at = datetime($now), j.report = $report,
    j.error = $error
"""

_GET = "MATCH (j:Job {key: $key}) RETURN j {.*} AS job"

_STALE = """
MATCH (j:Job) WHERE j.kind IN $kinds
  AND (j.state = 'interrupted' OR (j.state = 'running' AND j.updated_at < datetime($before)))
RETURN j {.*} AS job ORDER BY j.started_at LIMIT $limit
"""


@dataclass(frozen=True)
class JobRecord:
    key: str
    run_id: str
    kind: str
    state: str  # running, done, failed, interrupted (written when its process stopped cleanly)
    holder: str
    started_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None
    done: int = 0
    total: int | None = None
    report: dict[str, Any] | None = None
    error: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)  # what the run was asked (to resume it)


def job_key(scope: str, run_id: str) -> str:
    """A run's id names it within its scope: `maintenance`, or the person whose run it is."""
    return f"{scope}\x1f{run_id}"


def _record(row: dict[str, Any]) -> JobRecord:
    native = {k: v.to_native() if hasattr(v, "to_native") else v for k, v in row.items()}
    return JobRecord(key=native["key"], run_id=native["run_id"], kind=native["kind"], state=native["state"],
                     holder=native["holder"], started_at=native["started_at"],
                     updated_at=native["updated_at"],
                     finished_at=native.get("finished_at"), done=native.get("done") or 0,
                     total=native.get("total"),
                     report=json.loads(native["report"]) if native.get("report") else None,
                     error=native.get("error"),
                     fields=json.loads(native["asked"]) if native.get("asked") else {})


class JobQueries(GraphQueries):
    def create(self, scope: str, run_id: str, kind: str, holder: str, now: datetime,
               asked: dict[str, Any]) -> None:
        self._run(_CREATE, key=job_key(scope, run_id), now=now.isoformat(),
                  fields={"run_id": run_id, "kind": kind, "holder": holder, "scope": scope,
                          "asked": json.dumps(asked, default=str)})

    def beat(self, key: str, holder: str, now: datetime, done: int | None = None,
             total: int | None = None) -> None:
        self._run(_BEAT, key=key, holder=holder, now=now.isoformat(), done=done, total=total)

    def finish(self, key: str, holder: str, now: datetime, state: str, report: dict[str, Any] | None,
               error: str | None) -> None:
        self._run(_FINISH, key=key, holder=holder, now=now.isoformat(), state=state, error=error,
                  report=json.dumps(report, default=str) if report is not None else None)

    def get(self, scope: str, run_id: str) -> JobRecord | None:
        records = self._run(_GET, key=job_key(scope, run_id))
        return _record(dict(records[0]["job"])) if records else None

    def stale(self, kinds: list[str], before: datetime, limit: int = 100) -> list[JobRecord]:
        """Runs cut short: marked interrupted (their process stopped cleanly), or still marked
        running with no beat since `before` (their process died)."""
        return [_record(dict(r["job"])) for r in self._run(_STALE, kinds=kinds, before=before.isoformat(),
                                                           limit=limit)]
