"""The ``analyzer serve`` command's registration and options (the server itself is
exercised by tests/web)."""

from click.testing import CliRunner

from analyzer.cli.main import COMMANDS, cli


def test_serve_is_a_lazy_command_binding_localhost_by_default():
    assert COMMANDS["serve"] == "analyzer.cli.serve:serve_command"
    listing = CliRunner().invoke(cli, ["--help"])
    assert "serve" in listing.output
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0, result.output
    assert "--host TEXT" in result.output and "[default: 127.0.0.1]" in result.output
    assert "[default: 8000;" in result.output


def test_serve_refuses_a_bad_port():
    result = CliRunner().invoke(cli, ["serve", "--port", "70000"])
    assert result.exit_code == 2
    assert "70000" in result.output
