"""The deal notation refuses what cannot have happened (sim/reference/replay.py, show --check).

A deal read from the notation is replayed under its rules through the reference
engine: six deals that break a rule (a card not held, a revoke, a wrong trick winner,
a card played twice, a discard not held, a bid out of turn) are each refused with one
line naming the deal, the tag and the move; ``show --check`` lists every bad deal of a
file; a misplaced tag, scores that are not the deal's and the checks seldom met at
random are each refused by name. The mutation test changes traced deals of five
presets and of rules no preset has (a trump led, every trick beaten, no concession)
once at random (:data:`MUTATIONS`: the cards, the play, a winner or a leader, a
marriage, a bid, the declarer, a discard, the contract, the trump, the scores, and
tags misplaced: a concession with the play kept, a tag of the middle left out, the
play cut short with its scores kept) and decides each mutant's legality
independently (the reference driver's own :func:`play_deal`, every decision scripted
from the record, its trace compared): a mutant is refused exactly when it is illegal.
Under each option that limits the play, cards a seat played are swapped until one
swap is refused naming the option's rule.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest

from sim.cards import SUIT_LETTERS
from sim.engine.actions import DECLARE, Decision, ScriptError
from sim.engine.api import play_hands
from sim.notation import (
    DealRecord,
    NotationError,
    check_rules,
    format_deal,
    from_trace,
    parse_deals,
)
from sim.reference.choose import Chooser
from sim.reference.replay import check_replay
from sim.reference.state import Table
from sim.rules import Rules, load_rules, rules_from_dict

BASE = """\
[Rules "classic"]
[Dealer "0"]
[Deal "9S TS JC QC QD KD 9H / KS KC JD TD JH KH TH / QS AS TC AC 9D QH AH / JS 9C AD"]
"""
PLAYED = BASE + """\
[Auction "1:100 2:pass 0:pass"]
[Declarer "1"]
[Discards "2:9C 0:JS"]
[Contract "100"]
"""  # fmt: skip
GOOD = PLAYED + '[Play "1:AD 9D QD >1; 1:TD 9C KD >1; 1:JD QS 9S >1; 1:JH AH 9H >2"]\n'
CASES = {
    "not held": (
        PLAYED + '[Play "1:AD 9D 9C >1"]\n',
        "[Play] trick 1: dealer (seat 0) does not hold 9♣",
    ),
    "revoke": (
        PLAYED + '[Play "1:KC QS JC >1"]\n',
        "[Play] trick 1: middle (seat 2) holds 9♣ and must follow ♣",
    ),
    "wrong winner": (
        PLAYED + '[Play "1:JH AH 9H >2; 2:AC JC KC >0"]\n',
        "[Play] trick 2: middle (seat 2) wins the trick, not dealer (seat 0)",
    ),
    "played twice": (
        PLAYED + '[Play "1:JH AH 9H >2; 2:AH JC KC >2"]\n',
        "[Play] trick 2: A♥ was played already, in trick 1",
    ),
    "discard not held": (
        BASE + '[Auction "1:100 2:pass 0:pass"]\n[Declarer "1"]\n[Discards "2:9C 0:9S"]\n',
        "[Discards] discard 2: forehand (seat 1) does not hold 9♠",
    ),
    "out of turn": (
        BASE + '[Auction "2:100 0:pass 1:pass"]\n',
        "[Auction] bid 1: middle (seat 2) bids out of turn: it is the turn of forehand (seat 1)",
    ),
}
FULL = PLAYED + (
    '[Play "1:AD 9D QD >1; 1:TD 9C KD >1; 1:JD QS 9S >1; 1:JH AH 9H >2; 2:AS JS KS >2; '
    '2:AC JC KC >2; 2:TC QC KH >2; 2:QH TS TH >1"]\n'
)
AUCTION = BASE + '[Auction "1:100 2:pass 0:pass"]\n'
REDEALT = """\
[Rules "classic"]
[Dealer "0"]
[Deal "TS KC TC JD TD AD QH / QS KS AC QD KD JH KH / 9S AS 9C JC 9H TH AH / JS QC 9D"]
[Reshuffle "2 hand_nines"]
"""
# A tag the deal's course leaves no room for, or scores that are not the deal's: the
# text, and the refusal after "deal 1, "
MISPLACED = {
    "scores wrong": (
        FULL + '[Scores "0 -100 66"]\n',
        "[Scores]: the deal scores 0 -100 65, not 0 -100 66",
    ),
    "scores swapped": (
        FULL + '[Scores "0 65 -100"]\n',
        "[Scores]: the deal scores 0 -100 65, not 0 65 -100",
    ),
    "scores mid-play": (
        GOOD + '[Scores "0 -100 65"]\n',
        "[Scores]: recorded after a missing or incomplete [Play]",
    ),
    "scores before the play": (
        PLAYED + '[Scores "0 -100 65"]\n',
        "[Scores]: recorded after a missing or incomplete [Play]",
    ),
    "scores of a redeal": (
        REDEALT + '[Scores "0 0 0"]\n',
        "[Scores]: the deal was redealt: it ends there",
    ),
    "conceded and played": (
        FULL.replace("[Play", '[Conceded "yes"]\n[Play'),
        "[Play]: the declarer conceded: the deal ends there",
    ),
    "concession malformed": (
        PLAYED + '[Conceded "no"]\n',
        "[Conceded]: 'yes' (or no tag: the declarer did not concede), got 'no'",
    ),
    "talon pick of three": (
        PLAYED + '[TalonPick "0"]\n',
        "[TalonPick]: only two players take one of two talons",
    ),
    "discards, no declarer": (
        AUCTION + '[Discards "2:9C 0:JS"]\n',
        "[Discards]: recorded after a missing or incomplete [Declarer]",
    ),
    "contract, no discards": (
        AUCTION + '[Declarer "1"]\n[Contract "100"]\n',
        "[Contract]: recorded after a missing or incomplete [Discards]",
    ),
    "contract, one discard": (
        AUCTION + '[Declarer "1"]\n[Discards "2:9C"]\n[Contract "100"]\n',
        "[Contract]: recorded after a missing or incomplete [Discards]",
    ),
    "play, no contract": (
        FULL.replace('[Contract "100"]\n', ""),
        "[Play]: recorded after a missing or incomplete [Contract]",
    ),
    "winner missing mid-play": (
        PLAYED + '[Play "1:AD 9D QD; 1:TD 9C KD >1"]\n',
        "[Play] trick 1: a complete trick ends in >WINNER, the seat that won it",
    ),
    "last winner missing": (
        FULL.replace("TH >1", "TH"),
        "[Play] trick 8: a complete trick ends in >WINNER, the seat that won it",
    ),
    "winner of a trick cut short": (
        PLAYED + '[Play "1:AD 9D >1"]\n',
        "[Play] trick 1: a trick cut short has no winner yet",
    ),
}
# The replay's other checks that the mutation test reaches seldom or never (a dark
# deal, an undarkening, a redeal, a bid over the cap, a concession the rules forbid):
# the text, the refusal, the options of classic it is read under
RARE = {
    "dark deal bid on": (
        BASE + '[Special "dark"]\n[Auction "1:120 2:130"]\n',
        "[Auction] bid 2: the auction was over: middle (seat 2) 130",
        {},
    ),
    "bid over the cap": (
        BASE + '[Auction "1:100 2:110 0:120 1:125"]\n',
        "[Auction] bid 4: forehand (seat 1) cannot raise 120: it must pass",
        {},
    ),
    "bid off the step": (
        BASE + '[Auction "1:100 2:103"]\n',
        "[Auction] bid 2: middle (seat 2) cannot bid 103 over 100: allowed 105–120",
        {},
    ),
    "declarer of an auction not over": (
        BASE + '[Auction "1:100 2:pass"]\n[Declarer "1"]\n',
        "[Auction]: the auction is not over",
        {},
    ),
    "redeal without its reason": (
        REDEALT.replace("2 hand_nines", "1 hand_nines"),
        "[Reshuffle]: forehand (seat 1) cannot demand a redeal for hand_nines",
        {},
    ),
    "undarkened where nobody may": (
        BASE + '[Undarkened "1"]\n',
        "[Undarkened]: forehand (seat 1) cannot undarken",
        {},
    ),
    "concession forbidden": (
        PLAYED + '[Conceded "yes"]\n',
        "[Conceded]: forehand (seat 1) may not concede under these rules",
        {"rospis.allowed": False},
    ),
    # the bomb (rospis.when = "talon"): conceded before the discard, at the winning bid
    "bomb after a discard": (
        PLAYED + '[Conceded "yes"]\n',
        "[Discards]: the declarer conceded: the deal ends there",
        {"rospis.when": "talon"},
    ),
    "bomb above the winning bid": (
        AUCTION + '[Declarer "1"]\n[Contract "110"]\n[Conceded "yes"]\n',
        "[Contract]: forehand (seat 1) cannot name the contract 110: allowed 100",
        {"rospis.when": "talon"},
    ),
    "bomb's scores": (
        AUCTION + '[Declarer "1"]\n[Contract "100"]\n[Conceded "yes"]\n[Scores "0 -100 0"]\n',
        "[Scores]: the deal scores 50 -100 50, not 0 -100 0",
        {"rospis.when": "talon"},
    ),
}
WRONG_COUNT = BASE.replace("9H / KS", "9H JS / KS").replace("JS 9C AD", "9C AD")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_deal_that_cannot_have_happened_is_refused_naming_deal_tag_and_move(
    thousand, tmp_path, case
):
    text, words = CASES[case]
    path = tmp_path / "d.tdn"
    path.write_text(GOOD + "\n" + text, encoding="utf-8")
    shown = thousand("show", str(path))
    assert shown.returncode == 2 and shown.stdout == ""
    assert shown.stderr.count("\n") == 1 and f"deal 2, {words}" in shown.stderr, shown.stderr


def test_partial_deals_and_a_legal_play_are_accepted(thousand, tmp_path):
    path = tmp_path / "d.tdn"
    auction_only = BASE + '[Auction "1:100 2:110"]\n'
    scored = FULL + '[Scores "0 -100 65"]\n'
    conceded = PLAYED + '[Conceded "yes"]\n[Scores "50 -100 50"]\n'
    texts = [BASE, auction_only, PLAYED, GOOD, scored, conceded, REDEALT]
    path.write_text("\n".join(texts), encoding="utf-8")
    assert thousand("show", str(path)).returncode == 0


@pytest.mark.parametrize("case", sorted(MISPLACED) + sorted(RARE))
def test_a_misplaced_tag_the_wrong_scores_and_rare_moves_are_refused(case):
    """Scores must be the deal's (at the right seats) and only at its end; a tag may
    only stand where the deal's course has room for it (nothing after a concession or a
    redeal, nothing after a tag left out); a complete trick names its winner. And the
    checks the mutation test seldom reaches (:data:`RARE`)."""
    text, words, options = (*MISPLACED[case], {}) if case in MISPLACED else RARE[case]
    rules = rules_from_dict(options, "classic", load_rules("classic"))
    with pytest.raises(NotationError) as exc:
        (deal,) = parse_deals(text)
        check_rules(deal, rules, 1)
        check_replay(deal, rules, 1)
    assert str(exc.value) == f"deal 1, {words}"


def test_solve_refuses_a_deal_that_cannot_have_happened(thousand, tmp_path):
    path = tmp_path / "d.tdn"
    path.write_text(CASES["not held"][0], encoding="utf-8")
    solved = thousand("solve", "--deal-file", str(path))
    assert solved.returncode == 2 and "does not hold 9♣" in solved.stderr


def test_the_wrong_count_names_its_deal(thousand, tmp_path):
    path = tmp_path / "d.tdn"
    path.write_text(GOOD + "\n" + GOOD + "\n" + WRONG_COUNT, encoding="utf-8")
    shown = thousand("show", str(path))
    assert shown.returncode == 2
    assert "deal 3, [Deal]: seat 0 must hold 7 cards, holds 8" in shown.stderr


def test_show_check_lists_every_problem_of_a_file(thousand, tmp_path):
    bad = [text for text, _ in CASES.values()]
    path = tmp_path / "d.tdn"
    path.write_text("\n".join([GOOD, *bad, WRONG_COUNT, BASE + "[Colour]\n"]), encoding="utf-8")
    checked = thousand("show", str(path), "--check")
    assert checked.returncode == 2
    lines = checked.stdout.splitlines()
    assert [line.split(",")[0] for line in lines] == [f"deal {k}" for k in range(2, 10)]
    for line, (_, words) in zip(lines, CASES.values(), strict=False):
        assert words in line
    path.write_text(GOOD + "\n" + BASE, encoding="utf-8")
    fine = thousand("show", str(path), "--check")
    assert fine.returncode == 0 and fine.stdout == "2 deals, no problem\n"
    ru = thousand("show", str(path), "--check", "--lang", "ru")
    assert ru.stdout == "2 раздачи, ошибок нет\n"


# --- the mutation test --------------------------------------------------------------------

MUTATED_PRESETS = (
    "classic", "two_players", "four_players", "five_hundred_one", "ukraine_online", "polish",
    "polish_two",
)  # fmt: skip
# and rules no preset has: a trump led when held, every trick beaten, no concession
STRICT = {"play.must_lead_trump": True, "play.must_beat": True, "rospis.allowed": False}


def _mutated_rules() -> list[Rules]:
    """The rule sets whose traced deals the mutation test changes."""
    strict = rules_from_dict(STRICT, "strict", load_rules("classic"))
    return [*(load_rules(p) for p in MUTATED_PRESETS), strict]


class _Record(Chooser):
    """The oracle's chooser: every decision answered from the record, per seat in order."""

    def __init__(self, deal: DealRecord, table: Table) -> None:
        super().__init__(("first",) * deal.players, [], 0)
        self.bids: dict[int, list[Any]] = {}
        for s, b in deal.auction[1:]:  # forehand's 100 is automatic
            self.bids.setdefault(s, []).append(b)
        self.discards = [c for _, c in deal.discards]
        self.plays: dict[int, list[int]] = {}
        for t in deal.tricks:
            for k, c in enumerate(t.cards):
                seat = table.after(t.leader, k) if t.leader in table.active else -1
                code = c + DECLARE if k == 0 and t.marriage is not None else c
                self.plays.setdefault(seat, []).append(code)
        self.deal = deal

    def choose(self, kind: Decision, seat: int, legal: list[int], where: str = "") -> int:
        d = self.deal
        if kind == Decision.BID:
            said = self.bids.get(seat) or [0]
            code = said.pop(0) or 0  # a pass is code 0
        elif kind == Decision.DISCARD:
            code = self.discards.pop(0) if self.discards else -1
        elif kind == Decision.PLAY:
            mine = self.plays.get(seat)
            code = mine.pop(0) if mine else -1
        elif kind == Decision.CONTRACT:
            code = d.contract if d.contract is not None else -1
        elif kind == Decision.CONCEDE:
            code = int(d.conceded)
        elif kind == Decision.TALON_PICK:
            code = d.talon_pick if d.talon_pick is not None else -1
        elif kind == Decision.NAME_TRUMP:
            code = d.trump if d.trump is not None else -1
        else:
            code = 0  # no reshuffle, no dark deal in a hands run
        if code not in legal:
            raise ScriptError(f"{kind.name} {code} not legal")
        return code


