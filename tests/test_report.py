"""The full report (issue 5): every section, figure and CSV, built on small runs."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import polars as pl
import pytest
from matplotlib.figure import Figure

from analysis.barrel import barrel_tables
from analysis.bids import bid_tables
from analysis.marriages import marriage_table
from analysis.odds import odds_result
from analysis.safebids import SafeBidRun, build_result
from sim.jobs.advise import AdviseSpec
from sim.jobs.advise import advise as advise_job
from sim.rules import load_rules
from sim.runs.declarer import PAR, run_items
from sim.runs.folder import simulate_report
from sim.runs.odds import run_odds
from views import plots
from views.pages import Section, Table
from views.report import write_report_folder
from views.sections.compare import COMPARE_COLUMNS, compare_answer, compare_section

SEED = 3
ODDS_DEALS, HANDS, GAMES = 20_000, 20_000, 500
SAFE_DEALS, SAFE_SAMPLE = 5_000, 4

SECTION_TITLES = (
    "In short",
    "Marriage frequencies",
    "Safe bids from the hand before the talon",
    "Contracts as the hands run played them",
    "Barrel falls and game length",
    "Seat advantage",
    "House-rule comparison",
    # the analysts' appendix, folded at the end
    "The run",
    "Deal odds and reshuffle conditions: exact vs simulated",
)
FIGURES = (
    "odds.png",
    "odds_z.png",
    "marriages.png",
    "safebids_curves.png",
    "safebids_calibration.png",
    "bids_make_rate.png",
    "barrel_outcomes.png",
    "game_length.png",
    "seat_advantage.png",
    "compare.png",
)
CSVS = (
    "odds.csv",
    "marriages.csv",
    "bids_summary.csv",
    "bids_by_contract.csv",
    "bids_by_marriage_count.csv",
    "bids_by_marriage_set.csv",
    "bids_by_points_band.csv",
    "bids_by_at_100.csv",
    "bids_by_relative_seat.csv",
    "bids_by_seat.csv",
    "safebids_players.csv",
    "safebids_safe_by_marriages.csv",
    "safebids_safe_by_marriages_aces.csv",
    "safebids_safe_by_aces_tens.csv",
    "safebids_safe_by_points.csv",
    "safebids_safe_by_position.csv",
    "safebids_curve_by_marriages.csv",
    "safebids_curve_by_marriages_aces.csv",
    "safebids_curve_by_aces_tens.csv",
    "safebids_curve_by_points.csv",
    "safebids_curve_by_position.csv",
    "safebids_calibration.csv",
    "safebids_examples.csv",
    "games_barrel_summary.csv",
    "games_barrel_outcomes.csv",
    "games_climb_back.csv",
    "games_attempts_used.csv",
    "games_game_length.csv",
    "games_length_histogram.csv",
    "games_events_per_game.csv",
    "games_seat_relative.csv",
    "games_seat_absolute.csv",
    "games_seat_chi2.csv",
    "compare.csv",
)
# a value and its interval, signed or not, with its unit where a share's (% or pp)
INTERVAL = re.compile(r"^[−+-]?[\d,.]+ \[[−+-]?[\d,.]+, [−+-]?[\d,.]+\]( %| pp)?$")


def hand_made_compare() -> pl.DataFrame:
    """A ``thousand compare`` table as the comparison command will hand it over."""
    rows = []
    for metric, meaning, base, scale in (
        ("game_length", "played deals per finished game", 44.0, 1.0),
        ("barrel_fall_rate", "share of barrel stints ending in a fall", 0.77, 0.01),
    ):
        for vs, shift in (("app", 2.0), ("ukraine_online", -1.0)):
            other = base + shift * scale
            rows.append(
                {
                    "metric": metric,
                    "meaning": meaning,
                    "rules": "classic",
                    "vs": vs,
                    "base": base,
                    "base_ci_low": base - scale,
                    "base_ci_high": base + scale,
                    "other": other,
                    "other_ci_low": other - scale,
                    "other_ci_high": other + scale,
                    "diff": other - base,
                    "diff_ci_low": other - base - 0.5 * scale,
                    "diff_ci_high": other - base + 0.5 * scale,
                    "width_crn": scale,
                    "width_independent": 2.8 * scale,
                    "games": 500,
                    "unit": "deals" if metric == "game_length" else "share",
                    "base_on": True,
                    "other_on": True,
                    "own_switch": False,
                }
            )
    return pl.DataFrame(rows).select(COMPARE_COLUMNS)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    work = tmp_path_factory.mktemp("runs")
    rules = load_rules("classic")
    odds = odds_result(run_odds(rules, ODDS_DEALS, SEED))
    parts = simulate_report(rules, HANDS, GAMES, SEED, work)
    items = {
        (p, seed): run_items(rules, p, n, seed)
        for seed in (SEED, SEED + 1)
        for p, n in (("heuristic", SAFE_DEALS), (PAR, SAFE_SAMPLE))
    }
    sizes = {"heuristic": SAFE_DEALS, PAR: SAFE_SAMPLE}
    safe = build_result(SafeBidRun(rules, ["heuristic", PAR], [], SEED, SEED + 1, sizes, items))
    ask = AdviseSpec(
        rules=rules,
        hand="AH TH KH QH AS 9C JD",
        seat="forehand",
        player="heuristic",
        samples=300,
        seed=SEED,
        budget=0.0,
    )
    examples = [advise_job(ask).answer]
    return {
        "odds": odds,
        "hands": parts.hands_dir,
        "games": parts.games_dir,
        "safe": safe,
        "examples": examples,
    }


@pytest.fixture(scope="module")
def report(runs: dict, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Section]]:
    out = tmp_path_factory.mktemp("report") / "classic"
    sections = write_report_folder(
        out,
        runs["odds"],
        runs["hands"],
        runs["games"],
        compare=hand_made_compare(),
        safebids=runs["safe"],
        examples=runs["examples"],
    )
    return out, sections


def test_report_has_every_section_in_both_formats(report):
    out, sections = report
    assert [s.title for s in sections] == list(SECTION_TITLES)
    html = (out / "index.html").read_text(encoding="utf-8")
    md = (out / "report.md").read_text(encoding="utf-8")
    for title in SECTION_TITLES:
        assert f"## {title}\n" in md, title
        assert f"<h2>{title}</h2>" in html.replace("&#x27;", "'"), title


def test_the_analysts_material_is_folded_at_the_end(report):
    # how the numbers were made and checked: one folded part after the answers, its
    # sections listed in the contents under it
    out, _sections = report
    html = (out / "index.html").read_text(encoding="utf-8")
    md = (out / "report.md").read_text(encoding="utf-8")
    folded = html.index('<details class="appendix" id="appendix">')
    assert html.index('<section id="run">') > folded and html.index('<section id="odds">') > folded
    assert html.index('<section id="compare">') < folded  # the answers come first
    assert html.count("<details") == 1 and '<a href="#appendix">' in html
    assert "<summary>For analysts: how the numbers were made and checked</summary>" in html
    head = md.index("# For analysts: how the numbers were made and checked\n")
    assert md.index("## The run\n") > head > md.index("## House-rule comparison\n")
    folded_md = "- [For analysts: how the numbers were made and checked](#appendix)\n"
    assert folded_md + "  - [The run](#run)" in md


def test_every_figure_is_written_referenced_and_embedded(report):
    out, sections = report
    html = (out / "index.html").read_text(encoding="utf-8")
    md = (out / "report.md").read_text(encoding="utf-8")
    written = {name for s in sections for name in s.figures}
    assert written == set(FIGURES)
    embedded = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(embedded) == len(FIGURES)
    for name in FIGURES:
        data = (out / name).read_bytes()
        assert data.startswith(b"\x89PNG"), name
        assert f"]({name})" in md and f'href="{name}"' in html, name
        assert base64.b64encode(data).decode() in embedded, name
    assert "<img" in html and 'src="odds.png"' not in html  # embedded, not linked


def test_every_csv_is_written_and_referenced(report):
    out, sections = report
    html = (out / "index.html").read_text(encoding="utf-8")
    md = (out / "report.md").read_text(encoding="utf-8")
    assert {name for s in sections for name in s.csvs} == set(CSVS)
    for name in CSVS:
        frame = pl.read_csv(out / name)
        assert frame.height > 0, name
        assert f"`{name}`" in md and f'href="{name}"' in html, name


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text.replace(",", ""))]


def test_the_summary_sentences_state_the_numbers_of_the_csvs(report):
    out, _ = report
    md = (out / "report.md").read_text(encoding="utf-8")
    summary = md.split("## In short\n", 1)[1].split("\n## ", 1)[0]
    lines = {
        ln.split(".**")[0].strip("*"): ln for ln in summary.splitlines() if ln.startswith("**")
    }
    assert len(lines) == 6, lines

    def shown(v: float) -> float:
        return round(100 * v, 1)

    m = (
        pl.read_csv(out / "marriages.csv")
        .filter((pl.col("where") == "hand") & (pl.col("suit") == "any"))
        .row(0, named=True)
    )
    nums = _numbers(lines["How often a marriage comes"])
    assert nums[:3] == [shown(m["rate"]), shown(m["ci_low"]), shown(m["ci_high"])]
    assert nums[3] == round(100 * m["exact"], 2)
    odds = (
        pl.read_csv(out / "odds.csv")
        .filter(pl.col("key") == "deal.any_reshuffle")
        .row(0, named=True)
    )
    nums = _numbers(lines["How often a deal is reshuffled"])
    assert nums[:3] == [shown(odds["estimate"]), shown(odds["ci_low"]), shown(odds["ci_high"])]
    curve = (
        pl.read_csv(out / "safebids_curve_by_marriages.csv")
        .filter(
            (pl.col("player") == "heuristic")
            & (pl.col("marriages") == "♥")
            & (pl.col("level") == 120)
        )
        .row(0, named=True)
    )
    nums = _numbers(lines["How safe 120 is with one marriage"])
    assert nums[2:5] == [shown(curve["rate"]), shown(curve["ci_low"]), shown(curve["ci_high"])]
    b = pl.read_csv(out / "games_barrel_summary.csv").row(0, named=True)
    nums = _numbers(lines["The barrel and the length of a game"])
    assert nums[:3] == [shown(b["fall_rate"]), shown(b["fall_ci_low"]), shown(b["fall_ci_high"])]
    length = pl.read_csv(out / "games_game_length.csv").row(0, named=True)
    assert nums[3] == round(length["mean"], 1)
    chi2 = pl.read_csv(out / "games_seat_chi2.csv").row(0, named=True)
    seat_line = lines["Seat advantage"]
    p = chi2["p_value"]
    assert (f"p = {p:.3f}" in seat_line) or (p < 0.001 and "p < 0.001" in seat_line)
    # the comparison asked for: how many measures differ for real, the largest change
    effects = pl.read_csv(out / "compare.csv").with_columns(
        real=(pl.col("diff_ci_low") > 0) | (pl.col("diff_ci_high") < 0)
    )
    line = lines["What the other house rules change"]
    real = effects.filter(pl.col("real"))
    if real.height:
        assert f"{real.height} of {effects.height} measures differ for real" in line
        top = (
            real.with_columns(change=(pl.col("diff") / pl.col("base").abs()).abs())
            .sort("change", descending=True)
            .row(0, named=True)
        )
        assert top["meaning"] in line
        assert f"{100 * top['diff'] / abs(top['base']):+.1f} %" in line
    else:
        assert f"none of the {effects.height} measures shows a real difference" in line
    assert "# Thousand report — " in md.splitlines()[0] and " against " in md.splitlines()[0]
    # every section the summary names opens with the same sentence
    for title, anchor in (("Marriage frequencies", "marriages"), ("Seat advantage", "seats")):
        body = md.split(f"## {title}\n", 1)[1].lstrip()
        assert body.startswith("**In short:**"), title
        assert f"(#{anchor})" in summary
    html = (out / "index.html").read_text(encoding="utf-8")
    assert '<a href="#seats">More</a>' in html


def test_events_off_under_the_rules_are_named_not_shown_as_zero(report):
    out, _ = report
    md = (out / "report.md").read_text(encoding="utf-8")
    events = md.split("### Events per game", 1)[1].split("\n### ", 1)[0]
    assert "Off under these rules: dark play, golden rounds." in events
    assert "| dark_won |" not in events and "| golden_resets |" not in events
    csv = pl.read_csv(out / "games_events_per_game.csv")  # the CSV keeps every event
    assert {"dark_won", "golden_resets"} <= set(csv["event"])


def test_top_states_rules_seed_sizes_and_strategies(report, runs):
    out, _ = report
    rules = runs["odds"].rules
    md = (out / "report.md").read_text(encoding="utf-8")
    top = md.split("## ", 1)[0]
    for text in (
        f"Rules **{rules.name}**",
        rules.rules_hash,
        f"{rules.players} players",
        f"seed {SEED}",
        f"odds: {ODDS_DEALS:,} simulated deals",
        f"hands: {HANDS:,} deals played",
        f"games: {GAMES:,} whole games",
        "strategies heuristic, heuristic, heuristic",
    ):
        assert text in top, text
    manifest = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert manifest["rules_hash"] == rules.rules_hash and manifest["seed"] == SEED
    assert manifest["sizes"] == {"odds_deals": ODDS_DEALS, "hands_deals": HANDS, "games": GAMES}


def test_every_rate_shown_has_its_interval(report):
    _, sections = report
    shown = 0
    for sec in sections:
        for block in sec.blocks:
            if not isinstance(block, Table):
                continue
            for column in block.frame.columns:
                if re.search(
                    r"\brate\b|share|estimate|per game|per 100|\bmean\b|^base|^other|^diff", column
                ):
                    assert "[95 % CI]" in column, (sec.title, block.title, column)
                if "[95 % CI]" in column:
                    values = [v for v in block.frame[column].to_list() if v != "—"]
                    assert values and all(INTERVAL.match(v) for v in values), (column, values[:3])
                    shown += 1
    assert shown >= 20


def test_hand_talon_marriages_come_from_the_odds_deals(runs):
    odds = runs["odds"]
    table = marriage_table(odds.document())
    ht = table.filter(pl.col("where") == "hand_talon")
    hits = odds.run.hits
    assert ht.filter(pl.col("suit") == "any")["hits"].item() == hits["hand_talon.any_marriage"]
    for suit in "SCDH":
        got = ht.filter(pl.col("suit") == suit)["hits"].item()
        assert got == hits[f"hand_talon.marriage.{suit}"]
    # Each suit is held with the exact probability C(22, 8) / C(24, 10) = 15/92.
    assert ht.filter(pl.col("suit") != "any")["exact"].to_list() == pytest.approx([15 / 92] * 4)
    se = (ht["exact"] * (1 - ht["exact"]) / ht["n"]).sqrt()
    assert ((ht["rate"] - ht["exact"]).abs() < 4.5 * se).all()


def _check_labelled(fig: Figure) -> None:
    """Every axis with data has an x and a y label, its own or a shared sibling's."""
    data_axes = [ax for ax in fig.axes if ax.has_data()]
    assert data_axes
    for ax in data_axes:
        xs = ax.get_shared_x_axes().get_siblings(ax)
        ys = ax.get_shared_y_axes().get_siblings(ax)
        assert any(a.get_xlabel() for a in xs), ax.get_title()
        assert any(a.get_ylabel() for a in ys) or ax.get_yticklabels()[0].get_text(), ax


