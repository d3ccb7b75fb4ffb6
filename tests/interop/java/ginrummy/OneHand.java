package ginrummy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Random;

/**
 * Test driver (ours): two AnalyzerPlayers play one hand with the framework's turn order
 * (offers, draws, discards, knock melds, the defender's melds) and the hand's result is
 * printed as "hand over: ..."; then both players are closed and "agents ended: true" is printed
 * when their processes are gone. Argument: the shuffle seed.
 */
public class OneHand {
    public static void main(String[] args) {
        GinRummyPlayer[] players = {new AnalyzerPlayer(), new AnalyzerPlayer()};
        ArrayList<Card> deck = new ArrayList<Card>();
        Collections.addAll(deck, Card.allCards);
        Collections.shuffle(deck, new Random(Long.parseLong(args[0])));
        ArrayList<ArrayList<Card>> hands = new ArrayList<ArrayList<Card>>();
        hands.add(new ArrayList<Card>());
        hands.add(new ArrayList<Card>());
        for (int i = 0; i < 20; i++) hands.get(i % 2).add(deck.remove(deck.size() - 1));
        for (int p = 0; p < 2; p++) players[p].startGame(p, 0, hands.get(p).toArray(new Card[0]));
        ArrayList<Card> discards = new ArrayList<Card>();
        discards.add(deck.remove(deck.size() - 1));
        Card first = discards.get(0);
        int current = 0;
        int turns = 0;
        ArrayList<ArrayList<Card>> knockMelds = null;
        while (deck.size() > 2) {
            Card faceUp = discards.get(discards.size() - 1);
            boolean drawFaceUp = players[current].willDrawFaceUpCard(faceUp);
            if (drawFaceUp || turns >= 2 || faceUp != first) {
                Card drawn = drawFaceUp ? discards.remove(discards.size() - 1) : deck.remove(deck.size() - 1);
                for (int p = 0; p < 2; p++) players[p].reportDraw(current, (p == current || drawFaceUp) ? drawn : null);
                hands.get(current).add(drawn);
                Card discard = players[current].getDiscard();
                if (!hands.get(current).remove(discard) || (drawFaceUp && discard == drawn))
                    throw new IllegalStateException("illegal discard " + discard);
                for (int p = 0; p < 2; p++) players[p].reportDiscard(current, discard);
                discards.add(discard);
                knockMelds = players[current].getFinalMelds();
                if (knockMelds != null) break;
            }
            turns++;
            current = 1 - current;
        }
        if (knockMelds == null) {
            System.out.println("hand over: cancelled after " + turns + " turns");
        } else {
            int knockerDeadwood = deadwood(hands.get(current), knockMelds);
            if (knockerDeadwood > 10) throw new IllegalStateException("illegal knock " + knockMelds);
            for (int p = 0; p < 2; p++) players[p].reportFinalMelds(current, knockMelds);
            ArrayList<ArrayList<Card>> own = players[1 - current].getFinalMelds();
            for (int p = 0; p < 2; p++) players[p].reportFinalMelds(1 - current, own);
            int[] scores = {0, 0};
            for (int p = 0; p < 2; p++) players[p].reportScores(scores);
            System.out.println("hand over: player " + current + " knocked with " + knockMelds
                    + " (deadwood " + knockerDeadwood + "); defender melds " + own
                    + " (deadwood " + deadwood(hands.get(1 - current), own) + ")");
        }
        // close() sends quit and waits: the agent processes have ended when it returns
        boolean ended = true;
        for (GinRummyPlayer player : players) {
            AnalyzerPlayer agent = (AnalyzerPlayer) player;
            agent.close();
            agent.close();  // a second close does nothing
            ended &= !agent.isAlive();
        }
        System.out.println("agents ended: " + ended);
        System.exit(0);
    }

    /** Points of the cards of a hand outside the given melds (each meld must be in the hand). */
    static int deadwood(ArrayList<Card> hand, ArrayList<ArrayList<Card>> melds) {
        ArrayList<Card> left = new ArrayList<Card>(hand);
        for (ArrayList<Card> meld : melds)
            for (Card c : meld)
                if (c == null || !left.remove(c)) throw new IllegalStateException("meld not in hand: " + meld);
        int points = 0;
        for (Card c : left) points += Math.min(c.rank + 1, 10);
        return points;
    }
}
