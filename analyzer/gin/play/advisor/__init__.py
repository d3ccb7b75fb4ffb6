"""'Should I knock?' for a concrete position: rollouts over sampled hidden cards.

A :class:`Position` is what one player knows when holding 11 cards after drawing: the
hand, the discard pile, the cards the opponent took from the pile and threw, the stock
size (or turn number), who dealt, and optionally the game score.  :func:`advise`
estimates the value of every legal action (knock with each legal discard, gin, big gin,
or play on with each discard) and ranks them.

The position's fields and the options of a run are declared once, with the advisor's
defaults (:mod:`.constants`), in :mod:`.inputs`: the command line, the notebook and the web
app build their forms from them.

Method
------
1. **Sampling.**  The cards this player has not seen (the *unseen pool*) are shuffled per
   sample with the counter-based stream ``stream_key(seed, sample)``
   (:mod:`analyzer.core.rng`), so a run is reproducible whatever the thread count.  The
   opponent holds the cards it took from the pile and has not thrown, plus the first
   cards of the shuffled pool; the cards of the pile that were not given (when ``stock``
   says the pile is longer than ``pile``) come next, buried under the given pile; the
   rest of the pool is the stock, in order.
2. **Model weights** (``weights="model"``, the default; ``"uniform"`` skips this step).
   A uniformly drawn hand is a fresh deal, far worse than a hand the opponent has been
   improving for several turns (about 48 against 18 points of deadwood at the knock
   chart's branch points).  So the opponent's sampled hand is first *played in*: for
   each stock draw it has made (its turns minus the cards it took and kept) it draws a
   random card of the rest of the pool and throws the one leaving the least deadwood,
   as the model opponent (``opponent``) would.  Then each sample is weighted by a
   pseudo-likelihood of the opponent's observed play given its sampled hand ``H`` (the
   hands it held when it played are unknown, so ``H`` stands in for them): a card ``c``
   it threw costs ``exp(-(dw(H) - least(H + c)) / T)``, where ``least(H + c)`` is the
   deadwood left by the best throw from ``H + c`` (0 when ``c`` was that throw; large
   when ``c`` melds with ``H`` or ``H`` holds a worse card); a card of ours it passed
   over (a pile card it did not throw, counted only when its throws are given) costs
   ``exp(-gain(H, c) / T)``, with ``gain(H, c)`` the deadwood ``c`` would save ``H`` by
   melding (0 when it would stay deadwood); a card it took and still holds costs
   ``exp(-max(value(c) - gain(H - c, c), 0) / T)``, which is 1 when the card melds;
   and a hand with which the model opponent would have knocked at its last turn gets
   weight 0 (rejection).  ``T`` is the ``temperature`` in points (8 by default: of 4, 8
   and 16 it agreed best with the knock chart, ``scripts/advisor_crosscheck.py``).
   Estimates are self-normalised importance-weighted means, and the effective sample
   size ``(sum w)**2 / sum w**2`` is reported.
3. **Rollouts.**  For each sample the kernel builds the engine state once, then for each
   action copies it, applies the action (:func:`analyzer.gin.engine.transitions.apply_discard`) and plays
   the hand out with :func:`analyzer.gin.engine.transitions.advance` and the chosen policies.  Every
   action sees the same opponent hand, stock order and policy random stream (common
   random numbers), so differences between actions are estimated on paired samples.
4. **Stopping.**  Samples come in batches.  After each batch the best action (highest
   estimate) is compared, on paired differences, with every other action still racing:
   an action significantly worse at 95% is dropped (its estimate is kept, from the
   samples it saw), except the *comparator* of the verdict (the best action of the other
   kind: playing on when the best is a knock, knocking when the best is playing on).  The
   run stops when every racing action's difference to the best has a 95% half-width at
   most ``tolerance``, or when the ``samples`` budget is spent.  Nothing is dropped or
   stopped before the effective sample size reaches 200, and the 95% levels are nominal:
   the intervals are looked at after every batch.

Objective: points per hand to this player (opponent's points negative), or, when the
position has a score, the probability of winning the game: each rollout's final score
state is valued by an ``equity(score_me, score_opp, i_deal_next)`` function (a table,
or by default :func:`simulated_equity`, which plays whole games from that score).
"""

from .constants import ADVICE_EQUITY_DEALS, ADVICE_SAMPLES, HINT_SAMPLES
from .position import (
    ME,
    OPP,
    Action,
    ActionKind,
    Position,
    check_game_position,
    legal_actions,
    parse_action,
    parse_score,
)
from .race import Equity, advise, simulated_equity
from .sampling import SampledDeals, sample_deals
from .verdict import ActionEstimate, Advice

__all__ = [
    "ADVICE_EQUITY_DEALS",
    "ADVICE_SAMPLES",
    "HINT_SAMPLES",
    "ME",
    "OPP",
    "Action",
    "ActionEstimate",
    "ActionKind",
    "Advice",
    "Equity",
    "Position",
    "SampledDeals",
    "advise",
    "check_game_position",
    "legal_actions",
    "parse_action",
    "parse_score",
    "sample_deals",
    "simulated_equity",
]
