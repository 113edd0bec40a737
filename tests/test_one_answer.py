"""One answer for every hand: the class tables, their floor, and every page that reads them.

The advisor's class tables (sim/jobs/advice_tables.py) deal every class of hand (its
marriages and aces) on purpose at every seat and play each choice in the auction out;
one rule (analysis/choices.py) picks the choice. Here: no class answers from fewer than
1,000 hands, a rate over all hands weighted back from them agrees with random deals,
every page that reads them gives the same level for the same hand and seat (the
command's answer agrees unless its own deals show the tables' level worse), and a
stronger hand is not told to bid lower, beyond its interval, except where the table's
player explains it.
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis.safebids import marriage_label
from sim.jobs.advice_tables import class_data, load_tables, table_of
from sim.jobs.advise import AdviseSpec, advise
from sim.rules import load_rules
from sim.runs.classes import class_hands, class_sizes, hand_class, marriages_of

CLASSIC = load_rules("classic")
FLOOR = 1000  # hands a class's answer rests on, at least
SEATS = ("forehand", "middle", "dealer")


def marriage_words(mask: int) -> str:
    """A class's row in the printed table (English)."""
    label = marriage_label(mask)
    return "no marriage" if label == "none" else f"{label} marriage"


def verdict_cells(tables) -> dict:
    return {
        (r["marriages"], r["aces"], r["seat"]): r for r in tables.verdicts.iter_rows(named=True)
    }


@pytest.fixture(scope="module")
def tables():
    return load_tables(CLASSIC, "strong")


def test_no_class_answers_from_fewer_than_a_thousand_hands(tables):
    sizes = class_sizes(7)
    assert sum(sizes.values()) == 346_104  # every hand of 7 cards of 24, counted
    cells = {
        (r["marriages"], r["aces"], r["seat"]): r for r in tables.verdicts.iter_rows(named=True)
    }
    assert set(cells) == {(m, a, s) for m, a in sizes for s in range(3)}
    for (m, a, s), cell in cells.items():
        assert cell["n"] >= FLOOR and cell["dealt"] == "on purpose", (m, a, s)
        assert cell["class_hands"] == sizes[(m, a)]
    rare = [(m, a) for (m, a), k in sizes.items() if k < 1000]
    assert len(rare) > 20  # the rare classes (three marriages, four aces ...) among them
    assert (8, 4) in rare and (7, 1) in rare  # a ♥ marriage with four aces; three marriages
    assert tables.choices["n"].min() >= FLOOR  # every plan of every cell


def test_a_class_is_dealt_uniformly_over_its_hands_and_the_rest_at_random():
    from sim.runs.classes import deal_class

    members = class_hands(7)[(3, 3)]  # ♠ and ♣ marriages and three aces: four hands
    assert len(members) == 4
    deals = deal_class(CLASSIC, 3, 3, 1, 4000, seed=2)
    assert set(deals[:, 1].tolist()) == set(members.tolist())
    counts = np.array([(deals[:, 1] == h).sum() for h in members])
    assert (np.abs(counts - 1000) < 4 * np.sqrt(4000 * 0.25 * 0.75)).all()  # 4 SE
    assert (np.bitwise_or.reduce(deals.astype(np.int64), axis=1) == (1 << 24) - 1).all()
    assert [bin(int(x)).count("1") for x in deals[0]] == [7, 7, 7, 3]
    # an unseen card lies in the talon 3 times in 17
    unseen = next(c for c in range(24) if not int(members[0]) >> c & 1)
    rows = deals[:, 1] == members[0]
    p = (deals[rows, 3] >> unseen & 1).mean()
    assert abs(p - 3 / 17) < 4 * np.sqrt(3 / 17 * 14 / 17 / rows.sum())


