"""Two players laying two cards away (docs/rules.md §12, ``talon.two_players = "discard"``).

The Polish game for two (preset ``polish_two``): the declarer picks one musik blind,
adds it (12 cards), lays two cards away face down (their points its own, no trick),
plays 10 tricks; the unchosen musik counts for nobody. Scripted hands through both
engines, outcomes computed by hand; then random deals through both and the preset.
"""

from __future__ import annotations

from typing import Any

import pytest
from support import ENGINES

from sim.cards import RANK_POINTS, card_str, parse_card
from sim.engine import play_hands
from sim.engine.actions import ScriptError
from sim.rules import Rules, load_rules

QUIET = Rules().replace(
    reshuffle__hand_points_below=0,
    reshuffle__hand_nines=0,
    reshuffle__hand_four_jacks=False,
    reshuffle__talon_points_below=0,
    reshuffle__talon_two_nines=False,
    reshuffle__talon_three_jacks=False,
    rospis__allowed=False,
)
GIVE = QUIET.replace(players=2)
LAY = GIVE.replace(talon__two_players="discard")
# dealer 1, forehand 0; the musiki: KH QH (place 2), 9H JH (place 3)
HANDS = ["AS TS KS QS JS 9S AC TC KC QC", "JC 9C AD TD KD QD JD 9D AH TH"]
TALON = "KH QH 9H JH"
engines = pytest.mark.parametrize("play", list(ENGINES.values()), ids=list(ENGINES))


def run(play: Any, r: Rules, script: list, **kw: Any) -> dict:
    """The scripted hand on an engine; both seats play "first" after the script."""
    kw.setdefault("strategies", ("first", "first"))
    return play(r, HANDS, TALON, 1, script=script, **kw)


def pts(cards: list[str]) -> int:
    return sum(RANK_POINTS[parse_card(c) % 6] for c in cards)


@engines
def test_twelve_cards_two_laid_away_ten_tricks_laid_points_to_the_declarer(play):
    # seat 1 passes; seat 0 takes the first musik (KH QH: 12 cards), lays TS and AS
    # away, plays 100. "first" leads 9S JS QS KS (seat 1 throws 9C JC 9D JD), then QC
    # KC TC AC (seat 1 throws QD KD TD AD), then QH: seat 1's TH wins and its AH takes
    # the KH. Seat 1: QH TH AH KH = 28. Seat 0: the other 16 cards played (69) and the
    # two laid away (21): 90 < 100. The other musik (9H JH, 2) counts for nobody.
    tr = run(play, LAY, ["pass", 0, "TS", "AS", 100])
    assert tr["talon_pick"] == 0 and tr["discards"] == [[0, "TS"], [0, "AS"]]
    assert len(tr["tricks"]) == 10 and all(len(t["cards"]) == 2 for t in tr["tricks"])
    played = [c for t in tr["tricks"] for c in t["cards"]]
    assert not {"TS", "AS", "9H", "JH"} & set(played)  # laid away, never seen: not played
    assert tr["tricks"][-2:] == [
        {"leader": 0, "cards": ["QH", "TH"], "marriage": None, "winner": 1},
        {"leader": 1, "cards": ["AH", "KH"], "marriage": None, "winner": 1},
    ]
    assert tr["tricks_taken"] == [8, 2]
    assert tr["card_points"] == [69 + pts(["TS", "AS"]), 28] == [90, 28]
    assert sum(tr["card_points"]) == 120 - pts(["9H", "JH"])
    assert tr["made"] is False and tr["score_deltas"] == [-100, 30]
    assert tr["last_talon_to"] is None and tr["bolts"] == [0, 0]


@engines
def test_the_laid_away_cards_are_no_trick(play):
    # seat 0 lays away the nines 9H JH of the second musik and wins all 10 tricks;
    # seat 1 takes none and gets the bolt; the first musik (KH QH, 7) is nobody's
    tr = run(play, LAY, ["pass", 1, "9H", "JH", 100])
    assert tr["tricks_taken"] == [10, 0] and tr["bolts"] == [0, 1]
    assert tr["card_points"] == [120 - pts(["KH", "QH"]), 0]
    assert tr["made"] is True and tr["score_deltas"] == [100, 0]
    # the declarer lays away only its own cards, and only after taking the musik
    with pytest.raises(ScriptError, match="KH"):
        run(play, LAY, ["pass", 1, "KH"])


