"""What the engine's batches share: one output row per item, its columns by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import numpy as np


class Rows:
    """A batch's output rows (``out``), read by column name (``COLUMNS``: name -> index).

    :class:`sim.engine.api.HandsBatch` (a row per deal) and
    :class:`sim.engine.game.GamesBatch` (a row per game) are such batches.
    """

    out: np.ndarray
    COLUMNS: ClassVar[Mapping[str, int]]

    def __len__(self) -> int:
        return int(self.out.shape[0])

    def column(self, name: str) -> np.ndarray:
        """One output column by name."""
        return self.out[:, self.COLUMNS[name]]


NO_TRACE = "this batch was played without trace=True"
"""Why a batch's ``traces()`` refuses: its trace logs were not kept."""

__all__ = ["NO_TRACE", "Rows"]
