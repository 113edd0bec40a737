"""The command line as a user runs it: exit codes, output, files (in this process; as a
subprocess where the process itself is what is checked)."""

import json
import math
from pathlib import Path

import pytest

from sim.odds_keys import ODDS_KEYS
from sim.output import StagedDir

# The odds keys docs/cli.md promises (at least these).
DOCUMENTED_ODDS_KEYS = """hand.any_marriage  hand.marriages_ge_2  hand.marriage.S  hand.marriage.C
hand.marriage.D  hand.marriage.H hand_talon.any_marriage  hand.points_below_13
hand.points_below_14  hand.points_below_15 hand.nines_ge_3  hand.nines_eq_4  hand.jacks_eq_4
hand.aces_eq_4 talon.points_below_5  talon.nines_ge_2  talon.jacks_eq_3
deal.some_player_has_marriage  deal.any_hand_reshuffle  deal.talon_reshuffle
deal.any_reshuffle""".split()


def test_odds_json_is_the_documented_document(thousand):
    r = thousand("odds", "--rules", "classic", "--deals", "200000", "--seed", "11", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)  # stdout holds exactly one JSON document
    assert doc["rules"] == "classic" and doc["deals"] == 200000 and doc["seed"] == 11
    assert len(doc["rules_hash"]) == 16
    assert set(DOCUMENTED_ODDS_KEYS) <= set(doc["odds"]) and list(doc["odds"]) == list(ODDS_KEYS)
    from analysis.exact import exact_odds
    from sim.rules import load_rules

    exact = exact_odds(load_rules("classic"))
    for key, v in doc["odds"].items():
        assert v["ci_low"] <= v["estimate"] <= v["ci_high"], key
        assert v["estimate"] == v["hits"] / 200000, key
        # the exact value by combinatorics, and the estimate within 6 standard errors of it
        assert v["exact"] == float(exact[key]), key
        se = math.sqrt(v["exact"] * (1 - v["exact"]) / 200000)
        assert v["z"] == pytest.approx((v["estimate"] - v["exact"]) / se), key
        assert abs(v["z"]) <= 6, key
    m = doc["odds"]["hand.any_marriage"]
    assert abs(m["exact"] - 0.284793) < 1e-6
    # no progress bar when stderr is not a terminal: one line as the phase starts and ends
    lines = [ln for ln in r.stderr.splitlines() if not ln.startswith("compiling the engine")]
    assert len(lines) == 2 and all(ln.startswith("counting deals: ") for ln in lines), r.stderr
    assert "done in" in lines[1]


def test_odds_same_seed_same_document(thousand):
    a = thousand("odds", "--deals", "50000", "--seed", "4", "--json", "--workers", "1")
    b = thousand("odds", "--deals", "50000", "--seed", "4", "--json")
    assert json.loads(a.stdout)["odds"] == json.loads(b.stdout)["odds"]


def test_odds_out_writes_csv_and_markdown(thousand, tmp_path):
    out = tmp_path / "o"
    r = thousand(
        "odds",
        "--rules",
        "two_players",
        "--deals",
        "20000",
        "--seed",
        "1",
        "--out",
        str(out),
        "--quiet",
    )
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["odds.csv", "odds.json", "odds.md", "run.json"]
    csv = (out / "odds.csv").read_text().splitlines()
    assert csv[0].startswith("key,meaning,hits,deals,estimate,ci_low,ci_high,exact,z")
    assert len(csv) == 1 + len(ODDS_KEYS)
    md = (out / "odds.md").read_text()
    assert "| hand.any_marriage |" in md and "two_players" in md
    run = json.loads((out / "run.json").read_text())
    assert run["seed"] == 1 and run["rules"]["players"] == 2 and run["sizes"]["deals"] == 20000


