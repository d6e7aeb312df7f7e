"""What a game package gives the toolkit (DESIGN §3).

The toolkit never names a game: it reads a `Game` from the registry and talks to the
engine through the array contract below.

Engine contract (numba njit, no Python objects inside)::

    play_chunk(params, components, presets, seat_strategies, seeds,
               out_games, out_seats, log, log_count)

- params: the game's rules NamedTuple (`RuleSchema.engine_tuple`).
- components: a tuple of numpy arrays built by `Game.compile`.
- presets: float64[n_presets, n_weights], one row per strategy preset (`Preset.weights`).
- seat_strategies: int64[n_games, players], the preset row each seat plays in each game.
- seeds: uint64[n_games], game i's seed (`simkit.rng.derive(root, game_index)`).
- out_games: int64[n_games, GAME_COLUMNS + len(game_metrics)], filled by the engine:
  column ROUNDS, TURNS, END_REASON (index into `end_reasons`), then the game metrics.
- out_seats: int64[n_games, players, SEAT_COLUMNS + len(seat_metrics)]: SCORE, RANK
  (1 = best after the rulebook's tie-breakers; tied seats share a rank), WINNER (1 for
  each seat that wins or shares the win, else 0; all 0 for an incomplete game), then the
  seat metrics. Categorical metrics hold an index into `Metric.labels`.
- log: int64[capacity, 6] rows (round, seat, code, a, b, c); log_count: int64[1], rows
  used. A sweep passes capacity 0, so the fast path and the traced path are one code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.rules import RuleSchema

# out_games columns every game fills
ROUNDS, TURNS, END_REASON = 0, 1, 2
GAME_COLUMNS = 3
# out_seats columns every game fills
SCORE, RANK, WINNER = 0, 1, 2
SEAT_COLUMNS = 3
LOG_WIDTH = 6  # round, seat, code, a, b, c


@dataclass(frozen=True)
class Metric:
    """A game or seat metric column. `labels` makes it categorical (value = index)."""

    name: str
    meaning: str
    labels: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Preset:
    """A named bot: one row of weights for the game's one compiled policy."""

    name: str
    description: str
    weights: tuple[float, ...]


@dataclass(frozen=True)
class Compiled:
    """A rule set ready for the engine: what `Game.compile` returns."""

    params: Any  # the rules NamedTuple
    components: tuple  # tuple of numpy arrays
    component_bytes: bytes  # the component files' contents, for the rules hash


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    players: tuple[int, ...]  # player counts the standard rules allow
    rules: RuleSchema
    presets: tuple[Preset, ...]  # first one is `random`
    default_strategy: str
    end_reasons: tuple[str, ...]  # must contain "round_cap"
    game_metrics: tuple[Metric, ...]
    seat_metrics: tuple[Metric, ...]
    compile: Callable[[dict, int], Compiled]  # (resolved rule values, players) -> Compiled
    play_chunk: Callable  # the njit engine entry point described above
    # (log row, context) -> one narrated line; context (see simkit.replay): {"game": Game,
    # "players": int, "strategies": [preset name per seat], "rules": {param: value}, "seed": int}
    describe_event: Callable[[tuple, dict], str]
    check_players: Callable[[int, dict], str | None] | None = None  # error text or None
    max_players: int = 0  # widest seat table the engine can fill (0: max(players))

    def preset_names(self) -> list[str]:
        return [p.name for p in self.presets]

    def preset_table(self) -> np.ndarray:
        """float64[n_presets, n_weights] for the engine."""
        width = max(len(p.weights) for p in self.presets)
        table = np.zeros((len(self.presets), width), dtype=np.float64)
        for i, p in enumerate(self.presets):
            table[i, : len(p.weights)] = p.weights
        return table
