"""The jobs (sim/jobs/): a spec in, the command's result out, no command line needed.

Each job called as a notebook calls it gives what its command prints (the command
builds the same spec and calls the same job); bad specs are refused with the
command's one-line errors; a job's feedback reaches the caller's own object.
"""

from __future__ import annotations

import json

import pytest

from sim.output import UsageError, json_safe
from sim.rules import load_rules
from sim.runs.folder import Feedback

CLASSIC = load_rules("classic")


def as_printed(doc: dict) -> dict:
    """A job's JSON document as the command prints it (and reads back)."""
    return json.loads(json.dumps(json_safe(doc)))


class Recorder(Feedback):
    """A caller's feedback: remembers every bar and notice."""

    def __init__(self) -> None:
        self.bars: list[tuple[int, str, str]] = []
        self.done: dict[str, int] = {}
        self.said: list[str] = []

    def bar(self, total, unit, label):
        self.bars.append((total, unit, label))
        self.done[label] = 0
        recorder = self

        class Bar:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def update(self, n=1):
                recorder.done[label] += n

        return Bar()

    def say(self, text):
        self.said.append(text)


def test_the_compare_job_is_the_command(main_io, tmp_path):
    from sim.jobs.compare import CompareSpec, compare, rule_sets

    sets = rule_sets("classic", "ukraine_online")
    feedback = Recorder()
    result = compare(
        CompareSpec(sets=sets, games=120, seed=2, strategies="heuristic", workers=1),
        feedback=feedback,
    )
    code, out, _ = main_io(
        "compare", "--vs", "ukraine_online", "--games", "120", "--seed", "2",
        "--strategies", "heuristic", "--workers", "1", "--json", "--quiet",
    )  # fmt: skip
    assert code == 0 and json.loads(out) == as_printed(result.json())
    # 120 games under each rule set, and the skill index's 120 for each of 3 seats
    assert feedback.bars == [(240 + 2 * 3 * 120, "game", "playing the rule sets")]
    assert feedback.done["playing the rule sets"] == 960
    assert "classic vs ukraine_online" in result.markdown() and result.short()
    with pytest.raises(UsageError, match="one strategy for every seat"):
        compare(CompareSpec(sets=sets, games=10, strategies="strong,strong,strong"))
    with pytest.raises(UsageError, match="--resume: give the --out"):
        compare(CompareSpec(sets=sets, games=10), resume=True)


def test_the_duel_job_is_the_command(main_io, tmp_path):
    from sim.jobs.duel import DuelSpec, contestant, duel

    spec = DuelSpec(rules=CLASSIC, a=contestant("a", "strong"), b=contestant("b", "heuristic"),
                    deals=150, seed=3, workers=1)  # fmt: skip
    result = duel(spec, tmp_path / "d")
    code, out, _ = main_io("duel", "--a", "strong", "--deals", "150", "--seed", "3",
                           "--workers", "1", "--json", "--quiet")  # fmt: skip
    assert code == 0 and json.loads(out) == as_printed(result.json())
    run = json.loads((tmp_path / "d/run.json").read_text())
    assert run["command"] == "duel" and run["sizes"]["deals"] == 150
    with pytest.raises(UsageError, match="either --deals or --games"):
        duel(DuelSpec(rules=CLASSIC, a=spec.a, b=spec.b))
    with pytest.raises(UsageError, match="--first-dealer: only with --games"):
        duel(DuelSpec(rules=CLASSIC, a=spec.a, b=spec.b, deals=5, first_dealer=1))


