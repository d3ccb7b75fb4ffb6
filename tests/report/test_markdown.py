"""The one Markdown table helper of the report."""

import numpy as np
import pandas as pd

from analyzer.report.markdown import markdown_table


def test_per_column_formats_and_right_aligned_numbers():
    text = markdown_table(pd.DataFrame({"a": ["x"], "b": [1.23456]}), {"b": ".2f"})
    assert text.splitlines() == ["| a | b |", "|---|---:|", "| x | 1.23 |"]


def test_float_format_applies_to_floats_only_and_missing_text_to_nan():
    frame = pd.DataFrame(
        {"state": ["0:0", "50:0"], "games": [10, 20], "win": [0.5, np.nan], "agree": [True, False]}
    )
    lines = markdown_table(frame, float_format=".3f", missing="-", align=False).splitlines()
    assert lines[1] == "|---|---|---|---|"
    assert lines[2] == "| 0:0 | 10 | 0.500 | True |"
    assert lines[3] == "| 50:0 | 20 | - | False |"


def test_column_format_beats_float_format_and_signs():
    frame = pd.DataFrame({"gain": [0.25, -0.125], "rate": [0.5, 0.75]})
    lines = markdown_table(frame, {"gain": "+.2f"}, float_format=".1f").splitlines()
    assert lines[2:] == ["| +0.25 | 0.5 |", "| -0.12 | 0.8 |"]


def test_one_row_per_frame_row_and_no_index():
    frame = pd.DataFrame({"k": range(5)}, index=list("abcde"))
    lines = markdown_table(frame).splitlines()
    assert len(lines) == 2 + 5
    assert lines[-1] == "| 4 |"
    assert all("a" not in line for line in lines[2:])
