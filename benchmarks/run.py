"""`make bench`: throughput figures of this machine, printed and saved as JSON.

Deals/s per core (generation + every deal feature) is the issue-2 target
(>= 5 million). Peak memory of a long `thousand odds` run shows that memory stays
flat in the number of deals. The scale-out figures time whole `thousand` processes
on 1 worker, 2 local worker processes and a 2-worker Dask LocalCluster (issue 5:
scaling >= 1.8x, Dask within 10 % of local processes), medians of 3 rounds; `--big`
adds a 1M-game run and the `thousand hands --deals 100000000 --aggregate-only` run
with its peak memory (all processes of the run together, < 2 GiB asked).
"""

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from sim.runs.bench import format_bench, run_all, slow_fast_players

OUT = Path(__file__).with_name("results.json")


def peak_rss_of_odds(deals: int) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of `thousand odds --deals N` in a child process."""
    t0 = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sim",
            "odds",
            "--deals",
            str(deals),
            "--seed",
            "1",
            "--json",
            "--quiet",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - t0
    return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def group_rss_mib(pgid: int) -> float:
    """Total resident memory (MiB) of the processes in group ``pgid``, read from /proc."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[2]) == pgid:  # fields after the name: state, ppid, pgrp, ... rss
            total += int(fields[21])
    return total * resource.getpagesize() / 2**20


def timed_run(args: list[str], out: Path, prefix: list[str] | None = None) -> tuple[float, float]:
    """Wall seconds and peak memory (MiB) of one `thousand` command in a child process.

    The memory is the total resident set of the command and all its worker
    processes (its process group), read from /proc every 0.5 s: cheap enough not to
    take a core's time from a run that uses every core.
    """
    import shutil

    shutil.rmtree(out, ignore_errors=True)
    cmd = [*(prefix or []), sys.executable, "-m", "sim", *args, "--out", str(out), "--quiet"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)
    peak = 0.0
    while proc.poll() is None:
        peak = max(peak, group_rss_mib(proc.pid))
        time.sleep(0.5)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed with exit code {proc.returncode}")
    return time.perf_counter() - t0, peak


def scale_out(big: bool, rounds: int = 3) -> dict[str, dict[str, float]]:
    """Whole-process times of hands and games runs on each backend, medians of rounds.

    Each round runs the three backends one after the other, so that a slow spell of
    the machine hits a round's runs alike; the ratios are taken within each round
    and their median is reported. The 1-worker run is pinned to one core
    (``taskset -c 0`` where available): left alone, its Parquet encoding would
    borrow the second core through polars' threads.
    """
    import shutil
    import statistics
    import tempfile

    one_core = ["taskset", "-c", "0"] if shutil.which("taskset") else []

    tmp = Path(tempfile.mkdtemp(prefix="thousand-bench-"))
    runs = {
        "hands_12M": ["hands", "--deals", "12000000", "--seed", "1"],
        "games_300k": ["games", "--games", "300000", "--seed", "1"],
    }
    if big:
        runs["games_1M"] = ["games", "--games", "1000000", "--seed", "1"]
    backends = {
        "1_worker": ["--workers", "1"],
        "2_workers": ["--workers", "2"],
        "dask_local_2": ["--workers", "2", "--scheduler", "local"],
    }
    out: dict[str, dict[str, float]] = {}
    for name, args in runs.items():
        walls: dict[str, list[float]] = {b: [] for b in backends}
        peaks: dict[str, list[float]] = {b: [] for b in backends}
        for _ in range(rounds):
            for bname, bargs in backends.items():
                prefix = one_core if bname == "1_worker" else None
                wall, peak = timed_run(args + bargs, tmp / f"{name}-{bname}", prefix)
                walls[bname].append(wall)
                peaks[bname].append(peak)
        row: dict[str, float] = {"rounds": rounds}
        for bname in backends:
            row[f"{bname}_s"] = statistics.median(walls[bname])
            row[f"{bname}_peak_mib"] = max(peaks[bname])
        scaling = [a / b for a, b in zip(walls["1_worker"], walls["2_workers"], strict=True)]
        dask = [a / b for a, b in zip(walls["dask_local_2"], walls["2_workers"], strict=True)]
        row["scaling_1_to_2"] = statistics.median(scaling)
        row["scaling_min"], row["scaling_max"] = min(scaling), max(scaling)
        row["dask_vs_local"] = statistics.median(dask)
        row["dask_vs_local_min"], row["dask_vs_local_max"] = min(dask), max(dask)
        out[name] = row
        print(
            f"{name:<10} 1 worker {row['1_worker_s']:6.1f} s  2 workers {row['2_workers_s']:6.1f} s"
            f"  (x{row['scaling_1_to_2']:.2f}, {min(scaling):.2f}-{max(scaling):.2f})"
            f"  dask {row['dask_local_2_s']:6.1f} s ({row['dask_vs_local']:.2f} of local,"
            f" {min(dask):.2f}-{max(dask):.2f}); medians of {rounds} rounds"
        )
    if big:
        wall, peak = timed_run(
            ["hands", "--deals", "100000000", "--seed", "1", "--aggregate-only"],
            tmp / "hands-1e8",
        )
        out["hands_1e8_aggregate_only"] = {"seconds": wall, "peak_mib_all_processes": peak}
        print(f"hands 1e8 --aggregate-only: {wall:6.1f} s, peak {peak:7.1f} MiB (all processes)")
    shutil.rmtree(tmp, ignore_errors=True)
    return out


def main() -> None:
    doc = run_all()
    print("\n".join(format_bench(doc)))
    slow = slow_fast_players(doc)  # a player whose record says fast must play at that speed
    if slow:
        raise SystemExit("\n".join(["players slower than their speed class:", *slow]))
    small = peak_rss_of_odds(1_000_000)
    large = peak_rss_of_odds(20_000_000)
    doc["odds_process"] = {
        "1M": {"seconds": small[0], "peak_rss_mib": small[1]},
        "20M": {"seconds": large[0], "peak_rss_mib": large[1]},
    }
    print(f"thousand odds  1M deals: {small[0]:6.1f} s, peak RSS {small[1]:7.1f} MiB")
    print(f"thousand odds 20M deals: {large[0]:6.1f} s, peak RSS {large[1]:7.1f} MiB (max so far)")
    doc["scale_out"] = scale_out(big="--big" in sys.argv)
    OUT.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"saved {OUT}")


if __name__ == "__main__":
    main()
