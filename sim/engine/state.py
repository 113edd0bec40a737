"""Array layouts of the fast engine: rule parameters, deal state, output columns.

The compiled engine holds no Python objects. Everything it knows about one deal
lives in one ``int64`` state vector ``S`` whose slots are named below; rules arrive
as the ``int64`` rules vector of :mod:`sim.engine.params`; results leave as one row of the
``int32`` output table whose columns are :data:`OUT_COLUMNS`. Index constants are
module globals, which numba freezes into the compiled code.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

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
    S_NOT0,
    S_NOT1,
    S_NOT2,  # cards each seat has shown it does not hold (voids, must trump, must beat)
    S_PIMC_CTR,  # half-word counter of the sampling player's stream
    S_PILE0,  # S_PILE0 + k: the k-th card played in the deal (24 slots; docs/rules.md §2 cut)
) = range(86)
N_STATE = S_PILE0 + 24

# --- special deals (S_SPECIAL, the ``special`` output column) and hand-input flags -------
SPECIAL_NONE, SPECIAL_GOLDEN, SPECIAL_DARK = 0, 1, 2
SPECIALS = (None, "golden", "dark")
# S_FLAGS (the game's hand inputs): bit s forbids hand seat s to concede, bit
# FLAG_BARREL0 + s says it sits on the barrel, two bits say what deal it is, and one that
# the bids were not the players' own (sim.engine.declarer's forced auction).
FLAG_BARREL0 = 3
FLAG_GOLDEN = 1 << 6  # seat_flags bit: this deal is golden
FLAG_DARK_ALLOWED = 1 << 7  # seat_flags bit: forehand may declare dark
FLAG_FORCED_AUCTION = 1 << 8  # the auction was forced (every hand as the declarer's)
TRICKS_3, TRICKS_2 = 8, 11  # tricks in a deal of three players, of two
MAX_TRICKS = TRICKS_2

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
ERR_NO_PLAYER = -1  # a seat's player was not compiled into the run (an engine bug)

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
    "declarer_marriages_after",
    "hand_points_0",
    "hand_points_1",
    "hand_points_2",
    "marriages_held_0",
    "marriages_held_1",
    "marriages_held_2",
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
O_DEALER = OUT["dealer"]
O_REDEALS = OUT["redeals"]
O_DECLARER = OUT["declarer"]
O_WIN_BID = OUT["winning_bid"]
O_AT100 = OUT["at_100"]
O_CONTRACT = OUT["contract"]
O_CONCEDED = OUT["conceded"]
O_MADE = OUT["made"]
O_DECL_TOTAL = OUT["declarer_total"]
O_TALON_POINTS = OUT["talon_points"]
O_TALON_SHOWN = OUT["talon_shown"]
O_TRUMP_NAMED = OUT["trump_named"]
O_DECL_MARR_AFTER = OUT["declarer_marriages_after"]
O_HAND_POINTS0 = OUT["hand_points_0"]
O_MARR_HELD0 = OUT["marriages_held_0"]
O_MAXBID0 = OUT["max_bid_0"]
O_CARD_POINTS0 = OUT["card_points_0"]
O_MARR_POINTS0 = OUT["marriage_points_0"]
O_DECLARED0 = OUT["declared_0"]
O_TRICKS0 = OUT["tricks_0"]
O_DELTA0 = OUT["delta_0"]
O_BOLT0 = OUT["bolt_0"]
O_ERROR = OUT["error"]
O_REDEAL_SEAT = OUT["redeal_seat"]
O_REDEAL_REASON = OUT["redeal_reason"]
O_DISCARD1 = OUT["discard_1"]
O_DISCARD2 = OUT["discard_2"]
O_SPECIAL = OUT["special"]
O_UNDARK = OUT["undarkened_by"]
O_TALON_PICK = OUT["talon_pick"]
O_LAST_TALON_TO = OUT["last_talon_to"]
O_TALON_MARR = OUT["talon_marriages"]
N_OUT = len(OUT_COLUMNS)

# --- the rows a batch returns: game seats --------------------------------------------------
# The hand engine's row (OUT_COLUMNS) is in hand seats; a batch's rows are in game seats:
# the per-seat columns run over four seats (4 players: the dealer sits out and scores the
# talon there; 2 players: seat 2 and 3 stay 0) and the seat-valued columns name game seats.
SEAT_BASES = (
    "hand_points",
    "marriages_held",
    "max_bid",
    "card_points",
    "marriage_points",
    "declared",
    "tricks",
    "delta",
    "bolt",
)
SEAT_VALUED = ("declarer", "undarkened_by", "last_talon_to")
MAX_SEATS = 4
_PER_SEAT = {f"{b}_{s}" for b in SEAT_BASES for s in range(3)}
ROW_COLUMNS = tuple(c for c in OUT_COLUMNS if c not in _PER_SEAT) + tuple(
    f"{b}_{s}" for b in SEAT_BASES for s in range(MAX_SEATS)
)
ROW = {name: i for i, name in enumerate(ROW_COLUMNS)}
N_ROW = len(ROW_COLUMNS)
N_SCALAR = len(OUT_COLUMNS) - len(_PER_SEAT)  # the columns a row copies as they are
ROW_FROM_OUT = np.array([OUT[c] for c in ROW_COLUMNS[:N_SCALAR]], dtype=np.int64)
SEAT_VALUED_AT = np.array([ROW[c] for c in SEAT_VALUED], dtype=np.int64)
R_SEAT0 = N_SCALAR  # ROW index of ``{base}_{s}`` is R_SEAT0 + base * MAX_SEATS + s
R_DEALER, R_REDEALS, R_ERROR = ROW["dealer"], ROW["redeals"], ROW["error"]
R_DECLARER, R_MADE, R_CONTRACT = ROW["declarer"], ROW["made"], ROW["contract"]
R_CONCEDED, R_SPECIAL = ROW["conceded"], ROW["special"]
(
    B_HAND_POINTS, B_MARRIAGES_HELD, B_MAX_BID, B_CARD_POINTS, B_MARRIAGE_POINTS,
    B_DECLARED, B_TRICKS, B_DELTA, B_BOLT,
) = range(len(SEAT_BASES))  # fmt: skip
O_SEAT0 = OUT["hand_points_0"]  # OUT index of ``{base}_{h}`` is O_SEAT0 + base * 3 + h
assert all(
    OUT[f"{b}_{h}"] == O_SEAT0 + i * 3 + h for i, b in enumerate(SEAT_BASES) for h in range(3)
)

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
        "masks", "cards", "deck", "arena", "hooks",
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
(int64[DECK_WORK]) the dealer's scratch; ``arena`` the one array holding the
open-card solver of the sampling player (``pimc``, :func:`sim.engine.search.solver_view`),
with a table of two entries when no seat plays it; ``hooks`` the addresses of the
compiled callbacks the run's seats need (:mod:`sim.engine.strategies.hook`).
"""
