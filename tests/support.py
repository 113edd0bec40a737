"""What the tests share: the engines, the presets, the two tiers, the trace checks, and
one decision asked of any player; one module, imported one way (``from support import
...``: pytest puts ``tests/`` on the path).

* :data:`ENGINES`: the hand engines the rule scenarios run against (the reference and
  the fast one), each with the signature of :func:`sim.reference.play_hand_text`;
* :data:`PRESETS`, :data:`PRESETS_3P`: the shipped presets (docs/rules.md §13);
* :func:`sizes`: a test's quick size for ``make test`` and full size for ``make test-all``;
* :func:`check_deal`: an independent reading of the rules over one deal's trace;
* :func:`decide`, :func:`redistribute`, :func:`replay`: a player asked at a snapshot as
  the engine asks it, the cards a seat cannot see dealt anew, a deal's moves replayed
  through the reference engine (``tests/test_players_api.py``).
"""

from __future__ import annotations

import ctypes
import functools
import re
from collections.abc import Callable, Sequence
from html.parser import HTMLParser
from typing import Any

import numpy as np
import pytest

from sim import reference as ref
from sim.cards import RANK_POINTS, SUIT_LETTERS, parse_card
from sim.engine import play_hand_text as fast_play_hand_text
from sim.engine.actions import DECLARE, MAX_REDEALS, PASS, REDEAL_STRIDE, Decision
from sim.engine.choose import own_decision
from sim.engine.deal import ritual_on
from sim.engine.params import P_DISCARD_FACE_DOWN, P_NP, P_TWO_PLAYERS, TWO_DISCARD
from sim.engine.reshuffle import AFTER_REASONS, HAND_REASONS, TALON_REASONS
from sim.engine.state import (
    S_AFTER0,
    S_CAPT0,
    S_DEALT0,
    S_DECL,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
    S_PLAYED,
    S_RNG,
    S_RNG_CTR,
    S_TALON,
    S_TALON_OTHER,
    S_TALON_PICK,
    S_TIEBREAK,
    S_VOID0,
)
from sim.engine.strategies.hook import LIST, MASKS, RANGE
from sim.players import PLAYERS
from sim.rng import bounded
from sim.rules import Rules, load_rules, preset_names

# --- The engines, the presets, the tiers ---

ENGINES: dict[str, Callable[..., dict[str, Any]]] = {
    "reference": ref.play_hand_text,
    "fast": fast_play_hand_text,
}
"""Each hand engine by name: ``play(rules, hands, talon, dealer, **kw) -> trace``, where
``kw`` holds ``script``, ``strategies``, ``seed``, ``deal_id``, ``attempt``, ``scores``
and ``barrel`` as :func:`sim.reference.play_hand` takes them, and the result is the
trace object of ``sim/engine/PROTOCOL.md``. A scripted token that is not legal raises
:class:`sim.reference.ScriptError` (or a subclass)."""

PRESETS = preset_names()
PRESETS_3P = [p for p in PRESETS if load_rules(p).players == 3]


def sizes(quick, full, name="size"):
    """Parametrize a test by its size: ``quick`` in ``make test``, ``full`` in ``make test-all``.

    The same assertions run at both sizes; the full one is marked ``slow`` (the long
    statistical and differential runs, which `make test-all` adds).
    """
    return pytest.mark.parametrize(
        name,
        [pytest.param(quick, id="quick"), pytest.param(full, id="full", marks=pytest.mark.slow)],
    )


# --- Languages: the English words left in a translated text ---

NAMES = {"classic", "strong", "heuristic", "pimc", "par", "seed", "budget", "rules", "chi"}
"""Names, flags and code words a translated text may keep in Latin letters."""


class _Seen(HTMLParser):
    """What a reader sees on a page: its text and image alt texts, less ``hidden`` tags."""

    def __init__(self, hidden: Sequence[str]) -> None:
        super().__init__()
        self.hidden = tuple(hidden)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.hidden:
            self.skip += 1
        self.parts += [v or "" for k, v in attrs if k == "alt"]

    def handle_endtag(self, tag: str) -> None:
        if tag in self.hidden:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def seen_text(page: str, hidden: Sequence[str] = ("code", "style", "script")) -> str:
    """The words a reader sees on an HTML page: text and alt texts, less code and style."""
    parser = _Seen(hidden)
    parser.feed(page)
    return "\n".join(parser.parts)


def words(text: str) -> set[str]:
    """Words of three or more Latin letters, less names, flags and code."""
    text = re.sub(r"`[^`]*`|\b\w+\.(?:md|csv|json)\b|\bCSV\b", "", text)  # code, files
    found = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}
    return found - NAMES


