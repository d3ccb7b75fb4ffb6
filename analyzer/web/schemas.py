"""What the JSON API takes and answers: the request models (every number within the
ranges the CLI takes, :data:`LIMITS`, and of the JSON type the field names) and the error
answer of every route."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..core.limits import MAX_SPEC_CHARS, SEED_MAX
from ..gin.play.advisor.inputs import POSITION_FIELDS, Input, InputKind, advice_option

#: The advisor's run options the API takes (:data:`~analyzer.gin.play.advisor.inputs.ADVICE_OPTIONS`;
#: no game score, so no equity deals, and the weighting model is the command line's).
RUN_OPTIONS = ("samples", "tolerance", "seed")
#: What the API adds to a declared input's help.
_NOTES = {
    "samples": " A run that cannot finish them within the server's time limit is refused "
    "(503), never answered from fewer.",
}
#: The ranges of every numeric API argument, shared with the CLI (``analyzer advise``
#: --samples, --tolerance, --seed, --stock, --turn): both read the declarations.
LIMITS: dict[str, tuple[float, float]] = {
    spec.name: (spec.low, spec.high)
    for spec in (*map(advice_option, RUN_OPTIONS), *POSITION_FIELDS)
    if spec.kind in (InputKind.COUNT, InputKind.NUMBER)
}
CardList = str | list[str]
#: Every request model: no unknown field, and no value of another JSON type converted (as
#: the CLI's position file and the notebook API: ``true`` or ``"5"`` is no integer, ``1``
#: no boolean, ``"0.5"`` no number).
_STRICT = ConfigDict(extra="forbid", strict=True)


def _field(spec: Input) -> tuple[Any, Any]:
    """The request field of one declared input: its JSON type, range, default and help."""
    default: Any = ... if spec.required else spec.default
    optional = spec.default is None and not spec.required
    text = spec.described() + _NOTES.get(spec.name, "")
    if spec.kind is InputKind.CARDS:
        return CardList, Field(default, description=text)
    if spec.kind is InputKind.CARD:
        return str | None, Field(default, description=text, max_length=20)
    if spec.kind is InputKind.SCORE:
        return str | list[int] | None, Field(default, description=text)
    if spec.kind is InputKind.FLAG:
        return bool, Field(default, description=text)
    if spec.kind is InputKind.CHOICE:
        return Literal[spec.choices], Field(default, description=text)
    if spec.kind is InputKind.COUNT:
        kind: Any = int | None if optional else int
        return kind, Field(default, description=text, ge=spec.low, le=spec.high)
    kind = float | None if optional else float
    return kind, Field(default, description=text, gt=spec.low, le=spec.high, allow_inf_nan=False)


if TYPE_CHECKING:  # models made from the declarations at import: type checkers see the base
    PositionIn = BaseModel
    AdviseIn = BaseModel
else:
    PositionIn = create_model(
        "PositionIn",
        __config__=_STRICT,
        __doc__='The CLI\'s ``--position`` JSON: cards in notation (``"Kd 9s"`` or '
        '``["Kd", "9s"]``).',
        __module__=__name__,
        **{spec.name: _field(spec) for spec in POSITION_FIELDS},
    )
    AdviseIn = create_model(
        "AdviseIn",
        __config__=_STRICT,
        __module__=__name__,
        position=(PositionIn, ...),
        rules=(str, Field("standard", description="Rules preset.", max_length=MAX_SPEC_CHARS)),
        opponent=(
            str | None,
            Field(
                None,
                description="The opponent model (policy preset or spec) [default: expert].",
                max_length=MAX_SPEC_CHARS,
            ),
        ),
        policy=(
            str | None,
            Field(
                None,
                description="How you play on after this discard (policy preset or spec) "
                "[default: expert, as analyzer advise].",
                max_length=MAX_SPEC_CHARS,
            ),
        ),
        **{name: _field(advice_option(name)) for name in RUN_OPTIONS},
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
