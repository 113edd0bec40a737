import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.parallel import max_threads

ROOT = Path(__file__).resolve().parents[1]

# The suite reads the English answers: whatever this machine's locale, every test (and
# every command it starts) writes English unless it asks for a language itself.
os.environ["THOUSAND_LANG"] = "en"

# The thread-count checks compare one compiled-code thread with two (test_deal.py,
# test_engine.py): numba may start two even on a one-core machine. Set before anything
# imports numba; with two cores or more nothing changes.
if max_threads() < 2:
    os.environ["NUMBA_NUM_THREADS"] = "2"


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 300):
    """Run ``python -m sim ARGS`` as a user would, capturing output."""
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    return subprocess.run(
        [sys.executable, "-m", "sim", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=env,
        timeout=timeout,
    )


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def main_io(capsys):
    """Run ``thousand ARGS`` in this process: ``(exit code, stdout, stderr)``."""

    def call(*args: str) -> tuple[int, str, str]:
        from sim.cli import main

        numba = sys.modules.get("numba")
        threads = numba.get_num_threads() if numba is not None else None
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's own errors
            code = int(exc.code or 0)
        finally:  # a command may set this process's compiled-code threads
            if threads is not None:
                numba.set_num_threads(threads)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return call


@pytest.fixture
def thousand(main_io, monkeypatch):
    """Run ``thousand ARGS`` in this process, as :func:`run_cli` would in a subprocess.

    The result has ``returncode``, ``stdout`` and ``stderr``. Starting Python, numba
    and the compiled engine again costs a second or two a run; the checks of the
    command as a separate process (entry point, exit code, no traceback) keep ``cli``.
    """
    monkeypatch.delenv("COLUMNS", raising=False)

    def call(*args: str) -> subprocess.CompletedProcess:
        code, out, err = main_io(*args)
        return subprocess.CompletedProcess(["thousand", *args], code, out, err)

    return call


@pytest.fixture
def run_main(main_io):
    """Run ``thousand ARGS`` in this process: ``(exit code, stderr)`` (bad-input checks)."""

    def call(*args: str) -> tuple[int, str]:
        code, _, err = main_io(*args)
        return code, err

    return call


# The files that take longest (10-40 s each on 2 cores), longest first. The suite runs
# on two processes, whole files each (``--dist loadfile --no-loadscope-reorder``: in
# collection order, not by number of tests): starting with these keeps one process
# from finishing a long file alone at the end.
LONGEST_FIRST = (
    "test_runner.py",
    "test_report.py",
    "test_differential.py",
    "test_docs.py",
    "test_reference_game.py",
    "test_exact.py",
    "test_solver.py",
    "test_reference.py",
    "test_notebooks.py",
    "test_serve_browser.py",
    "test_advise.py",
    "test_safebids.py",
    "test_pimc.py",
    "test_cli.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Collect the longest files first (the order within a file is kept)."""
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
