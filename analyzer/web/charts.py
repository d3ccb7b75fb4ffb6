"""Charts drawn with plotly for the web app: a study's chart description
(:class:`analyzer.studies.charts.Chart`, the one the report draws with matplotlib) as
plotly figures, one per panel, as JSON-ready dicts (``data`` and ``layout``) for
plotly.js.  The hover of every point or cell shows its 95% CI where it has one; the page
shows the chart's title and caption as text above the figures (a plotly title does not
wrap: on a phone it is cut), so the figures carry none."""

from __future__ import annotations

import math
from typing import Any

from ..studies.charts import MISSING, PALETTE, Axis, Chart, Mark, Panel


def _clean(values: tuple[Any, ...]) -> list[Any]:
    """Values for JSON: ``nan`` as ``None`` (a gap)."""
    return [None if isinstance(v, float) and not math.isfinite(v) else v for v in values]


def _ci_hover(mark: Mark, x: str, y: str, band: Mark | None = None) -> dict[str, Any]:
    """A hover naming the point and, where the mark has one (or the ``band`` drawn
    around it), its 95% CI."""
    ci = mark if mark.low and mark.high else band
    if ci is None:
        return {"hovertemplate": f"{mark.label or 'value'}<br>{x}: %{{x}}<br>{y}: %{{y:.3g}}"}
    return {
        "customdata": [[lo, hi] for lo, hi in zip(_clean(ci.low), _clean(ci.high), strict=True)],
        "hovertemplate": f"{mark.label or 'value'}<br>{x}: %{{x}}<br>{y}: %{{y:.3g}}"
        "<br>95% CI: %{customdata[0]:.3g} to %{customdata[1]:.3g}<extra></extra>",
    }


def _colorscale(mark: Mark) -> dict[str, Any]:
    if mark.scale == "categories":
        count = len(mark.categories)
        stops = []
        for index, (color, _) in enumerate(mark.categories):
            stops += [[index / count, color], [(index + 1) / count, color]]
        return {"colorscale": stops, "zmin": -0.5, "zmax": count - 0.5, "showscale": False}
    if mark.scale == "sequential":
        return {"colorscale": "Viridis", "zmin": min(mark.levels), "zmax": max(mark.levels)}
    if mark.scale == "probability":
        return {"colorscale": "RdBu", "zmin": 0.0, "zmax": 1.0}
    return {"colorscale": "RdBu", "zmid": mark.center}


def _heatmap(mark: Mark, panel: Panel) -> dict[str, Any]:
    trace: dict[str, Any] = {
        "type": "heatmap",
        "x": list(mark.x),
        "y": list(mark.y),
        "z": [_clean(row) for row in mark.z],
        "hoverongaps": False,
        "hovertemplate": f"{panel.x_label or 'x'}: %{{x}}<br>{panel.y_label or 'y'}: %{{y}}"
        "<br>value: %{z:.3g}<extra></extra>",
        **_colorscale(mark),
    }
    if mark.text:
        trace["text"] = [list(row) for row in mark.text]
        trace["texttemplate"] = "%{text}"
    if mark.colorbar:
        trace["colorbar"] = {"title": {"text": mark.colorbar}}
    if mark.scale == "categories":
        trace["hovertemplate"] = trace["hovertemplate"].replace("value: %{z:.3g}", "%{customdata}")
        names = [name for _, name in mark.categories]
        trace["customdata"] = [[names[int(v)] for v in row] for row in mark.z]
    return trace


