"""Decision kinds and action codes shared by the fast and the reference engine.

See ``PROTOCOL.md`` beside this file: each decision offers legal actions as integer
codes in ascending order. Scripts for scenario tests are written as readable tokens
and encoded here, so both engines read the same script the same way.
"""

from __future__ import annotations

from enum import IntEnum

from sim.cards import SUIT_LETTERS, parse_card
from sim.rules import MAX_BID as MAX_BID  # the highest bid, re-exported for the engine

DECLARE = 24  # PLAY code offset of a declaring lead (marriage or ace marriage)
PASS = 0  # BID code of a pass
CARD_POINTS_TOTAL = 120  # the deck's card points; also the bid cap without a marriage
ACE_BIT = 16  # bit of the ace marriage in a player's ``declared`` suit mask
MAX_REDEALS = 32
REDEAL_STRIDE = 1 << 40  # deal number of attempt a of slot i: i + a * REDEAL_STRIDE


class ScriptError(ValueError):
    """A script token that does not fit, or is not legal at, its decision."""


class Decision(IntEnum):
    """Kinds of decision, in the order they can occur in a deal."""

    RESHUFFLE_HAND = 0
    BID = 1
    RESHUFFLE_TALON = 2
    DISCARD = 3
    RESHUFFLE_AFTER = 4
    CONTRACT = 5
    CONCEDE = 6
    NAME_TRUMP = 7
    PLAY = 8
    DARK = 9  # forehand plays 120 dark (docs/rules.md §11)
    UNDARKEN = 10  # an opponent with a marriage bids 125 against a dark declaration
    TALON_PICK = 11  # 2 players: which of the two talons the declarer takes


_YES = {True: 1, False: 0, "yes": 1, "no": 0, "demand": 1, "keep": 0, "concede": 1, "play": 0}
_DARK = {True: 1, False: 0, "dark": 1, "light": 0}
_UNDARKEN = {True: 1, False: 0, "undarken": 1, "no": 0}


def encode_token(kind: Decision, token: object) -> int:
    """The action code of a script token for a decision of ``kind``.

    Tokens: ``"pass"`` or an int for BID; an int for CONTRACT; a card (``"QS"``,
    ``"10♦"``) for DISCARD and PLAY, with a trailing ``"!"`` for a declaring lead
    (``"KH!"``); a bool (or ``"demand"``/``"keep"``, ``"concede"``/``"play"``) for
    RESHUFFLE_* and CONCEDE; a suit letter for NAME_TRUMP; a bool (or ``"dark"``/
    ``"light"``) for DARK, a bool (or ``"undarken"``/``"no"``) for UNDARKEN, the int 0
    or 1 for TALON_PICK.

    Raises:
        ValueError: when the token does not fit the decision.
    """
    if kind == Decision.BID:
        if token == "pass":
            return PASS
        if isinstance(token, int) and not isinstance(token, bool) and token > 0:
            return token
    elif kind == Decision.CONTRACT:
        if isinstance(token, int) and not isinstance(token, bool) and token > 0:
            return token
    elif kind in (Decision.DISCARD, Decision.PLAY) and isinstance(token, str):
        declare = token.endswith("!")
        if declare and kind == Decision.DISCARD:
            raise ValueError(f"a discard cannot declare: {token!r}")
        card = parse_card(token[:-1] if declare else token)
        return card + (DECLARE if declare else 0)
    elif kind in (
        Decision.RESHUFFLE_HAND,
        Decision.RESHUFFLE_TALON,
        Decision.RESHUFFLE_AFTER,
        Decision.CONCEDE,
    ):
        if isinstance(token, bool | str) and token in _YES:
            return _YES[token]
    elif kind == Decision.NAME_TRUMP and isinstance(token, str) and token.upper() in SUIT_LETTERS:
        return SUIT_LETTERS.index(token.upper())
    elif kind == Decision.DARK and isinstance(token, bool | str) and token in _DARK:
        return _DARK[token]
    elif kind == Decision.UNDARKEN and isinstance(token, bool | str) and token in _UNDARKEN:
        return _UNDARKEN[token]
    elif kind == Decision.TALON_PICK and type(token) is int and token in (0, 1):
        return token
    raise ValueError(f"script token {token!r} does not fit a {kind.name} decision")
