"""The one rules vector every compiled kernel reads: ``Rules.to_array()`` plus a tail.

Slots are looked up by option key (:data:`sim.rules.RULE_INDEX`), never counted:
``P[P_MUST_TRUMP]`` is the value of ``play.must_trump`` as :meth:`Rules.to_array`
codes it (booleans 0/1, an enumeration the index of its value in the option's
choices, ``bid.silence_below`` off as ``INT64_MIN`` so that no score is below it,
``game.bank`` off as -1). The tail after the options holds values derived from them
that kernels would otherwise recompute: the marriage values by suit and the number
of players in a hand. Module globals are frozen into the compiled code by numba.
"""

from __future__ import annotations

import functools

import numpy as np

from sim.rules import RULE_INDEX, RULE_KEYS, Rules, rule_choices


def slot(key: str) -> int:
    """The slot of an option in the rules vector."""
    return RULE_INDEX[key]


def code(key: str, value: str) -> int:
    """How the rules vector codes the value ``value`` of an enumerated option."""
    return rule_choices(key).index(value)


# --- option slots (docs/rules.md, by section) --------------------------------------------
# §2 dealing
P_DEAL_METHOD = slot("deal.method")
P_NINE_PENALTY = slot("deal.nine_cut_penalty")
P_JACK_MIDDLE = slot("deal.jack_to_middle")
P_CUT_CHAIN = slot("deal.cut_chain")
# §3 reshuffle
P_HAND_POINTS_BELOW = slot("reshuffle.hand_points_below")
P_HAND_NINES = slot("reshuffle.hand_nines")
P_HAND_FOUR_JACKS = slot("reshuffle.hand_four_jacks")
P_TALON_POINTS_BELOW = slot("reshuffle.talon_points_below")
P_TALON_TWO_NINES = slot("reshuffle.talon_two_nines")
P_TALON_THREE_JACKS = slot("reshuffle.talon_three_jacks")
P_TALON_ONLY_AT_100 = slot("reshuffle.talon_only_at_100")
P_AFTER_FOUR_NINES = slot("reshuffle.after_discard_four_nines")
P_AFTER_POINTS_BELOW = slot("reshuffle.after_discard_points_below")
P_DEALER_PENALTY = slot("reshuffle.dealer_penalty")
# §4 bidding
P_STEP = slot("bid.step")
P_JUMPS = slot("bid.jumps")
P_CAP_BY_MARRIAGES = slot("bid.cap_by_marriages")
P_SILENCE_BELOW = slot("bid.silence_below")  # INT64_MIN when off: no score is below it
# §5 talon and concession
P_HIDE_AT_100 = slot("talon.hide_at_100")
P_DISCARD_FACE_DOWN = slot("talon.discard_face_down")
P_TWO_PLAYERS = slot("talon.two_players")  # §12: 0 give (one talon, a card given), 1 discard
P_SITTER_SCORES = slot("talon.sitter_scores")  # §12: 0 card points, 1 aces at 50
P_ROSPIS_ALLOWED = slot("rospis.allowed")
P_ROSPIS_NO_SUBTRACT = slot("rospis.no_subtract")
P_OPPONENTS_GET = slot("rospis.opponents_get")
P_ROSPIS_MAX_PER_GAME = slot("rospis.max_per_game")
P_ROSPIS_THIRD_PENALTY = slot("rospis.third_penalty")
P_ROSPIS_ON_BARREL = slot("rospis.on_barrel")
P_ROSPIS_WHEN = slot("rospis.when")  # 0 after the contract, 1 after the talon (the bomb)
# §6 play, marriages, trump, bonus
P_MUST_TRUMP = slot("play.must_trump")
P_MUST_BEAT = slot("play.must_beat")
P_NO_LEAD_FOREIGN = slot("play.no_lead_foreign_trump")
P_MUST_LEAD_TRUMP = slot("play.must_lead_trump")
P_TRUMP_FROM = slot("marriage.trump_from")
P_FIRST_LEAD = slot("marriage.first_lead")
P_CHANGES_TRUMP = slot("marriage.changes_trump")
P_REQUIRES_CAPTURE = slot("marriage.requires_capture")
P_ONLY_DECLARER = slot("marriage.only_declarer")
P_ACE = slot("marriage.ace")
P_ACE_SETS_TRUMP = slot("marriage.ace_sets_trump")
P_NAMED_TRUMP = slot("trump.named_by_declarer")
P_FOUR_NINES = slot("bonus.four_nines")
# §7 scoring and bolts
P_ROUND_DECLARER = slot("score.round_declarer")
P_ROUND_TO = slot("score.round_to")
P_SAMOSVAL = slot("score.samosval")
P_SAMOSVAL_NEGATIVE = slot("score.samosval_negative")
P_SAMOSVAL_TO = slot("score.samosval_to")
P_ROUND_MODE = slot("score.round_mode")  # 0 nearest, 1 up
P_LOCK_AT = slot("score.lock_at")  # -1 when off
P_BOLT_ON = slot("bolt.on")
P_BOLT_COUNT = slot("bolt.count")
P_BOLT_PENALTY = slot("bolt.penalty")
P_BOLT_IN_A_ROW = slot("bolt.in_a_row")
P_BOLT_DECLARER_EXEMPT = slot("bolt.declarer_exempt")
P_BOLT_DOUBLE_IN_SPECIAL = slot("bolt.double_in_special")
P_BOLT_ON_BARREL = slot("bolt.on_barrel")
# §8 the game
P_TARGET = slot("game.target")
P_TARGET_STRICT = slot("game.target_strict")
# §9 the barrel
P_BARREL_AT = slot("barrel.at")
P_ACCUMULATE = slot("barrel.accumulate")
P_ATTEMPTS = slot("barrel.attempts")
P_FALL_PENALTY = slot("barrel.fall_penalty")
P_THIRD_FALL_ZERO = slot("barrel.third_fall_zero")
P_ONE_AT_A_TIME = slot("barrel.one_at_a_time")
P_SIMULTANEOUS = slot("barrel.simultaneous")
P_BID_FROM = slot("barrel.bid_from")
# §10 golden round, §11 dark play
P_GOLDEN = slot("golden.enabled")
P_GOLDEN_BLIND = slot("golden.blind")
P_GOLDEN_DOUBLE_MARR = slot("golden.double_marriages")
P_GOLDEN_RESET = slot("golden.reset_if_none")
P_GOLDEN_REPEAT = slot("golden.repeat_if_none")
P_DARK = slot("dark.enabled")
P_CAP_240 = slot("dark.cap_240")
P_UNDARKEN = slot("dark.undarken")
P_DARK_MIN_SCORE = slot("dark.min_score")
P_DARK_NOT_ON_BARREL = slot("dark.not_on_barrel")
# Options no kernel reads from their own slot, and where they act instead.
NOT_IN_KERNELS = {
    "players": "the tail's P_NP and each kernel's player count",
    "marriage.values": "the tail's P_MV_S .. P_MV_H",
    "game.bank": "numpy, on the game rows (sim.engine.game.bank_payoffs)",
}

