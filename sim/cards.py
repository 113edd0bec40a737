"""Cards of the 24-card Thousand deck: ids, masks, points and text notation.

Two layers (docs/rules.md §1):

* for people, tests and reports: :class:`Suit`, :class:`Rank` and :class:`Card`,
  parsed from and printed to both ``A♥ 10♦`` and ``AH TD`` notations, and parsed
  from the notations players write in Russian and Ukrainian (``Т♥ 10♥ К♥ Д♥ В♦``, or
  ``Тч Кп Дб Вт`` with the suit's letter) and in Polish (``A♥ K♥ D♥ W♦``);
* for the engine: plain card ids ``suit * 6 + rank`` (0..23) and ``uint32`` hand
  masks whose bit ``id`` is set when the card is held, i.e. 6 bits per suit.

All lookup tables below are built once at import and are read-only numpy arrays
that compiled code can close over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from sim.i18n import N_, _, answer_cards

N_CARDS = 24
N_SUITS = 4
N_RANKS = 6


class Suit(IntEnum):
    """Suits in id order; the order also fixes the bit layout of hand masks."""

    S = 0  # spades ♠
    C = 1  # clubs ♣
    D = 2  # diamonds ♦
    H = 3  # hearts ♥

    @property
    def symbol(self) -> str:
        """The suit's symbol, e.g. ``♥``."""
        return SUIT_SYMBOLS[self]


class Rank(IntEnum):
    """Ranks in trick-taking order, low to high: 9 < J < Q < K < 10 < A."""

    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5

    @property
    def letter(self) -> str:
        """ASCII letter used in traces: ``9 J Q K T A``."""
        return RANK_LETTERS[self]


SUIT_LETTERS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
RANK_LETTERS = "9JQKTA"
RANK_POINTS = (0, 2, 3, 4, 10, 11)  # docs/rules.md §1: 9=0 J=2 Q=3 K=4 10=10 A=11

# --- engine tables (index = card id) -------------------------------------------------
CARD_RANK = np.tile(np.arange(N_RANKS, dtype=np.int8), N_SUITS)
CARD_POINTS = np.array([RANK_POINTS[r] for r in CARD_RANK], dtype=np.int8)

SUIT_MASK = np.array([0x3F << (6 * s) for s in range(N_SUITS)], dtype=np.uint32)
RANK_MASK = np.array(
    [sum(1 << (6 * s + r) for s in range(N_SUITS)) for r in range(N_RANKS)], dtype=np.uint32
)
# K+Q of one suit: bits of the queen and the king of that suit.
MARRIAGE_MASK = np.array(
    [(1 << (6 * s + Rank.QUEEN)) | (1 << (6 * s + Rank.KING)) for s in range(N_SUITS)],
    dtype=np.uint32,
)


