"""The plotly figures and subtitles of the strategy page (:mod:`analyzer.web.strategy`),
built from committed tables, as JSON-ready dicts with no title of their own."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from ..gin.studies.knocking import SELF_PLAY_CHECK


def preset_name(meta: dict[str, Any], key: str) -> str:
    """A policy as written in meta.json: its preset's name when it is one, else the spec."""
    text = str(meta.get(key, "?"))
    from ..gin.model.policies import PRESETS, format_policy

    return next((name for name, preset in PRESETS.items() if format_policy(preset) == text), text)


def _policy_label(meta: dict[str, Any], key: str) -> str:
    """A policy as written in meta.json, named by its preset when it is one."""
    text, name = str(meta.get(key, "?")), preset_name(meta, key)
    return text if name == text else f"{name} ({text})"


def knock_chart_figure(chart: pd.DataFrame, value: str = "") -> dict[str, Any]:
    """Heatmap of knocking minus playing on by (own turn, deadwood), each well-sampled
    cell labelled with its value and a black line between the cells where knocking is
    better and those where playing on is (as in the report's knock_chart.png).

    ``value`` is the column prefix: ``""`` for points per hand (``mean``, ``low``,
    ``high``) or ``"win_"`` for the game-win probability from 0:0 (percentage points).
    """
    import plotly.graph_objects as go

    mean, low, high = (f"{value}{part}" for part in ("mean", "low", "high"))
    turns = sorted(int(t) for t in chart["turn"].unique())
    deadwoods = sorted(int(d) for d in chart["deadwood"].unique())
    cells = chart.set_index(["deadwood", "turn"])
    scale = 100.0 if value == "win_" else 1.0
    z: list[list[float | None]] = []
    custom: list[list[Any]] = []
    for dw in deadwoods:
        z_row: list[float | None] = []
        custom_row: list[Any] = []
        for turn in turns:
            if (dw, turn) not in cells.index:
                z_row.append(None)
                custom_row.append([None, None, 0, "no data"])
                continue
            cell = cells.loc[(dw, turn)]
            enough = bool(cell.get("enough", True))
            z_row.append(float(cell[mean]) * scale if enough else None)
            custom_row.append(
                [
                    float(cell[low]) * scale,
                    float(cell[high]) * scale,
                    int(cell["n"]),
                    str(cell.get(f"{value}verdict", cell.get("verdict", "")))
                    + ("" if enough else " (too few samples)"),
                ]
            )
        z.append(z_row)
        custom.append(custom_row)
    finite = [abs(v) for row in z for v in row if v is not None]
    limit = max(finite) if finite else 1.0
    unit = "percentage points" if value == "win_" else "points"
    figure = go.Figure(
        go.Heatmap(
            x=turns,
            y=deadwoods,
            z=z,
            customdata=custom,
            colorscale="RdBu",
            zmid=0,
            zmin=-limit,
            zmax=limit,
            texttemplate="%{z:+.1f}",
            textfont={"size": 9},
            colorbar={"title": {"text": f"knock − play on ({unit})", "side": "right"}},
            hovertemplate=(
                "own turn %{x}, deadwood %{y}<br>knock − play on: %{z:+.2f}"
                "<br>95% CI [%{customdata[0]:+.2f}, %{customdata[1]:+.2f}]"
                "<br>n = %{customdata[2]} knock decisions<br>%{customdata[3]}"
                "<extra></extra>"
            ),
        )
    )
    for x0, y0, x1, y1 in _boundary(z, turns, deadwoods):
        figure.add_shape(
            type="line", x0=x0, y0=y0, x1=x1, y1=y1, line={"color": "black", "width": 3}
        )
    figure.add_trace(
        go.Scatter(  # the boundary's legend entry (the shapes have none)
            x=[None],
            y=[None],
            mode="lines",
            line={"color": "black", "width": 3},
            name="boundary: knock (blue) / play on (red)",
            hoverinfo="skip",
        )
    )
    figure.update_layout(
        xaxis={"title": {"text": "own turn"}, "dtick": 1},
        yaxis={"title": {"text": "deadwood (points)"}, "dtick": 1},
        plot_bgcolor="#d9d9d9",
        showlegend=True,
        legend={"orientation": "h", "y": -0.25},
        margin={"t": 10, "l": 50, "r": 10},
    )
    return json.loads(figure.to_json())


