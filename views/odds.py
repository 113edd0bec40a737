"""The words of the deal odds: what each odds key counts, ``odds.md`` and the odds folder."""

from __future__ import annotations

from pathlib import Path

from analysis.odds import OddsResult
from sim.i18n import N_, _
from sim.odds_keys import ODDS_KEYS
from sim.output import StagedDir, now_iso, write_json, write_manifest

# The odds keys in words (the meanings of :data:`sim.odds_keys.ODDS_KEYS`), marked for
# the catalogues: what the report shows beside each number, in the current language.
ODDS_WORDS: dict[str, str] = {
    "hand.any_marriage": N_("forehand's hand holds at least one marriage (K+Q of a suit)"),
    "hand.marriages_ge_2": N_("forehand's hand holds two or more marriages"),
    "hand.marriage.S": N_("forehand's hand holds the ♠ marriage"),
    "hand.marriage.C": N_("forehand's hand holds the ♣ marriage"),
    "hand.marriage.D": N_("forehand's hand holds the ♦ marriage"),
    "hand.marriage.H": N_("forehand's hand holds the ♥ marriage"),
    "hand_talon.any_marriage": N_("forehand's hand plus the talon hold at least one marriage"),
    "hand_talon.marriages_ge_2": N_("forehand's hand plus the talon hold two or more marriages"),
    "hand_talon.marriage.S": N_("forehand's hand plus the talon hold the ♠ marriage"),
    "hand_talon.marriage.C": N_("forehand's hand plus the talon hold the ♣ marriage"),
    "hand_talon.marriage.D": N_("forehand's hand plus the talon hold the ♦ marriage"),
    "hand_talon.marriage.H": N_("forehand's hand plus the talon hold the ♥ marriage"),
    "hand.points_below_13": N_("forehand's hand has fewer than 13 card points"),
    "hand.points_below_14": N_("forehand's hand has fewer than 14 card points"),
    "hand.points_below_15": N_("forehand's hand has fewer than 15 card points"),
    "hand.nines_ge_3": N_("forehand's hand holds three or four nines"),
    "hand.nines_eq_4": N_("forehand's hand holds all four nines"),
    "hand.jacks_eq_4": N_("forehand's hand holds all four jacks"),
    "hand.aces_eq_4": N_("forehand's hand holds all four aces"),
    "hand.reshuffle": N_("forehand's hand meets the rules' hand reshuffle condition"),
    "talon.points_below_5": N_("the talon has fewer than 5 card points"),
    "talon.nines_ge_2": N_("the talon holds two or more nines"),
    "talon.jacks_eq_3": N_("the talon holds three jacks"),
    "talon.reshuffle": N_("the talon meets the rules' talon reshuffle condition"),
    "deal.some_player_has_marriage": N_("at least one player's dealt hand holds a marriage"),
    "deal.any_hand_reshuffle": N_("at least one player's hand meets the hand reshuffle condition"),
    "deal.talon_reshuffle": N_("the talon meets the talon reshuffle condition"),
    "deal.any_reshuffle": N_("some hand or the talon meets a reshuffle condition"),
    "talon.aces_ge_1": N_("the talon holds an ace"),
    "talon.aces_ge_2": N_("the talon holds two or more aces"),
    "talon.any_marriage": N_("a marriage lies in the talon"),
    "talon.completes_marriage": N_("the talon completes a marriage forehand's hand lacked"),
}


def odds_words(key: str) -> str:
    """What an odds key counts, in the current language (its English meaning if unmarked)."""
    return _(ODDS_WORDS[key]) if key in ODDS_WORDS else ODDS_KEYS.get(key, key)


def odds_markdown(result: OddsResult) -> str:
    """``odds.md``: a heading naming the rules and the run, then the table."""
    from views.tables import to_markdown

    run = result.run
    title = (
        f"# Deal odds — rules `{run.rules.name}` (hash {run.rules.rules_hash})\n\n"
        f"{run.deals:,} simulated deals ({run.deals_from}), seed {run.seed}; "
        "95 % Wilson intervals; `exact` by combinatorics for independently shuffled "
        "deals; `z` = (estimate − exact) / standard error.\n\n"
    )
    return title + to_markdown(result.table)


def write_odds_dir(result: OddsResult, out: Path) -> None:
    """Write ``odds.csv``, ``odds.md``, ``odds.json`` and ``run.json`` into ``out``.

    The files are staged and moved into place together (:class:`sim.output.StagedDir`).
    """
    run = result.run
    with StagedDir(out) as staged:
        result.table.write_csv(staged.path / "odds.csv")
        (staged.path / "odds.md").write_text(odds_markdown(result), encoding="utf-8")
        write_json(staged.path / "odds.json", result.document())
        write_manifest(
            staged.path,
            run.rules,
            run.seed,
            {"deals": run.deals},
            command="odds",
            started=run.started,
            seconds=run.seconds,
            ended=now_iso(),
        )
