"""The rebuilt ``heuristic``: its hand model, contracts, concessions, barrel, discards and leads.

The strength figures of the note (games to 1000 against ``heuristic_v1``, the duel)
are measured on large runs; here a small seeded version of each states its
tolerance.
"""

import numpy as np
import pytest

from analysis.stats import wilson_interval
from sim.cards import parse_cards
from sim.engine import play_hands
from sim.engine.actions import DECLARE, PASS, Decision
from sim.engine.game import GAME_COLUMNS, play_games
from sim.engine.params import P_MV_S, rules_vector
from sim.engine.state import (
    FLAG_BARREL0,
    N_STATE,
    NO_SUIT,
    S_CONTRACT,
    S_DECL,
    S_FLAGS,
    S_HAND0,
    S_NPLAYED,
    S_PLAYED,
    S_TRUMP,
    S_TRUMP_SETTER,
)
from sim.engine.strategies.barrel import barrel_need, barrel_win
from sim.engine.strategies.discard import discard_cost
from sim.engine.strategies.hand_model import KEPT, hand_model, p_make
from sim.engine.strategies.heuristic import heuristic_choose, heuristic_play
from sim.engine.strategies.registry import parse_params
from sim.rules import load_rules
from sim.runs.declarer import run_items


def _mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))


def _wilson(k: int, n: int) -> tuple[float, float]:
    low, high = wilson_interval(np.array([k]), np.array([n]))
    return float(low[0]), float(high[0])


def _lead_state(hand: str, played: str = "", trump: int = NO_SUIT, setter: int = -1):
    S = np.zeros(N_STATE, dtype=np.int64)
    S[S_HAND0] = _mask(hand)
    S[S_PLAYED] = _mask(played) if played else 0
    S[S_TRUMP] = trump
    S[S_TRUMP_SETTER] = setter
    S[S_DECL] = 0
    S[S_NPLAYED] = 0
    return S


def test_a_marriage_that_cannot_lose_its_queen_is_declared_first():
    P = rules_vector(load_rules("classic"))
    # ♥ (100) is worth more, but its ten and ace are out; ♠'s are in the hand
    S = _lead_state("KS QS TS AS KH QH 9C JD")
    declaring = _mask("KS QS KH QH")
    code = heuristic_play(0, S, P, int(S[S_HAND0]), declaring)
    assert code == DECLARE + parse_cards("QS")[0]
    # with the ♥ ten and ace played, ♥ cannot lose its queen either: the bigger one first
    S = _lead_state("KS QS TS AS KH QH 9C JD", played="TH AH 9S")
    code = heuristic_play(0, S, P, int(S[S_HAND0]), declaring)
    assert code == DECLARE + parse_cards("QH")[0]


def test_no_trump_switch_away_from_a_longer_trump_while_opponents_hold_trumps():
    P = rules_vector(load_rules("classic"))
    diamonds = 2
    # trump ♦ (declared earlier by seat 0), three ♦ held, the jack still out; ♣ marriage
    S = _lead_state("AD TD 9D KC QC AS", played="KD QD", trump=diamonds, setter=0)
    code = heuristic_play(0, S, P, int(S[S_HAND0]), _mask("KC QC"))
    assert code < DECLARE  # a plain lead: the ♣ declaration waits
    # the opponents' last trump is gone (played): now it declares
    S = _lead_state("AD TD 9D KC QC AS", played="KD QD JD", trump=diamonds, setter=0)
    code = heuristic_play(0, S, P, int(S[S_HAND0]), _mask("KC QC"))
    assert code == DECLARE + parse_cards("QC")[0]


def test_a_lone_king_or_queen_costs_half_its_marriage_to_give():
    P = rules_vector(load_rules("classic"))
    hand = _mask("KH KS 9C JC TC AC 9D JD QD TH")  # ♥ K alone, ♠ K alone, ♦ Q alone
    kh, ks, qd = (parse_cards(c)[0] for c in ("KH", "KS", "QD"))
    # the same points and suit lengths apart: the difference is half the marriage values
    assert (
        discard_cost(hand, kh, P) - discard_cost(hand, ks, P)
        == (P[P_MV_S + 3] - P[P_MV_S + 0]) // 2 + 3
    )  # ♥ holds one more card (TH): three per card held
    # a marriage kept together costs far more than any lone card
    paired = _mask("KH QH 9C JC TC AC 9D JD 9S TH")
    assert discard_cost(paired, kh, P) > discard_cost(hand, kh, P) + 40
    assert discard_cost(hand, qd, P) == 3 + 3 * 3 + P[P_MV_S + 2] // 2


