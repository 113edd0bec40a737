"""The report job: odds, played hands and games, safe bids, the guide, then the report folder.

``thousand report`` builds a :class:`ReportSpec` and calls :func:`build_report`; a
notebook can too::

    from sim.jobs.report import ReportSpec, build_report
    from sim.rules import load_rules

    build_report(ReportSpec(rules=load_rules("classic"), deals=100_000, hands=50_000,
                            games=1_000), "report")

It works in three named stages:

1. :func:`play_runs` plays every run: the odds, the hands and games runs, the same
   games dealt the other way (shuffled or cut), the safe-bid hands, the advisor's
   worked examples, the guide's runs and the house-rule comparison's games;
2. :func:`sim.jobs.guide.check_guide` (the one stage that needs the first one's
   results): the guide's tables become the ``guide`` player's settings, which duels
   ``strong``;
3. :func:`write_report` reads the runs and writes the report folder
   (:func:`views.report.write_report_folder`).

The runs' chunks are kept in a partial folder beside the report until it is written,
so ``resume`` finishes an interrupted report.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sim
from sim.batch.runner import Backend, open_partial, run_on_workers, start_workers
from sim.engine.strategies.registry import parse_params, parse_strategies
from sim.i18n import N_, _
from sim.jobs.guide import DUEL_DEALS, Guide, GuideSpec, check_guide, collect_runs
from sim.jobs.guide import SIZES as GUIDE_SIZES
from sim.jobs.ladder import Ladder, LadderSpec, ladder
from sim.jobs.safebids import DEFAULT_PLAYERS, FAST, SafeBids, SafeBidsSpec, safebids
from sim.players import DEFAULT
from sim.rules import Rules
from sim.runs.folder import (
    ENGINE_FUNCTIONS,
    QUIET,
    Feedback,
    backend_for,
    compile_notice,
    simulate_report,
    warm_engine,
)

ATLAS_GAMES = 400
"""Games under the rules and under each switch of "Which house rules matter" (the report's
atlas: about 80 switches; ``thousand atlas`` plays the full one)."""
MIN_SKILL_GAMES = 100
"""The fewest skill games a seat of the report's atlas plays; below, its skill is left out."""

if TYPE_CHECKING:  # polars, compiled code and the analysis: loaded when a report runs
    import polars as pl

    from analysis.advise import SampledAdvice
    from analysis.guide import GuideRuns
    from sim.jobs.atlas import AtlasSpec
    from sim.runs.compare import DealingRuns
    from sim.runs.odds import OddsRun
    from views.pages import Section

GUIDE_RISK = 0.75
EXAMPLE_SAMPLE = 50  # the slow players' deals per worked example (at most safe_sample / 2)
LADDER_PLAYERS = ("heuristic_v1", "heuristic", "strong", "pimc")
"""The report ladder's players: the tables' players and the ones they are measured by."""
LADDER_DEALS = 2_000  # a duel of two fast players: at most this many (and the hands)
LADDER_SAMPLE = 300  # a duel with a sampling player: at most this many (and the samples)


