"""What a player types about one table (sim/table_text.py): cards, a seat, the auction.

The pieces are read into card masks, seat numbers and an auction; a refusal names the
field it read (``hand``, ``seat``, ``auction``), never a command-line flag, and the
command line words the same refusal with its flags (``--auction``, ``HAND``).
"""

from __future__ import annotations

import pytest

from sim.cards import hand_mask
from sim.i18n import role, speaking
from sim.output import FieldError, UsageError
from sim.rules import SEATS, hand_roles, load_rules
from sim.table_text import read_auction, read_cards, read_seat


def test_the_auction_is_read_in_turn_and_refused_where_it_breaks_the_rules():
    rules = load_rules("classic")
    a = read_auction(rules, "100 pass 110", 3)
    assert a.bids == ((0, 100), (1, None), (2, 110)) and a.next_seat == 0 and a.high == 110
    assert a.text() == "forehand 100, middle pass, dealer 110" and a.highest() == [
        (0, 100),
        (2, 110),
    ]
    assert read_auction(rules, "100 pass 110 120", 3).next_seat == 2  # the middle is out
    assert read_auction(load_rules("two_players"), "100 120", 2).next_seat == 0
    for text, words in (
        ("105", "forehand's automatic 100 comes first"),
        ("100 103", "103 is not a bid after 100"),
        ("100 pass pass", "the auction is over"),
        ("100 pass pass 105", "the auction is over before '105'"),
        ("100 maybe", "a bid or 'pass'"),
    ):
        with pytest.raises(UsageError, match=words) as caught:
            read_auction(rules, text, 3)
        assert isinstance(caught.value, FieldError) and caught.value.field == "auction"
        assert str(caught.value).startswith("auction: "), caught.value


def test_a_whole_auction_names_its_declarer():
    rules = load_rules("classic")
    a = read_auction(rules, "100 110 pass pass", 3, over=True)
    assert (a.next_seat, a.high_seat, a.high) == (1, 1, 110)
    with pytest.raises(FieldError, match=r"^auction: '100 110' is not over"):
        read_auction(rules, "100 110", 3, over=True)


def test_cards_are_read_into_a_mask_and_refused_naming_the_field():
    hand = hand_mask("AH TH KH QH AS 9C JD")
    assert read_cards("hand", "AH TH KH QH AS 9C JD", 7) == hand
    assert read_cards("talon", "KS QS 9H", 3, hand) == hand_mask("KS QS 9H")
    for field, text, taken, message in (
        ("hand", "AH TH KH", 0, "hand: 7 cards needed, got 3 ('AH TH KH')"),
        ("talon", "KS QS AH", hand, "talon: AH already in the hand"),
        ("talon_shown", "KS QS XX", hand, "talon_shown: "),
    ):
        size = 7 if field == "hand" else 3
        with pytest.raises(FieldError) as caught:
            read_cards(field, text, size, taken)
        assert caught.value.field == field and str(caught.value).startswith(message)


def test_seats_are_read_by_name():
    assert hand_roles(3) == SEATS == ("forehand", "middle", "dealer")
    assert hand_roles(2) == ("forehand", "dealer")
    assert read_seat("dealer", hand_roles(2)) == 1
    with pytest.raises(FieldError) as caught:
        read_seat("middle", hand_roles(2))
    assert caught.value.field == "seat"
    assert str(caught.value) == "seat middle: one of forehand, dealer"
    with speaking("ru"), pytest.raises(FieldError) as caught:
        read_seat("rear", SEATS)
    assert "первая рука, вторая рука, сдающий" in str(caught.value)
    # the roles by the number of players: with four, the dealer sits out, the rear plays
    assert hand_roles(4) == ("forehand", "middle", "rear") and hand_roles(3) == SEATS
    four = read_auction(load_rules("four_players"), "100 pass", 3)
    assert four.names == hand_roles(4) and four.names[four.next_seat] == "rear"
    with speaking("pl"):
        assert read_seat(role("rear"), hand_roles(4)) == 2  # its name in the language


def test_a_refusal_names_its_fields_as_the_caller_names_them():
    error = FieldError(
        "talon_shown", "{field}: the talon is either yours ({field:talon}) or shown", n=1
    )
    assert str(error) == "talon_shown: the talon is either yours (talon) or shown"
    flags = error.worded(lambda field: "--" + field.replace("_", "-"))
    assert flags == "--talon-shown: the talon is either yours (--talon) or shown"
    # the culprit's own text is never read as a template
    odd = FieldError("auction", "{field}: a bid or 'pass', got {token}", token="'{x}'")
    assert str(odd) == "auction: a bid or 'pass', got '{x}'"


def test_the_command_line_words_the_fields_as_its_flags():
    from sim.cli.common import flag_of, flags_named

    assert flag_of("talon_shown") == "--talon-shown" and flag_of("hand", ("hand",)) == "HAND"
    with pytest.raises(UsageError) as caught, flags_named("hand"):
        raise FieldError("auction", "{field}: above what {field:hand} may bid")
    assert not isinstance(caught.value, FieldError)
    assert str(caught.value) == "--auction: above what HAND may bid"


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl"])
def test_every_seat_name_and_pass_the_commands_print_is_read_back(lang):
    # what a language prints (сдающий, первая рука, pas ...) the same commands read, in
    # whatever language they speak now; a word of no language is still refused
    from sim.i18n import catalogue, role

    rules = load_rules("classic")
    with speaking(lang):
        for k, name in enumerate(SEATS):
            for written in (role(name), role(name).upper(), f"  {role(name)} "):
                assert read_seat(written, SEATS) == k
        said = catalogue(lang).gettext("pass")
        assert said == role("pass")
        a = read_auction(rules, f"100 {said} 110 {said.capitalize()}", 3, over=True)
        assert a.bids == ((0, 100), (1, None), (2, 110), (0, None)) and a.high_seat == 2
    with speaking("en"):
        for other in ("ru", "uk", "pl"):  # English output, another language's words read
            dealer = catalogue(other).gettext("dealer")
            assert read_seat(dealer, SEATS) == 2
        with pytest.raises(FieldError, match="seat nobody: one of forehand, middle, dealer"):
            read_seat("nobody", SEATS)
        with pytest.raises(FieldError, match="a bid or 'pass'"):
            read_auction(rules, "100 пасс", 3)
