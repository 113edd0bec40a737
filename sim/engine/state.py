"""Array layouts of the fast engine: rule parameters, deal state, output columns.

The compiled engine holds no Python objects. Everything it knows about one deal
lives in one ``int64`` state vector ``S`` whose slots are named below; rules arrive
as the ``int64`` rules vector of :mod:`sim.engine.params`; results leave as one row of the
``int32`` output table whose columns are :data:`OUT_COLUMNS`. Index constants are
module globals, which numba freezes into the compiled code.
"""

from __future__ import annotations

from collections import namedtuple

NO_SUIT = -1

# --- deal state vector S ---------------------------------------------------------------
(
    S_HAND0,
    S_HAND1,
    S_HAND2,  # current hand masks by seat
    S_DEALT0,
    S_DEALT1,
    S_DEALT2,  # 7-card dealt hands
    S_TALON,  # talon mask
    S_DEALER,
    S_FOREHAND,
    S_ATTEMPT,
    S_SCORE0,
    S_SCORE1,
    S_SCORE2,  # game scores before the deal
    S_BID,
    S_HIGH,
    S_PASSED,  # current bid, its bidder, bitmask of seats passed
    S_MAXBID0,
    S_MAXBID1,
    S_MAXBID2,
    S_DECL,
    S_WIN_BID,
    S_AT100,
    S_TALON_SHOWN,
    S_GIVE1,
    S_GIVE2,  # cards given to decl+1 and decl+2 (-1 before)
    S_AFTER0,
    S_AFTER1,
    S_AFTER2,  # 8-card hands right after the discard
    S_CONTRACT,
    S_CONCEDED,
    S_TRUMP,
    S_TRUMP_SETTER,
    S_PENDING,
    S_TRUMP_NAMED,
    S_TRICK_NO,
    S_LEADER,
    S_NPLAYED,  # trick number, its leader, cards in it so far
    S_TC0,
    S_TC1,
    S_TC2,  # cards of the current trick in play order
    S_BEST,
    S_BEST_SEAT,
    S_LED_SUIT,
    S_PLAYED,  # mask of every card played so far (all tricks)
    S_CAPT0,
    S_CAPT1,
    S_CAPT2,  # captured masks
    S_TRICKS0,
    S_TRICKS1,
    S_TRICKS2,
    S_MPTS0,
    S_MPTS1,
    S_MPTS2,  # declared marriage value (before capture rule)
    S_DECLARED0,
    S_DECLARED1,
    S_DECLARED2,  # suit bits of marriages declared, 16 = aces
    S_VOID0,
    S_VOID1,
    S_VOID2,  # suits each seat showed out of (public)
    S_RNG_CTR,
    S_TB_CTR,  # half-word counters of the random streams
    S_STRAT0,
    S_STRAT1,
    S_STRAT2,  # strategy id per seat
    S_SCRIPT_POS,
    S_ERROR,
    S_REDEAL_SEAT,
    S_REDEAL_REASON,  # set when this deal is redealt (-1 otherwise)
    S_NBIDS,
    S_NDEC,  # non-forced decisions so far (numbering for snapshots)
    S_SPECIAL,  # SPECIAL_NONE, SPECIAL_GOLDEN or SPECIAL_DARK (after undarkening: none)
    S_UNDARK,  # seat that undarkened a dark declaration, -1 otherwise
    S_TALON_OTHER,  # 2 players: the talon set aside for the last trick
    S_TALON_PICK,  # 2 players: which talon the declarer took (-1 before)
    S_LAST_TALON_TO,  # 2 players: who captured the set-aside talon (-1 before)
    S_FLAGS,  # the deal's hand inputs: no-concede bits, barrel bits, FLAG_GOLDEN, FLAG_DARK_ALLOWED
    S_MAY_REDEAL,  # 1 while reshuffle demands are offered (0 at attempt MAX_REDEALS)
    S_TRACE,  # 1 when the bidding and trick logs are kept
    S_RNG,  # the random strategy's item state (uint64 bits)
    S_TIEBREAK,  # the tie-break stream's item state (uint64 bits)
    S_LEAD_MARRIAGE,  # the current trick's declaration: suit, 4 for the aces, -1 none
    S_PILE0,  # S_PILE0 + k: the k-th card played in the deal (24 slots; docs/rules.md §2 cut)
) = range(82)
N_STATE = S_PILE0 + 24

# --- special deals (S_SPECIAL, the ``special`` output column) and hand-input flags -------
SPECIAL_NONE, SPECIAL_GOLDEN, SPECIAL_DARK = 0, 1, 2
SPECIALS = (None, "golden", "dark")
# S_FLAGS (the game's hand inputs): bit s forbids hand seat s to concede, bit
# FLAG_BARREL0 + s says it sits on the barrel, and two bits say what deal it is.
FLAG_BARREL0 = 3
FLAG_GOLDEN = 1 << 6  # seat_flags bit: this deal is golden
FLAG_DARK_ALLOWED = 1 << 7  # seat_flags bit: forehand may declare dark
MAX_TRICKS = 11  # 2 players play 11 tricks