@engines
def test_the_laid_away_points_save_no_declarer_from_a_bolt(play):
    # seat 1 declares at 105, takes 9H JH, lays AH TH away (21) and leads 9C: seat 0's
    # QC wins, then its spades and clubs take every trick. Seat 1 took no trick: a bolt
    # on no tricks, and on zero points too (its 21 points are the cards laid away)
    for bolt_on in ("no_tricks", "zero_points"):
        r = LAY.replace(bolt__on=bolt_on)
        tr = run(play, r, [105, "pass", 1, "AH", "TH", 105])
        assert tr["declarer"] == 1 and tr["tricks_taken"] == [10, 0]
        assert tr["card_points"] == [120 - pts(["AH", "TH", "KH", "QH"]), 21]
        assert tr["bolts"] == [0, 1] and tr["made"] is False


@engines
def test_give_mode_is_unchanged(play):
    tr = run(play, GIVE, ["pass", 1, "9H", 100])
    assert tr["discards"] == [[1, "9H"]] and len(tr["tricks"]) == 11
    assert tr["last_talon_to"] == 1 and sum(tr["card_points"]) == 120


@engines
def test_the_contract_ceiling_reads_the_ten_cards_kept(play):
    # with KH QH taken seat 0 holds the ♠, ♣ and ♥ marriages (cap 320); laying the KS
    # away leaves ♣ and ♥: 280
    tr = run(play, LAY, ["pass", 0, "KS", "9S", 280])
    assert tr["contract"] == 280
    with pytest.raises(ScriptError):
        run(play, LAY, ["pass", 0, "KS", "9S", 285])
    assert run(play, LAY, ["pass", 0, "JS", "9S", 320])["contract"] == 320


@engines
def test_the_talon_reshuffle_reads_the_musik_taken(play):
    r = LAY.replace(reshuffle__talon_points_below=5)
    # 9H JH (2 points) may be sent back; KH QH (7) may not (no decision is asked)
    tr = run(play, r, ["pass", 1, "demand"])
    assert tr["reshuffle"] == {"seat": 0, "reason": "talon_points_below"}
    tr = run(play, r, ["pass", 0, "TS", "AS", 100])
    assert tr["reshuffle"] is None and tr["talon_pick"] == 0


@engines
def test_the_after_discard_reshuffle_reads_the_ten_cards_kept(play):
    r = LAY.replace(reshuffle__after_discard_points_below=45)
    # seat 0's 12 cards hold 65 points; laying TS AS away keeps 44 < 45: it may demand
    tr = run(play, r, ["pass", 0, "TS", "AS", "demand"])
    assert tr["reshuffle"] == {"seat": 0, "reason": "after_discard_points_below"}
    # laying 9S JS away keeps 63: no decision; seat 1 holds 53
    tr = run(play, r, ["pass", 0, "9S", "JS", 100])
    assert tr["reshuffle"] is None and tr["contract"] == 100


@engines
def test_the_cut_gathers_tricks_then_the_laid_away_then_the_other_musik(play):
    gathered: list[int] = []
    tr = run(play, LAY.replace(deal__method="cut"), ["pass", 0, "TS", "AS", 100],
             gathered=gathered)  # fmt: skip
    pile = [parse_card(c) for t in tr["tricks"] for c in t["cards"]]
    bottom_up = [*pile, parse_card("TS"), parse_card("AS"), parse_card("9H"), parse_card("JH")]
    assert gathered == bottom_up[::-1]


def test_polish_two_plays_ten_tricks_and_lays_two_away():
    """The preset by the heuristic: every played deal has 10 tricks, two cards laid away by
    the declarer, no last-trick talon, and card points 120 less the unchosen musik."""
    rules = load_rules("polish_two")
    assert rules.players == 2 and rules.talon.two_players == "discard"
    docs = play_hands(rules, 200, 5, ("heuristic",), trace=True).traces()
    played = [d for d in docs if d["reshuffle"] is None and not d["conceded"]]
    assert len(played) > 150
    for d in played:
        decl = d["declarer"]
        assert len(d["tricks"]) == 10 and d["last_talon_to"] is None
        laid = [c for to, c in d["discards"] if to == decl]
        assert len(laid) == 2 == len(d["discards"])
        other = d["talon"][2:] if d["talon_pick"] == 0 else d["talon"][:2]
        assert sum(d["card_points"]) == 120 - pts(other)
        assert d["tricks_taken"][decl] + d["tricks_taken"][1 - decl] == 10


