"""The report's game-equity section: a template over the saved answer of ``analyzer
equity`` played by the champion in both seats (its table, its check against whole games,
the same pair under other presets, and whether knocking by the score still pays)."""

from __future__ import annotations

from ..studies.answer import Answer, command_line
from ..studies.equity import options_table, presets_table
from .common import Entry, Found, ReportConfig, Section, section_intro
from .markdown import markdown_table, with_ci

#: The presets the section solves the champion's table under.
PRESETS = ("standard", "classic", "eaai", "target150", "oklahoma")
#: Columns of the check shown in the section (its CSV has the standard errors too).
_CHECK = ["score_a", "score_b", "a_deals", "boxes_a", "boxes_b", "dp_win", "sim_win", "z_win"]
_CHECK += ["dp_margin", "sim_margin", "z_margin", "dp_hands", "sim_hands", "z_hands"]
_FOLDER = "equity"


def _grid(answer: Answer) -> str:
    """P(A wins) when A deals next, every 20 points, as Markdown."""
    equity = answer["equity"]
    every = (equity["score_a"] % 20 == 0) & (equity["score_b"] % 20 == 0)
    grid = equity[equity["a_deals"] & every].pivot(index="score_a", columns="score_b", values="win")
    grid = grid.rename(columns=lambda s: f"B {s}").reset_index(names="A's score")
    return markdown_table(grid, float_format=".3f", align=False)


def _method(answer: Answer) -> str:
    return (
        "**Method.** The law of one hand's result (winner and points, by dealer; drawn hands "
        f"are redealt) is estimated from {answer.inputs['deals']:,} deals played with both "
        f"dealers ([hand_outcomes.csv]({_FOLDER}/hand_outcomes.csv)). A backward dynamic "
        "program over (A's score, B's score, next dealer, has each won a hand) gives P(A "
        "wins), E[final margin] with the game, line and shutout bonuses and E[hands left]. "
        "It assumes that a hand's result does not depend on the score. That holds for the "
        "champion against itself: its knock tables read no score, and its read of the "
        "opponent (it camps once the opponent has knocked where its own tables would not "
        "have) never fires against a player with the same tables. The check tests the "
        "assumption and the program's bonus bookkeeping against whole games.\n"
    )


def _check(answer: Answer) -> str:
    check, agreement = answer["check"], (answer.view.data or {})["check"]
    rows = "; ".join(
        f"{name} {s['agree']}/{s['rows']} (chi2 {s['chi2']:.1f} on {s['rows']} df, "
        f"p = {s['p_value']:.2f})"
        for name, s in agreement.items()
    )
    text = (
        f"**Check against whole games.** Whole games run from 0:0 and {len(check) // 2 - 1} "
        "states drawn by how often games visit them, with the hands won typical there: "
        f"{int(check['games'].iloc[0]):,} games per state and first dealer. z = (DP - "
        "simulation) / combined standard error, the DP's from a 20-draw bootstrap of the law. "
        f"Rows within their 95% CI: {rows}. The chi-square takes the rows as independent, "
        "which holds only roughly: one law feeds every DP row.\n"
    )
    return text + "\n" + markdown_table(check[_CHECK], float_format=".3f", align=False) + "\n"


def _presets(answer: Answer) -> str:
    inputs = answer.inputs
    return (
        f"**Presets** (`{inputs.labels['a']}` against `{inputs.labels['b']}` on the same "
        "deals; P(A wins) at 50:0 and 90:0 with A dealing next; target150 and oklahoma play "
        "to 150; a preset that changes only how games are scored, or the target, plays "
        "every hand as standard does and reuses its law):\n\n"
        + markdown_table(presets_table(answer["presets"]), align=False)
        + "\n"
    )


