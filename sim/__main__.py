"""``python -m sim`` is the ``thousand`` command."""

import sys

from sim.cli import run

sys.exit(run())