def test_the_odds_talon_figures_are_about_the_one_musik_taken():
    """``thousand odds --rules polish_two``: exact values beside the simulated ones; the
    talon keys are about one musik of two cards (the one taken, chosen blind, is any of
    the two), as with two players giving a card: 60 of the 276 pairs hold under 5 points."""
    from fractions import Fraction

    import numpy as np

    from analysis.exact import exact_odds
    from sim.odds_keys import ODDS_KEYS
    from sim.runs.odds import simulate_odds

    rules = load_rules("polish_two").replace(reshuffle__talon_points_below=5)
    exact = exact_odds(rules)
    assert exact["talon.points_below_5"] == exact["talon.reshuffle"] == Fraction(60, 276)
    assert exact == exact_odds(rules.replace(talon__two_players="give"))
    n = 100_000
    hits = simulate_odds(rules, n, seed=13).hits
    for key in ODDS_KEYS:
        p = float(exact[key])
        se = np.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(hits[key] / n - p) <= 4.5 * se, key
    # the engine offers the talon reshuffle on the musik taken at that rate too: random
    # demands half the offers, so p / 2 of the dealt deals (each reaches the talon:
    # polish_two has no hand condition) are redealt for it
    docs = play_hands(rules, 4000, 13, ("random",), trace=True).traces()
    demanded = sum(1 for d in docs if (d["reshuffle"] or {}).get("reason") == "talon_points_below")
    p = float(exact["talon.reshuffle"]) / 2
    assert abs(demanded / len(docs) - p) <= 4.5 * np.sqrt(p * (1 - p) / len(docs))


def test_the_open_card_solver_adds_no_talon_and_banks_the_laid_away_cards():
    """The solver of ``pimc`` and the par: from a position laying two cards away it
    adds what the plain minimax adds with no talon to the last trick, and the deal's
    total starts from the laid-away points (``Position.banked``)."""
    import numpy as np

    from sim.engine.search import declarer_total
    from sim.reference.solver import minimax
    from sim.solver.deals import deal_cards, par_columns
    from sim.solver.position import OpenCardSolver, Position, play_state

    rules = load_rules("polish_two").replace(marriage__requires_capture=True)
    rng = np.random.default_rng(7)
    solver = OpenCardSolver(tt_bits=12)
    for _ in range(40):
        deck = [int(c) for c in rng.permutation(24)]
        k = int(rng.integers(1, 4))
        hands = [sorted(deck[i * k : (i + 1) * k]) for i in range(2)]
        laid = deck[2 * k : 2 * k + 2]
        trump = int(rng.integers(-1, 4))
        kw = dict(
            declarer=int(rng.integers(2)),
            leader=int(rng.integers(2)),
            trump=trump,
            trump_setter=int(rng.integers(2)) if trump >= 0 else -1,
            marriage_allowed=True,
        )
        pos = Position(
            tuple(sum(1 << c for c in h) for h in hands), laid=sum(1 << c for c in laid), **kw
        )
        S, P = play_state(pos, rules)
        assert pos.banked == pts([card_str(c) for c in laid])
        assert declarer_total(S, P) == pos.banked
        assert solver.value(S, P) == minimax(rules, hands, set_aside=[], **kw), pos
    # the par of played deals: the declarer's own discard, and the best one, bank them too
    batch = play_hands(load_rules("polish_two"), 6, 3, ("heuristic",), trace=True)
    cards = deal_cards(batch)
    assert all(len(d.gives) == 2 and d.lay for d in cards)
    total, best = par_columns(load_rules("polish_two"), cards)
    assert any(min(d.gives) >= 0 for d in cards)
    for d, t, b in zip(cards, total, best, strict=True):
        if min(d.gives) < 0:  # a bomb, thrown before laying away: both pars the best
            assert t == b
            continue
        banked = d.played_position().banked
        assert banked <= t <= b  # (marriages may take a total past 120)


