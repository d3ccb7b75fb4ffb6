"""The rules spec contract shared by both games: errors, overrides, describe, presets."""

import dataclasses
import re

import numpy as np
import pytest

from analyzer.core.spec import Presets, Spec
from analyzer.gin.model.rules import PRESETS as GIN_PRESETS
from analyzer.gin.model.rules import Rules
from analyzer.rummy.rules import PRESETS as RUMMY_PRESETS
from analyzer.rummy.rules import RummyRules

BOTH = [Rules, RummyRules]


@pytest.mark.parametrize("spec", BOTH)
@pytest.mark.parametrize("value", [2.0, "7", None, True, np.float64(3)])
def test_a_wrong_type_for_a_number_is_a_type_error(spec, value):
    with pytest.raises(TypeError, match=re.escape(f"target must be an integer, got {value!r}")):
        spec(target=value)


@pytest.mark.parametrize(("spec", "flag"), [(Rules, "big_gin"), (RummyRules, "reshuffle")])
@pytest.mark.parametrize("value", [1, "yes", None])
def test_a_wrong_type_for_a_flag_is_a_type_error(spec, flag, value):
    with pytest.raises(TypeError, match=f"{flag} must be True or False, got {value!r}"):
        spec(**{flag: value})


def test_a_wrong_type_for_a_choice_is_a_type_error():
    with pytest.raises(TypeError, match="shutout must be a string, got 3"):
        Rules(shutout=3)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Rules(target=0), "target must be 1-500, got 0"),
        (lambda: RummyRules(target=0), "target must be 1-10000, got 0"),
        (lambda: Rules(shutout="triple"), "shutout must be one of double, plus100"),
        (lambda: Rules(oklahoma=True, opening="eleven"), "oklahoma needs opening=upcard"),
        (lambda: RummyRules(players=1), "players must be 2-6, got 1"),
        (lambda: RummyRules(max_run=14), "max_run must be 0 .no cap. or 3-13"),
    ],
)
def test_a_bad_value_is_a_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize("spec", BOTH)
def test_numpy_scalars_are_stored_as_python_values(spec):
    rules = spec(
        target=np.int64(150), **{"big_gin" if spec is Rules else "reshuffle": np.bool_(True)}
    )
    assert type(rules.target) is int
    assert rules == spec(target=150, **{"big_gin" if spec is Rules else "reshuffle": True})


@pytest.mark.parametrize("presets", [GIN_PRESETS, RUMMY_PRESETS])
def test_presets_resolve_with_overrides_and_reject_unknown_names(presets):
    first = next(iter(presets))
    assert presets.resolve(first) == presets[first]
    assert presets.resolve(first, ["target=150"]) == presets[first].replace(target=150)
    with pytest.raises(ValueError, match=f"unknown rules preset 'nope'; choose from {first}, "):
        presets.resolve("nope")


@pytest.mark.parametrize("spec", BOTH)
def test_replace_and_overrides_validate(spec):
    with pytest.raises(ValueError, match="target must be"):
        spec().replace(target=-1)
    with pytest.raises(ValueError, match="bad rule override 'colour=red'"):
        spec().with_overrides(["colour=red"])
    with pytest.raises(TypeError, match="target must be an integer"):
        spec().replace(target="150")


@pytest.mark.parametrize("spec", BOTH)
def test_describe_lists_every_field_and_to_array_every_slot(spec):
    rules = spec()
    assert list(rules.describe()) == [f.name for f in dataclasses.fields(spec)]
    array = rules.to_array()
    assert array.dtype == np.int64 and len(array) == len(spec.array_fields)


def test_a_spec_is_frozen_and_hashable():
    rules = RummyRules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 3  # type: ignore[misc]
    assert len({RummyRules(), RummyRules(), RummyRules(players=3)}) == 2


def test_presets_are_read_only_mappings():
    presets = Presets("rules", {"a": RummyRules()})
    assert list(presets) == ["a"] and len(presets) == 1
    with pytest.raises(TypeError):
        presets["b"] = RummyRules()  # type: ignore[index]
    assert isinstance(Rules(), Spec)
