from .cli.main import cli

cli(prog_name="analyzer")