@dataclass(frozen=True, order=True)
class Card:
    """One card for people: a suit and a rank; ``int(card)`` is its id."""

    suit: Suit
    rank: Rank

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """Build a card from its id ``suit * 6 + rank``."""
        if not 0 <= int(card_id) < N_CARDS:
            raise ValueError(f"card id out of range 0..23: {card_id}")
        return cls(Suit(int(card_id) // N_RANKS), Rank(int(card_id) % N_RANKS))

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse one card in either notation (``A♥``, ``10♦``, ``AH``, ``td``)."""
        return cls.from_id(parse_card(text))

    @property
    def id(self) -> int:
        """The card id ``suit * 6 + rank``."""
        return int(self.suit) * N_RANKS + int(self.rank)

    @property
    def points(self) -> int:
        """Card points (A 11, 10 10, K 4, Q 3, J 2, 9 0)."""
        return RANK_POINTS[self.rank]

    def __int__(self) -> int:
        return self.id

    def __str__(self) -> str:
        return card_str(self.id)

    def pretty(self) -> str:
        """Human notation with a suit symbol, e.g. ``10♦``."""
        return card_pretty(self.id)


class CardParseError(ValueError):
    """A card or hand string could not be read; the message names the culprit."""


_RANK_TEXT = {
    "9": 0, "J": 1, "Q": 2, "K": 3, "10": 4, "T": 4, "A": 5,
    # Polish: Dama, Walet (As and Król write as A and K)
    "D": 2, "W": 1,
    # Russian and Ukrainian, in Cyrillic: Туз, Король, Дама, Валет
    "Т": 5, "К": 3, "Д": 2, "В": 1,
}  # fmt: skip
_SUIT_TEXT = {
    "S": 0, "C": 1, "D": 2, "H": 3, "♠": 0, "♣": 1, "♦": 2, "♥": 3,
    # Russian and Ukrainian: пики/піки, трефы/трефи (хрести), бубны/бубни, червы/черви
    "П": 0, "Т": 1, "Х": 1, "Б": 2, "Ч": 3,
}  # fmt: skip
# Alternative symbol glyphs people paste (white suits, emoji variation selectors).
_SUIT_ALIASES = {"♤": "♠", "♧": "♣", "♢": "♦", "♡": "♥"}
_CARD_RE = re.compile(r"^(10|[9JQKTADWТКДВ])([SCDH♠♣♦♥ПТХБЧ])$")
NOTATIONS = N_(
    "rank 9 J Q K 10/T A (Russian/Ukrainian Т К Д В, Polish D W) and suit S C D H, "
    "♠♣♦♥ or п т б ч (х)"
)
"""The card notations :func:`parse_card` reads, in words (error messages translate it)."""


def parse_card(text: str) -> int:
    """Return the id of one card written as ``A♥``, ``10♦``, ``AH`` or ``TD``.

    Also in the players' own notations: Russian and Ukrainian ranks Т (туз), К, Д,
    В (валет) in Cyrillic, with a suit symbol or letter п (пики), т (трефы; х,
    хрести), б (бубны), ч (червы): ``Т♥``, ``Дп``, ``10ч``; Polish ranks D (dama) and W
    (walet): ``D♥``, ``WD``. Rank first, then suit; case-insensitive; surrounding
    whitespace is ignored.

    Raises:
        CardParseError: naming the text when it is not a card.
    """
    raw = str(text)
    t = raw.strip().upper().replace("\ufe0f", "")
    for alias, sym in _SUIT_ALIASES.items():
        t = t.replace(alias, sym)
    m = _CARD_RE.match(t)
    if m is None:
        raise CardParseError(
            _("malformed card {card}: expected {notations}").format(
                card=repr(raw), notations=_(NOTATIONS)
            )
        )
    return _SUIT_TEXT[m.group(2)] * N_RANKS + _RANK_TEXT[m.group(1)]


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse a hand: a whitespace/comma separated string or an iterable of card strings.

    Raises:
        CardParseError: for a malformed card or a card given twice.
    """
    tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    ids = [parse_card(tok) for tok in tokens if str(tok).strip()]
    seen: set[int] = set()
    for cid in ids:
        if cid in seen:
            raise CardParseError(_("card {card} given twice").format(card=answer_cards([cid])))
        seen.add(cid)
    return ids


def card_str(card_id: int) -> str:
    """Two-character trace notation, rank ``9 J Q K T A`` then suit ``S C D H``."""
    c = int(card_id)
    return RANK_LETTERS[c % N_RANKS] + SUIT_LETTERS[c // N_RANKS]


def card_pretty(card_id: int) -> str:
    """Human notation with ``10`` and a suit symbol, e.g. ``10♦``."""
    c = int(card_id)
    rank = "10" if c % N_RANKS == Rank.TEN else RANK_LETTERS[c % N_RANKS]
    return rank + SUIT_SYMBOLS[c // N_RANKS]


def cards_str(ids: Iterable[int], pretty: bool = False) -> str:
    """Space-separated notation of several cards."""
    fmt = card_pretty if pretty else card_str
    return " ".join(fmt(c) for c in ids)


def mask_of(ids: Iterable[int]) -> int:
    """``uint32`` hand mask (as a Python int) with the bits of the given card ids."""
    m = 0
    for c in ids:
        m |= 1 << int(c)
    return m


def hand_mask(text: str | Iterable[str]) -> int:
    """Hand mask of a hand written as text, e.g. ``hand_mask("AH TH KS QS")``."""
    return mask_of(parse_cards(text))


def cards_of(mask: int) -> list[int]:
    """Card ids held in a mask, ascending (suit, then rank)."""
    m = int(mask)
    return [c for c in range(N_CARDS) if m >> c & 1]


def mask_points(mask: int) -> int:
    """Card points of the cards in a mask."""
    return sum(RANK_POINTS[c % N_RANKS] for c in cards_of(mask))


def mask_marriages(mask: int) -> int:
    """Suit bitmask (bit s = suit s) of the marriages (K+Q) held in a hand mask."""
    m = int(mask)
    return sum(1 << s for s in range(N_SUITS) if m & int(MARRIAGE_MASK[s]) == MARRIAGE_MASK[s])
