"""The tables of ``thousand guide`` (and the report's guide section)."""

from __future__ import annotations

from analysis.schema.duel import DUEL_SUMMARY
from analysis.schema.safebids import SAFEBIDS_CURVES, SAFEBIDS_SAFE
from sim.schema.columns import Table, cols, make_table


# --- the strategy guide: thousand guide (and the report's guide section) -------------------
def _guide_copy(name: str, of: Table) -> Table:
    """A guide file whose columns are another command's table's."""
    return make_table(f"guide/{name}", "guide", of.columns)


_RATE_CI = cols(
    ("ci_low", "Float64", "95 % interval, lower end"),
    ("ci_high", "Float64", "95 % interval, upper end"),
)
GUIDE_BID_CHART = _guide_copy("guide_bid_chart.csv", SAFEBIDS_SAFE["by_marriages"])
GUIDE_BID_CURVE = _guide_copy("guide_bid_curve.csv", SAFEBIDS_CURVES["by_marriages"])
GUIDE_TALON_POINTS = make_table(
    "guide/guide_talon_points.csv",
    "guide",
    cols(
        ("points_band", "Int64", "the dealt hand's card points, in bands of 10 (lower end)"),
        ("n", "Int64", "hands of the band"),
        ("measured", "Float64", "mean card points of the talon those hands took"),
        ("exact", "Float64", "its exact value: talon size × (120 − hand points) / unseen cards"),
    ),
    _RATE_CI,
)
GUIDE_COMPLETION = make_table(
    "guide/guide_completion.csv",
    "guide",
    cols(
        ("lone_halves", "Int64", "kings and queens in the dealt hand without their partner"),
        ("n", "Int64", "hands holding that many"),
        ("measured", "Float64", "share whose talon held at least one partner"),
    ),
    _RATE_CI,
    cols(("exact", "Float64", "1 − C(unseen − h, talon) / C(unseen, talon)")),
)
_ODDS_ROWS = (
    cols(
        ("key", "String", "the odds key (`talon.*`, see `odds.csv`)"),
        ("meaning", "String", "the key in words"),
        ("estimate", "Float64", "simulated share of deals"),
    ),
    _RATE_CI,
    cols(("exact", "Float64", "the exact probability")),
)
GUIDE_TALON_RESHUFFLE = make_table("guide/guide_talon_reshuffle.csv", "guide", *_ODDS_ROWS)
GUIDE_MUSIK = make_table("guide/guide_musik.csv", "guide", *_ODDS_ROWS)
GUIDE_DISCARDS = make_table(
    "guide/guide_discards.csv",
    "guide",
    cols(
        ("suit", "String", "the suit of the king or queen given away"),
        ("gives", "Int64", "gives of a lone king or queen (its partner not among the 10 cards)"),
        ("receiver_held", "Float64", "share whose receiver was dealt the partner"),
        ("held_low", "Float64", "95 % interval, lower end"),
        ("held_high", "Float64", "95 % interval, upper end"),
        ("exact_held", "Float64", "the exact share: 1/2 (14 unseen cards, 7 to each opponent)"),
        ("declared", "Float64", "share whose receiver declared that marriage"),
        ("declared_low", "Float64", "95 % interval, lower end"),
        ("declared_high", "Float64", "95 % interval, upper end"),
        ("cost", "Float64", "the marriage's value × `declared`: points per give"),
        ("cost_low", "Float64", "the same at `declared_low`"),
        ("cost_high", "Float64", "the same at `declared_high`"),
    ),
)
GUIDE_CONCEDE = make_table(
    "guide/guide_concede.csv",
    "guide",
    cols(
        ("kept", "String", "marriages kept after the discard: none, a suit's name, `two` or more"),
        ("contract", "Int64", "the contract"),
        ("n", "Int64", "hands of the class"),
        ("p_make", "Float64", "share whose played total reaches the contract"),
    ),
    _RATE_CI,
    cols(
        ("play", "Float64", "expected score of playing, minus the opponents' mean score"),
        ("concede", "Float64", "the score of conceding, minus what each opponent is given"),
        ("better", "String", "`play` or `concede`"),
    ),
)
GUIDE_SPECIALS = make_table(
    "guide/guide_specials.csv",
    "guide",
    cols(
        ("deal", "String", "`golden deals` or `dark deals`"),
        ("per_game", "Float64", "such deals per game (empty when off under the rules)"),
        ("note", "String", "the count, or that the rules switch them off"),
    ),
)
GUIDE_SEATS = make_table(
    "guide/guide_seats.csv",
    "guide",
    cols(
        ("seat", "String", "the seat, counted from the first dealer"),
        ("games", "Int64", "finished games"),
        ("wins", "Int64", "games won from that seat"),
        ("share", "Float64", "`wins / games`"),
    ),
    _RATE_CI,
    cols(("fair", "Float64", "1 / players")),
)
GUIDE_DUEL = _guide_copy("guide_duel.csv", DUEL_SUMMARY)
GUIDE_PLAYER = make_table(
    "guide/guide_player.csv",
    "guide",
    cols(
        ("marriage", "String", "the dealt hand's marriage: none, a suit's name or `two`"),
        ("aces", "Int64", "its aces, 2 for two or more"),
        ("n", "Int64", "hands played for it: its classes of `guide_bid_choices.csv` at every "
         "seat, each dealt `hands` times"),
        ("class_hands", "Int64", "hands of the deck in the class (its classes' together)"),
        ("level", "Int64", "the guide player's highest bid (0: pass): the plan of the best "
         "pooled margin"),
        ("low", "Int64", "the lowest level as good as it: within its pooled 95 % interval, or "
         "not shown worse by the pooled paired interval"),
        ("high", "Int64", "the highest such level"),
        ("margin", "Float64", "the level's pooled mean margin (the seat's deal score minus "
         "the others' mean): its classes weighted by `class_hands`, the seats alike"),
        ("margin_low", "Float64", "95 % interval, lower end"),
        ("margin_high", "Float64", "95 % interval, upper end"),
    ),
)  # fmt: skip
GUIDE_BID_CHOICES = make_table(
    "guide/guide_bid_choices.csv",
    "guide",
    cols(
        ("marriages", "String", "the dealt hand's marriages: `none` or their suits in the "
         "order ♥ ♦ ♣ ♠ (`♥♠`)"),
        ("aces", "Int64", "its aces"),
        ("seat", "String", "the hand seat: `forehand`, `middle` or `dealer`"),
        ("hands", "Int64", "hands of the class dealt at the seat on purpose, each played out "
         "once per plan"),
        ("class_hands", "Int64", "hands of the deck in the class (exact: every hand counted)"),
        ("share", "Float64", "`class_hands` over every hand of the deck"),
        ("choice", "Int64", "the plan of the best mean margin (every declarer that goes down "
         "conceding where that costs it less), or, where higher bids are as good, the highest "
         "of them made in at least 75 % of the deals: the level to bid up to (0: pass)"),
        ("choice_low", "Int64", "the lowest plan level as good as the choice: its mean within "
         "the choice's 95 % interval, or not shown worse by the paired interval"),
        ("choice_high", "Int64", "the highest such level"),
        ("margin", "Float64", "the choice's mean margin: the seat's deal score minus the "
         "others' mean"),
        ("margin_low", "Float64", "95 % interval, lower end"),
        ("margin_high", "Float64", "95 % interval, upper end"),
        ("p_make", "Float64", "P(make) of the choice's level when the hand wins the auction "
         "there (empty on a pass)"),
        ("p_low", "Float64", "95 % Wilson interval, lower end"),
        ("p_high", "Float64", "95 % Wilson interval, upper end"),
    ),
)  # fmt: skip
GUIDE_BID_CLASSES = make_table(
    "guide/guide_bid_classes.csv",
    "guide",
    cols(
        ("marriage", "String", "the dealt hand's marriage: none, a suit's name or `two`"),
        ("aces", "Int64", "its aces, 2 for two or more"),
        ("n", "Int64", "hands of the class"),
        (
            "level",
            "Int64",
            "the highest level whose 95 % lower bound reaches the risk (empty: none); how "
            "safe, not how high to bid (`guide_bid_choices.csv`)",
        ),
        ("rate", "Float64", "share of the class's hands that make `level`"),
    ),
    _RATE_CI,
    cols(
        ("next_level", "Int64", "the first level above it (100 on a pass; empty at the cap)"),
        ("next_rate", "Float64", "share that make `next_level`"),
        ("next_low", "Float64", "95 % interval, lower end"),
        ("next_high", "Float64", "95 % interval, upper end"),
    ),
)
GUIDE_EVENTS = make_table(
    "guide/guide_events.csv",
    "guide",
    cols(
        ("measure", "String", "`forehand_100`, `forehand_100_made`, `forehand_100_score`, "
         "`bolt_share`, `bolt_penalties_per_game`, `bolt_points_per_game`, "
         "`samosvals_per_game` or `games_with_samosval`"),
        ("value", "Float64", "the share or the mean"),
    ),
    _RATE_CI,
    cols(
        ("n", "Int64", "the deals, forced-100 deals or games it is measured over"),
        ("meaning", "String", "the measure in words"),
    ),
)  # fmt: skip
GUIDE_TABLES = (
    GUIDE_BID_CHART,
    GUIDE_BID_CURVE,
    GUIDE_TALON_POINTS,
    GUIDE_COMPLETION,
    GUIDE_TALON_RESHUFFLE,
    GUIDE_MUSIK,
    GUIDE_DISCARDS,
    GUIDE_CONCEDE,
    GUIDE_SPECIALS,
    GUIDE_SEATS,
    GUIDE_DUEL,
    GUIDE_PLAYER,
    GUIDE_BID_CHOICES,
    GUIDE_BID_CLASSES,
    GUIDE_EVENTS,
)