@dataclass(frozen=True, kw_only=True)
class ReportSpec:
    """What a report plays and shows.

    Attributes:
        rules: the house rules.
        deals: simulated deals for the deal odds and marriages.
        hands: deals played for the bid tables and declared marriages.
        games: whole games for the barrel, game length and seat tables.
        seed: the run's seed.
        strategies: who plays the hands and games runs: one name for every seat, or
            one per seat comma-separated.
        params: ``STRATEGY.NAME=VALUE`` settings of the strategies.
        par: play the hands run with the open-card par of every deal.
        safe_players: the safe-bid section's players (None: no safe-bid section).
        safe_deals: deals of the fast players' safe-bid hands.
        safe_sample: deals of pimc's and the par's safe-bid hands.
        guide: whether the report has the strategy guide's section.
        guide_duel_deals: deals of the guide player's duel against ``strong``.
        ladder_players: the ladder's players, in the analysts' appendix (None: no
            ladder).
        ladder_deals: deals of a ladder duel between two fast players (None:
            :data:`LADDER_DEALS`, at most ``hands``).
        ladder_sample: deals of a ladder duel with a sampling player (None:
            :data:`LADDER_SAMPLE`, at most ``hands`` and ``safe_sample``).
        vs: ``(name, rules)`` of the compared rule sets, the base first
            (:func:`sim.jobs.compare.rule_sets`), or None: no comparison.
        atlas_games: games under the rules and under each switch of one option for the
            section "Which house rules matter" (:func:`atlas_spec`; 0: no such section).
        workers: worker processes (None: every core).
        scheduler: a Dask scheduler (``"local"`` or ``tcp://HOST:PORT``), or None.
    """

    rules: Rules
    deals: int = 2_000_000
    hands: int = 1_000_000
    games: int = 50_000
    seed: int = 0
    strategies: str = DEFAULT
    params: tuple[str, ...] = ()
    par: bool = False
    safe_players: tuple[str, ...] | None = DEFAULT_PLAYERS
    safe_deals: int = 100_000
    safe_sample: int = 1_000
    guide: bool = True
    guide_duel_deals: int = DUEL_DEALS
    ladder_players: tuple[str, ...] | None = LADDER_PLAYERS
    ladder_deals: int | None = None
    ladder_sample: int | None = None
    vs: tuple[tuple[str, Rules], ...] | None = None
    atlas_games: int = ATLAS_GAMES
    workers: int | None = None
    scheduler: str | None = None

    def check(self) -> None:
        """Refuse a spec that cannot run, before any work.

        Raises:
            StrategyError: an unknown strategy or parameter under any of the rule sets.
        """
        for r in [self.rules] + [r for _name, r in self.vs or ()]:
            parse_params(parse_strategies(self.strategies, r.players), list(self.params))
        if self.ladder_players is not None:
            self.ladder_spec().check()

    def atlas_spec(self) -> AtlasSpec:
        """The report's atlas: every switch of its rules, :attr:`atlas_games` games each.

        At most the report's ``games``, with half as many skill games (none below
        :data:`MIN_SKILL_GAMES` a seat, whose interval would span ±10 points); played by
        the report's strategy where one fast player sits at every seat, else by
        :data:`~sim.players.DEFAULT` (a sampling player would take hours over 80 switches).
        """
        from sim.jobs.atlas import AtlasSpec

        names = {n.strip() for n in self.strategies.split(",")}
        who = names.pop() if len(names) == 1 and names <= set(FAST) else DEFAULT
        games = min(self.atlas_games, self.games)
        skill = games // 2 if games // 2 >= MIN_SKILL_GAMES else 0
        return AtlasSpec(
            base=self.rules, games=games, seed=self.seed, strategies=who,
            skill_games=skill, workers=self.workers, scheduler=self.scheduler,
        )  # fmt: skip

    def ladder_spec(self) -> LadderSpec:
        """The ladder of the report: its players, its sizes, the report's seed."""
        deals = self.ladder_deals or min(LADDER_DEALS, self.hands)
        sample = self.ladder_sample or min(LADDER_SAMPLE, self.hands, self.safe_sample)
        return LadderSpec(
            rules=self.rules, players=self.ladder_players or (), deals=deals,
            sampling_deals=sample, seed=self.seed, workers=self.workers,
        )  # fmt: skip

    def plan(self) -> dict[str, Any]:
        """What a resumed report must share with the interrupted one."""
        return {
            "command": "report",
            "rules_hash": self.rules.rules_hash,
            "vs": [[name, r.rules_hash] for name, r in self.vs] if self.vs else None,
            "atlas_games": self.atlas_games,
            "deals": self.deals,
            "hands": self.hands,
            "games": self.games,
            "seed": self.seed,
            "strategies": self.strategies,
            "params": list(self.params),
            "par": self.par,
            "safe": [list(self.safe_players or ()), self.safe_deals, self.safe_sample],
            "guide": [self.guide, self.guide_duel_deals],
            "ladder": [list(self.ladder_players or ()), self.ladder_deals, self.ladder_sample],
            "engine_version": sim.ENGINE_VERSION,
        }

    def guide_spec(self) -> GuideSpec:
        """The guide of the report: ``thousand guide``'s sizes and the report's seed.

        The sizes are the guide's defaults (:data:`sim.jobs.guide.SIZES`), each at most
        the report's own (declarer deals: ``safe_deals``; hands; games; odds deals:
        ``deals``), so that a default report and a default guide of the same rules and
        seed show the same tables and the same page for players; a small report stays
        small.
        """
        return GuideSpec(
            rules=self.rules, seed=self.seed, deals=min(self.safe_deals, GUIDE_SIZES["deals"]),
            hands=min(self.hands, GUIDE_SIZES["hands"]),
            games=min(self.games, GUIDE_SIZES["games"]),
            odds_deals=min(self.deals, GUIDE_SIZES["odds_deals"]),
            risk=GUIDE_RISK, duel_deals=self.guide_duel_deals, workers=self.workers,
        )  # fmt: skip


