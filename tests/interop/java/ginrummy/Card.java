package ginrummy;

import java.util.HashMap;

/** Stand-in (written for our tests) of the framework's Card: rank, suit, "TD"-style names. */
public class Card {
    public static final String[] rankNames = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"};
    public static final String[] suitNames = {"C", "H", "S", "D"};
    public static final Card[] allCards = new Card[52];
    public static final HashMap<String, Card> strCardMap = new HashMap<String, Card>();
    public final int rank;
    public final int suit;

    static {
        for (int suit = 0; suit < 4; suit++)
            for (int rank = 0; rank < 13; rank++) {
                Card c = new Card(rank, suit);
                allCards[suit * 13 + rank] = c;
                strCardMap.put(c.toString(), c);
            }
    }

    private Card(int rank, int suit) {
        this.rank = rank;
        this.suit = suit;
    }

    public int getId() {
        return suit * 13 + rank;
    }

    @Override
    public String toString() {
        return rankNames[rank] + suitNames[suit];
    }
}
