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

    How a player's settings were chosen, with the figures measured then, is not part of
    the record: ``docs/player_notes.toml`` keeps it, each note stamped with the sources
    it measured, and ``docs/players.md`` shows it (:mod:`sim.jobs.players`).
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
    "minus the other hands' mean) by this many points over playing on",
)
_DISCARD_DOC = (
    "0: give cards away as the heuristic does; 1: by sampled deal scores; 2: by strong's "
    "line fitted on those scores (three hands; otherwise as 1); 3: by the learned "
    "contract's network on the hand each card leaves (where one is fitted; otherwise as 1)"
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
            "Bids, names its contract and concedes by a measured model of what a hand takes as the "
            "declarer (a linear model of the deal total on the hand's aces, tens, marriages and "
            "the entries to declare them, trump length, lone kings and queens, voids and card "
            "points, with a normal spread): it raises while declaring the next level is expected "
            "to score `bid_margin` points (with `bid.jumps` a raise may jump straight to the level "
            "its hand makes in 80 % of deals), names the contract with the best expected score, "
            "and concedes only when conceding is expected to score more than playing (the "
            "opponents' share counted both ways). On the barrel it bids and names at least what "
            "wins there and never concedes, and it bids on against an opponent on the barrel. It "
            "gives away cheap cards, keeps marriages, aces and guarded tens, and counts half a "
            "marriage against giving a lone king or queen; laying two cards away (two players, "
            '`talon.two_players = "discard"`) it counts no half marriage and lays a ten without '
            "its ace away cheaply (its points are banked). It declares a marriage that cannot lose "
            "its queen before one that can, keeps a longer trump rather than switch it away while "
            "the opponents still hold trumps, as a defender does not lead low into a suit whose "
            "top card the shown talon gave the declarer, wins tricks cheaply when last and feeds "
            "the other defender points. It undarkens a dark declaration when it would bid 125, and "
            "with two players takes the first of the two blind talons. It sees only what a player "
            "at the table sees (a test swaps the hidden cards and checks that its choices do not "
            "change)."
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
            "heuristic's five cheapest cards over sampled worlds, as with `tie_net` 0 and "
            "`discard` 1 (with `worlds` 10, the settings `strong` was fitted on). "
            "`contract` 1 takes the contract and the concession from `strong`'s network "
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
    ),
    Player(
        name="strong",
        id=7,
        words=N_(
            "the fitted player (`strong`: card play, discard, contract and bids fitted on "
            "`pimc`'s search) at every seat"
        ),
        how=(
            "Leads by a small network (8 ReLUs each for the declarer and a defender) fitted on "
            "`pimc`'s card choices, and follows by a network of 16 ReLUs for each fitted on the "
            "search's value of every card (the share of `pimc`'s sampled worlds, cards face up, "
            "where the contract is made after it: `thousand teach --kinds play`, `python -m "
            "training.cards`), gives cards away by a line fitted on `pimc`'s sampled deal scores, "
            "and names its contract by a network fitted on the search's labels (`thousand teach`: "
            "the share of sampled deals that reach each contract, cards face up), choosing as "
            "`pimc` chooses. It concedes where conceding gains its margin (its score minus the "
            "other hands' mean) by `concede_margin` over playing on, the defenders' points and its "
            "chance to make the contract fitted on deals it plays out (`python -m "
            "training.concede`). It raises where a network of the hand it holds and the auction "
            "values winning at the lowest raise at `bid_value` or more (fitted on that contract "
            "network's best score over every talon the hand may find, its cheapest cards given "
            "away: `python -m training.bid`); how far it jumps and the barrel's raises stay the "
            "heuristic's. Where the declarer names the trump it bids, names its contract and "
            "concedes as the heuristic does. With two players it bids as the heuristic does, plays "
            "its cards by a network per row fitted on the search's values of `two_players` deals, "
            "and names its contract by a network fitted on the totals the heuristic's own cards "
            "make (`thousand teach --kinds outcome`), giving the card whose kept hand that network "
            'values most. Laying two cards away (two players, `talon.two_players = "discard"`) '
            "no network was fitted: it makes every decision by the heuristic's rules (with its own "
            "parameters)."
        ),
        params=STRONG_PARAMS,
        entry="sim.engine.strategies.strong.strong_entry",
        advises=True,
        advice_samples=4000,
        bids_by_heuristic_rule=False,  # raise or pass by its bid network
        defends_weaker=True,
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