@dataclass(frozen=True)
class ReportRuns:
    """Everything the report's first stage played.

    Attributes:
        odds: the odds run.
        hands_dir: the hands run's folder.
        games_dir: the games run's folder.
        dealing: the shuffled-or-cut runs.
        safebids: the safe-bid tables, or None.
        examples: the advisor's worked examples.
        guide: the guide's runs, or None.
        compared: ``(name, folder)`` of the compared rule sets' games runs, or None.
        ladder: the players' ladder, or None.
    """

    odds: OddsRun
    hands_dir: Path
    games_dir: Path
    dealing: DealingRuns
    safebids: SafeBids | None
    examples: list[SampledAdvice]
    guide: GuideRuns | None
    compared: list[tuple[str, Path]] | None
    ladder: Ladder | None = None
    equity: tuple[Any, Any] | None = None  # the equity model and its held-out games' states
    atlas: pl.DataFrame | None = None  # the atlas table (analysis.atlas.atlas_table)


def build_report(
    spec: ReportSpec,
    out: str | Path,
    *,
    resume: bool = False,
    force: bool = False,
    feedback: Feedback = QUIET,
) -> Path:
    """Play the report's runs, check its guide and write the report folder ``out``.

    The folder is written only when everything worked (``index.html``, ``report.md``,
    the CSV tables and figures, ``run.json``). ``resume`` finishes an interrupted
    report from its saved chunks, ``force`` discards them.

    Returns:
        The report folder.
    """
    from sim.parallel import set_threads

    spec.check()
    out = Path(out)
    set_threads(spec.workers)
    backend = backend_for(spec.workers, spec.scheduler)
    parts = open_partial(out, spec.plan(), resume, force).folder  # each run's chunks, for resume
    runs = play_runs(spec, parts, backend, feedback)
    guide = player = pages = None
    if runs.guide is not None:
        book, duel = check_guide(spec.guide_spec(), runs.guide)  # the second stage
        checked = Guide(spec.guide_spec(), book, duel, 0.0)
        guide, player = checked.section(), checked.player_section()
        pages = checked.player_pages
    write_report(spec, runs, guide, out, player, pages)  # in the current language (sim.i18n)
    shutil.rmtree(parts, ignore_errors=True)
    return out