def test_every_figure_has_labelled_axes(runs):
    import matplotlib.pyplot as plt

    odds = runs["odds"]
    bids = bid_tables(runs["hands"])
    games = barrel_tables(runs["games"])
    marriages = marriage_table(odds.document())
    figures = [
        plots.plot_odds(odds.table, "t"),
        plots.plot_odds_z(odds.table, "t"),
        plots.plot_marriages(marriages, "t"),
        plots.plot_make_rate(bids["by_contract"], "t", 30),
        plots.plot_safe_bids(bids["safe_bids"], "t"),
        plots.plot_game_length(games["length_histogram"], 40.0, "t"),
        plots.plot_barrel_outcomes(games["barrel_outcomes"], "t"),
        plots.plot_seat_advantage(games["seat_relative"], games["seat_absolute"], 3, "t"),
        plots.plot_compare(hand_made_compare(), "t"),
    ]
    for fig in figures:
        _check_labelled(fig)
        plt.close(fig)


def test_compare_section_renders_the_comparison_table():
    sec = compare_section(hand_made_compare())
    assert set(sec.figures) == {"compare.png"} and set(sec.csvs) == {"compare.csv"}
    assert "ukraine_online" in sec.markdown and "House-rule comparison" in sec.html
    table = next(b for b in sec.blocks if isinstance(b, Table))
    assert table.frame.height == 4
    assert table.frame["other − base [95 % CI]"][0] == "+2.0 [+1.5, +2.5]"  # deals, one decimal
    assert table.frame["base [95 % CI]"][2] == "77.0 [76.0, 78.0] %"  # a share in %
    assert len(table.frame.columns) <= 6  # fits a 1280 px page
    row = hand_made_compare().row(0, named=True)
    assert f"**{row['meaning']}**" in sec.markdown and "the interval excludes 0" in sec.markdown
    with pytest.raises(ValueError, match="diff_ci_low"):
        compare_section(hand_made_compare().drop("diff_ci_low"))


