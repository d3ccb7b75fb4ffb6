"""The notebook API: one call per question, every study of the command line.

``import analyzer as az`` gives every function here.  Rules and policies may be given as
objects or by name (``"oklahoma"``, ``"basic"``, ``"basic,knock=7"``); every study takes
``seed`` and is reproducible from it; ``progress=True`` shows a bar (tqdm) and a callable
receives the units done (:mod:`analyzer.core.progress`).

A study returns a :class:`~analyzer.api.results.Result`: a title line (the rules, the
players, the deals and the seed), the table as a pandas DataFrame (``.to_frame()``), the
study's own result read through (``result.points_a``), an HTML view in a notebook with
every 95% CI written ``x ± h``, and ``.plot()`` where the command draws a chart
(:mod:`analyzer.api.study_functions`, made from the studies' declarations, and
:mod:`analyzer.api.gin`).  The answers in a player's words (:func:`when_to_knock`,
:func:`how_to_discard`) return their own answer object: ``.text()``, ``.plot()``.

Every argument is checked before any work, with the command line's ranges
(:mod:`analyzer.core.limits`): seeds ``0 <= seed < 2**63``, ``deals`` and ``games``
1-10**12 (at most 5,000,000 with ``keep_rows=True``, 2-5,000,000 for :func:`variants`),
``samples`` 1-1,000,000.  A wrong kind of value raises ``TypeError`` and a value out of
range ``ValueError``, each naming the argument as you wrote it:

>>> simulate(deals=10**13)
Traceback (most recent call last):
...
ValueError: deals must be 1-1000000000000, got 10000000000000

>>> import analyzer as az
>>> az.rules("standard", knock_limit=7).knock_limit
7
>>> az.policy("basic", knock=7).knock.schedule
((1, 7),)
>>> result = az.simulate("basic", "gin-hunter", deals=500, seed=1)
>>> result.title
'Hands · rules standard · A basic against B gin-hunter · 500 deals (1,000 hands, seats swapped) · seed 1'
>>> result.to_frame().columns.tolist()
['metric', 'mean', 'low', 'high', 'n']
"""

from .arguments import policies, policy, rule_presets, rules, rummy_rules
from .gin import advise, replay
from .results import ChartedResult, Result
from .study_functions import (
    dealt,
    equilibrium,
    equity,
    exact,
    exploit,
    fit_discard,
    how_to_discard,
    knock_chart,
    knock_schedule,
    knock_sweep,
    panel_equilibrium,
    play_games,
    rummy_games,
    rummy_simulate,
    rummy_study,
    simulate,
    tournament,
    variants,
    when_to_knock,
)

__all__ = [
    "ChartedResult",
    "Result",
    "advise",
    "dealt",
    "equilibrium",
    "equity",
    "exact",
    "exploit",
    "fit_discard",
    "how_to_discard",
    "knock_chart",
    "knock_schedule",
    "knock_sweep",
    "panel_equilibrium",
    "play_games",
    "policies",
    "policy",
    "replay",
    "rule_presets",
    "rules",
    "rummy_games",
    "rummy_rules",
    "rummy_simulate",
    "rummy_study",
    "simulate",
    "tournament",
    "variants",
    "when_to_knock",
]

#: The names ``import analyzer as az`` exposes from this package: the functions.
API: tuple[str, ...] = tuple(name for name in __all__ if name[0].islower())
