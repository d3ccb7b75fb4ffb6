"""Thin adapters around the peer libraries OpenSpiel (``pyspiel``) and RLCard.

Used only by benchmark / cross-check scripts; the analyzer package never imports
this module.  Every peer library is imported lazily inside the function that
needs it, so ``import peers`` works without either library installed.

Intended environment (kept apart from the project's own venv)::

    python3 -m venv /work/peers-venv
    /work/peers-venv/bin/pip install numpy open-spiel==2.0.2 rlcard==1.2.0

Usage from a script::

    sys.path.insert(0, "/work/main/scripts")
    import peers
    peers.openspiel_min_deadwood([[0, 1, 2, ...], ...])

Card conventions
----------------
Ours (every function here takes and returns these):
    card = suit * 13 + rank, rank 0 = Ace .. 12 = King,
    suit order ``OUR_SUITS = "cdhs"`` (clubs, diamonds, hearts, spades).
OpenSpiel (``open_spiel/games/gin_rummy/gin_rummy_utils.cc``):
    card = suit * 13 + rank, rank 0 = Ace .. 12 = King, suit order ``"scdh"``
    (``card_string(0) == "As"``, ``card_string(13) == "Ac"``, ``card_string(51) == "Kh"``).
RLCard (``rlcard/games/gin_rummy/utils/utils.py``):
    card_id = rank_id + 13 * suit_id, suit order ``"SHDC"``; cards are
    ``rlcard.games.base.Card(suit="S", rank="A")`` objects (ranks ``A23456789TJQK``).
Deadwood values are identical in all three: A=1, 2..9 face value, T/J/Q/K=10.

11-card hands
-------------
* OpenSpiel's native ``GinRummyUtils.min_deadwood`` on an 11-card hand (i.e.
  ``hand_size + 1`` cards) picks ONE meld arrangement that maximises the melded
  value of all 11 cards (the first one found on ties), then drops the
  highest-ranked remaining deadwood card.  That is *not always* equal to
  "min over the 11 possible discards of the 10-card minimum deadwood": when
  several arrangements tie on melded value but leave different deadwood sets
  it may drop the wrong one (e.g. ``7h 6s 6c 8d 9s 7c 6h 8s Ts 8c 8h``: native
  7, true 6).  Measured: 0 errors on 1,000 uniform random 11-card hands,
  ~1 in 1,000 on dense (few-rank) hands, always 1 point too high so far.
  Pass ``eleven="min_discard"`` to get the exact min-over-discards value from
  OpenSpiel instead.
* RLCard's melding helpers refuse anything but 10 cards, so
  ``rlcard_min_deadwood`` computes 11-card hands as the minimum over the 11
  discards of the 10-card value (exactly what ``GinRummyNoviceRuleAgent`` does).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

OUR_SUITS = "cdhs"
RANKS = "A23456789TJQK"

_OS_SUITS = "scdh"  # OpenSpiel's suit order
_RL_SUITS = "SHDC"  # RLCard's suit order

# our index -> peer index (pure arithmetic, no peer import needed)
OUR_TO_OPENSPIEL = [_OS_SUITS.index(OUR_SUITS[c // 13]) * 13 + c % 13 for c in range(52)]
OUR_TO_RLCARD_ID = [_RL_SUITS.index(OUR_SUITS[c // 13].upper()) * 13 + c % 13 for c in range(52)]

_os_utils = None
_rl_cards = None


def card_str(card: int) -> str:
    """Our index -> 'As', 'Tc', ... (rank char + lower-case suit char)."""
    return RANKS[card % 13] + OUR_SUITS[card // 13]


def parse_hand(text: str) -> list[int]:
    """'As 2s 3s 4c' -> our indices."""
    return [OUR_SUITS.index(t[1].lower()) * 13 + RANKS.index(t[0].upper()) for t in text.split()]


def _check_hand(hand: Sequence[int]) -> None:
    if len(set(hand)) != len(hand) or any(not 0 <= c < 52 for c in hand):
        raise ValueError(f"bad hand {list(hand)!r}")


# --------------------------------------------------------------------------- OpenSpiel
def _openspiel_utils():
    global _os_utils
    if _os_utils is None:
        import pyspiel

        # GinRummyUtils(num_ranks, num_suits, hand_size); hand_size=10 makes
        # 11-card hands get the "drop highest deadwood card" treatment.
        _os_utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    return _os_utils


def openspiel_min_deadwood(hands: list[list[int]], eleven: str = "native") -> list[int]:
    """Minimum deadwood of each hand using OpenSpiel's C++ ``GinRummyUtils.min_deadwood``.

    Any hand size works; 10 cards gives the plain minimum deadwood.
    For 11 cards, ``eleven="native"`` returns OpenSpiel's own value (best meld
    arrangement of all 11 cards, then highest-ranked deadwood card dropped; see
    module docstring: occasionally 1-2 points too high), ``eleven="min_discard"``
    returns min over the 11 discards of the 10-card value.
    """
    if eleven not in ("native", "min_discard"):
        raise ValueError("eleven must be 'native' or 'min_discard'")
    u = _openspiel_utils()
    md = u.min_deadwood
    m = OUR_TO_OPENSPIEL
    out = []
    for hand in hands:
        _check_hand(hand)
        h = [m[c] for c in hand]
        if len(h) == 11 and eleven == "min_discard":
            out.append(min(md(h[:i] + h[i + 1 :]) for i in range(11)))
        else:
            out.append(md(h))
    return out


def openspiel_play_games(n_games: int, seed: int) -> dict:
    """Play ``n_games`` complete OpenSpiel gin rummy games (one deal each),
    ``SimpleGinRummyBot`` (C++) in both seats, via ``pyspiel.evaluate_bots``
    (whole game loop in C++).  Game ``i`` uses chance seed ``seed + i``; the bot is
    deterministic, so results are reproducible.  Default OpenSpiel rules: knock
    card 10, gin bonus 25, undercut bonus 25, hand ends as a draw (0, 0) when only
    the 2-card wall is left in the stock.
    """
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in range(2)]
    totals = [0.0, 0.0]
    draws = 0
    t0 = time.perf_counter()
    for i in range(n_games):
        state = game.new_initial_state()
        r = pyspiel.evaluate_bots(state, bots, seed + i)
        totals[0] += r[0]
        totals[1] += r[1]
        draws += r[0] == 0 and r[1] == 0
    t = time.perf_counter() - t0
    return {"games": n_games, "seconds": t, "total_returns": totals, "draws": draws}


# --------------------------------------------------------------------------- RLCard
def _rlcard_cards():
    global _rl_cards
    if _rl_cards is None:
        from rlcard.games.gin_rummy.utils import utils as rl_utils

        _rl_cards = [rl_utils.get_card(OUR_TO_RLCARD_ID[c]) for c in range(52)]
    return _rl_cards


def _rl_min_deadwood10(cards) -> int:
    from rlcard.games.gin_rummy.utils import melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils

    best = melding.get_best_meld_clusters(hand=cards)  # all arrangements with min deadwood
    # no meld at all -> [] ; deadwood is then the whole hand
    return rl_utils.get_deadwood_count(hand=cards, meld_cluster=best[0] if best else [])


def rlcard_min_deadwood(hands: list[list[int]]) -> list[int]:
    """Minimum deadwood using RLCard's ``melding.get_best_meld_clusters`` +
    ``utils.get_deadwood_count`` (pure Python).  10-card hands only natively;
    11-card hands = min over the 11 discards of the 10-card value.
    """
    cards = _rlcard_cards()
    out = []
    for hand in hands:
        _check_hand(hand)
        h = [cards[c] for c in hand]
        if len(h) == 10:
            out.append(_rl_min_deadwood10(h))
        elif len(h) == 11:
            out.append(min(_rl_min_deadwood10(h[:i] + h[i + 1 :]) for i in range(11)))
        else:
            raise ValueError("RLCard melding supports only 10- or 11-card hands")
    return out


def rlcard_play_games(n_games: int, seed: int) -> dict:
    """Play ``n_games`` complete RLCard gin rummy games (one deal each) with
    ``GinRummyNoviceRuleAgent`` in both seats via ``env.run``.

    Seeds the env (deck shuffles, dealer choice) with ``seed`` and the global
    ``numpy.random`` state (the agent breaks ties with ``np.random.choice``);
    the previous global numpy state is restored afterwards.  RLCard default
    rules: going-out deadwood 10, random dealer, hand dead when 2 stock cards
    remain, max 200 moves, payoffs are its own scorer's (not gin points).
    """
    import numpy as np
    import rlcard
    from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

    # RLCard's agent draws from the legacy global RNG, so it must be seeded there.
    saved = np.random.get_state()  # noqa: NPY002
    np.random.seed(seed)  # noqa: NPY002
    try:
        env = rlcard.make("gin-rummy", config={"seed": seed})
        agent = GinRummyNoviceRuleAgent()
        env.set_agents([agent, agent])
        totals = [0.0, 0.0]
        t0 = time.perf_counter()
        for _ in range(n_games):
            _, payoffs = env.run(is_training=False)
            totals[0] += float(payoffs[0])
            totals[1] += float(payoffs[1])
        t = time.perf_counter() - t0
    finally:
        np.random.set_state(saved)  # noqa: NPY002
    return {"games": n_games, "seconds": t, "total_returns": totals}


# --------------------------------------------------------------------------- self-check
def _reference_min_deadwood(hand: Sequence[int]) -> int:
    """Slow, obviously-correct brute force (our indices), for adjudication only."""
    if len(hand) == 11:
        return min(_reference_min_deadwood(list(hand[:i]) + list(hand[i + 1 :])) for i in range(11))
    cards = set(hand)
    melds = []
    for r in range(13):  # sets of 3 or 4
        same = [s * 13 + r for s in range(4) if s * 13 + r in cards]
        if len(same) >= 3:
            melds.append(frozenset(same))
            if len(same) == 4:
                melds += [frozenset(same) - {c} for c in same]
    for s in range(4):  # runs of length >= 3
        for a in range(13):
            for b in range(a + 2, 13):
                run = [s * 13 + r for r in range(a, b + 1)]
                if all(c in cards for c in run):
                    melds.append(frozenset(run))

    def val(cs):
        return sum(min(10, c % 13 + 1) for c in cs)

    best = val(cards)

    def rec(start, used):
        nonlocal best
        best = min(best, val(cards - used))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                rec(i + 1, used | melds[i])

    rec(0, frozenset())
    return best


def _selftest(n_hands: int = 200, seed: int = 0) -> None:
    import random

    rng = random.Random(seed)
    fixed = {"As 2s 3s 4c 4d 4h 9c Tc Jc Kd": 10, "Ks Kc Qd Qh Js Jc Td Th 9s 9c": 98}
    for text, want in fixed.items():
        h = parse_hand(text)
        got = (
            openspiel_min_deadwood([h])[0],
            rlcard_min_deadwood([h])[0],
            _reference_min_deadwood(h),
        )
        print(f"{text}: openspiel/rlcard/reference = {got} (expected {want})")
        assert got == (want,) * 3
    for size in (10, 11):
        hands = [rng.sample(range(52), size) for _ in range(n_hands)]
        t = time.perf_counter()
        a = openspiel_min_deadwood(hands)
        ta = time.perf_counter() - t
        t = time.perf_counter()
        b = rlcard_min_deadwood(hands)
        tb = time.perf_counter() - t
        ref = [_reference_min_deadwood(h) for h in hands]

        def agree(xs, ref=ref):
            return sum(x == y for x, y in zip(xs, ref, strict=True))

        extra = ""
        if size == 11:
            c = openspiel_min_deadwood(hands, eleven="min_discard")
            extra = f", openspiel min_discard==reference {agree(c)}"
        print(
            f"{size}-card x{n_hands}: openspiel==reference {agree(a)}, "
            f"rlcard==reference {agree(b)}{extra}; "
            f"openspiel {n_hands / ta:,.0f} hands/s, rlcard {n_hands / tb:,.0f} hands/s"
        )
    print("openspiel games:", openspiel_play_games(50, seed))
    print("rlcard games:", rlcard_play_games(20, seed))


if __name__ == "__main__":
    _selftest()