def test_the_cheapest_give_of_a_hand_is_the_lowest_cost_by_cards():
    # cheapest_of_hand reads the suits' tables: the card of the least discard_cost
    # (ties: the lowest), on hands of 1 to 12 cards drawn, under rules with different
    # marriage values
    from sim.engine.strategies.discard import cheapest_of_hand

    rng = np.random.default_rng(7)
    for preset in ("classic", "two_players", "thousand_one"):
        P = rules_vector(load_rules(preset)).copy()
        for values in (P[P_MV_S : P_MV_S + 4].copy(), np.array([0, 7, 200, 41])):
            P[P_MV_S : P_MV_S + 4] = values
            for _ in range(3000):
                cards = [int(c) for c in rng.choice(24, int(rng.integers(1, 13)), replace=False)]
                hand = sum(1 << c for c in cards)
                want = min(cards, key=lambda c: (int(discard_cost(hand, c, P)), c))
                assert cheapest_of_hand(hand, P) == want


def test_the_cheapest_and_richest_card_by_rank_are_the_points_order():
    # cheapest_card and richest_card test rank by rank: the same card as the cost
    # (points, +40 on costs_extra; ties: the lowest id) of every card, on random masks
    from sim.cards import CARD_POINTS
    from sim.engine.strategies.basics import cheapest_card, richest_card

    rng = np.random.default_rng(8)
    for _ in range(5000):
        cards = int(rng.integers(1, 1 << 24))
        extra = int(rng.integers(0, 1 << 24))
        held = [c for c in range(24) if cards >> c & 1]
        cost = {c: int(CARD_POINTS[c]) + (40 if extra >> c & 1 else 0) for c in held}
        assert cheapest_card(cards, extra) == min(held, key=lambda c: (cost[c], c))
        assert richest_card(cards) == min(held, key=lambda c: (-int(CARD_POINTS[c]), c))


def test_the_sure_winner_by_masks_is_the_card_by_card_rule():
    # sure_winner takes out the cards under an outside card of their suit and the
    # ruffable suits as masks: the same card as the rule read card by card (the richest
    # card no outside card ranks above and no void may ruff; ties: the lowest id)
    from sim.cards import CARD_POINTS
    from sim.engine.strategies.basics import ABOVE, strictly_below, sure_winner

    def by_card(cards, outside, trump, trumps_out, voids):
        pick = -1
        for c in range(24):
            if not cards >> c & 1 or outside & int(ABOVE[c]):
                continue
            if c // 6 != trump and trumps_out and voids >> (c // 6) & 1:
                continue
            if pick < 0 or CARD_POINTS[c] > CARD_POINTS[pick]:
                pick = c
        return pick

    rng = np.random.default_rng(9)
    for _ in range(20000):
        cards = int(rng.integers(0, 1 << 24))
        outside = int(rng.integers(0, 1 << 24)) & ~(cards if rng.random() < 0.8 else 0)
        trump = int(rng.integers(-1, 4))
        trumps_out = int(rng.integers(0, 3)) * int(rng.integers(0, 1 << 24))
        voids = int(rng.integers(0, 16))
        want = by_card(cards, outside, trump, trumps_out, voids)
        assert sure_winner(cards, outside, trump, trumps_out, voids) == want
        assert strictly_below(outside) == sum(1 << c for c in range(24) if outside & int(ABOVE[c]))


def _snapshots(rules, kind, n=150):
    from sim.cards import cards_str
    from sim.engine import play_hand_text
    from sim.engine.deal import generate_deals
    from sim.engine.state import SNAP_KIND

    for k, cards in enumerate(generate_deals(n, seed=41)):
        hands = [cards_str(cards[7 * s : 7 * s + 7]) for s in range(3)]
        talon = cards_str(cards[21:])
        for d in range(12):
            snap = play_hand_text(
                rules, hands, talon, k % 3, strategies=("random",) * 3, seed=k, snapshot_at=d
            )["snapshot"]
            if snap is None:
                break
            if int(snap[SNAP_KIND]) == kind:
                yield snap


