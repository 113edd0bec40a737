"""The cut deal and the bottom-card ritual (docs/rules.md §2), on both engines.

Under ``deal.method = "cut"`` a deal's deck is the previous deal's cards gathered as
they lie, cut by the player on the dealer's right and dealt one card at a time with
the talon taken at drawn positions; the bottom-card ritual (a bottom nine recut, a
bottom jack moved to the middle) applies under either method. The compiled dealing
(:func:`sim.engine.deal.deal_from_deck`, :func:`sim.engine.driver.gather_deck`) is checked
against the plain one (:func:`sim.reference.deal_hand`, :func:`sim.reference.gather`)
step by step here, and whole runs are compared in tests/test_differential.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from support import ENGINES, check_deal
from test_scenarios import P1, P1_BASE, P_NINES, G, run

from sim import reference as ref
from sim.cards import card_str, parse_card
from sim.engine import play_hands
from sim.engine.deal import DECK_WORK, JACK_MOVED, deal_from_deck
from sim.engine.game import play_games
from sim.reference.game import GameState, nine_cut_penalty
from sim.rng import Stream, stream_key
from sim.rules import Rules, load_rules
from sim.runs.games import games_frame

CLASSIC = Rules()
CUT = CLASSIC.replace(deal__method="cut")
RITUAL = CLASSIC.replace(deal__nine_cut_penalty=120, deal__jack_to_middle=True)
engines = pytest.mark.parametrize("play", ENGINES.values(), ids=ENGINES.keys())


def ids(cards: list[str]) -> list[int]:
    return [parse_card(c) for c in cards]


# =================================================================================
# Gathering a deal (the next deck, top first)
# =================================================================================
@engines
def test_gather_played_deal_stacks_tricks_in_play_order(play):
    gathered: list[int] = []
    tr = run(play, CUT, P1, G, gathered=gathered)
    played = ids([c for t in tr["tricks"] for c in t["cards"]])
    # the first trick's first card lies at the bottom, the last card played on top
    assert gathered == played[::-1]
    assert gathered[-1] == parse_card("AS") and gathered[0] == parse_card("TH")


@engines
def test_gather_conceded_deal_hand_by_hand_from_forehand(play):
    gathered: list[int] = []
    # seat 0 (forehand, dealer 2) declares, gives 9D and 9C away and concedes
    tr = run(play, CUT, P1, [*P1_BASE[:-1], "concede"], gathered=gathered)
    assert tr["conceded"]
    after = [
        "AS TS AC TC KD QD AH TH",  # seat 0 with the talon, less 9D and 9C
        "KS QS AD TD JD 9D KH QH",
        "JS 9S KC QC JC 9C JH 9H",
    ]
    bottom_up = [c for h in after for c in sorted(ids(h.split()))]
    assert gathered == bottom_up[::-1]


@engines
def test_gather_redealt_deal_hands_then_talon(play):
    gathered: list[int] = []
    # P_NINES: seat 2 holds three nines and 12 points and demands a new deal
    hands, talon = P_NINES
    tr = run(play, CUT, P_NINES, ["demand"], gathered=gathered)
    assert tr["reshuffle"] == {"seat": 2, "reason": "hand_points_below"}
    bottom_up = [c for h in hands for c in sorted(ids(h.split()))] + sorted(ids(talon.split()))
    assert gathered == bottom_up[::-1]


@pytest.mark.parametrize("preset", ["classic", "two_players", "four_players"])
def test_gather_agrees_with_the_rule_on_random_deals(preset):
    """Both engines gather every kind of deal (played, conceded, redealt) by the rule."""
    rules = load_rules(preset).replace(deal__method="cut")
    n = rules.players
    kinds = set()
    for i in range(60):
        dealer = i % n
        cards = ref.deal_cards(7, i, players=n)
        table = ref.Table(n, dealer)
        hands, talons = ref.seat_cards(table, cards)
        text = [" ".join(card_str(c) for c in h) for h in hands]
        talon = " ".join(card_str(c) for t in talons for c in t)
        got = []
        for play in ENGINES.values():
            gathered: list[int] = []
            tr = play(rules, text, talon, dealer, seed=i, strategies=["random"] * n,
                      gathered=gathered)  # fmt: skip
            got.append((tr, gathered))
        (tr, g_ref), (tr_fast, g_fast) = got
        assert tr == tr_fast and g_ref == g_fast
        assert sorted(g_ref) == list(range(24))
        if tr["reshuffle"] is None and not tr["conceded"]:
            kinds.add("played")
            pile = ids([c for t in tr["tricks"] for c in t["cards"]])
            rest = sorted(set(range(24)) - set(pile))  # 2 players: the set-aside talon
            assert g_ref == (pile + rest)[::-1]
        else:
            held = [list(h) for h in hands]  # redealt before the discard: the dealt hands
            if tr["reshuffle"] is None:  # conceded: the hands after the discard
                kinds.add("conceded")
                decl = tr["declarer"]
                if n == 2:
                    held[decl] += talons[tr["talon_pick"]]
                else:
                    held[decl] += talons[0]
                for to, card in tr["discards"]:
                    held[decl].remove(parse_card(card))
                    held[to].append(parse_card(card))
            else:
                kinds.add("redealt")
            bottom_up = [c for s in table.active for c in sorted(held[s])]
            bottom_up += sorted(set(range(24)) - set(bottom_up))
            assert g_ref == bottom_up[::-1]
    assert kinds == {"played", "conceded", "redealt"}


# =================================================================================
# Dealing from a deck: the cut, the talon's positions, the ritual
# =================================================================================
def test_cut_lifts_the_top_cards_under_the_rest():
    assert ref.cut_deck(list(range(24)), 3) == [*range(3, 24), 0, 1, 2]
    assert ref.cut_deck(list(range(24)), 21)[:3] == [21, 22, 23]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_talon_positions_are_never_among_the_first_or_last_three(players):
    k = 4 if players == 2 else 3
    seen = set()
    for item in range(300):
        pos, _ = ref.talon_positions(ref.item_state(12345, item), 0, k)
        assert len(set(pos)) == k and pos == sorted(pos)
        assert all(3 <= p <= 20 for p in pos)
        seen |= set(pos)
    assert seen == set(range(3, 21))  # every allowed position is drawn


def test_one_card_at_a_time_from_forehand_bottom_card_to_the_dealer():
    # 3 players, dealer 1: forehand 2, then 0, then the dealer 1
    place_of = ref.place_of_deal_position(3, 2, [4, 9, 15])
    assert place_of[:4] == [2, 0, 1, 2] and place_of[4] == 3
    assert [place_of.count(q) for q in range(4)] == [7, 7, 7, 3]
    assert place_of[23] == 1  # the bottom card goes to the dealer
    # 2 players: the first two talon positions form the first talon
    place_of = ref.place_of_deal_position(2, 1, [3, 5, 7, 20])
    assert [place_of[p] for p in (3, 5, 7, 20)] == [2, 2, 3, 3]
    assert [place_of.count(q) for q in range(4)] == [10, 10, 2, 2]
    assert place_of[23] == 0  # dealer 0 (forehand 1) gets the last card
    # 4 players: the three active hands from forehand (hand seats 0..2), the last to
    # hand seat 2, the player on the dealer's right
    assert ref.place_of_deal_position(3, 0, [3, 4, 5])[23] == 2


def test_ritual_recuts_a_bottom_nine_and_charges_the_third():
    deck = [*(c for c in range(24) if c % 6), 6, 12, 18, 0]  # the four nines at the bottom
    found = {0: 0, 1: 0, 2: 0, 3: 0}
    for item in range(3000):
        out, nines, moved, _ = ref.bottom_ritual(RITUAL, list(deck), ref.item_state(99, item), 0)
        found[nines] += 1
        assert not moved or out[-1] % 6 != 1
        assert sorted(out) == list(range(24))
        if nines == 3:
            assert out[-1] % 6 == 0  # the deal goes ahead with the third nine at the bottom
        elif not moved:
            assert out[-1] % 6 != 0
    assert found[0] == 0 and found[1] > 0 and found[2] > 0 and found[3] > 0
    # without a nine penalty nobody recuts
    no_penalty = CLASSIC.replace(deal__jack_to_middle=True)
    assert ref.bottom_ritual(no_penalty, list(deck), 1, 0)[:3] == (deck, 0, False)


def test_ritual_moves_a_bottom_jack_into_the_middle():
    deck = [c for c in range(24) if c != 7] + [7]  # JC at the bottom
    for item in range(50):
        out, nines, moved, _ = ref.bottom_ritual(RITUAL, list(deck), ref.item_state(3, item), 0)
        assert nines == 0 and moved
        at = out.index(7)
        assert 3 <= at <= 20
        assert [c for c in out if c != 7] == deck[:-1]  # the others keep their order
    assert ref.bottom_ritual(CLASSIC, list(deck), 1, 0)[2] is False


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("ritual", [(0, False), (120, False), (0, True), (120, True)])
def test_compiled_dealing_equals_the_reference(players, ritual):
    rules = CLASSIC.replace(
        players=players, deal__nine_cut_penalty=ritual[0], deal__jack_to_middle=ritual[1]
    )
    rng = np.random.default_rng(players * 10 + ritual[1])
    for item in range(120):
        dealer = item % players
        hand_dealer = 2 if players == 4 else dealer
        prev = [int(x) for x in rng.permutation(24)]
        shuffled = item % 2 == 0
        want = ref.deal_hand(rules, 5, item, dealer, deck=None if shuffled else prev)
        work = np.zeros(DECK_WORK, dtype=np.int64)
        masks = np.zeros(4, dtype=np.uint32)
        if shuffled:
            cards = ref.deal_cards(5, item, players=players)
            sizes = ref.place_sizes(players)
            at = np.cumsum((0, *sizes))
            for q in range(4):
                masks[q] = sum(1 << c for c in cards[at[q] : at[q + 1]])
        else:
            work[:24] = prev
        state = np.uint64(ref.item_state(int(stream_key(5, Stream.CUT)), item))
        code = deal_from_deck(
            shuffled, work, masks, players, hand_dealer, ritual[0] > 0, ritual[1], state
        )
        got = [c for q in range(4) for c in range(24) if int(masks[q]) >> c & 1]
        if shuffled and ritual == (0, False):
            assert code == 0 and got == want.cards  # untouched
        assert got == want.cards
        assert (code & 3, bool(code & JACK_MOVED)) == (want.bottom_nines, want.jack_moved)


# =================================================================================
# Runs
# =================================================================================
def test_ritual_leaves_a_deal_alone_when_it_finds_nothing():
    plain = play_hands(CLASSIC, 400, 8, ("random",), trace=True).traces()
    ritual = play_hands(RITUAL, 400, 8, ("random",), trace=True).traces()
    before = {(d["deal_id"], d["attempt"]): d for d in plain}
    quiet = 0
    for d in ritual:
        if d["bottom_nines"] == 0 and not d["jack_moved"]:
            other = before.get((d["deal_id"], d["attempt"]))
            if other is not None:
                assert (d["hands"], d["talon"]) == (other["hands"], other["talon"])
                quiet += 1
    assert quiet > 200


def test_nine_ritual_keeps_nines_from_the_dealer():
    """The bottom card goes to the dealer, and the nine ritual rarely leaves a nine there.

    Without the ritual the dealer's 7 cards hold 7 * 4/24 = 1.167 nines on average.
    With it the bottom card is almost never a nine (three bottom nines in a row, about
    0.2 %), so the dealer holds about 6 * 4/23 = 1.043: 0.12 fewer. The same deals are
    compared (they differ only where the ritual acted); tolerance 5 standard errors.
    """
    rules = CLASSIC.replace(deal__nine_cut_penalty=120)
    n = 20_000
    dealer = np.arange(n) % 3
    plain = play_hands(CLASSIC, n, 21, ("first",), first_deals=True).first_deals()
    ritual = play_hands(rules, n, 21, ("first",), first_deals=True).first_deals()

    def dealer_nines(cards: np.ndarray) -> np.ndarray:
        hand = cards[:, :21].reshape(n, 3, 7)[np.arange(n), dealer]
        return (hand % 6 == 0).sum(axis=1)

    diff = dealer_nines(plain) - dealer_nines(ritual)
    se = diff.std(ddof=1) / np.sqrt(n)
    assert abs(dealer_nines(plain).mean() - 7 * 4 / 24) < 5 * dealer_nines(plain).std() / np.sqrt(n)
    assert abs(diff.mean() - (7 * 4 / 24 - 6 * 4 / 23)) < 5 * se


@pytest.mark.parametrize("preset", ["classic", "two_players", "four_players"])
def test_cut_hands_run_is_chained_and_chunk_independent(preset):
    rules = load_rules(preset).replace(deal__method="cut", deal__cut_chain=7)
    n = rules.players
    whole = play_hands(rules, 60, 4, ("random",) * n, first_deals=True)
    parts = [play_hands(rules, m, 4, ("random",) * n, start=s, first_deals=True)
             for s, m in ((0, 25), (25, 10), (35, 25))]  # fmt: skip
    assert np.array_equal(whole.out, np.concatenate([p.out for p in parts]))
    assert np.array_equal(whole.dealt, np.concatenate([p.dealt for p in parts]))
    shuffled = play_hands(load_rules(preset), 60, 4, ("random",) * n, first_deals=True)
    same = (whole.first_deals() == shuffled.first_deals()).all(axis=1)
    # each chain's first deal is the shuffled deal; the others come from the deck
    assert same[::7].all() and same.sum() < 15


@pytest.mark.parametrize("rules", [CUT, RITUAL, CUT.replace(deal__nine_cut_penalty=120)])
def test_cut_and_ritual_runs_keep_every_invariant(rules):
    batch = play_hands(rules, 1500, 11, ("random",) * 3, trace=True)
    assert batch.column("error").max() == 0
    for doc in batch.traces():
        check_deal(rules, doc)  # dealt from the gathered deck: no seed to check against


def test_nine_cut_penalty_charged_to_the_cutter_not_on_the_barrel():
    rules = CLASSIC.replace(deal__nine_cut_penalty=120)
    st = GameState(dealer=1, scores=[100, 200, 300])
    assert nine_cut_penalty(st, rules, ref.Dealt([], 2, False)) == []
    events = nine_cut_penalty(st, rules, ref.Dealt([], 3, False))
    assert events == [["nine_cut_penalty", 0, 120]]  # seat 0 sits right of dealer 1
    assert st.scores == [-20, 200, 300] and st.nine_cut_penalties == [1, 0, 0]
    st = GameState(dealer=0, scores=[100, 200, 880], on_barrel=[False, False, True])
    assert nine_cut_penalty(st, rules, ref.Dealt([], 3, False)) == []
    assert st.scores == [100, 200, 880]


def test_games_count_nine_cut_penalties_per_seat():
    rules = CLASSIC.replace(deal__nine_cut_penalty=120, deal__method="cut")
    batch = play_games(rules, 300, 2, ("heuristic",), trace=True)
    frame = games_frame(batch)
    counted = sum(int(frame[f"nine_cut_penalties_{s}"].sum()) for s in range(3))
    events = [e for g in batch.traces() for d in g["deals"] for e in d["events"]]
    charged = [e for e in events if e[0] == "nine_cut_penalty"]
    assert counted == len(charged) > 0
    assert all(e[2] == 120 for e in charged)
    plain = games_frame(play_games(CLASSIC, 300, 2, ("heuristic",)))
    assert plain.select("nine_cut_penalties_0").sum().item() == 0
    assert not frame.equals(plain)


def test_hands_and_games_commands_under_a_cut_rules_file(thousand, tmp_path):
    """A user's ``base = "classic"`` file with ``[deal] method = "cut"``, end to end."""
    import polars as pl

    cut = tmp_path / "cut.toml"
    cut.write_text('base = "classic"\n[deal]\nmethod = "cut"\n', encoding="utf-8")
    files = {}
    for name, rules in (("classic", "classic"), ("cut", str(cut))):
        for command, size in (("hands", "--deals"), ("games", "--games")):
            out = tmp_path / f"{name}_{command}"
            r = thousand(command, "--rules", rules, size, "400", "--seed", "6", "--out", str(out),
                         "--workers", "1", "--quiet")  # fmt: skip
            assert r.returncode == 0, r.stderr
            files[name, command] = pl.read_parquet(out / f"{command}.parquet")
    for command in ("hands", "games"):
        a, b = files["classic", command], files["cut", command]
        assert a.columns == b.columns and not a.equals(b)
    hands = files["cut", "hands"]
    assert hands.filter(~pl.col("reshuffled")).height == 400
    played = hands.filter(~pl.col("reshuffled") & ~pl.col("conceded"))
    assert (sum(played[f"card_points_{s}"] for s in range(3)) == 120).all()
    games = files["cut", "games"]
    assert games.height == 400 and (games["winner"] >= 0).mean() > 0.95
