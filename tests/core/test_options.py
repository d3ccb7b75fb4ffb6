"""field=value and yes/no parsing, and the rules and policy parsers of both games built on it."""

import pytest

from analyzer.core.options import (
    convert_field,
    parse_field_values,
    parse_int,
    parse_yes_no,
    split_list,
    split_policy_list,
)
from analyzer.gin.model.policies import parse_policy as parse_gin_policy
from analyzer.gin.model.rules import resolve_rules
from analyzer.rummy.policies import parse_policy as parse_rummy_policy
from analyzer.rummy.rules import RummyRules


@pytest.mark.parametrize("text", ["yes", "YES", "true", "True", "on", "On", "1", " yes "])
def test_yes_words(text):
    assert parse_yes_no(text, "flag") is True


@pytest.mark.parametrize("text", ["no", "No", "false", "FALSE", "off", "OFF", "0"])
def test_no_words(text):
    assert parse_yes_no(text, "flag") is False


@pytest.mark.parametrize("text", ["maybe", "", "2", "y", "nope", "yes please"])
def test_anything_else_names_the_token_and_the_field(text):
    with pytest.raises(ValueError, match=f"bad value '{text.strip()}' for norepeat"):
        parse_yes_no(text, "norepeat")


def test_field_values_normalise_names_and_keep_order():
    pairs = parse_field_values([" max-run = 4", "reshuffle=yes"], {"max_run", "reshuffle"}, "rule")
    assert pairs == [("max_run", "4"), ("reshuffle", "yes")]


@pytest.mark.parametrize("item", ["max_run", "colour=red", "=4"])
def test_field_values_reject_missing_equals_and_unknown_fields(item):
    with pytest.raises(ValueError, match=f"bad rule '{item}'.*one of max_run"):
        parse_field_values([item], ["max_run"], "rule")


def test_int_and_conversion_by_type():
    assert parse_int(" 1000 ", "deals") == 1000
    for written in ("1_000", "1e3", "٣", "+-3"):  # one grammar: ASCII digits and a sign
        with pytest.raises(ValueError, match="expected an integer"):
            parse_int(written, "deals")
    with pytest.raises(ValueError, match="bad value 'ten' for target"):
        parse_int("ten", "target")
    with pytest.raises(ValueError, match="expected an integer >= 1"):
        parse_int("0", "target", low=1)
    assert convert_field("big_gin", "on", bool) is True
    assert convert_field("target", "150", int) == 150
    assert convert_field("shutout", "none", str) == "none"


def test_split_list_drops_blank_items():
    assert split_list(" basic, ,lookahead ,") == ["basic", "lookahead"]


def test_policy_lists_group_key_values_with_their_preset():
    assert split_policy_list("simple,keeper,meld=hold,hold_turns=4") == [
        "simple",
        "keeper,meld=hold,hold_turns=4",
    ]
    assert split_policy_list("meld=hold,simple") == ["meld=hold", "simple"]
    assert split_policy_list(" , ") == []


@pytest.mark.parametrize(
    "parse",
    [
        lambda: parse_gin_policy("basic,norepeat=maybe"),
        lambda: parse_rummy_policy("simple,call=maybe"),
        lambda: resolve_rules("standard", ["hollywood=maybe"]),
        lambda: RummyRules().with_overrides(["reshuffle=maybe"]),
    ],
)
def test_every_parser_rejects_a_bad_flag(parse):
    with pytest.raises(ValueError, match="bad value 'maybe'"):
        parse()


def test_every_parser_reads_the_same_yes_no_words():
    assert parse_gin_policy("basic,norepeat=On").discard.norepeat
    assert not parse_rummy_policy("simple,call=off").call
    assert resolve_rules("standard", ["hollywood=TRUE"]).hollywood
    assert RummyRules().with_overrides(["reshuffle=1"]).reshuffle
