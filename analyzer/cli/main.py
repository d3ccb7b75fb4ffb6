"""The ``analyzer`` click group; each command lives in a module of its family and is
imported only when used, which keeps ``analyzer --help`` and quick commands fast.

Importing this module loads click and nothing heavy.  A stop at any instant of a command
ends it with one line and the interrupted status: while the command line loads it is
noted (:mod:`analyzer._startup`) and acted on as :meth:`LazyGroup.main` starts; while
numpy and numba load, or the command runs, it is raised; once the command has ended
(its result written, or its stop reported) it is recorded and read as the process exits
at once (:func:`~analyzer.cli.exits.exit_finished`), without the interpreter's teardown."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from .._startup import stopped_early
from .._version import __version__
from ..core.interrupts import end_run, record_stop, stop_requested
from .exits import ERROR_EXIT, INTERRUPTED_EXIT, exit_finished, report_os_error
from .progress import watch_compiles
from .signals import interrupt_on_sigterm

#: Command name -> "module:attribute" of its click command.
COMMANDS = {
    "deadwood": "analyzer.cli.lookup:deadwood",
    "rules": "analyzer.cli.lookup:rules_command",
    "policies": "analyzer.cli.lookup:policies_command",
    "replay": "analyzer.cli.play:replay_command",
    "simulate": "analyzer.cli.study_commands:simulate_command",
    "games": "analyzer.cli.study_commands:games_command",
    "knock-sweep": "analyzer.cli.study_commands:knock_sweep_command",
    "knock-chart": "analyzer.cli.study_commands:knock_chart_command",
    "knock-schedule": "analyzer.cli.study_commands:knock_schedule_command",
    "tournament": "analyzer.cli.study_commands:tournament_command",
    "variants": "analyzer.cli.study_commands:variants_command",
    "dealt": "analyzer.cli.study_commands:dealt_command",
    "report": "analyzer.cli.report:report_command",
    "exact": "analyzer.cli.study_commands:exact_command",
    "equity": "analyzer.cli.study_commands:equity_command",
    "advise": "analyzer.cli.advise:advise_command",
    "rummy": "analyzer.cli.rummy:rummy",
    "exploit": "analyzer.cli.study_commands:exploit_command",
    "when-to-knock": "analyzer.cli.study_commands:when_to_knock_command",
    "how-to-discard": "analyzer.cli.study_commands:how_to_discard_command",
    "how-to-draw": "analyzer.cli.study_commands:how_to_draw_command",
    "guide": "analyzer.cli.study_commands:guide_command",
    "equilibrium": "analyzer.cli.study_commands:equilibrium_command",
    "fit-discard": "analyzer.cli.study_commands:fit_discard_command",
    "panel-equilibrium": "analyzer.cli.study_commands:panel_equilibrium_command",
    "agent": "analyzer.cli.agent:agent_command",
    "serve": "analyzer.cli.serve:serve_command",
    "warm": "analyzer.cli.warm:warm_command",
}


#: The commands ``analyzer --help`` lists first: the questions players ask.
FIRST_COMMANDS = ("guide", "when-to-knock", "how-to-discard", "how-to-draw")

#: Click (8.2+) raises this when a group is run without arguments, to show its help.
_NO_ARGS_IS_HELP: type[click.UsageError] = getattr(
    click.exceptions, "NoArgsIsHelpError", type("_Never", (click.UsageError,), {})
)


class _Stopped(BaseException):
    """Ctrl-C on its way past click's own handler, which would print a blank line before
    the one ``Error: interrupted`` line."""


def _damaged_file_line(error: Exception) -> bool:
    """One ``Error:`` line for a file the analyzer wrote and reads back (a results
    folder's CSV or ``meta.json``) found damaged, whichever command read it; False (and
    nothing) for any other error."""
    reading = sys.modules.get("analyzer.studies.reading")  # imported by whatever raised one
    if reading is not None and isinstance(error, reading.DamagedFile):
        click.echo(f"Error: {' '.join(str(error).split())}", err=True)
        return True
    return False


class LazyGroup(click.Group):
    """A group whose commands from other modules are imported only when used."""

    def __init__(self, *args: Any, lazy_commands: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = lazy_commands

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's ``main``, with every usage error on one stderr line (``Error: ...``,
        exit status 2) instead of click's usage block, a file or stream that cannot be
        written as one line too (status 2), and Ctrl-C or SIGTERM as status 130: also
        one that arrives while the commands' modules load, or that numba swallowed."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = self._ended(args, prog_name, complete_var, **extra)
            end_run()  # a stop from now is recorded: exit_finished ends the run as one
        except KeyboardInterrupt:  # also one that came while an error line was written
            end_run()
            click.echo("Error: interrupted", err=True)
            code = INTERRUPTED_EXIT
        exit_finished(code)

    def _ended(
        self, args: Any, prog_name: str | None, complete_var: str | None, **extra: Any
    ) -> int:
        """Run the command; its exit status, any error reported in one line (a stop
        raises ``KeyboardInterrupt``)."""
        try:
            # first, before any heavy module loads: a stop at any point is then recorded
            early = stopped_early()
            interrupt_on_sigterm(forget=True)
            if early or stopped_early():  # while the command line loaded (noted, not raised)
                record_stop()
                raise KeyboardInterrupt
            code = super().main(args, prog_name, complete_var, False, **extra)
            sys.stdout.flush()  # an output that cannot be written fails here, not at exit
            if stop_requested():  # swallowed on its way (a callback from numba's compiler)
                raise KeyboardInterrupt
            return code if isinstance(code, int) else 0
        except SystemExit as ended:  # a command that ended itself after its one line
            if isinstance(ended.code, str):
                click.echo(ended.code, err=True)
            return ended.code if isinstance(ended.code, int) else int(ended.code is not None)
        except _NO_ARGS_IS_HELP as error:
            error.show()  # a group or command run bare: its help, not an error line
            return error.exit_code
        except click.ClickException as error:
            click.echo(f"Error: {' '.join(error.format_message().split())}", err=True)
            return error.exit_code
        except (click.Abort, _Stopped):
            raise KeyboardInterrupt from None
        except OSError as error:
            return report_os_error(error)
        except Exception as error:
            if not stop_requested():
                if _damaged_file_line(error):
                    return ERROR_EXIT
                raise
            # a stop swallowed inside numba's compiler can leave it failing in odd ways
            raise KeyboardInterrupt from None

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt as stop:
            raise _Stopped from stop

    def invoke(self, ctx: click.Context) -> Any:
        try:
            watch_compiles()  # a command that must compile says so when it starts to
            return super().invoke(ctx)
        except KeyboardInterrupt as stop:
            raise _Stopped from stop

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list: the players' questions with their whole one-line question
        (wrapped if need be), every other command's summary cut to one line."""
        rows = []
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        for name in names:
            command = self.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            whole = name in FIRST_COMMANDS
            rows.append((name, command.get_short_help_str(10_000 if whole else limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The players' questions (the guide, then knock, discard and draw) first; the
        rest alphabetically."""
        names = sorted([*super().list_commands(ctx), *self.lazy_commands])
        return [*FIRST_COMMANDS, *(name for name in names if name not in FIRST_COMMANDS)]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.lazy_commands:
            return super().get_command(ctx, name)
        module_name, attribute = self.lazy_commands[name].split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(
    cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]}, lazy_commands=COMMANDS
)
@click.version_option(__version__, prog_name="analyzer")
def cli() -> None:
    """Gin rummy and rummy strategy analyzer.

    Every number an option takes has a range, shown in each command's --help and checked
    before any work starts.  Ctrl-C or SIGTERM stops a run within about a second and exits
    with status 130 (simulate and knock-sweep first print or save what they finished).
    """
    interrupt_on_sigterm()
