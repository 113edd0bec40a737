"""Chunk functions for the runner tests, importable by worker processes."""

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from sim.runs.hands import HandsJob, hands_chunk


@dataclass(frozen=True)
class DyingJob:
    """A hands job whose worker dies once, the first time it plays chunk 1."""

    job: HandsJob
    marker: str  # a file that says the worker has died once already


def dies_once(dj, chunk):
    """``hands_chunk``, but the process computing chunk 1 dies the first time."""
    marker = Path(dj.marker)
    if chunk.index == 1 and not marker.exists():
        marker.write_text("died")
        os._exit(3)
    return hands_chunk(dj.job, chunk)


class Interrupt(Exception):
    """Stands for a kill: raised by :func:`interrupted_after_two`."""


def interrupted_after_two(job, chunk):
    """``hands_chunk`` for chunks 0 and 1; any later chunk 'kills' the run."""
    if chunk.index >= 2:
        raise Interrupt(chunk.index)
    return hands_chunk(job, chunk)


def slow_first(job, chunk):
    """``hands_chunk``, with chunk 0 finishing after chunk 1 is stored."""
    if chunk.index == 0:
        import time

        manifest = Path(job[1]) / "manifest.jsonl"
        deadline = time.monotonic() + 60
        while not manifest.exists() or '"chunk":1,' not in manifest.read_text():
            if time.monotonic() > deadline:
                raise TimeoutError("chunk 1 was never stored")
            time.sleep(0.05)
    return hands_chunk(job[0], chunk)


def thousand_process(*args: str, **kw) -> subprocess.Popen:
    """A ``thousand`` command in its own process group (so it can be killed whole)."""
    return subprocess.Popen(
        [sys.executable, "-m", "sim", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **kw,
    )


def kill_when(proc: subprocess.Popen, manifest: Path, lines: int) -> None:
    """Kill ``proc`` (and its workers) once ``manifest`` lists ``lines`` chunks."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:
        if manifest.exists() and len(manifest.read_text().splitlines()) >= lines:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
