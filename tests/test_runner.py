"""The chunked runner: identical results on every backend, resume, retried workers.

Real parts only: local worker processes (joblib's loky), a real Dask
``LocalCluster`` on the loopback interface and real Parquet files. A real
``thousand`` process killed part-way and resumed: ``test_resume.py``.
"""

import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from runner_helpers import (
    DyingJob,
    Interrupt,
    dies_once,
    held_first,
    interrupted_after_two,
    thousand_process,
)

from sim.batch.runner import (
    Backend,
    Destination,
    Joiner,
    PartStore,
    Sink,
    plan_chunks,
    run_chunks,
    run_on_workers,
    stop_workers,
)
from sim.output import UsageError
from sim.rules import load_rules
from sim.runs.games import GamesJob, run_games
from sim.runs.hands import HandsJob, hands_chunk, run_hands
from sim.runs.odds import run_odds_chunks, simulate_odds

RULES = load_rules("classic")
BACKENDS = {
    "serial": Backend(1),
    "loky": Backend(2),
    "dask": Backend(2, scheduler="local"),  # a LocalCluster started for the run
}


@pytest.fixture(scope="module")
def cluster():
    """A real Dask cluster on the loopback interface, shared by this file's runs."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None,
    ) as running:  # fmt: skip
        yield running


@pytest.fixture(scope="module")
def backends(cluster):
    """Serial, two loky processes, and the shared Dask cluster's two workers.

    Starting a LocalCluster and loading the engine into its workers takes seconds, so
    the runs compared here share one; ``scheduler="local"`` (a cluster of the run's
    own) is checked by ``test_work_before_a_run_reaches_every_worker``.
    """
    return {**BACKENDS, "dask": Backend(2, scheduler=cluster.scheduler_address)}


def test_work_before_a_run_reaches_every_worker(cluster):
    """The engine is compiled before a run's clock on every worker (or into the cache)."""
    assert run_on_workers(Backend(1), os.getpid) == [os.getpid()]
    pids = run_on_workers(Backend(2, scheduler=cluster.scheduler_address), os.getpid)
    assert len(set(pids)) == 2 and os.getpid() not in pids
    try:  # the run's own LocalCluster loads what one local worker process compiled
        (pid,) = run_on_workers(Backend(2, scheduler="local"), os.getpid)
        assert pid != os.getpid()
    finally:
        stop_workers()


def test_chunks_cover_the_run_exactly_once():
    chunks = plan_chunks(10_001, 2_500)
    assert [(c.index, c.start, c.n) for c in chunks] == [
        (0, 0, 2500), (1, 2500, 2500), (2, 5000, 2500), (3, 7500, 2500), (4, 10000, 1),
    ]  # fmt: skip
    with pytest.raises(ValueError):
        plan_chunks(0, 10)


def _job(seed: int, aggregate_only: bool = False, par: bool = False) -> HandsJob:
    """A hands job of the heuristic at every seat (the run sets its ``trace``)."""
    return HandsJob(RULES, seed, ("heuristic",) * 3, (), False, aggregate_only, par)


def _hands(tmp_path: Path, name: str, backend: Backend, **kw) -> Path:
    out = tmp_path / name
    out.mkdir()
    trace = io.StringIO()
    run_hands(_job(11, **kw), 7_000, Destination(out, trace, 2_000, backend=backend))
    (out / "trace.jsonl").write_text(trace.getvalue())
    return out


@pytest.mark.slow
def test_hands_are_byte_identical_on_every_backend(tmp_path):
    outs = {name: _hands(tmp_path, name, b) for name, b in BACKENDS.items()}
    ref = outs.pop("serial")
    for out in outs.values():
        for f in ("hands.parquet", "trace.jsonl"):
            assert (out / f).read_bytes() == (ref / f).read_bytes(), f
    assert len((ref / "trace.jsonl").read_text().splitlines()) >= 7_000