@pytest.mark.parametrize(
    "args, culprit",
    [
        (["odds", "--deals", "0"], "--deals"),
        (["odds", "--deals", "-3"], "--deals"),
        (["odds", "--deals", "many"], "--deals"),
        (["odds", "--seed", "-1"], "--seed"),
        (["odds", "--rules", "clasic"], "clasic"),
        (["odds", "--rules", "missing.toml"], "missing.toml"),
        (["rules", "show", "nosuch"], "nosuch"),
        (["odds", "--workers", "0"], "--workers"),
        (["odds", "--bogus"], "--bogus"),
    ],
)
def test_bad_input_exits_2_with_one_line(main_io, args, culprit):
    """In this process (a subprocess case: test_bad_input_as_a_subprocess)."""
    code, out, err = main_io(*args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0], err
    assert "Traceback" not in err and out == ""


def test_bad_input_as_a_subprocess(cli):
    r = cli("odds", "--rules", "clasic")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "clasic" in lines[0], r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_bad_rules_file_exits_2_naming_key_and_file(thousand, tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('base = "classic"\n[barrel]\nsimultaneous = "everyone"\n')
    r = thousand("odds", "--rules", str(f), "--deals", "10")
    assert r.returncode == 2
    assert "barrel.simultaneous" in r.stderr and "house.toml" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_existing_nonempty_out_needs_force(thousand, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    r = thousand("odds", "--deals", "100", "--out", str(out))
    assert r.returncode == 2 and "--out" in r.stderr and "--force" in r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    r = thousand("odds", "--deals", "100", "--out", str(out), "--force")
    assert r.returncode == 0 and (out / "odds.csv").exists() and (out / "keep.txt").exists()


def test_bad_rules_leave_no_output(thousand, tmp_path):
    out = tmp_path / "never"
    r = thousand("odds", "--rules", "nosuch", "--out", str(out))
    assert r.returncode == 2 and not out.exists()


def test_staged_dir_writes_nothing_on_failure(tmp_path):
    target = tmp_path / "t"
    with pytest.raises(RuntimeError), StagedDir(target) as staged:
        (staged.path / "half.csv").write_text("a,b\n")
        raise RuntimeError("boom")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_rules_list_and_show(thousand):
    r = thousand("rules", "list")
    assert r.returncode == 0
    names = [line.split()[0] for line in r.stdout.splitlines()]
    assert names == sorted(
        [
            "classic",
            "app",
            "ukraine_online",
            "thousand_one",
            "five_hundred_one",
            "two_players",
            "four_players",
            "polish",
            "polish_two",
            "polish_four",
        ]
    )
    r = thousand("rules", "show", "ukraine_online")
    assert r.returncode == 0 and "[golden]" in r.stdout and "bid_from = 120" in r.stdout
    r = thousand("rules", "show", "polish_two")
    assert r.returncode == 0 and 'two_players = "discard"' in r.stdout
    assert "lock_at = 800" in r.stdout and 'when = "talon"' in r.stdout


@pytest.mark.slow
def test_report_has_the_odds_section(thousand, tmp_path):
    out = tmp_path / "rep"
    r = thousand("report", "--rules", "classic", "--out", str(out), "--deals", "50000",
                 "--seed", "2", "--hands", "5000", "--games", "200", "--no-safe-bids",
                 "--no-guide")  # fmt: skip
    assert r.returncode == 0, r.stderr
    for name in ("index.html", "report.md", "odds.csv", "odds.png", "odds_z.png", "run.json"):
        assert (out / name).stat().st_size > 0, name
    html = (out / "index.html").read_text()
    assert "Deal odds" in html and "data:image/png;base64," in html and "seed 2" in html
    md = (out / "report.md").read_text()
    assert "50,000 simulated deals" in md
    assert "| some hand or the talon meets a reshuffle condition |" in md  # deal.any_reshuffle
    assert "Safe bids from the hand" not in md  # --no-safe-bids
    assert "Strategy guide" not in md  # --no-guide


def test_python_dash_m_sim_is_the_same_command(cli):
    r = cli("--version")
    assert r.returncode == 0 and r.stdout.startswith("thousand ")


def test_hands_then_bids_end_to_end(thousand, tmp_path):
    out = tmp_path / "h"
    trace = tmp_path / "t.jsonl"
    r = thousand(
        "hands",
        "--rules",
        "classic",
        "--deals",
        "3000",
        "--seed",
        "5",
        "--out",
        str(out),
        "--strategies",
        "heuristic,random,heuristic",
        "--param",
        "heuristic.aggression=0.2",
        "--trace",
        str(trace),
    )
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["hands.parquet", "run.json"]
    import polars as pl

    frame = pl.read_parquet(out / "hands.parquet")
    assert frame.filter(~pl.col("reshuffled")).height == 3000
    run = json.loads((out / "run.json").read_text())
    assert run["strategies"] == ["heuristic", "random", "heuristic"]
    assert run["params"] == ["heuristic.aggression=0.2"] and run["seed"] == 5
    lines = trace.read_text().splitlines()
    assert len(lines) == frame.height
    first = json.loads(lines[0])
    assert first["deal_id"] == 0 and len(first["hands"]) == 3 and len(first["talon"]) == 3
    # the same command gives the same table
    again = tmp_path / "h2"
    r = thousand(
        "hands",
        "--rules",
        "classic",
        "--deals",
        "3000",
        "--seed",
        "5",
        "--out",
        str(again),
        "--strategies",
        "heuristic,random,heuristic",
        "--param",
        "heuristic.aggression=0.2",
    )
    assert r.returncode == 0
    assert pl.read_parquet(again / "hands.parquet").equals(frame)
    b = thousand("bids", str(out), "--json")
    assert b.returncode == 0, b.stderr
    doc = json.loads(b.stdout)
    assert doc["summary"][0]["contracts"] == 3000
    assert {"by_contract", "by_marriage_count", "safe_bids"} <= set(doc)
    md = thousand("bids", str(out))
    assert md.returncode == 0 and "| contract |" in md.stdout


@pytest.mark.parametrize(
    "args, culprit",
    [
        (["hands", "--deals", "10", "--strategies", "smart"], "smart"),
        (["hands", "--deals", "10", "--strategies", "random,random"], "--strategies"),
        (["hands", "--deals", "10", "--param", "heuristic.courage=1"], "courage"),
        (["hands", "--deals", "10", "--param", "heuristic.aggression=x"], "aggression"),
        (
            [
                "hands",
                "--deals",
                "10",
                "--rules",
                "two_players",
                "--strategies",
                "random,first,random",
            ],
            "--strategies",
        ),
        (["hands", "--deals", "0"], "--deals"),
        (["bids", "no/such/run"], "no/such/run"),
    ],
)
def test_hands_and_bids_bad_input(thousand, tmp_path, args, culprit):
    if args[0] == "hands":
        args = [*args, "--out", str(tmp_path / "o")]
    r = thousand(*args)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0], r.stderr
    assert not (tmp_path / "o").exists()


def test_games_then_barrel_end_to_end(thousand, tmp_path):
    out = tmp_path / "g"
    trace = tmp_path / "g.jsonl"
    r = thousand(
        "games",
        "--rules",
        "classic",
        "--games",
        "400",
        "--seed",
        "3",
        "--out",
        str(out),
        "--trace",
        str(trace),
    )
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["barrel.parquet", "games.parquet", "run.json"]
    import polars as pl

    games = pl.read_parquet(out / "games.parquet")
    assert games.height == 400 and games["winner"].null_count() == 0
    stints = pl.read_parquet(out / "barrel.parquet")
    assert {"game_id", "seat", "entered_deal", "deals_on_barrel", "outcome"} <= set(stints.columns)
    docs = [json.loads(line) for line in trace.read_text().splitlines()]
    assert [d["game_id"] for d in docs] == list(range(400))
    assert all(d["winner"] == w for d, w in zip(docs, games["winner"].to_list(), strict=True))
    b = thousand("barrel", str(out), "--json")
    assert b.returncode == 0, b.stderr
    assert json.loads(b.stdout)
    md = thousand("barrel", str(out))
    assert md.returncode == 0 and "|" in md.stdout


@pytest.mark.parametrize(
    "args, culprit",
    [
        (
            ["games", "--games", "5", "--rules", "two_players", "--first-dealer", "2"],
            "--first-dealer",
        ),
        (
            ["games", "--games", "5", "--rules", "four_players", "--strategies", "random,first"],
            "--strategies",
        ),
        (["games", "--games", "0"], "--games"),
        (["games", "--games", "5", "--first-dealer", "7"], "--first-dealer"),
        (["barrel", "no/such/run"], "no/such/run"),
    ],
)
def test_games_and_barrel_bad_input(thousand, tmp_path, args, culprit):
    if args[0] == "games":
        args = [*args, "--out", str(tmp_path / "o")]
    r = thousand(*args)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0], r.stderr
    assert not (tmp_path / "o").exists()


