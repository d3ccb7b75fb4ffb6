"""What the JSON API takes and answers: the request models (every number within the
ranges the CLI takes, :data:`LIMITS`, and of the JSON type the field names) and the error
answer of every route."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.limits import MAX_SAMPLES, MAX_SPEC_CHARS, MAX_TOLERANCE, SEED_MAX
from ..gin.engine.transitions import MAX_DRAWS
from ..gin.play.advisor.position import UNDEALT
from ..gin.play.advisor.race import ADVICE_SAMPLES
from ..studies.study import DEFAULT_SEED

#: The ranges of every numeric API argument, shared with the CLI (``analyzer advise``
#: --samples, --tolerance, --seed, --stock, --turn).
LIMITS: dict[str, tuple[float, float]] = {
    "samples": (1, MAX_SAMPLES),
    "tolerance": (0, MAX_TOLERANCE),
    "seed": (0, SEED_MAX),
    "stock": (2, UNDEALT),
    "turn": (1, MAX_DRAWS // 2),
}
CardList = str | list[str]
#: Every request model: no unknown field, and no value of another JSON type converted (as
#: the CLI's position file and the notebook API: ``true`` or ``"5"`` is no integer, ``1``
#: no boolean, ``"0.5"`` no number).
_STRICT = ConfigDict(extra="forbid", strict=True)


class PositionIn(BaseModel):
    """The CLI's ``--position`` JSON: cards in notation (``"Kd 9s"`` or ``["Kd", "9s"]``)."""

    model_config = _STRICT
    hand: CardList = Field(description="Your 11 cards after drawing (or 10 with drawn).")
    pile: CardList = Field("", description="The discard pile, bottom to top.")
    opp_took: CardList = Field("", description="Cards the opponent took from the pile.")
    opp_threw: CardList = Field("", description="Cards the opponent discarded.")
    stock: int | None = Field(None, ge=2, le=UNDEALT, description="Cards left in the stock.")
    turn: int | None = Field(
        None, ge=1, le=MAX_DRAWS // 2, description="Your own turn number, this draw included."
    )
    dealer: Literal["me", "opp"] = "opp"
    drawn: str | None = Field(None, description="The card just drawn.", max_length=20)
    from_pile: bool = Field(False, description="Whether drawn came from the pile.")
    score: str | list[int] | None = Field(
        None,
        description="Score mine:theirs before this "
        "hand; the objective becomes the "
        "game-win probability.",
    )
    upcard: str | None = Field(None, description="The hand's first upcard.", max_length=20)


class AdviseIn(BaseModel):
    model_config = _STRICT
    position: PositionIn
    rules: str = Field("standard", description="Rules preset.", max_length=MAX_SPEC_CHARS)
    opponent: str | None = Field(
        None,
        description="The opponent model (policy preset or spec) [default: expert].",
        max_length=MAX_SPEC_CHARS,
    )
    policy: str | None = Field(
        None,
        description="How you play on after this discard (policy preset or spec) "
        "[default: expert, as analyzer advise].",
        max_length=MAX_SPEC_CHARS,
    )
    samples: int = Field(
        ADVICE_SAMPLES,
        ge=1,
        le=MAX_SAMPLES,
        description="Sample budget (as analyzer advise's); the answer depends on the "
        "position, the seed and this only. A run that cannot finish them within the "
        "server's time limit is refused (503), never answered from fewer.",
    )
    tolerance: float | None = Field(
        None,
        gt=0,
        le=MAX_TOLERANCE,
        allow_inf_nan=False,
        description="Stop when every rival's difference to the "
        "best is this precise (95% half-width; points, or win "
        "probability with a score).",
    )
    seed: int = Field(
        DEFAULT_SEED, ge=0, le=SEED_MAX, description="Random seed, 0 <= seed < 2**63."
    )


class NewGameIn(BaseModel):
    model_config = _STRICT
    rules: str = Field("standard", max_length=MAX_SPEC_CHARS)
    opponent: str | None = Field(
        None, description="Policy preset or spec [default: expert].", max_length=MAX_SPEC_CHARS
    )
    mode: Literal["hand", "game"] = Field(
        "game", description="Single hands, or a game to the rules' target."
    )
    hints: Literal["off", "before", "after"] = "before"
    seed: int | None = Field(
        None,
        ge=0,
        le=SEED_MAX,
        description="Deals are reproducible from it, 0 <= seed < 2**63 [default: random].",
    )


class MoveIn(BaseModel):
    model_config = _STRICT
    move: str = Field(
        description="take, pass, stock, pile, 'play Kd', 'knock Kd', 'gin Kd' or 'big gin'.",
        max_length=20,
    )


class NewRummyGameIn(BaseModel):
    model_config = _STRICT
    players: int = Field(2, ge=2, le=4, description="Players at the table, you included (2-4).")
    rules: str = Field(
        "standard", description="Plain rummy's rules preset.", max_length=MAX_SPEC_CHARS
    )
    hints: Literal["off", "before"] = Field(
        "before", description="Show rummy-expert's advice before each of your moves, or not."
    )
    seed: int | None = Field(
        None,
        ge=0,
        le=SEED_MAX,
        description="Deals are reproducible from it, 0 <= seed < 2**63 [default: random].",
    )


class RummyMoveIn(BaseModel):
    model_config = _STRICT
    move: str = Field(
        description="draw, take, 'meld 4c 5c 6c', 'layoff 8s 2' (the card and the table "
        "meld's index), 'discard Kd', call or pass.",
        max_length=60,
    )


class ErrorOut(BaseModel):
    error: str = Field(description="One-line reason.")


#: The error answers of every route, for the OpenAPI description (no 422: validation
#: errors are 400).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {
        "model": ErrorOut,
        "description": "Bad input: a value outside its range, bad "
        "JSON, an impossible position, an illegal "
        "move, or a Host header not naming this server.",
    },
    "4XX": {
        "model": ErrorOut,
        "description": "404 no such game or decision, 405 wrong "
        "method, 408 body not received in time, "
        "413 body too large, 429 too many advisor "
        "requests from your address.",
    },
    "5XX": {
        "model": ErrorOut,
        "description": "503: the advisor is busy or its run reached the time limit, or "
        "the practice table holds its limit of games; try again.",
    },
}
