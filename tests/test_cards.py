import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.cards import (
    CARD_POINTS,
    MARRIAGE_MASK,
    Card,
    CardParseError,
    Rank,
    Suit,
    card_pretty,
    card_str,
    cards_of,
    hand_mask,
    mask_marriages,
    mask_of,
    mask_points,
    parse_card,
    parse_cards,
)


def test_card_ids_follow_suit_times_six_plus_rank():
    assert parse_card("9S") == 0
    assert parse_card("AS") == 5
    assert parse_card("9C") == 6
    assert parse_card("QH") == 3 * 6 + 2
    assert parse_card("AH") == 23
    assert Card(Suit.D, Rank.TEN).id == 2 * 6 + 4


def test_points_and_deck_total():
    assert [Card.from_str(c).points for c in "9H JH QH KH TH AH".split()] == [0, 2, 3, 4, 10, 11]
    assert int(CARD_POINTS.sum()) == 120
    for s in range(4):
        assert int(CARD_POINTS[6 * s : 6 * s + 6].sum()) == 30


@pytest.mark.parametrize(
    "text, ascii_",
    [("A♥", "AH"), ("10♦", "TD"), ("K♣", "KC"), ("Q♠", "QS"), ("9♥", "9H"), ("J♦", "JD")],
)
def test_both_notations_parse_to_the_same_card(text, ascii_):
    assert parse_card(text) == parse_card(ascii_) == parse_card(ascii_.lower())
    assert card_pretty(parse_card(ascii_)) == text
    assert card_str(parse_card(text)) == ascii_


def test_parse_is_case_insensitive_and_accepts_10_and_t():
    assert parse_card("td") == parse_card("10d") == parse_card("10♦") == parse_card(" Td ")


@pytest.mark.parametrize(
    "text",
    [
        "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦",  # Russian ranks with the symbols
        "Тч 10ч Кч Дч Тп 9т Вб",  # ... with the suits' letters
        "тч 10Ч кч дч тп 9х вб",  # lower case; Ukrainian х (хрести) for clubs
        "A♥ 10♥ K♥ D♥ A♠ 9♣ W♦",  # Polish dama and walet
        "ah th kh dh as 9c wd",
    ],
)
def test_the_players_own_notations_read_the_same_hand(text):
    assert parse_cards(text) == parse_cards("AH TH KH QH AS 9C JD")


def test_a_cyrillic_t_is_the_ace_as_a_rank_and_clubs_as_a_suit():
    assert card_str(parse_card("Тт")) == card_str(parse_card("ТТ")) == "AC"  # Cyrillic
    assert card_str(parse_card("TD")) == "TD"  # a Latin T is the ten
    assert card_str(parse_card("DD")) == "QD"  # Polish: a D rank is the dama, the queen


@pytest.mark.parametrize(
    "bad", ["", "1H", "11H", "AX", "A", "ZZ", "10", "AHH", "♥A", "8S", "ТЖ", "ЧТ", "ХП"]
)
def test_malformed_card_is_rejected_naming_it(bad):
    with pytest.raises(CardParseError) as exc:
        parse_card(bad)
    assert repr(bad) in str(exc.value)


def test_hand_parsing_rejects_duplicates_and_names_bad_card():
    assert parse_cards("AH TH, KS QS") == [23, 22, 3, 2]
    with pytest.raises(CardParseError, match="AH"):
        parse_cards("AH A♥")
    with pytest.raises(CardParseError, match="'XQ'"):
        parse_cards("AH XQ")


@given(st.integers(0, 23))
def test_round_trip_id_text_card(cid):
    c = Card.from_id(cid)
    assert int(c) == cid
    assert parse_card(str(c)) == cid
    assert parse_card(c.pretty()) == cid
    assert Card.from_str(card_str(cid)) == c


@given(st.sets(st.integers(0, 23), max_size=24))
def test_round_trip_ids_mask(ids):
    m = mask_of(ids)
    assert cards_of(m) == sorted(ids)
    assert mask_points(m) == sum(int(CARD_POINTS[c]) for c in ids)
    text = " ".join(card_str(c) for c in ids)
    assert hand_mask(text) == m


def test_marriage_masks():
    assert mask_marriages(hand_mask("KH QH KS")) == 0b1000
    assert mask_marriages(hand_mask("KS QS KC QC 9D")) == 0b0011
    assert all(bin(int(m)).count("1") == 2 for m in MARRIAGE_MASK)
    assert np.bitwise_or.reduce(MARRIAGE_MASK) == hand_mask("KS QS KC QC KD QD KH QH")


@given(st.integers(0, (1 << 62) - 1))
def test_compiled_popcount_counts_every_bit(mask):
    from sim.engine.bits import popcount

    assert popcount(mask) == bin(mask).count("1")
    assert popcount(mask & 0xFFFFFF) == bin(mask & 0xFFFFFF).count("1")


def test_seat_after_is_the_modulo_it_replaces():
    from sim.engine.bits import seat_after

    for n in (2, 3, 4):
        for seat in range(n):
            for k in range(n + 1):
                if seat + k < 2 * n:
                    assert seat_after(seat, k, n) == (seat + k) % n


def test_suit_of_is_the_division_it_replaces():
    from sim.engine.bits import suit_of

    assert [suit_of(c) for c in range(24)] == [c // 6 for c in range(24)]