KEYS = ("bids", "declarer", "discards", "contract", "conceded", "tricks", "score_deltas",
        "trump_named", "talon_pick")  # fmt: skip


def _legal(deal: DealRecord, rules: Any) -> bool:
    """Whether the reference driver plays exactly ``deal`` (the oracle, not the reader).

    The driver's whole :func:`~sim.reference.driver.play_deal` runs (its own bidding
    loop, talon, discard, tricks and scoring), every decision answered from the
    record; the deal is legal when no answer is refused and the trace is the record's.
    """
    from sim.reference import driver

    table = Table(deal.players, deal.dealer)
    t = list(deal.talon)
    n = deal.players
    w = driver.Deal(
        rules=rules, table=table, chooser=_Record(deal, table), hands=[list(h) for h in deal.hands],
        talons=[t] if n != 2 else [t[:2], t[2:]], attempt=0, may_redeal=False,
        game_scores=[0] * n, on_barrel=[False] * n, blocked=[False] * n, offer="none",
        gathered=None, trace={"reshuffle": None},
    )  # fmt: skip
    try:
        trace = driver.play_deal(w)
    except ScriptError:
        return False
    want = replace(deal, conceded=False).trace()  # the tricks too, were they conceded
    want["conceded"] = deal.conceded
    return all(trace.get(k) == want.get(k) for k in KEYS if k in want or k in trace)