# --- redeal reasons (codes of S_REDEAL_REASON) --------------------------------------------
REASONS = (
    "hand_points_below",
    "hand_nines",
    "hand_four_jacks",
    "talon_points_below",
    "talon_two_nines",
    "talon_three_jacks",
    "after_discard_four_nines",
    "after_discard_points_below",
)
R_TALON0 = 3
R_AFTER0 = 6

# --- errors -----------------------------------------------------------------------------
ERR_SCRIPT = 1  # a scripted action was not legal

# --- output columns ----------------------------------------------------------------------
OUT_COLUMNS = (
    "dealer",
    "redeals",
    "declarer",
    "winning_bid",
    "at_100",
    "contract",
    "conceded",
    "made",
    "declarer_total",
    "talon_points",
    "talon_shown",
    "trump_named",
    "hand_points_0",
    "hand_points_1",
    "hand_points_2",
    "marriages_held_0",
    "marriages_held_1",
    "marriages_held_2",
    "declarer_marriages_after",
    "max_bid_0",
    "max_bid_1",
    "max_bid_2",
    "card_points_0",
    "card_points_1",
    "card_points_2",
    "marriage_points_0",
    "marriage_points_1",
    "marriage_points_2",
    "declared_0",
    "declared_1",
    "declared_2",
    "tricks_0",
    "tricks_1",
    "tricks_2",
    "delta_0",
    "delta_1",
    "delta_2",
    "bolt_0",
    "bolt_1",
    "bolt_2",
    "error",
    "redeal_seat",
    "redeal_reason",
    "discard_1",
    "discard_2",
    "special",
    "undarkened_by",
    "talon_pick",
    "last_talon_to",
    "talon_marriages",
)
OUT = {name: i for i, name in enumerate(OUT_COLUMNS)}
(
    O_DEALER,
    O_REDEALS,
    O_DECLARER,
    O_WIN_BID,
    O_AT100,
    O_CONTRACT,
    O_CONCEDED,
    O_MADE,
    O_DECL_TOTAL,
    O_TALON_POINTS,
    O_TALON_SHOWN,
    O_TRUMP_NAMED,
    O_HAND_POINTS0,
    _,
    _,
    O_MARR_HELD0,
    _,
    _,
    O_DECL_MARR_AFTER,
    O_MAXBID0,
    _,
    _,
    O_CARD_POINTS0,
    _,
    _,
    O_MARR_POINTS0,
    _,
    _,
    O_DECLARED0,
    _,
    _,
    O_TRICKS0,
    _,
    _,
    O_DELTA0,
    _,
    _,
    O_BOLT0,
    _,
    _,
    O_ERROR,
    O_REDEAL_SEAT,
    O_REDEAL_REASON,
    O_DISCARD1,
    O_DISCARD2,
    O_SPECIAL,
    O_UNDARK,
    O_TALON_PICK,
    O_LAST_TALON_TO,
    O_TALON_MARR,
) = range(len(OUT_COLUMNS))
N_OUT = len(OUT_COLUMNS)

# --- decision snapshots (tests): S, then kind, seat, n, legal[64], then the target ---
SNAP_KIND = N_STATE
SNAP_SEAT = N_STATE + 1
SNAP_N = N_STATE + 2
SNAP_LEGAL = N_STATE + 3
SNAP_AT = N_STATE + 3 + 64
SNAP_LEN = SNAP_AT + 1

MAX_BIDS_LOG = 80  # bidding entries kept for traces (100..400 by 5 is 61 raises + passes)

# --- the per-deal bundle ------------------------------------------------------------------
Workspace = namedtuple(
    "Workspace",
    [
        "S", "legal", "out", "bids", "tricks", "snap", "script", "strat", "scores", "SP",
        "masks", "cards", "deck",
    ],
)  # fmt: skip
"""Everything one deal reads and writes besides the rules vector, in one argument.

``S`` the state vector; ``legal`` (int64[64]) the legal codes of a listed decision;
``out`` the deal's output row (:data:`OUT_COLUMNS`); ``bids`` (int16[MAX_BIDS_LOG, 2])
and ``tricks`` (int8[MAX_TRICKS, 6]) the bidding and trick logs (written when
``S[S_TRACE]``); ``snap`` a decision snapshot (tests; ``SNAP_*``); ``script`` the
scripted tokens (``(kinds, code)`` rows, scenario tests); ``strat``, ``scores`` and
``SP`` the strategy id, game score and strategy parameters of each hand seat;
``masks`` (uint32[4]) the dealt places, ``cards`` (int8[24]) and ``deck``
(int64[DECK_WORK]) the dealer's scratch.
"""
