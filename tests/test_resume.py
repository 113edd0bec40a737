"""Resuming a killed run: a real ``thousand`` process killed part-way, then resumed.

Its files are byte for byte those of a run that was never interrupted, and nothing
half-written is left behind (hands with a trace, compare, report).
"""

import json
from pathlib import Path

import pytest
from runner_helpers import killed_after, thousand_process
from support import sizes


@sizes((3000, 500), (32000, 2000))
def test_a_killed_cli_run_resumes_with_the_same_results(thousand, tmp_path, size):
    deals, chunk = size  # 6 chunks, 16 chunks
    args = ["hands", "--deals", str(deals), "--seed", "3", "--chunk", str(chunk)]
    args += ["--workers", "1"]
    args += ["--quiet", "--trace"]
    out = tmp_path / "run"
    manifest = tmp_path / ".run.partial" / "manifest.jsonl"
    # killed right after its third chunk is stored, however quick the machine
    killed_after(".run.partial", 3, *args, str(tmp_path / "t.jsonl"), "--out", str(out))
    assert not out.exists() and not (tmp_path / "t.jsonl").exists()  # nothing half-written
    done = len(manifest.read_text().splitlines())
    assert done == 3
    # the resumed and the whole run in this process (the killed one had to be another)
    loud = [a for a in args if a != "--quiet"]  # its last line: what was resumed
    resumed = thousand(*loud, str(tmp_path / "t.jsonl"), "--out", str(out), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    kept = done * chunk  # the deals of the finished chunks, not played again
    last = resumed.stderr.strip().splitlines()[-1]
    assert f"redealt, {kept:,} resumed) in" in last, last
    again = thousand(*args, str(tmp_path / "t2.jsonl"), "--out", str(tmp_path / "whole"))
    assert again.returncode == 0, again.stderr
    assert (out / "hands.parquet").read_bytes() == (tmp_path / "whole/hands.parquet").read_bytes()
    assert (tmp_path / "t.jsonl").read_bytes() == (tmp_path / "t2.jsonl").read_bytes()
    assert json.loads((out / "run.json").read_text())["chunks"] == deals // chunk
    assert not manifest.parent.exists()  # the partial folder is gone once finished
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".run")] == []


def test_resume_refuses_a_different_or_missing_run(thousand, tmp_path):
    base = ["hands", "--deals", "5000", "--chunk", "1000", "--quiet", "--workers", "1"]
    missing = thousand(*base, "--out", str(tmp_path / "a"), "--resume")
    assert missing.returncode == 2 and "--resume" in missing.stderr
    partial = tmp_path / ".b.partial"
    partial.mkdir()
    (partial / "plan.json").write_text(json.dumps({"command": "hands", "seed": 99}))
    other = thousand(*base, "--out", str(tmp_path / "b"), "--resume")
    assert other.returncode == 2
    err = other.stderr.strip().splitlines()
    assert len(err) == 1 and "seed" in err[0]


def test_saved_chunks_are_never_thrown_away_silently(thousand, tmp_path):
    base = ["hands", "--deals", "3000", "--chunk", "1000", "--quiet", "--workers", "1"]
    partial = tmp_path / ".c.partial"
    partial.mkdir()
    (partial / "plan.json").write_text(json.dumps({"command": "hands", "seed": 0}))
    (partial / "manifest.jsonl").write_text('{"chunk": 0}\n')  # an interrupted run's chunk
    fresh = thousand(*base, "--out", str(tmp_path / "c"))
    err = fresh.stderr.strip().splitlines()
    assert fresh.returncode == 2 and len(err) == 1
    assert "--resume" in err[0] and "--force" in err[0] and partial.exists()
    forced = thousand(*base, "--out", str(tmp_path / "c"), "--force")
    assert forced.returncode == 0 and not partial.exists()
    # a partial folder without finished chunks is an empty start: thrown away silently
    (tmp_path / ".d.partial").mkdir()
    (tmp_path / ".d.partial" / "manifest.jsonl").write_text("")
    assert thousand(*base, "--out", str(tmp_path / "d")).returncode == 0


