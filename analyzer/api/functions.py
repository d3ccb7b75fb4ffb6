"""The notebook's study functions, one per study declaration: written by
``python scripts/write_api.py`` from the declarations (do not edit; a test keeps this file
in step).  Each checks its arguments as the command line does, reads the kept answer or
computes it, and returns a :class:`~analyzer.api.results.Result`; importing it loads no
study."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..gin.model.policies import Policy
    from ..gin.model.rules import Rules
    from ..gin.play.players import SearchPolicy
    from ..rummy.policies import RummyPolicy
    from ..rummy.rules import RummyRules
    from .arguments import ProgressLike
    from .results import Result


def dealt(
    *,
    deals: int = 1000000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Dealt deadwood: P(gin) and P(deadwood <= k) for every knock limit k. Random hands of 10
    and 11 cards (11: the best 10 of them), their least deadwood counted: the chance of each
    knock limit, with its binomial standard error.

    deals: Random hands of each size. (1-1,000,000,000,000)
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer dealt`` prints it: ``.title``, ``.text()``, ``.to_frame()``, ``.plot()``.
    ``.distribution``: every deadwood's probability; ``.plot()``: its histogram.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("dealt", arguments)


def equilibrium(
    base: str | Policy = "expert",
    rules: str | Rules = "standard",
    *,
    deals: int = 5000,
    iterations: int = 8,
    tolerance: float = 0.1,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Approximate equilibrium of the knock decision (the robust knock chart). PSRO over knock
    tables (a threshold per bin of own turns), the rest of play fixed to BASE; prints the
    convergence (exploitability by iteration, points per hand with 95% CI) and the
    equilibrium mixture. The answers in a player's words start from the heaviest table of
    the run saved in results/robust_knock/<rules>/.

    base: Policy that plays everything but the knock decision.
    deals: Deals per comparison. (100-10,000,000)
    iterations: Most PSRO iterations. (1-50)
    tolerance: Stop when the exploitability's upper 95% bound is below this (points per
    hand).
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer equilibrium`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.mixture_frame()`` and ``.strategy_frame()``: the equilibrium;
    ``.plot()``: its knock tables and the convergence.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("equilibrium", arguments)


def equity(
    a: str | Policy = "expert",
    b: str | Policy = "expert",
    presets: Sequence[str] | None = None,
    rules: str | Rules = "standard",
    *,
    deals: int = 20000,
    check: int = 4,
    games: int = 2000,
    score_aware: bool = True,
    caps: Sequence[int] = (0,),
    floors: Sequence[int] = (10,),
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """P(A wins the game) and E[final margin] from every score state. Estimates the law of one
    hand's result by simulation, then solves the game by dynamic programming over (A's
    score, B's score, next dealer). The check plays whole games from sampled score states
    (seed + 1); the score-aware study lets A choose, at each score, among its own knock and
    variants of it (every threshold of its knock tables at most --caps or at least --floors,
    without its read of the opponent), chosen on the table's deals, and measures the game-
    win gain over A's own knock on paired games (seed + 2).

    a: Policy of player A.
    b: Policy of player B.
    deals: Deals per hand-outcome law (each played by both dealers; the same deals for every
    law). (1-1,000,000,000,000)
    check: Check the table against whole games from N score states (0:0 and a sample of the
    states games visit; 0: no check). (0-1,000,000,000,000)
    games: Games per arm of the score-aware gain (each with both first dealers); the check
    plays a quarter of it per state. (1-1,000,000,000,000)
    score_aware: Find A's best knock option for each score and measure its game-win gain
    over A's own knock.
    caps: Knock options: A's knock tables with every threshold at most c (0: gin only).
    floors: Knock options: A's knock tables with every threshold at least f (10: knock at
    every chance).
    presets: Also solve the pair's table under these rules presets, on the same deals.
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer equity`` prints it: ``.title``, ``.text()``, ``.to_frame()``, ``.plot()``.
    ``.table`` is the whole equity table, ``.response`` the score-aware choice; ``.plot()``
    the heat maps.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("equity", arguments)


