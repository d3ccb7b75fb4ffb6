"""What the advisor takes, declared once: the fields of a :class:`~.position.Position`
(:data:`POSITION_FIELDS`) and the options of a run with the advisor's defaults
(:data:`ADVICE_OPTIONS`).

Every door builds its form from these declarations: the options of ``analyzer advise``,
the parameters of ``az.advise`` and the request model of ``POST /api/advise`` take the
same names, defaults, ranges and help.  A door gives each input in notation (cards
``"Kd 9s"``, a score ``"45:80"``); :class:`InputKind` says which notation, and so how the
door types and checks it.  Nothing here knows a door: the help names another input as
``{drawn}`` and each door spells it its own way (``--drawn`` on the command line).

None of the modules kernels are made of imports this one when it loads (a test checks
it), so editing the help compiles nothing (:mod:`analyzer._kernel_cache`); the numbers it
declares come from :mod:`.constants`.
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
from .constants import ADVICE_EQUITY_DEALS, ADVICE_SAMPLES, ADVICE_TEMPERATURE, UNDEALT


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

    def from_json(self, value: object) -> object:
        """A JSON ``value`` of this input in its notation (a list of cards or a score pair
        joined into a string); a value of another JSON type raises an error naming it."""
        name = self.name
        if self.kind is InputKind.CARDS:
            if isinstance(value, list) and all(isinstance(card, str) for card in value):
                return " ".join(value)
            if not isinstance(value, str):
                raise TypeError(f"{name} must be card notation or a list of cards, got {value!r}")
        elif self.kind is InputKind.COUNT:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be an integer, got {value!r}")
        elif self.kind is InputKind.FLAG:
            if not isinstance(value, bool):
                raise TypeError(f"{name} must be true or false, got {value!r}")
        elif self.kind is InputKind.SCORE:
            if isinstance(value, list):
                if len(value) != 2 or not all(
                    isinstance(s, int) and not isinstance(s, bool) for s in value
                ):
                    raise ValueError(f"{name} must be [mine, theirs] in points, got {value!r}")
                return ":".join(str(s) for s in value)
            if not isinstance(value, str):
                raise ValueError(f'{name} must be "mine:theirs" or [mine, theirs], got {value!r}')
        elif not isinstance(value, str):  # a card or a choice
            raise ValueError(f"{name} must be a string, got {value!r}")
        return value

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
    "ADVICE_OPTIONS",
    "INPUT_NAMES",
    "POSITION_FIELDS",
    "Input",
    "InputKind",
    "advice_option",
]
