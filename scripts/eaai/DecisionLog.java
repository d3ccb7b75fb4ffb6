import ginrummy.Card;
import ginrummy.GinRummyGame;
import ginrummy.GinRummyPlayer;
import ginrummy.SimpleGinRummyPlayer;

import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Random;

/**
 * Plays a GinRummyPlayer of your choice against the framework's SimpleGinRummyPlayer with fixed
 * seeds and logs every callback the player receives and every answer it gives, one JSON object
 * per line, in the message format of the analyzer's EAAI protocol (analyzer/interop/eaai.py).
 * Our code; the framework and the player are used unchanged.  Compile it with your copy of the
 * framework (package ginrummy) and the player (any package) on the class path:
 *
 *   javac -d build -cp build DecisionLog.java
 *   java -cp build DecisionLog MARJJ_v5 1 500 marjj.jsonl 50
 *
 * arguments: player class, first seed, number of seeds, log file ("-" for none), how many of
 * the seeds to log (default all).  Seed s is played twice, the player in seat 0 and then in
 * seat 1 (mirrored seats), with GinRummyGame's static RANDOM reseeded to s before each game,
 * so both seatings get the same deals while the play is the same.  The player's own random
 * tie breaks (if it has any) are not seeded.
 *
 * Log lines: {"type":"game","seed":s,"seat":p} opens a game; then the callbacks in the order
 * the player gets them ({"type":"startGame","player":0,"starting":1,"cards":[...]},
 * {"type":"willDrawFaceUpCard","card":"4C","reply":{"draw":true}}, {"type":"reportDraw",...},
 * {"type":"getDiscard","reply":{"card":"KD"}}, {"type":"getFinalMelds","reply":{"melds":null}},
 * ...), a question carrying the player's answer under "reply"; {"type":"result","winner":w}
 * closes the game.  The last line printed on stdout is a JSON summary of the wins by seat.
 */
public class DecisionLog implements GinRummyPlayer {
    private final GinRummyPlayer inner;
    private final PrintWriter log;

    DecisionLog(GinRummyPlayer inner, PrintWriter log) {
        this.inner = inner;
        this.log = log;
    }

    private static String card(Card card) {
        return card == null ? "null" : "\"" + card + "\"";
    }

    private static String cards(ArrayList<Card> cards) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < cards.size(); i++) {
            if (i > 0) out.append(',');
            out.append(card(cards.get(i)));
        }
        return out.append(']').toString();
    }

    private static String melds(ArrayList<ArrayList<Card>> melds) {
        if (melds == null) return "null";
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < melds.size(); i++) {
            if (i > 0) out.append(',');
            out.append(cards(melds.get(i)));
        }
        return out.append(']').toString();
    }

    private void write(String line) {
        if (log != null) log.println(line);
    }

    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        ArrayList<Card> hand = new ArrayList<Card>();
        for (Card c : cards) hand.add(c);
        write("{\"type\":\"startGame\",\"player\":" + playerNum + ",\"starting\":" + startingPlayerNum
              + ",\"cards\":" + cards(hand) + "}");
        inner.startGame(playerNum, startingPlayerNum, cards);
    }

    public boolean willDrawFaceUpCard(Card card) {
        boolean draw = inner.willDrawFaceUpCard(card);
        write("{\"type\":\"willDrawFaceUpCard\",\"card\":" + card(card) + ",\"reply\":{\"draw\":"
              + draw + "}}");
        return draw;
    }

    public void reportDraw(int playerNum, Card drawnCard) {
        write("{\"type\":\"reportDraw\",\"player\":" + playerNum + ",\"card\":" + card(drawnCard) + "}");
        inner.reportDraw(playerNum, drawnCard);
    }

    public Card getDiscard() {
        Card discard = inner.getDiscard();
        write("{\"type\":\"getDiscard\",\"reply\":{\"card\":" + card(discard) + "}}");
        return discard;
    }

    public void reportDiscard(int playerNum, Card discardedCard) {
        write("{\"type\":\"reportDiscard\",\"player\":" + playerNum + ",\"card\":" + card(discardedCard)
              + "}");
        inner.reportDiscard(playerNum, discardedCard);
    }

    public ArrayList<ArrayList<Card>> getFinalMelds() {
        ArrayList<ArrayList<Card>> melds = inner.getFinalMelds();
        write("{\"type\":\"getFinalMelds\",\"reply\":{\"melds\":" + melds(melds) + "}}");
        return melds;
    }

    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        write("{\"type\":\"reportFinalMelds\",\"player\":" + playerNum + ",\"melds\":" + melds(melds)
              + "}");
        inner.reportFinalMelds(playerNum, melds);
    }

    public void reportScores(int[] scores) {
        write("{\"type\":\"reportScores\",\"scores\":[" + scores[0] + "," + scores[1] + "]}");
        inner.reportScores(scores);
    }

    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
        write("{\"type\":\"reportLayoff\",\"player\":" + playerNum + ",\"card\":" + card(layoffCard)
              + ",\"meld\":" + cards(opponentMeld) + "}");
        inner.reportLayoff(playerNum, layoffCard, opponentMeld);
    }

    public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
        write("{\"type\":\"reportFinalHand\",\"player\":" + playerNum + ",\"cards\":" + cards(hand) + "}");
        inner.reportFinalHand(playerNum, hand);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: DecisionLog PLAYER_CLASS FIRST_SEED SEEDS LOG|- [LOGGED_SEEDS]");
            System.exit(2);
        }
        Class<?> playerClass = Class.forName(args[0]);
        long firstSeed = Long.parseLong(args[1]);
        int seeds = Integer.parseInt(args[2]);
        PrintWriter log = args[3].equals("-") ? null : new PrintWriter(new FileWriter(args[3]));
        int logged = args.length > 4 ? Integer.parseInt(args[4]) : seeds;
        Field field = GinRummyGame.class.getDeclaredField("RANDOM");
        field.setAccessible(true);
        Random random = (Random) field.get(null);
        GinRummyGame.setPlayVerbose(false);
        int[] wins = new int[2];
        long start = System.currentTimeMillis();
        for (int i = 0; i < seeds; i++) {
            long seed = firstSeed + i;
            for (int seat = 0; seat < 2; seat++) {
                PrintWriter gameLog = i < logged ? log : null;
                GinRummyPlayer player = new DecisionLog(
                        (GinRummyPlayer) playerClass.getDeclaredConstructor().newInstance(), gameLog);
                GinRummyPlayer simple = new SimpleGinRummyPlayer();
                GinRummyGame game = seat == 0 ? new GinRummyGame(player, simple)
                                              : new GinRummyGame(simple, player);
                random.setSeed(seed);
                if (gameLog != null)
                    gameLog.println("{\"type\":\"game\",\"seed\":" + seed + ",\"seat\":" + seat + "}");
                int winner = game.play();
                if (gameLog != null) {
                    gameLog.println("{\"type\":\"result\",\"winner\":" + winner + "}");
                    gameLog.flush();
                }
                if (winner == seat) wins[seat]++;
            }
            if ((i + 1) % 50 == 0)
                System.err.printf("%d seeds, %d ms%n", i + 1, System.currentTimeMillis() - start);
        }
        if (log != null) log.close();
        System.out.printf("{\"player\":\"%s\",\"first_seed\":%d,\"seeds\":%d,\"games\":%d,"
                          + "\"wins_seat0\":%d,\"wins_seat1\":%d,\"wins\":%d,\"ms\":%d}%n",
                          args[0], firstSeed, seeds, 2 * seeds, wins[0], wins[1], wins[0] + wins[1],
                          System.currentTimeMillis() - start);
    }
}
