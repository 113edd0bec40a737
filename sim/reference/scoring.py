"""Phase 10: scoring a deal, a concession, the 4-player sitter (docs/rules.md §7, §10-§12)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.cards import N_RANKS, N_SUITS, Rank
from sim.reference.bidding import DARK_CONTRACT
from sim.reference.bits import ACE_BIT, count_rank, marriage_sum, points, rank
from sim.reference.state import PlayState, Table
from sim.rules import ACE_MARRIAGE_VALUE, Rules

SITTER_ACE_POINTS = 50  # talon.sitter_scores = "aces": the 4-player sitter's score per ace


def locked(rules: Rules, score: int) -> bool:
    """``score.lock_at`` (§7): a game score this high scores only its own contracts."""
    return rules.score.lock_at is not None and score >= rules.score.lock_at


def round_points(rules: Rules, x: int) -> int:
    """Round a total to ``score.round_to``.

    ``score.round_mode = "nearest"``: to 5, remainders 1-2 down and 3-4 up; to 10, 5 up.
    ``"up"``: every remainder goes up (21 -> 25 or 30).
    """
    m = rules.score.round_to
    if rules.score.round_mode == "up":
        return -(-x // m) * m
    if m == 10:
        return (x + 5) // 10 * 10
    return (x + 2) // 5 * 5


def marriage_points(
    rules: Rules, declared: int, declared_value: int, captured: Sequence[int], is_declarer: bool
) -> int:
    """A player's marriage points; with ``marriage.requires_capture`` only captured ones.

    With ``marriage.only_declarer`` a defender's marriages score 0.
    """
    if rules.marriage.only_declarer and not is_declarer:
        return 0
    if not rules.marriage.requires_capture:
        return declared_value
    got = set(captured)
    total = 0
    for s in range(N_SUITS):
        marriage_cards = {s * N_RANKS + Rank.QUEEN, s * N_RANKS + Rank.KING}
        if declared >> s & 1 and got & marriage_cards:
            total += rules.marriage_values[s]
    if declared & ACE_BIT and any(rank(c) == Rank.ACE for c in got):
        total += ACE_MARRIAGE_VALUE
    return total


def four_nines_bonus(rules: Rules, after_discard: Sequence[int], special: str | None) -> int:
    """``bonus.four_nines`` of a hand that holds four nines after the discard (§6).

    A separate entry of the deal score whatever the deal's result (played or
    conceded): not part of the deal total, not rounded, doubled in golden and dark
    deals.
    """
    if rules.bonus.four_nines == 0 or count_rank(after_discard, Rank.NINE) != 4:
        return 0
    return rules.bonus.four_nines * (1 if special is None else 2)


def declarer_delta(
    rules: Rules, made: bool, contract: int, total: int, special: str | None = None
) -> int:
    """The declarer's delta of a played deal (PROTOCOL.md §10, "Golden", "Dark").

    Ordinary: ``+contract`` made, ``-contract`` failed. Golden: doubled. Dark: made
    ``+240`` with ``dark.cap_240`` (else ``+2 * round(total)``), failed ``-240``.
    """
    if special == "dark":
        if not made:
            return -2 * DARK_CONTRACT
        return 2 * DARK_CONTRACT if rules.dark.cap_240 else 2 * round_points(rules, total)
    delta = contract if made else -contract
    return 2 * delta if special == "golden" else delta


def opponent_delta(rules: Rules, total: int, marriage_pts: int, special: str | None = None) -> int:
    """An opponent's delta (also the 4-player dealer's talon score).

    Ordinary: ``round(total)``. Golden: ``2 * round(total)``, less the marriage
    points once without ``golden.double_marriages``. Dark: ``2 * round(total) -
    marriage_pts`` (marriages are never doubled in the dark).
    """
    rounded = round_points(rules, total)
    if special == "golden":
        if rules.golden.double_marriages:
            return 2 * rounded
        return 2 * rounded - marriage_pts
    if special == "dark":
        return 2 * rounded - marriage_pts
    return rounded


def score_played(
    rules: Rules,
    table: Table,
    st: PlayState,
    contract: int,
    captured: list[list[int]],
    tricks_taken: list[int],
    after_discard: list[list[int]],
    special: str | None = None,
    scores: Sequence[int] | None = None,
    laid: Sequence[int] = (),
) -> dict[str, Any]:
    """Points, deltas, ``made`` and bolts of a played deal (PROTOCOL.md §10, docs/rules.md §7).

    Every list has one entry per seat of the game; a seat that sits out gets 0s
    here (:func:`sitter_score` scores it). A seat whose game score (``scores``, 0 when
    None) is locked by ``score.lock_at`` scores only its own contract: a defender 0,
    the declarer its contract without the four-nines bonus. ``laid``: two players
    laying away (§12), the cards laid away, already in the declarer's ``captured``: no
    trick, and no escape from a ``zero_points`` bolt.
    """
    card_pts = table.zeros()
    marriage_pts = table.zeros()
    for s in table.active:
        card_pts[s] = points(captured[s])
        marriage_pts[s] = marriage_points(
            rules, st.declared[s], st.declared_value[s], captured[s], s == st.declarer
        )
    total = [card_pts[s] + marriage_pts[s] for s in range(table.players)]
    decl = st.declarer
    compared = round_points(rules, total[decl]) if rules.score.round_declarer else total[decl]
    made = compared >= contract
    deltas = table.zeros()
    bolts = table.zeros()
    for s in table.active:
        if s == decl:
            deltas[s] = declarer_delta(rules, made, contract, total[s], special)
        else:
            deltas[s] = opponent_delta(rules, total[s], marriage_pts[s], special)
        if not locked(rules, scores[s] if scores else 0):
            deltas[s] += four_nines_bonus(rules, after_discard[s], special)
        elif s != decl:
            deltas[s] = 0
        if rules.bolt.on == "no_tricks":
            bolt = tricks_taken[s] == 0
        else:  # "zero_points": a deal total that rounds to 0 (cards laid away excepted)
            counted = total[s] - (points(laid) if s == decl else 0)
            bolt = round_points(rules, counted) == 0
        if s == decl and rules.bolt.declarer_exempt:
            bolt = False
        bolts[s] = int(bolt)
    return {
        "card_points": card_pts,
        "marriage_points": marriage_pts,
        "tricks_taken": tricks_taken,
        "score_deltas": deltas,
        "bolts": bolts,
        "made": made,
    }


def sitter_score(rules: Rules, talon: Sequence[int], special: str | None = None) -> dict[str, int]:
    """The 4-player dealer's score from the talon (PROTOCOL.md "Four players").

    Card points of the talon, the marriages (K+Q) lying in it, and the delta
    ``round(points + marriages)``, doubled in a golden or dark deal like an
    opponent's (:func:`opponent_delta`). No tricks, no bolt. With
    ``talon.sitter_scores = "aces"`` 50 for each ace takes the card points' place
    (the card points written are 0).
    """
    card_pts = points(talon)
    marriage_pts = marriage_sum(rules, talon)
    base = card_pts
    if rules.talon.sitter_scores == "aces":
        card_pts = 0
        base = SITTER_ACE_POINTS * count_rank(talon, Rank.ACE)
    delta = opponent_delta(rules, base + marriage_pts, marriage_pts, special)
    return {"card_points": card_pts, "marriage_points": marriage_pts, "score_delta": delta}