def test_the_summary_never_ranks_a_switched_counter():
    """555 resets with 555 off fall by 99.9 %: the switch itself, not the largest effect."""
    switched = (
        hand_made_compare()
        .head(1)
        .with_columns(
            pl.lit("samosvals").alias("metric"),
            pl.lit("555 resets per game").alias("meaning"),
            pl.lit(0.37).alias("base"),
            pl.lit(0.0004).alias("other"),
            pl.lit(-0.3696).alias("diff"),
            pl.lit(-0.38).alias("diff_ci_low"),
            pl.lit(-0.36).alias("diff_ci_high"),
            pl.lit(True).alias("own_switch"),
        )
    )
    answer = compare_answer(pl.concat([hand_made_compare(), switched]))
    assert "555" not in answer and "of 4 measures" in answer, answer
    sec = compare_section(pl.concat([hand_made_compare(), switched]))
    assert (
        "its change is the switch itself" in sec.markdown
        or "count different things" in sec.markdown
    )


def test_the_comparison_lists_the_options_that_differ():
    classic, app = load_rules("classic"), load_rules("app")
    sec = compare_section(hand_made_compare(), [("classic", classic), ("app", app)])
    differ = {k for k, v in classic.to_dict().items() if app.to_dict()[k] != v}
    long = sec.csvs["compare_rules.csv"]
    assert set(long["option"]) == differ and set(long["rules"]) == {"classic", "app"}
    assert f"What differs: {len(differ)} options" in sec.markdown


