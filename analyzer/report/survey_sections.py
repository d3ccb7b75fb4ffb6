"""The report's survey sections, each a template over saved answers: the dealt hands
(Monte Carlo, beside the exact counts of ``analyzer exact`` kept in ``exact/cards10`` and
``exact/cards11``), the round robin of policies, and the rules presets compared, played
by the champion against the naive player."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from ..core.stats import half_width_of_se
from ..studies.answer import Answer, command_line
from ..studies.study import GIN
from ..studies.survey import duel, duel_verdict, standings_table
from ..studies.text import interval_text
from .common import Entry, Found, ReportConfig, Section, format_ci, section_intro
from .markdown import markdown_table

#: The exact answers the dealt section reads, by hand size: their folders.
EXACT_FOLDERS = {10: "exact/cards10", 11: "exact/cards11"}


def _source(answer: Answer, folder: str, config: ReportConfig) -> str:
    """Where an answer comes from: its title line, its tables and the command that
    rewrites its folder alone."""
    tables = ", ".join(f"[{name}.csv]({folder}/{name}.csv)" for name in answer.tables)
    command = command_line(answer.study, answer.inputs, out=(config.out / folder).as_posix())
    return f"{answer.view.title}. Tables: {tables}. Rewritten alone by `{command}`."


# ---------------------------------------------------------------- dealt hands


def _dealt(found: Found, config: ReportConfig) -> str:
    dealt: Answer = found["dealt"]
    intro = section_intro(
        "How is the deadwood of a dealt hand distributed, and how often can the first "
        "player knock right away, for each knock limit (Oklahoma's upcard sets the limit)?",
        "Nobody, so no champion: dealt hands only, before any play.",
        "any preset (only the knock limit matters here)",
    )
    exact = {cards: found.get(folder) for cards, folder in EXACT_FOLDERS.items()}
    if None in exact.values():
        answer, table = _monte_carlo_only(dealt, config)
    else:
        answer, table = _with_exact(dealt, exact)
    sources = [_source(dealt, "dealt", config)] + [
        _source(found[folder], folder, config)
        for folder in EXACT_FOLDERS.values()
        if found.get(folder) is not None
    ]
    return (
        f"{intro}**Answer.** {answer}\n\n![Deadwood of a dealt hand](dealt/dealt.png)\n\n"
        f"{markdown_table(table)}\n\n" + "\n\n".join(sources) + "\n"
    )


def _monte_carlo_only(dealt: Answer, config: ReportConfig) -> tuple[str, pd.DataFrame]:
    """The answer from the Monte Carlo hands alone, and how to compute the exact counts."""
    commands = " and ".join(
        f"`{entry.command(config)}`" for entry in DEALT.entries if entry.study == "exact"
    )
    body = dealt.view.body
    assert isinstance(body, pd.DataFrame)
    return (
        (
            f"{dealt.verdict} The exact counts are not in this folder: {commands} enumerate "
            "every hand (about 25 s on 2 cores, once: they depend on no size or seed, so the "
            "report reads them and does not run them)."
        ),
        body,
    )


def _with_exact(dealt: Answer, exact: dict[int, Answer | None]) -> tuple[str, pd.DataFrame]:
    """The exact answer, the Monte Carlo estimate beside it, and how often its 95% CI
    holds the exact value."""
    counts = {cards: answer["counts"] for cards, answer in exact.items() if answer is not None}
    exact_at = {
        (cards, limit): float(table["cumulative"].iloc[limit])
        for cards, table in counts.items()
        for limit in range(11)
    }
    mc = dealt["knock_eligibility"].set_index(["cards", "limit"])
    table = pd.DataFrame({"knock limit (points)": range(11)})
    inside = 0
    for cards, label in ((10, "10 dealt"), (11, "best 10 of 11")):
        exact_column, mc_column = [], []
        for limit in range(11):
            estimate = mc.loc[(cards, limit)]
            half = half_width_of_se(estimate["se"])
            inside += abs(estimate["probability"] - exact_at[(cards, limit)]) <= half + 1e-12
            exact_column.append(f"{exact_at[(cards, limit)]:.4e}")
            mc_column.append(f"{estimate['probability']:.4e} ± {half:.1e}")
        table[f"P({label} <= limit), exact"] = exact_column
        table[f"Monte Carlo ± 95% CI ({label})"] = mc_column
    ten = counts[10]
    mean10 = float((ten["deadwood"] * ten["probability"]).sum())
    hands = {cards: int(frame["count"].sum()) for cards, frame in counts.items()}
    gin = exact_at[(10, 0)]
    deals = dealt.inputs["deals"]
    return (
        (
            f"Exactly (every one of the C(52,10) = {hands[10]:,} ten-card hands and C(52,11) = "
            f"{hands[11]:,} eleven-card hands enumerated), a dealt hand is gin with probability "
            f"{gin:.4e} (1 in {1 / gin:,.0f}) and knock-eligible (deadwood <= 10) with "
            f"probability {exact_at[(10, 10)]:.4e}; after taking the upcard, the best 10 of 11 "
            f"cards is knock-eligible with probability {exact_at[(11, 10)]:.4e}. The mean dealt "
            f"deadwood is {mean10:.2f} points. The Monte Carlo estimate from {deals:,} hands of "
            f"each size contains the exact value in {inside} of 22 cells of the table (about 21 "
            "expected at 95%). The exact distributions, linear and log: "
            f"[10 cards]({EXACT_FOLDERS[10]}/exact.png), "
            f"[best 10 of 11]({EXACT_FOLDERS[11]}/exact.png)."
        ),
        table,
    )


# ---------------------------------------------------------------- the round robin


def _tournament(found: Found, config: ReportConfig) -> str:
    answer: Answer = found["tournament"]
    pairs, ranking = answer["pairs"], answer["ranking"]
    order = list(ranking["policy"])
    top, second = order[:2]
    head = duel(pairs, top, second)
    points = format_ci(head["points"], head["points_low"], head["points_high"])
    won = interval_text(
        head["game_win"], head["game_win_low"], head["game_win_high"], 1, percent=True
    )
    field = "\n".join(
        f"* `{name}`: `{GIN.format_player(player)}`"
        for name, player in answer.inputs["policies"].items()
    )
    intro = section_intro(
        "Which way of drawing and discarding wins?",
        "Every policy of the field below against every other, seats swapped on common "
        "deals; each knocks by its own rule. The champion is one of the field: the round "
        "robin ranks the policies rather than answering how the champion plays.",
        answer.inputs.rules_name,
    )
    verdict = duel_verdict(f"`{top}`", f"`{second}`", head)
    return f"""\
{intro}**Answer.** Ranked by mean points per hand against the rest of the field:
{", ".join(f"`{name}`" for name in order)}. Head to head, `{top}` against `{second}` scores \
{points} points per hand and wins {won} of games ({verdict}).
`search` is not in this field (it changes only the knock decision and plays hundreds of
times slower): the report's opening answer, "When to knock", measures it against every
knock rule.

