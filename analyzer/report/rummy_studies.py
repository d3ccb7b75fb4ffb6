"""Plain rummy's studies, declared once (:mod:`analyzer.studies.study`): ``analyzer rummy
simulate``, ``rummy games`` and ``rummy study`` and their notebook functions
``az.rummy_simulate``, ``az.rummy_games`` and ``az.rummy_study``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..core.limits import MAX_RAW_UNITS
from ..core.progress import Progress
from ..studies.study import RUMMY, Inputs, Kind, Param, Study, register
from ..studies.text import (
    estimate_text,
    interval_column,
    interval_text,
    label_lines,
    plus_minus,
    table_lines,
    title_text,
)
from .legacy import Answer, Chart, legacy

if TYPE_CHECKING:
    from ..rummy.simulate import GameResult, HandResult


def _seats(inputs: Inputs) -> tuple[Any, list[Any]]:
    """The rules (with ``players`` when given) and each seat's policy: ``policies``, or
    A in seat 0 and B in every other."""
    rules = inputs.rules
    if inputs["players"] is not None:
        rules = rules.replace(players=inputs["players"])
    listed = inputs["policies"]
    if listed is None:
        return rules, [inputs["a"]] + [inputs["b"]] * (rules.players - 1)
    if len(listed) != rules.players:
        raise ValueError(f"policies lists {len(listed)} policies for {rules.players} players")
    return rules, [policy for _, policy in listed]


def _player_table(result: HandResult | GameResult) -> pd.DataFrame:
    """One row per player: its policy and win rate (of hands, or of games) with 95% CI,
    and its points per hand (or final score per game)."""
    from ..rummy.policies import policy_name
    from ..rummy.simulate import HandResult

    rows = []
    for j, policy in enumerate(result.policies):
        if isinstance(result, HandResult):
            win, points = result.player_win_rate[j], result.player_points[j].mean
        else:
            win, points = result.player_game_win_rate[j], result.player_final_score[j]
        rows.append(
            {
                "player": j,
                "policy": policy_name(policy),
                "win_rate": win.mean,
                "win_low": win.low,
                "win_high": win.high,
                "points": points,
            }
        )
    return pd.DataFrame(rows)


def _answer(inputs: Inputs, result: HandResult | GameResult, count: str) -> Answer:
    """A run's answer: the players' table and facts; its summary (``--format json``
    and ``summary.json``), the players' table (csv, ``players.csv``) and the hands."""
    from ..rummy.policies import policy_name
    from ..rummy.rules import RummyRules
    from ..rummy.simulate import HandResult

    hands = isinstance(result, HandResult)
    data = {
        "rules": result.rules.describe(),
        "policies": [str(p) for p in result.policies],
        "seed": result.seed,
        "interrupted": result.interrupted,
        **result.summary(),
    }
    if isinstance(result, HandResult):
        # a hand of rummy is one deal: the key gin's simulate uses for the same count
        data["deals"] = data.pop("hands")
        data["rotate"] = result.rotate
    rows = _player_table(result)
    won = interval_column(rows, "win_rate", 1, sign=False, percent=True, stem="win")
    table = pd.DataFrame(
        {
            "player": rows["player"],
            "policy": rows["policy"],
            ("hands won" if hands else "games won"): won,
            **(
                {"points/hand": [estimate_text(e, 2) for e in result.player_points]}
                if isinstance(result, HandResult)
                else {"final score": [f"{v:.1f}" for v in rows["points"]]}
            ),
        }
    )
    if isinstance(result, HandResult):
        facts = [
            ("turns per hand", estimate_text(result.turns, 2)),
            ("winner's points", f"{estimate_text(result.winner_points, 2)} per won hand"),
            ("Rummy", f"{result.rummy_rate.mean:.2%} of won hands"),
            ("void hands", f"{result.void_rate.mean:.1%} (no winner)"),
        ]
        size = f"{result.hands:,} deals"
    else:
        facts = [
            ("hands per game", estimate_text(result.hands_per_game, 2)),
            ("finished", f"{result.finished_rate.mean:.1%} of games reached {result.target}"),
        ]
        size = f"{result.games:,} games to {result.target} points"
    if isinstance(result, HandResult) and result.margin is not None:
        margin = plus_minus(abs(result.margin.mean), result.margin.half_width)
        significant = result.margin.low > 0 or result.margin.high < 0
        verdict = (
            f"Player 0 ({rows.at[0, 'policy']}) scores {margin} points per hand "
            f"{'more' if result.margin.mean >= 0 else 'less'} than player 1 "
            f"({rows.at[1, 'policy']})" + ("." if significant else ": no significant edge.")
        )
    else:
        verdict = _most_wins_verdict(rows, won)
    defaults = RummyRules()
    changed = [f"{k}={v}" for k, v in result.rules.describe().items() if v != getattr(defaults, k)]
    files: dict[str, pd.DataFrame | bytes] = {}
    if isinstance(result, HandResult) and result.rows is not None and inputs.out is not None:
        files["hands.csv"] = result.rows
    files["players.csv"] = rows
    files["summary.json"] = json.dumps(data, indent=2, sort_keys=True).encode()
    return Answer(
        title_text(
            "Plain rummy " + ("hands" if hands else "games"),
            rules=inputs.preset + (f" with {', '.join(changed)}" if changed else ""),
            players=f"{len(result.policies)} players",
            size=size,
            seed=result.seed,
        ),
        result.to_frame(),
        [*table_lines(table), "", *label_lines(facts)],
        verdict,
        None,
        notes=[
            f"player {j} {policy_name(policy)}: {policy}"
            for j, policy in enumerate(result.policies)
            if policy_name(policy) != str(policy)
        ],
        raw=rows,
        data=data,
        result=result,
        files=files,
        rows=result.rows if isinstance(result, HandResult) else None,
        stopped={**data, f"requested_{count}": inputs[count]} if result.interrupted else None,
    )


