"""The practice table's hand: :class:`PracticeHand`, a :class:`~analyzer.rummy.hand.Hand`
with ``rummy-expert``'s advice in words, a hint for the seat to move and the review of a
finished hand.

The advice is the expert's own decision (the engine's kernels, :meth:`Hand.decide`); the
reason reads the evaluation it decided by (:mod:`analyzer.rummy.expert`): for the draw,
the deadwood before and after taking the pile's top; for a play, the features of the
positions holding and playing leave (the threat, the Rummy bonus still possible, the
points at risk, the spots given away) and of the best throw against the next best (its
deadwood, the cards it feeds, the live cards it keeps).  Evaluation differences are
quoted in points, as the expert's fitted costs give them.  Cards are written with suit
symbols (``K♦``), for a person.
"""

from __future__ import annotations

import numpy as np

from ..core.arrays import Float64s, Int64s
from ..core.cards import format_card, to_indices
from .expert import N_FEATURES, Feature, play_options, throw_score, throw_terms
from .hand import Hand, Turn
from .moves import Move
from .policies import PRESETS, RummyPolicy
from .state import Slot

EXPERT = "rummy-expert"


class PracticeHand(Hand):
    """A hand at the practice table: every phase of a person's is logged with what
    ``rummy-expert`` would have done there and why (:attr:`Turn.advice`), for
    :meth:`review`; :meth:`hint` says the same for the seat to move now.

    >>> hand = PracticeHand.deal(players=2, seed=3)
    >>> moves, reason = hand.hint()
    >>> moves[0].kind in ("draw", "take") and reason.startswith(("Draw", "Take"))
    True
    """

    def _opened(self, entry: Turn) -> None:
        if entry.seat in self.people:
            entry.advice, entry.reason = advice(self)

    def hint(self) -> tuple[list[Move], str]:
        """What ``rummy-expert`` would do now for the seat to move, and why in words."""
        if self.done:
            raise ValueError("the hand is over: no move to hint")
        return advice(self)

    def review(self) -> list[str]:
        """A finished hand's review in words: each decision of the people that differed
        from ``rummy-expert``'s, how often they agreed, and how the hand ended."""
        if not self.done:
            raise ValueError("the hand is not over yet: review it at its end")
        return review(self)


def _card(card: int) -> str:
    return format_card(card, symbols=True)


