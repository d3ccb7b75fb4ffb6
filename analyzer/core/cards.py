"""Cards, hands and their text notation.

A card is an integer ``suit * 13 + rank``: rank 0 is the ace, 12 the king; suits
are ordered clubs, diamonds, hearts, spades.  A hand is a set of cards, held as a
52-bit mask in an ``np.int64`` (bit ``card`` set when the card is held) so every
suit is a 13-bit lane: ``(mask >> (13 * suit)) & 0x1FFF``.

Text notation is one token per card, rank then suit: ``As 2h Td Kc``.  Ranks are
``A23456789TJQK`` (``10`` is accepted for ``T``), suits ``cdhs`` or ``♣♦♥♠``,
case-insensitive; tokens are separated by spaces or commas.

>>> format_hand(parse_hand("as 2h 10d Kc"))
'Kc Td 2h As'
>>> to_mask("As 2s 3s") == 0b111 << 39
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

N_RANKS = 13
N_SUITS = 4
N_CARDS = 52
SUIT_BITS = 0x1FFF
FULL_DECK = (1 << N_CARDS) - 1

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"

#: Deadwood value of each card index (A = 1, 2-10 face value, J/Q/K = 10), points.
CARD_POINTS = np.array(
    [min(r + 1, 10) for _ in range(N_SUITS) for r in range(N_RANKS)], dtype=np.int64
)

HandLike = str | int | np.integer | Iterable[int]


def _relation_masks() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each card: the other cards of its rank, those one rank away in its suit, and
    those two ranks away (52-bit masks)."""
    rank_mates = np.zeros(N_CARDS, dtype=np.int64)
    near1 = np.zeros(N_CARDS, dtype=np.int64)
    near2 = np.zeros(N_CARDS, dtype=np.int64)
    for card in range(N_CARDS):
        suit, rank = divmod(card, N_RANKS)
        for other in range(N_SUITS):
            if other != suit:
                rank_mates[card] |= 1 << (other * N_RANKS + rank)
        for step, table in ((1, near1), (2, near2)):
            for near in (rank - step, rank + step):
                if 0 <= near < N_RANKS:
                    table[card] |= 1 << (suit * N_RANKS + near)
    return rank_mates, near1, near2


#: For each card index, as 52-bit masks: the other cards of its rank (``RANK_MATES``), the
#: cards one rank away in its suit (``NEAR1``) and two ranks away (``NEAR2``).
RANK_MATES, NEAR1, NEAR2 = _relation_masks()

_SUIT_LOOKUP = {c: i for i, c in enumerate(SUIT_CHARS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}


def card_rank(card: int) -> int:
    """Rank 0 (ace) .. 12 (king) of a card index."""
    return card % N_RANKS


def card_suit(card: int) -> int:
    """Suit 0 (clubs) .. 3 (spades) of a card index."""
    return card // N_RANKS


def card_points(card: int) -> int:
    """Deadwood value of one card, in points.

    >>> [card_points(parse_card(t)) for t in ("Ac", "7d", "Th", "Ks")]
    [1, 7, 10, 10]
    """
    return int(CARD_POINTS[check_card(card)])


def parse_card(token: str) -> int:
    """Card index of one token such as ``"Td"``, ``"10♦"`` or ``"as"``.

    >>> parse_card("As"), parse_card("10c"), parse_card("K♥")
    (39, 9, 38)
    """
    if not isinstance(token, str):
        raise TypeError(f"a card in notation must be a string such as 'Td', got {token!r}")
    text = token.strip()
    if len(text) < 2:
        raise ValueError(f"bad card {token!r}: expected a rank then a suit, e.g. 'Td'")
    rank_text, suit_text = text[:-1].upper(), text[-1].lower()
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANK_CHARS:
        raise ValueError(
            f"bad card {token!r}: unknown rank {text[:-1]!r} (ranks are A23456789TJQK)"
        )
    if suit_text not in _SUIT_LOOKUP:
        raise ValueError(f"bad card {token!r}: unknown suit {text[-1]!r} (suits are cdhs or ♣♦♥♠)")
    return _SUIT_LOOKUP[suit_text] * N_RANKS + RANK_CHARS.index(rank_text)


def format_card(card: int, symbols: bool = False) -> str:
    """Notation of one card index, e.g. ``"Td"`` (or ``"T♦"`` with ``symbols``)."""
    card = check_card(card)
    suits = SUIT_SYMBOLS if symbols else SUIT_CHARS
    return RANK_CHARS[card_rank(card)] + suits[card_suit(card)]


def tokens(text: str) -> list[str]:
    """Split card notation on spaces and commas."""
    return text.replace(",", " ").split()


def parse_hand(text: str, size: int | Sequence[int] | None = None) -> list[int]:
    """Card indices of a hand in notation, checked for duplicates and size.

    ``size`` is the required number of cards (or a collection of allowed numbers).

    >>> parse_hand("As, 2s 3s")
    [39, 40, 41]
    >>> parse_hand("As As")
    Traceback (most recent call last):
    ...
    ValueError: duplicate card 'As'
    """
    if not isinstance(text, str):
        raise TypeError(f"a hand in notation must be a string such as 'As 2s 3s', got {text!r}")
    cards: list[int] = []
    seen: set[int] = set()
    for token in tokens(text):
        card = parse_card(token)
        if card in seen:
            raise ValueError(f"duplicate card {token!r}")
        seen.add(card)
        cards.append(card)
    _check_size(len(cards), size)
    return cards


def format_hand(hand: HandLike, symbols: bool = False) -> str:
    """Notation of a hand in card-index order: clubs to spades, ace to king.

    >>> format_hand("3s As 2s 7d")
    '7d As 2s 3s'
    """
    return " ".join(format_card(c, symbols) for c in to_indices(hand))


def to_mask(hand: HandLike, size: int | Sequence[int] | None = None) -> int:
    """52-bit mask of a hand given as notation, card indices or a mask.

    >>> to_mask([0, 1, 2])
    7
    """
    if isinstance(hand, str):
        cards: Iterable[int] = parse_hand(hand, size)
        size = None
    elif isinstance(hand, (int, np.integer)):
        mask = int(hand)
        if mask < 0 or mask > FULL_DECK:
            raise ValueError(f"bad mask {mask:#x}: only bits 0-51 may be set")
        _check_size((mask).bit_count(), size)
        return mask
    else:
        cards = hand
    mask = 0
    count = 0
    for card in cards:
        index = check_card(card)
        if mask >> index & 1:
            raise ValueError(f"duplicate card {format_card(index)!r}")
        mask |= 1 << index
        count += 1
    _check_size(count, size)
    return mask


def to_indices(hand: HandLike) -> list[int]:
    """Sorted card indices of a hand."""
    mask = to_mask(hand)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def mask_points(mask: int) -> int:
    """Total card value of a mask, in points."""
    return sum(int(CARD_POINTS[c]) for c in to_indices(mask))


def check_card(card: object) -> int:
    """``card`` as an ``int`` card index 0-51; ``ValueError`` naming it otherwise."""
    # ValueError, not TypeError, for a non-integer too: callers report every bad card alike
    bad = ValueError(f"bad card index {card!r}: expected an integer 0-51")
    if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)):
        raise bad
    if not 0 <= int(card) < N_CARDS:
        raise bad
    return int(card)


def _check_size(count: int, size: int | Sequence[int] | None) -> None:
    if size is None:
        return
    allowed = (size,) if isinstance(size, int) else tuple(size)
    if count not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise ValueError(f"wrong hand size: {count} cards, expected {want}")
