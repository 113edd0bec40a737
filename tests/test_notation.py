"""The deal notation (sim/notation.py), ``thousand show`` and the ``--deal-file`` readers.

Every traced deal of every player count converts to the notation and back unchanged
(the trace's own keys compared); a deal that cannot be read is one line naming the
deal and the tag; ``show``, ``solve --deal-file`` and ``advise --deal-file`` read the
same deal as the commands that take the cards directly.
"""

from __future__ import annotations

import json

import pytest

from sim.cards import parse_card
from sim.engine.api import play_hands
from sim.notation import (
    DealRecord,
    NotationError,
    Trick,
    check_rules,
    format_deal,
    from_trace,
    parse_deals,
)
from sim.reference.replay import check_replay
from sim.rules import load_rules

PRESETS = (
    "classic", "two_players", "four_players", "five_hundred_one", "ukraine_online", "polish_two",
)  # fmt: skip
DEAL = """\
[Rules "classic"]
[Dealer "0"]
[Deal "AH TH KH QH AS 9C JD / KS QS JS TS 9S AC KC / AD KD QD TD 9D QC JH / JC TC 9H"]
"""


@pytest.mark.parametrize("preset", PRESETS)
def test_every_traced_deal_converts_to_the_notation_and_back(preset):
    rules = load_rules(preset)
    traces = play_hands(rules, 400, 11, ("strong",), trace=True).traces()
    text = "\n".join(format_deal(from_trace(t, preset, rules.rules_hash)) for t in traces)
    deals = parse_deals(text)
    assert len(deals) == len(traces) >= 400  # redeals are deals of their own (polish: none)
    played = 0
    for trace, deal in zip(traces, deals, strict=True):
        check_rules(deal, rules)
        check_replay(deal, rules)  # the replay agrees with the engine on every traced deal
        assert deal == from_trace(trace, preset, rules.rules_hash)
        for key, value in deal.trace().items():
            assert trace[key] == value, key
        played += bool(deal.tricks)
    assert played >= 300  # most deals were played out: the tricks went through too


def test_a_bomb_is_written_read_and_replayed():
    """A bomb (``rospis.when = "talon"``): a conceded deal without discards whose
    contract is the winning bid; written, read back and replayed like any deal."""
    rules = load_rules("polish")
    traces = play_hands(rules, 300, 5, ("random",), trace=True).traces()
    bombs = [t for t in traces if t.get("conceded")]
    assert len(bombs) > 30  # the random player bombs half the deals it may
    for trace in traces:
        deal = from_trace(trace, "polish", rules.rules_hash)
        text = format_deal(deal)
        (read,) = parse_deals(text)
        check_rules(read, rules)
        check_replay(read, rules)
        assert read == deal
        if trace.get("conceded"):
            assert "[Discards" not in text and '[Conceded "yes"]' in text
            assert f'[Contract "{trace["winning_bid"]}"]' in text
            assert read.trace()["discards"] == [] == trace["discards"]
    text = DEAL.replace("classic", "polish") + (
        '[Auction "1:100 2:pass 0:pass"]\n[Declarer "1"]\n[Contract "100"]\n'
        '[Conceded "yes"]\n[Scores "60 0 60"]\n'
    )
    (deal,) = parse_deals(text)
    check_replay(deal, rules)
    with pytest.raises(NotationError, match=r"\[Scores\]: the deal scores 60 0 60"):
        check_replay(parse_deals(text.replace("60 0 60", "60 -100 60"))[0], rules)


POLISH_TWO = """\
[Rules "polish_two"]
[Dealer "1"]
[Deal "AS TS KS QS JS 9S AC TC KC QC / JC 9C AD TD KD QD JD 9D AH TH / KH QH 9H JH"]
[Auction "0:100 1:pass"]
[Declarer "0"]
[TalonPick "0"]
[Discards "0:TS 0:AS"]
[Contract "100"]
"""


