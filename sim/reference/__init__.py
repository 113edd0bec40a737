"""The reference engine: one hand of Thousand for 2, 3 or 4 players, in plain Python.

This package implements ``sim/engine/PROTOCOL.md`` (one hand) and
``GAME_PROTOCOL.md`` (whole games, :mod:`sim.reference.game`) literally and readably,
for clarity rather than speed. Its modules carry the names of the compiled engine's
(``sim/engine/``), so one rule reads side by side in both. The fast compiled engine
is checked against it (same decisions, same legal actions in the same ascending
order, same random numbers, same trace), and the rule scenario tests run through it.

Each rule lives in one small function, named after the phase of PROTOCOL.md it
implements:

* cards and random numbers — :mod:`~sim.reference.bits`, :mod:`~sim.reference.rng`;
* dealing, the cut and the bottom-card ritual — :mod:`~sim.reference.deal`;
* who plays — :class:`Table` (:mod:`~sim.reference.state`): the active seats and their
  turn order (all three of 3 players, both of 2, the three beside the dealer of 4);
* phase 0 (dark) — :func:`undarkening` (:mod:`~sim.reference.bidding`);
* phases 1, 3, 5 (reshuffle) — :func:`hand_reshuffle_reason`,
  :func:`talon_reshuffle_reason`, :func:`after_discard_reshuffle_reason`
  (:mod:`~sim.reference.reshuffle`);
* phase 2 (bidding) — :func:`bid_cap`, :func:`bid_raises`, :func:`bidding`;
* phases 3–4, 6, 7 (talon, discard, contract, concession) — :func:`talon_shown`,
  :func:`discard`, :func:`contract_options`, :func:`concession_deltas`
  (:mod:`~sim.reference.talon`);
* phase 9 (play) — :func:`legal_leads`, :func:`legal_follows`, :func:`beats`,
  :func:`trick_winner`, :func:`play_tricks` (:mod:`~sim.reference.play`);
* phase 10 (scoring) — :func:`round_points`, :func:`marriage_points`,
  :func:`declarer_delta`, :func:`opponent_delta`, :func:`score_played`,
  :func:`sitter_score` (the 4-player dealer's talon; :mod:`~sim.reference.scoring`);

and :func:`play_hand` (:mod:`~sim.reference.driver`) runs the phases in order.

Every decision goes through :class:`Chooser` (:mod:`~sim.reference.choose`): a
decision with one legal action is forced (no random number, no script token);
otherwise the next script token decides,
or, once the script is exhausted, the seat's strategy (``"first"``: the lowest code;
``"random"``: the counter-based stream of PROTOCOL.md).

The counter-based generator of :mod:`sim.rng` is re-implemented here on Python
integers (:func:`mix64`, :func:`item_state`, :func:`word`, :func:`bounded`), and so is
the shuffle of :func:`sim.engine.deal.generate_deals` (:func:`deal_cards`), so this engine
shares no compiled code with the fast one.

Readings of the protocol where it leaves a choice:

* :func:`play_hand_text` takes one hand per seat of the game; the 4-player dealer's
  hand is empty (``""``). With 2 players its ``talon`` holds 4 cards: the first two
  are the first talon (place 2), the last two the second (place 3), as the trace's
  ``talon`` lists them.
* DARK is offered on every dealt deal whose input is ``dark_allowed``, redeals and
  attempt ``MAX_REDEALS`` included (only the reshuffle demands are capped there).
* After an undarkening nobody has passed: a seat that answered "no" to UNDARKEN
  may still bid when its turn comes.
* The ``bonus.four_nines`` bonus is a separate entry of ``score_deltas`` (never in
  ``marriage_points`` or the total), doubled in golden and dark deals, and paid in
  conceded deals too.
* A dark contract made without ``dark.cap_240`` scores ``2 * round(total)``, rounded
  whatever ``score.round_declarer`` says.
* Golden and dark deals have ``at_100`` false, so with
  ``reshuffle.talon_only_at_100`` they never offer the talon reshuffle.
* A 4-player hand's card points of the three active seats sum to 120 (the declarer
  took the talon); the sitting-out dealer's talon points come on top.
"""

from __future__ import annotations

from sim.engine.actions import ScriptError
from sim.reference.bits import marriages_held
from sim.reference.choose import STRATEGIES, Chooser
from sim.reference.deal import (
    Dealt,
    bottom_ritual,
    cut_deck,
    deal_cards,
    deal_hand,
    gather,
    place_of_deal_position,
    seat_cards,
    talon_positions,
)
from sim.reference.driver import play_hand, play_hand_text, play_slot, play_slots
from sim.reference.play import beats, legal_follows, legal_leads, trick_winner
from sim.reference.reshuffle import AFTER_DISCARD_REASONS
from sim.reference.rng import bounded, item_state, mix64, word
from sim.reference.scoring import round_points
from sim.reference.state import PLAYERS, SPECIALS, Table, place_sizes

__all__ = [
    "AFTER_DISCARD_REASONS",
    "PLAYERS",
    "SPECIALS",
    "STRATEGIES",
    "Chooser",
    "Dealt",
    "ScriptError",
    "Table",
    "beats",
    "bottom_ritual",
    "bounded",
    "cut_deck",
    "deal_cards",
    "deal_hand",
    "gather",
    "item_state",
    "legal_follows",
    "legal_leads",
    "marriages_held",
    "mix64",
    "place_of_deal_position",
    "place_sizes",
    "play_hand",
    "play_hand_text",
    "play_slot",
    "play_slots",
    "round_points",
    "seat_cards",
    "talon_positions",
    "trick_winner",
    "word",
]
