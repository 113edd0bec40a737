"""Every player of the toolkit, one record each: the single place a player is declared.

A player is its compiled code under ``sim/engine/strategies/`` plus one :class:`Player`
record in :data:`RECORDS`. Everything that used to list players by hand is derived
from the records: the engine's strategy ids and parameter slots and the compiled
callbacks a run needs (:mod:`sim.engine.strategies.registry`,
:mod:`sim.engine.strategies.addresses`), which decisions a player leaves to the
heuristic (:func:`sim.engine.choose.choose`), the sampling players' larger solver
tables, the advisors and their sample sizes, which players the safe-bid tables play
on every deal, the words the tables use for a player, the benchmarks, and the test
every player must pass (``tests/test_players_api.py``). ``docs/players.md`` is written
from them (``make docs``).

This is a base module (no numba, no polars): the command line, the analysis and the
engine all read it, and a process that only drives workers imports it without
loading the compiled code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from types import MappingProxyType
from typing import Literal

from sim.i18n import N_

DECISIONS = (
    "reshuffle_hand",
    "bid",
    "reshuffle_talon",
    "discard",
    "reshuffle_after",
    "contract",
    "concede",
    "name_trump",
    "play",
    "dark",
    "undarken",
    "talon_pick",
)
"""The kinds of decision by engine code (:class:`sim.engine.actions.Decision`, in order)."""

ParamKind = Literal["number", "count", "flag", "share", "mode"]
Speed = Literal["fast", "sampling"]

FAST_HANDS_PER_S = 100_000
"""The least a ``fast`` player plays with one thread, in hands a second (``make bench``
fails below it); the ``sampling`` players play a few deals a second."""


@dataclass(frozen=True)
class Param:
    """One numeric parameter of a player (``--param NAME.KEY=VALUE``).

    Attributes:
        default: its value unless set.
        doc: what it does, in a line.
        kind: the values it takes: ``number`` (any), ``count`` (a whole number 1 to
            200), ``flag`` (0 or 1), ``share`` (0 to 1), ``mode`` (0, 1, 2 or 3).
        fixed: a value the player always has (set to anything else is refused).
    """

    default: float
    doc: str
    _: KW_ONLY
    kind: ParamKind = "number"
    fixed: float | None = None


@dataclass(frozen=True, kw_only=True)
class Player:
    """A player: how the engine calls it, what it decides, what it is for.

    Attributes:
        name: its name on the command line and in every table.
        id: its engine id (the seat's ``S_STRAT`` value; unique, from 0).
        words: who played, in a line the tables and pages show (translated).
        how: how it decides, for ``docs/players.md``.
        params: its parameters in slot order (the engine reads slot ``k`` of the
            seat's parameter row).
        entry: ``module.function`` of its compiled callback (the players' C
            signature, :mod:`sim.engine.strategies.hook`), or None for the players
            built into the engine's ``choose`` (``random``, ``first``, ``heuristic``,
            ``heuristic_v1``: called directly, for speed).
        entry_of: the player whose callback it plays through (its own parameters
            make the difference), or None.
        decides: the decisions its own code makes, always (None: all of them).
        decides_when: further decisions its own code makes when one of the named
            parameters is above 0.
        rest_by: who makes the decisions it does not (``heuristic``), or None.
        speed: ``fast`` (at least :data:`FAST_HANDS_PER_S` hands a second with one
            thread; the safe-bid tables play it on every deal) or ``sampling`` (a
            search over sampled deals at every decision; played on a sample).
        advises: whether ``thousand advise --player`` may rest on it.
        advice_samples: the deals an advice by it samples by default.
        tables_from: whose class tables its advice starts from (None: its own).
        bids_by_heuristic_rule: its raises follow the heuristic's hand model, so a
            sampling player reads its auction by that model (``pimc.read_bids``).
        sees_all_cards: it sees every card (an upper bound, not a player): the only
            one exempt from the hidden-card check.
        defends_weaker: its defence is measured weaker than ``pimc``'s, so a safe-bid
            table of it runs a little high (the tables say so).
        notes: how its settings were chosen: the duels measured when each choice was
            made, with their seeds (``docs/players.md`` shows them; the strength it
            plays at now is measured apart, by ``python -m sim.jobs.players``).
    """

    name: str
    id: int
    words: str
    how: str
    params: Mapping[str, Param] = field(default_factory=dict)
    entry: str | None = None
    entry_of: str | None = None
    decides: tuple[str, ...] | None = None
    decides_when: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    rest_by: str | None = None
    speed: Speed = "fast"
    advises: bool = False
    advice_samples: int = 0
    tables_from: str | None = None
    bids_by_heuristic_rule: bool = False
    sees_all_cards: bool = False
    defends_weaker: bool = False
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        object.__setattr__(self, "decides_when", MappingProxyType(dict(self.decides_when)))


V1_PARAMS = {
    "aggression": Param(0.0, "bid up to estimate * (1 + aggression); -0.5 timid, 0.5 bold"),
    "concede_margin": Param(25.0, "concede when the estimate is this far below the contract"),
    "reshuffle_below": Param(90.0, "demand an allowed reshuffle when the estimate is below"),
    "talon_hope": Param(12.0, "points the unseen talon is expected to add when bidding"),
    "dark_behind": Param(
        400.0, "as forehand, declare dark (docs/rules.md §11) when this far behind the leader"
    ),
}
# the heuristic's: the first player's slots and meanings, three of them measured anew
HEURISTIC_PARAMS = {
    **V1_PARAMS,
    "aggression": Param(
        0.0, "bid and name contracts as if the hand took (1 + aggression) times more"
    ),
    "concede_margin": Param(
        0.0, "concede only when conceding is expected to score this many points more than playing"
    ),
    "talon_hope": Param(
        12.0, "points the unseen talon is expected to add (reshuffles, undarkening)"
    ),
    "bid_margin": Param(
        35.0, "raise only when declaring the level is expected to score at least this many points"
    ),
}

MARRIAGE_WORDS = {
    "none": "no marriage",
    "spades": "the ♠ marriage alone",
    "clubs": "the ♣ marriage alone",
    "diamonds": "the ♦ marriage alone",
    "hearts": "the ♥ marriage alone",
    "two": "two marriages or more",
}
# The classic guide at risk 0.75 (thousand guide --rules classic --deals 100000 --seed 0;
# measured with `strong`): the highest level each class of dealt hand makes in three
# deals of four (0: pass), by aces 0, 1, 2+; and the highest contract at which playing
# beats conceding, by the marriages kept (400: always play).
GUIDE_BIDS = {
    "none": (0, 0, 0),
    "spades": (0, 0, 110),
    "clubs": (0, 105, 130),
    "diamonds": (0, 125, 150),
    "hearts": (0, 140, 165),
    "two": (0, 135, 160),
}
GUIDE_CONCEDE_ABOVE = dict.fromkeys(MARRIAGE_WORDS, 400)
GUIDE_PARAMS = {
    **{
        f"bid_{m}_{a}": Param(
            float(GUIDE_BIDS[m][a]),
            f"highest bid with {words} and {a}{'+' if a == 2 else ''} aces (0: pass)",
        )
        for m, words in MARRIAGE_WORDS.items()
        for a in range(3)
    },
    **{
        f"concede_above_{m}": Param(
            float(GUIDE_CONCEDE_ABOVE[m]),
            f"concede a contract above this with {words} kept",
        )
        for m, words in MARRIAGE_WORDS.items()
    },
}

_CONCEDE_BY_MARGIN = Param(
    10.0,
    "concede only when conceding is expected to gain the declarer's margin (its score "
    "minus the other hands' mean) by this many points over playing on (10: chosen by "
    "duels on seed 101, where 0 conceded hands that lost 4 points of margin each)",
)
_DISCARD_DOC = (
    "0: give cards away as the heuristic does; 1: by sampled deal scores; 2: by strong's "
    "line fitted on those scores (2.4 times faster, measured -0.45 [-1.26, +0.37] a deal); "
    "3: by the learned contract's network on the hand each card leaves"
)
_BID_PARAMS = {
    "bid": Param(
        0.0,
        kind="flag",
        doc="0: bid as the heuristic (or by bid_make); 1: raise when declaring is expected to "
        "score at least bid_margin over sampled deals (open-card, the talon seen)",
    ),
    "bid_worlds": Param(
        40.0, kind="count", doc="deals sampled at each bid with pimc.bid=1 (1 to 200)"
    ),
    "bid_bias": Param(
        10.0,
        "points taken off each sampled deal's open-card total when bidding (pimc.bid=1)",
    ),
    "discard_worlds": Param(
        10.0,
        kind="count",
        doc="deals sampled at each card given away with pimc.discard=1 (1 to 200)",
    ),
    "read_bids": Param(
        1.0,
        kind="flag",
        doc="1: deal only worlds where each heuristic-bidding opponent would have bid as it did "
        "(its raises, a first pass at 105), by the heuristic's hand model; 0: marriages only",
    ),
    "contract": Param(
        0.0,
        kind="flag",
        doc="0: name the contract and concede by sampled worlds; 1: by strong's network "
        "fitted on them (where one is fitted for the rules), at no search cost",
    ),
    "tie_worlds": Param(
        200.0,
        kind="count",
        doc="of the worlds of a card play, how many (the first ones, 1 to 200) are solved "
        "exactly to break a tie between the moves that make the contract in as many",
    ),
    "tie_net": Param(
        0.0,
        kind="flag",
        doc="0: break a card play's tie by the declarer's totals solved in tie_worlds "
        "worlds; 1: by strong's fitted card scores among the tied moves, at no search cost "
        "(three hands; with two or four as 0)",
    ),
}
PIMC_PARAMS = {
    **HEURISTIC_PARAMS,
    "concede_margin": _CONCEDE_BY_MARGIN,
    "worlds": Param(
        16.0,
        kind="count",
        doc="worlds sampled at each card play, contract and concession (1 to 200)",
    ),
    "bid_make": Param(
        0.0,
        kind="share",
        doc="0: bid as the heuristic; above 0: raise when the hand makes the next level "
        "in at least this share of sampled deals (open-card, as the declarer)",
    ),
    "discard": Param(2.0, kind="mode", doc=_DISCARD_DOC),
    **_BID_PARAMS,
    "tie_net": Param(1.0, kind="flag", doc=_BID_PARAMS["tie_net"].doc),  # same slot
}
SEARCH_SETTINGS = ("pimc.worlds=10", "pimc.discard=1", "pimc.tie_net=0")
"""``pimc`` searching every decision it searches (its defaults before the fast ones):
what ``strong``'s card network and discard line were fitted on (``make weights``)."""
STRONG_PARAMS = {
    **HEURISTIC_PARAMS,
    "concede_margin": _CONCEDE_BY_MARGIN,
    "bid_value": Param(
        10.0,
        "raise where the bid network's expected deal score of winning at the lowest raise "
        "reaches this many points (three hands, where the network is fitted; otherwise, "
        "and with bid.jumps, bidding as the heuristic)",
    ),
    "bid_net": Param(
        1.0,
        kind="flag",
        doc="1: bid by the bid network and bid_value; 0: as the heuristic (bid_margin)",
    ),
}
CHEATER_PARAMS = {
    **HEURISTIC_PARAMS,
    "worlds": Param(1.0, "fixed at 1: the one true deal", kind="count", fixed=1.0),
    "bid_make": Param(0.5, kind="share", doc="raise when the true deal makes the next level"),
    "discard": Param(1.0, kind="mode", doc=_DISCARD_DOC),
    **_BID_PARAMS,
    "discard_worlds": Param(1.0, "fixed at 1: the one true deal", kind="count", fixed=1.0),
    "open": Param(1.0, "fixed at 1: sees every card (an upper bound, not a player)", fixed=1.0),
}

_SAMPLED = ("play", "contract", "concede")
_SAMPLED_WHEN = {"bid": ("bid_make", "bid"), "discard": ("discard",)}

# In the order the command line lists them; each keeps its engine id.
RECORDS: tuple[Player, ...] = (
    Player(
        name="random",
        id=0,
        words=N_("a uniformly random legal move (`random`) at every seat"),
        how="Takes a legal move uniformly at random from the deal's own random stream.",
    ),
    Player(
        name="first",
        id=1,
        words=N_("the lowest legal move (`first`) at every seat"),
        how="Takes the legal move with the lowest action code (scenario tests).",
    ),
    Player(
        name="heuristic",
        id=2,
        words=N_("the fast scripted player (`heuristic`) at every seat"),
        how=(
            "Bids, names its contract and concedes by a measured model of what a hand takes "
            "as the declarer (a linear model of the deal total on the hand's features with "
            "a normal spread): it raises while declaring the next level is expected to "
            "score `bid_margin`; gives away the cards that cost least; plays by rules "
            "(declare a safe marriage first, win cheaply, give points to a partner)."
        ),
        params=HEURISTIC_PARAMS,
        advises=True,
        advice_samples=4000,
        bids_by_heuristic_rule=True,
        defends_weaker=True,
    ),
    Player(
        name="heuristic_v1",
        id=5,
        words=N_("the first scripted player (`heuristic_v1`, kept for comparisons) at every seat"),
        how=(
            "The first scripted player, frozen so that figures measured against it can be "
            "reproduced: bids and contracts up to its estimate times (1 + `aggression`), "
            "concedes `concede_margin` below it."
        ),
        params=V1_PARAMS,
        defends_weaker=True,
    ),
    Player(
        name="guide",
        id=6,
        words=N_(
            "the strategy guide's player (`guide`: bids and concedes by its tables) at every seat"
        ),
        how=(
            "Bids, names its contract and concedes only by the strategy guide's bid chart "
            "and concession table (its parameters; `thousand guide` prints them), and "
            "plays and discards as `strong` does: a duel of it against `strong` checks "
            "the guide by playing it."
        ),
        params={**HEURISTIC_PARAMS, **GUIDE_PARAMS},
        entry="sim.engine.strategies.guide.guide_entry",
    ),
    Player(
        name="pimc",
        id=3,
        words=N_("the sampling player (`pimc`: open-card solver over sampled deals) at every seat"),
        how=(
            "Perfect-information Monte Carlo: at each card, contract and concession it deals "
            "the cards it cannot see in `worlds` ways that agree with what it has seen (and, "
            "with `read_bids`, with how the other seats bid), solves each deal with every "
            "card face up and takes the move that does best over them (a card: the one that "
            "makes, or breaks, the contract in the most worlds). With three hands a tie "
            "between cards goes to the one `strong`'s fitted card scores rank first "
            "(`tie_net` 1) and it gives cards away by `strong`'s line fitted on its own "
            "sampled scores (`discard` 2); with two or four hands a tie goes to the best "
            "exact total over the first `tie_worlds` worlds and its discard weighs the "
            "heuristic's five cheapest cards over sampled worlds, as every decision did "
            "before (`tie_net` 0, `discard` 1, `worlds` 10: the settings `strong` was fitted "
            "on). `contract` 1 takes the contract and the concession from `strong`'s network "
            "too. It bids, demands reshuffles and picks the talon as the heuristic does."
        ),
        params=PIMC_PARAMS,
        entry="sim.engine.strategies.pimc.entry.pimc_entry",
        decides=_SAMPLED,
        decides_when=_SAMPLED_WHEN,
        rest_by="heuristic",
        speed="sampling",
        advises=True,
        advice_samples=48,
        tables_from="strong",
        bids_by_heuristic_rule=True,
        notes=(
            "Its defaults since issue 37 (`worlds` 16, `discard` 2, `tie_net` 1; the "
            "contract still searched): 42.6 deals a second per core with `pimc` at every "
            "seat against 10.2 for the settings before (`worlds` 10, `discard` 1, `tie_net` "
            "0), medians of three alternating runs of 200 classic deals, seed 80031, one "
            "worker; against those settings -0.54 [-1.77, +0.69] points per deal, margin "
            "+0.31 [-1.00, +1.63] (2,000 deals, held-out seed 86101). Chosen on seed 86001 "
            "(600 deals) against `contract` 1 with 32 worlds (-1.02 [-3.25, +1.20], 52 "
            "deals a second) and with 16 (-1.48 [-3.62, +0.67], 107 deals a second); the "
            "searched contract +0.29 [-1.98, +2.57]. The exact tie-break is what cost the "
            "time: `tie_worlds` 1 / 3 / 8 / 200 at 16 worlds ran 61 / 43 / 29 / 24 deals a "
            "second with `contract` 1. Against `strong` (2,000 deals each, `strong` in A's "
            "seat), the settings before held it to -4.39 [-5.72, -3.05] (seed 87301) and "
            "-2.38 [-3.71, -1.06] (seed 87401), these defaults to -2.48 [-3.63, -1.33] and "
            "-2.29 [-3.35, -1.23]: deal by deal `strong` takes +1.91 ± 1.37 and +0.09 ± 1.35 "
            "points more from them, about 1.0 ± 0.97 on both, so as `strong`'s opponent "
            "they may be a point weaker; the declarer's ties by `strong`'s scores and a "
            "defender's by exact totals over 3 worlds (31 deals a second) gave `strong` "
            "+0.26 ± 1.38 (seed 87401): no better.",
            "Its contract since 2026-12-05 (the same choices, the same random stream): "
            "each world probes only the contracts still in the running, and a pair is "
            "decided once the worlds left cannot change which scores more; the concession "
            "stops once the contract is made or lost in half the worlds. The contract "
            "decision searches 54,576 nodes instead of 166,377 (5.0 against 15.3 ms; 100 "
            "classic deals, `benchmarks/pimc_decisions.py`), and 200 classic deals with "
            "`pimc` at every seat (seed 80031, one worker) take 4.63 s instead of 6.85 as "
            "whole processes (medians of three alternating runs, identical hands).",
            "Tie-break budget: 300,000 solver nodes instead of 100,000 cost 1.7 times the "
            "time and measured -0.8 [-1.6, +0.05] points per deal against `heuristic` "
            "(classic, 1,000 paired deals, seed 101, where it was chosen) and -0.4 "
            "[-1.2, +0.4] on seed 202: kept at 100,000.",
            "Discard by sampled scores (`discard` 1) against the heuristic's: +2.12 "
            "[0.66, 3.59] points per deal on seed 301 (1,000 deals, where it was tried), "
            "+3.20 [2.06, 4.35] on seed 8181 (2,000 deals); weighing the 9 cheapest cards "
            "instead of 5: +0.30 [-0.27, +0.87] more on seed 301, so kept at 5.",
            "Bidding by sampled scores (`bid` 1) against the heuristic's bidding (seed 301, "
            "1,000 deals, 40 worlds, margin 35): bias 0 / 10 / 20: +0.58 [-0.55, +1.71] / "
            "+0.43 [-0.61, +1.48] / -0.04 [-1.12, +1.03] points per deal; bias 0 and margin "
            "15: +0.37 [-0.91, +1.66]: no measurable gain, so it is off by default.",
            "Bidding by the share of sampled deals made (`bid_make`): against "
            "`heuristic_v1` (classic, 600 deals, seed 1, 10 worlds) +15.1 [11.6, 18.6] "
            "points per deal at 0.5 against +16.9 [13.7, 20.1] bidding as the heuristic; "
            "against the heuristic's bidding on seed 301 at 0.7: +0.77 [-0.34, +1.88]: off "
            "by default.",
            "The learned contract and the fitted discard in the search's place (`contract` "
            "1, `discard` 2): 22 deals a second per core with `pimc` at every seat against "
            "6.2 (300 classic deals, seed 80031; `contract` 1 alone 7.9); against `pimc` "
            "-0.72 [-2.90, +1.46] points per deal (600 deals, seed 80041): not shown as "
            "good, so off by default.",
            "The fast settings (`contract` 1, `discard` 2, `tie_worlds` 3, `worlds` 16): 28.6 "
            "deals a second per core with `pimc` at every seat against 7.0 (medians of three "
            "alternating runs of 200 classic deals, seed 80031, one worker; 29.0 with "
            "`discard` 3); against `pimc` -1.06 [-2.24, +0.11] points per "
            "deal, margin -1.25 [-2.51, +0.00] (2,000 deals, seed 81003); with `discard` 3 "
            "(held-out regret against the sampled scores 4.64 ± 0.32 points per card given "
            "against the line's 7.13 ± 0.46 and the heuristic's 11.78, 2,342 gives of seed "
            "81101) -1.30 [-2.49, -0.12], margin -2.01 [-3.26, -0.75] (2,000 deals, seed "
            "81005): weaker, so not the default. Tried on seed 81001 (600 deals): "
            "`tie_worlds` 3 with 10 worlds -2.46 [-4.91, -0.00], with 16 -0.57 [-2.93, "
            "+1.78], with 20 -1.89 [-4.20, +0.42]; the searched contract with the rest fast "
            "-0.61 [-2.85, +1.62]; `contract` 1 and `discard` 2 alone -0.50 [-2.82, +1.82].",
            "A network fitted on `pimc`'s own named contracts (a softmax over each "
            "decision's contracts, 64 units, on the 125,241 decisions of the contract "
            "network's data; held out: `pimc`'s contract 64.8 % against the share network's "
            "54.6 %, mean 122.1 against 118.2 and `pimc`'s 123.3) in the fast settings' "
            "contract: -3.91 [-5.23, -2.59] against `pimc`, margin -4.44 (2,000 deals, seed "
            "82003; made 53.2 % against 56.4 %): imitating the search's noisy choice names "
            "high contracts in the wrong hands, so not kept.",
            "Two players, against `heuristic`: +27.27 [21.28, 33.27] points per deal, margin "
            "+45.68 (300 deals, seed 83011): mean contract 156.4 against 130.8, made 85.7 % "
            "against 76.0 %.",
            "Reading the auction (`read_bids` 1) against `pimc` without it (duels with "
            "`heuristic`, classic): +1.10 [0.17, 2.04] points per deal on seed 301 (1,000 "
            "deals, where it was tried first), +0.43 [-0.31, +1.16] on seed 8282 and -0.13 "
            "[-0.84, +0.58] on seed 9191 (2,000 deals each); all three +0.34 [-0.11, "
            "+0.79], the margin (which counts the defence) +0.63 [0.08, 1.19]: kept on, for "
            "worlds that agree with the auction rather than for a measured gain.",
        ),
    ),
    Player(
        name="strong",
        id=7,
        words=N_(
            "the fitted player (`strong`: card play, discard, contract and bids fitted on "
            "`pimc`'s search) at every seat"
        ),
        how=(
            "Leads by a small network (8 ReLUs each for the declarer and a defender) fitted "
            "on `pimc`'s card choices, and follows by a network of 16 ReLUs for each fitted "
            "on the search's value of every card (the share of `pimc`'s sampled worlds, "
            "cards face up, where the contract is made after it: `thousand teach --kinds "
            "play`, `python -m training.cards`), gives cards away by a line fitted on `pimc`'s "
            "sampled deal scores, and names its contract by a network fitted on the search's "
            "labels (`thousand teach`: the share of sampled deals that reach each contract, "
            "cards face up), choosing as `pimc` chooses. It concedes where conceding gains "
            "its margin (its score minus the other hands' mean) by `concede_margin` over "
            "playing on, the defenders' points and its chance to make the contract fitted on "
            "deals it plays out (`python -m training.concede`). It raises where a "
            "network of the hand it holds and the auction values winning at the lowest raise "
            "at `bid_value` or more (fitted on that contract network's best score over every "
            "talon the hand may find, its cheapest cards given away: `python -m "
            "training.bid`); how far it jumps and the barrel's raises stay the heuristic's. "
            "Where the declarer names the trump it bids, names its contract and concedes as "
            "the heuristic does. With two players it bids as the heuristic does, plays its "
            "cards by a network per row fitted on the search's values of `two_players` "
            "deals, and names its contract by a network fitted on the totals the "
            "heuristic's own cards make (`thousand teach --kinds outcome`), giving the card "
            "whose kept hand that network values most."
        ),
        params=STRONG_PARAMS,
        entry="sim.engine.strategies.strong.strong_entry",
        advises=True,
        advice_samples=4000,
        bids_by_heuristic_rule=False,  # raise or pass by its bid network
        defends_weaker=True,
        notes=(
            "Card play by the search's values (issue 62; `training/cards.py` on `thousand "
            "teach --kinds play`: 2,246,612 classic card decisions of seeds 1013 and 1014, "
            "903,378 two-player ones of seed 1015): held out, a defender's follow is of the "
            "best value in 89.9 % of decisions (the imitating line 85.6 %, the heuristic "
            "84.0 %). Against `heuristic`, seeds 301 and 302, 4,000 deals each: classic "
            "+9.14 [+8.44, +9.84] a deal (imitation +8.83), five_hundred_one +4.94 (+2.75), "
            "two players +10.49 [+9.46, +11.51] (the heuristic's cards +5.82); against "
            "`pimc` (the same seeds) -2.29 [-3.02, -1.56] and margin -4.07 (imitation "
            "-3.03 and -5.33). A value-fitted defender lead lost in duels (seeds 201, 202): "
            "the three-hand leads stay imitation.",
            "The concession by the margin (issue 62; the defenders' line and the chance to "
            "make it fitted on 100,000 deals of seed 1009, 78,252 contract decisions; held "
            "out, the line errs by 33.4 points rms against 43.7 for the mean, the chance's "
            "log-loss 0.277 against 0.394 for the network's open-card share; refitted on "
            "the final player's deals: 33.3 against 43.1, 0.273 against 0.369): under every "
            "preset's concession (the contract lost and half of it to each defender) it "
            "concedes 0.2 % of contracts, against the old rule (never) +0.01 [-0.00, +0.02] "
            "and +0.00 [-0.00, +0.00] margin per deal (4,000 deals each on seeds 201 and "
            "202, paired against `heuristic`); with `rospis.no_subtract` +1.50 [+1.07, "
            "+1.93] and +2.15 [+1.71, +2.58] margin per deal (own seat +0.73, +1.17) "
            "against the old rule (concede when under half the worlds make it). "
            "`concede_margin` 10 was chosen on seed 101: at 0 it conceded 1.9 % of "
            "contracts and lost 4.1 points of margin on each.",
            "The bonus of 0.5 on the heuristic's card: the plain fit, which agrees with "
            "`pimc` more often (59 % of the declarer's leads against the heuristic's 44 %), "
            "lost 2.7 points per deal to the heuristic in a duplicate duel, the fit with "
            "the bonus won 2.7 (bonuses 0.25 to 1.5 measured; classic, 20,000 deals, seed "
            "301).",
            "The fitted discard against the heuristic's cheapest card: +2.7 points per deal "
            "(20,000 deals each on seeds 31337 and 2718, paired deal by deal), +1.7 with "
            "four players, +2.6 under `ukraine_online`; with two players -2.1, so there "
            "the heuristic's.",
            "Contracts: a line fitted to `pimc`'s contracts named higher ones (122 against "
            "111 on average) and lost 5.3 points per deal to the heuristic's contract; "
            "hand models fitted on `strong`'s own deal totals lost 0.5 (bidding by them) "
            "and 0.1 (contract and concession by them): it names contracts as the "
            "heuristic does.",
            "Contract and concession by the learned network (one hidden layer of 128 ReLUs; "
            "teacher: `thousand teach`, classic, `strong` at every seat, 10 worlds, 140,000 "
            "deals of seed 1003 and 20,000 of seed 1001: 125,241 contract decisions; fit "
            "seed 1, `make weights`): on the held-out fifth of seed 1003's decisions it "
            "loses 7.44 [7.24, 7.64] points per contract decision to the best contract over "
            "the worlds, the heuristic's contract 14.33 [13.98, 14.68]; 32 units 9.7 and a "
            "line 14.0 on the first 15,575 decisions. Against `heuristic` (classic, 20,000 "
            "deals, seed 80001) +6.06 [5.61, 6.50] per deal, +5.36 [4.96, 5.76] with the "
            "heuristic's contract; against `pimc` (600 deals, seed 80005) -6.86 [-9.47, "
            "-4.26], -7.37 [-9.65, -5.08] before, paired deal by deal +0.50 [-1.13, "
            "+2.13]: its contracts rose from 112.6 to 119.3 (`pimc`'s 125.7), and it no "
            "longer concedes where conceding costs the contract (4.4 % of its contracts "
            "before).",
            "Two players: a network fitted the same way on 54,098 contract decisions of "
            "`two_players` (seed 1004) lost 9.31 points per deal to the heuristic (5,000 "
            "deals, seed 80011), so with two players the heuristic named the contract "
            "until the outcome network below; "
            "under `five_hundred_one` (the declarer names the trump) the three-hand network "
            "lost 1.0 (0.62 against -0.40), so there too.",
            "Other rules with the classic weights, against the heuristic (5,000 deals, seed "
            "77): +2.07 [1.66, 2.48] per deal with four players, +3.27 [2.71, 3.83] under "
            "`ukraine_online`; with two players the weights lost 4.74 [3.51, 5.97], so with "
            "two it plays the heuristic's cards.",
            "The card network (one hidden layer of 8 ReLUs, a softmax over the legal cards "
            "fitted on `pimc`'s choices at 424,655 card decisions of 33,000 classic deals, "
            "`make weights`; held out it plays `pimc`'s card at 73.6 % of the declarer's "
            "leads against the line's 64.7 %, at 64.1 % of a defender's against 59.8 %), "
            "chosen on seed 83201 (20,000 deals against `heuristic`): the line +6.41, a "
            "network of 16 units on every row +8.44 at bonus 0 (+7.47 at 0.5, +5.92 at 1.0, "
            "+8.26 at -0.25), on the leads only +8.60, 8 units on the leads +8.79, on the "
            "declarer's leads only +8.60; on the follows it adds little and costs a third of "
            "the speed. Held out (seed 84301, 20,000 deals, against `heuristic`): classic "
            "+5.67 [5.24, 6.10] to +7.95 [7.53, 8.37], four players +4.45 to +6.18 [5.86, "
            "6.49], `ukraine_online` +5.87 to +8.01, `app` +5.57 to +7.91; 108k-146k hands "
            "a second on one thread against 143k-174k with the line (alternating runs).",
            "Contracts by a network fitted on `pimc`'s own named contracts (64 units; held "
            "out it names `pimc`'s contract in 64.8 % of decisions against 54.6 %) in place "
            "of the share network: -1.56 [-1.81, -1.32] points per deal (classic, 20,000 "
            "deals, seed 82001): `strong`'s play does not make the contracts `pimc`'s "
            "play makes.",
            "Declaring a marriage whenever the heuristic would (at once; `strong` puts it "
            "off as `pimc` often does) lost about 5.3 points per deal against `heuristic` "
            "(20,000 deals, seed 83201): classic +6.41 [5.98, 6.84] to +1.15 [0.68, 1.61], "
            "four players +4.86 to +0.97, `ukraine_online` +6.54 to +1.27.",
            "Two players: a logit fitted on 82,166 of `pimc`'s card choices on `two_players` "
            "deals (`benchmarks/strong_fit.py`, rounds heuristic:1500:11 and "
            "heuristic:4000:12; held out it agrees with `pimc` on the declarer's leads 48.7 "
            "% against the heuristic's 28.3 %) lost 25.34 [23.51, 27.16] points per deal "
            "(5,000 deals, seed 83101): it put marriages off for ever (it declared at 37 % "
            "of the leads where it could, the heuristic at 99 %). Declaring them as the "
            "heuristic does, by the bonus on the heuristic's card 0.5 / 1.0 / 1.5 / 2.5: "
            "-0.41 [-1.26, +0.43] / -0.17 / -0.57 / +0.07 [-0.01, +0.15]: no gain, so with "
            "two players it still plays the heuristic's cards (`pimc` is +27.27 there).",
            "Two players, the contract by a network fitted on outcomes (128 ReLUs, the same "
            "features; `thousand teach --rules two_players --player heuristic --kinds "
            "outcome --deals 200000 --seed 1005`: at each of 180,965 contract decisions the "
            "declarer's total when the heuristic plays the dealt deal on, no concession; "
            "fit seed 1, 8 contracts drawn per decision, `make weights`): held out (36,164 "
            "decisions) its contract scores +4.78 ± 0.19 points per decision over the "
            "heuristic's with the same totals (131.9 named against 127.4). Against "
            "`heuristic` (20,000 deals, seed 85101) +2.49 [2.21, 2.76], margin +2.09 [1.81, "
            "2.37], against 0.00; 64 units with 4 contracts drawn +1.31 [0.66, 1.97] "
            "(5,000 deals, seed 85001). Giving, of the heuristic's five cheapest cards, the "
            "one whose kept hand that network values most (as `pimc.discard=3` does) in "
            "place of the heuristic's cheapest: +6.97 [6.41, 7.53] on seed 85101 (chosen "
            "there), held out +6.13 [5.60, 6.66], margin +4.70 [4.10, 5.29] (20,000 deals, "
            "seed 85201); the same give for three hands in place of the fitted line: +8.06 "
            "[7.66, 8.47] against +8.88 [8.47, 9.30] (classic, 20,000 deals, seed 85301), "
            "so there the line.",
            "Bidding by the bid network (`bid_net` 1) against `strong` bidding as the "
            "heuristic (`bid_net` 0), classic, 20,000 deals, seed 87001 where `bid_value` "
            "was chosen: -30 / -15 / 0 / 10 / 20 / 40: -2.27 / -0.17 / +0.54 / +0.48 / "
            "+0.27 / -0.09 points per deal, margin -4.63 / -1.33 / +0.17 / +0.43 / +0.39 / "
            "+0.25; adding 0.2 to 0.5 points per card point held to the threshold (what a "
            "defender takes) changed nothing measurable (+0.37 to +0.56). Held out (seed "
            "87101, 20,000 deals) at 10: +0.33 [0.17, 0.49], margin +0.21 [0.01, 0.41]; four "
            "players +0.30 [0.18, 0.42], margin +0.25 [0.12, 0.39]. Held out the network "
            "misses the talon-enumerated values by 5.91 points (rms; their spread 62.78), "
            "37,856 rows of 20,000 deals (seed 1007).",
            "The same outcome fit for three players (234,447 decisions of classic deals "
            "played by `strong`, seed 501) does not beat the share network with `strong`'s "
            "own cards: held out it named 120.3 against 118.4 and scored 0.80 ± 0.17 points "
            "per decision less; the share network's contract one step higher lost 5.31 ± "
            "0.18, one step lower 0.62 ± 0.07. `strong`'s contracts sit where its own "
            "play makes them; `pimc` names 124 because its play makes them.",
        ),
    ),
    Player(
        name="cheater",
        id=4,
        words=N_("the open-card cheater at every seat (sees every card; not a player)"),
        how=(
            "The sampling player's code on the one true deal: it sees every card. An upper "
            "bound on card play, not a player."
        ),
        params=CHEATER_PARAMS,
        entry_of="pimc",
        decides=_SAMPLED,
        decides_when=_SAMPLED_WHEN,
        rest_by="heuristic",
        speed="sampling",
        advice_samples=48,
        sees_all_cards=True,
    ),
)

PLAYERS: Mapping[str, Player] = MappingProxyType({p.name: p for p in RECORDS})
"""Every player by name, in the order of :data:`RECORDS`."""

DEFAULT = "strong"
"""The player the published tables come from by default: the report's and the comparison's
runs, the guide, the advisor, the pass baseline of an advice."""

SKILL_PLAYER, SKILL_AGAINST = "strong", "heuristic"
"""The skill index of a rule set (``thousand compare``): the games one ``SKILL_PLAYER`` wins
against ``SKILL_AGAINST`` at every other seat."""

PAR = "par"
"""The open-card par: not a player at a seat but the best play with every card face up,
which the safe-bid tables and the advisor put beside the players."""
PAR_WORDS = N_(
    "the open-card par: the best talon use and play with every card face up, "
    "against a defence that sees them too (an upper bound on any player)"
)
PAR_SAMPLES = 48  # the deals an advice by the par samples by default

ADVISORS: tuple[str, ...] = (
    *sorted((p.name for p in RECORDS if p.advises), key=lambda n: n != DEFAULT),
    PAR,
)
"""The players whose play an advice may rest on, the default first, then the par."""


def check_advisor(name: str) -> str:
    """``name`` if it is one of :data:`ADVISORS` (the advisor's ``player`` field).

    Raises:
        FieldError: naming the ``player`` field, the closest advisor and every one there is.
    """
    from sim.i18n import _
    from sim.output import FieldError
    from sim.rules import did_you_mean

    name = name.strip()
    if name not in ADVISORS:
        hint = did_you_mean(name, ADVISORS)
        why = _("{field:player}: {name} is not an advisor{hint} (one of {advisors})")
        raise FieldError("player", why, name=repr(name), hint=hint, advisors=", ".join(ADVISORS))
    return name


def fast(name: str) -> bool:
    """Whether a player (or the par) is played on every deal of a table (speed ``fast``)."""
    return name in PLAYERS and PLAYERS[name].speed == "fast"


def words(name: str) -> str:
    """Who played, in words (English; a page shows it through ``_()``)."""
    if name == PAR:
        return PAR_WORDS
    return PLAYERS[name].words if name in PLAYERS else f"`{name}` at every seat"


def tables_player(name: str) -> str:
    """Whose class tables an advice by ``name`` starts from."""
    if name == PAR:
        return DEFAULT
    return PLAYERS[name].tables_from or name


def advice_samples(name: str) -> int:
    """The deals an advice by ``name`` samples by default."""
    return PAR_SAMPLES if name == PAR else PLAYERS[name].advice_samples or 48


def check_records(records: tuple[Player, ...] = RECORDS) -> None:
    """Raise ValueError for records that disagree.

    A repeated name or id, an unknown decision, a callback or rest player that is not a
    player, a shared callback whose owner has none, an advisor with no sample size.
    """
    names = [p.name for p in records]
    ids = sorted(p.id for p in records)
    if len(set(names)) != len(names) or ids != list(range(len(records))):
        raise ValueError(f"player names must be unique and ids 0..{len(records) - 1}: {ids}")
    by_name = {p.name: p for p in records}
    for p in records:
        for d in [*(p.decides or ()), *p.decides_when]:
            if d not in DECISIONS:
                raise ValueError(f"player {p.name}: unknown decision {d!r}")
        for d, keys in p.decides_when.items():
            for k in keys:
                if k not in p.params:
                    raise ValueError(f"player {p.name}: {d} depends on unknown parameter {k!r}")
        for other in (p.entry_of, p.rest_by, p.tables_from):
            if other is not None and other not in by_name:
                raise ValueError(f"player {p.name}: {other!r} is not a player")
        if p.entry_of is not None and by_name[p.entry_of].entry is None:
            raise ValueError(f"player {p.name}: {p.entry_of} has no callback to share")
        if (p.decides is not None or p.decides_when) and p.rest_by is None:
            raise ValueError(f"player {p.name}: who makes the decisions it does not?")
        if p.advises and p.advice_samples <= 0:
            raise ValueError(f"player {p.name}: an advisor needs advice_samples")


check_records()

__all__ = [
    "ADVISORS",
    "DECISIONS",
    "DEFAULT",
    "FAST_HANDS_PER_S",
    "PAR",
    "PLAYERS",
    "RECORDS",
    "Param",
    "Player",
    "advice_samples",
    "check_advisor",
    "check_records",
    "fast",
    "tables_player",
    "words",
]
