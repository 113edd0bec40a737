"""What the engine's batches share: one output row per item, its columns by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

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

    @staticmethod
    def traced(*logs: Any) -> None:
        """Refuse to read traces of a batch played without them.

        Raises:
            ValueError: when one of the trace logs is missing.
        """
        if any(log is None for log in logs):
            raise ValueError("this batch was played without trace=True")


__all__ = ["Rows"]
