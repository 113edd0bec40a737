"""The reference engine: invariants over random slots, its RNG twin, its inputs.

Every trace of 3,000 random slots under each 3-player preset (and two rule sets that
switch on the play variants no preset uses) is checked by an independent re-reading
of the rules here: the cards are accounted for, bids and follows are legal, trick
winners, points, deltas, ``made`` and bolts agree with the tricks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from presets import PRESETS_3P as PRESETS

from sim import reference as ref
from sim import rng
from sim.cards import RANK_POINTS, SUIT_LETTERS, card_str, parse_card
from sim.deal import generate_deals
from sim.engine.actions import MAX_REDEALS, REDEAL_STRIDE
from sim.engine.reshuffle import HAND_REASONS, TALON_REASONS
from sim.rules import Rules, load_rules

SLOTS = 3000
ACE_VALUE = 200

# Rule sets exercising the options no preset switches on (fewer slots each).
VARIANTS = {
    "variant_a": dict(
        play__must_beat=True,
        play__no_lead_foreign_trump=True,
        marriage__trump_from="next_trick",
        marriage__first_lead=True,
        marriage__requires_capture=True,
        marriage__ace=True,
        marriage__ace_sets_trump=True,
        bid__jumps=False,
        bonus__four_nines=120,
        score__round_to=10,
        score__round_declarer=True,
        reshuffle__after_discard_four_nines=True,
        reshuffle__talon_only_at_100=True,
        rospis__opponents_get="sixty",
        rospis__no_subtract=True,
        bolt__declarer_exempt=True,
    ),
    "variant_b": dict(
        play__must_trump=False,
        play__must_lead_trump=True,
        marriage__only_declarer=True,
        marriage__values="spades_high",
        bid__cap_by_marriages=False,
        bid__step=10,
        bolt__on="zero_points",
        reshuffle__after_discard_points_below=20,
        talon__hide_at_100=False,
        rospis__allowed=False,
    ),
}
VARIANT_SLOTS = 1000


# --- an independent reading of the rules -------------------------------------------
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


def check_trace(rules: Rules, tr: dict[str, Any], slot: int, attempt: int) -> None:
    assert tr["deal_id"] == slot and tr["attempt"] == attempt and tr["dealer"] == slot % 3
    hands = [ids(h) for h in tr["hands"]]
    talon = ids(tr["talon"])
    assert [len(h) for h in hands] == [7, 7, 7] and len(talon) == 3
    assert sorted([c for h in [*hands, talon] for c in h]) == list(range(24))
    assert all(h == sorted(h) for h in [*hands, talon])
    # the cards are deal number slot + attempt * 2**40 of the run
    assert (
        ref.deal_cards(SEED, slot + attempt * REDEAL_STRIDE)
        == [c for h in hands for c in h] + talon
    )
    if tr["reshuffle"] is not None:
        assert list(tr) == ["deal_id", "dealer", "hands", "talon", "reshuffle", "attempt"]
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
        "attempt", "made", "trump_named", "special", "undarkened_by",
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


SEED = 2024


def check_slots(rules: Rules, n: int) -> dict[str, int]:
    stats = {"redealt": 0, "conceded": 0, "played": 0, "marriages": 0, "made": 0}
    first_deals = generate_deals(n, SEED)  # attempt 0 of every slot, in one call
    for slot in range(n):
        traces = ref.play_slot(rules, SEED, slot)
        assert traces[0]["hands"] == [
            [card_str(c) for c in first_deals[slot, 7 * s : 7 * s + 7]] for s in range(3)
        ]
        assert 1 <= len(traces) <= MAX_REDEALS + 1
        for attempt, tr in enumerate(traces):
            check_trace(rules, tr, slot, attempt)
            assert (tr["reshuffle"] is None) == (attempt == len(traces) - 1)
        last = traces[-1]
        stats["redealt"] += len(traces) - 1
        if last["conceded"]:
            stats["conceded"] += 1
        else:
            stats["played"] += 1
            stats["made"] += last["made"]
            stats["marriages"] += sum(t["marriage"] is not None for t in last["tricks"])
    return stats


# thousand_one and five_hundred_one change the game, not the deal: make test-all only
@pytest.mark.parametrize(
    "preset",
    [
        pytest.param(p, marks=pytest.mark.slow if p in ("thousand_one", "five_hundred_one") else ())
        for p in PRESETS
    ],
)
def test_invariants_over_random_slots(preset):
    stats = check_slots(load_rules(preset), SLOTS)
    # the random strategy reaches every phase
    assert stats["redealt"] > 100 and stats["conceded"] > 500 and stats["played"] > 500
    assert stats["marriages"] > 100 and 0 < stats["made"] < stats["played"]


@pytest.mark.parametrize("name", VARIANTS)
def test_invariants_under_variant_rules(name):
    stats = check_slots(Rules().replace(**VARIANTS[name]), VARIANT_SLOTS)
    assert stats["played"] > 200 and stats["marriages"] > 20


def test_play_slot_is_reproducible_and_seed_dependent():
    r = Rules()
    a = [ref.play_slot(r, 9, i) for i in range(30)]
    assert a == [ref.play_slot(r, 9, i) for i in range(30)]
    b = [ref.play_slot(r, 10, i) for i in range(30)]
    assert a != b


def test_first_strategy_plays_lowest_actions():
    # "first": keep, pass, lowest discards, the winning bid, play on, lowest cards.
    tr = ref.play_slot(Rules(), 3, 0, strategies=("first",) * 3)[0]
    forehand = 1
    assert tr["reshuffle"] is None
    assert tr["bids"] == [[forehand, 100], [2, "pass"], [0, "pass"]]
    ten = sorted(ids(tr["hands"][forehand]) + ids(tr["talon"]))
    assert [parse_card(c) for _, c in tr["discards"]] == ten[:2]
    assert tr["contract"] == 100 and tr["conceded"] is False
    assert parse_card(tr["tricks"][0]["cards"][0]) == ten[2]


# --- the random numbers ------------------------------------------------------------
def test_rng_twin_equals_sim_rng():
    gen = np.random.default_rng(1)
    keys = [int(k) for k in gen.integers(0, 2**64, size=40, dtype=np.uint64)]
    keys += [0, 2**64 - 1, int(rng.stream_key(7, rng.Stream.STRATEGY))]
    indexes = [0, 1, 2, REDEAL_STRIDE, 5 + 31 * REDEAL_STRIDE, 2**62]
    indexes += [int(i) for i in gen.integers(0, 2**50, size=20)]
    n = 0
    for key in keys:
        for index in indexes:
            state = ref.item_state(key, index)
            assert state == int(rng.item_state(np.uint64(key), np.int64(index)))
            counter, counter_nb = 0, np.int64(0)
            for bound in (2, 3, 7, 24, 10, 2**31 + 5, 1):
                v, counter = ref.bounded(state, counter, bound)
                v_nb, counter_nb = rng.bounded(np.uint64(state), counter_nb, np.int64(bound))
                assert (v, counter) == (int(v_nb), int(counter_nb))
                assert 0 <= v < bound
                n += 1
            for j in (0, 1, 99):
                assert ref.word(state, j) == int(rng.word(np.uint64(state), np.int64(j)))
    for z in [int(x) for x in gen.integers(0, 2**64, size=500, dtype=np.uint64)]:
        assert ref.mix64(z) == int(rng.mix64(np.uint64(z)))
    assert n > 2000


def test_deal_twin_equals_generate_deals():
    for seed in (0, 7, 2024):
        batch = generate_deals(300, seed, start=1000)
        for k in range(300):
            assert ref.deal_cards(seed, 1000 + k) == [int(c) for c in batch[k]]
    for number in (5 + REDEAL_STRIDE, 17 + 3 * REDEAL_STRIDE, 32 * REDEAL_STRIDE, 2**50 + 1):
        assert ref.deal_cards(11, number) == [
            int(c) for c in generate_deals(1, 11, start=number)[0]
        ]


def test_redeals_use_the_next_deal_numbers():
    # A slot's attempt a is deal number slot + a * 2**40 (checked on a few slots).
    r = Rules()
    redealt = [i for i in range(200) if len(ref.play_slot(r, SEED, i)) > 2][:3]
    assert redealt
    for slot in redealt:
        for a, tr in enumerate(ref.play_slot(r, SEED, slot)):
            row = generate_deals(1, SEED, start=slot + a * REDEAL_STRIDE)[0]
            assert tr["talon"] == [card_str(c) for c in row[21:]]
            assert tr["hands"][0] == [card_str(c) for c in row[:7]]


def test_random_strategy_uses_the_strategy_stream_per_attempt():
    # Two attempts of the same slot draw from different items of the stream, so the
    # same cards played as attempt 0 or attempt 1 may go differently; and the item
    # for (slot, attempt) is slot + attempt * 2**40.
    r = Rules()
    cards = [int(c) for c in generate_deals(1, 5, start=3)[0]]
    runs = {a: ref.play_hand(r, cards, 0, seed=5, deal_id=3, attempt=a) for a in range(6)}
    assert len({str({k: v for k, v in t.items() if k != "attempt"}) for t in runs.values()}) > 1
    same = ref.play_hand(r, cards, 0, seed=5, deal_id=3 + REDEAL_STRIDE, attempt=0)
    assert {k: v for k, v in same.items() if k != "deal_id"} == {
        k: v for k, v in runs[1].items() if k not in ("deal_id", "attempt")
    } | {"attempt": 0}


# --- inputs and errors ---------------------------------------------------------------
def test_two_and_four_players_are_played_with_per_seat_inputs():
    # (tests/test_reference_special.py checks the 2- and 4-player rules)
    for preset, n in (("two_players", 2), ("four_players", 4)):
        traces = ref.play_slot(load_rules(preset), 0, 5)
        assert len(traces[-1]["hands"]) == n and traces[-1]["dealer"] == 5 % n
        with pytest.raises(ValueError, match=f"one entry per seat \\({n}\\)"):
            ref.play_slot(load_rules(preset), 0, 5, scores=(0, 0, 0, 0, 0))
        with pytest.raises(ValueError, match="strategies"):
            ref.play_slot(load_rules(preset), 0, 5, strategies=("first",) * 3)


HANDS = ["AH TH KS QS 9C JD AD", "A♠ 10♠ K♣ Q♣ 9♠ J♠ A♣", "TC JC 9D QD KD TD 9H"]


def test_play_hand_text_accepts_both_notations_and_checks_the_deal():
    tr = ref.play_hand_text(Rules(), HANDS, "JH QH KH", 2, strategies=("first",) * 3)
    assert tr["hands"][1] == ["9S", "JS", "TS", "AS", "QC", "KC", "AC"]
    with pytest.raises(ValueError, match="hand of seat 0 must hold 7"):
        ref.play_hand_text(Rules(), ["AH TH KS QS 9C JD", *HANDS[1:]], "JH QH KH", 2)
    with pytest.raises(ValueError, match="talon must hold 3"):
        ref.play_hand_text(Rules(), HANDS, "JH QH", 2)
    with pytest.raises(ValueError, match="AH"):
        ref.play_hand_text(Rules(), HANDS, "JH QH AH", 2)  # AH twice: names it
    with pytest.raises(ValueError, match="ZZ"):
        ref.play_hand_text(Rules(), HANDS, "JH QH ZZ", 2)
    with pytest.raises(ValueError):
        ref.play_hand_text(Rules(), HANDS[:2], "JH QH KH", 2)


def test_script_errors():
    assert issubclass(ref.ScriptError, ValueError)
    kw = {"strategies": ("first",) * 3}
    conceded = ["pass", "pass", "9C", "JD", 100, "concede"]
    assert ref.play_hand_text(Rules(), HANDS, "JH QH KH", 2, script=conceded, **kw)["conceded"]
    with pytest.raises(ref.ScriptError, match=r"BID.*legal: pass 105"):
        ref.play_hand_text(Rules(), HANDS, "JH QH KH", 2, script=[107], **kw)
    with pytest.raises(ref.ScriptError, match="does not fit"):
        ref.play_hand_text(Rules(), HANDS, "JH QH KH", 2, script=["AS"], **kw)
    with pytest.raises(ref.ScriptError, match="left unused"):
        ref.play_hand_text(Rules(), HANDS, "JH QH KH", 2, script=[*conceded, "pass"], **kw)
    with pytest.raises(ValueError, match="strategy"):
        ref.play_hand_text(Rules(), HANDS, "JH QH KH", 2, strategies=("first", "x", "first"))
