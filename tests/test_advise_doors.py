"""The advisor's inputs are declared once (:mod:`analyzer.gin.play.advisor.inputs`): the
position (:class:`Position` and its readers), ``analyzer advise``, ``az.advise`` and
``POST /api/advise`` take the declared names, defaults, ranges and help, and one position
given through each door is the same :class:`Position`."""

import dataclasses
import inspect
import json

import click
import pytest
from click.testing import CliRunner

import analyzer as az
from analyzer._kernel_cache import kernel_modules
from analyzer.api import gin as notebook
from analyzer.cli import advise as command
from analyzer.cli.inputs import FiniteFloatRange
from analyzer.cli.main import cli
from analyzer.gin.play.advisor import Position
from analyzer.gin.play.advisor import inputs as declaration
from analyzer.gin.play.advisor.inputs import ADVICE_OPTIONS, POSITION_FIELDS, InputKind

NAMES = [spec.name for spec in POSITION_FIELDS]
#: Every field away from its default, in notation.
NOTATION = {
    "hand": "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h",
    "pile": "Td Ks Jh Ts Kd Tc",
    "opp_took": "8d 9s",
    "opp_threw": "Tc Jh Ts Ks",
    "stock": 24,
    "turn": 5,
    "dealer": "me",
    "drawn": "5h",
    "from_pile": True,
    "score": "45:80",
    "upcard": "5c",
}
EXPECTED = Position.from_options(**NOTATION)


def flag(name):
    return "--" + name.replace("_", "-")


def test_the_notation_covers_every_field_away_from_its_default():
    assert list(NOTATION) == NAMES
    assert all(NOTATION[spec.name] != spec.default for spec in POSITION_FIELDS)


def test_no_kernel_is_made_of_the_declaration():
    """Its help is edited for the doors: an edit must compile nothing."""
    assert declaration.__file__ not in map(str, kernel_modules())
    assert any(path.name == "race.py" for path in kernel_modules())  # the advisor's are


def test_the_position_has_the_declared_fields_and_defaults():
    fields = dataclasses.fields(Position)
    assert [f.name for f in fields] == NAMES
    readers = inspect.signature(Position.from_options).parameters
    assert list(readers) == NAMES
    for spec, field in zip(POSITION_FIELDS, fields, strict=True):
        if spec.required:
            assert field.default is dataclasses.MISSING
            assert readers[spec.name].default is inspect.Parameter.empty
            continue
        # the dataclass holds cards as index tuples: no cards is ()
        assert field.default == (() if spec.kind is InputKind.CARDS else spec.default)
        assert readers[spec.name].default == spec.default
    assert list(EXPECTED.describe()) == NAMES
    assert Position.from_json(EXPECTED.describe()) == EXPECTED
    with pytest.raises(ValueError, match=f"keys are {', '.join(NAMES)}"):
        Position.from_json({"hand": NOTATION["hand"], "bogus": 1})


def test_the_command_takes_the_declared_options():
    options = {p.name: p for p in command.advise_command.params}
    for spec in (*POSITION_FIELDS, *ADVICE_OPTIONS):
        option = options[spec.name]
        assert option.opts == [flag(spec.name)]
        assert option.default == spec.default
        assert option.help == spec.described(flag)
        if spec.kind is InputKind.COUNT:
            assert isinstance(option.type, click.IntRange)
            assert (option.type.min, option.type.max) == (spec.low, spec.high)
        elif spec.kind is InputKind.NUMBER:
            assert isinstance(option.type, FiniteFloatRange)
            assert (option.type.min, option.type.max, option.type.min_open) == (
                spec.low,
                spec.high,
                True,
            )
        elif spec.kind is InputKind.CHOICE:
            assert tuple(option.type.choices) == spec.choices
        elif spec.kind is InputKind.FLAG:
            assert option.is_flag
    assert ", ".join(NAMES) in options["position_file"].help
    # the position first, in the declared order, and the help's example before the options
    listed = [p.name for p in command.advise_command.params]
    assert listed[: len(NAMES)] == NAMES
    text = CliRunner().invoke(cli, ["advise", "--help"]).output
    assert text.index("analyzer advise --hand") < text.index("Options:")