# Commands that write files, each with the smallest arguments that would do real work.
_WRITERS = {
    "odds": ["odds", "--deals", "100"],
    "hands": ["hands", "--deals", "10"],
    "games": ["games", "--games", "2"],
    "safebids": ["safebids", "--deals", "10", "--players", "heuristic", "--no-holdout"],
    "guide": ["guide", "--deals", "10", "--hands", "10", "--games", "2", "--no-duel"],
    "compare": ["compare", "--vs", "app", "--games", "2"],
    "duel": ["duel", "--a", "random", "--deals", "5"],
    "report": ["report", "--deals", "100", "--hands", "10", "--games", "2", "--no-safe-bids",
               "--no-guide"],
}  # fmt: skip


@pytest.fixture(scope="module")
def a_file(tmp_path_factory):
    f = tmp_path_factory.mktemp("plain") / "a_file.txt"
    f.write_text("not a folder\n")
    return f


@pytest.mark.parametrize("command", sorted(_WRITERS))
@pytest.mark.parametrize("where", ["under_a_file", "under_proc"])
def test_an_unwritable_out_is_refused_before_any_work(run_main, a_file, command, where):
    out = a_file / "sub" / "out" if where == "under_a_file" else Path("/proc/thousand/out")
    code, err = run_main(*_WRITERS[command], "--out", str(out), "--quiet")
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "--out" in lines[0] and str(out) in lines[0], err
    assert ("is a file" in lines[0]) if where == "under_a_file" else ("cannot write" in lines[0])
    assert sorted(p.name for p in a_file.parent.iterdir()) == ["a_file.txt"]  # nothing left