def exact(
    *,
    cards: int = 10,
    ranks: int = 13,
    suits: int = 4,
    mc_deals: int = 1000000,
    restart: bool = False,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Exact distribution of dealt deadwood over every hand of --cards cards. Each multiset of
    suit lanes is evaluated once and weighted by its number of suit assignments. The seed is
    the Monte Carlo overlay's, drawn on the chart (the full deck only). With --out an
    interrupted run resumes from its checkpoint, which is kept beside OUT in .OUT.analyzer-
    checkpoints/ until the files are written.

    cards: 10: minimum deadwood of every 10-card hand; 11: deadwood left after the best
    discard of every 11-card hand. (10-11)
    ranks: Ranks per suit of a reduced deck (for checks; no Monte Carlo overlay). (1-13)
    suits: Suits of a reduced deck. (1-4)
    mc_deals: Monte Carlo deals for the chart overlay (0: none). (0-1,000,000,000,000)
    restart: Ignore the checkpoint of an earlier run.
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer exact`` prints it: ``.title``, ``.text()``, ``.to_frame()``, ``.plot()``.
    ``.stats`` has P(gin), the mean and the median; ``.plot()`` the chart.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("exact", arguments)


def exploit(
    policy: str | Policy = "basic",
    rules: str | Rules = "standard",
    *,
    deals: int = 5000,
    games: int = 1000,
    rounds: int = 2,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Find the strongest response to POLICY and how much it gains. Searches knock tables (one
    threshold for all turns, then per bin of own turns), the draw and discard rules and the
    policy's numeric parameters by coordinate ascent on common deals, moving only on a
    significant gain; compares that response with every policy preset (the replica marjj
    among them) and with search rolling POLICY out as itself; then measures the strongest on
    a held-out seed: points per hand (split into gin, undercut and ordinary-knock hands) and
    game-win rate, with 95% CIs.  POLICY itself is never its own best response.

    policy: The policy to exploit.
    deals: Deals per comparison in the search (the held-out check plays twice as many).
    (100-10,000,000)
    games: Seat-swapped game pairs for the held-out game-win rate (0: skip). (0-1,000,000)
    rounds: Sweeps of the coordinate search. (1-5)
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer exploit`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.response``: the strongest response; ``.tried``: every whole response
    compared; ``.steps``: the coordinate search's accepted moves; ``.plot()``: every
    response tried with its CI.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("exploit", arguments)


def fit_discard(
    rules: str | Rules = "standard",
    *,
    generations: int = 6,
    population: int = 10,
    elite: int = 3,
    deals: int = 2000,
    held_out: int = 10000,
    softness: float = 2.0,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Fit the learned discard's weights (discard=learned) from simulated deals. The fit starts
    from the expert with the learned discard's default weights and improves them by the
    cross-entropy method against a panel of opponents; the fitted weights are then compared
    with the starting ones on fresh deals.

    generations: Generations of the cross-entropy method. (1-50)
    population: Candidate weight vectors per generation. (2-100)
    elite: Best candidates that set the next generation's mean (at most population). (1-100)
    deals: Deals per candidate and opponent (each played twice, seats swapped).
    (100-1,000,000)
    held_out: Fresh deals per opponent comparing the fitted weights with the start.
    (100-1,000,000)
    softness: T of the soft minimum of the points per hand over the panel (points).
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer fit-discard`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. The fit's fields read through (``.fitted``, ``.held_out``...);
    ``.facts['fit']``: the fitted weights and policy; ``.plot()``: the held-out gains.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("fit-discard", arguments)


def guide(
    rules: str | Rules = "standard",
    *,
    opponent: str = "unknown",
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """The whole guide: draw, discard and knock, each with its gain over the naive rule. The
    three decisions of a turn on one screen, each rule in a player's words with what it
    gains over the rule a player already follows (points per hand, 95% CI), read from the
    answers kept for the rules preset (when-to-knock, how-to-discard, how-to-draw), and what
    the rule book changes. --out writes a one-page strategy card (PNG and PDF, A4 and
    Letter).

    opponent: Whom you play: a family of opponents.
    results: Report folder to read the answers from (default: $ANALYZER_RESULTS, else
    ./results, else the results/ of the project an editable install came from).
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer guide`` prints it: ``.title``, ``.text()``, ``.to_frame()``, ``.plot()``.
    ``.text()``: the guide; ``.to_frame()``: the three rules with their gains.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("guide", arguments)


def how_to_discard(
    rules: str | Rules = "standard",
    *,
    opponent: str = "unknown",
    deals: int = 10000,
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """How should I discard? The principles, with their worth. The principles of a rule a
    person can follow when throwing a card, each with what it is worth in points per hand
    against the opponent (95% CIs), what the rule gains over the naive rule (throw your
    highest unmatched card), and how much of the champion's edge it keeps. Read from the
    report folder when it keeps the answer for the rules preset
    (results/how_to_discard/<rules>/), computed otherwise (minutes at the default size).

    opponent: Whom you play: a family (unknown, knocks-at-once, camper, gin-hunter) or a
    test opponent (basic, simple, gin-hunter, taper, marjj, expert).
    deals: Deals per player and opponent (each twice, seats swapped). (100-10,000,000)
    results: Report folder to read the answer from (default: $ANALYZER_RESULTS, else
    ./results, else the results/ of the project an editable install came from).
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer how-to-discard`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.plot()``: each principle's worth; ``.to_dict()``: the answer's data.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("how-to-discard", arguments)


def how_to_draw(
    rules: str | Rules = "standard",
    *,
    opponent: str = "unknown",
    deals: int = 10000,
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Should I take the upcard? The principles, with their worth. The principles of a rule a
    person can follow when the face-up card is offered, each with what it is worth in points
    per hand against the opponent (95% CIs), what the rule gains over the naive rule (take
    the upcard only when it completes a meld), and how much of the champion's edge it keeps.
    Read from the report folder when it keeps the answer for the rules preset
    (results/how_to_draw/<rules>/), computed otherwise (minutes at the default size).

    opponent: Whom you play: a family (unknown, knocks-at-once, camper, gin-hunter) or a
    test opponent (basic, simple, gin-hunter, taper, marjj, expert).
    deals: Deals per player and opponent (each twice, seats swapped). (100-10,000,000)
    results: Report folder to read the answer from (default: $ANALYZER_RESULTS, else
    ./results, else the results/ of the project an editable install came from).
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer how-to-draw`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.plot()``: each principle's worth; ``.to_dict()``: the answer's data.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("how-to-draw", arguments)


def knock_chart(
    a: str | Policy = "expert",
    b: str | Policy = "expert",
    rules: str | Rules = "standard",
    *,
    deals: int = 40000,
    min_samples: int = 300,
    equity_deals: int = 10000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Knock now or play on? Mean points difference by own turn and deadwood. Every knock
    decision of A's deals is branched: knock now, or play on by A's policy; each cell is the
    mean points difference with its 95% CI and a verdict.

    a: The player whose knock decisions are branched.
    b: Its opponent.
    deals: Deals whose knock decisions are branched (each twice, seats swapped).
    (1-1,000,000,000,000)
    min_samples: Cells with fewer states are greyed out. (1-1,000,000,000,000)
    equity_deals: Also value each hand as the chance of winning a game from 0:0, by an
    equity table from this many deals (0: points only). (0-1,000,000,000,000)
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer knock-chart`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.plot()``: the heat map.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("knock-chart", arguments)


def knock_schedule(
    a: str | Policy = "expert",
    b: str | Policy = "expert",
    rules: str | Rules = "standard",
    *,
    objective: str = "points",
    deals: int = 3000,
    rounds: int = 2,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Best turn-dependent knock schedule, then alternating best responses. A (--a with its
    schedule searched over own turns 1-3, 4-6, 7-9, 10+) best-responds to --b, then B (the
    same base policy) to A, and so on.

    a: The player whose schedule is searched first.
    b: Its opponent, which best-responds in turn.
    objective: Maximise points per hand, or the game-win rate.
    deals: Deals (points) or game pairs (games) per evaluation. (1-1,000,000,000,000)
    rounds: Rounds of alternating best responses. (1-10)
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer knock-schedule`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.plot()``: the schedules.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("knock-schedule", arguments)


def knock_sweep(
    a: str | Policy = "expert",
    opponents: Sequence[str | Policy | SearchPolicy] = ("basic", "expert"),
    rules: str | Rules = "standard",
    *,
    deals: int = 20000,
    games: int = 1000,
    thresholds: Sequence[int] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Knock at deadwood <= t for t = 0..10: points per hand and games won. A is --a with its
    knock threshold set to t (the rest of its play unchanged), against each of --opponents.
    Each threshold is paired with t = 10 on common deals.

    a: The player whose knock threshold is swept.
    opponents: Its opponents (policies), each swept on its own.
    deals: Deals per threshold (each twice, seats swapped). (1-1,000,000,000,000)
    games: Game pairs per threshold. (1-1,000,000,000,000)
    thresholds: The knock thresholds tried (deadwood points, 0-10, each once).
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer knock-sweep`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.plot()``: the three panels (points against t = 10, games won,
    undercuts).
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("knock-sweep", arguments)


def panel_equilibrium(
    base: str | Policy = "expert",
    rules: str | Rules = "standard",
    *,
    members: Sequence[str | Policy | SearchPolicy] | None = None,
    deals: int = 1000,
    iterations: int = 4,
    tolerance: float = 0.1,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Equilibrium over the whole opponent panel (PSRO), and the knock table against it. The
    players are whole players: basic, simple, gin-hunter, taper, the marjj replica, expert,
    search and BASE knocking by the committed robust table (results/robust_knock/<rules>/,
    else BASE's own table). Each iteration solves the matrix game of the population, then
    adds the strongest response found (a knock table with BASE play, every policy preset, or
    search modelling the mixture's heaviest player) while it gains more than the tolerance.
    Prints the convergence, the mixture and the knock table that does best against it, each
    in points per hand with 95% CI.

    base: Policy that plays everything but the knock in the knock-table responses.
    members: The players it starts from besides the robust rule, each once (default: the
    panel: basic, simple, gin-hunter, taper, marjj, expert, search,budget=64; at most 16).
    deals: Deals per comparison (the knock-table search plays half as many, held-out checks
    twice as many). (100-10,000,000)
    iterations: Most iterations of the search (PSRO: add the strongest response to the mix,
    solve again). (1-50)
    tolerance: Stop when the strongest response found gains no more than this on average
    (points per hand).
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer panel-equilibrium`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.mixture_frame()``: the mixture; ``.answer`` and ``.answer_value``: the
    knock table and its points per hand against it; ``.plot()``: the mixture and the
    convergence.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("panel-equilibrium", arguments)


def play_games(
    a: str | Policy | SearchPolicy = "basic",
    b: str | Policy | SearchPolicy = "basic",
    rules: str | Rules = "standard",
    *,
    players: int = 2,
    policies: Sequence[str | Policy] | None = None,
    games: int = 10000,
    keep_rows: bool = False,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Play whole games to the target score of A against B (or 3-4 players). With two players
    each game is played twice, the first dealer swapped.

    a: Policy of player A.
    b: Policy of player B (as --a).
    players: 3: separate scores (seating by the three_player rule); 4: partnerships 0+2 v
    1+3. (2-4)
    policies: With 3 or 4 players: the policies, one per player (default: a and b
    alternating).
    games: Games; with 2 players each is played twice with the first dealer swapped; with 3
    or 4 at most 1,000,000. (1-1,000,000,000,000)
    keep_rows: keep every row played (``.rows``); at most 5,000,000 games.
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer games`` prints it: ``.title``, ``.text()``, ``.to_frame()``, ``.plot()``.
    With two players the games' fields read through (``.game_win_rate_a``...); ``.rows``
    holds every game with ``keep_rows``; with three or four the table is each side's share
    of the games won.  ``.plot()``: the share of games won with its CI.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("games", arguments)


def rummy_games(
    a: str | RummyPolicy = "simple",
    b: str | RummyPolicy = "simple",
    rules: str | RummyRules = "standard",
    *,
    players: int | None = None,
    policies: Sequence[str | RummyPolicy] | None = None,
    games: int = 2000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Play games of plain rummy to the rules' target score (--set target=500). Player j keeps
    seat j; each player's game-win rate (95% CI) and final score, and hands per game. A run
    stopped by Ctrl-C or SIGTERM first prints the summary of the games finished (with
    --json, marked "interrupted": true).

    a: Player 0's policy.
    b: Policy of every other player.
    players: Number of players, 2-6 (default: the preset's). (2-6)
    policies: One policy per player (instead of a and b); key=value items belong to the
    policy before them: rummy,hold_turns=4,simple.
    games: Games to play. (1-1,000,000,000,000)
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer rummy games`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. The run's fields read through (``.player_game_win_rate``...).
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("rummy games", arguments)


def rummy_simulate(
    a: str | RummyPolicy = "simple",
    b: str | RummyPolicy = "simple",
    rules: str | RummyRules = "standard",
    *,
    players: int | None = None,
    policies: Sequence[str | RummyPolicy] | None = None,
    deals: int = 10000,
    rotate: bool = True,
    keep_rows: bool = False,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Play many hands of plain rummy and report win rates and points with 95% CIs. Player 0
    plays A and every other player B, or each its own of --policies; the seats rotate from
    hand to hand unless --no-rotate. A run stopped by Ctrl-C or SIGTERM first prints the
    summary of the hands finished (with --json, marked "interrupted": true).

    a: Player 0's policy.
    b: Policy of every other player.
    players: Number of players, 2-6 (default: the preset's). (2-6)
    policies: One policy per player (instead of a and b); key=value items belong to the
    policy before them: rummy,hold_turns=4,simple.
    deals: Hands to play. (1-1,000,000,000,000)
    rotate: Rotate the seats from hand to hand (--no-rotate: player j keeps seat j, seat 0
    plays first).
    keep_rows: keep every row played (``.rows``); at most 5,000,000 deals.
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer rummy simulate`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. The run's fields read through (``.player_win_rate``, ``.margin``...).
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("rummy simulate", arguments)


def rummy_study(
    name: str = "meld-or-hold",
    *,
    deals: int = 6000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Run study NAME of plain rummy: meld-or-hold, players or options. meld-or-hold: melding
    at once against holding melds to go out Rummy, by how long and how many points the
    holder holds; players: hand length, the winner's points and each seat's share of the
    wins from 2 to 6 players; options: what each rule option does to hand length, the
    winner's points and the edge of holding for Rummy. The report runs all three.

    name: The study.
    deals: Deals per configuration. (1-1,000,000,000,000)
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer rummy study`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.plot()`` draws its chart.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("rummy study", arguments)


def simulate(
    a: str | Policy | SearchPolicy = "basic",
    b: str | Policy | SearchPolicy = "basic",
    rules: str | Rules = "standard",
    *,
    deals: int = 100000,
    keep_rows: bool = False,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Play DEALS hands of A against B and summarise them. Each deal is played twice on the
    same cards, A as non-dealer then as dealer. A run stopped by Ctrl-C or SIGTERM first
    prints the summary of the deals it finished (with --json, marked "interrupted": true).

    a: Policy of player A.
    b: Policy of player B (as --a).
    deals: Deals; each is played twice with seats swapped. (1-1,000,000,000,000)
    keep_rows: keep every row played (``.rows``); at most 5,000,000 deals.
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer simulate`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. The simulation's fields read through (``.points_a``, ``.win_rate_a``...);
    ``.rows`` holds every hand with ``keep_rows``; ``.plot()``: points per hand and how
    hands end.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("simulate", arguments)


def tournament(
    policies: Sequence[str | Policy | SearchPolicy] = (
        "simple",
        "basic",
        "safe-discard",
        "lookahead",
        "gin-hunter",
        "passive",
        "marjj",
        "expert-v3",
        "expert",
    ),
    rules: str | Rules = "standard",
    *,
    deals: int = 10000,
    games: int = 1000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Round robin of policy presets: points per hand and game-win rates. Every player plays
    every other on common deals, seats swapped; the ranking is by mean points per hand
    against the rest of the field.

    policies: The players of the round robin, each once (a search player takes its options
    after it: search,budget=32,basic).
    deals: Deals per pairing (each twice, seats swapped). (1-1,000,000,000,000)
    games: Game pairs per pairing. (1-1,000,000,000,000)
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer tournament`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.ranking``: the policies by mean points per hand; ``.plot()``: the two
    matrices, best policy first.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("tournament", arguments)


def variants(
    presets: Sequence[str] = (
        "standard",
        "classic",
        "undercut20",
        "oklahoma",
        "oklahoma-nodouble",
        "oklahoma-acegin",
        "straight",
        "biggin",
        "hollywood",
        "target150",
        "target250",
    ),
    baseline: str | Policy = "basic",
    a: str | Policy = "gin-hunter",
    b: str | Policy = "basic",
    *,
    deals: int = 10000,
    games: int = 1000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """Compare rules presets: hand size, game length, skill share, best threshold. Under each
    preset: the baseline's self-play (points a hand scores, the first player's edge, hands
    per game, shutouts, the best knock threshold against it) and the share of games the
    stronger policy A wins against B.

    presets: The rules presets compared.
    baseline: Policy for self-play statistics and the knock-threshold search.
    a: The stronger policy of the skill measure.
    b: The weaker policy of the skill measure.
    deals: Deals per preset (each twice, seats swapped); the self-play hands are kept in
    memory. (2-5,000,000)
    games: Game pairs per preset. (1-1,000,000,000,000)
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer variants`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.plot()``: the three bar panels.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("variants", arguments)


def when_to_knock(
    rules: str | Rules = "standard",
    *,
    opponent: str = "unknown",
    deals: int = 1000,
    search_deals: int = 500,
    exploit_deals: int = 500,
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result:
    """When should I knock? The rule in words, with its result. The rule, a chart by your turn
    and the cards left in the stock, what it earns against the opponent and its worst case,
    with 95% CIs. Read from the report folder when it keeps the answer for the rules preset
    (results/when_to_knock/<rules>/: standard, classic, oklahoma and eaai are committed;
    hollywood reads standard's, whose hands it plays alike), computed otherwise (minutes at
    the default sizes).

    opponent: Whom you play: a family (unknown, knocks-at-once, camper, gin-hunter), a test
    opponent (basic, marjj, gin-hunter, ...) or any policy string.
    deals: Deals per comparison (each twice, seats swapped). (100-10,000,000)
    search_deals: Deals per comparison of the search for each family's rule.
    (100-10,000,000)
    exploit_deals: Deals per comparison of the search for the strongest response to the
    robust rule (0: no search). (0-10,000,000)
    results: Report folder to read the answer from (default: $ANALYZER_RESULTS, else
    ./results, else the results/ of the project an editable install came from).
    out: save the answer in this folder (tables, chart, meta.json), or None.

    As ``analyzer when-to-knock`` prints it: ``.title``, ``.text()``, ``.to_frame()``,
    ``.plot()``. ``.plot()``: the rule as a grid by turn and deadwood; ``.to_dict()``: the
    answer's data.
    """
    arguments = dict(locals())
    from .study_functions import call

    return call("when-to-knock", arguments)


__all__ = [
    "dealt",
    "equilibrium",
    "equity",
    "exact",
    "exploit",
    "fit_discard",
    "guide",
    "how_to_discard",
    "how_to_draw",
    "knock_chart",
    "knock_schedule",
    "knock_sweep",
    "panel_equilibrium",
    "play_games",
    "rummy_games",
    "rummy_simulate",
    "rummy_study",
    "simulate",
    "tournament",
    "variants",
    "when_to_knock",
]