def test_the_odds_advise_and_solve_jobs_are_the_commands(main_io):
    from sim.jobs.advise import AdviseSpec, advise
    from sim.jobs.odds import OddsSpec, odds
    from sim.jobs.solve import SolveSpec, solve

    doc = odds(OddsSpec(rules=CLASSIC, deals=20_000, seed=4, workers=1)).json()
    code, out, _ = main_io("odds", "--deals", "20000", "--seed", "4", "--workers", "1", "--json",
                           "--quiet")  # fmt: skip
    assert code == 0 and json.loads(out) == as_printed(doc)

    hand = "AH TH KH QH AS 9C JD"
    answer = advise(AdviseSpec(rules=CLASSIC, hand=hand, samples=300, seed=2, workers=1))
    code, out, _ = main_io("advise", hand, "--samples", "300", "--seed", "2", "--workers", "1",
                           "--json")  # fmt: skip
    assert code == 0 and json.loads(out) == as_printed(answer.json())
    assert answer.markdown().startswith("#") or "bid" in answer.markdown()
    # the job names its spec's fields (the command line names them as its flags)
    with pytest.raises(UsageError, match=r"^seat middle: one of forehand, dealer"):
        advise(AdviseSpec(rules=load_rules("two_players"), hand=hand + " 9H TS JS", seat="middle"))

    hands = ("AH TH KH", "KS QS JS", "AD KD QD")
    position = solve(SolveSpec(rules=CLASSIC, hands=hands, trump="H"))
    code, out, _ = main_io("solve", "--hands", *hands, "--trump", "H", "--json")
    assert code == 0 and json.loads(out) == position.json()
    code, out, _ = main_io("solve", "--hands", *hands, "--trump", "H")
    assert out == position.text() + "\n"
    assert position.json()["value"] == 52  # the declarer takes every trick: all 52 points
    with pytest.raises(UsageError, match="--trump must be a suit"):
        solve(SolveSpec(rules=CLASSIC, hands=hands, trump="X"))


def test_the_table_jobs_read_a_run_the_run_job_wrote(main_io, tmp_path):
    from sim.jobs.runs import RunSpec, play_into
    from sim.jobs.tables import barrel, bids

    feedback = Recorder()
    hands = play_into(RunSpec(kind="hands", rules=CLASSIC, total=2_000, seed=6, workers=1),
                      tmp_path / "h", feedback=feedback).folder  # fmt: skip
    games = play_into(
        RunSpec(kind="games", rules=CLASSIC, total=60, seed=6, workers=1), tmp_path / "g"
    ).folder
    assert feedback.bars == [(2_000, "deal", "playing deals")]
    assert feedback.done["playing deals"] == 2_000
    for command, result in (("bids", bids(hands, 20)), ("barrel", barrel(games))):
        folder = hands if command == "bids" else games
        extra = ("--min-n", "20") if command == "bids" else ()
        code, out, _ = main_io(command, str(folder), *extra, "--json")
        assert code == 0 and json.loads(out) == as_printed(result.json())
        code, out, _ = main_io(command, str(folder), *extra)
        assert out == result.short() + "\n"
    bids(hands, out=tmp_path / "bids")
    assert (tmp_path / "bids/bids.md").exists()


def test_the_guide_job_runs_in_two_named_stages(tmp_path):
    from sim.jobs.guide import GuideSpec, build_guide, check_guide, collect_runs

    spec = GuideSpec(rules=CLASSIC, seed=7, deals=400, hands=800, games=20, odds_deals=4000,
                     duel_deals=None, workers=1)  # fmt: skip
    feedback = Recorder()
    runs = collect_runs(spec, feedback)
    # every notice is the guide's: its four runs, and the class tables when first built
    said = [s.split(":")[0] for s in feedback.said]
    assert said == ["guide"] * len(said) and len(said) in (4, 5)
    assert len(runs.games) == 20 and "game_id" in runs.games.columns  # games.parquet's shape
    guide, duel = check_guide(spec, runs)
    assert duel is None and guide.params()
    book = build_guide(spec, tmp_path / "g")
    assert book.sentence() == "" and book.json()["tables"]["bid_chart"]
    run = json.loads((tmp_path / "g/run.json").read_text())
    assert run["command"] == "guide" and run["sizes"]["duel_deals"] == 0
