"""The ``strong`` player's fitted weights: its card play and its discard.

Card play written by ``training/strong_fit.py``, the discard by
``training/strong_discard_fit.py``.

Card play fitted on ``pimc``'s choices at 93379 decisions of classic deals, rounds
(positions:deals:seed) ``heuristic:1200:1,strong:3000:3,heuristic:3000:2``, held-out
share 0.2, heuristic-card bonus ``0.5``.

Rows of :data:`CARD_WEIGHTS`: the declarer leading and following, a defender leading
and following; columns :data:`sim.engine.strategies.strong.CARD_FEATURE_NAMES`.
"""

import numpy as np

# fmt: off
CARD_WEIGHTS = np.array(
    [
        [
            0.8920, 0.3627, -1.2939, 0.7347, -1.4053, 0.2669, 2.1728, -0.7285,
            -0.0767, -0.3028, 0.2571, 0.9833, -0.4048, -0.5084, 0.8739, 0.0000,
            0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000,
        ],
        [
            1.1473, 0.0005, 0.0000, 0.0000, 0.3641, 0.1367, -0.2374, -0.0623,
            -0.3673, -0.5009, 0.1028, 2.2062, 0.0053, 0.6352, 0.0000, 0.2046,
            0.3287, 0.5332, 0.0000, -0.5373, 0.1385, 0.5332, 0.0000, 0.0000,
        ],
        [
            0.7463, 0.0043, 0.2670, 1.0732, -0.5411, 0.1269, 1.2613, -0.1152,
            -0.5488, 0.2357, 0.4279, 0.7102, -0.0771, 0.0464, 0.4312, 0.0000,
            0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, -0.0679,
        ],
        [
            1.1472, -0.2703, 0.0000, 0.0000, -0.0090, -0.1423, -0.2745, 0.1013,
            -0.2698, -0.3616, 0.1115, 1.2561, 0.2201, 0.3899, 0.0000, 0.4712,
            0.2248, 0.2287, 0.5768, -1.3015, 0.0948, 0.7082, -0.0821, 0.0000,
        ],
    ]
)
# fmt: on

# The discard (columns :data:`sim.engine.strategies.strong_discard.DISCARD_FEATURE_NAMES`):
# least squares on the sampling player's scores of 4618 discard
# decisions (classic, heuristic at every seat, 4000 deals, seed 6,
# 20 worlds each): training/strong_discard_fit.py
# fmt: off
DISCARD_WEIGHTS = np.array([
    -2.4106, -38.7623, -23.1537, 3.0973, 6.4887, -53.0123, -30.2932, -41.9970,
    -22.1556, 9.3398, -17.5763, -12.8599, 4.6811, -20.9262, 3.0368,
])
# fmt: on
