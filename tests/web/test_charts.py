"""A chart description drawn with plotly for the web (:mod:`analyzer.web.charts`), checked
against hand-worked figures: every 95% CI reaches the hover or the error bars, gaps stay
gaps, rules and spans become layout shapes."""

import math

import pytest

from analyzer.studies.charts import PALETTE, Axis, Chart, Mark, Panel
from analyzer.web.charts import figures


def drawn(*marks, **panel):
    chart = Chart("test", "A title", "A caption", (Panel(tuple(marks), **panel),))
    (figure,) = figures(chart)
    return figure


def test_points_with_a_ci_show_it_as_error_bars_and_in_the_hover():
    figure = drawn(
        Mark("points", x=(1, 2), y=(0.5, math.nan), low=(0.25, math.nan), high=(1.0, math.nan)),
        x_label="iteration",
        y_label="points per hand",
    )
    (trace,) = figure["data"]
    assert trace["mode"] == "markers" and trace["y"] == [0.5, None]  # a gap, not a zero
    assert trace["customdata"] == [[0.25, 1.0], [None, None]]
    assert trace["hovertemplate"] == (
        "value<br>iteration: %{x}<br>points per hand: %{y:.3g}"
        "<br>95% CI: %{customdata[0]:.3g} to %{customdata[1]:.3g}<extra></extra>"
    )
    assert trace["error_y"]["array"][0] == 0.5 and trace["error_y"]["arrayminus"][0] == 0.25


def test_a_line_without_a_band_has_no_ci_in_its_hover_and_one_with_a_band_has_the_bands():
    band = Mark("band", x=(0, 1), low=(1.0, 2.0), high=(3.0, 4.0), color=2)
    inside = Mark("line", x=(0, 1), y=(2.0, 3.0), label="inside", color=2)
    apart = Mark("line", x=(0, 1), y=(2.0, 3.0), label="apart", color=3)
    low, high, line, other = drawn(band, inside, apart)["data"]
    assert low["hoverinfo"] == high["hoverinfo"] == "skip" and high["fill"] == "tonexty"
    assert (low["y"], high["y"]) == ([1.0, 2.0], [3.0, 4.0])
    assert line["customdata"] == [[1.0, 3.0], [2.0, 4.0]] and "95% CI" in line["hovertemplate"]
    assert "error_y" not in line  # the band draws it
    assert "customdata" not in other and "95% CI" not in other["hovertemplate"]


def test_bars_carry_their_ci_and_horizontal_bars_swap_the_axes():
    bars = Mark("hbars", x=(0.4, -0.1), y=("keep-melds", "late"), low=(0.3, -0.2), high=(0.5, 0))
    (trace,) = drawn(bars)["data"]
    assert trace["orientation"] == "h"
    assert trace["y"] == ["keep-melds", "late"] and trace["x"] == [0.4, -0.1]
    assert trace["error_x"]["array"] == pytest.approx([0.1, 0.1])  # high - value
    assert trace["error_x"]["arrayminus"] == pytest.approx([0.1, 0.1])  # value - low
    assert "95% CI" in trace["hovertemplate"] and trace["marker"]["color"] == PALETTE[0]


def test_rules_and_spans_are_shapes_and_segments_are_lines():
    figure = drawn(
        Mark("hline", y=(0.5,), dashed=True),
        Mark("vline", x=(10,)),
        Mark("vspan", x=(3, 6), color=1),
        Mark("segments", z=((0.5, 1.5, 1.5, 1.5),), color=7),
    )
    assert figure["data"] == []
    hline, vline, span, segment = figure["layout"]["shapes"]
    assert (hline["y0"], hline["y1"], hline["xref"], hline["line"]["dash"]) == (
        0.5,
        0.5,
        "paper",
        "dash",
    )
    assert (vline["x0"], vline["x1"], vline["yref"]) == (10, 10, "paper")
    assert (span["type"], span["x0"], span["x1"]) == ("rect", 3, 6)
    assert span["fillcolor"] == "rgba(230,159,0,0.2)"  # PALETTE[1], faded
    assert (segment["x0"], segment["y0"], segment["x1"], segment["y1"]) == (0.5, 1.5, 1.5, 1.5)
    assert segment["line"]["color"] == "#000000"


def test_a_heatmap_of_categories_names_each_cell_and_keeps_gaps():
    heat = Mark(
        "heatmap",
        x=("1-3", "4-6"),
        y=("deadwood 0", "deadwood 1-10"),
        z=((0.0, 0.0), (0.0, 1.0)),
        scale="categories",
        categories=(("#2166ac", "knock"), ("#d9d9d9", "play on")),
    )
    (trace,) = drawn(heat, x=Axis(ticks=(1, 2), tick_labels=("a", "b")))["data"]
    assert trace["customdata"] == [["knock", "knock"], ["knock", "play on"]]
    assert trace["hovertemplate"].endswith("%{customdata}<extra></extra>")
    assert (trace["zmin"], trace["zmax"], trace["showscale"]) == (-0.5, 1.5, False)
    numbers = Mark("heatmap", x=(1, 2), y=(1,), z=((1.5, math.nan),), text=(("+1.5", ""),))
    figure = drawn(numbers, x=Axis(ticks=(1, 2), tick_labels=("a", "b")))
    (trace,) = figure["data"]
    assert trace["z"] == [[1.5, None]] and trace["text"] == [["+1.5", ""]]
    assert trace["texttemplate"] == "%{text}" and trace["zmid"] == 0.0
    assert figure["layout"]["xaxis"]["ticktext"] == ["a", "b"]
    assert figure["layout"]["plot_bgcolor"] == "#d9d9d9"  # a gap shows the grey of "no value"