def test_the_notebook_function_takes_the_declared_parameters():
    parameters = inspect.signature(az.advise).parameters
    assert list(parameters)[: len(NAMES)] == NAMES
    doc = inspect.getdoc(az.advise)
    for spec in (*POSITION_FIELDS, *ADVICE_OPTIONS):
        expected = inspect.Parameter.empty if spec.required else spec.default
        assert parameters[spec.name].default == expected, spec.name
        assert spec.text(lambda name: f"``{name}``") in doc, spec.name
    high = {spec.name: spec.high for spec in ADVICE_OPTIONS}
    for name in ("samples", "temperature", "equity_deals", "seed"):
        with pytest.raises(ValueError, match=f"{name} must be"):
            az.advise(NOTATION["hand"] + " 5h", **{name: high[name] * 2})


def test_the_web_request_takes_the_declared_fields():
    pytest.importorskip("fastapi")
    from analyzer.web.schemas import RUN_OPTIONS, AdviseIn, PositionIn

    fields = PositionIn.model_fields
    assert list(fields) == NAMES
    run = [spec for spec in ADVICE_OPTIONS if spec.name in RUN_OPTIONS]
    schema = AdviseIn.model_json_schema()
    ranges = schema["$defs"]["PositionIn"]["properties"] | schema["properties"]
    for spec in (*POSITION_FIELDS, *run):
        field = (fields | AdviseIn.model_fields)[spec.name]
        assert field.is_required() == spec.required
        if not spec.required:
            assert field.default == spec.default
        assert field.description.startswith(spec.described())
        if spec.kind in (InputKind.COUNT, InputKind.NUMBER):
            bounds = next(p for p in ranges[spec.name].get("anyOf", [ranges[spec.name]]))
            low = bounds.get("minimum", bounds.get("exclusiveMinimum"))
            assert (low, bounds["maximum"]) == (spec.low, spec.high), spec.name
        if spec.kind is InputKind.CHOICE:
            assert tuple(ranges[spec.name]["enum"]) == spec.choices


class Captured(Exception):
    """Raised by a door's advisor stand-in with the position it was given."""


def capture(position, *args, **kwargs):
    raise Captured(position)


def test_one_position_through_every_door_is_the_same_position(monkeypatch, tmp_path):
    monkeypatch.setattr(command, "position_equity", lambda *args: None)
    monkeypatch.setattr(command, "advise_position", capture)
    monkeypatch.setattr(notebook, "position_equity", lambda *args: None)
    monkeypatch.setattr(notebook, "advise_position", capture)

    options = []
    for name, value in NOTATION.items():
        if value is True:
            options.append(flag(name))
        else:
            options += [flag(name), str(value)]
    file = tmp_path / "position.json"
    file.write_text(json.dumps(NOTATION | {"score": [45, 80], "pile": NOTATION["pile"].split()}))
    for arguments in (options, ["--position", str(file)]):
        result = CliRunner().invoke(cli, ["advise", *arguments, "--no-progress"])
        assert isinstance(result.exception, Captured), result.output
        assert result.exception.args[0] == EXPECTED

    with pytest.raises(Captured) as raised:
        az.advise(**NOTATION)
    assert raised.value.args[0] == EXPECTED

    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from analyzer.web.advisor_service import AdvisorService
    from analyzer.web.app import create_app

    given = []

    async def answer(service, position, *args):
        given.append(position)
        return {}

    monkeypatch.setattr(AdvisorService, "advise", answer)
    app = create_app(tmp_path / "results", warm_up=False)
    # the app answers only requests naming its own address
    with TestClient(app, base_url="http://127.0.0.1") as client:
        response = client.post("/api/advise", json={"position": NOTATION})
    assert response.status_code == 200, response.text
    assert given == [EXPECTED]
