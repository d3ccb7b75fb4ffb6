"""One declaration per question: a :class:`Study` names its parameters once (type, range,
default, help) and returns one :class:`Answer` (title line, table, verdict, notes, chart).

The front doors are drawn from the declarations: ``analyzer.cli.study_commands`` makes the
click command of each study and ``analyzer.api.study_functions`` its notebook function, so
the two take the same parameters with the same defaults and ranges, check them the same
way, and print or return the same title, numbers and verdict.  Every study is listed in
:data:`STUDIES`; where to add one is in docs/architecture.md.

Parameters every study shares are not declared: the rules (``--rules``/``--set`` on the
command line, ``rules`` in the notebook), the seed, and how the run is carried out
(progress, threads, a Dask scheduler).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..core.limits import DEFAULT_SEED, MAX_UNITS, check_int
from ..core.progress import Progress
from .charts import Chart, Page
from .text import title_text


class Kind(enum.Enum):
    """What a parameter takes."""

    POLICY = "policy"
    """A policy: a preset name, a policy string (``draw=..,discard=..,knock=..``) or, in
    the notebook, a :class:`~analyzer.gin.model.policies.Policy`."""
    OPPONENT = "opponent"
    """A policy, or the subject's twin: ``same`` (``None`` in the notebook too)."""
    COUNT = "count"
    """A whole number from :attr:`Param.low` to :attr:`Param.high`."""
    CHOICE = "choice"
    """One of :attr:`Param.choices`."""
    THRESHOLDS = "thresholds"
    """Distinct knock thresholds 0-10 (comma-separated on the command line)."""
    PLAYERS = "players"
    """Distinct players, each a policy or the search player (``search,budget=8``), at
    most :data:`~analyzer.core.limits.MAX_LISTED_PLAYERS` (comma-separated on the
    command line); the study gets them by name."""
    PRESETS = "presets"
    """Distinct rules preset names (comma-separated on the command line)."""
    NUMBER = "number"
    """A finite number above :attr:`Param.low` (excluded) and at most :attr:`Param.high`."""
    PLAYER = "player"
    """A policy, or the search player (``search,budget=8``)."""
    FLAG = "flag"
    """True or False (on the command line a flag, ``--name`` for True)."""
    SEATS = "seats"
    """Policies, one per seat, a policy any number of times (comma-separated on the
    command line); the study gets ``(name, policy)`` pairs, or ``None`` when not given."""
    TEXT = "text"
    """A string the study reads itself (an opponent family or a policy string)."""
    FOLDER = "folder"
    """An existing folder, or ``None`` (the study gets the path as a string)."""


class Rulebook:
    """How one game's rules and policies are named and read, for both doors: gin
    (:data:`GIN`) or plain rummy (:data:`RUMMY`)."""

    def __init__(self, game: str, set_example: str) -> None:
        self.game = game
        self.set_example = set_example
        """A ``--set`` example for the help (``knock_limit=7``)."""

    def _modules(self) -> tuple[Any, Any]:
        if self.game == "gin":
            from ..gin.model import policies, rules
        else:
            from ..rummy import policies, rules  # type: ignore[no-redef]
        return rules, policies

    def presets(self) -> Mapping[str, Any]:
        """The rules presets, by name."""
        return self._modules()[0].PRESETS

    def resolve(self, preset: str, overrides: Sequence[str]) -> Any:
        """The rules ``preset`` with ``field=value`` ``overrides``; ``ValueError`` for an
        unknown name or a bad value."""
        return self._modules()[0].resolve_rules(preset, overrides)

    def rules_type(self) -> type:
        rules = self._modules()[0]
        return rules.Rules if self.game == "gin" else rules.RummyRules

    def ranges(self) -> str:
        """The rules fields' ranges, for ``--set``'s help: ``knock_limit 0-10, ...``."""
        ranges = self._modules()[0].INT_RANGES.items()
        return ", ".join(f"{name} {low}-{high}" for name, (low, high) in ranges)

    def parse_policy(self, text: str) -> Any:
        """A policy from a preset name or a string form; ``ValueError`` else."""
        return self._modules()[1].parse_policy(text)

    def policy_type(self) -> type:
        policies = self._modules()[1]
        return policies.Policy if self.game == "gin" else policies.RummyPolicy

    def policy_help(self) -> str:
        """How the command line gives a policy, for ``--help``."""
        if self.game == "gin":
            return "a preset or a policy string (analyzer policies)"
        names = ", ".join(self._modules()[1].PRESETS)
        return f"a preset ({names}), key=value items, or a preset followed by key=value items"

    def format_player(self, player: Any) -> str:
        """A player's full string form: a policy's every field (parsed back by
        :meth:`parse_policy`), or the search player's parts."""
        if self.game == "gin":
            from ..gin.play.players import SearchPolicy, format_player

            if isinstance(player, SearchPolicy):
                return format_player(player)
        return self._modules()[1].format_policy(player)


