"""The sampling player ``pimc``: its worlds keep what it has seen; it peeks at nothing."""

from __future__ import annotations

import numpy as np
import pytest
from support import redistribute, sizes

from sim.engine import decision_snapshots, play_hands
from sim.engine.actions import DECLARE, Decision
from sim.engine.params import rules_vector
from sim.engine.search import arena_size
from sim.engine.state import (
    N_STATE,
    S_CONTRACT,
    S_DECL,
    S_GIVE1,
    S_HAND0,
    S_NOT0,
    S_PLAYED,
    S_TALON,
    SNAP_KIND,
    SNAP_LEGAL,
    SNAP_N,
    SNAP_SEAT,
)
from sim.engine.strategies.pimc import (
    pimc_bid,
    pimc_bid_sampled,
    pimc_contract,
    pimc_discard,
    pimc_play,
    sample_world,
)
from sim.engine.strategies.registry import BID, WORLDS, parse_params
from sim.rules import load_rules


def _decide(kind, seat, S, P, legal, n, params, arena):
    if kind == Decision.PLAY:
        plain = sum(1 << int(c) for c in legal[:n] if c < DECLARE)
        declaring = sum(1 << int(c - DECLARE) for c in legal[:n] if c >= DECLARE)
        return pimc_play(seat, S, P, plain, declaring, arena, params)
    if kind == Decision.BID:  # pass, then the raises from legal[1]
        bid = pimc_bid_sampled if params[BID] else pimc_bid
        return bid(S, P, arena, seat, int(legal[1]), n - 1, params)
    if kind == Decision.DISCARD:
        return pimc_discard(S, P, arena, params)
    return pimc_contract(S, P, arena, int(legal[0]), n, params)


@sizes(40, 120, "decisions")
@pytest.mark.parametrize(
    "preset", ["classic", pytest.param("classic_discards_face_down", marks=pytest.mark.slow)]
)
def test_pimc_choices_ignore_hidden_cards(preset, decisions):
    if preset == "classic_discards_face_down":
        rules = load_rules("classic").replace(talon__discard_face_down=True)
    else:
        rules = load_rules(preset)
    face_up = not rules.talon.discard_face_down
    P = rules_vector(rules)
    params = parse_params(
        ["pimc"] * 3, ["pimc.worlds=4", "pimc.bid_make=0.5", "pimc.discard=1", "pimc.read_bids=1"]
    )[0]
    kinds = (Decision.PLAY, Decision.CONTRACT, Decision.BID, Decision.DISCARD)
    _ignores_hidden_cards(rules, face_up, P, params, kinds, 17, decisions)


@sizes(20, 60, "decisions")
def test_sampled_bids_ignore_hidden_cards(decisions):
    # pimc.bid=1 reads the auction (the bids that show marriages): the same choice
    # whatever the unseen cards, random bidders (many bids above 120)
    rules = load_rules("classic")
    P = rules_vector(rules)
    params = parse_params(["pimc"] * 3, ["pimc.bid=1", "pimc.bid_worlds=6", "pimc.read_bids=1"])[0]
    # only decisions where another seat's bid showed marriages
    _ignores_hidden_cards(rules, True, P, params, (Decision.BID,), 19, decisions, shown=True)


def _ignores_hidden_cards(rules, face_up, P, params, kinds, seed, decisions, shown=False):
    """Up to ``decisions`` choices are the same when hidden cards move.

    ``shown``: only choices where another seat's bids showed marriages (the auction read).
    """
    from sim.engine.strategies.pimc import bid_shown_cap

    arena = np.zeros(arena_size(12), dtype=np.int64)
    rng = np.random.default_rng(3)
    checked = moved = 0
    seen = set()
    for k, snap in decision_snapshots(rules, 600 if shown else 40, seed, kinds=kinds):
        S = snap[:N_STATE].copy()
        kind, seat, n = int(snap[SNAP_KIND]), int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        if n < 2:
            continue
        if shown and not any(bid_shown_cap(S, P, o) > 0 for o in range(3) if o != seat):
            continue
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        choice = _decide(kind, seat, S.copy(), P, legal, n, params, arena)
        assert choice in legal[:n]
        seen.add(kind)
        for _ in range(3):
            T = redistribute(S, seat, P, rng)
            if T is None:
                continue
            moved += 1
            assert _decide(kind, seat, T, P, legal, n, params, arena) == choice, (k, kind)
        checked += 1
        if checked >= decisions:
            break
    assert checked >= decisions * 5 // 6 and moved > checked  # 100 of 120
    assert seen == set(kinds)


