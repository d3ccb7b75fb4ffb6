package ginrummy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;

/**
 * A GinRummyPlayer that forwards every callback to an `analyzer agent` process (JSON lines on
 * its stdin/stdout; the protocol is documented in analyzer/interop/eaai.py).
 *
 * The command comes from the system property `analyzer.agent` (default
 * "analyzer agent --policy basic --rules eaai"), split on spaces. One process per player
 * object; it lives as long as the JVM (it ends when its stdin closes).
 */
public class AnalyzerPlayer implements GinRummyPlayer {
    private final Process process;
    private final Writer toAgent;
    private final BufferedReader fromAgent;

    public AnalyzerPlayer() {
        this(System.getProperty("analyzer.agent", "analyzer agent --policy basic --rules eaai"));
    }

    public AnalyzerPlayer(String command) {
        try {
            process = new ProcessBuilder(command.trim().split("\\s+"))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the analyzer agent: " + command, e);
        }
        toAgent = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        fromAgent = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    // ------------------------------------------------------------------ JSON helpers
    private static String quote(String text) {
        return "\"" + text + "\"";
    }

    private static String card(Card card) {
        return card == null ? "null" : quote(card.toString());
    }

    private static String cards(Iterable<Card> cards) {
        StringBuilder out = new StringBuilder("[");
        for (Card c : cards) {
            if (out.length() > 1) out.append(',');
            out.append(card(c));
        }
        return out.append(']').toString();
    }

    private static String melds(ArrayList<ArrayList<Card>> melds) {
        if (melds == null) return "null";
        StringBuilder out = new StringBuilder("[");
        for (ArrayList<Card> meld : melds) {
            if (out.length() > 1) out.append(',');
            out.append(cards(meld));
        }
        return out.append(']').toString();
    }

    /** Send a report (the JSON object's fields after "type"); reports get no reply. */
    private synchronized void tell(String type, String fields) {
        try {
            toAgent.write("{\"type\":" + quote(type) + (fields.isEmpty() ? "" : "," + fields) + "}\n");
        } catch (IOException e) {
            throw new IllegalStateException("lost the analyzer agent", e);
        }
    }

    /** Send a question and return its reply line. */
    private synchronized String ask(String type, String fields) {
        tell(type, fields);
        try {
            toAgent.flush();
            String reply = fromAgent.readLine();
            if (reply == null) throw new IllegalStateException("the analyzer agent exited");
            if (reply.contains("\"error\"")) throw new IllegalStateException("agent: " + reply);
            return reply;
        } catch (IOException e) {
            throw new IllegalStateException("lost the analyzer agent", e);
        }
    }

    /** The value of a reply's only field, e.g. {"card":"KD"} -> "KD" (quotes removed). */
    private static String value(String reply) {
        int colon = reply.indexOf(':');
        return reply.substring(colon + 1, reply.lastIndexOf('}')).replace("\"", "").trim();
    }

    private static ArrayList<ArrayList<Card>> parseMelds(String text) {
        if (text.equals("null")) return null;
        ArrayList<ArrayList<Card>> melds = new ArrayList<ArrayList<Card>>();
        String body = text.substring(1, text.length() - 1).trim();  // drop the outer [ ]
        if (body.isEmpty()) return melds;
        for (String meldText : body.split("\\]\\s*,\\s*\\[")) {
            ArrayList<Card> meld = new ArrayList<Card>();
            for (String name : meldText.replace("[", "").replace("]", "").split(",")) {
                Card card = Card.strCardMap.get(name.replace("\"", "").trim().toUpperCase());
                if (card == null) throw new IllegalStateException("agent sent a bad meld: " + text);
                meld.add(card);
            }
            melds.add(meld);
        }
        return melds;
    }

    // ------------------------------------------------------------------ GinRummyPlayer
    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        ArrayList<Card> hand = new ArrayList<Card>();
        for (Card c : cards) hand.add(c);
        tell("startGame", "\"player\":" + playerNum + ",\"starting\":" + startingPlayerNum
                + ",\"cards\":" + cards(hand));
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        return value(ask("willDrawFaceUpCard", "\"card\":" + card(card))).equals("true");
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        tell("reportDraw", "\"player\":" + playerNum + ",\"card\":" + card(drawnCard));
    }

    @Override
    public Card getDiscard() {
        return Card.strCardMap.get(value(ask("getDiscard", "")).toUpperCase());
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        tell("reportDiscard", "\"player\":" + playerNum + ",\"card\":" + card(discardedCard));
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        String reply = ask("getFinalMelds", "");
        return parseMelds(reply.substring(reply.indexOf(':') + 1, reply.lastIndexOf('}')).trim());
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        tell("reportFinalMelds", "\"player\":" + playerNum + ",\"melds\":" + melds(melds));
    }

    @Override
    public void reportScores(int[] scores) {
        tell("reportScores", "\"scores\":[" + scores[0] + "," + scores[1] + "]");
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
        tell("reportLayoff", "\"player\":" + playerNum + ",\"card\":" + card(layoffCard)
                + ",\"meld\":" + cards(opponentMeld));
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
        tell("reportFinalHand", "\"player\":" + playerNum + ",\"cards\":" + cards(hand));
    }
}