@pytest.mark.slow
def test_the_file_depends_on_no_thread_count_and_chunks_change_only_row_groups(tmp_path):
    import polars as pl

    args = ["hands", "--deals", "30000", "--seed", "6", "--quiet"]
    runs = {
        "a": (["--chunk", "7000", "--workers", "1"], {}),
        "b": (["--chunk", "7000", "--workers", "2"], {"POLARS_MAX_THREADS": "1"}),
        "c": (["--chunk", "30000", "--workers", "1"], {}),
    }
    for name, (flags, env) in runs.items():
        out = ["--out", str(tmp_path / name)]
        p = thousand_process(*args, *flags, *out, env={**os.environ, **env})
        assert p.wait(timeout=300) == 0, p.stderr.read() if p.stderr else ""
    assert (tmp_path / "a/hands.parquet").read_bytes() == (
        tmp_path / "b/hands.parquet"
    ).read_bytes()
    a = pl.read_parquet(tmp_path / "a/hands.parquet")
    assert a.equals(pl.read_parquet(tmp_path / "c/hands.parquet"))  # same rows, other groups


def test_games_are_byte_identical_on_every_backend(backends, tmp_path):
    files = {}
    for name, backend in backends.items():
        out = tmp_path / name
        out.mkdir()
        job = GamesJob(RULES, 5, ("heuristic",) * 3, (), False, None)
        counts = run_games(job, 900, Destination(out, chunk=250, backend=backend))
        assert counts["games"] == 900 and counts["chunks"] == 4
        files[name] = [(out / f).read_bytes() for f in ("games.parquet", "barrel.parquet")]
    assert files["serial"] == files["loky"] == files["dask"]


def test_odds_counts_are_the_same_on_every_backend(backends):
    whole = simulate_odds(RULES, 300_000, 3)
    for backend in backends.values():
        counts = run_odds_chunks(RULES, 300_000, 3, backend, chunk_size=70_000)
        assert counts.deals == whole.deals and counts.hits == whole.hits


def test_an_interrupted_run_resumes_to_the_same_file(tmp_path):
    job = HandsJob(RULES, 4, ("heuristic",) * 3, (), False, False)
    chunks = plan_chunks(5_000, 1_000)
    store = PartStore(tmp_path / "parts")
    with pytest.raises(Interrupt):
        run_chunks(interrupted_after_two, job, chunks, store, Backend(1))
    assert sorted(store.done()) == [0, 1]
    # a kill can also leave a torn manifest line and a stray temporary part
    with (store.folder / "manifest.jsonl").open("a") as fh:
        fh.write('{"chunk": 2, "start": 20')
    (store.folder / ".hands-000002.parquet.tmp").write_bytes(b"partial")
    computed = []

    def progress(n):
        computed.append(n)

    with Joiner(store) as joiner:  # joins the stored chunks first, then each new one
        joiner.parquet("hands.parquet", tmp_path / "resumed.parquet")
        run_chunks(hands_chunk, job, chunks, store, Backend(1), progress, on_ready=joiner)
    assert computed == [2_000, 1_000, 1_000, 1_000]  # the 2 stored chunks, then the rest
    whole = tmp_path / "whole"
    whole.mkdir()
    run_hands(_job(4), 5_000, Destination(whole, chunk=1_000))
    assert (tmp_path / "resumed.parquet").read_bytes() == (whole / "hands.parquet").read_bytes()


def test_a_damaged_part_is_computed_again(tmp_path):
    job = HandsJob(RULES, 4, ("heuristic",) * 3, (), False, False)
    chunks = plan_chunks(3_000, 1_000)
    store = PartStore(tmp_path / "parts")
    run_chunks(hands_chunk, job, chunks, store, Backend(1))
    part = store.part("hands.parquet", 1)
    good = part.read_bytes()
    part.write_bytes(good[:-10] + b"0123456789")  # same size, other bytes
    assert sorted(store.done()) == [0, 2]
    run_chunks(hands_chunk, job, chunks, store, Backend(1))
    assert part.read_bytes() == good


@pytest.mark.parametrize("backend", ["loky", pytest.param("dask", marks=pytest.mark.slow)])
def test_a_dying_worker_is_retried(tmp_path, backend):
    marker = tmp_path / "died"
    job = DyingJob(HandsJob(RULES, 9, ("heuristic",) * 3, (), False, False), str(marker))
    chunks = plan_chunks(4_000, 1_000)
    store = PartStore(tmp_path / "parts")
    with Joiner(store) as joiner:
        joiner.parquet("hands.parquet", tmp_path / "retried.parquet")
        run_chunks(dies_once, job, chunks, store, BACKENDS[backend], on_ready=joiner)
    assert marker.exists()  # a worker did die
    whole = tmp_path / "whole"
    whole.mkdir()
    run_hands(_job(9), 4_000, Destination(whole, chunk=1_000))
    assert (tmp_path / "retried.parquet").read_bytes() == (whole / "hands.parquet").read_bytes()