@pytest.mark.parametrize(
    ("must_trump", "must_beat"), [(True, True), (True, False), (False, True), (False, False)]
)
def test_worlds_keep_what_the_seat_has_seen(must_trump, must_beat):
    rules = load_rules("classic").replace(play__must_trump=must_trump, play__must_beat=must_beat)
    P = rules_vector(rules)
    scratch = np.zeros(8, dtype=np.int64)
    T = np.zeros(N_STATE, dtype=np.int64)
    seen = 0
    for _k, snap in decision_snapshots(rules, 30, 5, kinds=(Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        me = int(snap[SNAP_SEAT])
        for _ in range(5):
            sample_world(S, P, me, T, scratch)
            assert T[S_HAND0 + me] == S[S_HAND0 + me]
            others = [s for s in range(3) if s != me]
            for s in range(3):  # what play.reveal recorded is true of the real hands
                assert S[S_HAND0 + s] & S[S_NOT0 + s] == 0
            union = 0
            for s in others:
                # each hand keeps its size and holds nothing it has shown it lacks
                assert bin(T[S_HAND0 + s]).count("1") == bin(S[S_HAND0 + s]).count("1")
                assert T[S_HAND0 + s] & S[S_NOT0 + s] == 0
                union |= int(T[S_HAND0 + s])
            # the same unseen cards, none played
            real = int(S[S_HAND0 + others[0]] | S[S_HAND0 + others[1]])
            assert union == real and union & int(S[S_PLAYED]) == 0
            seen += 1
    assert seen > 500


def test_worlds_are_uniform_where_nothing_is_known():
    # the declarer at the first lead: the 16 unseen cards split 8/8; the two it gave
    # away are where it put them, each other lands with either defender with
    # probability 1/2 (tolerance 5 standard errors)
    rules = load_rules("classic")
    P = rules_vector(rules)
    for _k, snap in decision_snapshots(rules, 3, 9, kinds=(Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        if bin(int(S[S_PLAYED])).count("1") == 0:
            break
    me = int(S[S_DECL])
    other = next(s for s in range(3) if s != me)
    scratch = np.zeros(8, dtype=np.int64)
    T = np.zeros(N_STATE, dtype=np.int64)
    n = 4000
    hits = np.zeros(24)
    for _ in range(n):
        sample_world(S, P, me, T, scratch)
        hits += [(int(T[S_HAND0 + other]) >> c) & 1 for c in range(24)]
    gave = {int(S[S_GIVE1]), int(S[S_GIVE1 + 1])}
    unseen = [c for c in range(24) if not (int(S[S_HAND0 + me]) >> c) & 1 and c not in gave]
    assert len(unseen) == 14
    se = np.sqrt(0.25 / n)
    for c in unseen:
        assert abs(hits[c] / n - 0.5) < 5 * se, c
    for c in gave:  # where the declarer put it
        holder = other if (int(S[S_HAND0 + other]) >> c) & 1 else None
        assert hits[c] == (n if holder is not None else 0)


def test_pimc_plays_whole_deals_and_runs_are_chunk_independent():
    # the engine plays a sampling player's slots in blocks of 8, each with its own
    # workspace (solver table): slots 5.. split at other places in b than in a
    rules = load_rules("classic")
    a = play_hands(rules, 20, 4, ("pimc", "heuristic", "heuristic"), ["pimc.worlds=3"])
    b = play_hands(rules, 15, 4, ("pimc", "heuristic", "heuristic"), ["pimc.worlds=3"], start=5)
    assert (a.out[5:] == b.out).all()
    assert (a.column("error") == 0).all()


def test_the_cheater_sees_the_true_deal():
    # its one world is the deal itself: the same choices as pimc given that world
    rules = load_rules("classic")
    P = rules_vector(rules)
    cheat = parse_params(["cheater"] * 3, [])[0]
    scratch = np.zeros(8, dtype=np.int64)
    T = np.zeros(N_STATE, dtype=np.int64)
    for _k, snap in decision_snapshots(rules, 4, 2, kinds=(Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        sample_world(S, P, int(snap[SNAP_SEAT]), T, scratch, True)
        assert (T == S).all()
    batch = play_hands(rules, 4, 1, ("cheater", "heuristic", "heuristic"))
    assert (batch.column("error") == 0).all()
    from sim.engine.strategies.registry import StrategyError

    with pytest.raises(StrategyError, match="fixed at 1"):
        parse_params(["cheater"] * 3, ["cheater.open=0"])
    assert cheat[WORLDS] == 1


def test_worlds_parameter_is_checked():
    from sim.engine.strategies.registry import StrategyError

    with pytest.raises(StrategyError, match="worlds"):
        parse_params(["pimc"] * 3, ["pimc.worlds=0"])
    assert parse_params(["pimc"] * 3, ["pimc.worlds=7"])[0, WORLDS] == 7
    for bad, says in (
        ("pimc.bid_worlds=0", "bid_worlds must be a whole number"),
        ("pimc.discard_worlds=2.5", "discard_worlds must be a whole number"),
        ("pimc.bid_worlds=201", "bid_worlds must be a whole number"),
        ("cheater.bid_worlds=0", "bid_worlds must be a whole number"),
        ("pimc.bid=2", "bid must be 0 or 1"),
        ("pimc.discard=4", "discard must be 0, 1, 2 or 3"),
        ("pimc.read_bids=0.5", "read_bids must be 0 or 1"),
        ("cheater.discard_worlds=4", "fixed at 1"),
    ):
        with pytest.raises(StrategyError, match=says):
            parse_params(["pimc"] * 3 if bad.startswith("pimc") else ["cheater"] * 3, [bad])
    assert S_CONTRACT  # the contract slot the player reads


@pytest.mark.parametrize(
    "preset", ["classic", pytest.param("ukraine_online", marks=pytest.mark.slow)]
)
def test_contract_by_probes_is_the_best_expected_score_over_exact_totals(preset):
    # pimc_contract probes each world at the contracts' targets; the same worlds solved
    # exactly must give the same counts, so the same contract
    from sim.engine.params import P_STEP
    from sim.engine.search import declarer_total, exact, new_position, set_root, solver_view
    from sim.engine.state import S_PIMC_CTR
    from sim.engine.strategies.pimc.probes import _play_start, least_total

    rules = load_rules(preset)
    P = rules_vector(rules)
    worlds = 6
    params = parse_params(["pimc"] * 3, [f"pimc.worlds={worlds}"])[0]
    arena = np.zeros(arena_size(14), dtype=np.int64)
    C = solver_view(arena)
    checked = raised = 0
    for _k, snap in decision_snapshots(rules, 50, 23, kinds=(Decision.CONTRACT,)):
        S = snap[:N_STATE].copy()
        lo, n = int(snap[SNAP_LEGAL]), int(snap[SNAP_N])
        choice = pimc_contract(S.copy(), P, arena, lo, n, params)
        totals = []
        W = S.copy()
        T = np.zeros(N_STATE, dtype=np.int64)
        scratch = np.zeros(8, dtype=np.int64)
        for _w in range(worlds):
            sample_world(W, P, int(S[S_DECL]), T, scratch, False, True)  # read_bids, the default
            _play_start(T, -1)
            new_position(C)
            set_root(C, T)
            totals.append(declarer_total(S, P) + exact(C, P, 0))
        assert W[S_PIMC_CTR] != S[S_PIMC_CTR]  # the worlds came from the player's stream
        scores = []
        for k in range(n):
            c = lo + k * int(P[P_STEP])
            made = sum(t >= least_total(c, P) for t in totals)
            scores.append(c * (2 * made - worlds))
        assert choice == lo + int(np.argmax(scores)) * int(P[P_STEP]), (totals, scores)
        checked += 1
        raised += choice > lo
        if checked >= 25:
            break
    assert checked >= 20 and raised > 0


@sizes(60, 200, "deals")
@pytest.mark.parametrize("preset", ["classic", "ukraine_online"])
def test_the_pruned_contract_and_concession_equal_counting_every_world(preset, deals):
    # best_contract drops contracts that can no longer be the best and plays_on stops
    # once half the worlds are made (or cannot be): the same choice as counting every
    # contract in every world, and the stream left where counting leaves it
    from sim.engine.search import solver_view
    from sim.engine.state import S_CONTRACT, S_PIMC_CTR
    from sim.engine.strategies.pimc.probes import (
        _best_score,
        _made_counts,
        best_contract,
        plays_on,
    )

    rules = load_rules(preset).replace(rospis__no_subtract=True)
    P = rules_vector(rules)
    arena = np.zeros(arena_size(14), dtype=np.int64)
    C = solver_view(arena)
    made = np.zeros(64, dtype=np.int64)
    contracts = concessions = raised = conceded = 0
    for worlds in (5, 16):
        params = parse_params(["pimc"] * 3, [f"pimc.worlds={worlds}"])[0]
        kinds = (Decision.CONTRACT, Decision.CONCEDE)
        for _k, snap in decision_snapshots(rules, deals, 41 + worlds, kinds=kinds):
            S = snap[:N_STATE].copy()
            A, B = S.copy(), S.copy()
            if int(snap[SNAP_KIND]) == Decision.CONTRACT:
                lo, n = int(snap[SNAP_LEGAL]), int(snap[SNAP_N])
                _made_counts(A, P, C, lo, n, made, params)
                want = _best_score(lo, n, made, worlds, P)[0]
                assert best_contract(B, P, C, lo, n, params) == want
                contracts += 1
                raised += want > lo
            else:
                _made_counts(A, P, C, int(S[S_CONTRACT]), 1, made, params)
                want = 2 * made[0] >= worlds
                assert plays_on(B, P, C, params, 0.5) == want
                concessions += 1
                conceded += not want
            assert A[S_PIMC_CTR] == B[S_PIMC_CTR] != S[S_PIMC_CTR]
    assert contracts >= 30 and raised > 0 and concessions >= 10 and conceded > 0


@sizes(22, 60, "most")
def test_the_discard_weighs_the_heuristics_cheapest_cards(most):
    from sim.engine.strategies.discard import DISCARD_CANDIDATES, discard_cost

    rules = load_rules("classic")
    P = rules_vector(rules)
    params = parse_params(["pimc"] * 3, ["pimc.discard_worlds=4"])[0]
    arena = np.zeros(arena_size(14), dtype=np.int64)
    checked = other = 0
    for _k, snap in decision_snapshots(rules, 30, 29, kinds=(Decision.DISCARD,)):
        S = snap[:N_STATE].copy()
        hand = int(S[S_HAND0 + int(S[S_DECL])])
        cards = [c for c in range(24) if hand >> c & 1]
        shortlist = sorted(cards, key=lambda c: discard_cost(hand, c, P))[:DISCARD_CANDIDATES]
        choice = pimc_discard(S.copy(), P, arena, params)
        assert choice in shortlist
        other += choice != shortlist[0]
        checked += 1
        if checked == most:
            break
    assert checked >= 20
    assert other > 0  # it does not always give what the heuristic gives


def test_discard_2_gives_strongs_card_with_three_hands_and_samples_with_two():
    from sim.engine.strategies.pimc import pimc_give
    from sim.engine.strategies.strong_discard import strong_discard

    params = parse_params(["pimc"], ["pimc.discard=2", "pimc.discard_worlds=3"])[0]
    sampled = parse_params(["pimc"], ["pimc.discard=1", "pimc.discard_worlds=3"])[0]
    arena = np.zeros(arena_size(14), dtype=np.int64)
    for preset, deals in (("classic", 40), ("two_players", 12)):
        rules = load_rules(preset)
        P = rules_vector(rules)
        checked = 0
        for _k, snap in decision_snapshots(rules, deals, 31, kinds=(Decision.DISCARD,)):
            S = snap[:N_STATE]
            got = pimc_give(S.copy(), P, arena, params)
            if rules.players == 3:
                assert got == strong_discard(S.copy(), P)
            else:  # fitted on three hands: the sampled worlds decide, as with discard=1
                assert got == pimc_give(S.copy(), P, arena, sampled)
            checked += 1
        assert checked >= 6


def test_discard_3_values_the_hand_each_card_leaves_by_the_contract_network():
    # each of the heuristic's cheapest cards is given (the second give, if one is left,
    # as the heuristic makes it) and the hand left gets the network's best contract value
    from sim.engine.state import S_GIVE1, S_GIVE2
    from sim.engine.strategies.discard import DISCARD_CANDIDATES, cheapest_of_hand, discard_cost
    from sim.engine.strategies.learned import contract_reach
    from sim.engine.strategies.pimc import pimc_give
    from sim.engine.talon import contract_range

    params = parse_params(["pimc"], ["pimc.discard=3", "pimc.discard_worlds=3"])[0]
    arena = np.zeros(arena_size(14), dtype=np.int64)
    rng = np.random.default_rng(5)
    for preset, deals in (("classic", 40), ("two_players", 12)):
        rules = load_rules(preset)
        P = rules_vector(rules)
        checked = not_first = 0
        for _k, snap in decision_snapshots(rules, deals, 37, kinds=(Decision.DISCARD,)):
            S = snap[:N_STATE]
            got = pimc_give(S.copy(), P, arena, params)
            decl = int(S[S_DECL])
            hand = int(S[S_HAND0 + decl])
            cards = sorted((c for c in range(24) if hand >> c & 1), key=lambda c: (
                discard_cost(hand, c, P), c))[:DISCARD_CANDIDATES]  # fmt: skip
            values = []
            for card in cards:
                T = S.copy()
                kept = hand & ~(1 << card)
                if T[S_GIVE1] < 0:
                    T[S_GIVE1] = card
                    if rules.players == 3:  # with two players one card is given
                        later = cheapest_of_hand(kept, P)
                        kept &= ~(1 << later)
                        T[S_GIVE2] = later
                else:
                    T[S_GIVE2] = card
                T[S_HAND0 + decl] = kept
                lo, count = contract_range(T, P)
                amounts = [lo + 5 * k for k in range(count)]
                values.append(max(c * (2 * contract_reach(T, P, c) - 1) for c in amounts))
            assert got == cards[int(np.argmax(values))]
            not_first += got != cards[0]
            for _ in range(2):  # the cards it cannot see change nothing
                U = redistribute(S, decl, P, rng)
                if U is not None:
                    assert pimc_give(U, P, arena, params) == got
            checked += 1
        assert checked >= 6
        assert not_first > 0  # not always the heuristic's card


def test_tie_worlds_limits_the_exact_tie_break_and_nothing_else():
    # as many as the worlds: the default play, draw for draw; one world: the ties are
    # broken on less, so some card changes
    from sim.engine.state import S_PIMC_CTR

    rules = load_rules("classic")
    P = rules_vector(rules)
    arena = np.zeros(arena_size(14), dtype=np.int64)
    exact = ["pimc.worlds=4", "pimc.tie_net=0"]  # ties by exact totals
    every = parse_params(["pimc"], exact)[0]
    as_many = parse_params(["pimc"], [*exact, "pimc.tie_worlds=4"])[0]
    one = parse_params(["pimc"], [*exact, "pimc.tie_worlds=1"])[0]
    checked = changed = 0
    for _k, snap in decision_snapshots(rules, 30, 41, kinds=(Decision.PLAY,)):
        S = snap[:N_STATE]
        n = int(snap[SNAP_N])
        if n < 2:
            continue
        legal, seat = snap[SNAP_LEGAL : SNAP_LEGAL + n], int(snap[SNAP_SEAT])
        A, B, C = S.copy(), S.copy(), S.copy()
        a = _decide(Decision.PLAY, seat, A, P, legal, n, every, arena)
        assert _decide(Decision.PLAY, seat, B, P, legal, n, as_many, arena) == a
        assert A[S_PIMC_CTR] == B[S_PIMC_CTR]
        c = _decide(Decision.PLAY, seat, C, P, legal, n, one, arena)
        assert c in legal
        changed += c != a
        checked += 1
    assert checked >= 40 and changed > 0


def _counts_in_every_world(S, P, seat, n, worlds, arena):
    """Every move of ``seat`` probed in each of ``worlds`` sampled worlds (as pimc samples).

    Returns ``(made, codes, W)``: the worlds where the declarer still reaches the contract
    after each of the ``n`` moves (all 0 when it is made already), the moves' codes in
    that order, and a copy of ``S`` whose world stream moved on as pimc's would.
    """
    from sim.engine.search import declarer_total, new_position, root_probes, solver_view
    from sim.engine.strategies.pimc import least_total

    C = solver_view(arena)
    T = np.zeros(N_STATE, dtype=np.int64)
    scratch = np.zeros(8, dtype=np.int64)
    out = np.zeros((32, 2), dtype=np.int64)
    everything = np.ones(32, dtype=np.int64)
    need = least_total(int(S[S_CONTRACT]), P) - declarer_total(S, P)
    made = np.zeros(n, dtype=np.int64)
    W = S.copy()
    if need > 0:
        for _w in range(worlds):
            sample_world(W, P, seat, T, scratch, False, True)  # pimc.read_bids=1, the default
            new_position(C)
            root_probes(C, P, T, need, out, everything)
            made += out[:n, 1]
    return made, out[:n, 0].copy(), W


def test_card_play_by_counts_equals_probing_every_move_in_every_world():
    # pimc_play stops searching moves that can no longer win; where the counts of all
    # moves over all worlds have one best move, its choice and its stream agree with them
    from sim.engine.search import declarer_total
    from sim.engine.state import S_PIMC_CTR
    from sim.engine.strategies.pimc import least_total

    rules = load_rules("classic")
    P = rules_vector(rules)
    worlds = 8
    params = parse_params(["pimc"] * 3, [f"pimc.worlds={worlds}"])[0]
    arena = np.zeros(arena_size(14), dtype=np.int64)
    unique = 0
    for _k, snap in decision_snapshots(rules, 30, 31, ("heuristic",) * 3, (Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        need = least_total(int(S[S_CONTRACT]), P) - declarer_total(S, P)
        if n < 2 or need <= 0:
            continue
        made, codes, W = _counts_in_every_world(S, P, seat, n, worlds, arena)
        best = made.max() if seat == S[S_DECL] else made.min()
        if (made == best).sum() != 1:
            continue  # a tie: decided by mean totals, not by the counts
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + n]
        T2 = S.copy()
        choice = _decide(Decision.PLAY, seat, T2, P, legal, n, params, arena)
        assert choice == codes[int(np.flatnonzero(made == best)[0])]
        assert T2[S_PIMC_CTR] == W[S_PIMC_CTR]
        unique += 1
    assert unique >= 20


def test_tie_net_breaks_a_tie_of_counts_by_strongs_card_among_the_tied_moves():
    # pimc.tie_net=1: where moves make the contract in as many worlds, the card is
    # strong's among them (its fitted scores), counted here over every move in every
    # world; with two hands strong's card net is not fitted and the exact tie-break stays
    from sim.engine.strategies.strong import strong_play

    worlds = 6
    arena = np.zeros(arena_size(14), dtype=np.int64)
    for preset, deals in (("classic", 30), ("two_players", 10)):
        rules = load_rules(preset)
        P = rules_vector(rules)
        net, exact = (
            parse_params(["pimc"], [f"pimc.worlds={worlds}", f"pimc.tie_net={t}"])[0]
            for t in (1, 0)
        )
        ties = differ = 0
        for _k, snap in decision_snapshots(rules, deals, 31, kinds=(Decision.PLAY,)):
            S = snap[:N_STATE].copy()
            seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
            if n < 2:
                continue
            legal = snap[SNAP_LEGAL : SNAP_LEGAL + n]
            made = _counts_in_every_world(S, P, seat, n, worlds, arena)[0]
            best = made.max() if seat == S[S_DECL] else made.min()
            tied = [int(c) for c, m in zip(legal, made, strict=True) if m == best]
            if len(tied) < 2:
                continue
            ties += 1
            got = _decide(Decision.PLAY, seat, S.copy(), P, legal, n, net, arena)
            by_exact = _decide(Decision.PLAY, seat, S.copy(), P, legal, n, exact, arena)
            if rules.players == 3:
                plain = sum(1 << c for c in tied if c < DECLARE)
                declaring = sum(1 << (c - DECLARE) for c in tied if c >= DECLARE)
                assert got == strong_play(seat, S.copy(), P, plain, declaring)
                differ += got != by_exact
            else:
                assert got == by_exact
        assert ties >= 10
        if rules.players == 3:
            assert differ > 0  # not the exact tie-break under another name


@pytest.mark.parametrize("preset", ["classic", "app", "only_declarer"])
def test_a_defender_declares_its_marriage_where_it_costs_nothing(preset):
    """The defender's own marriage counts in its choice (it scores for the defender).

    The open-card player (``cheater``: one world, the true deal) as a defender to lead,
    holding a marriage it may declare: where declaring leaves the declarer's exact
    total where the best plain card leaves it (and so the contract's fate), the
    defender declares; only the declarer's total counted, the tie went to the plain
    card (a defender's marriage declared some 40 % less often than the heuristic's).
    With ``marriage.only_declarer`` it scores nothing, and the tie stays plain.
    """
    from sim.engine.params import P_ONLY_DECLARER
    from sim.engine.search import exact, new_position, play_move, set_root, solver_view
    from sim.engine.state import S_NPLAYED

    if preset == "only_declarer":
        rules = load_rules("classic").replace(marriage__only_declarer=True)
    else:
        rules = load_rules(preset)
    P = rules_vector(rules)
    scores = not P[P_ONLY_DECLARER]
    cheat = parse_params(["cheater"] * 3, [])[0]
    arena = np.zeros(arena_size(14), dtype=np.int64)
    C = solver_view(arena)
    checked = 0
    for _k, snap in decision_snapshots(rules, 300, 19, ("heuristic",) * 3, (Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = [int(c) for c in snap[SNAP_LEGAL : SNAP_LEGAL + n]]
        if seat == S[S_DECL] or S[S_NPLAYED] != 0 or not any(c >= DECLARE for c in legal):
            continue
        totals = {}
        for code in legal:  # the declarer's exact total after each lead, cards face up
            new_position(C)
            set_root(C, S)
            totals[code] = play_move(C, P, 0, code) + exact(C, P, 1)
        plain = min(totals[c] for c in legal if c < DECLARE)
        declaring = min(totals[c] for c in legal if c >= DECLARE)
        if plain != declaring:
            continue  # declaring changes the declarer's total: not this test's case
        choice = _decide(Decision.PLAY, seat, S.copy(), P, np.array(legal), n, cheat, arena)
        assert (choice >= DECLARE) == scores, (preset, _k, legal, choice)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("preset", ["classic", "two_players", "four_players", "ukraine_online"])
def test_what_each_seat_played_and_showed_holds_in_the_true_deal(preset):
    """``played_by`` rebuilds each seat's played cards from the tricks, and the real
    hands always agree with what the auction showed of them (``shown_cap``)."""
    from sim.engine.state import S_AFTER0, S_DEALT0, S_PLAYED
    from sim.engine.strategies.pimc import bids_agree, played_by, shown_cap

    rules = load_rules(preset)
    P = rules_vector(rules)
    uncapped = rules_vector(rules.replace(bid__cap_by_marriages=False))
    NP = 2 if rules.players == 2 else 3
    shown = 0
    heuristic = ("heuristic",) * rules.players
    for _k, snap in decision_snapshots(rules, 60, 8, heuristic, (Decision.PLAY,)):
        S = snap[:N_STATE]
        decl = int(S[S_DECL])
        together = 0
        for s in range(NP):
            mine = played_by(S, P, s)
            assert mine & S[S_HAND0 + s] == 0 and together & mine == 0
            together |= mine
            held = S[S_HAND0 + s] | mine
            if s == decl:
                assert held == S[S_AFTER0 + s]  # the eight it kept
            else:  # the dealt seven and the card the declarer gave it
                given = int(S[S_GIVE1 + (s - decl) % NP - 1])
                assert held == S[S_DEALT0 + s] | ((1 << given) if given >= 0 else 0)
            need = shown_cap(S, P, s)
            assert bids_agree(int(S[S_HAND0 + s]), mine, need, P)
            assert shown_cap(S, uncapped, s) == 0  # bids not capped: they show nothing
            shown += need > 0
        assert together == S[S_PLAYED]
    if preset != "two_players":
        assert shown > 0  # some bid above 120 was made and checked


def test_worlds_agree_with_what_the_auction_showed():
    """A seat that bid above 120 (``bid.cap_by_marriages``) holds the marriages for it in
    every world; uniform deals of the unseen cards often would not."""
    from sim.engine.strategies.pimc import bids_agree, played_by, shown_cap

    rules = load_rules("classic")
    P = rules_vector(rules)
    scratch = np.zeros(8, dtype=np.int64)
    T = np.zeros(N_STATE, dtype=np.int64)
    rng = np.random.default_rng(3)
    constrained = uniform_disagree = 0
    for _k, snap in decision_snapshots(rules, 80, 12, ("heuristic",) * 3, (Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        me = int(snap[SNAP_SEAT])
        others = [s for s in range(3) if s != me and shown_cap(S, P, s) > 0]
        if not others:
            continue
        constrained += 1
        for _ in range(10):
            sample_world(S, P, me, T, scratch)
            for s in others:
                assert bids_agree(int(T[S_HAND0 + s]), played_by(S, P, s), shown_cap(S, P, s), P)
        U = redistribute(S, me, P, rng)  # the unseen cards dealt anew, facts ignored
        if U is not None:
            uniform_disagree += any(
                not bids_agree(int(U[S_HAND0 + s]), played_by(U, P, s), shown_cap(U, P, s), P)
                for s in others
            )
    assert constrained >= 20 and uniform_disagree > 0


@pytest.mark.parametrize(
    "preset", ["classic", pytest.param("ukraine_online", marks=pytest.mark.slow)]
)
def test_sampled_bid_is_the_expected_score_over_exact_totals(preset):
    # pimc.bid=1 bisects each world's contracts by probes; the same worlds solved
    # exactly must give the same highest contracts, so the same bid
    from sim.engine.actions import PASS
    from sim.engine.bidding import bid_cap
    from sim.engine.params import P_JUMPS, P_STEP
    from sim.engine.search import declarer_total, exact, new_position, set_root, solver_view
    from sim.engine.state import NO_SUIT, S_PIMC_CTR
    from sim.engine.strategies.pimc.probes import _play_start, least_total
    from sim.engine.strategies.pimc.worlds import _bid_world

    rules = load_rules(preset)
    P = rules_vector(rules)
    step = int(P[P_STEP])
    worlds, bias, margin = 6, 5, 35
    params = parse_params(
        ["pimc"] * 3,
        [
            "pimc.bid=1",
            f"pimc.bid_worlds={worlds}",
            f"pimc.bid_bias={bias}",
            f"pimc.bid_margin={margin}",
        ],
    )[0]
    arena = np.zeros(arena_size(14), dtype=np.int64)
    C = solver_view(arena)
    checked = raised = passed = 0
    for _k, snap in decision_snapshots(rules, 60, 31, ("heuristic",) * 3, (Decision.BID,)):
        S = snap[:N_STATE].copy()
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        lo = int(snap[SNAP_LEGAL + 1])  # pass, then the raises
        choice = pimc_bid_sampled(S.copy(), P, arena, seat, lo, n - 1, params)
        W = S.copy()
        T = np.zeros(N_STATE, dtype=np.int64)
        levels = []
        for _w in range(worlds):
            _bid_world(W, P, seat, T, False, True)  # pimc.read_bids=1, the default
            top = max(int(bid_cap(int(T[S_HAND0 + seat]), P)), lo)
            _play_start(T, NO_SUIT)
            new_position(C)
            set_root(C, T)
            total = declarer_total(T, P) + exact(C, P, 0)
            made = [
                k
                for k in range((top - lo) // step + 1)
                if total - bias >= least_total(lo + k * step, P)
            ]
            levels.append(max(made, default=-1))
        assert W[S_PIMC_CTR] != S[S_PIMC_CTR]  # the worlds came from the player's stream
        score = sum(lo + k * step if k >= 0 else -lo for k in levels)
        if score < margin * worlds:
            assert choice == PASS, (levels, score)
            passed += 1
            continue
        k = 0
        while P[P_JUMPS] and k + 1 < n - 1 and sum(x >= k + 1 for x in levels) >= 0.8 * worlds:
            k += 1
        assert choice == lo + k * step, (levels, choice)
        raised += 1
        checked += 1
        if checked >= 12:
            break
    assert raised >= 8 and passed >= 3


def test_bidding_worlds_agree_with_the_auction():
    """pimc.bid=1: a seat that bid above 120 (``bid.cap_by_marriages``) holds the
    marriages for it in every world the bidder samples; uniform deals often would not."""
    from sim.engine.strategies.pimc.worlds import _bid_world, bid_shown_cap, bids_agree

    rules = load_rules("classic")
    P = rules_vector(rules)
    T = np.zeros(N_STATE, dtype=np.int64)
    rng = np.random.default_rng(5)
    constrained = uniform_disagree = 0
    for _k, snap in decision_snapshots(rules, 200, 12, kinds=(Decision.BID,)):
        S = snap[:N_STATE].copy()
        me = int(snap[SNAP_SEAT])
        others = [s for s in range(3) if s != me and bid_shown_cap(S, P, s) > 0]
        if not others:
            continue
        constrained += 1
        for _ in range(10):
            _bid_world(S, P, me, T, False)
            # its own cards kept, but the two it gave away
            assert bin(int(S[S_HAND0 + me] & ~T[S_HAND0 + me])).count("1") <= 2
            for s in others:
                assert bids_agree(int(T[S_HAND0 + s]), 0, bid_shown_cap(S, P, s), P)
        U = redistribute(S, me, P, rng)  # the unseen cards dealt anew, the auction ignored
        if U is not None:
            uniform_disagree += any(
                not bids_agree(int(U[S_HAND0 + s]), 0, bid_shown_cap(S, P, s), P) for s in others
            )
    assert constrained >= 15 and uniform_disagree > 0


def _heuristic_reads(S, P, seat, dealt):
    """The heuristic's bid rule, written out: what ``seat``'s bids say of its dealt hand."""
    from sim.engine.params import P_STEP
    from sim.engine.state import S_FOREHAND, S_MAXBID0, S_PASSED
    from sim.engine.strategies.hand_model import DEALT, hand_model, p_make

    mu, sigma = hand_model(dealt, P, DEALT)
    b = int(S[S_MAXBID0 + seat])
    if b > 100:
        return b * (2 * p_make(mu, sigma, b) - 1) >= 35
    middle = (int(S[S_FOREHAND]) + 1) % 3
    first_at_105 = seat == middle or (seat == (middle + 1) % 3 and S[S_MAXBID0 + middle] == 0)
    if b == 0 and int(S[S_PASSED]) >> seat & 1 and first_at_105:
        lo = 100 + int(P[P_STEP])
        return lo * (2 * p_make(mu, sigma, lo) - 1) < 35
    return True


def _defender_dealt(S, P, H, s):
    """Defender ``s``'s dealt hand where it holds ``H``'s hand: that, what it played, less
    the card the declarer gave it."""
    from sim.engine.strategies.pimc import played_by

    gift = int(S[S_GIVE1 + (s - int(S[S_DECL])) % 3 - 1])
    return (int(H[S_HAND0 + s]) | played_by(S, P, s)) & ~(1 << gift)


def test_read_bids_deals_hands_that_bid_as_their_seats_did():
    """pimc.read_bids: in every world the declarer samples (for the discard, the contract
    and its play), each defender's dealt hand (what it holds and played, less the card it
    was given) would have made its bids by the heuristic's rule; the true hands do, and
    uniform deals of the unseen cards often would not."""
    from sim.engine.strategies.pimc import reads_bids

    rules = load_rules("classic")
    P = rules_vector(rules)
    scratch = np.zeros(8, dtype=np.int64)
    T = np.zeros(N_STATE, dtype=np.int64)
    rng = np.random.default_rng(7)
    read = uniform_disagree = 0
    kinds = (Decision.CONTRACT, Decision.PLAY)
    for _k, snap in decision_snapshots(rules, 60, 21, ("heuristic",) * 3, kinds):
        S = snap[:N_STATE].copy()
        me = int(S[S_DECL])
        if int(snap[SNAP_SEAT]) != me or not reads_bids(S, P):
            continue
        defenders = [s for s in range(3) if s != me]
        for s in defenders:  # the rule is the heuristic's: its true hands agree
            assert _heuristic_reads(S, P, s, _defender_dealt(S, P, S, s))
        read += 1
        for _ in range(5):
            sample_world(S, P, me, T, scratch, False, True)
            for s in defenders:
                assert _heuristic_reads(S, P, s, _defender_dealt(S, P, T, s)), (s, _k)
        U = redistribute(S, me, P, rng)
        if U is not None:
            uniform_disagree += not all(
                _heuristic_reads(S, P, s, _defender_dealt(S, P, U, s)) for s in defenders
            )
        if read >= 60:
            break
    assert read >= 40 and uniform_disagree > 0


def test_read_bids_in_the_auction():
    """pimc.bid=1 with pimc.read_bids: the other seats' hands in each sampled deal would
    have made their bids so far by the heuristic's rule (their dealt hands, exactly)."""
    from sim.engine.strategies.pimc.worlds import _bid_world, reads_bids

    rules = load_rules("classic")
    P = rules_vector(rules)
    T = np.zeros(N_STATE, dtype=np.int64)
    checked = 0
    for _k, snap in decision_snapshots(rules, 80, 22, ("heuristic",) * 3, (Decision.BID,)):
        S = snap[:N_STATE].copy()
        me = int(snap[SNAP_SEAT])
        if not reads_bids(S, P):
            continue
        others = [s for s in range(3) if s != me]
        for s in others:
            assert _heuristic_reads(S, P, s, int(S[S_HAND0 + s]))
        for _ in range(5):
            _bid_world(S, P, me, T, False, True)
            gave = (int(S[S_HAND0 + me]) | int(T[S_TALON])) & ~int(T[S_HAND0 + me])
            for s in others:  # its seven dealt cards: the world's hand less what me gave it
                seven = int(T[S_HAND0 + s]) & ~gave
                assert bin(seven).count("1") == 7
                assert _heuristic_reads(S, P, s, seven)
        checked += 1
    assert checked >= 40


def test_a_forced_auction_is_not_read():
    # every hand as the declarer's (safe bids, the advisor): the other seats pass without
    # choosing, so their passes say nothing; the items are the same with and without
    # pimc.read_bids, while a played deal's auction is read
    from sim.engine.state import FLAG_FORCED_AUCTION, S_FLAGS
    from sim.engine.strategies.pimc import reads_bids
    from sim.runs.declarer import run_items

    rules = load_rules("classic")
    read = run_items(rules, "pimc", 12, 5, ["pimc.worlds=3", "pimc.discard_worlds=3"])
    unread = run_items(
        rules, "pimc", 12, 5, ["pimc.worlds=3", "pimc.discard_worlds=3", "pimc.read_bids=0"]
    )
    for col in ("total", "contract", "kept", "concede_from"):
        assert (read[col] == unread[col]).all(), col
    P = rules_vector(rules)
    for _k, snap in decision_snapshots(rules, 3, 8, ("heuristic",) * 3, (Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        assert reads_bids(S, P)
        S[S_FLAGS] |= FLAG_FORCED_AUCTION
        assert not reads_bids(S, P)
        break
