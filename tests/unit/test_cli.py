import json
from pathlib import Path

from typer.testing import CliRunner

from infra.local.servers import cluster_id
from infra.settings import Settings
from services.cli import app


def test_help_lists_the_commands() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("infra", "serve", "worker", "produce", "asyncapi", "rebuild", "fingerprint"):
        assert command in result.output


def test_infra_help_explains_up_down_status() -> None:
    result = CliRunner().invoke(app, ["infra", "--help"])
    assert result.exit_code == 0
    for command in ("up", "down", "status", "wipe"):
        assert command in result.output


def test_asyncapi_documents_the_command_topics_and_their_schema() -> None:
    result = CliRunner().invoke(app, ["asyncapi"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert {"lore.commands", "lore.commands.dlq"} <= {c["address"] for c in document["channels"].values()}
    schemas = json.dumps(document["components"]["schemas"])
    assert "RecordMemory" in schemas and "command_id" in schemas and "payload" in schemas


def test_a_kafka_cluster_id_never_reads_as_an_option() -> None:
    ids = [cluster_id() for _ in range(2_000)]  # about 30 of as many random ids start with "-"
    assert not any(i.startswith("-") for i in ids) and len(set(ids)) == len(ids)
    assert all(len(i) == 22 for i in ids)


def test_serve_on_the_stack_takes_its_kafka_unless_an_embedded_log_holds_entries(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from domain.events import MemoryRecorded
    from domain.stored import Decided
    from infra.eventlog.sqlite import SqliteEventLog
    from services.cli.serve import on_the_stack

    fresh = Settings(home=tmp_path / "fresh", local_kafka_port=19999)
    moved, why = on_the_stack(fresh)
    assert (moved.kafka_bootstrap, why) == ("127.0.0.1:19999", None)
    assert moved.uses_kafka_log
    named = Settings(home=tmp_path / "fresh", kafka_bootstrap="kafka.example:9092")
    assert on_the_stack(named) == (named, None)  # a Kafka the settings name is kept
    embedded = Settings(home=tmp_path / "old", event_log="sqlite")
    assert on_the_stack(embedded) == (embedded, None)
    old = Settings(home=tmp_path / "old")
    log = SqliteEventLog(old.sqlite_log_path)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    said = MemoryRecorded(event_id="e", user_id="ada", command_id="c1", occurred_at=at, recorded_at=at,
                          memory_id="m", kind="fact", content="x", valid_from=at)
    log.append([Decided("c1", "ada", [said])])
    log.close()
    kept, why = on_the_stack(old)
    assert kept is old and why is not None and "holds 1 entries" in why