GIN = Rulebook("gin", "knock_limit=7")
RUMMY = Rulebook("rummy", "max_run=4")


#: The kinds a notebook function takes as positional arguments, before ``rules``.
POSITIONAL = (Kind.POLICY, Kind.OPPONENT, Kind.PLAYER, Kind.PLAYERS, Kind.PRESETS)


#: The subject's twin, as an ``OPPONENT`` parameter is given it.
TWIN = "same"


@dataclass(frozen=True)
class Param:
    """One parameter of a study, as both front doors take it."""

    name: str
    """The notebook's keyword; the command line's option is ``--name`` with ``-`` for
    ``_`` (:attr:`flag`)."""
    kind: Kind
    default: Any
    help: str
    """One sentence for ``--help`` and the function's docstring."""
    low: float = 1
    high: float = MAX_UNITS
    choices: tuple[str, ...] = ()
    argument: bool = False
    """On the command line a positional argument (``NAME``), not an option."""
    keyword_only: bool = False
    """In the notebook a keyword argument even where its kind comes before ``rules``."""
    metavar: str | None = None
    """How ``--help`` names the option's value (None: click's own)."""

    @property
    def flag(self) -> str:
        """The command-line option."""
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class Inputs:
    """A study's checked arguments: the rules, the seed, each parameter's value (a
    :class:`~analyzer.gin.model.policies.Policy` for a policy, ``None`` for the twin)
    and how a title names each player."""

    rules: Any
    """The game's rules (:class:`~analyzer.gin.model.rules.Rules` for gin)."""
    rules_name: str
    """How a title names the rules: ``standard``, ``standard with knock_limit=7``."""
    preset: str
    """The rules preset the rules come from (``custom`` for a Rules object that is no
    preset); files written for the rules are named after it."""
    changed: bool
    """Whether the rules differ from :attr:`preset` (``--set`` on the command line)."""
    seed: int
    values: Mapping[str, Any]
    labels: Mapping[str, str]
    """Each policy parameter as the user gave it (a name, a policy string), or its
    string form when given a Policy object; ``same`` for the twin."""
    overrides: tuple[str, ...] = ()
    """The rules fields set over the preset (``--set knock_limit=7``)."""
    keep_rows: bool = False
    """Whether the study keeps every row it plays (``--raw``, ``keep_rows=True``)."""
    out: str | None = None
    """The folder ``--out`` names (None in the notebook, or without ``--out``), where
    the answer is saved."""
    explicit: frozenset[str] = frozenset()
    """The parameters (and ``seed``) the caller gave, rather than left at their
    defaults: a kept answer is read only when it agrees with each of them."""

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def title(self, what: str, *, players: str | None = None, size: str | None = None) -> str:
        """The answer's title line (:func:`~analyzer.studies.text.title_text`) under these
        rules and this seed: ``what · rules … · players · size · seed …``."""
        return title_text(what, rules=self.rules_name, players=players, size=size, seed=self.seed)