def play_runs(spec: ReportSpec, parts: Path, backend: Backend, feedback: Feedback) -> ReportRuns:
    """The first stage: every run of the report, its chunks kept in ``parts``."""
    from sim.engine.strategies.addresses import entry_names
    from sim.runs.compare import dealing_comparison, play_rule_sets
    from sim.runs.declarer import declarer_functions, warm_declarer
    from sim.runs.odds import count_batch, run_odds

    rules = spec.rules
    names = parse_strategies(spec.strategies, rules.players)

    def odds_of(r: Rules) -> OddsRun:
        with feedback.bar(spec.deals, "deal", _("odds of {rules}").format(rules=r.name)) as bar:
            return run_odds(r, spec.deals, spec.seed, progress=bar.update)

    # the safe bids' and the ladder's players as the declarer's (the ladder's duels
    # call the same players' callbacks)
    declaring = [*(spec.safe_players or ()), *(spec.ladder_players or ())]
    declaring = list(dict.fromkeys(declaring))
    compiling = compile_notice(
        feedback,
        "sim.runs.odds._count_kernel",
        *ENGINE_FUNCTIONS["hands"],
        *ENGINE_FUNCTIONS["games"],
        *ENGINE_FUNCTIONS["declarer"],
        *entry_names(names),
        *declarer_functions(declaring),
    )
    if compiling:  # compiled before the phases' clocks start: their speeds leave it out
        from sim.engine.deal import deal_batch

        count_batch(deal_batch(8, spec.seed, rules))
        warm_declarer(rules, declaring, spec.params)
    odds = odds_of(rules)
    start_workers(backend)
    if compiling:
        for command in ("hands", "games"):
            run_on_workers(backend, warm_engine, (command, rules, names, list(spec.params)))
    work = parts / "runs"  # the joined run folders, made again from the chunks on resume
    work.mkdir(exist_ok=True)
    played = simulate_report(
        rules, spec.hands, spec.games, spec.seed, work, strategies=spec.strategies,
        params=spec.params, par=spec.par, feedback=feedback, backend=backend, parts=parts,
    )  # fmt: skip
    with feedback.bar(spec.games, "game", N_("shuffled or cut: games")) as bar:
        dealing = dealing_comparison(
            rules, odds, played.games_dir, spec.games, spec.seed, work / "dealing",
            odds_of=odds_of, strategies=spec.strategies, params=spec.params, backend=backend,
            progress=bar.update, parts=parts / "dealing",
        )  # fmt: skip
    safe, examples = None, []
    if spec.safe_players is not None:
        safe = safebids(
            SafeBidsSpec(
                rules=rules, players=spec.safe_players, deals=spec.safe_deals,
                sample=spec.safe_sample, seed=spec.seed, holdout_seed=spec.seed + 1,
                params=spec.params, workers=spec.workers,
            ),
            feedback=feedback,
            label=N_("safe bids: hands declared"),
        )  # fmt: skip
        examples = advice_examples(spec)
    guide_runs = None
    if spec.guide:
        guide_runs = _guide_runs(spec, safe, feedback)
    compared = None
    if spec.vs is not None:  # the house-rule comparison on the same deals
        with feedback.bar(spec.games * len(spec.vs), "game", N_("house rules: games")) as bar:
            compared = play_rule_sets(
                list(spec.vs), spec.games, spec.seed, work / "compare",
                strategies=spec.strategies, params=list(spec.params), backend=backend,
                progress=bar.update, parts=parts / "compare",
            )  # fmt: skip
    atlas_table = None
    if spec.atlas_spec().games:  # which house rules matter: every switch of one option
        from sim.jobs.atlas import play_atlas

        atlas_dir = work / "atlas"
        atlas_dir.mkdir(exist_ok=True)
        atlas_table = play_atlas(
            spec.atlas_spec(), atlas_dir, backend, feedback, parts / "atlas",
            N_("which house rules matter: games"),
        )[1]  # fmt: skip
    board = None
    if spec.ladder_players is not None:
        board = ladder(spec.ladder_spec(), feedback=feedback)
    return ReportRuns(
        odds,
        played.hands_dir,
        played.games_dir,
        dealing,
        safe,
        examples,
        guide_runs,
        compared,
        board,
        equity_check(spec, feedback),
        atlas_table,
    )


EQUITY_GAMES = 2_000
"""Games the report checks the equity table on (seed: the report's + 3, never fitted on)."""


def equity_check(spec: ReportSpec, feedback: Feedback) -> tuple[Any, Any] | None:
    """The equity table of the report's rules and the states of games it was not fitted on."""
    from sim.jobs.equity import equity_model
    from sim.runs.equity import game_states

    if not spec.games:
        return None
    model = equity_model(spec.rules, DEFAULT, feedback)
    games = min(EQUITY_GAMES, spec.games)
    with feedback.bar(games, "game", N_("the chance to win: games held out")) as bar:
        states = game_states(spec.rules, DEFAULT, games, spec.seed + 3, progress=bar.update)
    return model, states


