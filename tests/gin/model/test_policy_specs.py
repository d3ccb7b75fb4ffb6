"""The policy specs: every string-form key is declared once, and a policy compiles to the
kernel's parameter row and string form it always had."""

import re
from dataclasses import fields
from pathlib import Path

import pytest

from analyzer.gin.decisions.learned import WEIGHT_KEYS
from analyzer.gin.model.describe import policy_fields
from analyzer.gin.model.policies import (
    INT_RANGES,
    KEYS,
    PRESETS,
    Discard,
    Draw,
    Knock,
    Policy,
    Tracking,
    declaration,
    format_policy,
    parse_policy,
    ranges_text,
)
from analyzer.gin.model.policy_fields import (
    SCHEDULE_TURNS,
    DiscardRule,
    DrawRule,
    KnockRule,
    PolicyField,
)
from analyzer.gin.model.spec_fields import declared
from analyzer.studies.answer import Answer

ROOT = Path(__file__).resolve().parents[3]


def test_every_key_is_declared_once_and_described():
    keys = [
        declared(spec, item.name).key
        for spec in (Draw, Discard, Knock, Tracking)
        for item in fields(spec)
    ]
    assert sorted(keys) == sorted(KEYS)
    assert [row[0] for row in policy_fields(Policy())] == list(KEYS)
    assert all(row[2] for row in policy_fields(Policy()))
    assert all(key in ranges_text() for key in KEYS)


def test_the_expert_v3_row_is_the_one_the_kernels_always_read():
    row = PRESETS["expert-v3"].to_array()
    assert len(row) == PolicyField.SIZE == 35 + 3 * SCHEDULE_TURNS
    assert list(row[:5]) == [3, 4, 0, 3, 4]  # draw, discard, norepeat, danger_penalty, slack
    assert list(row[PolicyField.KNOCK_RULE : PolicyField.ALERT_SCHEDULE]) == [
        0,
        193,
        245,
        600,
        15,
        -118,
        21,
        0,
        8,
        0,
        5,
    ]
    schedule = row[PolicyField.SCHEDULE : PolicyField.SCHEDULE + SCHEDULE_TURNS]
    alert = row[PolicyField.ALERT_SCHEDULE : PolicyField.ALERT_SCHEDULE + SCHEDULE_TURNS]
    assert list(schedule[8:10]) == [10, 0] and list(alert[5:7]) == [10, 0]
    # the learned discard's starting weights (unread by the expert's rules), no read of a
    # racer (-1 on every turn), no racer deadwood weight and no racer discard (-1: same)
    learned = row[PolicyField.LEARNED_DEADWOOD : PolicyField.RACER_SCHEDULE]
    assert list(learned) == [100, 1000, -800, 0, 0, 0, 100, 8]
    racer = row[PolicyField.RACER_SCHEDULE : PolicyField.RACER_SCHEDULE + SCHEDULE_TURNS]
    assert set(racer) == {-1} and row[PolicyField.LEARNED_RACER_DEADWOOD] == 0
    assert row[PolicyField.DISCARD_RACER] == -1
    # the principles discard's defaults (unread by the expert's rules): 2 points an out,
    # 2 points for feeding, live outs only, no late switch
    principles = row[PolicyField.OUT_POINTS : PolicyField.TAKE_MELDS]
    assert list(principles) == [2, 2, 1, 0]
    # the principles draw's defaults (unread by the expert's rules): melding cards taken,
    # no points (only those), no outs counted, live outs only, no late switch
    draw = row[PolicyField.TAKE_MELDS : PolicyField.SIZE]
    assert list(draw) == [1, 0, 0, 1, 0]


def test_the_champion_is_expert_v3_with_the_fitted_discard_and_the_read():
    """``expert`` = ``expert-v3`` with the committed fit's discard weights, the camping
    table once the opponent reads as a racer and MARJJ's discard then."""
    champion = PRESETS["expert"].to_array()
    fitted = parse_policy(Answer.load(ROOT / "results" / "fit_discard").facts["fit"]["policy"])
    assert PRESETS["expert"] == fitted.changed(knock_racer=((1, 10), (3, 0)), discard_racer="marjj")
    assert fitted.changed(discard="expert") == PRESETS["expert-v3"].changed(
        **{key: fitted.value(key) for key in (*WEIGHT_KEYS, "learned_window")}
    )
    racer = champion[PolicyField.RACER_SCHEDULE : PolicyField.RACER_SCHEDULE + SCHEDULE_TURNS]
    assert list(racer[:4]) == [10, 10, 0, 0]
    assert champion[PolicyField.DISCARD_RACER] == int(DiscardRule.MARJJ)


def test_string_forms_keep_their_key_order():
    assert format_policy(PRESETS["expert-v3"]) == (
        "draw=expert,discard=expert,knock=1:10/10:0,knock_alert=1:10/7:0,outs=193,danger=245,"
        "take_margin=600,low_late=15,knock_bias=-118,knock_stock=21,play_in=5"
    )
    for name, preset in PRESETS.items():
        assert parse_policy(format_policy(preset)) == preset, name


def test_keys_change_the_spec_that_reads_them():
    policy = Policy().changed(draw="meld", slack=9, knock_bias=-5, play_in=0)
    assert policy == Policy(Draw("meld"), Discard(slack=9), Knock(bias=-5), Tracking(play_in=0))
    assert policy.value("knock_bias") == -5
    with pytest.raises(ValueError, match="bad policy key 'bias'"):
        Policy().changed(bias=1)
    with pytest.raises(TypeError, match="draw must be a Draw"):
        Policy(draw="meld")  # type: ignore[arg-type]
    assert set(INT_RANGES) < set(KEYS)


def test_an_optional_knock_table_is_switched_off_by_none():
    """``knock_alert=none`` and ``knock_racer=none`` set the fields back to their default
    (no alert table, no read of the opponent), as ``analyzer policies`` describes them."""
    policy = parse_policy("expert,knock_alert=none,knock_racer=none")
    assert policy.value("knock_alert") is None and policy.value("knock_racer") is None
    assert policy == PRESETS["expert"].changed(knock_alert=None, knock_racer=None)
    assert parse_policy(format_policy(policy)) == policy
    with pytest.raises(ValueError, match="expected an integer"):
        parse_policy("expert,knock=none")  # the knock table itself has no "off"


def test_every_rule_field_names_every_rule_it_takes():
    """Walk the rule enums: each rule field's sentence (``analyzer policies NAME``) and its
    values in ``--help`` (:func:`ranges_text`) name every member (``discard`` once left
    out ``principles``)."""
    enums = {"draw": DrawRule, "discard": DiscardRule, "discard_racer": DiscardRule}
    enums["knock_rule"] = KnockRule
    rule_keys = [key for key in KEYS if declaration(key).choices]
    assert sorted(rule_keys) == sorted(enums)
    for key in rule_keys:
        found = declaration(key)
        names = [member.name.lower() for member in enums[key]]
        assert list(found.choices) == names, key
        for name in names:
            assert re.search(rf"\b{name}\b", found.text), (key, name, found.text)
            assert name in found.limits.split("/"), (key, name)
        assert f"{key} {found.limits}" in ranges_text()
