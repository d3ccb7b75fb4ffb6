"""Every declared study (:mod:`analyzer.studies.study`) has a command and a notebook
function that take the same parameters, with the same defaults and ranges, and give the
same answer."""

import inspect

import click
import pytest
from click.testing import CliRunner

import analyzer as az
from analyzer.api import functions
from analyzer.cli.main import COMMANDS, cli
from analyzer.cli.study_commands import COMMANDS as STUDY_COMMANDS
from analyzer.studies.study import POSITIONAL, STUDIES, Kind

#: The options every study command has besides its declared parameters.
RUN_OPTIONS = {"seed", "jobs", "no_progress", "fmt", "as_json"}


def test_every_study_is_a_command_and_a_function():
    assert set(STUDY_COMMANDS) == set(STUDIES)
    for name, study in STUDIES.items():
        if " " in name:  # a command of a group: rummy simulate
            group, command = name.split()
            assert cli.get_command(None, group).get_command(None, command) is STUDY_COMMANDS[name]
        else:
            assert COMMANDS[name].startswith("analyzer.cli.study_commands:")
        assert study.function_name in functions.__all__
        assert getattr(az, study.function_name).__name__ == study.function_name


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_both_doors_take_the_same_parameters_and_defaults(name):
    study = STUDIES[name]
    command = STUDY_COMMANDS[name]
    options = {p.name: p for p in command.params}
    extra = {"checkpoint", "resume"} if study.checkpoint else set()
    extra |= {"preset"} if study.rules else set()
    extra |= {"overrides"} if study.rules else set()
    extra |= {"scheduler"} if study.scheduler else set()
    extra |= {"raw"} if study.rows is not None else set()
    assert set(options) == {p.name for p in study.params} | RUN_OPTIONS | extra | {"out"}
    signature = inspect.signature(getattr(az, study.function_name))
    assert set(signature.parameters) == {p.name for p in study.params} | {
        "seed",
        "progress",
        "out",
    } | ({"rules"} if study.rules else set()) | ({"keep_rows"} if study.rows else set())
    assert options["seed"].default == signature.parameters["seed"].default
    # the players (and lists of them) come first, then the rules, then keywords only
    before_rules = (
        list(signature.parameters)[: list(signature.parameters).index("rules")]
        if (study.rules)
        else []
    )
    assert all(
        study.param(name).kind in POSITIONAL and not study.param(name).keyword_only
        for name in before_rules
    )
    if study.rules:
        assert options["preset"].default == signature.parameters["rules"].default
    for param in study.params:
        option, argument = options[param.name], signature.parameters[param.name]
        assert argument.default == param.default
        if param.kind is Kind.THRESHOLDS:
            assert tuple(option.type.convert(option.default, None, None)) == param.default
        elif param.kind in (Kind.PLAYERS, Kind.PRESETS) and param.default is not None:
            assert tuple(option.default.split(",")) == param.default
        else:
            assert option.default == param.default
        if param.kind is Kind.COUNT:
            assert (option.type.min, option.type.max) == (param.low, param.high)
            with pytest.raises(ValueError, match=f"{param.name} must be"):
                getattr(az, study.function_name)(**{param.name: param.high + 1})
        if param.kind is Kind.CHOICE:
            assert isinstance(option.type, click.Choice)
            assert tuple(option.type.choices) == param.choices


def test_the_command_and_the_function_give_the_same_answer():
    arguments = ["--a", "basic", "--opponents", "gin-hunter", "--deals", "60", "--games", "4"]
    arguments += ["--thresholds", "0,8-10", "--seed", "2", "--no-progress"]
    printed = CliRunner().invoke(cli, ["knock-sweep", *arguments])
    assert printed.exit_code == 0, printed.output
    result = az.knock_sweep(
        "basic", ["gin-hunter"], deals=60, games=4, thresholds=[0, 8, 9, 10], seed=2
    )
    lines = printed.output.splitlines()
    assert " ".join(lines[:2]).replace("   ", " ") == result.title
    assert " ".join(lines[-2:]).replace("   ", " ") == result.verdict
    assert result.verdict
    assert " ".join(repr(result).split()).endswith(" ".join(result.verdict.split()))  # wrapped


