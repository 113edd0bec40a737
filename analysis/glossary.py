"""One name, one definition: the contract rates and the duel's score differences.

The duel's two differences are :data:`DIFFERENCES`; the rest of this page is the rates.

A contract is a deal that was not redealt; its declarer either conceded it
(роспись) or played it. Three rates are read from contracts, and every page,
table, terminal summary and JSON meaning of the project uses the same words for
each (:data:`MADE_PLAYED`, :data:`MADE_ALL`, :data:`CONCEDED_ALL`).

:data:`NAMES` lists every public name of such a rate, output by output, with its
definition. A name that appears in several outputs (``concession_rate`` in the bid
tables and the rule comparison) has one definition in all of them (a test holds
this). The two make rates carry different names:

* ``rate`` (bid tables) and ``declarer_make_rate`` (rule comparison) count played
  contracts only, so they say how well the contracts that were played went;
* ``rate_all`` (bid tables) and ``a_make_rate``/``b_make_rate`` (duels) count a
  concession as a failure: in a duel conceding is one of the strategies' choices,
  so a rate that left concessions out would flatter the one that concedes more.

The same definition can still give different numbers in two outputs because the
play differs: the bid tables count single deals of a hands run, the comparison
counts the contracts of whole games (the scores, the barrel and the bolts change
what the players bid there).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.marks import N_


@dataclass(frozen=True)
class RateDefinition:
    """A contract rate: ``hits`` (``made`` or ``conceded``) over ``over`` contracts.

    ``over`` is ``played`` (conceded contracts left out) or ``all``.
    """

    key: str
    words: str  # the meaning every output prints
    label: str  # the column heading of the report's tables
    hits: str
    over: str

    def value(self, made: int, conceded: int, contracts: int) -> float:
        """The rate from a count of contracts, of them made and conceded (NaN for none)."""
        hits = made if self.hits == "made" else conceded
        over = contracts - conceded if self.over == "played" else contracts
        return hits / over if over > 0 else float("nan")


MADE_PLAYED = RateDefinition(
    "made_played", N_("made, of played contracts"), "made / played", "made", "played"
)
MADE_ALL = RateDefinition(
    "made_all",
    N_("made, of all contracts (a concession fails)"),
    "made / contracts",
    "made",
    "all",
)
CONCEDED_ALL = RateDefinition(
    "conceded_all", N_("conceded, of all contracts"), "conceded / contracts", "conceded", "all"
)
DEFINITIONS = (MADE_PLAYED, MADE_ALL, CONCEDED_ALL)

# Every public name of a contract rate, by the output that carries it.
NAMES: dict[str, dict[str, RateDefinition]] = {
    # thousand bids, the report's bid tables: bids_*.csv and bids.json
    "bids": {"rate": MADE_PLAYED, "rate_all": MADE_ALL, "concession_rate": CONCEDED_ALL},
    # thousand compare, the report's comparison: compare.csv, compare.json
    "compare": {"declarer_make_rate": MADE_PLAYED, "concession_rate": CONCEDED_ALL},
    # thousand duel --deals: duel_summary.csv, duel.json
    "duel": {
        "a_make_rate": MADE_ALL,
        "b_make_rate": MADE_ALL,
        "a_concede_rate": CONCEDED_ALL,
        "b_concede_rate": CONCEDED_ALL,
    },
}


# The duel's two score differences (``thousand duel --deals``: duel_summary.csv,
# duel.json, the verdict; the guide's duel): one name, one meaning. ``score_diff``
# counts A's own seat only, so a better defence (the declarer at another seat scoring
# less) is invisible in it; ``margin_diff`` counts it.
DIFFERENCES: dict[str, str] = {
    "score_diff": "points per deal: A's seat with A there − with B",
    "margin_diff": (
        "points per deal: A's seat minus the mean of the other seats, with A there − with B "
        "(a better defence counts)"
    ),
}


def definition(output: str, name: str) -> RateDefinition:
    """The definition of the rate ``name`` in ``output`` (a key of :data:`NAMES`)."""
    return NAMES[output][name]


def meaning(output: str, name: str, whose: str = "") -> str:
    """The rate's meaning as the outputs print it: its words, after ``whose`` if given."""
    words = definition(output, name).words
    return f"{whose}: {words}" if whose else words
