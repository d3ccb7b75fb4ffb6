"""Fuzz the command line and position files (issue 17, item 7).

Hypothesis builds argument lists (valid and hostile numbers, rule overrides, policies,
paths) and position JSON objects, and runs them through click's ``CliRunner``.  The
invariant: exit 0, or exit 2 with exactly one ``Error: ...`` line on stderr; never a
traceback; and a run that fails leaves no file behind.  Every valid count is tiny, so an
example costs milliseconds once the kernels are compiled.
"""

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cli.main import cli
from analyzer.core import cluster
from analyzer.gin.model.policies import PRESETS as POLICY_PRESETS
from analyzer.gin.model.rules import PRESETS as RULE_PRESETS
from analyzer.gin.model.rules import Rules

DECK = [f"{rank}{suit}" for suit in "cdhs" for rank in "A23456789TJQK"]

HOSTILE_NUMBERS = [
    "-1",
    "0",
    "2",
    "9223372036854775807",
    "9223372036854775808",
    str(2**70),
    "1e20",
    "1.5",
    "",
    " ",
    "nan",
    "0x10",
    "1_000",
    "٣",
    "-0",
    "+7",
]
# valid counts stay tiny: the fuzz is about inputs, not Monte Carlo
COUNTS = st.sampled_from(
    ["1", "3", "17", "0", "-3", "1e3", "abc", "", str(10**12 + 1), "2.5", " 2"]
)
NUMBERS = st.sampled_from(HOSTILE_NUMBERS) | st.integers(-10, 10**4).map(str)
WORDS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=10)

RULE_FIELDS = [field for field in Rules.__dataclass_fields__]
OVERRIDES = st.builds(
    lambda field, value: f"{field}={value}",
    st.sampled_from([*RULE_FIELDS, "bogus", "", "knock-limit"]),
    NUMBERS | st.sampled_from(["yes", "no", "maybe", "wall", "eleven", "none"]) | WORDS,
)

POLICY_PARTS = st.one_of(
    st.sampled_from([*POLICY_PRESETS, "", "nope"]),
    st.builds(
        lambda key, value: f"{key}={value}",
        st.sampled_from(
            ["draw", "discard", "knock", "norepeat", "danger_penalty", "slack", "bogus"]
        ),
        NUMBERS
        | st.sampled_from(
            ["gin", "1:0/8:10", "8:10/1:0", "33:5", "improve", "meld", "lookahead", "yes", "maybe"]
        )
        | WORDS,
    ),
)
POLICIES = st.lists(POLICY_PARTS, min_size=1, max_size=3).map(",".join)
# the search player: hostile numbers, and valid ones kept small (a budget of 10**4 would
# cost seconds a decision)
SEARCH_PARTS = st.builds(
    lambda key, value: f"{key}={value}",
    st.sampled_from(
        ["budget", "batch", "min_samples", "temperature", "rollout", "sampler", "scope", "bogus"]
    ),
    st.sampled_from(HOSTILE_NUMBERS)
    | st.integers(-3, 16).map(str)
    | st.sampled_from(["basic", "expert", "search", "all", "knock", "weighted", "inference"]),
)
PLAYERS = POLICIES | st.lists(SEARCH_PARTS, max_size=3).map(
    lambda parts: ",".join(["search", "budget=4", "min_samples=2", *parts])
)

PATHS = st.sampled_from(
    ["out", "deep/er/out", "/proc/x", "/proc/x/y", ".", "", "x.csv", "/dev/null"]
)
RAW_PATHS = st.sampled_from(
    ["rows.parquet", "sub/rows.parquet", "/proc/x/r.parquet", ".", "", "/dev/null/r.parquet"]
)


def option(name, values):
    """An option and the strategy of its value (None: a flag)."""
    return name, values


