"""The sizes of the solver's workspace: the one ``int64`` array a search runs in.

Kept apart from :mod:`sim.engine.search` (compiled code) because the engine's block
workspace reserves a solver's array for the sampling player: the engine needs these
sizes, not the search. The compiled-code cache keys a module on everything it imports
(:mod:`sim.cache`), so an engine importing the search itself recompiled whenever the
solver was edited.
"""

from __future__ import annotations

from sim.engine.state import N_STATE

MAX_PLY = 24  # cards in play: 8 tricks of 3, or 11 tricks of 2 (22)
WORLD = MAX_PLY + 1  # the stack's spare row: the sampling player builds its worlds there
MAX_WORLDS = 200
MAX_MOVES = 32  # plain cards and declaring leads of one hand
N_FRAME = 15  # a ply's frame: window, best, move index, table slot (search.F_*)
N_META = 8  # the workspace's counters (search.M_*)
N_SCRATCH = 5  # rows of MAX_WORLDS for the sampling player
T_WORDS = 2  # a table entry's words (search.T_*): 16 bytes, four to a cache line

FIXED = (
    (MAX_PLY + 2) * N_STATE  # stack
    + 4 * (MAX_PLY + 1) * MAX_MOVES  # moves, order, group, vals
    + (MAX_PLY + 1) * N_FRAME  # frame
    + N_META  # meta
    + N_SCRATCH * MAX_WORLDS  # scratch
    + 2 * MAX_MOVES  # probe_out
)


def arena_size(tt_bits: int) -> int:
    """Length of the one ``int64`` array that holds a solver with ``2**tt_bits`` entries.

    An entry is :data:`T_WORDS` words (16 bytes), and up to 7 more align the table's
    start on a cache line (so no entry straddles two).
    """
    return FIXED + 7 + T_WORDS * (1 << tt_bits)