def _score_aware(answer: Answer) -> str:
    inputs, gain = answer.inputs, answer["gain"]
    caps, floors = (", ".join(map(str, inputs[name])) for name in ("caps", "floors"))
    arms = with_ci(gain, {"games won": ("mean", "low", "high")}, percent=True)
    return (
        "**Score-aware knocking.** A chooses, for each (own score, opponent score), among "
        "its own knock and variants of it: every threshold of its knock tables (by own turn, "
        f"and while the opponent holds a card it took from the pile) at most {caps} (0: gin "
        f"only) or at least {floors} (10: knock at every chance). A variant drops the "
        "champion's read of the opponent, which judges the opponent's knocks by its own "
        "tables (a lowered table would read every ordinary knock as a racer's); against the "
        "champion that read never fires, so the variants differ from it in the knock alone. "
        "The choice is the best response by backward induction on the DP, from each option's "
        f"law on the table's {inputs['deals']:,} deals; it cannot see the dealer, so each "
        "dealer is weighted by how often the champion's games reach the state. The "
        "score-aware player is then measured against the champion's own knock on "
        f"{int(gain['games'].iloc[0]):,} games (each played with both first dealers on the "
        "same decks as the other arm's), of a seed the choice never saw. The DP takes hands "
        "as independent, but an opponent champion that sees A knock where its own tables "
        "would not reads A as a racer and camps for the rest of the game: only whole games "
        "show what that costs. The chart's right panel is the choice "
        f"([knock_by_score.csv]({_FOLDER}/knock_by_score.csv)).\n\n"
        + markdown_table(options_table(answer["options"]), align=False)
        + "\n\n"
        + markdown_table(arms.drop(columns="games"), align=False)
        + "\n"
    )


def _sizes(answer: Answer, config: ReportConfig) -> str:
    inputs = answer.inputs
    text = (
        "**Sizes.** The champion plays about four times slower than `basic`, which this "
        "section played before with 50,000 deals per law and 10,000 games per arm; to keep "
        f"its run time it plays {inputs['deals']:,} deals per law and {inputs['games']:,} "
        "games per arm"
    )
    if "gain" in answer.tables:
        gain = answer["gain"].set_index("arm").loc["gain"]
        half = 100 * (gain["high"] - gain["low"]) / 2
        text += (
            f": the gain's 95% CI is ± {half:.1f} percentage points, so a smaller gain would "
            "be too close to call here"
        )
    tables = ", ".join(f"[{name}.csv]({_FOLDER}/{name}.csv)" for name in answer.tables)
    command = command_line(answer.study, inputs, out=(config.out / _FOLDER).as_posix())
    return f"{text}. {answer.title}. Tables: {tables}. Rewritten alone by `{command}`.\n"


def _equity(found: Found, config: ReportConfig) -> str:
    answer: Answer = found[_FOLDER]
    inputs, chart = answer.inputs, answer.chart
    parts = [
        section_intro(
            "How likely is each player to win a game to 100 from any score, and does knocking "
            "by the score pay over the champion's own knock?",
            f"`{inputs.labels['a']}` (the champion) against `{inputs.labels['b']}`; for "
            "knocking by the score, the champion with its knock chosen by the score against "
            "the champion.",
            inputs.rules_name,
            "the opening answer's knock rule ignores the score (it earns the most points per "
            "hand); this section asks, in games to 100, whether the score should move the knock",
        ),
        f"**Answer.** {answer.verdict}\n",
    ]
    if chart is not None:
        parts.append(f"![{chart.title}]({_FOLDER}/{chart.name}.png)\n")
    parts += [
        (
            "P(A wins the game) when A deals next, every 20 points (the whole table, with "
            f"margins, shutouts and game length: [equity.csv]({_FOLDER}/equity.csv)):\n"
        ),
        _grid(answer) + "\n",
        _method(answer),
    ]
    if "check" in answer.tables:
        parts.append(_check(answer))
    if "presets" in answer.tables:
        parts.append(_presets(answer))
    if "options" in answer.tables:
        parts.append(_score_aware(answer))
    parts.append(_sizes(answer, config))
    return "\n".join(parts)


SECTIONS = (
    Section(
        "equity",
        "Game equity: a match-equity table for gin rummy",
        (
            Entry(
                "equity",
                _FOLDER,
                lambda config: {
                    "deals": config.size(1.0),
                    "games": config.size(0.1),
                    "presets": PRESETS,
                },
                seconds=18,
                label="game equity",
            ),
        ),
        _equity,
    ),
)

__all__ = ["PRESETS", "SECTIONS"]
