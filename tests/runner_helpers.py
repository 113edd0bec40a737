"""Chunk functions for the runner tests, importable by worker processes."""

import os
import signal
import socket
import subprocess
import sys
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


def held_first(job, chunk):
    """``hands_chunk``, with chunk 0 held until the driving process lets it go.

    ``job`` is ``(hands job, port)``: the worker of chunk 0 connects to the driver's
    socket on 127.0.0.1 and plays only once it reads the driver's one byte (the test
    sends it when chunk 1 is stored).
    """
    hands, port = job
    if chunk.index == 0:
        with socket.create_connection(("127.0.0.1", port), timeout=120) as held:
            if held.recv(1) != b"1":  # (a timeout raises: only a broken run waits that long)
                raise RuntimeError("the driver closed without letting chunk 0 go")
    return hands_chunk(hands, chunk)


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


# A ``thousand`` command that kills itself (SIGKILL, as a user's ``kill -9`` would) right
# after the manifest line of its chunk number AFTER in a part folder whose path ends with
# FOLDER: wherever the scheduler and the machine's load put the run, it stops there.
_KILLED_AT = """
import os, signal, sys
from sim.batch import runner
folder, after = sys.argv[1], int(sys.argv[2])
record = runner.PartStore.record

def record_then_die(self, entry):
    done = record(self, entry)
    lines = (self.folder / runner.MANIFEST).read_text(encoding="utf-8").count("\\n")
    if str(self.folder).endswith(folder) and lines >= after:
        os.kill(os.getpid(), signal.SIGKILL)
    return done

runner.PartStore.record = record_then_die
sys.argv = ["thousand", *sys.argv[3:]]
from sim.cli import run
sys.exit(run())
"""


def killed_after(folder: str, chunks: int, *args: str) -> subprocess.CompletedProcess:
    """Run ``thousand ARGS``, killed once the part folder ``...folder`` lists ``chunks``.

    Fails if the run was not killed there (it ended by itself, or failed first).
    """
    proc = subprocess.run(
        [sys.executable, "-c", _KILLED_AT, folder, str(chunks), *args],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, proc.stderr[-2000:])
    return proc