@dataclass(frozen=True)
class Computed:
    """What a study's computation found: the tables and facts its answer is saved with
    (and loaded from), and what only the process that ran it sees."""

    tables: Mapping[str, pd.DataFrame]
    """Named tables, numbers only, CI bounds as their own columns; each is saved as
    ``<name>.csv``, the first is the notebook's ``.to_frame()``."""
    facts: Mapping[str, Any] = field(default_factory=dict)
    """Plain values (JSON) the answer needs beyond its tables."""
    result: object = None
    """The study's own result object (the notebook reads its fields through; not saved)."""
    rows: pd.DataFrame | None = None
    """Every row played, when :attr:`Inputs.keep_rows` (``--raw`` writes them)."""
    stopped: Mapping[str, Any] | None = None
    """A run stopped by Ctrl-C: what ``--json`` prints of it (marked ``"interrupted":
    true``) after the answer of the part finished (None: the run finished)."""


@dataclass(frozen=True)
class View:
    """An answer as people read it: what a study's :attr:`Study.present` makes of the
    saved tables and facts, the same for a fresh answer and a loaded one."""

    title: str
    """One line: what was measured, under which rules, between whom, how many deals and
    the seed, parts joined by `` · ``."""
    body: pd.DataFrame | Sequence[str]
    """The table for a person (cells written ``x ± h``), or lines of text."""
    verdict: str
    """The answer in one sentence, with its number and CI."""
    chart: Chart | None = None
    """The chart's description (None: the study draws none)."""
    notes: Sequence[str] = ()
    """Legend lines under the table."""
    frame: pd.DataFrame | None = None
    """``.to_frame()``, when it is not the first saved table."""
    raw: pd.DataFrame | Mapping[str, Any] | None = None
    """What ``--format csv`` prints (and ``json``, without :attr:`data`), when it is not
    the table: a table, or a run summary (one JSON object, ``key,value`` CSV rows)."""
    data: Mapping[str, Any] | None = None
    """What ``--format json`` prints, when it is not the table."""
    text: str | None = None
    """The whole answer as a person reads it, printed as it is instead of the title, body
    and verdict (an answer in a player's words)."""
    page: Page | None = None
    """A printable page of the answer (a strategy card; None: none)."""