def test_on_the_barrel_the_contract_is_at_least_what_wins_there():
    from sim.engine.state import SNAP_LEGAL, SNAP_N, SNAP_SEAT

    rules = load_rules("classic")
    P = rules_vector(rules)
    params = parse_params(["heuristic"] * 3, [])[0]
    need = barrel_need(P)
    assert need == 120
    checked = raised = 0
    for snap in _snapshots(rules, Decision.CONTRACT):
        S = snap[:N_STATE].copy()
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + n].copy()
        off = heuristic_choose(Decision.CONTRACT, seat, S, P, legal, n, params, np.uint64(0))
        S[S_FLAGS] |= 1 << (FLAG_BARREL0 + seat)
        on = heuristic_choose(Decision.CONTRACT, seat, S, P, legal, n, params, np.uint64(0))
        if legal[n - 1] >= need:
            assert on >= need
            raised += off < need
        checked += 1
    assert checked >= 50 and raised > 0  # off the barrel it would have named less


def test_on_the_barrel_it_bids_up_to_what_wins_there_and_never_concedes():
    from sim.engine.state import SNAP_LEGAL, SNAP_N, SNAP_SEAT

    rules = load_rules("classic")
    P = rules_vector(rules)
    params = parse_params(["heuristic"] * 3, [])[0]
    bids = 0
    for snap in _snapshots(rules, Decision.BID):
        S = snap[:N_STATE].copy()
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + n].copy()
        S[S_FLAGS] |= 1 << (FLAG_BARREL0 + seat)
        choice = heuristic_choose(Decision.BID, seat, S, P, legal, n, params, np.uint64(0))
        if legal[1] <= 120:
            assert choice != PASS
            bids += 1
    assert bids >= 50
    S = np.zeros(N_STATE, dtype=np.int64)
    S[S_HAND0] = _mask("9S JS 9C JC 9D JD 9H QH")  # hopeless: conceding would pay off it
    S[S_CONTRACT] = 120
    legal = np.array([0, 1] + [0] * 62, dtype=np.int64)
    assert heuristic_choose(Decision.CONCEDE, 0, S, P, legal, 2, params, np.uint64(0)) == 1
    S[S_FLAGS] |= 1 << FLAG_BARREL0
    assert heuristic_choose(Decision.CONCEDE, 0, S, P, legal, 2, params, np.uint64(0)) == 0


def test_concessions_are_rare_and_contracts_stay_near_the_bid():
    rules = load_rules("classic")
    new = play_hands(rules, 20000, 3, ("heuristic",) * 3)
    old = play_hands(rules, 20000, 3, ("heuristic_v1",) * 3)
    n = len(new.column("conceded"))
    _, hi = _wilson(int(new.column("conceded").sum()), n)
    assert hi < 0.10  # the target; measured 4 % (95 % upper bound here)
    lo_old, _ = _wilson(int(old.column("conceded").sum()), n)
    assert lo_old > hi  # the first heuristic conceded about 29 %
    played = new.column("conceded") == 0
    raised = new.column("contract") - new.column("winning_bid")
    assert raised.mean() < (old.column("contract") - old.column("winning_bid")).mean()
    assert played.sum() > 0


def test_one_rebuilt_seat_wins_more_than_half_its_games_against_two_first_heuristics():
    games = play_games(
        load_rules("classic"), 3000, 8, ("heuristic", "heuristic_v1", "heuristic_v1")
    )
    winner = games.out[:, GAME_COLUMNS.index("winner")]
    lo, _ = _wilson(int((winner == 0).sum()), len(winner))
    assert lo > 0.5  # fair share 1/3; measured 67 % on 20,000 games