def _boundary(
    z: list[list[float | None]], turns: list[int], deadwoods: list[int]
) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) between two neighbouring shown cells of which one
    favours knocking (``z > 0``) and the other playing on."""
    segments = []
    for i, row in enumerate(z):
        for j, value in enumerate(row):
            if value is None:
                continue
            above = z[i + 1][j] if i + 1 < len(z) else None
            if above is not None and (value > 0) != (above > 0):
                y = (deadwoods[i] + deadwoods[i + 1]) / 2
                segments.append((turns[j] - 0.5, y, turns[j] + 0.5, y))
            right = row[j + 1] if j + 1 < len(row) else None
            if right is not None and (value > 0) != (right > 0):
                x = (turns[j] + turns[j + 1]) / 2
                segments.append((x, deadwoods[i] - 0.5, x, deadwoods[i] + 0.5))
    return segments


def knock_chart_subtitle(meta: dict[str, Any], value: str = "") -> str:
    """Who plays, the rules, the unit and how to read the knock chart."""
    unit = (
        "percentage points of the chance to win a game from 0:0"
        if value == "win_"
        else "points per hand"
    )
    deals = meta.get("deals")
    return (
        f"Player {_policy_label(meta, 'subject')} against opponent "
        f"{_policy_label(meta, 'opponent')}, rules {meta.get('rules', '?')}"
        + (f", {deals:,} deals" if isinstance(deals, int) else "")
        + f". Each cell: {unit} gained by knocking now rather than playing on; blue: knock, "
        "red: play on, grey: too few samples; the black line is the boundary. Hover a cell "
        "for its 95% CI and sample count. The chart values one knock against this "
        "opponent; the written answer above is a rule for the whole hand against a kind of "
        "opponent, so the two need not agree."
    )


def knock_sweep_figure(sweep: pd.DataFrame, meta: dict[str, Any], metric: str) -> dict[str, Any]:
    """One line per opponent against the knock threshold, with the 95% CI as error bars
    (the sweep's determinism check, a policy against its own twin, is left out: it is a
    test of the simulator, not a strategy answer).

    ``metric`` is ``diff`` (points per hand relative to knocking at 10) or ``game_win``
    (the probability of winning a game to the target).
    """
    import plotly.graph_objects as go

    scale, label = _SWEEP_METRICS[metric]
    samples = "games" if metric == "game_win" else "deals"
    n_games = meta.get("games_per_arm")
    figure = go.Figure()
    for opponent, group in sweep[sweep["opponent"] != SELF_PLAY_CHECK].groupby(
        "opponent", sort=False
    ):
        mean = group[f"{metric}_mean"] * scale
        low, high = group[f"{metric}_low"] * scale, group[f"{metric}_high"] * scale
        n = [n_games] * len(group) if metric == "game_win" and n_games else group["n"]
        figure.add_trace(
            go.Scatter(
                x=group["threshold"],
                y=mean,
                name=str(opponent),
                mode="lines+markers",
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": high - mean,
                    "arrayminus": mean - low,
                },
                customdata=list(zip(low, high, n, strict=True)),
                hovertemplate=(
                    f"opponent {opponent}<br>knock at deadwood ≤ %{{x}}<br>"
                    f"{label}: %{{y:.2f}}<br>95% CI [%{{customdata[0]:.2f}}, "
                    f"%{{customdata[1]:.2f}}]<br>n = %{{customdata[2]}} {samples}"
                    "<extra></extra>"
                ),
            )
        )
    figure.update_layout(
        xaxis={"title": {"text": "knock at deadwood ≤ t (points)"}, "dtick": 1},
        yaxis={"title": {"text": label}},
        legend={"title": {"text": "opponent"}, "orientation": "h", "y": -0.25},
        margin={"t": 10, "l": 50, "r": 10},
    )
    return json.loads(figure.to_json())


#: (scale, axis label) of each metric of the knock sweep.
_SWEEP_METRICS = {
    "diff": (1.0, "points per hand vs knocking at 10"),
    "game_win": (100.0, "game-win rate (%)"),
}


def knock_sweep_subtitle(meta: dict[str, Any], metric: str) -> str:
    """Who plays, the rules and the unit of a knock sweep chart."""
    opponents = ", ".join(
        f"{name} ({text})"
        for name, text in meta.get("opponents", {}).items()
        if name != SELF_PLAY_CHECK
    )
    return (
        f"Player {_policy_label(meta, 'subject')} knocking at deadwood ≤ t, rules "
        f"{meta.get('rules', '?')}; opponents {opponents or '?'}. "
        f"{_SWEEP_METRICS[metric][1].capitalize()}; error bars: 95% CI."
    )


def robust_strategy_figure(strategy: pd.DataFrame, source: str) -> dict[str, Any]:
    """Heatmap of the robust knock rule (``analyzer equilibrium --out
    results/robust_knock``): the equilibrium mixture's knock probability by own-turn bin
    and deadwood, each cell labelled.  A mixture weight, not a sample mean: its precision
    is in the run's ``_convergence.csv`` (exploitability by iteration), so the hover gives
    the source."""
    import plotly.graph_objects as go

    if "opponent_holds_pile_card" in strategy:
        # one column per turn bin and pickup signal, the alert columns after the others
        strategy = strategy.assign(
            turns=strategy["turns"].where(
                strategy["opponent_holds_pile_card"] == 0, strategy["turns"] + " (alert)"
            )
        )
        strategy = strategy.sort_values(["opponent_holds_pile_card", "first_turn"])
    else:
        strategy = strategy.sort_values("first_turn")
    bins = strategy.drop_duplicates("turns")["turns"].tolist()
    deadwoods = sorted(strategy["deadwood"].unique())
    cells = strategy.set_index(["deadwood", "turns"])["knock_probability"]
    z = [
        [float(cells[(dw, turns)]) if (dw, turns) in cells.index else None for turns in bins]
        for dw in deadwoods
    ]
    figure = go.Figure(
        go.Heatmap(
            x=bins,
            y=deadwoods,
            z=z,
            zmin=0,
            zmax=1,
            colorscale="Blues",
            texttemplate="%{z:.0%}",
            textfont={"size": 10},
            colorbar={"title": {"text": "P(knock)", "side": "right"}},
            hovertemplate=(
                "own turns %{x}, deadwood %{y}<br>knock probability %{z:.0%}"
                f"<br>equilibrium mixture from {source} (no sampling CI: see its "
                "_convergence.csv)<extra></extra>"
            ),
        )
    )
    figure.update_layout(
        xaxis={
            "title": {"text": "own turns (alert: the opponent holds a pile card)"},
            "type": "category",
        },
        yaxis={"title": {"text": "deadwood (points)"}, "dtick": 1},
        margin={"t": 10, "l": 50, "r": 10},
    )
    return json.loads(figure.to_json())
