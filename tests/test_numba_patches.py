"""simkit.core.numba_patches is fenced off: on only for the numba releases it is tested on and unless
SIMKIT_NUMBA_PATCHES=0, and with it off the engines play the very same games (numba's cache
keeps the two kinds of code apart, so the unpatched engines compile once per cache folder)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from simkit.core import numba_patches

# two engines compiled unpatched (a cold compile each: the slowest of the suite's games are left
# out; benchmarks/same_games.py --base-env SIMKIT_NUMBA_PATCHES=0 plays every game so)
PATCHES_OFF_IN_SUITE = ("set_sail", "sea_of_plunder")

PLAY = """
import hashlib, sys
import numpy as np
from simkit import games as registry
from simkit.core import numba_patches
from simkit.commands.bench import _cell, _play_range
game = registry.get(sys.argv[1])
h = hashlib.sha256()
for preset in game.presets:
    if preset.kind == "lookahead":
        continue
    for players in game.players:
        out_games, out_seats = _play_range(_cell(game.id, players, preset.name), 0, int(sys.argv[2]))
        h.update(np.ascontiguousarray(out_games).tobytes())
        h.update(np.ascontiguousarray(out_seats).tobytes())
print(numba_patches.ENABLED, numba_patches.WHOLE_LOOPS, numba_patches.PLAIN_INDICES, h.hexdigest())
"""


def _played(game: str, games: int, patches: str) -> list[str]:
    env = {**os.environ, numba_patches.SWITCH: patches}
    done = subprocess.run([sys.executable, "-c", PLAY, game, str(games)], env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split()


@pytest.mark.xdist_group("numba-patches-off")
@pytest.mark.parametrize("game", PATCHES_OFF_IN_SUITE)
def test_with_the_patches_off_every_preset_plays_the_same_games(game):
    on = _played(game, 60, "1")
    off = _played(game, 60, "0")
    assert on[:3] == ["True", "True", "True"] and off[:3] == ["False", "False", "False"]
    assert off[3] == on[3]


@pytest.mark.parametrize(("release", "environ", "applied"), [
    ((0, 68), {}, True),
    ((0, 67), {}, True),
    ((0, 68), {"SIMKIT_NUMBA_PATCHES": "0"}, False),
    ((0, 68), {"SIMKIT_NUMBA_PATCHES": "1"}, True),
    ((0, 66), {}, False),
    ((0, 69), {}, False),
    ((1, 0), {}, False),
])
def test_the_patches_apply_only_to_a_tested_numba_and_unless_switched_off(release, environ, applied):
    assert numba_patches.wanted(release, environ) is applied


def test_the_tested_releases_are_the_range_the_project_pins():
    """pyproject.toml's numba requirement is exactly the releases the patches are tested on."""
    pyproject = Path(numba_patches.__file__).resolve().parents[2] / "pyproject.toml"
    line = next(line for line in pyproject.read_text().splitlines() if line.strip().startswith('"numba'))
    low, high = numba_patches.TESTED[0], numba_patches.TESTED[-1]
    assert line.strip().rstrip(",") == f'"numba>={low[0]}.{low[1]},<{high[0]}.{high[1] + 1}"'
    import numba

    assert tuple(int(x) for x in numba.__version__.split(".")[:2]) in numba_patches.TESTED


def test_a_runtime_free_function_keeps_numbas_runtime_with_the_patches_off(monkeypatch):
    """simkit.core.jit passes numba's private `_nrt` only while the patches are on."""
    from simkit.core import jit as jit_module

    seen = []
    monkeypatch.setattr(jit_module, "njit", lambda **options: seen.append(options) or (lambda fn: fn))
    monkeypatch.setattr(numba_patches, "ENABLED", False)
    jit_module.jit(runtime=False)(len)
    monkeypatch.setattr(numba_patches, "ENABLED", True)
    jit_module.jit(inline="always", runtime=False)(len)
    jit_module.jit(len)
    assert seen == [{"cache": True}, {"cache": True, "inline": "always", "_nrt": False}, {"cache": True}]
