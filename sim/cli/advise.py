"""``thousand advise HAND``: how far to bid with a hand, or (``--talon``) what to give away.

The samples are dealt and played by :mod:`sim.advise`; the answer is
:mod:`analysis.advise`.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from sim.cli.common import (
    common_flags,
    json_safe,
    positive_int,
    seed_value,
    set_workers,
    share_value,
)
from sim.output import UsageError
from sim.rules import load_rules

SEATS = ("forehand", "middle", "dealer")
DEFAULT_SAMPLES = {"heuristic": 4000, "strong": 4000, "pimc": 48, "cheater": 48, "par": 48}
DEFAULT_BUDGET = 7.0  # seconds of sampled play: with the pass baseline, an answer in <= 10 s


def _budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be seconds (0: no limit), got {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be seconds (0: no limit), got {text!r}")
    return value


def read_cards(flag: str, text: str, size: int, taken: int = 0) -> int:
    """The mask of ``size`` cards given as text; errors name the flag.

    Raises:
        UsageError: an unknown or repeated card, the wrong number, or a card in ``taken``.
    """
    from sim.cards import CardParseError, cards_str, mask_of, parse_cards

    try:
        ids = parse_cards(text)
    except CardParseError as exc:
        raise UsageError(f"{flag}: {exc}") from None
    if len(ids) != size:
        raise UsageError(f"{flag}: {size} cards needed, got {len(ids)} ({text!r})")
    mask = mask_of(ids)
    if mask & taken:
        both = [c for c in ids if taken >> c & 1]
        raise UsageError(f"{flag}: {cards_str(both)} already in the hand")
    return mask


def cmd_advise(args: argparse.Namespace) -> int:
    """``thousand advise``: the answer as text or JSON on stdout."""
    from analysis.advise import advice_json, advice_markdown, advise, advise_talon
    from sim.advise import PASS_PLAYER, bid_samples, discard_samples
    from sim.engine.deal import n_hands, place_sizes
    from sim.engine.strategies.registry import parse_params
    from sim.jobs.safebids import FAST, parse_players

    rules = load_rules(args.rules)
    hands = n_hands(rules.players)
    hand = read_cards("HAND", args.hand, place_sizes(rules.players)[0])
    seats = SEATS[:hands] if hands == 3 else ("forehand", "dealer")
    if args.seat not in seats:
        raise UsageError(f"--seat {args.seat}: one of {', '.join(seats)}")
    seat = seats.index(args.seat)
    (player,) = parse_players(args.player)
    if player != "par":
        parse_params([player] * hands, args.param)
    set_workers(args.workers)
    n = args.samples or DEFAULT_SAMPLES.get(player, 48)
    if args.talon is not None:  # the open-card judge of every give: the player is not used
        n = args.samples or DEFAULT_SAMPLES["par"]
        if hands != 3:
            raise UsageError("--talon: only with three active players")
        talon = read_cards("--talon", args.talon, 3, hand)
        if args.bid not in rules.bid_levels():
            raise UsageError(f"--bid {args.bid}: a bid level (100, 100 + bid.step, …)")
        # in this process: starting worker processes (each loading the solver) cost more
        # than they saved at these sizes (17 s serial against 25 s on two, measured)
        gives, made_to, caps, totals = discard_samples(
            rules, hand, talon, seat, args.bid, n, args.seed, budget=args.budget
        )
        answer = advise_talon(
            rules, hand, args.seat, talon, args.bid, args.risk, gives, made_to, caps, totals
        )
    else:
        budget = 0.0 if player in FAST else args.budget  # the fast players: every sample
        cols = bid_samples(rules, hand, seat, player, n, args.seed, args.param, budget=budget)
        answer = advise(rules, hand, args.seat, player, args.risk, cols, pass_player=PASS_PLAYER)
    answer = replace(answer, requested=n, budget=args.budget)
    if args.json:
        print(json.dumps(json_safe(advice_json(answer)), ensure_ascii=False))
    else:
        print(advice_markdown(answer), end="")
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``advise`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "advise",
        help="how far to bid with a hand, or what to give away after the talon",
        description=(
            "Deal the cards the hand cannot see at random, play each deal out with the hand "
            "as the declarer's and print the chance of making every legal bid level with its "
            "95 % interval, the expected score of each contract against passing, and the "
            "highest bid at the chosen risk. With --talon: the best two cards to give and to "
            "whom, and the contract to name."
        ),
    )
    p.add_argument(
        "hand",
        metavar="HAND",
        help='the 7 cards (10 with two players), e.g. "AH TH KH QH AS 9C JD"',
    )
    common_flags(p)
    p.add_argument(
        "--seat", default="forehand", help="forehand, middle or dealer (default forehand)"
    )
    p.add_argument(
        "--player",
        default="strong",
        help="who plays the samples: strong (default: the fitted player, 4,000 samples), "
        "pimc (the sampling player, 48 within --budget), heuristic, or par (every card "
        "face up)",
    )
    p.add_argument(
        "--risk",
        type=share_value,
        default=0.75,
        help="the make rate a bid must reach (default 0.75)",
    )
    p.add_argument(
        "--samples",
        type=positive_int,
        default=None,
        help="sampled deals (default 48; 4,000 for heuristic and strong)",
    )
    p.add_argument(
        "--budget",
        type=_budget,
        default=DEFAULT_BUDGET,
        help=f"seconds of play before the answer, pimc and par only (default {DEFAULT_BUDGET:g}; "
        "0: play every sample). Samples are played 8 at a time; the answer says how many",
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help="the run's seed: the same seed and sizes give the same results (default 0)",
    )
    p.add_argument("--talon", default=None, help="the 3 talon cards, after winning the bid")
    p.add_argument("--bid", type=int, default=100, help="with --talon: the bid won (default 100)")
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help="a parameter of the player, e.g. pimc.worlds=30 (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p.set_defaults(func=cmd_advise)
    return p
