"""Game equity: a match-equity table for gin rummy, and score-aware knocking.

A game to ``target`` points is a Markov chain over score states once a hand's result
is known to be drawn from a fixed law: the state is (score of A, score of B, who deals
next, whether each player has won a hand yet), and each decided hand moves one score
forward.  This package

1. estimates that law, the *hand-outcome distribution*, by simulation
   (:func:`.law.hand_outcome_distribution`: who scores and how many points, by dealer);
2. solves the chain backwards from the target (:mod:`.dp`, :func:`.table.equity_table`) for
   the probability that A wins the game and A's expected final margin with every bonus
   (game, line, shutout) -- the gin analogue of a backgammon match-equity table;
3. checks the table against whole games simulated from sampled score states
   (:func:`.validation.check_against_simulation`);
4. finds A's best response when its knock may depend on the score: at each score one of
   A's knock options, A itself or a variant of it that differs only in when it knocks
   (:func:`.response.knock_options`, :func:`.response.score_aware_best_response`), and
   measures its gain over A's own knock by paired whole-game simulation
   (:func:`.response.measure_gain`).

The study that runs them is ``analyzer equity`` (:mod:`analyzer.studies.equity`).

The table's one modelling assumption is that hands are independent of the score: a
hand's result depends only on who deals it, never on the score before it.  That holds
exactly for score-unaware policies in :mod:`analyzer.gin.play.simulate` (every hand is
dealt from its own random stream and played by the same policies), so for them the DP and
a whole-game simulation estimate the same numbers; the check shows that they agree.  A
policy that reads its opponent across the hands of a game (the champion's ``knock_racer``
and ``discard_racer``) plays a hand by what earlier hands showed; the assumption holds for
it only where the read never fires, as between two players with the same knock tables
(the champion against itself).  A score-aware policy is handled by giving each score state the law of the option it plays
there.

Hollywood scoring (three games on one sheet) is not covered: the table is one game.
"""
