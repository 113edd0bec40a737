"""Uncertainty of estimates: Wilson intervals for rates, standard errors for means."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
from numpy.typing import ArrayLike

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963984540054


def wilson_interval(hits: ArrayLike, n: ArrayLike, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial rate ``hits / n`` (95 % by default).

    Works element-wise on arrays; where ``n`` is 0 both bounds are NaN.

    Returns:
        ``(low, high)`` arrays of the same shape as the broadcast inputs.
    """
    k = np.asarray(hits, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / m
        z2 = z * z
        denom = 1.0 + z2 / m
        centre = (p + z2 / (2.0 * m)) / denom
        half = z * np.sqrt(p * (1.0 - p) / m + z2 / (4.0 * m * m)) / denom
        # the interval holds the rate itself: at 0 and 1 rounding could leave it a hair
        # outside (1 - 1e-16), and an error bar of a negative length is refused
        low = np.minimum(np.clip(centre - half, 0.0, 1.0), p)
        high = np.maximum(np.clip(centre + half, 0.0, 1.0), p)
    return low, high


def rate_interval(hits: ArrayLike, n: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``hits / n`` with its 95 % Wilson interval: ``(rate, low, high)``, NaN where ``n`` is 0."""
    k = np.asarray(hits, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = k / m
    low, high = wilson_interval(k, m)
    return rate, low, high


def binomial_se(p: ArrayLike, n: ArrayLike) -> np.ndarray:
    """Standard error ``sqrt(p (1 - p) / n)`` of a rate estimated from ``n`` trials."""
    pp = np.asarray(p, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt(pp * (1.0 - pp) / np.asarray(n, dtype=np.float64))