@pytest.mark.parametrize("where", ["under_a_file", "under_proc"])
def test_unwritable_out_and_trace_are_refused(thousand, a_file, tmp_path, where):
    bad = a_file / "x" if where == "under_a_file" else Path("/proc/thousand/x")
    trace = str(bad / "t.jsonl")
    r = thousand("hands", "--deals", "10", "--out", str(tmp_path / "h"), "--trace", trace)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--trace" in r.stderr, r.stderr
    assert not (tmp_path / "h").exists() and not any(tmp_path.glob(".*"))
    r = thousand("odds", "--deals", "100", "--out", str(bad))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and str(bad) in r.stderr, r.stderr
    r = thousand("bids", str(tmp_path), "--out", str(bad))  # refused before reading the run
    assert r.returncode == 2 and "--out" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_every_option_has_help_in_plain_words():
    import argparse

    from sim.cli import build_parser

    bad = []

    def walk(parser, prefix):
        if "``" in (parser.description or ""):
            bad.append(f"{prefix}: description")
        for a in parser._actions:
            if isinstance(a, argparse._SubParsersAction):
                for name, sub in a.choices.items():
                    walk(sub, f"{prefix} {name}")
            elif a.dest != "help" and (not a.help or "``" in a.help):
                bad.append(f"{prefix} {a.option_strings or a.dest}")

    walk(build_parser(), "thousand")
    assert not bad, bad


