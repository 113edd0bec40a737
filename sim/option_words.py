"""The house-rule options in a player's words, in every language of the toolkit.

A report or an answer that names an option shows :func:`option_name` (``barrel at``,
``бочка на``) rather than its key (``barrel.at``), and its value as
:func:`option_value` writes it: ``yes``/``no``, ``off``, a choice in words (``all
fall``) or a number with the language's decimal mark. The English phrases are marked
with :func:`~sim.i18n.N_`, so ``make locale`` extracts them into the catalogues.

The phrases name what a player sees at the table, not the code: a yes/no option is a
statement that "yes" makes true (``the declarer may concede``), a number option a
label its value completes (``barrel at``: 880).
"""

from __future__ import annotations

import math
from typing import Any

from sim.i18n import N_, _, number
from sim.rules import OFF

OPTION_WORDS: dict[str, str] = {
    "players": N_("number of players"),
    # §2 dealing
    "deal.method": N_("how the deck is prepared"),
    "deal.nine_cut_penalty": N_("penalty for a nine at the bottom three cuts in a row"),
    "deal.jack_to_middle": N_("a jack at the bottom after the cut goes into the middle"),
    "deal.cut_chain": N_("deals per shuffle when the deck is only cut"),
    # §3 reshuffle
    "reshuffle.hand_points_below": N_("a redeal when a hand has fewer points than"),
    "reshuffle.hand_nines": N_("a redeal when a hand holds at least this many nines"),
    "reshuffle.hand_four_jacks": N_("a redeal when a hand holds all four jacks"),
    "reshuffle.talon_points_below": N_("a redeal when the talon has fewer points than"),
    "reshuffle.talon_two_nines": N_("a redeal when the talon holds two nines"),
    "reshuffle.talon_three_jacks": N_("a redeal when the talon holds three jacks"),
    "reshuffle.talon_only_at_100": N_("a talon redeal only when the talon went at 100 unbid"),
    "reshuffle.after_discard_four_nines": N_(
        "a redeal when a player holds four nines after the discard"
    ),
    "reshuffle.after_discard_points_below": N_(
        "a redeal if a hand after the discard has fewer points than"
    ),
    "reshuffle.dealer_penalty": N_("the dealer's penalty for a redeal on nines"),
    # §4 bidding
    "bid.step": N_("bid step"),
    "bid.jumps": N_("a raise may jump by more than one step"),
    "bid.cap_by_marriages": N_("no bid above 120 plus one's own marriages"),
    "bid.silence_below": N_("no bidding with a score below"),
    # §5 talon, discard, concession
    "talon.hide_at_100": N_("the talon stays hidden when taken at 100 unbid"),
    "talon.discard_face_down": N_("the cards given to the opponents stay face down"),
    "talon.sitter_scores": N_("what the dealer sitting out scores from the talon"),
    "rospis.allowed": N_("the declarer may concede"),
    "rospis.no_subtract": N_("a declarer who concedes scores 0, not minus the contract"),
    "rospis.opponents_get": N_("what the opponents get when the declarer concedes"),
    "rospis.max_per_game": N_("concession limit per player and game"),
    "rospis.third_penalty": N_("penalty for a player's third concession"),
    "rospis.on_barrel": N_("a concession is allowed while someone is on the barrel"),
    "rospis.when": N_("when the declarer may concede"),
    # §6 play
    "play.must_trump": N_("a player out of the suit led must trump"),
    "play.must_beat": N_("a player must head the trick when able"),
    "play.no_lead_foreign_trump": N_("no leading another player's trump while holding other suits"),
    "play.must_lead_trump": N_("the leader must lead a trump when holding one"),
    "marriage.values": N_("marriage values"),
    "marriage.trump_from": N_("a declared marriage makes trump from"),
    "marriage.first_lead": N_("a marriage may be declared on the first trick"),
    "marriage.changes_trump": N_("every new marriage changes the trump"),
    "marriage.requires_capture": N_("a marriage counts only if its owner wins one of its cards"),
    "marriage.only_declarer": N_("only the declarer scores marriages"),
    "marriage.ace": N_("four aces score 200 as an ace marriage"),
    "marriage.ace_sets_trump": N_("the ace marriage makes the led ace's suit trump"),
    "trump.named_by_declarer": N_("the declarer names the trump after the discard"),
    "bonus.four_nines": N_("bonus for four nines after the discard"),
    # §7 scoring
    "score.round_declarer": N_("the declarer's points are rounded like the opponents'"),
    "score.round_to": N_("the opponents' points are rounded to a multiple of"),
    "score.samosval": N_("a score of exactly 555 is reset"),
    "score.samosval_negative": N_("a score of exactly −555 is reset"),
    "score.samosval_to": N_("the score a 555 reset drops to"),
    "score.round_mode": N_("how the opponents' points are rounded"),
    "score.lock_at": N_("from this score only one's own contracts count"),
    "bolt.on": N_("what earns a bolt"),
    "bolt.count": N_("bolts per penalty"),
    "bolt.penalty": N_("bolt penalty"),
    "bolt.in_a_row": N_("only bolts in a row count"),
    "bolt.declarer_exempt": N_("the declarer never gets a bolt"),
    "bolt.double_in_special": N_("a bolt counts twice in golden and dark deals"),
    "bolt.on_barrel": N_("bolts count for a player on the barrel"),
    # §8 winning
    "game.target": N_("points to win the game"),
    "game.target_strict": N_("the winning score must be above the target"),
    "game.bank": N_("the stake the last player pays the winner"),
    # §9 barrel
    "barrel.at": N_("barrel at"),
    "barrel.accumulate": N_("points taken on the barrel are added"),
    "barrel.attempts": N_("deals on the barrel before a fall"),
    "barrel.fall_penalty": N_("points lost by a fall from the barrel"),
    "barrel.third_fall_zero": N_("a third fall from the barrel goes to 0"),
    "barrel.one_at_a_time": N_("a new climber knocks the barrel player off"),
    "barrel.simultaneous": N_("two or more climb onto the barrel in one deal"),
    "barrel.bid_from": N_("bids on the barrel start at"),
    # §10 golden round
    "golden.enabled": N_("a golden round opens the game"),
    "golden.blind": N_("the golden contract is fixed at 120"),
    "golden.double_marriages": N_("marriages count double in golden deals"),
    "golden.reset_if_none": N_("all scores go to 0 if nobody makes the golden round"),
    "golden.repeat_if_none": N_("the golden round repeats if nobody makes it"),
    # §11 dark play
    "dark.enabled": N_("forehand may play 120 dark"),
    "dark.cap_240": N_("a dark game made scores a flat 240"),
    "dark.undarken": N_("an opponent with a marriage may break a dark game at 125"),
    "dark.min_score": N_("no dark play with a score below"),
    "dark.not_on_barrel": N_("no dark play while someone is on the barrel"),
}
"""Every option key (:data:`sim.rules.RULE_KEYS`) -> a short English phrase, marked."""

