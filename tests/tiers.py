"""The two tiers of the suite: ``make test`` (quick) and ``make test-all`` (marker ``slow``)."""

import pytest


def sizes(quick, full, name="size"):
    """Parametrize a test by its size: ``quick`` in ``make test``, ``full`` in ``make test-all``.

    The same assertions run at both sizes; the full one is marked ``slow`` (the long
    statistical and differential runs: README, "Tests").
    """
    return pytest.mark.parametrize(
        name,
        [pytest.param(quick, id="quick"), pytest.param(full, id="full", marks=pytest.mark.slow)],
    )