def test_a_rate_over_all_hands_is_the_classes_weighted_back(tables):
    # P(make 100) of the forehand over all hands: the classes' rates weighted by their
    # exact shares of all hands, against 6,000 random deals played the same way
    from analysis.safebids import items_frame
    from sim.engine.declarer import D_CONCEDE_FROM, D_TOTAL
    from sim.runs.declarer import declarer_deals, play_as_declarer

    rows = tables.choices.filter((tables.choices["level"] == 105) & (tables.choices["seat"] == 0))
    share = {(r["marriages"], r["aces"]): r["share"] for r in tables.verdicts.iter_rows(named=True)}
    weighted = sum(share[(r["marriages"], r["aces"])] * r["p"] for r in rows.iter_rows(named=True))
    var = sum(share[(r["marriages"], r["aces"])] ** 2 * r["p"] * (1 - r["p"]) / r["n"]
              for r in rows.iter_rows(named=True))  # fmt: skip
    masks, decls = declarer_deals(6000, seed=77, players=3)
    masks, decls = masks[decls == 0], decls[decls == 0]
    out = play_as_declarer(CLASSIC, masks, decls, 77, "strong")
    made_to = items_frame(CLASSIC, "strong", masks[:, 0].astype(np.int64), decls,
                          np.arange(len(decls)), out[:, D_TOTAL], out[:, D_CONCEDE_FROM])[
        "made_to"].to_numpy()  # fmt: skip
    direct = (made_to >= 105).mean()
    se = np.sqrt(var + direct * (1 - direct) / len(made_to))
    assert abs(weighted - direct) < 4 * se, (weighted, direct, se)  # 4 SE, seeded


# --- one answer: the pages that read the tables, and the command's own deals ------------
def hands_to_ask(n: int, seed: int = 11) -> list[tuple[int, int]]:
    """``n`` hands and seats: a hand of every class (the rare ones too) at every seat,
    then random hands."""
    rng = np.random.default_rng(seed)
    out = []
    for members in class_hands(7).values():
        for seat in range(3):
            out.append((int(members[rng.integers(len(members))]), seat))
    while len(out) < n:
        hand = sum(1 << int(c) for c in rng.choice(24, 7, replace=False))
        out.append((hand, int(rng.integers(3))))
    return out[:n]


def cards(hand: int) -> str:
    from sim.cards import cards_str

    return cards_str([c for c in range(24) if hand >> c & 1])


def offline_answer(data: dict, hand: int, seat: str) -> int:
    """What the offline page's script shows: the embedded class's cell at the seat."""
    marr, aces = hand_class(hand)
    entry = next(c for c in data["classes"] if c["mask"] == marr and c["aces"] == aces)
    return next(c["best"] for c in entry["cells"] if c["seat"] == seat)


def test_every_page_that_reads_the_tables_gives_the_same_level(tables):
    from views.advisor_page import glance_table

    data = class_data(tables)
    glance = glance_table(data)
    asked = hands_to_ask(500)
    assert len(asked) == 500 and len({hand_class(h) for h, _s in asked}) == 57
    for hand, seat in asked:
        name = SEATS[seat]
        quick = advise(AdviseSpec(rules=CLASSIC, hand=cards(hand), seat=name),
                       sampled=False, tables=tables).json()  # fmt: skip
        level = table_of(tables, hand, seat, 0.75).best.level
        assert quick["best"] == level == offline_answer(data, hand, name), (cards(hand), name)
        # the printed table's cell of the class (tests/test_advisor_page.py reads each cell)
        row = glance.split(marriage_words(hand_class(hand)[0]) + "</th>")[1].split("</tr>")[0]
        cell = row.split("<td>")[hand_class(hand)[1] + 1].split("</td>")[0]
        said = [w.strip().replace("\xa0", "") for w in cell.split("/")]
        assert said[seat] == ("pass" if level == 0 else str(level))


@pytest.mark.parametrize("n", [pytest.param(40, id="quick"),
                               pytest.param(500, id="all", marks=pytest.mark.slow)])  # fmt: skip
