"""The notebook API: one call per question, every study of the command line.

``import analyzer as az`` gives every function here.  Rules and policies may be given as
objects or by name (``"oklahoma"``, ``"basic"``, ``"basic,knock=7"``); every study takes
``seed`` (one default for all, 2026) and is reproducible from it; ``progress=True``
shows a bar (tqdm) and a callable receives the units done (:mod:`analyzer.core.progress`);
``out=`` saves the answer in a folder, as ``--out`` does.

A study returns a :class:`~analyzer.api.results.Result`: the same answer the command
prints and the report and the web app show, with ``.title``, ``.text()``,
``.to_frame()``, ``.plot()``, ``.to_dict()``, an HTML view in a notebook with every 95% CI
written ``x ± h``, and the study's own result read through (``result.points_a``).  The
functions are written out in :mod:`analyzer.api.functions` from the studies'
declarations, so an editor shows each one's parameters.

Every argument is checked before any work, with the command line's ranges
(:mod:`analyzer.core.limits`): seeds ``0 <= seed < 2**63``, ``deals`` and ``games``
1-10**12 (at most 5,000,000 with ``keep_rows=True``), ``samples`` 1-1,000,000.  A wrong
kind of value raises ``TypeError`` and a value out of range ``ValueError``, each naming
the argument as you wrote it:

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

# the names the notebook API gives, re-exported by name (the studies' come from functions)
from .arguments import policies as policies
from .arguments import policy as policy
from .arguments import rule_presets as rule_presets
from .arguments import rules as rules
from .arguments import rummy_rules as rummy_rules
from .functions import *
from .gin import advise as advise
from .gin import replay as replay
from .results import Result as Result
from .results import load as load