MUTATIONS = (
    # the cards and the play
    "swap hands", "move card", "shift card", "winner", "no winner", "leader", "marriage",
    "cut play", "extra trick",
    # the auction and the tags around the play
    "bid", "extra bid", "declarer", "talon pick", "discard", "contract", "concede", "trump",
    "drop tag", "score", "swap scores",
)  # fmt: skip
"""Every kind of change the mutation test makes (:func:`_mutate`)."""


def _mutate(deal: DealRecord, rng: random.Random) -> tuple[str, DealRecord]:
    """One random change of a played deal, of a kind of :data:`MUTATIONS`."""
    kind = rng.choice(MUTATIONS)
    if kind in MUTATIONS[:9]:
        return kind, _mutate_play(deal, kind, rng)
    return kind, _mutate_tags(deal, kind, rng)


def _mutate_play(deal: DealRecord, kind: str, rng: random.Random) -> DealRecord:
    """The hands or the play changed.

    Two seats swap a card; two cards of the play swap places; a card moves to the
    trick before or after; a trick gets another winner, none, or another leader; a
    lead declares a marriage or no longer does; the play is cut short after any card
    (its scores kept); a trick is played after the last.
    """
    active = deal.hand_seats()
    tricks = list(deal.tricks)
    if kind == "swap hands":
        a, b = rng.sample(active, 2)
        ca, cb = rng.choice(deal.hands[a]), rng.choice(deal.hands[b])
        hands = list(deal.hands)
        hands[a] = tuple(sorted([*(c for c in hands[a] if c != ca), cb]))
        hands[b] = tuple(sorted([*(c for c in hands[b] if c != cb), ca]))
        return replace(deal, hands=tuple(hands))
    if kind == "move card":
        (i, j), (i2, j2) = [
            (t, rng.randrange(len(tricks[t].cards)))
            for t in (rng.randrange(len(tricks)), rng.randrange(len(tricks)))
        ]
        flat = [list(t.cards) for t in tricks]
        flat[i][j], flat[i2][j2] = flat[i2][j2], flat[i][j]
        tricks = [replace(t, cards=tuple(c)) for t, c in zip(tricks, flat, strict=True)]
    elif kind == "shift card" and len(tricks) > 1:  # a trick one card short, the next one over
        i = rng.randrange(len(tricks) - 1)
        a, b = tricks[i], tricks[i + 1]
        if rng.random() < 0.5:  # the last card of a trick follows in the next one
            tricks[i : i + 2] = [
                replace(a, cards=a.cards[:-1]),
                replace(b, cards=(*b.cards, a.cards[-1])),
            ]
        else:  # the next trick's lead follows in this one
            tricks[i : i + 2] = [
                replace(a, cards=(*a.cards, b.cards[0])),
                replace(b, cards=b.cards[1:]),
            ]
    elif kind == "winner":
        i = rng.randrange(len(tricks))
        others = [s for s in active if s != tricks[i].winner]
        tricks[i] = replace(tricks[i], winner=rng.choice(others))
    elif kind == "no winner":
        i = rng.randrange(len(tricks))
        tricks[i] = replace(tricks[i], winner=None)
    elif kind == "leader":
        i = rng.randrange(len(tricks))
        others = [s for s in active if s != tricks[i].leader]
        tricks[i] = replace(tricks[i], leader=rng.choice(others))
    elif kind == "marriage":
        i = rng.randrange(len(tricks))
        lead = tricks[i].cards[0]
        declared = None if tricks[i].marriage is not None else SUIT_LETTERS[lead // 6]
        tricks[i] = replace(tricks[i], marriage=declared)
    elif kind == "cut play":  # after any card but the last; a trick cut short has no winner
        cut = rng.randrange(1, sum(len(t.cards) for t in tricks))
        kept = []
        for t in tricks:
            if cut <= 0:
                break
            short = cut < len(t.cards)
            kept.append(replace(t, cards=t.cards[:cut], winner=None) if short else t)
            cut -= len(t.cards)
        tricks = kept
    elif kind == "extra trick":  # the last trick again, led by its winner
        last = tricks[-1]
        tricks.append(replace(last, leader=last.winner))
    return replace(deal, tricks=tuple(tricks))


def _mutate_tags(deal: DealRecord, kind: str, rng: random.Random) -> DealRecord:
    """The auction or a tag around the play changed.

    A bid changed (its amount or its seat); a pass after the last; another declarer;
    another talon taken (two players: or talon 2; three and four players: any); a
    discarded card or its recipient changed; another contract; a concession with the
    play kept; a trump named (or another one); a tag of the middle left out (the
    declarer, the talon taken, a discard or both, the contract, the trump); a score
    changed or two seats' scores swapped.
    """
    active = deal.hand_seats()
    if kind == "bid":
        bids = list(deal.auction)
        i = rng.randrange(len(bids))
        seat, bid = bids[i]
        if rng.random() < 0.3:
            bids[i] = (rng.choice([s for s in active if s != seat]), bid)
        else:
            step = 5 if rng.random() < 0.5 else 10
            options = [None, (bid or 100) + step, (bid or 100) - step, (bid or 100) + 2 * step]
            bids[i] = (seat, rng.choice([o for o in options if o != bid]))
        return replace(deal, auction=tuple(bids))
    if kind == "extra bid":
        last = deal.auction[-1][0]
        after = active[(active.index(last) + 1) % len(active)]
        return replace(deal, auction=(*deal.auction, (after, None)))
    if kind == "declarer":
        assert deal.declarer is not None
        return replace(deal, declarer=rng.choice([s for s in active if s != deal.declarer]))
    if kind == "talon pick":
        picks = [1 - (deal.talon_pick or 0), 2] if deal.players == 2 else [0, 1]
        return replace(deal, talon_pick=rng.choice(picks))
    if kind == "discard":
        gives = list(deal.discards)
        i = rng.randrange(len(gives))
        to, card = gives[i]
        if rng.random() < 0.3:
            gives[i] = (rng.choice([s for s in range(deal.players) if s != to]), card)
        else:
            gives[i] = (to, rng.choice([c for c in range(24) if c != card]))
        return replace(deal, discards=tuple(gives))
    if kind == "contract":
        assert deal.contract is not None
        options = [deal.contract + d for d in (-10, -5, 5, 10, 20)]
        return replace(deal, contract=rng.choice(options))
    if kind == "concede":
        return replace(deal, conceded=True)
    if kind == "trump":
        return replace(deal, trump=rng.choice([s for s in range(4) if s != deal.trump]))
    if kind in ("score", "swap scores"):
        assert deal.scores is not None
        scores = list(deal.scores)
        if kind == "score":
            scores[rng.randrange(len(scores))] += rng.choice((-10, -5, 5, 10, 999))
        else:  # two seats that scored differently, where there are
            pairs = [(a, b) for a in range(len(scores)) for b in range(a) if scores[a] != scores[b]]
            a, b = rng.choice(pairs or [(0, 1)])
            scores[a], scores[b] = scores[b], scores[a]
        return replace(deal, scores=tuple(scores))
    gone: list[dict[str, Any]] = [
        {"declarer": None}, {"discards": ()}, {"discards": deal.discards[:-1]}, {"contract": None}
    ]  # fmt: skip
    if deal.talon_pick is not None:
        gone.append({"talon_pick": None})
    if deal.trump is not None:
        gone.append({"trump": None})
    return replace(deal, **rng.choice(gone))


PLAY_RULES = {
    "must lead a trump": {"play.must_lead_trump": True},
    "must beat the trick": {"play.must_beat": True},
    "may not play": {"play.no_lead_foreign_trump": True},  # the refusal without a reason
}
"""The options that limit the play, by the words of the refusal of a card they forbid."""


@pytest.mark.parametrize("words", sorted(PLAY_RULES))
def test_each_option_of_the_play_is_checked_and_named(words):
    """Under each option that limits the play (:data:`PLAY_RULES`), two cards a seat
    played swapped (a lead or a follow out of its order) are refused exactly when
    illegal, and some swap is refused naming the option's rule: the mutation test's
    random changes seldom break these options."""
    rules = rules_from_dict(PLAY_RULES[words], "house", load_rules("classic"))
    traces = play_hands(rules, 60, 5, ("strong",), trace=True).traces()
    deals = [from_trace(t, "house", rules.rules_hash) for t in traces]
    for deal in (d for d in deals if d.tricks and d.reshuffle is None):
        table = Table(deal.players, deal.dealer)
        plays: dict[int, list[tuple[int, int]]] = {}  # by seat: (trick, place in it)
        for i, t in enumerate(deal.tricks):
            for k in range(len(t.cards)):
                plays.setdefault(table.after(t.leader, k), []).append((i, k))
        for (i, k), (i2, k2) in (p for at in plays.values() for p in combinations(at, 2)):
            flat = [list(t.cards) for t in deal.tricks]
            flat[i][k], flat[i2][k2] = flat[i2][k2], flat[i][k]
            tricks = tuple(
                replace(t, cards=tuple(c)) for t, c in zip(deal.tricks, flat, strict=True)
            )
            mutant = replace(deal, tricks=tricks)
            try:
                check_replay(mutant, rules, 1)
            except NotationError as exc:
                assert not _legal(mutant, rules), exc
                if words in str(exc):
                    return
            else:
                assert _legal(mutant, rules)
    pytest.fail(f"no swap was refused with {words!r}")


def _mutation_run(per_preset: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    figures = {"mutations": 0, "illegal": 0, "refused": 0, "legal": 0, "accepted": 0}
    figures |= {kind: 0 for kind in MUTATIONS}
    for rules in _mutated_rules():
        preset = rules.name
        traces = play_hands(rules, per_preset * 2, seed, ("strong",), trace=True).traces()
        deals = [from_trace(t, preset, rules.rules_hash) for t in traces]
        played = [d for d in deals if d.tricks and d.reshuffle is None][:per_preset]
        assert len(played) == per_preset, preset
        for deal in played:
            assert _legal(deal, rules), preset  # the oracle plays every traced deal
            kind, mutant = _mutate(deal, rng)
            text = format_deal(mutant)
            legal = _legal(mutant, rules)
            try:
                (read,) = parse_deals(text)
                check_rules(read, rules, 1)
                check_replay(read, rules, 1)
                accepted = True
            except NotationError as exc:
                accepted = False
                assert str(exc).count("\n") == 0 and str(exc).startswith("deal 1, [")
            assert accepted == legal, (preset, kind, legal, text)
            figures["mutations"] += 1
            figures[kind] += 1
            figures["illegal" if not legal else "legal"] += 1
            figures["refused" if not accepted else "accepted"] += 1
    assert figures["illegal"] > figures["mutations"] // 2  # most mutations break a rule
    assert all(figures[kind] for kind in MUTATIONS), figures  # every kind was tried
    return figures


def test_mutated_traced_deals_are_refused_exactly_when_illegal():
    figures = _mutation_run(25, 7)
    assert figures["mutations"] == 25 * len(_mutated_rules())


@pytest.mark.slow
def test_mutated_traced_deals_are_refused_exactly_when_illegal_full_size():
    figures = _mutation_run(200, 8)
    assert figures["mutations"] == 200 * len(_mutated_rules())
