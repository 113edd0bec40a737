import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