# --- codes of enumerated options ----------------------------------------------------------
CUT = code("deal.method", "cut")
SIXTY = code("rospis.opponents_get", "sixty")
NEXT_TRICK = code("marriage.trump_from", "next_trick")
ZERO_POINTS = code("bolt.on", "zero_points")
ALL_FALL = code("barrel.simultaneous", "all_fall")
ONE_FALLS = code("barrel.simultaneous", "one_falls")
TWO_DISCARD = code("talon.two_players", "discard")
SITTER_ACES = code("talon.sitter_scores", "aces")
CONCEDE_AT_TALON = code("rospis.when", "talon")
ROUND_UP = code("score.round_mode", "up")

# --- the derived tail ---------------------------------------------------------------------
_TAIL = len(RULE_KEYS)
P_MV_S, P_MV_C, P_MV_D, P_MV_H = range(_TAIL, _TAIL + 4)  # marriage value by suit S C D H
P_NP = _TAIL + 4  # players in a hand: 2, or 3 (also 4 players: the dealer sits out)
N_PARAMS = _TAIL + 5


def rules_vector(rules: Rules) -> np.ndarray:
    """The ``int64`` vector the kernels read: :meth:`Rules.to_array`, then the tail.

    A fresh copy each call (callers may set a slot); the vector of a rule set is built
    once (the solver's par builds a position's state for each of ~90 discards).
    """
    return _rules_vector(rules).copy()


@functools.lru_cache(maxsize=64)
def _rules_vector(rules: Rules) -> np.ndarray:
    tail = [*rules.marriage_values, 2 if rules.players == 2 else 3]
    out = np.concatenate([rules.to_array(), np.array(tail, dtype=np.int64)])
    out.flags.writeable = False
    return out
