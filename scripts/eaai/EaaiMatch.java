package ginrummy;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A match between two GinRummyPlayer classes in your copy of the EAAI framework, in mirrored
 * pairs: pair k reseeds GinRummyGame's deck randomness with seed * 1000003 + k and plays one
 * game with player A in seat 0, then reseeds and plays the same deals with the seats swapped
 * (so each player also starts the first hand once per pair). One CSV row per game.
 *
 * Our code; the framework is used unchanged: the deck seed is set through reflection on
 * GinRummyGame's private static RANDOM, and the counts and times come from a decorator
 * around each player. scripts/eaai/match.py compiles this file (and AnalyzerPlayer.java)
 * against your framework, runs it and prints the summary; to run it by hand:
 *
 *   javac -d build -cp FRAMEWORK scripts/eaai/EaaiMatch.java analyzer/interop/java/AnalyzerPlayer.java
 *   java -cp build:FRAMEWORK ginrummy.EaaiMatch --a analyzer:expert --b ginrummy.SimpleGinRummyPlayer \
 *        --pairs 200 --seed 1 --out match.csv
 *
 * Players: a class name (a public no-argument constructor; tried as given, then in package
 * ginrummy), or analyzer:SPEC for an AnalyzerPlayer running `analyzer agent --policy SPEC
 * --rules RULES --seed AGENT_SEED` (SPEC is any player the analyzer CLI takes: expert,
 * basic, search,budget=64, ...). One instance per player plays every game of the match, so
 * an agent process starts once; it is closed at the end (or on an error).
 *
 * Options: --a, --b (players), --pairs N (default 100), --seed S (default 1), --out FILE
 * (CSV; "-" for stdout), --rules PRESET (the agents' rules, default eaai), --agent-seed K
 * (default 0), --agent "COMMAND" (the agent command before --policy, split on spaces; default
 * "analyzer agent") or --agent-arg ARG repeated (one argument each), --progress N (a line on
 * stderr every N games, 0: none).
 *
 * CSV columns (a = player A, b = player B; "seat" numbers are the framework's 0/1):
 * game, pair, deck_seed, a_seat, first_starter (a|b: who started the first hand), winner
 * (a|b), forfeit (a|b when that player's illegal play ended the game, else empty), score_a,
 * score_b, hands (hands dealt), cancelled (hands ended with two stock cards left), knocks_a,
 * knocks_b (hands the player knocked, gins included), gins_a, gins_b, undercuts_a,
 * undercuts_b (hands the player undercut the other's knock), ms_a, ms_b (wall time inside
 * the player's callbacks), questions_a, questions_b (willDrawFaceUpCard, getDiscard and
 * getFinalMelds calls answered), question_ms_a, question_ms_b (wall time in those calls),
 * max_question_ms_a, max_question_ms_b, cpu_ms_a, cpu_ms_b (CPU time in the player's
 * callbacks: the agent process's CPU for an AnalyzerPlayer, the calling thread's CPU for a
 * Java player; the first game of an agent includes its start-up).
 */
public class EaaiMatch {
    static final String[] COLUMNS = {"game", "pair", "deck_seed", "a_seat", "first_starter",
        "winner", "forfeit", "score_a", "score_b", "hands", "cancelled", "knocks_a", "knocks_b",
        "gins_a", "gins_b", "undercuts_a", "undercuts_b", "ms_a", "ms_b", "questions_a",
        "questions_b", "question_ms_a", "question_ms_b", "max_question_ms_a", "max_question_ms_b",
        "cpu_ms_a", "cpu_ms_b"};
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** One game's counts, by role (0 = player A, 1 = player B). */
    static final class Tally {
        int aSeat;
        int hands, cancelled;
        int firstStarter = -1;  // role
        final int[] knocks = new int[2], gins = new int[2], undercuts = new int[2];
        int[] lastScores = {0, 0};  // by seat
        int knockerSeat = -1;
        ArrayList<ArrayList<Card>> knockMelds;
        int knockerDeadwood = -1;

        Tally(int aSeat) {
            this.aSeat = aSeat;
        }

        int role(int seat) {
            return seat == aSeat ? 0 : 1;
        }
    }

    /** Passes every callback on to the player, timing it; player A's decorator also counts. */
    static final class Seat implements GinRummyPlayer {
        final GinRummyPlayer inner;
        final boolean counts;
        Tally tally;
        long nanos, questionNanos, maxQuestionNanos, threadCpuNanos;
        int questions;

        Seat(GinRummyPlayer inner, boolean counts) {
            this.inner = inner;
            this.counts = counts;
        }

        void reset(Tally tally) {
            this.tally = tally;
            nanos = questionNanos = maxQuestionNanos = threadCpuNanos = 0;
            questions = 0;
        }

        private long started, startedCpu;

        private void enter() {
            startedCpu = THREADS.getCurrentThreadCpuTime();
            started = System.nanoTime();
        }

        private void leave(boolean question) {
            long spent = System.nanoTime() - started;
            threadCpuNanos += THREADS.getCurrentThreadCpuTime() - startedCpu;
            nanos += spent;
            if (question) {
                questions++;
                questionNanos += spent;
                maxQuestionNanos = Math.max(maxQuestionNanos, spent);
            }
        }

        public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
            if (counts) {
                if (tally.hands == 0) tally.firstStarter = tally.role(startingPlayerNum);
                tally.hands++;
                tally.knockerSeat = -1;
                tally.knockMelds = null;
                tally.knockerDeadwood = -1;
            }
            enter();
            inner.startGame(playerNum, startingPlayerNum, cards);
            leave(false);
        }

        public boolean willDrawFaceUpCard(Card card) {
            enter();
            boolean answer = inner.willDrawFaceUpCard(card);
            leave(true);
            return answer;
        }

        public void reportDraw(int playerNum, Card drawnCard) {
            enter();
            inner.reportDraw(playerNum, drawnCard);
            leave(false);
        }

        public Card getDiscard() {
            enter();
            Card answer = inner.getDiscard();
            leave(true);
            return answer;
        }

        public void reportDiscard(int playerNum, Card discardedCard) {
            enter();
            inner.reportDiscard(playerNum, discardedCard);
            leave(false);
        }

        public ArrayList<ArrayList<Card>> getFinalMelds() {
            enter();
            ArrayList<ArrayList<Card>> answer = inner.getFinalMelds();
            leave(true);
            return answer;
        }

        public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
            if (counts && tally.knockerSeat < 0) {  // the knocker's melds come first
                tally.knockerSeat = playerNum;
                tally.knockMelds = new ArrayList<ArrayList<Card>>();
                for (ArrayList<Card> meld : melds) tally.knockMelds.add(new ArrayList<Card>(meld));
            }
            enter();
            inner.reportFinalMelds(playerNum, melds);
            leave(false);
        }

        public void reportScores(int[] scores) {
            if (counts) {
                int[] gained = {scores[0] - tally.lastScores[0], scores[1] - tally.lastScores[1]};
                int knocker = tally.knockerSeat;
                if (knocker < 0) {
                    tally.cancelled++;
                } else {
                    int knockerRole = tally.role(knocker);
                    tally.knocks[knockerRole]++;
                    if (gained[1 - knocker] > 0) tally.undercuts[1 - knockerRole]++;
                    else if (tally.knockerDeadwood == 0) tally.gins[knockerRole]++;
                }
                tally.lastScores = scores.clone();
            }
            enter();
            inner.reportScores(scores);
            leave(false);
        }

        public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
            enter();
            inner.reportLayoff(playerNum, layoffCard, opponentMeld);
            leave(false);
        }

        public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
            if (counts && playerNum == tally.knockerSeat && tally.knockMelds != null) {
                ArrayList<Card> left = new ArrayList<Card>(hand);
                for (ArrayList<Card> meld : tally.knockMelds) left.removeAll(meld);
                int deadwood = 0;
                for (Card c : left) deadwood += Math.min(c.rank + 1, 10);
                tally.knockerDeadwood = deadwood;
            }
            enter();
            inner.reportFinalHand(playerNum, hand);
            leave(false);
        }
    }

    // ------------------------------------------------------------------ players
    static GinRummyPlayer makePlayer(String spec, List<String> agent, String rules, int agentSeed)
            throws Exception {
        if (spec.startsWith("analyzer:")) {
            List<String> command = new ArrayList<String>(agent);
            command.addAll(Arrays.asList("--policy", spec.substring("analyzer:".length()),
                    "--rules", rules, "--seed", Integer.toString(agentSeed)));
            return new AnalyzerPlayer(command);
        }
        Class<?> cls;
        try {
            cls = Class.forName(spec);
        } catch (ClassNotFoundException e) {
            String pkg = GinRummyGame.class.getPackage() == null ? ""
                    : GinRummyGame.class.getPackage().getName();
            if (pkg.isEmpty() || spec.contains(".")) throw e;
            try {
                cls = Class.forName(pkg + "." + spec);
            } catch (ClassNotFoundException again) {
                throw new ClassNotFoundException(spec + " (nor " + pkg + "." + spec + ")");
            }
        }
        if (!GinRummyPlayer.class.isAssignableFrom(cls)) {
            throw new IllegalArgumentException(spec + " does not implement "
                    + GinRummyPlayer.class.getName());
        }
        return (GinRummyPlayer) cls.getDeclaredConstructor().newInstance();
    }

    static long agentCpu(GinRummyPlayer player) {
        return player instanceof AnalyzerPlayer ? ((AnalyzerPlayer) player).cpuNanos() : -1L;
    }

    static String ms(long nanos) {
        return String.format("%.3f", nanos / 1e6);
    }

    // ------------------------------------------------------------------ main
    public static void main(String[] args) throws Exception {
        try {
            run(args);
        } catch (ClassNotFoundException e) {
            System.err.println("Error: no player class " + e.getMessage()
                    + " on the class path (add its classes with --extra-classpath)");
            System.exit(2);
        } catch (IllegalArgumentException e) {
            System.err.println("Error: " + e.getMessage());
            System.exit(2);
        }
    }

    static void run(String[] args) throws Exception {
        String a = null, b = null, out = "-", rules = "eaai", agentText = null;
        List<String> agentArgs = new ArrayList<String>();
        int pairs = 100, agentSeed = 0, progress = 20;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            String key = args[i];
            if (i + 1 >= args.length) throw new IllegalArgumentException(key + " needs a value");
            String value = args[++i];
            switch (key) {
                case "--a": a = value; break;
                case "--b": b = value; break;
                case "--pairs": pairs = Integer.parseInt(value); break;
                case "--seed": seed = Long.parseLong(value); break;
                case "--out": out = value; break;
                case "--rules": rules = value; break;
                case "--agent-seed": agentSeed = Integer.parseInt(value); break;
                case "--agent": agentText = value; break;
                case "--agent-arg": agentArgs.add(value); break;
                case "--progress": progress = Integer.parseInt(value); break;
                default: throw new IllegalArgumentException("unknown option " + key);
            }
        }
        if (a == null || b == null) throw new IllegalArgumentException("give --a and --b players");
        if (pairs < 1) throw new IllegalArgumentException("--pairs must be 1 or more");
        List<String> agent = !agentArgs.isEmpty() ? agentArgs
                : Arrays.asList((agentText == null ? "analyzer agent" : agentText).trim().split("\\s+"));

        Field field = GinRummyGame.class.getDeclaredField("RANDOM");
        field.setAccessible(true);
        Random deckRandom = (Random) field.get(null);
        GinRummyGame.setPlayVerbose(false);

        GinRummyPlayer playerA = null, playerB = null;
        PrintWriter csv = out.equals("-")
                ? new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))
                : new PrintWriter(new OutputStreamWriter(new FileOutputStream(out), StandardCharsets.UTF_8));
        try {
            playerA = makePlayer(a, agent, rules, agentSeed);
            playerB = makePlayer(b, agent, rules, agentSeed);
            Seat seatA = new Seat(playerA, true), seatB = new Seat(playerB, false);
            csv.println(String.join(",", COLUMNS));
            long started = System.nanoTime();
            int game = 0;
            for (int pair = 0; pair < pairs; pair++) {
                long deckSeed = seed * 1000003L + pair;
                for (int aSeat = 0; aSeat < 2; aSeat++, game++) {
                    Tally tally = new Tally(aSeat);
                    seatA.reset(tally);
                    seatB.reset(tally);
                    long cpuA = agentCpu(playerA), cpuB = agentCpu(playerB);
                    deckRandom.setSeed(deckSeed);
                    GinRummyGame match = aSeat == 0 ? new GinRummyGame(seatA, seatB)
                            : new GinRummyGame(seatB, seatA);
                    int winnerSeat = match.play();
                    cpuA = playerA instanceof AnalyzerPlayer ? agentCpu(playerA) - cpuA : seatA.threadCpuNanos;
                    cpuB = playerB instanceof AnalyzerPlayer ? agentCpu(playerB) - cpuB : seatB.threadCpuNanos;
                    int winner = tally.role(winnerSeat);
                    boolean forfeit = Math.max(tally.lastScores[0], tally.lastScores[1])
                            < GinRummyUtil.GOAL_SCORE;
                    String[] row = {Integer.toString(game), Integer.toString(pair),
                        Long.toString(deckSeed), Integer.toString(aSeat),
                        tally.firstStarter == 0 ? "a" : "b", winner == 0 ? "a" : "b",
                        forfeit ? (winner == 0 ? "b" : "a") : "",
                        Integer.toString(tally.lastScores[aSeat]),
                        Integer.toString(tally.lastScores[1 - aSeat]),
                        Integer.toString(tally.hands), Integer.toString(tally.cancelled),
                        Integer.toString(tally.knocks[0]), Integer.toString(tally.knocks[1]),
                        Integer.toString(tally.gins[0]), Integer.toString(tally.gins[1]),
                        Integer.toString(tally.undercuts[0]), Integer.toString(tally.undercuts[1]),
                        ms(seatA.nanos), ms(seatB.nanos),
                        Integer.toString(seatA.questions), Integer.toString(seatB.questions),
                        ms(seatA.questionNanos), ms(seatB.questionNanos),
                        ms(seatA.maxQuestionNanos), ms(seatB.maxQuestionNanos),
                        cpuA < 0 ? "" : ms(cpuA), cpuB < 0 ? "" : ms(cpuB)};
                    csv.println(String.join(",", row));
                    csv.flush();
                    if (progress > 0 && (game + 1) % progress == 0) {
                        System.err.printf("%d/%d games, %.1f s%n", game + 1, 2 * pairs,
                                (System.nanoTime() - started) / 1e9);
                    }
                }
            }
        } finally {
            csv.flush();
            if (!out.equals("-")) csv.close();
            for (GinRummyPlayer player : new GinRummyPlayer[] {playerA, playerB}) {
                if (player instanceof AutoCloseable) {
                    try {
                        ((AutoCloseable) player).close();
                    } catch (Exception e) {
                        System.err.println("closing a player: " + e);
                    }
                }
            }
        }
    }
}
