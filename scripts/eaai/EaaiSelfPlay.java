package ginrummy;

import java.util.ArrayList;

/**
 * The EAAI framework's own self-play of its simple player, counted hand by hand: compile this
 * file with your copy of the framework (package ginrummy) and run
 *
 *   java -cp bin ginrummy.EaaiSelfPlay 10000
 *
 * It plays that many games of GinRummyGame with SimpleGinRummyPlayer in both seats, each
 * wrapped in a counting decorator (our code; the framework is unchanged), and prints one JSON
 * line with the hands, the outcome counts (knock, gin, undercut, cancelled), the points of the
 * scored hands and the draws per hand (sums and sums of squares, for confidence intervals).
 * results/interop/eaai_reference.json holds such counts.
 */
public class EaaiSelfPlay {
    /** Counts shared by the two decorators of one game. */
    static final class Tally {
        long hands, knock, gin, undercut, cancelled, scored, points, pointsSq, draws, drawsSq;
        int[] lastScores = {0, 0};
        int knocker = -1;
        int knockerDeadwood = -1;
        int handDraws = 0;
    }

    /** Passes every callback on to the wrapped player; seat 0's copy also counts. */
    static final class Counting implements GinRummyPlayer {
        private final GinRummyPlayer inner;
        private final Tally tally;
        private final boolean counts;
        private final ArrayList<Card> hand = new ArrayList<Card>();
        private int me;

        Counting(GinRummyPlayer inner, Tally tally, boolean counts) {
            this.inner = inner;
            this.tally = tally;
            this.counts = counts;
        }

        public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
            me = playerNum;
            hand.clear();
            for (Card c : cards) hand.add(c);
            if (counts) {
                tally.knocker = -1;
                tally.knockerDeadwood = -1;
                tally.handDraws = 0;
            }
            inner.startGame(playerNum, startingPlayerNum, cards);
        }

        public boolean willDrawFaceUpCard(Card card) {
            return inner.willDrawFaceUpCard(card);
        }

        public void reportDraw(int playerNum, Card drawnCard) {
            if (playerNum == me) hand.add(drawnCard);
            if (counts) tally.handDraws++;
            inner.reportDraw(playerNum, drawnCard);
        }

        public Card getDiscard() {
            return inner.getDiscard();
        }

        public void reportDiscard(int playerNum, Card discardedCard) {
            if (playerNum == me) hand.remove(discardedCard);
            inner.reportDiscard(playerNum, discardedCard);
        }

        public ArrayList<ArrayList<Card>> getFinalMelds() {
            return inner.getFinalMelds();
        }

        public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
            if (tally.knocker < 0) tally.knocker = playerNum;  // the knocker's melds come first
            if (playerNum == me && tally.knocker == me) {
                ArrayList<Card> left = new ArrayList<Card>(hand);
                for (ArrayList<Card> meld : melds) left.removeAll(meld);
                int deadwood = 0;
                for (Card c : left) deadwood += Math.min(c.rank + 1, 10);
                tally.knockerDeadwood = deadwood;
            }
            inner.reportFinalMelds(playerNum, melds);
        }

        public void reportScores(int[] scores) {
            if (counts) {
                tally.hands++;
                tally.draws += tally.handDraws;
                tally.drawsSq += (long) tally.handDraws * tally.handDraws;
                int gained0 = scores[0] - tally.lastScores[0];
                int gained1 = scores[1] - tally.lastScores[1];
                if (tally.knocker < 0) {
                    tally.cancelled++;
                } else {
                    int scorer = gained0 > 0 ? 0 : 1;
                    int points = Math.max(gained0, gained1);
                    tally.scored++;
                    tally.points += points;
                    tally.pointsSq += (long) points * points;
                    if (scorer != tally.knocker) tally.undercut++;
                    else if (tally.knockerDeadwood == 0) tally.gin++;
                    else tally.knock++;
                }
                tally.lastScores = scores.clone();
            }
            inner.reportScores(scores);
        }

        public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
            inner.reportLayoff(playerNum, layoffCard, opponentMeld);
        }

        public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
            inner.reportFinalHand(playerNum, hand);
        }
    }

    public static void main(String[] args) {
        int games = Integer.parseInt(args[0]);
        Tally t = new Tally();
        GinRummyGame game = new GinRummyGame(new Counting(new SimpleGinRummyPlayer(), t, true),
                new Counting(new SimpleGinRummyPlayer(), t, false));
        long start = System.currentTimeMillis();
        for (int g = 0; g < games; g++) {
            t.lastScores = new int[] {0, 0};
            game.play();
        }
        System.out.printf("{\"games\": %d, \"hands\": %d, \"knock\": %d, \"gin\": %d, \"undercut\": %d, "
                + "\"cancelled\": %d, \"scored\": %d, \"points\": %d, \"points_sq\": %d, \"draws\": %d, "
                + "\"draws_sq\": %d, \"ms\": %d}%n", games, t.hands, t.knock, t.gin, t.undercut,
                t.cancelled, t.scored, t.points, t.pointsSq, t.draws, t.drawsSq,
                System.currentTimeMillis() - start);
    }
}
