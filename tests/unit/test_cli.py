from typer.testing import CliRunner

from lore.services.cli import app


def test_help_lists_the_commands() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("infra", "serve"):
        assert command in result.output


def test_infra_help_explains_up_down_status() -> None:
    result = CliRunner().invoke(app, ["infra", "--help"])
    assert result.exit_code == 0
    for command in ("up", "down", "status", "wipe"):
        assert command in result.output
