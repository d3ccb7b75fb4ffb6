import numpy as np
import pytest

from analyzer.core import cards


def test_card_index_layout():
    assert cards.parse_card("Ac") == 0
    assert cards.parse_card("Kc") == 12
    assert cards.parse_card("Ad") == 13
    assert cards.parse_card("Ah") == 26
    assert cards.parse_card("Ks") == 51


@pytest.mark.parametrize(
    ("token", "index"),
    [
        ("As", 39),
        ("as", 39),
        ("AS", 39),
        ("10d", 22),
        ("Td", 22),
        ("td", 22),
        ("K♥", 38),
        ("2♣", 1),
        ("j♦", 23),
        ("Q♠", 50),
    ],
)
def test_parse_card_spellings(token, index):
    assert cards.parse_card(token) == index


def test_round_trip_every_card():
    for card in range(52):
        assert cards.parse_card(cards.format_card(card)) == card
        assert cards.parse_card(cards.format_card(card, symbols=True)) == card


def test_card_points():
    values = [cards.card_points(c) for c in range(13)]
    assert values == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert cards.CARD_POINTS.sum() == 4 * 85


def test_hand_separators_and_format():
    hand = cards.parse_hand("As,2h  Td, Kc")
    assert cards.format_hand(hand) == "Kc Td 2h As"
    assert cards.format_hand(hand, symbols=True) == "K♣ T♦ 2♥ A♠"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("As Xs", "'Xs'"),
        ("As 2x", "'2x'"),
        ("As 1s", "'1s'"),
        ("As 11s", "'11s'"),
        ("A", "'A'"),
        ("As 2s As", "duplicate card 'As'"),
    ],
)
def test_bad_notation_names_token(text, message):
    with pytest.raises(ValueError, match=message):
        cards.parse_hand(text)


def test_wrong_size():
    with pytest.raises(ValueError, match="wrong hand size: 2 cards, expected 10"):
        cards.parse_hand("As 2s", size=10)
    with pytest.raises(ValueError, match="expected 10 or 11"):
        cards.to_mask([1, 2, 3], size=(10, 11))


def test_masks_and_indices():
    assert cards.to_mask("As 2s 3s") == 0b111 << 39
    assert cards.to_mask([0, 51]) == 1 | 1 << 51
    assert cards.to_mask(np.int64(5)) == 5
    assert cards.to_indices("Kc Ac") == [0, 12]
    assert cards.mask_points(cards.to_mask("Kc Ac 7h")) == 18


@pytest.mark.parametrize("bad", [52, -1, 3.0, True])
def test_bad_index(bad):
    with pytest.raises(ValueError, match="bad card index"):
        cards.to_mask([bad])


def test_bad_mask_bits():
    with pytest.raises(ValueError, match="only bits 0-51"):
        cards.to_mask(1 << 52)
    with pytest.raises(ValueError, match="duplicate card '7c'"):
        cards.to_mask([6, 6])
