"""The one figure style: every chart saved with a title, a caption and the house dpi."""

import pandas as pd
import pytest
from PIL import Image

from analyzer.report import figures
from analyzer.report.charts import figure
from analyzer.studies.survey import dealt_chart


def saved(path):
    with Image.open(path) as image:
        return image.size, dict(image.text), image.info.get("dpi")


def test_figure_file_writes_title_caption_and_style_dpi(tmp_path):
    path = tmp_path / "chart.png"
    with figures.figure_file(
        path, 1, 2, figsize=(8, 3), title="A title", caption="How to read it. " * 20
    ) as axes:
        assert len(axes) == 2
        axes[0].plot([0, 1], [0, 1])
    size, text, dpi = saved(path)
    assert text["Title"] == "A title"
    assert text["Description"].startswith("How to read it.")
    dpi_setting = figures.STYLE["savefig.dpi"]
    assert dpi == pytest.approx((dpi_setting, dpi_setting), abs=0.01)
    # the panels keep their 8 x 3 inches; title and a wrapped caption are added around
    assert size[0] == 8 * dpi_setting
    assert size[1] > (3 + 0.45 + 2 * 0.22) * dpi_setting


@pytest.mark.parametrize(("title", "caption"), [("", "caption"), ("title", " ")])
def test_a_chart_without_title_or_caption_is_refused(tmp_path, title, caption):
    chart = figures.figure_file(tmp_path / "x.png", title=title, caption=caption)
    with pytest.raises(ValueError, match="title and a caption"), chart:
        pass
    assert not (tmp_path / "x.png").exists()


def test_text_color_contrasts_with_the_cell():
    # black on light cells, white on dark ones (tournament.png printed black on dark red)
    cmap = figures.mpl.colormaps[figures.DIVERGING]
    assert figures.text_color(cmap(0.0)) == "white"  # darkest red
    assert figures.text_color(cmap(1.0)) == "white"  # darkest blue
    assert figures.text_color(cmap(0.5)) == "black"  # the pale middle
    assert figures.text_color((1.0, 1.0, 0.0)) == "black"
    assert figures.text_color((0.0, 0.0, 0.0)) == "white"


def test_knock_chart_legend_explains_grey_cells_and_the_boundary(tmp_path):
    chart = pd.DataFrame(
        {
            "turn": [1, 1, 2, 2],
            "deadwood": [1, 2, 1, 2],
            "mean": [2.0, -1.0, -3.0, 0.5],
            "enough": [True, True, True, False],
        }
    )
    with figures.figure_file(tmp_path / "c.png", figsize=(6, 4), title="t", caption="c") as ax:
        figures.knock_chart_heatmap(chart, ax, 2, min_samples=300)
        labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert any("grey" in label and "300" in label for label in labels)
    assert any("boundary" in label for label in labels)


def test_the_dealt_chart_uses_a_log_scale():
    distribution = pd.DataFrame(
        {
            "cards": [10, 10, 11, 11],
            "deadwood": [0, 50, 0, 50],
            "probability": [1e-5, 0.99999, 1e-4, 0.9999],
        }
    )
    (ax,) = figure(dealt_chart(distribution, 100_000, 1)).axes
    assert ax.get_yscale() == "log"
    low, _ = ax.get_ylim()
    assert low < 1e-5  # P(gin)-sized probabilities are on the chart