def test_a_deal_laying_two_cards_away_is_written_read_and_replayed():
    """docs/cli.md: with ``talon.two_players = "discard"`` the two cards laid away are
    ``Discards`` to the declarer itself; 10 tricks; the replay checks both."""
    from sim.engine import play_hand_text

    rules = load_rules("polish_two")
    (deal,) = parse_deals(POLISH_TWO)
    assert deal.talon_pick == 0 and deal.discards == ((0, parse_card("TS")), (0, parse_card("AS")))
    check_replay(deal, rules)  # a deal cut short after the contract
    hands = ["AS TS KS QS JS 9S AC TC KC QC", "JC 9C AD TD KD QD JD 9D AH TH"]
    script = ["pass", 0, "play", "TS", "AS", 100]  # "play": no bomb
    trace = play_hand_text(rules, hands, "KH QH 9H JH", 1, script=script,
                           strategies=("heuristic", "heuristic"))  # fmt: skip
    full = from_trace(trace, "polish_two", rules.rules_hash)
    text = format_deal(full)
    assert '[TalonPick "0"]' in text and '[Discards "0:TS 0:AS"]' in text
    assert text.count(">") == 10  # ten tricks
    (back,) = parse_deals(text)
    assert back == full
    check_replay(back, rules)
    from sim.jobs.show import deal_text

    assert "takes talon 1, lays away 10♠ and A♠; contract 100." in deal_text(deal, rules)
    # a card laid away is the declarer's own: "given" to the other seat it is refused
    with pytest.raises(NotationError, match="Discards"):
        check_replay(parse_deals(POLISH_TWO.replace("0:TS 0:AS", "1:TS 0:AS"))[0], rules)


def test_marriages_the_ace_marriage_and_a_named_trump_are_written_and_read():
    deal = DealRecord(
        "ukraine_online", 0, ((0, 1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12, 13),
                              (14, 15, 16, 17, 18, 19, 20)), (21, 22, 23),
        declarer=1, contract=120, trump=3,
        tricks=(Trick(1, (8, 0, 14), "C", 1), Trick(1, (11, 1, 15), "A", 2)),
    )  # fmt: skip
    text = format_deal(deal)
    assert '[Play "1:QC* 9S QD >1; 1:AC*A JS KD >2"]' in text and '[Trump "H"]' in text
    assert parse_deals(text) == [deal]


def test_the_players_notations_and_comments_are_read():
    text = "; a deal from the kitchen table\n" + DEAL.replace(
        "AH TH KH QH AS 9C JD", "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦"
    )
    assert parse_deals(text) == parse_deals(DEAL)
    assert parse_deals(DEAL + "\n\n" + DEAL) == parse_deals(DEAL) * 2
    # a pass as any of the languages writes it (what show prints in them)
    english = parse_deals(DEAL + '[Auction "1:100 2:pass 0:pass"]\n')
    for said in ("1:100 2:пас 0:pas", "1:100 2:PASS 0:Пас"):
        assert parse_deals(DEAL + f'[Auction "{said}"]\n') == english


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[Rules "classic"]\n[Dealer "0"]\n', "deal 1: the tag 'Deal' is missing"),
        (DEAL + '[Colour "red"]\n', "unknown tag 'Colour'"),
        (DEAL + '[Dealer "1"]\n', "tag 'Dealer' given twice"),
        (DEAL.replace("JC TC 9H", "JC TC AH"), "missing ['9H'], twice ['AH']"),
        (DEAL.replace("JC TC 9H", "JC TC XX"), "malformed card 'XX'"),
        (DEAL.replace('"0"', '"5"'), "[Dealer]: a seat 0..2, got 5"),
        (DEAL + '[Auction "1:100 2:maybe"]\n', "[Auction]: a bid or 'pass', got 'maybe'"),
        (DEAL + '[Play "1:AD KD >x"]\n', "'>WINNER' needs a seat"),
        (DEAL + '[Play "AD KD QD >1"]\n', "[Play]: LEADER: and the cards needed, got 'AD KD QD"),
        (DEAL + '[Play "1:AD KD QD >1; 1: >1"]\n', "[Play]: a trick without cards: '1: >1'"),
        (DEAL + '[Play "1:AD KD XD"]\n', "[Play]: malformed card 'XD'"),
        (DEAL + '[Discards "9C"]\n', "[Discards]: SEAT:VALUE needed, got '9C'"),
        (DEAL + '[Contract "lots"]\n', "[Contract]: a number is needed, got 'lots'"),
        (DEAL + '[Trump "X"]\n', "[Trump]: a suit letter S, C, D or H, got 'X'"),
        (DEAL + '[Scores "0 -100 x"]\n', "[Scores]: a number per seat, got '0 -100 x'"),
        (DEAL + '[Reshuffle "2"]\n', "[Reshuffle]: 'SEAT REASON' needed, got '2'"),
        (DEAL + '[Conceded "no"]\n', "[Conceded]: 'yes' (or no tag: the declarer did not"),
        (
            DEAL.replace(" / AD", " AD").replace(" / JC", " JC"),
            "[Deal]: every seat's cards, then the talon",
        ),
        (DEAL + "Rules classic\n", 'not a [Tag "value"] pair'),
        ("", "no deal found"),
    ],
)
def test_a_deal_that_cannot_be_read_is_named(text, words):
    with pytest.raises(NotationError) as exc:
        parse_deals(text)
    assert words in str(exc.value)