def test_a_sweep_without_t10_is_read_against_its_first_threshold():
    result = az.knock_sweep("basic", deals=40, games=2, thresholds=[3, 5], seed=1)
    assert result["sweep"]["diff_mean"].iloc[0] == 0
    assert "knocking at 3 or less" in result.verdict


def test_both_doors_refuse_the_twin_the_same_way():
    """The sweep's opponents are policies: A's own twin (``same``, once ``--b same`` and
    ``b=None``) is no opponent of either door, and both say so naming the same policy."""
    printed = CliRunner().invoke(
        cli, ["knock-sweep", "--opponents", "same", "--deals", "20", "--no-progress"]
    )
    assert printed.exit_code == 2
    with pytest.raises(ValueError, match="unknown policy 'same'; presets are") as raised:
        az.knock_sweep(opponents=["same"], deals=20)
    assert printed.output.strip() == f"Error: {raised.value}"
    with pytest.raises(TypeError, match=r"opponents\[0\] must be a policy name"):
        az.knock_sweep(opponents=[None], deals=20)


def test_bad_thresholds_on_the_command_line_are_one_line_errors():
    for given, message in (
        ("3,3", "lists a threshold twice"),
        ("2-11", "must be 0-10"),
        ("x", "is not a list of knock thresholds"),
        ("5-3", "is not a list of knock thresholds"),
        (",", "is not a list of knock thresholds"),
    ):
        printed = CliRunner().invoke(cli, ["knock-sweep", "--thresholds", given])
        assert printed.exit_code == 2
        assert message in printed.output


def test_the_search_player_plays_through_both_doors():
    """The notebook took a plain policy only where the command took the search player."""
    printed = CliRunner().invoke(
        cli, ["simulate", "--a", "search,budget=4", "--deals", "2", "--seed", "3", "--no-progress"]
    )
    assert printed.exit_code == 0, printed.output
    result = az.simulate("search,budget=4", deals=2, seed=3)
    assert "A search,budget=4 against B basic" in result.title
    assert " ".join(printed.output.splitlines()[-1:]).strip() in result.verdict
    assert result.deals == 2 and result.hands == 4


def test_games_of_three_take_seats_from_both_doors():
    arguments = ["--players", "3", "--policies", "basic,simple,basic", "--games", "30"]
    printed = CliRunner().invoke(cli, ["games", *arguments, "--no-progress", "--format", "csv"])
    assert printed.exit_code == 0, printed.output
    result = az.play_games(players=3, policies=["basic", "simple", "basic"], games=30)
    assert printed.output == result.to_frame().to_csv(index=False)
    assert len(result.rows) == 30
    with pytest.raises(ValueError, match="search player plays two-player games only"):
        az.play_games("search", players=3, games=2)
    with pytest.raises(ValueError, match="search player plays two-player games only"):
        az.play_games(players=3, policies=["basic", "search,budget=4", "basic"], games=2)
    seats = ["--players", "3", "--policies", "basic,search,budget=4,basic,knock=7", "--games", "2"]
    printed = CliRunner().invoke(cli, ["games", *seats])
    assert printed.exit_code == 2
    assert "'search,budget=4': the search player plays two-player games only" in printed.output


def test_the_typed_stub_is_in_step_with_the_declarations():
    """``analyzer/api/functions.pyi`` is written from the declarations
    (``scripts/write_api.py``): a study added or changed is regenerated there too."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(root / "scripts" / "write_api.py"), "--check"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_architecture_page_names_every_module_that_declares_studies():
    """Its recipe "where to add a study" lists them; a new one must be added there."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "architecture.md").read_text()
    for module in {study.compute.__module__ for study in STUDIES.values()}:
        assert f"`{module.rsplit('.', 1)[1]}.py`" in page, module


def test_every_module_the_architecture_page_names_exists():
    """A module moved, split or removed (sweeps.py, cli/knock_answer.py) leaves no stale
    name in the recipes: every ``*.py`` the page names is a file of the package."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "architecture.md").read_text()
    package = root / "analyzer"
    names = {path.name for path in package.rglob("*.py")}
    for named in sorted(set(re.findall(r"`([\w/]+\.py)`", page))):
        if "/" in named:
            assert (package / named).is_file() or (root / named).is_file(), named
        else:
            assert named in names, named
