"""A real Lore HTTP server for a test: uvicorn in a thread, on a free port, over the test's Neo4j."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import uvicorn

from domain.access import Scope, issue_key
from infra.apikeys.sqlite import SqliteApiKeyStore
from infra.local.process import free_port
from infra.settings import Settings
from services.api import create_app
from services.bootstrap import Lore, bootstrap
from services.commands import Clock
from tests.support.kafka_flow import wait_until


@contextmanager
def running_api(settings: Settings, clock: Clock | None = None, port: int | None = None) -> Iterator[str]:
    """The base URL of a Lore serving `settings` until the block ends; `clock`: its transaction
    time (what it records `recorded_at` by), for a test that needs knowledge spread over months;
    `port`: where (a server started again on the same one, as after a restart)."""
    def made() -> Lore:
        lore = bootstrap(settings)
        if clock is not None:
            lore.commands.clock = clock
        return lore

    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(made), host="127.0.0.1", port=port,
                                           log_level="warning", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), "the API to start")
    assert server.started, "the API did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def api_key(settings: Settings, tenant: str, scope: Scope = Scope.WRITE) -> str:
    """A new key of the tenant, in the embedded key store of `settings`."""
    token, made = issue_key(tenant, scope, datetime.now(UTC))
    store = SqliteApiKeyStore(settings.home / "api-keys.sqlite3")
    store.add(made)
    store.close()
    return token