@dataclass(frozen=True)
class Study:
    """One question, declared once."""

    name: str
    """The command (``knock-sweep``); the notebook function is the same with ``_``."""
    summary: str
    """The first line of ``--help`` and of the docstring."""
    description: str
    """What is measured and how to read it (paragraphs)."""
    examples: tuple[str, ...]
    params: tuple[Param, ...]
    compute: Callable[[Inputs, Progress | None, str | None], Computed]
    """The computation: checked inputs, a progress callable (or None) and a Dask
    scheduler address (or None: this process) -> what it found."""
    present: Callable[[Any], View]
    """The answer (:class:`~analyzer.studies.answer.Answer`: its inputs, tables and
    facts) as people read it."""
    unit: str = "deal"
    """What the progress counts."""
    step: str | None = None
    """The progress bar's label (None: none)."""
    rules: bool = True
    """Whether the study plays under one set of rules (``--rules``/``--set``, ``rules``)."""
    rulebook: Rulebook = GIN
    """The game whose rules and policies the study takes."""
    scheduler: bool = True
    """Whether its chunks can run on a Dask cluster (``--scheduler``)."""
    checkpoint: bool = False
    """Whether the command takes ``--checkpoint``/``--resume``."""
    notebook: str = ""
    """What the notebook's result offers beyond the table (``.plot()``...)."""
    rows: str | None = None
    """The count parameter of the rows the study can keep (``--raw FILE``, ``keep_rows``;
    at most :data:`~analyzer.core.limits.MAX_RAW_UNITS`); None: it keeps none."""
    count: str | None = None
    """The count parameter the progress bar totals and a stopped run's JSON names
    (``requested_<count>``), when the study keeps no rows (else :attr:`rows`)."""
    function: str = ""
    """The notebook function's name, when it is not the command's with ``_``."""
    kept: str | None = None
    """Where the report folder keeps this study's answers, one subfolder per rules preset
    (``when_to_knock`` for ``results/when_to_knock/<rules>/``): the doors read an answer
    kept there instead of computing it (None: the study is always computed)."""
    kept_by: tuple[str, ...] = ()
    """The parameters whose values choose among the answers kept for one rules preset,
    each kept in its own subfolder (``standard-4-players`` for ``players``: see
    :func:`~analyzer.studies.answer.kept_folder`): asking for another value reads that
    answer, not a run of one's own."""
    view: tuple[str, ...] = ()
    """The parameters that only choose what is shown of a kept answer (the opponent of
    an answer kept for every opponent): not part of what makes two answers the same."""
    keys: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The columns that name each row of a table (table -> columns): a saved table with
    two rows under one name is refused when read."""
    columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The columns :attr:`present` reads of each table (table -> columns): a saved table
    without one (another version's) is refused when read."""
    covers: Callable[[Any, Inputs], bool] | None = None
    """Whether a kept answer holds the view the inputs ask for (None: every view)."""
    seed: int = DEFAULT_SEED
    """The default seed (:data:`DEFAULT_SEED` for every study: one default, stated once)."""

    @property
    def function_name(self) -> str:
        return self.function or self.name.replace("-", "_").replace(" ", "_")

    @property
    def counted(self) -> str | None:
        """The count parameter of the units the run reports (None: it announces them)."""
        return self.count or self.rows

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def identity(self, inputs: Inputs) -> dict[str, Any]:
        """What makes two runs the same run (a checkpoint belongs to one)."""
        written = self.rulebook.format_player
        values: dict[str, Any] = {"command": self.name}
        if self.rules:
            values["rules"] = inputs.rules.describe()
        for param in self.params:
            value = inputs[param.name]
            if param.kind in (Kind.POLICY, Kind.OPPONENT):
                value = TWIN if value is None else written(value)
            elif param.kind is Kind.PLAYER:
                value = written(value)
            elif param.kind is Kind.SEATS:
                value = None if value is None else [written(player) for _, player in value]
            elif param.kind in (Kind.THRESHOLDS, Kind.PRESETS, Kind.PLAYERS):
                value = None if value is None else list(value)  # the names as given
            values[param.name] = value
        return {**values, "seed": inputs.seed}


def check_presets(names: Sequence[str], name: str = "presets") -> list[str]:
    """Distinct rules preset names (the list called ``name`` in errors)."""
    from ..gin.model.rules import PRESETS as RULE_PRESETS

    if not names:
        raise ValueError(f"{name} is empty; choose from {', '.join(RULE_PRESETS)}")
    for preset in names:
        if not isinstance(preset, str):
            raise TypeError(f"a preset must be a string, got {preset!r}")
        if preset not in RULE_PRESETS:
            raise ValueError(
                f"unknown rules preset {preset!r}; choose from {', '.join(RULE_PRESETS)}"
            )
    if len(set(names)) < len(names):
        raise ValueError(f"{name} names a preset twice")
    return list(names)


def check_thresholds(values: Sequence[int]) -> list[int]:
    """Distinct knock thresholds 0-10, as plain ``int``."""
    chosen = [check_int(value, "a knock threshold", 0, 10) for value in values]
    if not chosen:
        raise ValueError("thresholds lists no threshold")
    if len(set(chosen)) < len(chosen):
        raise ValueError(f"thresholds lists a threshold twice: {chosen}")
    return chosen


#: Every study, by command name (filled by the modules :mod:`analyzer.studies.registry` imports).
STUDIES: dict[str, Study] = {}


def register(study: Study) -> Study:
    """Add ``study`` to :data:`STUDIES`."""
    if study.name in STUDIES:
        raise ValueError(f"a study named {study.name!r} is registered already")
    STUDIES[study.name] = study
    return study


__all__ = [
    "DEFAULT_SEED",
    "POSITIONAL",
    "STUDIES",
    "TWIN",
    "Computed",
    "Inputs",
    "Kind",
    "Param",
    "Study",
    "View",
    "check_presets",
    "check_thresholds",
    "register",
]