def test_report_without_runs_or_comparison_keeps_the_odds_sections(runs, tmp_path):
    sections = write_report_folder(tmp_path / "r", runs["odds"])
    assert [s.anchor for s in sections] == ["summary", "marriages", "run", "odds"]
    assert not (tmp_path / "r" / "compare.png").exists()


# --- command line ---------------------------------------------------------------------
def test_cli_report_writes_the_sizes_asked_for(thousand, tmp_path):
    out = tmp_path / "rep"
    r = thousand(
        "report",
        "--rules",
        "classic",
        "--out",
        str(out),
        "--deals",
        "3000",
        "--hands",
        "1500",
        "--games",
        "40",
        "--seed",
        "4",
        "--no-safe-bids",  # that section's run: the report fixture and test_docs
        "--no-guide",  # that section: test_docs's report run
        "--ladder-players",
        "heuristic,strong",
        "--ladder-deals",
        "40",
        "--atlas-games",
        "20",
        "--quiet",
    )
    assert r.returncode == 0, r.stderr
    manifest = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert manifest["sizes"] == {"odds_deals": 3000, "hands_deals": 1500, "games": 40}
    ratings = pl.read_csv(out / "ladder_ratings.csv")  # the ladder, in the appendix
    assert sorted(ratings["player"]) == ["heuristic", "strong"]
    assert pl.read_csv(out / "ladder_pairs.csv")["deals"].to_list() == [40]
    assert manifest["strategies"] == ["strong"] * 3  # the default: the fitted player
    # which house rules matter: every switch of classic, 20 games each
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "## Which house rules matter" in md and (out / "atlas.png").is_file()
    atlas = pl.read_csv(out / "atlas.csv")
    assert set(atlas["measure"]) == {"length", "fairness"}  # skill: from 100 games a seat
    assert atlas["games"].unique().to_list() == [20] and atlas["switch"].n_unique() > 70
    page = (out / "report.md").read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]  # the work folder is gone
    for left_out in ("House-rule comparison", "Safe bids from the hand", "Strategy guide"):
        assert left_out not in page