CHOICE_WORDS: dict[tuple[str, str], str] = {
    ("deal.method", "shuffle"): N_("shuffled for every deal"),
    ("deal.method", "cut"): N_("only cut, never shuffled"),
    ("rospis.opponents_get", "half"): N_("half the contract each"),
    ("rospis.opponents_get", "sixty"): N_("60 each"),
    ("rospis.when", "contract"): N_("after naming the contract"),
    ("rospis.when", "talon"): N_("on seeing the talon, before the discard (the bomb)"),
    ("talon.sitter_scores", "points"): N_("the talon's card points and marriages"),
    ("talon.sitter_scores", "aces"): N_("50 for each ace in the talon and its marriages"),
    ("score.round_mode", "nearest"): N_("to the nearest multiple"),
    ("score.round_mode", "up"): N_("always up"),
    ("marriage.values", "standard"): N_("standard (♠40 ♣60 ♦80 ♥100)"),
    ("marriage.values", "spades_high"): N_("spades highest (♠100 ♣60 ♦40 ♥80)"),
    ("marriage.values", "spades_clubs_high"): N_("spades and clubs highest (♠100 ♣80 ♦40 ♥60)"),
    ("marriage.values", "five_hundred_one"): N_("as in 501 (♠60 ♣20 ♦40 ♥80)"),
    ("marriage.trump_from", "this_trick"): N_("the trick it is declared in"),
    ("marriage.trump_from", "next_trick"): N_("the next trick"),
    ("bolt.on", "no_tricks"): N_("taking no trick"),
    ("bolt.on", "zero_points"): N_("a deal total of 0"),
    ("barrel.simultaneous", "one_falls"): N_("the lower score falls"),
    ("barrel.simultaneous", "all_fall"): N_("all of them fall"),
    ("barrel.simultaneous", "both_stay"): N_("all of them stay on"),
}
"""``(key, choice) -> words`` for every choice that is a word (``one_falls``), marked.

Options whose choices are numbers (``players``, ``bid.step``, ``score.round_to``) show
their value as a number (:func:`option_value`).
"""

YES, NO, SWITCHED_OFF = N_("yes"), N_("no"), N_("off")


def option_name(key: str) -> str:
    """The option ``key`` in the current language's words (an unknown key: the key itself)."""
    words = OPTION_WORDS.get(key)
    return _(words) if words is not None else key


def _decimal(value: float) -> str:
    """A number with as many decimals as it has (up to 6), in the language's writing."""
    if not math.isfinite(value):
        return str(value)
    if value == int(value):
        return number(value)
    places = len(f"{value:.6f}".rstrip("0").split(".")[1])
    return number(value, places)


def option_value(key: str, value: Any) -> str:
    """A value of option ``key`` as the current language shows it.

    True/False (or ``"True"``/``"false"`` ...) are ``yes``/``no``; None or ``"off"`` is
    ``off``; a choice that is a word (``"one_falls"``) is its :data:`CHOICE_WORDS`;
    a number (or a string holding one: ``"880"``, ``"0.5"``) is written with the
    language's decimal mark (:func:`sim.i18n.number`). Anything else is returned as
    written.
    """
    if value is None:
        return _(SWITCHED_OFF)
    if isinstance(value, bool):
        return _(YES) if value else _(NO)
    if isinstance(value, int):
        return number(value)
    if isinstance(value, float):
        return _decimal(value)
    text = str(value).strip()
    lower = text.lower()
    if lower == "true":
        return _(YES)
    if lower == "false":
        return _(NO)
    if lower in (OFF, "none"):
        return _(SWITCHED_OFF)
    words = CHOICE_WORDS.get((key, text))
    if words is not None:
        return _(words)
    try:
        return number(int(text))
    except ValueError:
        pass
    try:
        return _decimal(float(text))
    except ValueError:
        return text
