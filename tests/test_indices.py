"""The engines index their tables as they are (simkit.core.kernels, Plain indices): no engine may use a
negative index, which numba no longer wraps to count from the end, nor one past an axis. With
SIMKIT_INDEX_CHECK=1 every such index is tested (IndexError), so these games fail where an
engine or a policy strays. Each runs in a subprocess: the checked engines are compiled there (and
cached apart from the plain ones)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from simkit import games as registry

GAMES = [g for g in registry.ids() if g != "dicegame"]
HEURISTIC_GAMES = 12  # per preset and player count
LOOKAHEAD_GAMES = 2  # at the fewest players

PLAY = """
import sys
from simkit import games as registry
from simkit.core import numba_patches
from simkit.commands.bench import _cell, _play_range
from simkit.core.bots import LOOKAHEAD
assert numba_patches.INDEX_CHECK and numba_patches.PLAIN_INDICES
game = registry.get(sys.argv[1])
for preset in game.presets:
    lookahead = preset.kind == LOOKAHEAD
    for players in game.players[:1] if lookahead else game.players:
        _play_range(_cell(game.id, players, preset.name), 0, int(sys.argv[3 if lookahead else 2]))
"""

STRAY = """
import numpy as np
from simkit.core import kernels, numba_patches
assert numba_patches.INDEX_CHECK
a, b = np.zeros((3, 2), dtype=np.int64), np.ones((3, 2), dtype=np.int64)
kernels.copy_block(a, 0, b, 0, 3)  # in range
for d0, s0 in ((-1, 0), (0, -1), (1, 0)):  # from the end; past the end (rows 1..3 of 3)
    try:
        kernels.copy_block(a, d0, b, s0, 3)
    except IndexError:
        continue
    raise SystemExit(f"copy_block(a, {d0}, b, {s0}, 3) was not stopped")
print("stopped")
"""


def _checked(code: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SIMKIT_INDEX_CHECK": "1"}
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=False)


def test_the_engines_index_plainly_with_this_numba():
    """PLAIN_INDICES is False only where numba lowers an index otherwise, or where the patches
    are off (simkit.core.numba_patches)."""
    from simkit.core import numba_patches

    assert numba_patches.PLAIN_INDICES


def test_a_checked_engine_function_stops_an_index_from_the_end_or_past_it():
    done = _checked(STRAY)
    assert done.returncode == 0 and "stopped" in done.stdout, done.stderr[-3000:]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_preset_plays_with_every_index_checked(game_id):
    """Every preset at every player count (the lookahead at the fewest), its engine compiled
    with every index checked: an index from the end or past an axis raises IndexError."""
    done = _checked(PLAY, game_id, str(HEURISTIC_GAMES), str(LOOKAHEAD_GAMES))
    assert done.returncode == 0, done.stderr[-3000:]