def test_a_defenders_worlds_deal_the_laid_away_cards_and_the_musik_anew():
    """``pimc``'s worlds for the declarer's opponent laying two cards away: whatever the
    hidden cards are (the declarer's hand, the two laid away, the musik nobody took), the
    same worlds come out; each has 2 cards laid away of the cards it cannot see, and
    every card once. The declarer's worlds keep its laid-away cards, no talon set aside."""
    import numpy as np
    from support import redistribute

    from sim.engine.actions import Decision
    from sim.engine.api import decision_snapshots
    from sim.engine.params import rules_vector
    from sim.engine.state import (
        N_STATE,
        S_CAPT0,
        S_DECL,
        S_HAND0,
        S_PLAYED,
        S_TALON_OTHER,
        SNAP_SEAT,
    )
    from sim.engine.strategies.pimc.worlds import sample_world

    rules = load_rules("polish_two")
    P = rules_vector(rules)
    rng = np.random.default_rng(4)
    scratch = np.zeros(8, dtype=np.int64)
    A = np.zeros(N_STATE, dtype=np.int64)
    B = np.zeros(N_STATE, dtype=np.int64)
    checked = {0: 0, 1: 0}
    for _k, snap in decision_snapshots(rules, 40, 9, kinds=(Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        me, decl = int(snap[SNAP_SEAT]), int(S[S_DECL])
        T = redistribute(S, me, P, rng)
        if T is None:
            continue
        sample_world(S.copy(), P, me, A, scratch)
        sample_world(T.copy(), P, me, B, scratch)
        for slot in (S_HAND0, S_HAND0 + 1, S_CAPT0, S_CAPT0 + 1):
            assert A[slot] == B[slot], (me == decl, slot)
        laid = int(A[S_CAPT0 + decl]) & ~int(S[S_PLAYED])
        assert bin(laid).count("1") == 2 and A[S_TALON_OTHER] == 0
        assert int(A[S_HAND0]) & int(A[S_HAND0 + 1]) == 0 and not laid & int(A[S_HAND0 + decl])
        if me == decl:
            assert A[S_CAPT0 + decl] == S[S_CAPT0 + decl]
        checked[me == decl] += 1
    assert checked[0] > 50 and checked[1] > 50


def test_the_heuristic_lays_away_its_cheapest_cards_by_the_lay_away_cost():
    """Laying away (``give_cost``): a lone king or queen costs no half marriage, a ten
    without its ace 10 less; the heuristic lays away the cheapest, ties the lowest card."""
    import numpy as np

    from sim.cards import mask_of, parse_cards
    from sim.engine.params import rules_vector
    from sim.engine.strategies.discard import cheapest_of_hand, discard_cost, give_cost

    P = rules_vector(load_rules("polish_two"))
    G = rules_vector(load_rules("polish_two").replace(talon__two_players="give"))
    hand = mask_of(parse_cards("AS TS KS QS JS 9S AC TC KC QC KH QH"))
    assert cheapest_of_hand(hand, P) == parse_card("9S")  # 0 points + 3 a spade
    assert cheapest_of_hand(hand & ~(1 << parse_card("9S")), P) == parse_card("JS")
    mixed = mask_of(parse_cards("TH KD 9D JD AC TC 9C JC QS AS"))
    th, kd = parse_card("TH"), parse_card("KD")
    assert give_cost(mixed, th, P) == discard_cost(mixed, th, G) - 10 == 3
    assert give_cost(mixed, kd, P) == discard_cost(mixed, kd, G) - 80 // 2 == 4 + 3 * 3
    assert cheapest_of_hand(mixed, P) == th
    rng = np.random.default_rng(3)
    for _ in range(2000):
        cards = [int(c) for c in rng.choice(24, int(rng.integers(1, 13)), replace=False)]
        m = sum(1 << c for c in cards)
        assert cheapest_of_hand(m, P) == min(cards, key=lambda c: (give_cost(m, c, P), c))
        assert cheapest_of_hand(m, G) == min(cards, key=lambda c: (discard_cost(m, c, G), c))


def test_strong_plays_as_the_heuristic_laying_two_cards_away():
    """``strong``'s learned parts were fitted on deals giving one card: laying two cards
    away it decides by the heuristic's rules (its docstring), with its own parameters
    (its ``concede_margin`` 10, the heuristic's 0); it does not with two players giving
    a card."""
    import numpy as np

    def out(preset, name, params=()):
        return play_hands(load_rules(preset), 400, 8, (name,), params=params).out

    same = ["strong.concede_margin=0"]
    assert np.array_equal(out("polish_two", "strong", same), out("polish_two", "heuristic"))
    assert not np.array_equal(out("polish_two", "strong"), out("polish_two", "heuristic"))
    assert not np.array_equal(out("two_players", "strong", same), out("two_players", "heuristic"))