def test_the_par_table_and_a_lone_games_mean_read_as_the_par_report_says():
    """make test's part of the report played by pimc with the par (the whole: below)."""
    from analysis.bids import _par_table
    from views.sections.summary import _mean_ci

    # rounded declarer totals: 95 makes 100 and 115 makes 120 (least_total_making)
    rules = load_rules("classic").replace(score__round_to=10, score__round_declarer=True)
    hands = pl.LazyFrame(
        {
            "reshuffled": [False, False, False, False, False, False, True],
            "contract": [100, 100, 100, 120, 120, 120, 0],
            "made": [True, False, True, None, True, False, None],
            "conceded": [False, False, True, False, False, True, False],
            "par_total": [95, 94, 130, 115, 114, 200, 0],
            "par_best": [95, 110, 130, 125, 114, 200, 0],
        }
    )
    par = _par_table(hands, rules.to_dict())
    rows = par.select("contract", "contracts", "made", "par_made", "par_best_made").rows()
    # a conceded contract fails as played, and counts at par as any other
    assert rows == [(100, 3, 1, 2, 3), (120, 3, 1, 2, 2)]
    assert par["par_best_rate"].to_list() == [1.0, pytest.approx(2 / 3)]
    # a mean over one game has no interval, and says so
    assert _mean_ci({"mean": 12.34, "se": None}) == "12.3 (one game: no interval)"
    assert _mean_ci({"mean": 12.34, "se": float("nan")}) == "12.3 (one game: no interval)"
    assert _mean_ci({"mean": 12.34, "se": 1.0}) == "12.3 [10.4, 14.3]"


