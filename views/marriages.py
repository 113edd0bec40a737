"""The marriage table in words: each view and suit as the report shows it."""

from __future__ import annotations

from sim.cards import SUIT_LETTERS
from sim.i18n import N_, _

WHERE = {
    "hand": N_("in forehand's dealt hand"),
    "hand_talon": N_("in forehand's hand + talon"),
    "declared": N_("declared in a deal played out"),
}
"""Each view (``where``) in words, marked for the catalogues (the report shows them)."""


SUIT_SYMBOLS = dict(zip(SUIT_LETTERS, "♠♣♦♥", strict=True))


SUIT_WORDS = {"any": N_("any suit"), "A": N_("ace marriage")}
"""The rows that are no one suit, in words (the suits are shown by their symbols)."""


def suit_words(suit: str) -> str:
    """A marriage table's ``suit`` as the report shows it: a symbol, or words."""
    if suit in SUIT_SYMBOLS:
        return SUIT_SYMBOLS[suit]
    return _(SUIT_WORDS[suit]) if suit in SUIT_WORDS else suit
