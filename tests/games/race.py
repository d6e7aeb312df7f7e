"""The race a lookahead should have run (simkit.core.kernels.race_prune), replayed from every
candidate's rollout values played in full: how many rollouts each candidate plays, and which
still run at the end."""

import numpy as np

from simkit.core.kernels import RACE_ALIVE, RACE_FIRST, RACE_SUM, race_prune


def replay_race(full, z):
    """full[c, r]: candidate c's rollout r, played with racing off. Returns (rollouts played per
    candidate, running at the end) for a race at `z`, played a round at a time as the engines do."""
    k, rollouts = full.shape
    X = np.zeros((k, RACE_FIRST + rollouts))
    X[:, RACE_ALIVE] = 1.0
    played = np.zeros(k, dtype=np.int64)
    r, running = 0, k
    while r < rollouts and running > 1:
        for c in range(k):
            if X[c, RACE_ALIVE] == 1.0:
                X[c, RACE_FIRST + r] = full[c, r]
                X[c, RACE_SUM] += full[c, r]
                played[c] += 1
        r += 1
        running = race_prune(X, np.int64(k), np.int64(r), z)
    return played, X[:, RACE_ALIVE] == 1.0