def test_ctrl_c_says_how_to_finish_a_run_whose_chunks_were_kept(main_io, tmp_path, monkeypatch):
    import sim.cli.hands

    def interrupted(args):
        partial = tmp_path / ".e.partial"
        partial.mkdir(exist_ok=True)
        (partial / "manifest.jsonl").write_text('{"chunk": 0}\n')
        raise KeyboardInterrupt

    monkeypatch.setattr(sim.cli.hands, "cmd_hands", interrupted)
    code, _, err = main_io("hands", "--deals", "10", "--out", str(tmp_path / "e"))
    assert code == 130 and "rerun it with --resume" in err
    code, _, err = main_io("hands", "--deals", "10", "--out", str(tmp_path / "f"))
    assert code == 130 and "--resume" not in err  # nothing was kept for that one


def test_flags_are_written_whole(thousand, tmp_path):
    cut = thousand("hands", "--deals", "5", "--work", "1", "--out", str(tmp_path / "g"))
    assert cut.returncode == 2 and "unrecognized arguments: --work 1" in cut.stderr
    cut = thousand("hands", "--deal", "5", "--out", str(tmp_path / "g"))  # not --deals 5
    assert cut.returncode == 2 and "required: --deals" in cut.stderr
    assert not (tmp_path / "g").exists()


@pytest.mark.slow
def test_a_killed_compare_resumes_with_the_same_results(tmp_path):
    args = ["compare", "--rules", "classic", "--vs", "app", "--games", "24000", "--seed", "5"]
    args += ["--chunk", "1000", "--workers", "1", "--quiet", "--json"]
    out = tmp_path / "c"
    # the base rule set is done and the second is part-way when the run is killed
    killed_after(".c.partial/app", 2, *args, "--out", str(out))
    assert len((tmp_path / ".c.partial/app/manifest.jsonl").read_text().splitlines()) == 2
    assert not out.exists()
    stored = (tmp_path / ".c.partial" / "classic" / "manifest.jsonl").read_text().splitlines()
    assert len(stored) == 24
    resumed = thousand_process(*args, "--out", str(out), "--resume")
    stdout, stderr = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, stderr
    again = thousand_process(*args, "--out", str(tmp_path / "whole"))
    whole_stdout, _ = again.communicate(timeout=300)
    assert again.returncode == 0
    assert json.loads(stdout)["effects"] == json.loads(whole_stdout)["effects"]
    for name in ("classic", "app"):
        got = (out / "runs" / name / "games.parquet").read_bytes()
        assert got == (tmp_path / "whole" / "runs" / name / "games.parquet").read_bytes(), name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "whole"]


@pytest.mark.slow
def test_a_killed_report_resumes_with_the_same_tables(tmp_path):
    args = ["report", "--rules", "classic", "--deals", "20000", "--hands", "20000"]
    args += ["--games", "20480", "--seed", "6", "--workers", "1", "--quiet"]
    args += ["--safe-deals", "3000", "--safe-players", "heuristic"]
    out = tmp_path / "rep"
    killed_after(".rep.partial/games", 1, *args, "--out", str(out))
    assert not out.exists()
    resumed = thousand_process(*args, "--out", str(out), "--resume")
    assert resumed.wait(timeout=300) == 0, resumed.stderr.read() if resumed.stderr else ""
    again = thousand_process(*args, "--out", str(tmp_path / "whole"))
    assert again.wait(timeout=300) == 0
    tables = sorted(p.name for p in out.glob("*.csv"))
    assert "games_barrel_summary.csv" in tables and "bids_summary.csv" in tables
    for name in tables:
        assert (out / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep", "whole"]


def test_a_runs_speed_counts_only_what_it_played_and_not_a_run_too_short_to_time():
    from sim.cli.common import resumed_text, speed_text
    from sim.runs.folder import TIMED_SECONDS, RunResult

    whole = RunResult(Path("x"), {}, 10.0)
    assert whole.speed(50_000) == 5_000 and speed_text(5_000, "deals") == " (5,000 deals/s)"
    finished = RunResult(Path("x"), {}, 10.0, resumed=40_000)  # 40,000 came from the store
    assert finished.speed(50_000) == 1_000 and resumed_text(40_000) == ", 40,000 resumed"
    assert RunResult(Path("x"), {}, TIMED_SECONDS / 2).speed(50) is None  # too short
    assert RunResult(Path("x"), {}, 10.0, resumed=50).speed(50) is None  # nothing played
    assert speed_text(None, "games") == "" and resumed_text(0) == ""