def write_report(
    spec: ReportSpec,
    runs: ReportRuns,
    guide: Section | None,
    out: Path,
    player: Section | None = None,
    player_pages: Callable[[Path], None] | None = None,
) -> list[Section]:
    """The last stage: read the runs and write the report folder; its sections.

    ``player`` (the page for players, from the guide) opens the report;
    ``player_pages`` writes it on its own in every language.
    """
    from analysis.compare import compare_folders
    from analysis.odds import odds_result
    from views.report import write_report_folder

    return write_report_folder(
        out,
        odds=odds_result(runs.odds),
        hands_dir=runs.hands_dir,
        games_dir=runs.games_dir,
        compare=compare_folders(runs.compared) if runs.compared is not None else None,
        dealing=runs.dealing,
        safebids=runs.safebids.result if runs.safebids is not None else None,
        examples=runs.examples,
        guide=guide,
        rule_sets=spec.vs or (),
        player=player,
        player_pages=player_pages,
        ladder=None if runs.ladder is None else ladder_of(spec, runs.ladder),
        equity=None if runs.equity is None else equity_of(spec, *runs.equity),
        atlas=None if runs.atlas is None else atlas_of(spec, runs.atlas),
    )


def atlas_of(spec: ReportSpec, table: pl.DataFrame) -> Section:
    """The report's "Which house rules matter" of its atlas table."""
    from views.sections.atlas import atlas_section

    a = spec.atlas_spec()
    return atlas_section(
        table, spec.rules.name, a.games, a.strategies, (a.skill_player, a.skill_against)
    )


def equity_of(spec: ReportSpec, model: Any, states: Any) -> Section:
    """The report's section of the chance to win from the scores (in the current language)."""
    from views.sections.equity import equity_section

    return equity_section(model, states, spec.rules, spec.seed + 3)


def ladder_of(spec: ReportSpec, board: Ladder) -> Section:
    """The ladder's section of the report (in the current language)."""
    from views.sections.ladder import ladder_section

    played = spec.ladder_spec()
    return ladder_section(board.result, played.deals, played.sampling_deals, played.seed)


def advice_examples(spec: ReportSpec) -> list[SampledAdvice]:
    """The advisor on the report's example hands: the fast players (2,000 deals), the par.

    Each is ``thousand advise HAND --seat forehand --player P`` (:func:`sim.jobs.advise.advise`,
    no time budget); the slow players answer from :data:`EXAMPLE_SAMPLE` deals (at most
    half of ``safe_sample``).
    """
    from analysis.advise import EXAMPLE_HANDS, SampledAdvice
    from sim.engine.deal import place_sizes
    from sim.jobs.advise import AdviseSpec, advise

    rules = spec.rules
    if place_sizes(rules.players)[0] != 7:  # the examples are 7-card hands
        return []
    players = [p for p in spec.safe_players or () if p in (*FAST, "par")]
    out = []
    for text in EXAMPLE_HANDS:
        for p in players:
            n = 2000 if p in FAST else max(1, min(EXAMPLE_SAMPLE, spec.safe_sample // 2))
            ask = AdviseSpec(rules=rules, hand=text, seat="forehand", player=p, samples=n,
                             budget=0.0, seed=spec.seed, workers=spec.workers)  # fmt: skip
            answer = advise(ask).answer
            assert isinstance(answer, SampledAdvice)
            out.append(answer)
    return out


def guide_items(spec: ReportSpec, safe: SafeBids | None) -> dict[str, Any] | None:
    """The guide's declarer items out of the safe-bid run's, when they are the same hands.

    The safe-bid run plays deals ``0 .. safe_deals-1`` of the report's seed, every hand
    as the declarer's, and an item's play depends only on its number, so its first
    items are the guide's own when the guide player is among its players with no
    parameters of the report's (``--param``); None otherwise (the guide plays its own).
    """
    from analysis.guide import GUIDE_PLAYER
    from sim.engine.deal import n_hands

    if safe is None or spec.params or GUIDE_PLAYER not in safe.result.run.players:
        return None
    items = safe.result.run.items[(GUIDE_PLAYER, spec.seed)]
    count = spec.guide_spec().deals * n_hands(spec.rules.players)
    if len(items["deal"]) < count:
        return None
    return {k: v[:count] for k, v in items.items()}


def _guide_runs(spec: ReportSpec, safe: SafeBids | None, feedback: Feedback) -> GuideRuns:
    """The guide's runs, as ``thousand guide`` plays them, with strong's hands when played.

    Its odds are its own (``odds_deals`` deals played by the guide player, as the guide
    plays them), not the report's larger odds run: the report's guide is the guide.
    """
    return collect_runs(spec.guide_spec(), feedback, guide_items(spec, safe))