@pytest.mark.slow
def test_cli_report_played_by_pimc_with_the_par(thousand, tmp_path):
    """On one worker with one game: the sentences without an interval still read."""
    out = tmp_path / "rep"
    r = thousand(
        "report", "--out", str(out), "--deals", "2000", "--hands", "16", "--games", "1",
        "--strategies", "pimc", "--param", "pimc.worlds=2", "--par", "--seed", "3", "--quiet",
        "--safe-players", "pimc", "--safe-sample", "2", "--workers", "1", "--no-guide",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    page = (out / "report.md").read_text(encoding="utf-8")
    assert "(one game: no interval)" in page and "runs of 1 game," in page
    manifest = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert manifest["strategies"] == ["pimc"] * 3
    assert manifest["params"] == ["pimc.worlds=2"]
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "pimc, pimc, pimc" in md
    assert "Made against the open-card par" in md
    assert "| pimc | 2 | 6 |" in md  # the safe-bid section's player: 2 deals, 6 hands
    par = pl.read_csv(out / "bids_par.csv")
    assert par["contracts"].sum() > 0
    # the par after the best discard is at least the par after the declarer's own
    assert (par["par_best_made"] >= par["par_made"]).all()


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["--rules", "no_such_rules"], "no_such_rules"),
        (["--hands", "0"], "--hands"),
        (["--games", "-5"], "--games"),
        (["--deals", "many"], "--deals"),
        (["--seed", "-1"], "--seed"),
        (["--resume"], "--resume"),  # no interrupted report to finish
        (["--scheduler", "nowhere"], "--scheduler"),
        (["--strategies", "nobody"], "nobody"),
        (["--param", "pimc.worlds=0"], "worlds"),
        (["--strategies", "pimc,heuristic"], "--strategies"),
        (["--safe-players", "heuristic,nobody"], "nobody"),
        (["--safe-sample", "0"], "--safe-sample"),
        (["--ladder-players", "heuristic,nobody"], "nobody"),
        (["--ladder-deals", "0"], "--ladder-deals"),
    ],
)
def test_cli_report_bad_input_is_one_line_and_exit_2(main_io, tmp_path, args, culprit):
    """In this process (a subprocess case below)."""
    out = tmp_path / "rep"
    code, _, err = main_io("report", "--out", str(out), *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and culprit in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_cli_report_bad_input_as_a_subprocess(cli, tmp_path):
    out = tmp_path / "rep"
    r = cli("report", "--out", str(out), "--hands", "0")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "--hands" in r.stderr
    assert "Traceback" not in r.stderr and not out.exists()


def test_cli_report_refuses_a_non_empty_out_without_force(thousand, tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    r = thousand("report", "--out", str(out), "--deals", "1000")
    assert r.returncode == 2 and "--force" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]


def test_the_page_checker_finds_broken_links_and_images(report, tmp_path):
    from report_check import static_problems

    out, _ = report
    text = (out / "index.html").read_text(encoding="utf-8")
    assert static_problems(out, text) == []  # the report itself: every link and image
    bad = text.replace('href="#seats"', 'href="#nowhere"', 1).replace(
        'href="odds.csv"', 'href="missing.csv"', 1
    )
    problems = static_problems(out, bad + '<img src="gone.png">')
    assert any("#nowhere" in p for p in problems)
    assert any("missing.csv" in p for p in problems)
    assert any("gone.png" in p for p in problems)
    # a figure saved with its title cut off (past the canvas) is found in the page too
    import io

    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([1, 2], [1, 2])
    ax.set_title("a very long title that reaches well past both edges of this small canvas")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    cut = base64.b64encode(buf.getvalue()).decode()
    problems = static_problems(out, text + f'<img src="data:image/png;base64,{cut}">')
    assert problems == ["an embedded figure is drawn up to its edge (cut off?)"]


def test_a_figure_whose_title_or_legend_is_cut_off_is_refused():
    import matplotlib.pyplot as plt

    from views.pages import clipped, figure_png

    fig, ax = plt.subplots(figsize=(4.4, 3.8), layout="constrained")
    ax.plot([0, 1], [0, 1], label="a line")
    assert not clipped(fig)
    fig.suptitle("Make rate by bid level, hands with one marriage or none (classic)", fontsize=10)
    assert clipped(fig)  # the guide's bid curves as they were: the title cut at both ends
    with pytest.raises(ValueError, match="cut off"):
        figure_png(fig)
    fig, ax = plt.subplots(figsize=(3, 2), layout="constrained")
    ax.plot([0, 1], [0, 1], label="one")
    fig.legend(
        ["a label far too long for a figure this narrow to hold"], loc="outside lower center"
    )
    assert clipped(fig)
    plt.close("all")


def test_a_seat_difference_says_how_large_it_is():
    from views.sections.summary import p_value_words

    assert "no seat advantage is shown" in p_value_words(0.4, 300, 0.05, 1 / 3)
    words = p_value_words(0.033, 300, 0.057, 1 / 3)
    assert "very likely differ by at most 5.7 points of a fair 33.3 % (large)" in words
    assert "(negligible)" in p_value_words(0.0001, 10**6, 0.003, 1 / 3)
    assert "(small)" in p_value_words(0.01, 10**5, -0.02, 1 / 3)
    assert p_value_words(0.01, 300).endswith("very likely differ, if only a little")


def test_the_same_sources_and_seed_give_the_same_report_bytes(thousand, tmp_path, monkeypatch):
    # with SOURCE_DATE_EPOCH (make report sets it to the sources' last change) the
    # report's time stamps are that instant and no duration is written: a second run
    # leaves a tracked report unchanged
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764806400")  # 2025-12-04T00:00:00Z
    pages = []
    for name in ("a", "b"):
        out = tmp_path / name
        r = thousand("report", "--out", str(out), "--deals", "2000", "--hands", "300",
                     "--games", "8", "--seed", "5", "--no-safe-bids", "--no-guide",
                     "--no-ladder", "--atlas-games", "0", "--quiet")  # fmt: skip
        assert r.returncode == 0, r.stderr
        pages.append({f: (out / f).read_bytes() for f in ("run.json", "report.md", "index.html")})
    assert pages[0] == pages[1]
    manifest = json.loads(pages[0]["run.json"])
    assert manifest["started"] == manifest["ended"] == "2025-12-04T00:00:00+00:00"
    assert "seconds" not in manifest["parts"]["hands"]
    assert b"Built 2025-12-04T00:00:00+00:00" in pages[0]["index.html"]