def _most_wins_verdict(rows: pd.DataFrame, won: list[str]) -> str:
    """Who wins the most, when the leader's 95% CI lies above the runner-up's (a
    conservative test: the runs keep no paired difference); else that it is too close to
    call between the two."""
    leader, second = (
        int(j) for j in rows["win_rate"].sort_values(ascending=False, kind="stable").index[:2]
    )

    def who(j: int) -> str:
        return f"player {j} ({rows.at[j, 'policy']})"

    if rows.at[leader, "win_low"] > rows.at[second, "win_high"]:
        return f"{who(leader).capitalize()} wins the most: {won[leader]}."
    return (
        f"Too close to call between {who(leader)}, {won[leader]}, and {who(second)}, {won[second]}."
    )


def _simulate(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..rummy.simulate import simulate

    rules, seats = _seats(inputs)
    deals = inputs["deals"]
    if inputs.out is not None and deals > MAX_RAW_UNITS:
        raise ValueError(
            f"--out keeps every hand in memory: at most {MAX_RAW_UNITS:,} hands, got {deals:,}"
        )
    result = simulate(
        rules,
        seats,
        deals,
        inputs.seed,
        rotate=inputs["rotate"],
        keep_rows=inputs.keep_rows or inputs.out is not None,
        progress=progress,
        scheduler=scheduler,
    )
    return _answer(inputs, result, "deals")


def _games(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..rummy.simulate import play_games

    rules, seats = _seats(inputs)
    result = play_games(
        rules, seats, inputs["games"], inputs.seed, progress=progress, scheduler=scheduler
    )
    return _answer(inputs, result, "games")


def _seat_params(count: Param) -> tuple[Param, ...]:
    return (
        Param("a", Kind.POLICY, "simple", "Player 0's policy."),
        Param("b", Kind.POLICY, "simple", "Policy of every other player."),
        Param(
            "players",
            Kind.COUNT,
            None,
            "Number of players, 2-6 (default: the preset's).",
            low=2,
            high=6,
        ),
        Param(
            "policies",
            Kind.SEATS,
            None,
            "One policy per player (instead of a and b); key=value items belong to the "
            "policy before them: rummy,hold_turns=4,simple.",
        ),
        count,
    )


_OUT_HELP = (
    "Write summary.json, players.csv{hands} into this folder (checked writable before the "
    "run; a stopped run writes nothing)."
)

RUMMY_SIMULATE = register(
    Study(
        "rummy simulate",
        "Play many hands of plain rummy and report win rates and points with 95% CIs.",
        "Player 0 plays A and every other player B, or each its own of --policies; the seats "
        "rotate from hand to hand unless --no-rotate. A run stopped by Ctrl-C or SIGTERM "
        'first prints the summary of the hands finished (with --json, marked "interrupted": '
        "true).",
        (
            "analyzer rummy simulate --deals 20000 --a rummy --b simple",
            "analyzer rummy simulate --players 3 --policies rummy,hold_turns=4,simple,simple",
            "analyzer rummy simulate --players 4 --rules seed004 --set reshuffle=yes --format json",
        ),
        (
            *_seat_params(Param("deals", Kind.COUNT, 10_000, "Hands to play.")),
            Param(
                "rotate",
                Kind.FLAG,
                True,
                "Rotate the seats from hand to hand (--no-rotate: player j keeps seat j, "
                "seat 0 plays first).",
            ),
        ),
        *legacy(_simulate),
        rows="deals",
        rulebook=RUMMY,
        notebook="The run's fields read through (``.player_win_rate``, ``.margin``...).",
    )
)

RUMMY_GAMES = register(
    Study(
        "rummy games",
        "Play games of plain rummy to the rules' target score (--set target=500).",
        "Player j keeps seat j; each player's game-win rate (95% CI) and final score, and "
        "hands per game. A run stopped by Ctrl-C or SIGTERM first prints the summary of the "
        'games finished (with --json, marked "interrupted": true).',
        ("analyzer rummy games --games 2000 --set target=500 --a hold6",),
        _seat_params(Param("games", Kind.COUNT, 2_000, "Games to play.")),
        *legacy(_games),
        unit="game",
        count="games",
        rulebook=RUMMY,
        notebook="The run's fields read through (``.player_game_win_rate``...).",
    )
)

# --------------------------------------------------------------------------- studies

#: What each study's table shows, for its title.
STUDY_TITLES = {
    "meld-or-hold": "Meld at once or hold for Rummy: the holder against a player melding at once",
    "players": "Plain rummy from 2 to 6 players (seats fixed, seat 0 plays first)",
    "options": "What each rule option does (2 players)",
}

#: The value meaning "no limit" in the holding rules of the meld-or-hold study.
_NO_LIMIT = 999


def study_table(table: pd.DataFrame) -> pd.DataFrame:
    """A study's table for a person: each ``x`` with ``x_lo``/``x_hi`` as one ``x ± h``
    column, rates as percentages, and the holding rules' 999 in words."""
    shown: dict[str, list[str] | pd.Series] = {}
    for column in table.columns:
        if column.endswith(("_lo", "_hi")):
            continue
        values = table[column]
        name = column.replace("_", " ")
        percent = column.endswith(("rate", "share"))
        if f"{column}_lo" in table:
            shown[name] = [
                interval_text(
                    m, lo, hi, 1 if percent else 2, percent=percent, sign=column.endswith("margin")
                )
                for m, lo, hi in zip(
                    values, table[f"{column}_lo"], table[f"{column}_hi"], strict=True
                )
            ]
        elif column == "hold_turns":
            shown[name] = [
                "at once" if v == 0 else "to the end" if v == _NO_LIMIT else str(v) for v in values
            ]
        elif column == "hold_points":
            shown[name] = ["no limit" if v == _NO_LIMIT else str(v) for v in values]
        elif percent:
            shown[name] = ["-" if pd.isna(v) else f"{v:.1%}" for v in values]
        elif pd.api.types.is_float_dtype(values):
            shown[name] = [f"{v:.2f}" for v in values]
        else:
            shown[name] = values
    return pd.DataFrame(shown)


def _meld_or_hold_verdict(table: pd.DataFrame) -> str:
    best = table.loc[table["margin"].idxmax()]
    turns, points = int(best["hold_turns"]), int(best["hold_points"])
    rule = (
        "melding at once"
        if turns == 0
        else "holding to the end"
        if turns == _NO_LIMIT
        else f"holding through own turn {turns}"
    ) + ("" if points == _NO_LIMIT else f", giving up above {points} points in melds")
    gain = interval_text(best["margin"], best["margin_lo"], best["margin_hi"], sign=True)
    if best["margin_lo"] <= 0:
        return (
            f"No holding rule gains significantly over melding at once; the best, {rule}, "
            f"gets {gain} points per hand."
        )
    return f"The best holding rule is {rule}: {gain} points per hand over melding at once."


def _players_verdict(table: pd.DataFrame) -> str:
    first = table[table["seat"] == 0]
    low, high = first.iloc[0], first.iloc[-1]
    low_share = interval_text(
        low["win_share"], low["win_share_lo"], low["win_share_hi"], 1, percent=True
    )
    high_share = interval_text(
        high["win_share"], high["win_share_lo"], high["win_share_hi"], 1, percent=True
    )
    return (
        f"Seat 0 wins {low_share} of the won hands with {int(low['players'])} players "
        f"({low['stock']} stock) and {high_share} with {int(high['players'])} "
        f"({high['stock']} stock)."
    )


def _options_verdict(table: pd.DataFrame) -> str:
    best = table.loc[table["hold_margin"].idxmax()]
    gain = interval_text(
        best["hold_margin"], best["hold_margin_lo"], best["hold_margin_hi"], sign=True
    )
    return f"Holding for Rummy pays most under '{best['variant']}': {gain} points per hand."


#: Each study's answer in one sentence.
STUDY_VERDICTS = {
    "meld-or-hold": _meld_or_hold_verdict,
    "players": _players_verdict,
    "options": _options_verdict,
}


def _study(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..rummy import studies
    from ..studies.files import staged_folder, write_text
    from .rummy import CHARTS, write_rummy_report, write_study

    name, deals, seed = inputs["name"], inputs["deals"], inputs.seed
    out = None if inputs.out is None else Path(inputs.out)
    if name == "all":
        if out is None:
            raise ValueError("study all writes CSV and PNG files: give --out DIR (out=)")
        with staged_folder(out):
            markdown = write_rummy_report(
                out, deals, seed, links_from_parent=False, progress=progress, scheduler=scheduler
            )
            write_text(out / "report.md", markdown)
        return Answer(
            title_text("Plain rummy studies", size=f"{deals:,} deals per row", seed=seed),
            pd.DataFrame(),
            [f"wrote {out / 'report.md'} and the studies' CSV and PNG files"],
            "",
            None,
        )
    run, stem = studies.STUDIES[name]
    table: pd.DataFrame = run(deals, seed, progress=progress, scheduler=scheduler)
    if out is not None:
        write_study(out, stem, table, deals, seed)
    plot, chart_title, what = CHARTS[stem]
    return Answer(
        title_text(
            STUDY_TITLES[name], rules="standard", size=f"{deals:,} deals per row", seed=seed
        ),
        table,
        study_table(table),
        STUDY_VERDICTS[name](table),
        Chart(
            stem,
            lambda axes: plot(table, axes),
            (7, 3.6),
            chart_title,
            f"Plain rummy, {what}; 95% CIs. {deals:,} deals per configuration, seed {seed}.",
        ),
        notes=[
            (
                "hold turns: the last own turn the holder keeps its melds in hand (at once: it "
                "melds at once; to the end: it never gives up); hold points: it gives up once "
                "more points sit in held melds (no limit: never)."
            )
        ]
        if name == "meld-or-hold"
        else [],
    )


RUMMY_STUDY = register(
    Study(
        "rummy study",
        "Run study NAME: meld-or-hold, players, options, or all (the report section).",
        "The report runs them with seed 2026. With 'all', --out is required and also gets "
        "report.md.",
        (
            "analyzer rummy study meld-or-hold --deals 20000 --out rummy_out",
            "analyzer rummy study players --deals 2000 --format csv",
            "analyzer rummy study all --seed 2026 --out rummy_out",
        ),
        (
            Param(
                "name",
                Kind.CHOICE,
                "meld-or-hold",
                "The study.",
                choices=("meld-or-hold", "players", "options", "all"),
                argument=True,
            ),
            Param("deals", Kind.COUNT, 12_000, "Deals per configuration."),
        ),
        *legacy(_study),
        rules=False,
        rulebook=RUMMY,
        notebook="``.plot()`` draws its chart.",
    )
)
