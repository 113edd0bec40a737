"""The open-card solver against the plain minimax and an unpruned compiled search.

* Endgames of 1–4 tricks, random hands, trump, leader, declarer and earlier
  declarations, under every preset and a seeded set of play-option mixes: the
  compiled solver's value and every lead's value equal :mod:`sim.reference.solver`
  (plain Python, the reference engine's rules, no pruning).
* Positions of 5–6 tricks and a few full deals: the solver equals
  :func:`sim.engine.search.exhaustive` (compiled, unpruned); the benchmark runs
  hundreds of full deals (``benchmarks/solver.py --check``).
* Probes agree with values; scenario tests pin what a defender's marriage does.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from support import PRESETS, sizes

from sim.cards import hand_mask, parse_card
from sim.engine import search
from sim.engine.actions import DECLARE
from sim.reference.solver import lead_values, minimax
from sim.rules import Rules, load_rules
from sim.solver.position import OpenCardSolver, Position, play_state

PLAY_OPTIONS = {
    "play.must_trump": (True, False),
    "play.must_beat": (True, False),
    "play.no_lead_foreign_trump": (True, False),
    "play.must_lead_trump": (True, False),
    "marriage.trump_from": ("this_trick", "next_trick"),
    "marriage.first_lead": (True, False),
    "marriage.changes_trump": (True, False),
    "marriage.requires_capture": (True, False),
    "marriage.only_declarer": (True, False),
    "marriage.ace": (True, False),
    "marriage.values": ("standard", "spades_high", "five_hundred_one"),
}


def option_mixes(n: int, seed: int = 11) -> list[dict[str, object]]:
    """``n`` seeded random settings of every play option (valid ones only)."""
    rng = np.random.default_rng(seed)
    out: list[dict[str, object]] = []
    while len(out) < n:
        mix = {k: v[int(rng.integers(len(v)))] for k, v in PLAY_OPTIONS.items()}
        if mix["marriage.ace"] and rng.integers(2):
            mix["marriage.ace_sets_trump"] = True
        out.append(mix)
    return out


MIXES = option_mixes(12)
CONFIGS = (
    [pytest.param(p, {}, id=p) for p in PRESETS]
    + [pytest.param("classic", m, id=f"mix{i}") for i, m in enumerate(MIXES)]
    + [pytest.param("two_players", m, id=f"2p-mix{i}") for i, m in enumerate(MIXES[:3])]
)


def rules_of(preset: str, mix: dict[str, object]) -> Rules:
    rules = load_rules(preset)
    return rules.replace(**{k.replace(".", "__"): v for k, v in mix.items()}) if mix else rules


def random_position(rng: np.random.Generator, rules: Rules, tricks: int) -> tuple:
    """A random trick start with ``tricks`` cards in each hand, and its plain form."""
    n = 2 if rules.players == 2 else 3
    deck = rng.permutation(24)
    hands = [sorted(int(c) for c in deck[i * tricks : (i + 1) * tricks]) for i in range(n)]
    rest = deck[n * tricks :]
    set_aside = sorted(int(c) for c in rest[:2]) if n == 2 and rng.integers(2) else []
    trump = int(rng.integers(-1, 4))
    declarer = int(rng.integers(n))
    kw = dict(
        declarer=declarer,
        leader=int(rng.integers(n)),
        trump=trump,
        trump_setter=int(rng.integers(n)) if trump >= 0 else -1,
        marriage_allowed=bool(rng.integers(4)),  # mostly past the first trick
        declared=int(rng.integers(32)) if rng.integers(3) == 0 else 0,
    )
    pos = Position(
        tuple(sum(1 << c for c in h) for h in hands),
        set_aside=sum(1 << c for c in set_aside),
        **kw,  # type: ignore[arg-type]
    )
    return pos, hands, set_aside, kw


def test_a_trump_another_seat_set_is_not_cashed_from_the_lead():
    # play.no_lead_foreign_trump: seat 2 holds the only spades (trump, set by the
    # declarer) but may not lead them; it leads J♣ and loses the lead, and the declarer
    # declares K♣ Q♣, which makes clubs trump. The bound once counted seat 2's spades
    # as sure tricks (found by the test above on a randomly seeded run: 38 against 40)
    rules = rules_of("classic", MIXES[4])
    assert rules.play.no_lead_foreign_trump and rules.marriage.changes_trump
    hands = [[12, 19, 21], [8, 9, 10], [1, 2, 7]]  # 9♦ J♥ K♥ / Q♣ K♣ 10♣ / J♠ Q♠ J♣
    kw = dict(declarer=1, leader=2, trump=0, trump_setter=1, marriage_allowed=False, declared=0)
    pos = Position(tuple(sum(1 << c for c in h) for h in hands), set_aside=0, **kw)  # type: ignore[arg-type]
    S, P = play_state(pos, rules)
    want = minimax(rules, hands, set_aside=[], **kw)
    assert want == 40
    assert OpenCardSolver(tt_bits=12).value(S, P) == want


@sizes((10, 12, 12, 2), (30, 40, 40, 6), "counts")  # positions of 1, 2, 3, 4 tricks
@pytest.mark.parametrize(("preset", "mix"), CONFIGS)
def test_endgames_equal_plain_minimax(preset: str, mix: dict[str, object], counts) -> None:
    rules = rules_of(preset, mix)
    # a stable seed per configuration (``hash`` of a string changes with every process)
    rng = np.random.default_rng(zlib.crc32(f"{preset} {sorted(mix.items())}".encode()))
    solver = OpenCardSolver(tt_bits=12)
    for k in [t for t, count in enumerate(counts, start=1) for _ in range(count)]:
        pos, hands, set_aside, kw = random_position(rng, rules, k)
        S, P = play_state(pos, rules)
        want = minimax(rules, hands, set_aside=set_aside, **kw)
        assert solver.value(S, P) == want, (pos, rules.players)
        if k <= 2:
            leads = lead_values(rules, hands, set_aside=set_aside, **kw)
            got = {m.code: m.value for m in solver.moves(S, P)}
            assert got == leads, pos
            # the probe agrees with the value on both sides of it
            assert solver.probe(S, P, want)
            assert not solver.probe(S, P, want + 1)


@sizes((8, 8, 6, 0), (12, 12, 12, 12), "counts")  # positions of 1, 2, 3, 4 tricks
@pytest.mark.parametrize(("preset", "mix"), CONFIGS)
def test_sure_points_bound_the_value(preset: str, mix: dict[str, object], counts) -> None:
    """What :func:`search.sure_points` calls sure holds: the declarer adds at least its
    sure points, and at most the upper bound less the defenders' sure points (the plain
    minimax's value), under every preset and option mix; and the bounds say something
    in a good share of the positions (so the check is not empty)."""
    rules = rules_of(preset, mix)
    rng = np.random.default_rng(zlib.crc32(f"{preset} sure {sorted(mix.items())}".encode()))
    said = 0
    positions = [t for t, count in enumerate(counts, start=1) for _ in range(count)]
    for k in positions:
        pos, hands, set_aside, kw = random_position(rng, rules, k)
        S, P = play_state(pos, rules)
        want = minimax(rules, hands, set_aside=set_aside, **kw)
        lb, cut = search.sure_points(S, P)
        assert lb >= 0 and cut >= 0
        assert lb <= want <= search.upper_bound(S, P) - cut, (pos, lb, cut, want)
        said += lb > 0 or cut > 0
    assert said >= len(positions) // 5, said


def test_sure_points_count_the_leaders_tricks_and_the_top_trumps() -> None:
    rules = load_rules("classic")
    # no trump and no marriage: the declarer on lead cashes AS TS and AC (the others
    # give at least their cheapest three cards)
    pos = Position(_hands("AS TS AC 9D", "9S JS 9C QD", "9H JH JC KD"), declarer=0, leader=0)
    S, P = play_state(pos, rules)
    assert search.sure_points(S, P) == (11 + 10 + 11 + (0 + 0 + 2) + (0 + 2 + 2), 0)
    # hearts trump: the defenders' AH beats every trump of the declarer's, and takes
    # one of its cards with it (the 9C at least)
    pos = Position(_hands("TH 9C", "AH 9S", "JS QS"), declarer=0, leader=1, trump=3, trump_setter=1)
    S, P = play_state(pos, rules)
    assert search.sure_points(S, P) == (0, 11 + 0)
    # spades trump: the declarer's AS wins a trick, with a card of each defender; it
    # cannot draw the two trumps of seat 2 with one, so it cashes nothing more
    pos = Position(_hands("AS KH", "QH 9S", "JS KS"), declarer=0, leader=0, trump=0, trump_setter=0)
    S, P = play_state(pos, rules)
    assert search.sure_points(S, P) == (11 + 0 + 2, 0)
    # the declarer on lead holds the hearts marriage: not declarable on the first
    # trick (nothing sure: it cannot draw the defenders' trumps), then 100 at once
    pos = Position(_hands("KH QH", "AS 9S", "JS TS"), declarer=0, leader=0, trump=0)
    S, P = play_state(pos, rules)
    assert search.sure_points(S, P) == (0, 0)
    pos = Position(
        _hands("KH QH", "AS 9S", "JS TS"), declarer=0, leader=0, trump=0, marriage_allowed=True
    )
    S, P = play_state(pos, rules)
    assert search.sure_points(S, P) == (100, 0)
    # a marriage in a hand not on lead may change trump once that hand leads: only
    # what the leader cashes first is sure (the AS, not the AH: seat 2 keeps a trump)
    pos = Position(_hands("AS AH", "KH QH", "JS TS"), declarer=0, leader=0, trump=0)
    S, P = play_state(pos, rules)
    assert search.sure_points(S, P) == (11 + 3 + 2, 0)
    pos = Position(_hands("9S AH", "KH QH", "JS TS"), declarer=0, leader=0, trump=0)
    S, P = play_state(pos, rules)
    assert search.sure_points(S, P) == (0, 0)
    # the marriage is on lead and may change trump: the declarer's AS is not sure, unless
    # with ``marriage.changes_trump`` off a trump once set stays
    pos = Position(_hands("AS 9H", "KH QH", "JS TS"), declarer=0, leader=1, trump=0)
    S, P = play_state(pos, rules)
    assert search.sure_points(S, P) == (0, 0)
    S, P = play_state(pos, rules.replace(marriage__changes_trump=False))
    assert search.sure_points(S, P) == (11 + 3 + 2, 0)


@pytest.mark.parametrize("preset", ["classic", "ukraine_online", "two_players"])
def test_deeper_positions_equal_unpruned_search(preset: str) -> None:
    rules = load_rules(preset)
    rng = np.random.default_rng(5)
    solver = OpenCardSolver(tt_bits=14)
    memo_keys = np.zeros((1 << 18, 4), dtype=np.int64)
    memo_vals = np.zeros(1 << 18, dtype=np.int64)
    for k in [5] * 12 + [6] * 6:
        pos, *_ = random_position(rng, rules, k)
        S, P = play_state(pos, rules)
        memo_keys[:] = 0
        want = search.exhaustive(solver.ws, P, S, memo_keys, memo_vals)
        assert solver.value(S, P) == want, pos


@pytest.mark.slow
def test_full_deals_equal_unpruned_search() -> None:
    rules = load_rules("classic")
    rng = np.random.default_rng(8)
    solver = OpenCardSolver()
    memo_keys = np.zeros((1 << 22, 4), dtype=np.int64)
    memo_vals = np.zeros(1 << 22, dtype=np.int64)
    for _ in range(2):
        deck = rng.permutation(24)
        hands = tuple(sum(1 << int(c) for c in deck[i * 8 : (i + 1) * 8]) for i in range(3))
        S, P = play_state(Position(hands, declarer=0, leader=0), rules)
        memo_keys[:] = 0
        assert solver.value(S, P) == search.exhaustive(solver.ws, P, S, memo_keys, memo_vals)


@pytest.mark.parametrize("preset", ["classic", "two_players"])
def test_the_value_probed_from_any_guess_is_the_exact_value(preset: str) -> None:
    """``exact`` from a guess (MTD(f)) equals the minimax value whatever the guess:
    far below, at, near and above it, past the upper bound; with a fresh table and with
    one kept from the earlier probes (as the sampling player's tie-break keeps it)."""
    rules = load_rules(preset)
    rng = np.random.default_rng(21)
    solver = OpenCardSolver(tt_bits=12)
    C = solver.ws
    for k in [2] * 6 + [3] * 6 + [4] * 4:
        pos, hands, set_aside, kw = random_position(rng, rules, k)
        S, P = play_state(pos, rules)
        want = minimax(rules, hands, set_aside=set_aside, **kw)
        search.new_position(C)
        for guess in (0, max(want - 7, 0), want, want + 1, want + 13, 400):
            search.set_root(C, S)
            assert search.exact(C, P, 0, guess) == want, (pos, guess)
            search.new_position(C)  # and from an empty table
            search.set_root(C, S)
            assert search.exact(C, P, 0, guess) == want, (pos, guess)


@pytest.mark.parametrize("preset", ["classic", "two_players"])
def test_a_probe_that_goes_on_to_the_value_gives_it_or_minus_one(preset: str) -> None:
    """``value_from(target)`` is the minimax value when it reaches ``target`` and -1
    when it does not: targets below, at, one past and far past the value, with the
    table kept from the probes before and fresh."""
    rules = load_rules(preset)
    rng = np.random.default_rng(23)
    solver = OpenCardSolver(tt_bits=12)
    for k in [2] * 5 + [3] * 5 + [4] * 3:
        pos, hands, set_aside, kw = random_position(rng, rules, k)
        S, P = play_state(pos, rules)
        want = minimax(rules, hands, set_aside=set_aside, **kw)
        for target in (0, max(want - 5, 1), want, want + 1, want + 20):
            got = want if target <= want else -1
            assert solver.value_from(S, P, target, keep=True) == got, (pos, target)
            assert solver.value_from(S, P, target) == got, (pos, target)


def test_a_search_past_its_node_limit_gives_up_and_leaves_the_table_sound() -> None:
    rules = load_rules("classic")
    rng = np.random.default_rng(11)
    solver = OpenCardSolver(tt_bits=14)
    fresh = OpenCardSolver(tt_bits=14)
    C = solver.ws
    for _ in range(5):
        deck = rng.permutation(24)
        hands = tuple(sum(1 << int(c) for c in deck[i * 8 : (i + 1) * 8]) for i in range(3))
        S, P = play_state(Position(hands, declarer=0, leader=0), rules)
        search.new_position(C)
        search.set_root(C, S)
        C.meta[search.M_LIMIT] = C.meta[search.M_NODES] + 50
        assert search.exact(C, P, 0) == search.GAVE_UP
        assert C.meta[search.M_NODES] > C.meta[search.M_LIMIT]
        C.meta[search.M_LIMIT] = 0
        search.set_root(C, S)  # the same generation: what the cut search stored is kept
        assert search.exact(C, P, 0) == fresh.value(S, P)


@pytest.mark.parametrize("bits", [1, 5, 12, 14])
def test_the_table_has_a_power_of_two_entries_whatever_the_alignment(bits: int) -> None:
    """The words left over by the table's alignment make no extra entry: the slot mask
    would otherwise not be all ones and fold the table onto a few slots."""
    for pad in range(8):  # every offset of the arena's start from a cache line
        arena = np.zeros(search.arena_size(bits) + pad, dtype=np.int64)[pad:]
        C = search.solver_view(arena)
        assert C.tt.shape == (1 << bits, search.T_WORDS)
        assert C.meta[search.M_TT_MASK] == (1 << bits) - 1
        assert C.tt.ctypes.data % 64 == 0


def test_a_table_entry_keeps_its_bounds_move_and_generation() -> None:
    """Each entry packs the key, both bounds, the best lead and the generation's tag in
    two words: after a solve, the root's entry holds bounds around its value and one of
    its leads (the move tried first next time), and it does not match in the next
    generation."""
    rules = load_rules("classic")
    rng = np.random.default_rng(5)
    solver = OpenCardSolver(tt_bits=14)
    C = solver.ws
    for _ in range(4):
        S, P = play_state(random_position(rng, rules, 8)[0], rules)
        value = solver.value(S, P)
        leads = {m.code for m in solver.moves(S, P)}
        assert solver.value(S, P) == value
        root = search._key(S, P)
        slot = search._slot(*root, C.meta[search.M_TT_MASK])
        assert search._tt_match(C, slot, *root)
        data = C.tt[slot, search.T_DATA]
        assert search._tt_lo(data) <= value <= search._tt_hi(data)
        assert (data >> search.T_MOVE_SHIFT & 63) in leads
        assert np.count_nonzero(C.tt[:, search.T_KEY]) > 100
        search.new_position(C)
        assert not search._tt_match(C, slot, *root)


def test_the_generations_tag_wraps_with_the_table_emptied() -> None:
    """Past 4096 generations the tag repeats: the table is emptied then, so a search
    4096 generations later finds no entry of the old one (the same nodes as fresh)."""
    rules = load_rules("classic")
    rng = np.random.default_rng(9)
    solver = OpenCardSolver(tt_bits=12)
    fresh = OpenCardSolver(tt_bits=12)
    C = solver.ws
    S, P = play_state(random_position(rng, rules, 6)[0], rules)
    value = solver.value(S, P)
    assert np.count_nonzero(C.tt) > 0
    assert C.meta[search.M_GEN] == 1
    C.meta[search.M_GEN] = search.TAG_MASK
    search.new_position(C)  # generation 4096: the tag wraps to 0, the table is emptied
    assert np.count_nonzero(C.tt) == 0
    n0 = solver.nodes
    assert solver.value(S, P) == value  # generation 4097: the first one's tag again
    n1 = fresh.nodes
    assert fresh.value(S, P) == value
    assert solver.nodes - n0 == fresh.nodes - n1


def _hands(*texts: str) -> tuple[int, ...]:
    return tuple(hand_mask(t) for t in texts)


def test_a_defenders_marriage_changes_trump_and_scores_nothing_for_the_declarer() -> None:
    # Defender 1 leads from its heart marriage; the declarer's AH takes the trick
    # (KH + JH + AH = 17). Declared, hearts are trump and defender 1 ruffs the AS
    # with its last heart; led plainly, the AS takes the last trick too (+14).
    rules = load_rules("classic")
    pos = Position(_hands("AH AS", "KH QH", "JH 9S"), declarer=0, leader=1, marriage_allowed=True)
    S, P = play_state(pos, rules)
    solver = OpenCardSolver()
    moves = {m.code: m.value for m in solver.moves(S, P)}
    kh, qh = parse_card("KH"), parse_card("QH")
    assert moves == {kh: 31, qh: 31, DECLARE + qh: 16, DECLARE + kh: 17}
    assert solver.value(S, P) == 16  # the defenders' 100 is not the declarer's


def test_only_declarer_and_requires_capture_change_the_declarers_marriage() -> None:
    pos = Position(_hands("KS QS", "AS 9S", "TS JS"), declarer=0, leader=0, marriage_allowed=True)
    classic = load_rules("classic")
    S, P = play_state(pos, classic)
    # KS! scores 40 at once; the ace and ten then take both tricks: 40 only
    assert OpenCardSolver().value(S, P) == 40
    capture = classic.replace(marriage__requires_capture=True)
    S, P = play_state(pos, capture)
    # under requires_capture the declarer never captures KS or QS: nothing counts
    assert OpenCardSolver().value(S, P) == 0


def test_two_players_last_trick_takes_the_set_aside_talon() -> None:
    rules = load_rules("two_players")
    pos = Position(_hands("AS", "9S"), declarer=0, leader=0, set_aside=hand_mask("TH AH"))
    S, P = play_state(pos, rules)
    assert OpenCardSolver().value(S, P) == 11 + 0 + 21
    pos = Position(_hands("9S", "AS"), declarer=0, leader=0, set_aside=hand_mask("TH AH"))
    S, P = play_state(pos, rules)
    assert OpenCardSolver().value(S, P) == 0


@pytest.mark.parametrize(
    ("hands", "error"),
    [
        (("AS", "AS", "9S"), "given twice"),
        (("AS TS", "9S", "JS"), "one size"),
        (("AS",), "2 or 3 hands"),
    ],
)
def test_bad_positions_name_the_culprit(hands: tuple[str, ...], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        Position(tuple(hand_mask(h) for h in hands)).check()


@pytest.mark.parametrize(
    ("round_declarer", "round_to", "mode"),
    [(False, 5, "nearest"), (True, 5, "nearest"), (True, 10, "nearest"), (True, 10, "up"),
     (True, 5, "up")],
)  # fmt: skip
def test_least_total_making_agrees_with_the_engines_rounding(round_declarer, round_to, mode):
    from sim.engine.params import rules_vector
    from sim.engine.scoring import round_score

    rules = load_rules("classic").replace(
        score__round_declarer=round_declarer, score__round_to=round_to, score__round_mode=mode
    )
    P = rules_vector(rules)
    for contract in range(100, 405, 5):
        least = rules.least_total_making(contract)
        for total in range(least - 12, least + 12):
            assert round_score(total, P) == rules.round_total(total)
            compared = round_score(total, P) if round_declarer else total
            assert (compared >= contract) == (total >= least), (contract, total)


@pytest.mark.parametrize(
    ("preset", "deals"),
    [("classic", 3), ("two_players", 2), ("five_hundred_one", 1), ("polish_two", 2)],
)
def test_the_par_is_the_best_of_every_discard_solved_alone(preset: str, deals: int) -> None:
    """:func:`solve_par` (probes against the best so far, one table per pick) equals
    solving every pick, discard and trump exactly on its own: the best value of each
    bid cap, and which discard holds it (ties: the first found); and
    :func:`best_value` equals the best of them. (``polish_two``: every pair laid away,
    its points banked before the play.)"""
    from sim.engine.bidding import bid_cap
    from sim.engine.params import rules_vector
    from sim.solver.position import lays_away
    from sim.solver.talon import _gives, after_discard, best_value, solve_par

    rules = load_rules(preset)
    lay = lays_away(rules)
    P = rules_vector(rules)
    rng = np.random.default_rng(31)
    n = rules.players
    size = 10 if n == 2 else 7
    for _ in range(deals):
        deck = [int(c) for c in rng.permutation(24)]
        hands = [sum(1 << c for c in deck[i * size : (i + 1) * size]) for i in range(n)]
        rest = deck[n * size :]
        talons = (
            [sum(1 << c for c in rest[:2]), sum(1 << c for c in rest[2:4])]
            if n == 2
            else [sum(1 << c for c in rest)]
        )
        want: dict[int, tuple[int, int, tuple[int, ...], int]] = {}
        names = range(4) if rules.trump.named_by_declarer else (-1,)
        fresh = OpenCardSolver()
        for t, talon in enumerate(talons):
            set_aside = talons[1 - t] if n == 2 else 0
            cards = [c for c in range(24) if (hands[0] | talon) >> c & 1]
            for gives in _gives(cards, n - 1, lay):
                for trump in names:
                    pos = after_discard(hands, talon, 0, gives, trump, set_aside, lay)
                    cap = int(bid_cap(pos.hands[0], P))
                    v = pos.banked + fresh.value(*play_state(pos, rules))
                    if cap not in want or v > want[cap][0]:
                        want[cap] = (v, t, gives, trump)
        solver = OpenCardSolver()
        par = solve_par(rules, hands, talons, 0, solver)
        got = {cap: (d.value, d.talon, d.gives, d.trump) for cap, d in par.by_cap.items()}
        assert got == want
        best = max(w[0] for w in want.values())
        assert par.best.value == best
        assert best_value(rules, hands, talons, 0, 0, solver) == best


@pytest.mark.parametrize(
    ("preset", "deals"),
    [("classic", 6), ("two_players", 3), ("five_hundred_one", 1), ("polish_two", 3)],
)
def test_the_par_summary_equals_the_full_par(preset: str, deals: int) -> None:
    """:func:`par_summary` (each discard probed only at what would change its answer)
    gives :func:`solve_par`'s best value and the highest level :meth:`Par.makes`, every
    level below it made too, at most the dealt hand's cap: for each seat as declarer."""
    from sim.engine.bidding import bid_cap
    from sim.engine.params import rules_vector
    from sim.runs.declarer import declarer_deals
    from sim.solver.talon import par_summary, solve_par

    rules = load_rules(preset)
    P = rules_vector(rules)
    n = 2 if rules.players == 2 else 3
    masks, decls = declarer_deals(deals, 57, rules.players)
    solver = OpenCardSolver()
    levels = rules.bid_levels()
    for row, decl in zip(masks.tolist(), decls.tolist(), strict=True):
        talons = (row[2], row[3]) if n == 2 else (row[3],)
        cap = int(bid_cap(row[decl], P))
        par = solve_par(rules, row[:n], talons, decl, solver)
        level = 0
        for L in levels:
            if L > cap or not par.makes(L, rules):
                break
            level = L
        assert par_summary(rules, row[:n], talons, decl, cap, solver) == (par.best.value, level)