def test_a_deal_must_fit_its_rules():
    (deal,) = parse_deals(
        DEAL.replace('[Dealer "0"]', '[RulesHash "0000000000000000"]\n[Dealer "0"]')
    )
    with pytest.raises(NotationError, match="dealt under rules 0000000000000000"):
        check_rules(deal, load_rules("classic"))
    with pytest.raises(NotationError, match="4 seats under four_players"):
        check_rules(parse_deals(DEAL)[0], load_rules("four_players"))


def test_show_lays_a_deal_out_and_writes_the_notation(thousand, tmp_path):
    path = tmp_path / "d.tdn"
    path.write_text(DEAL, encoding="utf-8")
    shown = thousand("show", str(path))
    assert shown.returncode == 0
    lines = shown.stdout.splitlines()
    assert lines[1].split() == [
        "forehand",
        "(seat",
        "1)",
        "♠",
        "10",
        "K",
        "Q",
        "J",
        "9",
        "♣",
        "A",
        "K",
    ]
    assert lines[3].startswith("  dealer (seat 0)") and lines[4].split()[1:] == ["J♣", "10♣", "9♥"]
    again = thousand("show", str(path), "--tdn")
    assert parse_deals(again.stdout) == parse_deals(DEAL)
    bad = thousand("show", str(tmp_path / "none.tdn"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_a_traced_deal_reads_the_same_in_solve_show_and_advise(thousand, tmp_path):
    run = tmp_path / "run"
    trace = tmp_path / "t.jsonl"
    made = thousand("hands", "--deals", "30", "--seed", "4", "--out", str(run),
                    "--trace", str(trace), "--workers", "1", "--quiet")  # fmt: skip
    assert made.returncode == 0
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    played = next(t for t in lines if t["reshuffle"] is None and t["declarer"] is not None)
    n = str(played["deal_id"])
    by_run = thousand("solve", "--run", str(run), "--deal", n, "--json")
    by_trace = thousand("solve", "--deal-file", str(trace), "--deal", n, "--json")
    tdn = tmp_path / "d.tdn"
    tdn.write_text(thousand("show", str(trace), "--deal", n, "--tdn").stdout, encoding="utf-8")
    by_file = thousand("solve", "--deal-file", str(tdn), "--json")
    assert by_run.returncode == by_trace.returncode == by_file.returncode == 0
    assert json.loads(by_run.stdout) == json.loads(by_trace.stdout) == json.loads(by_file.stdout)
    assert "played" in json.loads(by_file.stdout)
    # the advisor takes the forehand's hand of the deal as if it had been typed in
    hand = " ".join(played["hands"][(played["dealer"] + 1) % 3])
    typed = thousand("advise", hand, "--samples", "100", "--json")
    filed = thousand("advise", "--deal-file", str(tdn), "--samples", "100", "--json")
    assert json.loads(typed.stdout) == json.loads(filed.stdout)
    both = thousand("advise", hand, "--deal-file", str(tdn))
    assert both.returncode == 2 and "not both" in both.stderr
    several = thousand("solve", "--deal-file", str(trace))
    assert several.returncode == 2 and "name one with --deal" in several.stderr
    # show and solve name the declarer, every seat of the tricks and of the discard
    # by the same role words (in every language), and solve's JSON carries the role
    for lang in ("en", "ru"):
        shown = thousand("show", str(tdn), "--lang", lang).stdout
        solved = thousand("solve", "--deal-file", str(tdn), "--lang", lang).stdout
        declares = next(
            line
            for line in shown.splitlines()
            if line.count(":") == 1 and line.endswith(f"{played['contract']}.") and "(" not in line
        )
        who = declares.split(" ")[0].lower()  # the role's first word: forehand, вторая ...
        head = solved.splitlines()[0]
        assert head.split(": ")[1].startswith(who), (declares, head)
    doc = json.loads(by_file.stdout)
    dealer = played["dealer"]
    roles = {(dealer + 1) % 3: "forehand", (dealer + 2) % 3: "middle", dealer: "dealer"}
    assert doc["declarer_role"] == roles[played["declarer"]]
    assert {step["role"] for step in doc["line"]} == {"forehand", "middle", "dealer"}
