"""Strategies see only what a player at the table sees, and parse their parameters."""

import numpy as np
import pytest

from sim.cards import cards_str
from sim.engine import play_hand_text
from sim.engine.deal import generate_deals
from sim.engine.params import rules_vector
from sim.engine.state import (
    N_STATE,
    S_AFTER0,
    S_DEALT0,
    S_DECL,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
    S_TALON,
    S_VOID0,
    SNAP_KIND,
    SNAP_LEGAL,
    SNAP_N,
    SNAP_SEAT,
)
from sim.engine.strategies.guide import guide_choose
from sim.engine.strategies.heuristic import heuristic_choose
from sim.engine.strategies.heuristic_v1 import heuristic_v1_choose
from sim.engine.strategies.registry import StrategyError, parse_params, parse_strategies
from sim.engine.strategies.strong import strong_choose
from sim.rules import load_rules


def _redistribute(S, seat, rng, face_up=True):
    """A copy of S where the cards ``seat`` cannot see are dealt anew between the others.

    Only hidden cards move: not the talon (it may have been shown), not the discards
    when they lie face up (the declarer, who gave them, always knows them), and never
    into a hand that has shown out of the card's suit. Returns None when no
    different valid redistribution was found.
    """
    o1, o2 = [s for s in range(3) if s != seat]
    fixed = int(S[S_TALON])
    for g in (S_GIVE1, S_GIVE2):
        if S[g] >= 0 and (face_up or seat == S[S_DECL]):
            fixed |= 1 << int(S[g])
    h1 = [c for c in range(24) if S[S_HAND0 + o1] >> c & 1 and not fixed >> c & 1]
    h2 = [c for c in range(24) if S[S_HAND0 + o2] >> c & 1 and not fixed >> c & 1]
    pool = np.array(h1 + h2)
    for _ in range(50):
        rng.shuffle(pool)
        new1, new2 = sorted(pool[: len(h1)].tolist()), sorted(pool[len(h1) :].tolist())
        if new1 == sorted(h1):
            continue
        if any(S[S_VOID0 + o1] >> (c // 6) & 1 for c in new1):
            continue
        if any(S[S_VOID0 + o2] >> (c // 6) & 1 for c in new2):
            continue
        T = S.copy()
        old1, old2 = sum(1 << c for c in h1), sum(1 << c for c in h2)
        m1, m2 = sum(1 << c for c in new1), sum(1 << c for c in new2)
        for base in (S_HAND0, S_DEALT0, S_AFTER0):
            # cards still held move with the hand; cards already played stay put
            a, b = int(T[base + o1]), int(T[base + o2])
            T[base + o1] = (a & ~(old1 | old2)) | (m1 & (a | b) if base != S_HAND0 else m1)
            T[base + o2] = (b & ~(old1 | old2)) | (m2 & (a | b) if base != S_HAND0 else m2)
        return T
    return None


@pytest.mark.parametrize(
    ("preset", "strategy"),
    [
        ("classic", "heuristic"),
        ("ukraine_online", "heuristic"),
        ("five_hundred_one", "heuristic"),
        ("classic_discards_face_down", "heuristic"),
        ("classic", "heuristic_v1"),
        ("classic", "strong"),
        ("ukraine_online", "strong"),
        ("classic", "guide"),
    ],
)
def test_heuristic_choices_ignore_hidden_cards(preset, strategy):
    if preset == "classic_discards_face_down":  # the other defender's card is hidden too
        rules = load_rules("classic").replace(talon__discard_face_down=True)
    else:
        rules = load_rules(preset)
    face_up = not rules.talon.discard_face_down
    P = rules_vector(rules)
    params = parse_params([strategy] * 3, [])[0]
    choose = {
        "heuristic": heuristic_choose,
        "heuristic_v1": heuristic_v1_choose,
        "strong": strong_choose,
        "guide": guide_choose,
    }[strategy]
    rng = np.random.default_rng(12)
    deals = generate_deals(150, seed=31)
    checked = changed_state = 0
    for k, cards in enumerate(deals):
        hands = [cards_str(cards[7 * s : 7 * s + 7]) for s in range(3)]
        talon = cards_str(cards[21:])
        for d in range(60):
            # states reached by random play are the most varied; the heuristic is then
            # asked what it would do in each of them
            snap = play_hand_text(
                rules, hands, talon, k % 3, strategies=("random",) * 3, seed=k, snapshot_at=d
            )["snapshot"]
            if snap is None:
                break
            S = snap[:N_STATE].copy()
            kind, seat, n = int(snap[SNAP_KIND]), int(snap[SNAP_SEAT]), int(snap[SNAP_N])
            legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
            tb = np.uint64(0)
            choice = choose(kind, seat, S, P, legal, n, params, tb)
            assert choice in legal[:n]
            for _ in range(6):
                T = _redistribute(S, seat, rng, face_up)
                if T is None:
                    continue
                changed_state += 1
                assert choose(kind, seat, T, P, legal, n, params, tb) == choice, (k, d)
            checked += 1
    assert checked > 1500 and changed_state > checked


def test_strategy_and_parameter_parsing():
    assert parse_strategies("heuristic") == ["heuristic"] * 3
    assert parse_strategies("heuristic,random,first") == ["heuristic", "random", "first"]
    with pytest.raises(StrategyError, match="unknown strategy 'smart'"):
        parse_strategies("smart")
    with pytest.raises(StrategyError, match="1 or 3"):
        parse_strategies("random,random")
    table = parse_params(["heuristic", "random", "heuristic"], ["heuristic.aggression=0.3"])
    assert table[0, 0] == table[2, 0] == 0.3 and table[1, 0] == 0
    with pytest.raises(StrategyError, match="no parameter 'bravery'"):
        parse_params(["heuristic"] * 3, ["heuristic.bravery=1"])
    with pytest.raises(StrategyError, match="not a number"):
        parse_params(["heuristic"] * 3, ["heuristic.aggression=lots"])


def test_aggression_raises_contracts():
    from sim.engine import play_hands

    rules = load_rules("classic")
    timid = play_hands(rules, 20000, 1, ("heuristic",) * 3, ["heuristic.aggression=-0.3"])
    bold = play_hands(rules, 20000, 1, ("heuristic",) * 3, ["heuristic.aggression=0.3"])
    assert bold.column("contract").mean() > timid.column("contract").mean() + 5
