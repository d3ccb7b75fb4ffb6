"""What the advisor takes, declared once: the fields of a :class:`~.position.Position`
(:data:`POSITION_FIELDS`) and the options of a run with the advisor's defaults
(:data:`ADVICE_OPTIONS`).

Every door builds its form from these declarations: the options of ``analyzer advise``,
the parameters of ``az.advise`` and the request model of ``POST /api/advise`` take the
same names, defaults, ranges and help.  A door gives each input in notation (cards
``"Kd 9s"``, a score ``"45:80"``); :class:`InputKind` says which notation, and so how the
door types and checks it.  Nothing here knows a door: the help names another input as
``{drawn}`` and each door spells it its own way (``--drawn`` on the command line).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from ....core.limits import (
    DEFAULT_SEED,
    MAX_SAMPLES,
    MAX_TEMPERATURE,
    MAX_TOLERANCE,
    MAX_UNITS,
    MIN_EQUITY_DEALS,
    SEED_MAX,
)
from ...engine.transitions import MAX_DRAWS

#: Cards in the stock and pile together once both hands are dealt (52 - 10 - 10 - 1,
#: plus the upcard) -- the same for both openings.
UNDEALT = 31
#: The advisor's sample budget unless told otherwise, the same at every door (the command
#: line, the notebook, the web app): an answer depends on its position, seed and samples only.
ADVICE_SAMPLES = 20_000
#: The budget of the practice table's hints and reviews (fixed too: a hint is quick).
HINT_SAMPLES = 2_000
#: Deals behind the game-equity table that values a scored position's final scores.
ADVICE_EQUITY_DEALS = 30_000
#: Softness of the weighting model, points of deadwood per factor ``e`` (of 4, 8 and 16
#: it agreed best with the knock chart, ``scripts/advisor_crosscheck.py``).
ADVICE_TEMPERATURE = 8.0


class InputKind(enum.Enum):
    """What an input takes, in the notation every door gives it."""

    CARDS = "cards"
    """Cards in notation, ``"Kd 9s"`` (or, in JSON, a list ``["Kd", "9s"]``)."""
    CARD = "card"
    """One card in notation, ``"Kd"``, or ``None``."""
    COUNT = "count"
    """A whole number from :attr:`Input.low` to :attr:`Input.high`."""
    NUMBER = "number"
    """A finite number above :attr:`Input.low` (excluded) and at most :attr:`Input.high`."""
    CHOICE = "choice"
    """One of :attr:`Input.choices`."""
    FLAG = "flag"
    """True or False (on the command line a flag, ``--name`` for True)."""
    SCORE = "score"
    """A game score ``"mine:theirs"`` in points (or, in JSON, ``[mine, theirs]``)."""


@dataclass(frozen=True)
class Input:
    """One input of the advisor, as every door takes it."""

    name: str
    """The notebook's keyword and the JSON key; the command line's option is ``--name``
    with ``-`` for ``_``."""
    kind: InputKind
    help: str
    """One sentence or two; another input is named ``{name}``."""
    default: str | int | float | bool | None = None
    """The default in notation (the :class:`~.position.Position` field's default read
    from it); ``None``: worked out from the rest (see :attr:`default_text`), or none."""
    default_text: str = ""
    """What a ``None`` default stands for, in words (empty: nothing)."""
    required: bool = False
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()

    def text(self, spell: Callable[[str], str] = str) -> str:
        """The help with each input it names spelled by the door (``spell("drawn")``)."""
        return self.help.format_map({name: spell(name) for name in INPUT_NAMES})

    def default_words(self, spell: Callable[[str], str] = str) -> str:
        """What an unstated default stands for (empty: nothing to say), spelled so."""
        return self.default_text.format_map({name: spell(name) for name in INPUT_NAMES})

    def described(self, spell: Callable[[str], str] = str) -> str:
        """The help, and what an unstated default stands for as click shows a default."""
        words = self.default_words(spell)
        return f"{self.text(spell)}  [default: {words}]" if words else self.text(spell)


#: The fields of a position, in :class:`~.position.Position`'s order.
POSITION_FIELDS: tuple[Input, ...] = (
    Input(
        "hand", InputKind.CARDS, "Your 11 cards after drawing, or 10 with {drawn}.", required=True
    ),
    Input("pile", InputKind.CARDS, "The discard pile now, bottom to top.", default=""),
    Input("opp_took", InputKind.CARDS, "Cards the opponent took from the pile.", default=""),
    Input("opp_threw", InputKind.CARDS, "Cards the opponent discarded.", default=""),
    Input(
        "stock",
        InputKind.COUNT,
        "Cards left in the stock.",
        default_text="from the pile",
        low=2,
        high=UNDEALT,
    ),
    Input(
        "turn",
        InputKind.COUNT,
        "Your own turn number, this draw included.",
        default_text="from the stock",
        low=1,
        high=MAX_DRAWS // 2,
    ),
    Input("dealer", InputKind.CHOICE, "Who dealt this hand.", default="opp", choices=("me", "opp")),
    Input("drawn", InputKind.CARD, "The card you just drew (with 10 cards in {hand})."),
    Input("from_pile", InputKind.FLAG, "{drawn} was taken from the discard pile.", default=False),
    Input(
        "score",
        InputKind.SCORE,
        "Game score mine:theirs before this hand; the objective becomes the game-win probability.",
    ),
    Input(
        "upcard",
        InputKind.CARD,
        "The hand's first upcard (Oklahoma knock limit).",
        default_text="the bottom pile card",
    ),
)

#: The options of an advisor run, with the advisor's defaults.
ADVICE_OPTIONS: tuple[Input, ...] = (
    Input(
        "samples",
        InputKind.COUNT,
        "Most samples (opponent hand + stock order) to roll out (their results are kept: "
        "about 400 bytes each); the answer depends on the position, the seed and this only.",
        default=ADVICE_SAMPLES,
        low=1,
        high=MAX_SAMPLES,
    ),
    Input(
        "tolerance",
        InputKind.NUMBER,
        "Stop when every rival's difference to the best is this precise (95% half-width).",
        default_text="1 point, or 0.01 win probability with {score}",
        high=MAX_TOLERANCE,
    ),
    Input(
        "weights",
        InputKind.CHOICE,
        "Weight sampled opponent hands by how well they explain its play, or not.",
        default="model",
        choices=("model", "uniform"),
    ),
    Input(
        "temperature",
        InputKind.NUMBER,
        "Softness of the weighting model (points).",
        default=ADVICE_TEMPERATURE,
        high=MAX_TEMPERATURE,
    ),
    Input(
        "equity_deals",
        InputKind.COUNT,
        "With {score}: deals estimating the hand-outcome law behind the game equity table "
        "that values each final score.",
        default=ADVICE_EQUITY_DEALS,
        low=MIN_EQUITY_DEALS,
        high=MAX_UNITS,
    ),
    Input(
        "seed",
        InputKind.COUNT,
        "Random seed, 0 <= seed < 2**63; the advice is reproducible from it.",
        default=DEFAULT_SEED,
        high=SEED_MAX,
    ),
)

#: Every input's name (the names the help may refer to).
INPUT_NAMES = tuple(spec.name for spec in (*POSITION_FIELDS, *ADVICE_OPTIONS))


def advice_option(name: str) -> Input:
    """The run option ``name`` of :data:`ADVICE_OPTIONS`."""
    return next(spec for spec in ADVICE_OPTIONS if spec.name == name)


__all__ = [
    "ADVICE_EQUITY_DEALS",
    "ADVICE_OPTIONS",
    "ADVICE_SAMPLES",
    "ADVICE_TEMPERATURE",
    "HINT_SAMPLES",
    "INPUT_NAMES",
    "POSITION_FIELDS",
    "UNDEALT",
    "Input",
    "InputKind",
    "advice_option",
]