def _traces(
    mark: Mark, panel: Panel, band: Mark | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The traces and the layout shapes of one mark (``band``: the CI band drawn around
    a line, whose ends its hover shows)."""
    color = PALETTE[mark.color]
    named = {"name": mark.label, "showlegend": bool(mark.label)}
    x, y = _clean(mark.x), _clean(mark.y)
    hover = _ci_hover(mark, panel.x_label or "x", panel.y_label or "y", band)
    if mark.kind == "heatmap":
        return [_heatmap(mark, panel)], []
    if mark.kind in ("line", "points"):
        trace: dict[str, Any] = {
            "type": "scatter",
            "x": x,
            "y": y,
            "mode": "markers"
            if mark.kind == "points"
            else ("lines+markers" if mark.marker else "lines"),
            "line": {"color": color, "dash": "dash" if mark.dashed else "solid"},
            "marker": {"color": color, "size": 6},
            **named,
            **hover,
        }
        if mark.step:
            trace["line"]["shape"] = "hv"
        if mark.low and mark.high:
            trace["error_y"] = {
                "type": "data",
                **_errors(mark.y, mark),
                "color": color,
            }
        return [trace], []
    if mark.kind == "band":
        edge = {
            "type": "scatter",
            "x": x,
            "mode": "lines",
            "line": {"width": 0},
            "hoverinfo": "skip",
        }
        return [
            {**edge, "y": _clean(mark.low), "showlegend": False},
            {
                **edge,
                "y": _clean(mark.high),
                "fill": "tonexty",
                "fillcolor": _faded(color),
                "showlegend": False,
            },
        ], []
    if mark.kind in ("bars", "hbars"):
        across, along = ("y", "x") if mark.kind == "hbars" else ("x", "y")
        bar: dict[str, Any] = {
            "type": "bar",
            across: list(mark.y if mark.kind == "hbars" else mark.x),
            along: list(mark.x if mark.kind == "hbars" else mark.y),
            "orientation": "h" if mark.kind == "hbars" else "v",
            "marker": {"color": color},
            "width": mark.width,
            "offset": mark.offset - mark.width / 2 if mark.offset else None,
            **named,
        }
        if mark.low and mark.high:
            values = mark.x if mark.kind == "hbars" else mark.y
            bar[f"error_{along}"] = {"type": "data", **_errors(values, mark)}
            bar["customdata"] = [[lo, hi] for lo, hi in zip(mark.low, mark.high, strict=True)]
            bar["hovertemplate"] = "%{" + across + "}: %{" + along + ":.3g}<br>95% CI: "
            bar["hovertemplate"] += "%{customdata[0]:.3g} to %{customdata[1]:.3g}<extra></extra>"
        return [{k: v for k, v in bar.items() if v is not None}], []
    if mark.kind in ("hline", "vline", "vspan"):
        line = {"color": color, "width": 1, "dash": "dash" if mark.dashed else "solid"}
        if mark.kind == "hline":
            span = (mark.low[0], mark.high[0]) if mark.low else (0, 1)
            ref = "x" if mark.low else "paper"
            shape = {
                "type": "line",
                "xref": ref,
                "x0": span[0],
                "x1": span[1],
                "y0": mark.y[0],
                "y1": mark.y[0],
                "line": line,
            }
        elif mark.kind == "vline":
            shape = {
                "type": "line",
                "yref": "paper",
                "y0": 0,
                "y1": 1,
                "x0": mark.x[0],
                "x1": mark.x[0],
                "line": line,
            }
        else:
            shape = {
                "type": "rect",
                "yref": "paper",
                "y0": 0,
                "y1": 1,
                "x0": mark.x[0],
                "x1": mark.x[1],
                "fillcolor": _faded(color),
                "line": {"width": 0},
                "layer": "below",
            }
        return [], [shape]
    pieces = [
        {
            "type": "line",
            "x0": x0,
            "y0": y0,
            "x1": x1,
            "y1": y1,
            "line": {"color": color, "width": 2},
        }
        for x0, y0, x1, y1 in mark.z
    ]
    return [], pieces


def _errors(values: tuple[Any, ...], mark: Mark) -> dict[str, list[float]]:
    """Plotly's error bars of ``values`` from the mark's 95% CI ends."""
    middle = [float(value) for value in values]
    return {
        "array": [high - m for high, m in zip(mark.high, middle, strict=True)],
        "arrayminus": [m - low for low, m in zip(mark.low, middle, strict=True)],
    }


def _faded(color: str, alpha: float = 0.2) -> str:
    red, green, blue = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},{alpha})"


def _axis(axis: Axis, title: str) -> dict[str, Any]:
    spec: dict[str, Any] = {"title": {"text": title}}
    if axis.ticks:
        spec["tickvals"] = list(axis.ticks)
        if axis.tick_labels:
            spec["ticktext"] = list(axis.tick_labels)
    if axis.log:
        spec["type"] = "log"
    if axis.low is not None and axis.high is not None:
        spec["range"] = [axis.low, axis.high]
    if axis.reversed:
        spec["autorange"] = "reversed"
    return spec


def figures(chart: Chart) -> list[dict[str, Any]]:
    """One plotly figure per panel of ``chart`` (``data``, ``layout``), each titled by
    its panel's title."""
    drawn = []
    for panel in chart.panels:
        data, shapes = [], []
        # a line's CI drawn as a band of its colour over the same x (the knock sweep)
        bands = {(m.color, m.x): m for m in panel.marks if m.kind == "band"}
        for mark in panel.marks:
            band = bands.get((mark.color, mark.x)) if mark.kind == "line" else None
            traces, more = _traces(mark, panel, band)
            data += traces
            shapes += more
        heat = any(trace["type"] == "heatmap" for trace in data)
        layout: dict[str, Any] = {
            "xaxis": _axis(panel.x, panel.x_label),
            "yaxis": _axis(panel.y, panel.y_label),
            "shapes": shapes,
            "margin": {"t": 30 if panel.title else 10, "l": 80, "r": 80 if heat else 20},
            "legend": {"title": {"text": panel.legend_title}, "orientation": "h", "y": -0.25},
            "showlegend": panel.legend != "none",
            "plot_bgcolor": MISSING if heat else "white",
        }
        if panel.title:
            layout["title"] = {"text": panel.title, "font": {"size": 14}}
        drawn.append({"data": data, "layout": layout})
    return drawn


__all__ = ["figures"]