def _cards(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(_card(c) for c in sorted(cards))


def _listed(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def advice(hand: Hand) -> tuple[list[Move], str]:
    """``rummy-expert``'s moves for the seat to move of ``hand`` (to the end of the phase)
    and the reason in words."""
    expert = PRESETS[EXPERT]
    moves = hand.decide(expert)
    if hand.phase == "draw":
        return moves, _draw_reason(hand, moves[0].kind == "take")
    if hand.phase == "call":
        return moves, _call_reason(hand, moves[0].kind == "call")
    return moves, _play_reason(hand, expert, moves)


def _draw_reason(hand: Hand, take: bool) -> str:
    pile = hand.pile
    if not pile:
        return "Draw from the stock: the discard pile is empty."
    _, now, after = hand.draw_values()
    top = _card(pile[-1])
    if take:
        return (
            f"Take the {top} from the pile: it lowers your deadwood from {now} to {after} "
            "points (counting what you could meld or lay off)."
        )
    return f"Draw from the stock: the {top} would not lower your deadwood ({now} points)."


def _call_reason(hand: Hand, call: bool) -> str:
    seat = hand.to_move
    top = _card(hand.pile[-1])
    if call:
        return (
            f"Call rummy on the board: take the {top} onto the table before the next "
            "player can use it; you have laid cards down already, so no Rummy is lost."
        )
    if not hand.state[Slot.PLAYED + seat]:
        return (
            f"Pass on the {top}: calling counts as melding and would end your chance of "
            "going out Rummy for double points."
        )
    return f"Pass on the {top}."


def _scores(rows: Float64s, cards: list[int], policy: RummyPolicy) -> dict[int, float]:
    weights = policy.to_array()
    return {card: float(throw_score(rows[card], weights)) for card in cards}


def _throwable(state: Int64s, seat: int, taken: int | None) -> list[int]:
    """The cards ``seat`` may throw in ``state``."""
    return [c for c in to_indices(int(state[Slot.HAND + seat])) if c != taken]


def _play_reason(hand: Hand, expert: RummyPolicy, moves: list[Move]) -> str:
    seat = hand.to_move
    laid = [m for m in moves if m.kind in ("meld", "layoff")]
    throws = [m.cards[0] for m in moves if m.kind == "discard"]
    if len(hand.cards(seat)) == sum(len(m.cards) for m in moves):
        bonus = hand.rules.rummy_multiplier
        rummy = not hand.state[Slot.PLAYED + seat] and not hand.state[Slot.PLAYED_NOW]
        how = f" for {bonus} times the points: Rummy" if rummy and bonus > 1 else ""
        return f"Go out{how}: {_moves_text(moves)}."
    held = np.zeros((52, N_FEATURES))
    played = np.zeros((52, N_FEATURES))
    rd, rm, lp = hand.tables
    out, view, no_table, choice, best, best_choice, alt, other_view, _ = hand.ws
    can_play = play_options(
        hand.state, hand.rules_array, expert.to_array(), rd, rm, lp, out, view, no_table,
        choice, best, best_choice, alt, other_view, held, played,
    )  # fmt: skip
    hold_scores = _scores(held, _throwable(hand.state, seat, hand.taken), expert)
    parts = []
    rows, scores = held, hold_scores
    if can_play:
        play_scores = _scores(played, _throwable(alt, seat, hand.taken), expert)
        gap = (min(hold_scores.values()) - min(play_scores.values())) / 100
        parts.append(_hold_or_play_text(hand, held, laid, gap))
        if laid:
            rows, scores = played, play_scores
    parts.append(_throw_text(rows, scores, throws[0], expert))
    return " ".join(parts)


def _hold_or_play_text(hand: Hand, held: Float64s, laid: list[Move], gap: float) -> str:
    """Why hold or play; ``gap``: holding's evaluation minus playing's (points)."""
    seat = hand.to_move
    sizes = [size for s, size in enumerate(hand.hand_sizes) if s != seat]
    fewest = min(sizes)
    who = "an opponent holds" if len(sizes) > 1 else "your opponent holds"
    threat = f"{who} {fewest} card{'s' if fewest != 1 else ''}"
    first = next(iter(_throwable(hand.state, seat, hand.taken)))
    eligible = held[first][Feature.PLAY_RUMMY] > 0
    better = f"by rummy-expert's evaluation about {abs(gap):.1f} points better"
    if laid and gap < 0:
        return f"The rules make you lay down the meld you hold: {_moves_text(laid)}."
    if laid and eligible:
        return (
            f"Play now ({_moves_text(laid)}): {threat}, so the points you would keep in hand "
            f"are at risk, and that outweighs the chance of going out Rummy ({better})."
        )
    if laid:
        return (
            f"Play what you can ({_moves_text(laid)}): it takes points out of your hand ({better})."
        )
    if eligible:
        return (
            "Hold your melds: with nothing laid down you can still go out Rummy for "
            f"{hand.rules.rummy_multiplier} times the points, with {sum(sizes)} cards in your "
            f"opponents' hands, while {threat} ({better})."
        )
    return (
        "Keep your melds in hand: laying them down would give your opponents cards to lay "
        f"off ({better})."
    )


#: Why one throw beats another, by the feature that makes the difference: the words
#: when the thrown card has more of it, and when it has less.
_FEATURE_WORDS = {
    Feature.DEADWOOD: ("", "it leaves less deadwood"),
    Feature.HELD: ("", "it takes more points out of your hand"),
    Feature.OUTS: ("it keeps more unseen cards that would meld with your hand", ""),
    Feature.FEED: ("", "the next player could lay the other card off at once"),
    Feature.KNOWN: ("", "the other card goes with cards the next player took from the pile"),
    Feature.DANGER: ("", "the other card goes with more unseen cards an opponent may hold"),
}


def _throw_text(rows: Float64s, scores: dict[int, float], card: int, policy: RummyPolicy) -> str:
    """Why throw ``card``: its deadwood and what makes it better than the next best."""
    text = (
        f"Throw the {_card(card)}: it leaves {int(rows[card][Feature.DEADWOOD])} points of deadwood"
    )
    others = sorted((score, c) for c, score in scores.items() if c != card)
    if not others:
        return text + "."
    second = others[0][1]
    gap = (scores[second] - scores[card]) / 100
    if gap < 0.05:
        return text + f" (the {_card(second)} is as good)."
    weights = policy.to_array()
    gains = np.array(throw_terms(rows[second], weights)) - np.array(
        throw_terms(rows[card], weights)
    )
    reasons = []
    for feature, (more, less) in _FEATURE_WORDS.items():
        words = more if rows[card][feature] > rows[second][feature] else less
        if gains[feature] > 0 and words:
            reasons.append((gains[feature], words))
    reasons.sort(reverse=True)
    text += f", rather than the {_card(second)}"
    if reasons:
        text += ": " + _listed([words for _, words in reasons[:2]])
    return text + f" (about {gap:.1f} points better by rummy-expert's evaluation)."


def _move_words(move: Move) -> str:
    if move.kind == "meld":
        return f"lay down {_cards(move.cards)}"
    if move.kind == "layoff":
        return f"lay off the {_card(move.cards[0])}"
    if move.kind == "discard":
        return f"throw the {_card(move.cards[0])}"
    return {"draw": "draw from the stock", "take": "take the pile's top"}.get(
        move.kind, f"{move.kind} rummy on the board" if move.kind == "call" else "pass"
    )


def _moves_text(moves: list[Move]) -> str:
    return _listed([_move_words(m) for m in moves])


def _same(one: list[Move], other: list[Move]) -> bool:
    """Whether two phases' moves put the same cards in the same places (the order of the
    melds and layoffs aside)."""
    return sorted(str(m) for m in one) == sorted(str(m) for m in other)


def review(hand: Hand) -> list[str]:
    """The review of a finished hand (see :meth:`PracticeHand.review`): the logged advice
    against the moves made."""
    lines = []
    decisions = agreed = 0
    for entry in hand.log:
        if entry.advice is None:
            continue
        decisions += 1
        if _same(entry.moves, entry.advice):
            agreed += 1
            continue
        lines.append(
            f"Turn {entry.turn} ({entry.phase}): you chose to {_moves_text(entry.moves)}; "
            f"rummy-expert would {_moves_text(entry.advice)}. {entry.reason}"
        )
    if decisions:
        lines.insert(0, f"You and rummy-expert agreed on {agreed} of {decisions} decisions.")
    lines.append(_outcome(hand))
    return lines


def _outcome(hand: Hand) -> str:
    winner = hand.winner
    if winner is None:
        why = "the stock ran out" if hand.end == "stock" else "it went on too long"
        return f"The hand was void ({why}): nobody scored."
    rummy = " Rummy, for double points" if hand.rummy and hand.rules.rummy_multiplier > 1 else ""
    who = "You" if winner in hand.people else f"Seat {winner}"
    return f"{who} went out{rummy} and scored {hand.points} points."