# --- One checker for the trace of a dealt deal: an independent reading of the rules ---
#
# The reference engine's traces (test_reference.py) and the fast engine's (test_engine.py,
# test_cut.py) go through the same :func:`check_deal`: the cards are accounted for, bids
# and follows are legal, trick winners, points, deltas, ``made`` and bolts agree with the
# tricks. Game traces (test_reference_game.py) are made of such deals and checked game by
# game against the reference loop.

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
    m = rules.score.round_to
    if rules.score.round_mode == "up":  # any remainder up
        return x + (-x) % m
    return (x + 5) // 10 * 10 if m == 10 else (x + 2) // 5 * 5


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


def _discarded(
    rules: Rules, tr: dict[str, Any], held: list[set[int]], decl: int, bid: int, contract: int
) -> list[list[int]]:
    """The discard (one card of the declarer's 10 to each opponent) applied to ``held``
    and the contract checked against the cards kept; the hands after the discard."""
    (to1, c1), (to2, c2) = tr["discards"]
    assert (to1, to2) == ((decl + 1) % 3, (decl + 2) % 3)
    c1, c2 = parse_card(c1), parse_card(c2)
    assert c1 != c2 and {c1, c2} <= held[decl]
    held[decl] -= {c1, c2}
    held[to1].add(c1)
    held[to2].add(c2)
    after = [sorted(h) for h in held]
    assert [len(h) for h in held] == [8, 8, 8]
    cap = 120 + marriages(rules, after[decl]) if rules.bid.cap_by_marriages else 400
    assert contract == bid or (bid < contract <= cap and contract % rules.bid.step == 0)
    return after


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
    held = [set(h) for h in hands]
    held[decl] |= set(talon)
    if tr["discards"] == []:  # the bomb: conceded with the talon, before the discard
        assert rules.rospis.when == "talon" and tr["conceded"] and contract == bid
        after = [sorted(h) for h in held]
        assert [len(h) for h in held] == [10 if s == decl else 7 for s in range(3)]
    else:
        assert tr["conceded"] is False or rules.rospis.when == "contract"
        after = _discarded(rules, tr, held, decl, bid, contract)
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


# --- Players: one decision asked of any player, hidden cards dealt anew, deals replayed ---


def legal_form(kind: int, legal: np.ndarray, n: int) -> tuple[int, int, int, int]:
    """The legal set of a snapshot as ``choose`` passes it: ``(form, a, b, c)``."""
    codes = [int(x) for x in legal[:n]]
    if kind == Decision.PLAY:
        plain = sum(1 << c for c in codes if c < DECLARE)
        return MASKS, plain, sum(1 << (c - DECLARE) for c in codes if c >= DECLARE), 0
    if kind in (Decision.BID, Decision.CONTRACT):
        passing = int(codes[0] == PASS and kind == Decision.BID)
        amounts = codes[passing:]
        return RANGE, passing, amounts[0], len(amounts)
    return LIST, n, 0, 0


_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int64, *[ctypes.c_int64] * 13)


@functools.cache
def _callback(strategy: int) -> Any:
    from sim.engine.strategies.addresses import player_address

    return _CALLBACK(player_address(strategy))


def decide(
    name: str,
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    legal: np.ndarray,
    n: int,
    params: np.ndarray,
) -> int:
    """The action player ``name`` takes at a snapshot's decision, as the engine asks it.

    Dispatched as :func:`sim.engine.choose.choose` dispatches, from the records alone:
    the decisions a player leaves to the heuristic go to the heuristic, a player with a
    callback is called through its address (with the C signature), the players built
    into ``choose`` directly. ``S`` is copied first (a player may advance its stream).
    """
    from sim.engine.search import arena_size
    from sim.engine.strategies import heuristic, heuristic_v1

    S = np.ascontiguousarray(S, dtype=np.int64).copy()
    P = np.ascontiguousarray(P, dtype=np.int64)
    params = np.ascontiguousarray(params, dtype=np.float64)
    record = PLAYERS[name]
    if record.rest_by is not None and not own_decision(record.id, kind, params):
        record = PLAYERS[record.rest_by]
    form, a, b, c = legal_form(kind, legal, n)
    if record.entry is not None or record.entry_of is not None:
        arena = np.zeros(arena_size(12), dtype=np.int64)
        codes = np.zeros(64, dtype=np.int64)
        codes[:n] = legal[:n]
        call = _callback(record.id)
        return int(call(
            kind, seat, S.ctypes.data, P.ctypes.data, codes.ctypes.data, arena.ctypes.data,
            arena.shape[0], params.ctypes.data, form, a, b, c, int(S[S_TIEBREAK]),
        ))  # fmt: skip
    if record.name == "first":
        return int(legal[0])
    if record.name == "random":
        k, _ctr = bounded(np.uint64(S[S_RNG]), S[S_RNG_CTR], n)
        return int(legal[k])
    module = {"heuristic": heuristic, "heuristic_v1": heuristic_v1}[record.name]
    prefix = record.name
    if form == MASKS:
        return int(getattr(module, f"{prefix}_play")(seat, S, P, a, b))
    if form == RANGE:
        return int(getattr(module, f"{prefix}_range")(kind, seat, S, P, b, c, params))
    tiebreak = np.uint64(S[S_TIEBREAK])
    codes = np.ascontiguousarray(legal, dtype=np.int64)
    return int(getattr(module, f"{prefix}_choose")(kind, seat, S, P, codes, n, params, tiebreak))


