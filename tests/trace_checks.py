"""One checker for the trace of a dealt deal: an independent reading of the rules.

The reference engine's traces (test_reference.py) and the fast engine's (test_engine.py,
test_cut.py) go through the same :func:`check_deal`: the cards are accounted for, bids
and follows are legal, trick winners, points, deltas, ``made`` and bolts agree with the
tricks. Game traces (test_reference_game.py) are made of such deals and checked game by
game against the reference loop.
"""

from __future__ import annotations

from typing import Any

from sim import reference as ref
from sim.cards import RANK_POINTS, SUIT_LETTERS, parse_card
from sim.engine.actions import MAX_REDEALS, REDEAL_STRIDE
from sim.engine.deal import ritual_on
from sim.engine.reshuffle import HAND_REASONS, TALON_REASONS
from sim.rules import Rules

ACE_VALUE = 200


def suit(c: int) -> int:
    return c // 6


def rank(c: int) -> int:
    return c % 6


def pts(cs) -> int:
    return sum(RANK_POINTS[rank(c)] for c in cs)


def marriages(rules: Rules, cs) -> int:
    held = set(cs)
    return sum(v for s, v in enumerate(rules.marriage_values) if {6 * s + 2, 6 * s + 3} <= held)


def rounded(rules: Rules, x: int) -> int:
    return (x + 5) // 10 * 10 if rules.score.round_to == 10 else (x + 2) // 5 * 5


def ids(cards: list[str]) -> list[int]:
    return [parse_card(c) for c in cards]


def check_bids(rules: Rules, tr: dict[str, Any], hands: list[list[int]]) -> None:
    forehand = (tr["dealer"] + 1) % 3
    bids = tr["bids"]
    assert bids[0] == [forehand, 100]
    step = rules.bid.step
    bid, high, passed, seat = 100, forehand, set(), forehand
    for who, what in bids[1:]:
        seat = (seat + 1) % 3
        while seat in passed:
            seat = (seat + 1) % 3
        assert who == seat, "bids go clockwise, skipping passed players"
        if what == "pass":
            passed.add(who)
            continue
        assert what > bid and what % step == 0
        if not rules.bid.jumps:
            assert what == bid + step
        if rules.bid.cap_by_marriages:
            assert what <= 120 + marriages(rules, hands[who])
        bid, high = what, who
    assert len(passed) == 2 and high not in passed
    assert (tr["declarer"], tr["winning_bid"]) == (high, bid)


def beats(c: int, best: int, trump: int) -> bool:
    return rank(c) > rank(best) if suit(c) == suit(best) else suit(c) == trump


def check_play(rules: Rules, tr: dict[str, Any], held: list[set[int]]) -> list[list[int]]:
    """Replay the tricks: legality of leads and follows, trump, winners; captured cards."""
    m = rules.marriage
    decl = tr["declarer"]
    named = tr["trump_named"]
    trump = SUIT_LETTERS.index(named) if named else -1
    setter = decl if named else -1
    captured: list[list[int]] = [[], [], []]
    leader = decl
    first_pending = -1  # a trump pending from a next_trick declaration
    assert len(tr["tricks"]) == 8
    for t, trick in enumerate(tr["tricks"]):
        assert trick["leader"] == leader
        cs = ids(trick["cards"])
        lead = cs[0]
        hand = held[leader]
        assert lead in hand
        letter = trick["marriage"]
        pending = -1
        if letter is None:
            if rules.play.must_lead_trump and trump >= 0 and any(suit(c) == trump for c in hand):
                assert suit(lead) == trump
            elif (
                rules.play.no_lead_foreign_trump
                and trump >= 0
                and setter != leader
                and any(suit(c) != trump for c in hand)
            ):
                assert suit(lead) != trump
        else:
            assert t > 0 or m.first_lead
            if letter == "A":
                assert m.ace and rank(lead) == 5 and sum(rank(c) == 5 for c in hand) == 4
                sets = m.ace_sets_trump
            else:
                s = SUIT_LETTERS.index(letter)
                assert suit(lead) == s and rank(lead) in (2, 3) and {6 * s + 2, 6 * s + 3} <= hand
                sets = True
            # with changes_trump off only the deal's first trump (none set or pending)
            if sets and (m.changes_trump or (trump < 0 and first_pending < 0)):
                if m.trump_from == "this_trick":
                    trump = suit(lead)
                else:
                    pending = first_pending = suit(lead)
                setter = leader
        hand.discard(lead)
        best, winner = lead, leader
        for k, c in enumerate(cs[1:], start=1):
            seat = (leader + k) % 3
            hand = held[seat]
            assert c in hand
            options = [x for x in hand if suit(x) == suit(lead)]
            if not options and rules.play.must_trump and trump >= 0:
                options = [x for x in hand if suit(x) == trump]
            options = options or list(hand)
            if rules.play.must_beat and any(beats(x, best, trump) for x in options):
                options = [x for x in options if beats(x, best, trump)]
            assert c in options, f"illegal follow {trick} from {sorted(hand)}"
            hand.discard(c)
            if beats(c, best, trump):
                best, winner = c, seat
        assert trick["winner"] == winner
        captured[winner] += cs
        if pending >= 0:
            trump = pending
            first_pending = -1
        leader = winner
    assert all(not h for h in held)
    return captured