@pytest.mark.parametrize("change", [{"bid__jumps": False}, {"talon__hide_at_100": False}])
def test_jumps_and_a_shown_talon_change_the_heuristics_hands(change):
    # the first heuristic raised one step at a time and never looked at the talon: it
    # played these hands identically under both settings
    rules = load_rules("classic")
    cols = ("winning_bid", "contract", "declarer_total", "card_points_1")
    for strategy, differs in (("heuristic", True), ("heuristic_v1", False)):
        base = play_hands(rules, 3000, 4, (strategy,) * 3)
        other = play_hands(rules.replace(**change), 3000, 4, (strategy,) * 3)
        same = all(np.array_equal(base.column(c), other.column(c)) for c in cols)
        assert same != differs, strategy


def test_bids_beyond_the_marriages_where_the_cap_is_off():
    # a hand bids past its marriage cap only to keep a player on the barrel out of
    # the contract, so the games differ (hands without a barrel do not)
    rules = load_rules("classic")
    base = play_games(rules, 300, 4, ("heuristic",))
    free = play_games(rules.replace(bid__cap_by_marriages=False), 300, 4, ("heuristic",))
    assert (base.out != free.out).any(axis=1).sum() > 30


def test_the_kept_hand_model_is_calibrated_on_a_held_out_seed():
    rules = load_rules("classic")
    P = rules_vector(rules)
    cols = run_items(rules, "heuristic", 10000, 99)
    mus = [hand_model(int(h), P, KEPT) for h in cols["kept"]]
    for level in (100, 120, 140):
        promised = np.array([p_make(mu, sigma, level) for mu, sigma in mus])
        made = (cols["total"] >= level).astype(float)
        gap = promised.mean() - made.mean()
        se = (made - promised).std(ddof=1) / np.sqrt(len(made))  # of the gap (0.2 points)
        # the model's promise: its gap from what the hands make is under 5 percentage
        # points (2.4 at most measured on 300,000 hands); not a sampling tolerance: the
        # measured gap must lie below it by 6 of its standard errors (seeded)
        assert abs(gap) + 6 * se < 0.05, (level, gap, se)


def test_the_winning_amount_on_the_barrel_follows_the_target_rules():
    classic = load_rules("classic")
    assert barrel_need(rules_vector(classic)) == 120  # 1000 − 880
    assert barrel_need(rules_vector(classic.replace(game__target_strict=True))) == 125
    assert barrel_win(rules_vector(classic.replace(barrel__at=900))) == 100
    assert barrel_win(rules_vector(classic.replace(game__target=950))) == 70  # any contract
    # failing is free on the barrel: a seat there bids up to 120 however little wins
    assert barrel_need(rules_vector(classic.replace(barrel__at=900))) == 120
    assert barrel_need(rules_vector(classic.replace(game__target=1050))) == 170
    assert barrel_need(rules_vector(classic.replace(barrel__at=0))) == 0  # no barrel
    assert barrel_win(rules_vector(classic.replace(barrel__at=0))) == 0


@pytest.mark.parametrize(
    ("change", "medium", "weak"),
    [
        # a weak hand concedes 100 and 120 (its opponents would take more than half
        # the contract each) but plays 200 (conceding gives them 100 each)
        ({}, [0, 0, 0], [1, 1, 0]),
        # conceding costs nothing of one's own: even the medium hand gives up
        ({"rospis__no_subtract": True}, [1, 1, 1], [1, 1, 1]),
        # a flat 60 to each opponent: the weak hand concedes 200 too
        ({"rospis__opponents_get": "sixty"}, [0, 0, 0], [1, 1, 1]),
    ],
)
def test_concessions_weigh_what_the_rules_make_conceding_cost(change, medium, weak):
    P = rules_vector(load_rules("classic").replace(**change))
    params = parse_params(["heuristic"] * 3, [])[0]
    yes_no = np.array([0, 1] + [0] * 62, dtype=np.int64)
    for hand, expected in (("AS TS 9S 9C JC 9D JD 9H", medium), ("9S JS 9C JC 9D JD 9H QH", weak)):
        got = []
        for contract in (100, 120, 200):
            S = np.zeros(N_STATE, dtype=np.int64)
            S[S_HAND0] = _mask(hand)
            S[S_CONTRACT] = contract
            got.append(heuristic_choose(Decision.CONCEDE, 0, S, P, yes_no, 2, params, np.uint64(0)))
        assert got == expected, (hand, change)