def redistribute(S: np.ndarray, seat: int, P: np.ndarray, rng: np.random.Generator) -> Any:
    """A copy of S where the cards ``seat`` cannot see are dealt anew between their places.

    The places are the other hands (the hand's seats 0, 1, 2; with two players seat 1 -
    ``seat``) and, with two players, the talon set aside for the last trick, which nobody
    has seen (laying two cards away: :func:`_redistribute_laying_away`). Only hidden
    cards move: not the talon (it may have been shown), not the discards when they lie
    face up or ``seat`` gave them, and never into a hand that has shown out of the
    card's suit. Returns None when no different valid deal was found.
    """
    two = P[P_NP] == 2
    if two and P[P_TWO_PLAYERS] == TWO_DISCARD and S[S_TALON_PICK] >= 0:
        return _redistribute_laying_away(S, seat, rng)
    others = [1 - seat] if two else [s for s in range(3) if s != seat]
    fixed = int(S[S_TALON])
    face_up = not P[P_DISCARD_FACE_DOWN]
    for g in (S_GIVE1, S_GIVE2):
        if S[g] >= 0 and (face_up or seat == S[S_DECL] or two):
            fixed |= 1 << int(S[g])
    # a place: (state slot, void slot or -1)
    places = [(S_HAND0 + s, S_VOID0 + s) for s in others]
    if two and S[S_TALON_OTHER]:
        places.append((S_TALON_OTHER, -1))
    if len(places) < 2:
        return None
    held = [[c for c in range(24) if S[slot] >> c & 1 and not fixed >> c & 1] for slot, _ in places]
    pool = np.array([c for h in held for c in h])
    for _ in range(50):
        rng.shuffle(pool)
        new, k = [], 0
        for h in held:
            new.append(sorted(pool[k : k + len(h)].tolist()))
            k += len(h)
        if new == held:
            continue
        shown_out = [
            v >= 0 and any(S[v] >> (c // 6) & 1 for c in h)
            for (_, v), h in zip(places, new, strict=True)
        ]
        if any(shown_out):
            continue
        T = S.copy()
        gone = sum(1 << c for h in held for c in h)
        for (slot, _), h in zip(places, new, strict=True):
            T[slot] = (int(T[slot]) & ~gone) | sum(1 << c for c in h)
        if not two:  # the dealt and after-discard hands follow the cards still held
            o1, o2 = others
            m1, m2 = (sum(1 << c for c in h) for h in new)
            for base in (S_DEALT0, S_AFTER0):
                a, b = int(T[base + o1]), int(T[base + o2])
                T[base + o1] = (a & ~gone) | (m1 & (a | b))
                T[base + o2] = (b & ~gone) | (m2 & (a | b))
        return T
    return None


def _redistribute_laying_away(S: np.ndarray, seat: int, rng: np.random.Generator) -> Any:
    """:func:`redistribute` with two players laying two cards away (docs/rules.md §12).

    Hidden from ``seat``: the other hand, the unchosen musik (in no slot of S: the cards
    in no hand, not played, not laid away, not the musik taken) and, from the defender,
    the cards the declarer laid away (its captures not played). The musik taken stays.
    """
    decl = int(S[S_DECL])
    other = 1 - seat
    hands = int(S[S_HAND0]) | int(S[S_HAND0 + 1])
    played = int(S[S_PLAYED])
    laid = int(S[S_CAPT0 + decl]) & ~played
    talon = int(S[S_TALON])
    musik = ((1 << 24) - 1) & ~hands & ~played & ~laid & ~talon
    hidden = [int(S[S_HAND0 + other]) & ~talon, musik]
    if seat != decl:
        hidden.append(laid)
    held = [[c for c in range(24) if m >> c & 1] for m in hidden]
    pool = np.array([c for h in held for c in h])
    for _ in range(50):
        rng.shuffle(pool)
        new, k = [], 0
        for h in held:
            new.append(sorted(pool[k : k + len(h)].tolist()))
            k += len(h)
        if new == held or any(S[S_VOID0 + other] >> (c // 6) & 1 for c in new[0]):
            continue
        T = S.copy()
        masks = [sum(1 << c for c in h) for h in new]
        T[S_HAND0 + other] = (int(S[S_HAND0 + other]) & talon) | masks[0]
        if seat != decl:  # the cards laid away, in order of their ids
            T[S_CAPT0 + decl] = (int(S[S_CAPT0 + decl]) & played) | masks[2]
            for g, c in zip((S_GIVE1, S_GIVE2), [c for c in new[2]], strict=False):
                T[g] = c
        return T
    return None


class _ReplayChooser:
    """The reference engine's chooser, making the moves a trace shows: a deal replayed.

    Every move must be legal where the reference engine offers it (it raises
    AssertionError naming the move otherwise); the reference engine then plays the
    rules' consequences (winners, marriages, scores), and the caller compares its trace
    with the one replayed.
    """

    def __init__(self, tr: dict[str, Any]) -> None:
        self.tr = tr
        self.bids = list(tr.get("bids") or [])
        self.bid_at = 0
        self.plays = []
        active = [s for s, h in enumerate(tr["hands"]) if h]  # (four players: not the dealer)
        for trick in tr.get("tricks") or []:
            at = active.index(trick["leader"])
            for k, card in enumerate(trick["cards"]):
                code = parse_card(card)
                if k == 0 and trick["marriage"] is not None:
                    code += DECLARE
                self.plays.append((active[(at + k) % len(active)], code))
        self.discards = [parse_card(card) for _to, card in tr.get("discards") or []]
        self.used = 0  # (the reference's Chooser reads it after the deal)
        self.script: list[object] = []

    def _reshuffle(self, kind: int, seat: int) -> int:
        r = self.tr.get("reshuffle")
        if r is None or r["seat"] != seat:
            return 0
        kinds = {Decision.RESHUFFLE_HAND: HAND_REASONS, Decision.RESHUFFLE_TALON: TALON_REASONS}
        return int(r["reason"] in kinds.get(kind, AFTER_REASONS))

    def move(self, kind: int, seat: int) -> int:
        """The move the trace shows at this decision."""
        tr = self.tr
        if kind == Decision.BID:
            while self.bid_at < len(self.bids) and self.bids[self.bid_at][0] != seat:
                self.bid_at += 1  # (a bid no decision made: compared with the traces)
            assert self.bid_at < len(self.bids), f"seat {seat} bids, the trace shows none"
            what = self.bids[self.bid_at][1]
            self.bid_at += 1
            return PASS if what == "pass" else int(what)
        if kind == Decision.PLAY:
            who, code = self.plays.pop(0)
            assert who == seat, f"seat {seat} plays where the trace shows seat {who}"
            return code
        if kind == Decision.DISCARD:
            return self.discards.pop(0)
        if kind == Decision.CONTRACT:
            return int(tr["contract"])
        if kind == Decision.CONCEDE:
            return int(tr["conceded"])
        if kind == Decision.NAME_TRUMP:
            return SUIT_LETTERS.index(tr["trump_named"])
        if kind == Decision.TALON_PICK:
            return int(tr["talon_pick"])
        if kind == Decision.DARK:
            return int(tr.get("special") == "dark")
        if kind == Decision.UNDARKEN:
            return int(tr.get("undarkened_by") == seat)
        return self._reshuffle(kind, seat)

    def choose(self, kind: int, seat: int, legal: list[int], where: str = "") -> int:
        code = self.move(kind, seat)
        assert code in legal, (
            f"deal {self.tr['deal_id']}: seat {seat}'s {Decision(kind).name} {code} is not "
            f"legal{where} (legal: {legal})"
        )
        return code


def replay(rules: Rules, tr: dict[str, Any], monkeypatch: Any) -> dict[str, Any]:
    """The reference engine's trace of the deal ``tr`` shows, its moves made as shown.

    Raises AssertionError at the first move the reference engine does not allow.
    """
    import sim.reference.driver as driver

    chooser = _ReplayChooser(tr)
    with monkeypatch.context() as m:
        m.setattr(driver, "Chooser", lambda *_args: chooser)
        hands = [" ".join(h) for h in tr["hands"]]
        return ref.play_hand_text(
            rules, hands, " ".join(tr["talon"]), tr["dealer"], deal_id=tr["deal_id"],
            attempt=tr["attempt"], strategies=("first",) * rules.players,
        )  # fmt: skip