# --jobs only with bad values: a valid one would change the thread count of later tests
RUN = [
    option("--seed", NUMBERS),
    option("--jobs", st.sampled_from(["0", "-1", "257", "x"])),
    option("--json", st.none()),
    option("--no-progress", st.none()),
]
PLAY = [
    *RUN,
    option("--rules", st.sampled_from([*RULE_PRESETS, "x"])),
    option("--set", OVERRIDES),
    option("--a", PLAYERS),
    option("--b", PLAYERS),
]
COMMANDS = {
    "simulate": [
        *PLAY,
        option("--deals", COUNTS),
        option("--raw", RAW_PATHS),
        option("--checkpoint", RAW_PATHS),
        option("--resume", st.none()),
    ],
    "games": [
        *PLAY,
        option("--games", COUNTS),
        option("--players", NUMBERS),
        option("--policies", POLICIES | st.just("basic,simple,passive")),
        option("--raw", RAW_PATHS),
    ],
    "dealt": [
        *RUN,
        option("--deals", COUNTS),
        option("--out", PATHS),
        option("--format", st.sampled_from(["table", "csv", "json", "xml"])),
    ],
    "rummy": [
        option("--deals", COUNTS),
        option("--seed", NUMBERS),
        option("--players", NUMBERS),
        option("--json", st.none()),
        option("--rotate", st.none()),
        option("--no-rotate", st.none()),
        option(
            "--set",
            st.builds(
                lambda field, value: f"{field}={value}",
                st.sampled_from(
                    [
                        "hand_size",
                        "turn_limit",
                        "target",
                        "rummy_multiplier",
                        "max_run",
                        "reshuffle",
                        "players",
                        "bogus",
                    ]
                ),
                NUMBERS | st.sampled_from(["true", "maybe"]),
            ),
        ),
        option("--a", st.sampled_from(["simple", "rummy", "hold6", "x", ""]) | WORDS),
        option("--policies", st.sampled_from(["simple;simple", "simple;;", ";"])),
        option("--out", PATHS),
    ],
    "replay": [
        option("--seed", NUMBERS),
        option("--deal", NUMBERS),
        option("--rules", st.sampled_from([*RULE_PRESETS, "x"])),
        option("--set", OVERRIDES),
        option("--a", POLICIES),
        option("--b", POLICIES),
        option("--a-deals", st.none()),
        option("--deck", WORDS | st.sampled_from(["As 2s | 3s | 4s", "| |", "As"])),
        option("--format", st.sampled_from(["table", "csv", "json", "xml"])),
    ],
}


@st.composite
def command_lines(draw):
    """``[command, option, value, ...]`` with 0-6 options of that command."""
    if draw(st.integers(0, 5)) == 0:
        hand = draw(st.lists(st.sampled_from(DECK) | WORDS, max_size=13))
        extra = draw(st.lists(st.sampled_from(["--json", "--file", "x"]), max_size=2))
        return ["deadwood", " ".join(hand), *extra]
    command = draw(st.sampled_from(sorted(COMMANDS)))
    choices = COMMANDS[command]
    args = (
        ["rummy", "simulate"]
        if command == "rummy"
        else [command]
        if command == "replay"
        else [command, "--no-progress"]
    )
    for _ in range(draw(st.integers(0, 6))):
        name, values = draw(st.sampled_from(choices))
        value = draw(values)
        args += [name] if value is None else [name, value]
    count = "--games" if command == "games" else "--deals"
    if count not in args and command != "replay":
        args += [count, "2"]
    return args


@contextmanager
def scratch_folder():
    """A fresh empty working folder for one example."""
    previous = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            yield Path(folder)
        finally:
            os.chdir(previous)


def check_invariant(result, folder, args):
    """Exit 0, or exit 2 with one ``Error:`` line; no traceback; nothing left on failure."""
    described = f"{args!r}: exit {result.exit_code}\n{result.stderr}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        described,
        result.exception,
    )
    assert "Traceback" not in result.output, described
    assert result.exit_code in (0, 2), described
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), described
        assert list(folder.iterdir()) == [], (described, list(folder.iterdir()))


FUZZ = settings(
    max_examples=70, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


@FUZZ
@given(command_lines())
@pytest.mark.slow
def test_command_lines(args):
    os.environ.pop(cluster.SCHEDULER_ENV, None)
    with scratch_folder() as folder:
        check_invariant(CliRunner().invoke(cli, args), folder, args)


CARD_LISTS = st.lists(st.sampled_from(DECK), max_size=6, unique=True)
JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.integers(2**62, 2**70),
    st.floats(allow_nan=True),
    WORDS,
    st.sampled_from(DECK),
    CARD_LISTS.map(" ".join),
    CARD_LISTS,
    st.lists(st.integers(-5, 200), max_size=3),
    st.sampled_from(["false", "true", "me", "opp", "45:80", "150:20"]),
)


@st.composite
def positions(draw):
    """A position object: a plausible hand, and hostile values for the other keys."""
    deck = draw(st.permutations(DECK))
    size = draw(st.sampled_from([10, 11, 11, 11, 9, 12]))
    data = {"hand": " ".join(deck[:size])}
    if size == 10:
        data["drawn"] = deck[10]
    keys = [
        "pile",
        "opp_took",
        "opp_threw",
        "stock",
        "turn",
        "dealer",
        "drawn",
        "from_pile",
        "score",
        "upcard",
        "bogus",
    ]
    for key in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
        data[key] = draw(JSON_VALUES)
    if draw(st.sampled_from(range(10))) == 7:
        return draw(JSON_VALUES)  # not an object at all
    return data


@FUZZ
@given(positions())
def test_position_files(data):
    with scratch_folder() as folder:
        path = folder / "position.json"
        path.write_text(json.dumps(data))
        args = [
            "advise",
            "--position",
            str(path),
            "--samples",
            "16",
            "--equity-deals",
            "100",
            "--no-progress",
            "--json",
        ]
        result = CliRunner().invoke(cli, args)
        path.unlink()
        check_invariant(result, folder, [*args, data])