![Round robin of policies](tournament/tournament.png)

{markdown_table(standings_table(ranking))}

{answer.view.notes[-1]}

The field:
{field}

{_source(answer, "tournament", config)}
"""


# ---------------------------------------------------------------- the rules presets


def _variants(found: Found, config: ReportConfig) -> str:
    answer: Answer = found["variants"]
    view, table = answer.view, answer["variants"]
    a, b = answer.inputs.labels["a"], answer.inputs.labels["b"]
    deals, games = answer.inputs["deals"], answer.inputs["games"]
    biggest = table.loc[table["hand_points"].idxmax()]
    longest = table.loc[table["hands_per_game"].idxmax()]
    intro = section_intro(
        "Under each rules preset, how big and how spread are the hands, how long is a "
        "game, how much does skill decide it, and does the best knock threshold move?",
        f"The champion (`{a}`) against the naive player (`{b}`: it knocks as soon as it "
        "can, throws the card leaving the least deadwood and takes the face-up card when "
        "that lowers its deadwood), seats swapped, in every column: how much skill decides "
        f"is the champion's share of games against `{b}`, and the hands' statistics come "
        "from the same match-up rather than from the champion's self-play (one match-up "
        "for the whole table, and cheaper).",
        "every preset (`analyzer rules` lists them)",
        "its best t is the one knock threshold for the whole hand that scores most against "
        "the naive player, preset by preset; the opening answer's rule is a table by own "
        "turn, chosen against seven kinds of opponent and kept robust, so it may knock "
        "earlier than a threshold found against one weak opponent",
    )
    assert view.chart is not None and isinstance(view.body, pd.DataFrame)
    return f"""\
{intro}**Answer.** {view.verdict} Hands score most under `{biggest["rules"]}` \
({biggest["hand_points"]:.1f} points a hand) and games last longest under \
`{longest["rules"]}` ({longest["hands_per_game"]:.1f} hands).

![{view.chart.title}](variants/{view.chart.name}.png)

{markdown_table(view.body)}

{" ".join(view.notes)}

**Sizes.** The champion plays several times slower than `basic`, so each preset gets
{deals:,} deals and {games:,} game pairs, and the comparisons are made on common deals
instead: each preset's share of games is paired game by game with that of
`{table["rules"].iloc[0]}`, each knock threshold deal by deal with knocking at 10.

{_source(answer, "variants", config)}
"""


def _exact(cards: int) -> Entry:
    """The exact answer of ``cards``-card hands, kept in the report by its own command
    (``analyzer exact``), which the report reads and does not run."""
    return Entry(
        "exact",
        EXACT_FOLDERS[cards],
        lambda config: {"cards": cards},
        seconds=8 if cards == 10 else 18,
        run=False,
        required=False,
        label=f"exact, {cards} cards",
    )


DEALT = Section(
    "dealt",
    "Dealt hands: how often can you knock at once?",
    (
        Entry(
            "dealt",
            "dealt",
            lambda config: {"deals": config.size(25)},
            seconds=1,
            label="dealt hands",
        ),
        _exact(10),
        _exact(11),
    ),
    _dealt,
)


def _played(
    name: str,
    title: str,
    deals: float,
    seconds: float,
    template: Callable[[Found, ReportConfig], str],
) -> Section:
    """A section of one study that plays games: ``deals`` times the report's deals per
    pairing or preset, and a fortieth of them in game pairs (30 at the least)."""
    entry = Entry(
        name,
        name,
        lambda config: {"deals": config.size(deals), "games": config.size(0.025, 30)},
        seconds=seconds,
        label=name,
    )
    return Section(name, title, (entry,), template)


TOURNAMENT = _played(
    "tournament", "Draw and discard policies: a round robin", 0.25, 30, _tournament
)
VARIANTS = _played(
    "variants",
    "Scoring variants: how much does the rule book change the game?",
    0.1,
    8,
    _variants,
)

__all__ = ["DEALT", "EXACT_FOLDERS", "TOURNAMENT", "VARIANTS"]