def test_the_commands_answer_is_the_tables_unless_its_deals_show_it_worse(tables, n):
    agree = 0
    for hand, seat in hands_to_ask(n, seed=5)[::-1]:
        doc = advise(AdviseSpec(rules=CLASSIC, hand=cards(hand), seat=SEATS[seat], samples=1000),
                     tables=tables).json()  # fmt: skip
        table = doc["table"]["best"]
        chosen = doc["best"]
        if chosen == table:
            assert doc["best_from"] == "tables"
            agree += 1
            continue
        # the samples' own best, and the tables' level shown worse for this hand
        assert doc["best_from"] == "samples" and chosen == doc["sampled_best"]
        row = next(r for r in doc["choices"] if r["level"] == table)
        assert row["diff_high"] < 0, (cards(hand), SEATS[seat], table, chosen)
    assert agree >= 0.7 * n  # most hands: the tables' level stands


# --- a stronger hand -------------------------------------------------------------------
def stronger(hand: int) -> list[tuple[str, int]]:
    """The hand made stronger: a card for a higher one of its suit, a nine for an ace, a
    marriage completed (its missing half for the hand's lowest card outside a marriage);
    never breaking a marriage."""
    held = [c for c in range(24) if hand >> c & 1]
    marr = int(marriages_of(np.array(hand)))
    free = [c for c in held if c % 6 not in (2, 3) or not marr >> (c // 6) & 1]
    out = []
    for c in free:
        s, r = divmod(c, 6)
        out += [("higher", hand & ~(1 << c) | 1 << (6 * s + q))
                for q in range(r + 1, 6) if not hand >> (6 * s + q) & 1]  # fmt: skip
        if r == 0:
            out += [("nine for an ace", hand & ~(1 << c) | 1 << (6 * t + 5))
                    for t in range(4) if not hand >> (6 * t + 5) & 1]  # fmt: skip
    for s in range(4):
        king, queen = 6 * s + 3, 6 * s + 2
        if (hand >> king & 1) != (hand >> queen & 1):
            rest = [c for c in free if c not in (king, queen)]
            if rest:
                low = min(rest, key=lambda c: (c % 6, c))
                missing = queen if hand >> king & 1 else king
                out.append(("marriage completed", hand & ~(1 << low) | 1 << missing))
    return out


def lowered(weak: dict, strong: dict, key: str = "") -> bool:
    """The stronger hand's choice below the weaker's by more than either's interval."""
    best, low, high = f"{key}best", f"{key}low", f"{key}high"
    return strong[best] < weak[low] and strong[high] < weak[best]


def test_a_stronger_hand_is_not_told_to_bid_lower_beyond_its_interval(tables):
    cells = verdict_cells(tables)
    for r in cells.values():
        if r["seat"] == 0:  # the forehand's pass is its automatic 100
            r["best"], r["played_best"] = max(r["best"], 100), max(r["played_best"], 100)
    rng = np.random.default_rng(3)
    pairs = lowered_at_table = lowered_as_played = 0
    for _ in range(1500):
        hand = sum(1 << int(c) for c in rng.choice(24, 7, replace=False))
        for _kind, better in stronger(hand):
            pairs += 1
            for seat in range(3):
                weak, strong = cells[(*hand_class(hand), seat)], cells[(*hand_class(better), seat)]
                if lowered(weak, strong):
                    lowered_at_table += 1
                    # a third marriage without an ace, outside the forehand: the hand
                    # holds nothing to win a trick with, and passes
                    marr, aces = hand_class(better)
                    assert bin(marr).count("1") == 3 and aces == 0 and seat > 0, (
                        cards(hand),
                        cards(better),
                        SEATS[seat],
                    )
                if lowered(weak, strong, "played_"):
                    lowered_as_played += 1
                    # at the table as its player plays (every lost contract played out):
                    # a pass that scores by another seat's fall, which the table that
                    # concedes does not make
                    assert strong["played_best"] in (0, 100) and strong["played_share"] > 0
    assert pairs > 20_000
    assert lowered_at_table < 0.001 * 3 * pairs
    assert lowered_as_played > lowered_at_table  # the monsters' pass, as played
