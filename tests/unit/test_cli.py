import json

from typer.testing import CliRunner

from infra.local.servers import cluster_id
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
