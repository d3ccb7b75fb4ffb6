package ginrummy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A GinRummyPlayer that forwards every callback to an `analyzer agent` process (JSON lines on
 * its stdin/stdout; the protocol is documented in analyzer/interop/eaai.py).
 *
 * The command comes from the system property `analyzer.agent` (default
 * "analyzer agent --policy basic --rules eaai"), split on spaces, or is given to the
 * constructor. One process per player object, started once: the same player (and process)
 * plays any number of hands and games, so the agent's start-up is paid once per player, not
 * per game. close() ends the process (it sends quit, waits, then destroys it); a player never
 * closed is ended by a shutdown hook when the JVM exits, and the agent also exits when its
 * stdin closes.
 */
public class AnalyzerPlayer implements GinRummyPlayer, AutoCloseable {
    private final Process process;
    private final Writer toAgent;
    private final BufferedReader fromAgent;
    private final Thread shutdownHook;
    private final String commandText;
    private boolean closed = false;

    public AnalyzerPlayer() {
        this(System.getProperty("analyzer.agent", "analyzer agent --policy basic --rules eaai"));
    }

    /** The agent's command line, split on spaces. */
    public AnalyzerPlayer(String command) {
        this(Arrays.asList(command.trim().split("\\s+")));
    }

    /** The agent's command, one argument per element (no splitting: paths may hold spaces). */
    public AnalyzerPlayer(List<String> command) {
        commandText = String.join(" ", command);
        try {
            process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the analyzer agent: " + commandText, e);
        }
        toAgent = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        fromAgent = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        final Process child = process;
        shutdownHook = new Thread(() -> child.destroy(), "analyzer-agent-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** The agent's CPU time so far in nanoseconds (user + system, as the OS reports it, in
     * clock ticks), or -1 when the OS does not tell. */
    public long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /** The agent's process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether the agent process is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * End the agent: send quit and close its stdin, wait up to five seconds for it to exit,
     * then destroy it (forcibly after two more seconds). Safe to call twice.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            toAgent.write("{\"type\":\"quit\"}\n");
            toAgent.close();
        } catch (IOException e) {
            // the agent is gone already
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(2, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs anyway and finds the process ended
        }
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
        if (closed) throw new IllegalStateException("this AnalyzerPlayer was closed");
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
            if (reply == null) throw new IllegalStateException(exitMessage());
            if (reply.contains("\"error\"")) throw new IllegalStateException("agent: " + reply);
            return reply;
        } catch (IOException e) {
            throw new IllegalStateException("lost the analyzer agent", e);
        }
    }

    private String exitMessage() {
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "the analyzer agent exited"
                + (process.isAlive() ? "" : " with status " + process.exitValue())
                + " (see its message above): " + commandText;
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
