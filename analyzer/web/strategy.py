"""Interactive strategy charts from the committed CSVs in ``results/`` (never recomputed).

Each chart is a plotly figure (as JSON-ready dicts) whose hover shows the 95% CI and the
number of samples behind every point, and whose title names the opponent and the rules
preset, as every strategy figure of the project does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

#: The knock chart's cells are (own turn, deadwood) with these columns.
_CHART_COLUMNS = {"turn", "deadwood", "n", "mean", "low", "high"}
_SWEEP_COLUMNS = {
    "opponent",
    "threshold",
    "n",
    "diff_mean",
    "diff_low",
    "diff_high",
    "game_win_mean",
    "game_win_low",
    "game_win_high",
}


def _meta(folder: Path) -> dict[str, Any]:
    path = folder / "meta.json"
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _policy_label(meta: dict[str, Any], key: str) -> str:
    """A policy as written in meta.json, named by its preset when it is one."""
    text = str(meta.get(key, "?"))
    from ..gin.model.policies import PRESETS, format_policy

    for name, preset in PRESETS.items():
        if format_policy(preset) == text:
            return f"{name} ({text})"
    return text


def knock_chart_figure(
    chart: pd.DataFrame, meta: dict[str, Any], title: str, value: str = ""
) -> dict[str, Any]:
    """Heatmap of knocking minus playing on by (own turn, deadwood).

    ``value`` is the column prefix: ``""`` for points per hand (``mean``, ``low``,
    ``high``) or ``"win_"`` for the game-win probability from 0:0.
    """
    import plotly.graph_objects as go

    mean, low, high = (f"{value}{part}" for part in ("mean", "low", "high"))
    turns = sorted(chart["turn"].unique())
    deadwoods = sorted(chart["deadwood"].unique())
    cells = chart.set_index(["deadwood", "turn"])
    scale = 100.0 if value == "win_" else 1.0
    unit = "percentage points of game-win chance" if value == "win_" else "points per hand"
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
            colorbar={"title": {"text": "knock − play on"}},
            hovertemplate=(
                "own turn %{x}, deadwood %{y}<br>knock − play on: %{z:+.2f}"
                "<br>95% CI [%{customdata[0]:+.2f}, %{customdata[1]:+.2f}]"
                "<br>n = %{customdata[2]} knock decisions<br>%{customdata[3]}"
                "<extra></extra>"
            ),
        )
    )
    figure.update_layout(
        title={
            "text": f"{title}<br><sup>{unit}; subject {_policy_label(meta, 'subject')}, "
            f"opponent {_policy_label(meta, 'opponent')}, rules "
            f"{meta.get('rules', '?')}; 95% CI in the hover; grey: too few "
            "samples</sup>"
        },
        xaxis={"title": {"text": "own turn"}, "dtick": 1},
        yaxis={"title": {"text": "deadwood when able to knock (points)"}, "dtick": 1},
        plot_bgcolor="#d9d9d9",
        margin={"t": 90},
    )
    return json.loads(figure.to_json())


def knock_sweep_figure(sweep: pd.DataFrame, meta: dict[str, Any], metric: str) -> dict[str, Any]:
    """One line per opponent against the knock threshold, with the 95% CI as error bars.

    ``metric`` is ``diff`` (points per hand relative to knocking at 10) or ``game_win``
    (the probability of winning a game to the target).
    """
    import plotly.graph_objects as go

    scale, label = (
        (100.0, "game-win rate of A (%)")
        if metric == "game_win"
        else (1.0, "points per hand vs knocking at 10")
    )
    samples = "games" if metric == "game_win" else "deals"
    n_games = meta.get("games_per_arm")
    figure = go.Figure()
    for opponent, group in sweep.groupby("opponent", sort=False):
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
    opponents = ", ".join(f"{k}: {v}" for k, v in meta.get("opponents", {}).items())
    figure.update_layout(
        title={
            "text": f"Knock threshold sweep: {label}<br><sup>subject "
            f"{_policy_label(meta, 'subject')}, rules {meta.get('rules', '?')}; "
            f"opponents {opponents or '?'}; error bars: 95% CI</sup>"
        },
        xaxis={"title": {"text": "A knocks at deadwood ≤ t (points)"}, "dtick": 1},
        yaxis={"title": {"text": label}},
        legend={"title": {"text": "opponent"}},
        margin={"t": 90},
    )
    return json.loads(figure.to_json())


def robust_strategy_figure(strategy: pd.DataFrame, source: str) -> dict[str, Any]:
    """Heatmap of the robust knock rule (``analyzer equilibrium --out
    results/robust_knock``): the equilibrium mixture's knock probability by own-turn bin
    and deadwood.  A mixture weight, not a sample mean: its precision is in the run's
    ``_convergence.csv`` (exploitability by iteration), so the hover gives the source."""
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
    rules = str(strategy["rules"].iloc[0]) if "rules" in strategy else "?"
    figure = go.Figure(
        go.Heatmap(
            x=bins,
            y=deadwoods,
            z=z,
            zmin=0,
            zmax=1,
            colorscale="Blues",
            colorbar={"title": {"text": "P(knock)"}},
            hovertemplate=(
                "own turns %{x}, deadwood %{y}<br>knock probability %{z:.0%}"
                f"<br>equilibrium mixture from {source} (no sampling CI: see its "
                "_convergence.csv)<extra></extra>"
            ),
        )
    )
    figure.update_layout(
        title={
            "text": f"Robust knock rule (approximate equilibrium)<br><sup>rules {rules}; "
            "opponents: the knock tables of the mixture itself; shade = share of "
            "the mixture that knocks</sup>"
        },
        xaxis={
            "title": {"text": "own turns (alert: the opponent holds a card it took from the pile)"},
            "type": "category",
        },
        yaxis={"title": {"text": "deadwood after the discard (points)"}, "dtick": 1},
        margin={"t": 90},
    )
    return json.loads(figure.to_json())


def _robust_chart_files(results: Path) -> list[Path]:
    """CSV files of a robust knock chart, if ``results/`` has one."""
    found = sorted(results.glob("*robust*/*.csv")) + sorted(
        results.glob("knock_chart/*robust*.csv")
    )
    return list(dict.fromkeys(found))


def strategy_charts(results: Path) -> dict[str, Any]:
    """Every chart the strategy page shows, plus notes about what is missing."""
    charts: list[dict[str, Any]] = []
    notes: list[str] = []
    chart_csv = results / "knock_chart" / "knock_chart.csv"
    if chart_csv.is_file():
        chart = pd.read_csv(chart_csv)
        meta = _meta(chart_csv.parent)
        if set(chart.columns) >= _CHART_COLUMNS:
            charts.append(
                {
                    "id": "knock-chart",
                    "source": "knock_chart/knock_chart.csv",
                    "figure": knock_chart_figure(chart, meta, "Knock chart: knock or play on?"),
                }
            )
            if {"win_mean", "win_low", "win_high"} <= set(chart.columns):
                charts.append(
                    {
                        "id": "knock-chart-games",
                        "source": "knock_chart/knock_chart.csv",
                        "figure": knock_chart_figure(
                            chart, meta, "Knock chart: game-win difference from 0:0", value="win_"
                        ),
                    }
                )
        else:
            notes.append(
                "knock_chart/knock_chart.csv lacks the columns "
                f"{', '.join(sorted(_CHART_COLUMNS - set(chart.columns)))}"
            )
    else:
        notes.append("No knock chart in results/ (run 'analyzer report').")
    robust = _robust_chart_files(results)
    for path in robust:
        table = pd.read_csv(path)
        name = path.relative_to(results).as_posix()
        if set(table.columns) >= _CHART_COLUMNS:
            charts.append(
                {
                    "id": "robust-" + path.stem,
                    "source": name,
                    "figure": knock_chart_figure(
                        table, _meta(path.parent), f"Robust knock chart ({name})"
                    ),
                }
            )
        elif set(table.columns) >= {"turns", "first_turn", "deadwood", "knock_probability"}:
            charts.append(
                {
                    "id": "robust-" + path.stem,
                    "source": name,
                    "figure": robust_strategy_figure(table, name),
                }
            )
        elif path.name.endswith(("_mixture.csv", "_convergence.csv")):
            continue  # the equilibrium's other files: its strategy file is charted
        else:
            notes.append(
                f"{name} is not in the knock chart's format (turn, deadwood, n, "
                "mean, low, high): not shown"
            )
    if not robust:
        notes.append(
            "No robust knock chart in results/ yet: it appears here once "
            "'analyzer equilibrium --out results/robust_knock' is committed."
        )
    sweep_csv = results / "knock_sweep" / "sweep.csv"
    if sweep_csv.is_file():
        sweep = pd.read_csv(sweep_csv)
        meta = _meta(sweep_csv.parent)
        if set(sweep.columns) >= _SWEEP_COLUMNS:
            for metric in ("diff", "game_win"):
                charts.append(
                    {
                        "id": f"knock-sweep-{metric.replace('_', '-')}",
                        "source": "knock_sweep/sweep.csv",
                        "figure": knock_sweep_figure(sweep, meta, metric),
                    }
                )
        else:
            notes.append(
                "knock_sweep/sweep.csv lacks the columns "
                f"{', '.join(sorted(_SWEEP_COLUMNS - set(sweep.columns)))}"
            )
    else:
        notes.append("No knock sweep in results/ (run 'analyzer report').")
    return {"results": str(results), "charts": charts, "notes": notes}
