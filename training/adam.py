"""Adam with a held-apart stop: the one loop the card networks are fitted by."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Loss = Callable[[np.ndarray, bool], tuple[float, list[np.ndarray]]]


def adam(
    params: list[np.ndarray],
    loss: Loss,
    fitted: np.ndarray,
    apart: np.ndarray,
    rng: np.random.Generator,
    epochs: int,
    patience: int,
) -> list[np.ndarray]:
    """Fit ``params`` in place by Adam (step 1e-3, batches of 512 of ``fitted``).

    ``loss(rows, grad)`` gives the loss of ``rows`` and, with ``grad``, its gradients in
    the order of ``params``. After every epoch the loss of ``apart`` is taken; the fit
    stops once it has not fallen by 1e-4 for ``patience`` epochs, and the parameters of
    its lowest are returned (copies).
    """
    m1 = [np.zeros_like(a) for a in params]
    m2 = [np.zeros_like(a) for a in params]
    best, kept, stale, step = np.inf, [a.copy() for a in params], 0, 0
    for _epoch in range(epochs):
        rng.shuffle(fitted)
        for i in range(0, len(fitted), 512):
            _, grads = loss(fitted[i : i + 512], True)
            step += 1
            for a, g, u, v in zip(params, grads, m1, m2, strict=True):
                u *= 0.9
                u += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                a -= 1e-3 * (u / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        value, _ = loss(apart, False)
        if value < best - 1e-4:
            best, kept, stale = value, [a.copy() for a in params], 0
        else:
            stale += 1
            if stale >= patience:
                break
    return kept