def test_aggregate_only_gives_the_bid_tables_of_the_full_run(thousand, tmp_path):
    from analysis.bids import bid_tables, bid_tables_json

    full = tmp_path / "full"
    agg = tmp_path / "agg"
    for out, flag in ((full, []), (agg, ["--aggregate-only"])):
        r = thousand("hands", "--deals", "40000", "--seed", "2", "--chunk", "9000",
                     "--quiet", "--workers", "2", *flag, "--out", str(out))  # fmt: skip
        assert r.returncode == 0, r.stderr
    assert (agg / "hands_agg.parquet").exists() and not (agg / "hands.parquet").exists()
    assert (agg / "hands_agg.parquet").stat().st_size < (full / "hands.parquet").stat().st_size / 5
    a = bid_tables_json(bid_tables(full))
    b = bid_tables_json(bid_tables(agg))
    assert a == b


def test_play_into_makes_run_folders_the_analyses_read(tmp_path):
    from analysis.barrel import barrel_tables
    from analysis.bids import bid_tables
    from sim.runs.folder import RunSpec, play_into

    spec = RunSpec(
        kind="hands",
        rules=RULES,
        total=3_000,
        seed=2,
        strategies="heuristic",
        chunk=1_000,
        workers=1,
    )
    result = play_into(spec, tmp_path / "h")
    assert result.counts["chunks"] == 3 and result.folder == tmp_path / "h"
    run = json.loads((tmp_path / "h/run.json").read_text())
    assert run["command"] == "hands" and run["sizes"]["deals"] == 3_000
    assert run["chunk_size"] == 1_000 and "par" not in run  # as `thousand hands` writes it
    assert run["aggregate_only"] is False and run["backend"] == "serial"
    assert bid_tables(tmp_path / "h")["summary"]["contracts"][0] == 3_000
    assert not list(tmp_path.glob(".h.*"))  # neither the partial nor the staging folder stays
    spec = RunSpec(kind="games", rules=load_rules("two_players"), total=200, seed=2)
    play_into(spec, tmp_path / "g", backend=Backend(2))
    assert barrel_tables(tmp_path / "g")["summary"]["games"][0] == 200
    run = json.loads((tmp_path / "g/run.json").read_text())
    assert run["chunk_size"] == 4096 and run["first_dealer"] is None  # the defaults
    assert run["workers"] == 2
    # with the par columns (the report's --par), run.json says so, as `thousand hands --par`
    play_into(RunSpec(kind="hands", rules=RULES, total=4, seed=2, par=True), tmp_path / "p")
    run = json.loads((tmp_path / "p/run.json").read_text())
    assert run["par"] is True and run["chunk_size"] == 256
    with pytest.raises(ValueError, match="kind"):
        play_into(RunSpec(kind="odds", rules=RULES, total=10, seed=1), tmp_path / "x")
    with pytest.raises(UsageError, match="--first-dealer 3"):
        play_into(
            RunSpec(kind="games", rules=RULES, total=10, seed=1, first_dealer=3), tmp_path / "x"
        )
    assert not (tmp_path / "x").exists()


