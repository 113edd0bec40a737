"""``python -m sim`` is the ``thousand`` command."""

import sys

from sim.cli import main

sys.exit(main())