def test_thousand_alone_and_rules_alone_print_help(cli):
    r = cli()
    assert r.returncode == 0 and "usage: thousand" in r.stdout and "guide" in r.stdout
    r = cli("rules")
    assert r.returncode == 0 and "usage: thousand rules" in r.stdout and "show" in r.stdout


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["odds", "--rules", "clasic", "--deals", "10"], "did you mean 'classic'?"),
        (["hands", "--strategies", "heuristc", "--deals", "5", "--out", "x"], "'heuristic'?"),
        (["hands", "--param", "heuristic.agression=1", "--deals", "5", "--out", "x"],
         "did you mean 'aggression'?"),
        (["safebids", "--players", "heuristc,par"], "did you mean 'heuristic'?"),
    ],
)  # fmt: skip
def test_a_near_miss_name_gets_a_suggestion(run_main, tmp_path, args, hint):
    args = [str(tmp_path / "x") if a == "x" else a for a in args]
    code, err = run_main(*args)
    assert code == 2 and hint in err and len(err.strip().splitlines()) == 1, err


def test_a_misspelt_rule_key_gets_a_suggestion(run_main, tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('base = "classic"\n[bid]\nstpe = 5\n')
    code, err = run_main("odds", "--rules", str(f), "--deals", "10")
    assert code == 2 and "unknown key 'bid.stpe' (did you mean 'bid.step'?)" in err


def test_bids_and_barrel_print_a_short_summary_unless_full(main_io, tmp_path, monkeypatch):
    """In this process, as a terminal without COLUMNS prints them."""
    monkeypatch.delenv("COLUMNS", raising=False)
    hands, games = tmp_path / "h", tmp_path / "g"
    assert main_io("hands", "--deals", "2000", "--out", str(hands), "--quiet")[0] == 0
    assert main_io("games", "--games", "40", "--out", str(games), "--quiet")[0] == 0
    for command, folder, first in (("bids", hands, "# Bid success"), ("barrel", games, "# Barrel")):
        code, short, err = main_io(command, str(folder))
        assert code == 0, err
        assert short.startswith(first) and "--full" in short
        assert max(len(line) for line in short.splitlines()) <= 100, command
        full = main_io(command, str(folder), "--full")[1]
        assert len(full) > 3 * len(short)
        out = tmp_path / f"{command}_out"
        written = main_io(command, str(folder), "--out", str(out))[1]
        assert written == short  # --out does not also print every table
        assert (out / f"{command}.md").read_text(encoding="utf-8").count("\n## ") >= 5


def test_bench_quick_runs_every_benchmark_and_prints_its_document(main_io):
    """``thousand bench --quick``: every part of the benchmark on tiny workloads."""
    from sim.runs.bench import bench_players

    code, out, err = main_io("bench", "--quick", "--json")
    assert code == 0, err
    doc = json.loads(out)
    players = bench_players()
    assert {"deals", "deals_two_players", "hands_writer"} <= set(doc) and doc["cores"] >= 1
    for name in players:
        assert doc[f"hands_{name}"]["hands_per_s_1_threads"] > 0
        assert doc[f"games_{name}"]["deals_per_game"] >= 1
    assert doc["hands_writer"]["frame_deals_per_s"] > 0
    assert doc["hands_writer"]["parquet_deals_per_s"] > 0
    assert doc["hands_writer"]["part_deals_per_s"] > 0
    code, out, _ = main_io("bench", "--quick")
    lines = out.splitlines()
    assert code == 0 and lines[0] == f"cores: {doc['cores']}"
    assert any(line.startswith("hands_writer") and "parquet_deals_per_s" in line for line in lines)
    # every figure once in the lines: 1 + the keys of every section
    assert len(lines) == 1 + sum(len(v) for v in doc.values() if isinstance(v, dict))