def bonus(rules: Rules, after_discard: list[int]) -> int:
    """The four-nines bonus: a separate entry of the deal score (ordinary deals)."""
    four = sum(rank(c) == 0 for c in after_discard) == 4
    return rules.bonus.four_nines if four else 0


def check_deal(rules: Rules, tr: dict[str, Any], seed: int | None = None) -> None:
    """Every invariant of one 3-player deal's trace, from the trace and the rules alone.

    ``seed``: the run's seed, where each deal is shuffled on its own (neither the cut
    nor the bottom-card ritual): the cards are then deal number
    ``deal_id + attempt * 2**40`` of that seed.
    """
    slot, attempt = tr["deal_id"], tr["attempt"]
    assert tr["dealer"] == slot % 3
    hands = [ids(h) for h in tr["hands"]]
    talon = ids(tr["talon"])
    assert [len(h) for h in hands] == [7, 7, 7] and len(talon) == 3
    assert sorted([c for h in [*hands, talon] for c in h]) == list(range(24))
    assert all(h == sorted(h) for h in [*hands, talon])
    if seed is not None:  # the cards are deal number slot + attempt * 2**40 of the run
        assert (
            ref.deal_cards(seed, slot + attempt * REDEAL_STRIDE)
            == [c for h in hands for c in h] + talon
        )
    extra = ["bottom_nines", "jack_moved"] if ritual_on(rules) else []  # the ritual's keys
    if tr["reshuffle"] is not None:
        assert list(tr) == [
            "deal_id", "dealer", "hands", "talon", "reshuffle", "attempt", *extra
        ]  # fmt: skip
        assert attempt < MAX_REDEALS
        seat, reason = tr["reshuffle"]["seat"], tr["reshuffle"]["reason"]
        r = rules.reshuffle
        if reason in HAND_REASONS:
            h = hands[seat]
            assert {
                "hand_points_below": pts(h) < r.hand_points_below,
                "hand_nines": r.hand_nines > 0 and sum(rank(c) == 0 for c in h) >= r.hand_nines,
                "hand_four_jacks": r.hand_four_jacks and sum(rank(c) == 1 for c in h) == 4,
            }[reason]
        elif reason in TALON_REASONS:
            assert {
                "talon_points_below": pts(talon) < r.talon_points_below,
                "talon_two_nines": r.talon_two_nines and sum(rank(c) == 0 for c in talon) >= 2,
                "talon_three_jacks": r.talon_three_jacks and sum(rank(c) == 1 for c in talon) == 3,
            }[reason]
        else:
            assert reason in ("after_discard_four_nines", "after_discard_points_below")
        return
    assert list(tr) == [
        "deal_id", "dealer", "hands", "talon", "reshuffle", "bids", "declarer",
        "winning_bid", "talon_shown", "discards", "contract", "conceded",
        *(["tricks"] if not tr["conceded"] else []),
        "card_points", "marriage_points", "tricks_taken", "score_deltas", "bolts",
        "attempt", "made", "trump_named", "special", "undarkened_by", *extra,
    ]  # fmt: skip
    assert tr["special"] is None and tr["undarkened_by"] is None  # a hands run: no dark
    check_bids(rules, tr, hands)
    decl, bid, contract = tr["declarer"], tr["winning_bid"], tr["contract"]
    assert tr["talon_shown"] == (not (rules.talon.hide_at_100 and bid == 100))
    # discards: one card of the declarer's 10 to each opponent
    (to1, c1), (to2, c2) = tr["discards"]
    assert (to1, to2) == ((decl + 1) % 3, (decl + 2) % 3)
    held = [set(h) for h in hands]
    held[decl] |= set(talon)
    c1, c2 = parse_card(c1), parse_card(c2)
    assert c1 != c2 and {c1, c2} <= held[decl]
    held[decl] -= {c1, c2}
    held[to1].add(c1)
    held[to2].add(c2)
    after = [sorted(h) for h in held]
    assert [len(h) for h in held] == [8, 8, 8]
    # contract
    cap = 120 + marriages(rules, after[decl]) if rules.bid.cap_by_marriages else 400
    assert contract == bid or (bid < contract <= cap and contract % rules.bid.step == 0)
    if tr["conceded"]:
        assert rules.rospis.allowed
        half = -(-contract // 10) * 5
        opp = half if rules.rospis.opponents_get == "half" else 60
        want = [opp] * 3
        want[decl] = 0 if rules.rospis.no_subtract else -contract
        want = [want[s] + bonus(rules, after[s]) for s in range(3)]
        assert tr["score_deltas"] == want and tr["made"] is False
        assert tr["card_points"] == tr["marriage_points"] == tr["tricks_taken"] == [0, 0, 0]
        assert tr["bolts"] == [0, 0, 0] and tr["trump_named"] is None
        return
    assert (tr["trump_named"] is not None) == rules.trump.named_by_declarer
    captured = check_play(rules, tr, held)
    card_points = [pts(c) for c in captured]
    assert sum(card_points) == 120 and tr["card_points"] == card_points
    taken = [sum(t["winner"] == s for t in tr["tricks"]) for s in range(3)]
    assert tr["tricks_taken"] == taken and sum(taken) == 8
    # marriage points from the declared leads (only the declarer's with only_declarer)
    mp = [0, 0, 0]
    for t in tr["tricks"]:
        letter, leader = t["marriage"], t["leader"]
        if letter is None:
            continue
        if letter == "A":
            value, cards_of = ACE_VALUE, {5, 11, 17, 23}
        else:
            s = SUIT_LETTERS.index(letter)
            value, cards_of = rules.marriage_values[s], {6 * s + 2, 6 * s + 3}
        if rules.marriage.only_declarer and leader != decl:
            continue
        if not rules.marriage.requires_capture or cards_of & set(captured[leader]):
            mp[leader] += value
    assert tr["marriage_points"] == mp
    total = [card_points[s] + mp[s] for s in range(3)]
    compared = rounded(rules, total[decl]) if rules.score.round_declarer else total[decl]
    assert tr["made"] == (compared >= contract)
    deltas = [rounded(rules, x) for x in total]
    deltas[decl] = contract if tr["made"] else -contract
    assert tr["score_deltas"] == [deltas[s] + bonus(rules, after[s]) for s in range(3)]
    for s in range(3):
        bolt = taken[s] == 0 if rules.bolt.on == "no_tricks" else rounded(rules, total[s]) == 0
        if s == decl and rules.bolt.declarer_exempt:
            bolt = False
        assert tr["bolts"][s] == int(bolt)
