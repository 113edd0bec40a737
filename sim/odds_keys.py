"""The deal-level quantities reported by ``thousand odds`` (docs/cli.md), one place for all.

Layouts (docs/rules.md §2, §12): with 3 or 4 players a *hand* is 7 cards, the *talon* 3
cards and *hand_talon* those 10 together; with 2 players a hand is 10 cards, the
talon is the first of the two 2-card talons (the one the declarer takes; both have
the same distribution) and hand_talon is 12 cards. ``hand.*`` is forehand's hand
(the player left of the dealer). ``deal.*`` looks at every dealt hand and the talon
under the rules' reshuffle settings (docs/rules.md §3); conditions that depend on the
bidding (``talon_only_at_100``) or on the discard (``after_discard_*``) are not
deal-level and are left out of them. The last four keys are the musik's odds as a
Polish player asks them (docs/rules.md §12): an ace in it (the four-player sitter
scores 50 for each under ``talon.sitter_scores = "aces"``), a marriage lying in it,
and a marriage of the hand plus the talon that the hand alone lacked (with two musiki
the one taken is either with the same chance, so these are its odds too).

A hand *meets the hand reshuffle condition* of rules R when
``(R.reshuffle.hand_points_below > 0 and points < hand_points_below)`` or
``(R.reshuffle.hand_nines > 0 and nines >= hand_nines)`` or
``(R.reshuffle.hand_four_jacks and jacks == 4)``; a talon meets the talon condition
when ``(talon_points_below > 0 and points < talon_points_below)`` or
``(talon_two_nines and nines >= 2)`` or ``(talon_three_jacks and jacks >= 3)``.
"""

from __future__ import annotations

ODDS_KEYS: dict[str, str] = {
    "hand.any_marriage": "forehand's hand holds at least one marriage (K+Q of a suit)",
    "hand.marriages_ge_2": "forehand's hand holds two or more marriages",
    "hand.marriage.S": "forehand's hand holds the ♠ marriage",
    "hand.marriage.C": "forehand's hand holds the ♣ marriage",
    "hand.marriage.D": "forehand's hand holds the ♦ marriage",
    "hand.marriage.H": "forehand's hand holds the ♥ marriage",
    "hand_talon.any_marriage": "forehand's hand plus the talon hold at least one marriage",
    "hand_talon.marriages_ge_2": "forehand's hand plus the talon hold two or more marriages",
    "hand_talon.marriage.S": "forehand's hand plus the talon hold the ♠ marriage",
    "hand_talon.marriage.C": "forehand's hand plus the talon hold the ♣ marriage",
    "hand_talon.marriage.D": "forehand's hand plus the talon hold the ♦ marriage",
    "hand_talon.marriage.H": "forehand's hand plus the talon hold the ♥ marriage",
    "hand.points_below_13": "forehand's hand has fewer than 13 card points",
    "hand.points_below_14": "forehand's hand has fewer than 14 card points",
    "hand.points_below_15": "forehand's hand has fewer than 15 card points",
    "hand.nines_ge_3": "forehand's hand holds three or four nines",
    "hand.nines_eq_4": "forehand's hand holds all four nines",
    "hand.jacks_eq_4": "forehand's hand holds all four jacks",
    "hand.aces_eq_4": "forehand's hand holds all four aces",
    "hand.reshuffle": "forehand's hand meets the rules' hand reshuffle condition",
    "talon.points_below_5": "the talon has fewer than 5 card points",
    "talon.nines_ge_2": "the talon holds two or more nines",
    "talon.jacks_eq_3": "the talon holds three jacks",
    "talon.reshuffle": "the talon meets the rules' talon reshuffle condition",
    "deal.some_player_has_marriage": "at least one player's dealt hand holds a marriage",
    "deal.any_hand_reshuffle": "at least one player's hand meets the hand reshuffle condition",
    "deal.talon_reshuffle": "the talon meets the talon reshuffle condition",
    "deal.any_reshuffle": "some hand or the talon meets a reshuffle condition",
    "talon.aces_ge_1": "the talon holds an ace",
    "talon.aces_ge_2": "the talon holds two or more aces",
    "talon.any_marriage": "a marriage lies in the talon",
    "talon.completes_marriage": "the talon completes a marriage forehand's hand lacked",
}
"""Every key of ``odds --json``, in report order, with its meaning."""
