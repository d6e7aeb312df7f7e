"""Explicit, seedable random numbers usable inside numba (docs/architecture.md, "Seeds and reproducibility").

A game holds its generator state in a uint64 array `rng[stream, 4]` (xoshiro256**).
Stream 0 is chance (shuffles, dice); stream 1 + s is seat s's bot decisions, so a bot
that decides differently never changes the next card dealt. Integers are drawn by
multiply-and-shift, never through floats, so the engine gives the same numbers with
and without `NUMBA_DISABLE_JIT=1`.
"""

import warnings

import numpy as np

from simkit.core.jit import jit

# numpy scalars warn on uint64 wrap-around when the engine runs as plain Python; the
# wrap-around is the algorithm.
warnings.filterwarnings("ignore", message="overflow encountered", category=RuntimeWarning)

# stream index of chance; seat s decides from stream 1 + s. Typed: the engines pass it to randint and
# shuffle, which a literal 0 would have numba compile once more, for that value
CHANCE = np.int64(0)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)


@jit
def splitmix64(x):
    """One splitmix64 output for input x (a good 64-bit mixing function)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@jit
def derive(root, index):
    """Seed of game `index` of a sweep with root seed `root` (independent of the cell)."""
    return splitmix64(splitmix64(np.uint64(root)) ^ np.uint64(index))


@jit
def game_seeds(root, start, stop):
    """Seeds of games start..stop-1 as a uint64 array."""
    out = np.empty(stop - start, dtype=np.uint64)
    for i in range(start, stop):
        out[i - start] = derive(root, i)
    return out


@jit
def seed_streams(rng, seed):
    """Fill every stream of `rng` from one game seed; streams are independent."""
    for r in range(rng.shape[0]):
        x = np.uint64(seed) ^ (np.uint64(r + 1) * _STREAM)
        for j in range(4):
            x = splitmix64(x + np.uint64(j))
            rng[r, j] = x
        if rng[r, 0] == 0 and rng[r, 1] == 0 and rng[r, 2] == 0 and rng[r, 3] == 0:
            rng[r, 0] = _GOLDEN


@jit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@jit
def next_u64(rng, r):
    """The next 64-bit output of stream r (xoshiro256**)."""
    s0 = rng[r, 0]
    s1 = rng[r, 1]
    s2 = rng[r, 2]
    s3 = rng[r, 3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    rng[r, 0] = s0
    rng[r, 1] = s1
    rng[r, 2] = s2
    rng[r, 3] = s3
    return result


@jit
def randint(rng, r, n):
    """A uniform integer in 0..n-1 from stream r (n < 2**32; multiply-and-shift)."""
    x = next_u64(rng, r) >> np.uint64(32)
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


@jit
def shuffle(rng, r, a, n):
    """Shuffle the first n entries of a in place (Fisher-Yates) from stream r."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, r, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