def test_chunks_finishing_out_of_order_are_joined_in_order(tmp_path):
    job = HandsJob(RULES, 6, ("heuristic",) * 3, (), False, False)
    chunks = plan_chunks(3_000, 1_000)
    store = PartStore(tmp_path / "parts")
    finished, ready, released = [], [], []

    def joined(chunk):
        ready.append(chunk.index)
        joiner(chunk)

    # chunk 0's worker waits on this socket until chunk 1 is stored (held_first)
    with socket.create_server(("127.0.0.1", 0)) as driver:
        driver.settimeout(120)  # (only a broken run keeps it waiting that long)

        def on_stored(n: int) -> None:
            finished.append(n)
            if not released and 1 in store.done():  # chunk 1 is in: let chunk 0 go
                held, _ = driver.accept()
                with held:
                    held.sendall(b"1")
                released.append(len(finished))

        with Joiner(store) as joiner:
            joiner.parquet("hands.parquet", tmp_path / "joined.parquet")
            run_chunks(held_first, (job, driver.getsockname()[1]), chunks, store, Backend(2),
                       progress=on_stored, on_ready=joined)  # fmt: skip
    assert finished == [1_000] * 3 and len(released) == 1
    manifest = (store.folder / "manifest.jsonl").read_text().splitlines()
    stored = [json.loads(line)["chunk"] for line in manifest]
    assert stored.index(1) < stored.index(0)  # chunk 0 was stored after chunk 1 ...
    assert ready == [0, 1, 2]  # ... and still joined first
    whole = tmp_path / "whole"
    whole.mkdir()
    run_hands(_job(6), 3_000, Destination(whole, chunk=1_000))
    assert (tmp_path / "joined.parquet").read_bytes() == (whole / "hands.parquet").read_bytes()


def test_a_worker_that_cannot_see_the_part_folder_sends_the_bytes(tmp_path, monkeypatch):
    """On a cluster without a shared file system the parts travel back to be written."""
    job = HandsJob(RULES, 8, ("heuristic",) * 3, (), False, False)
    chunks = plan_chunks(2_000, 1_000)
    seen = PartStore(tmp_path / "seen")
    run_chunks(hands_chunk, job, chunks, seen, Backend(1))
    unseen = PartStore(tmp_path / "unseen")
    elsewhere = Sink(str(unseen.folder), "a token this folder does not hold")
    assert not elsewhere.reachable() and unseen.sink.reachable()
    monkeypatch.setattr(unseen, "sink", elsewhere)
    run_chunks(hands_chunk, job, chunks, unseen, Backend(2))
    for c in chunks:
        name = "hands.parquet"
        assert unseen.part(name, c.index).read_bytes() == seen.part(name, c.index).read_bytes()
    assert sorted(unseen.done()) == [0, 1]


def test_the_process_driving_worker_processes_loads_no_compiled_engine(tmp_path):
    """Only the workers play: the driving process neither imports numba nor computes."""
    code = (
        "import sys\n"
        "from sim.cli import main\n"
        f"rc = main(['hands', '--deals', '3000', '--chunk', '1000', '--workers', '2',"
        f" '--seed', '2', '--out', {str(tmp_path / 'run')!r}, '--quiet'])\n"
        "assert rc == 0, rc\n"
        "assert 'numba' not in sys.modules, 'the driver imported numba'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)
    assert (tmp_path / "run" / "hands.parquet").exists()


def test_freed_memory_is_kept_on_glibc():
    import platform

    from sim.parallel import keep_freed_memory

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("mallopt is glibc's")
    assert keep_freed_memory() is True


@pytest.mark.parametrize(
    ("command", "size"), [("hands", ["--deals", "3000"]), ("games", ["--games", "40"])]
)
def test_a_small_run_plays_in_this_process_with_the_same_bytes(thousand, tmp_path, command, size):
    """Without --workers a small run of scripted players skips the worker processes."""
    runs = {}
    for name, extra in (("auto", []), ("workers", ["--workers", "2"])):
        out = tmp_path / name
        r = thousand(command, *size, "--seed", "6", "--out", str(out), "--quiet", *extra)
        assert r.returncode == 0, r.stderr
        runs[name] = out
    table = f"{command}.parquet"
    assert (runs["auto"] / table).read_bytes() == (runs["workers"] / table).read_bytes()
    auto = json.loads((runs["auto"] / "run.json").read_text())
    assert auto["backend"] == "serial" and auto["workers"] == 1
    assert json.loads((runs["workers"] / "run.json").read_text())["workers"] == 2
    # above the threshold, or with a slow player, the workers are used as before
    from sim.runs.folder import SMALL_RUN, small_run

    assert small_run(command, SMALL_RUN[command], ["heuristic"] * 3)
    assert not small_run(command, SMALL_RUN[command] + 1, ["heuristic"] * 3)
    assert not small_run(command, 10, ["pimc", "heuristic", "heuristic"])
