"""Slow, obviously-correct oracles for the evaluator, written without its tables.

Melds are generated from the rules' wording, partitions are found by exhaustive search
over disjoint meld subsets, and layoffs by trying every order of laying single cards.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations


def value(card: int) -> int:
    return min(card % 13 + 1, 10)


@cache
def all_melds() -> tuple[frozenset[int], ...]:
    melds = []
    for rank in range(13):
        cards = [suit * 13 + rank for suit in range(4)]
        for size in (3, 4):
            melds.extend(frozenset(c) for c in combinations(cards, size))
    for suit in range(4):
        for low in range(13):
            for high in range(low + 2, 13):
                melds.append(frozenset(suit * 13 + r for r in range(low, high + 1)))
    return tuple(melds)


def melds_in(hand: frozenset[int]) -> list[frozenset[int]]:
    return [m for m in all_melds() if m <= hand]


def min_deadwood(hand: frozenset[int]) -> int:
    """Least deadwood over every set of pairwise disjoint melds drawn from ``hand``."""
    options = melds_in(hand)
    total = sum(value(c) for c in hand)
    best = total

    def search(start: int, used: frozenset[int], melded: int) -> None:
        nonlocal best
        best = min(best, total - melded)
        for i in range(start, len(options)):
            meld = options[i]
            if not meld & used:
                search(i + 1, used | meld, melded + sum(value(c) for c in meld))

    search(0, frozenset(), 0)
    return best


def best_discard(hand: frozenset[int]) -> tuple[set[int], int]:
    results = {c: min_deadwood(hand - {c}) for c in hand}
    best = min(results.values())
    return {c for c, v in results.items() if v == best}, best


def is_meld(cards: frozenset[int]) -> bool:
    return cards in set(all_melds())


def deadwood_after_layoff(defender: frozenset[int], knocker_melds: list[frozenset[int]]) -> int:
    """Lay off single cards in every possible order, then meld the rest optimally."""
    best = min_deadwood(defender)
    seen: set[tuple[frozenset[int], tuple[frozenset[int], ...]]] = set()

    def search(hand: frozenset[int], melds: tuple[frozenset[int], ...]) -> None:
        nonlocal best
        key = (hand, melds)
        if key in seen:
            return
        seen.add(key)
        best = min(best, min_deadwood(hand))
        for card in hand:
            for i, meld in enumerate(melds):
                grown = meld | {card}
                if is_meld(grown):
                    search(hand - {card}, (*melds[:i], grown, *melds[i + 1 :]))

    search(defender, tuple(knocker_melds))
    return best
