"""`make bench`: throughput figures of this machine, printed and saved as JSON.

Deals/s per core (generation + every deal feature) is the issue-2 target
(>= 5 million). Peak memory of a long `thousand odds` run shows that memory stays
flat in the number of deals.
"""

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from sim.bench import format_bench, run_all

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


def main() -> None:
    doc = run_all()
    print("\n".join(format_bench(doc)))
    small = peak_rss_of_odds(1_000_000)
    large = peak_rss_of_odds(20_000_000)
    doc["odds_process"] = {
        "1M": {"seconds": small[0], "peak_rss_mib": small[1]},
        "20M": {"seconds": large[0], "peak_rss_mib": large[1]},
    }
    print(f"thousand odds  1M deals: {small[0]:6.1f} s, peak RSS {small[1]:7.1f} MiB")
    print(f"thousand odds 20M deals: {large[0]:6.1f} s, peak RSS {large[1]:7.1f} MiB (max so far)")
    OUT.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"saved {OUT}")


if __name__ == "__main__":
    main()
