"""What a game package gives the toolkit (docs/architecture.md, "The game package contract").

The toolkit never names a game: it reads a `Game` from the registry and talks to the
engine through the array contract below.

Engine contract::

    play_chunk(params, components, presets, seat_strategies, seeds,
               out_games, out_seats, log, log_count, trace)

Every shipped engine's play_chunk is a plain Python function that allocates the engine's
tables (numpy) and calls its numba njit game loop, which holds no Python objects: a jitted
entry above the loop would make numba optimise and emit the whole engine once more (the
docs/performance.md).

- params: the game's rules NamedTuple (`RuleSchema.engine_tuple`).
- components: a tuple of numpy arrays built by `Game.compile`.
- presets: float64[n_rows, n_weights + 1], one row per strategy (`Game.strategy_table`):
  the preset's weights, then in the last column (`presets.shape[1] - 1`) its noise, the
  skill knob: the chance that a decision is a uniformly random legal choice
  instead of the policy's, drawn from the seat's own decision stream. The first rows are
  the game's presets as shipped, in preset order, whatever the line-up (an engine may read
  a preset's row by its index, e.g. for the rollouts of its lookahead tier).
- seat_strategies: int64[n_games, players], the strategy row each seat plays in each game.
- seeds: uint64[n_games], game i's seed (`simkit.core.rng.derive(root, game_index)`).
- out_games: int64[n_games, GAME_COLUMNS + len(game_metrics)], filled by the engine:
  column ROUNDS, TURNS, END_REASON (index into `end_reasons`), then the game metrics.
- out_seats: int64[n_games, players, SEAT_COLUMNS + len(seat_metrics)]: SCORE, RANK
  (1 = best after the rulebook's tie-breakers; tied seats share a rank), WINNER (1 for
  each seat that wins or shares the win, else 0; all 0 for an incomplete game), then the
  seat metrics. Categorical metrics hold an index into `Metric.labels`.
- log: int64[capacity, 6] rows (round, seat, code, a, b, c); log_count: int64[1], rows
  used. A sweep passes capacity 0, so the fast path and the traced path are one code.
- trace: int64[n_traced, trace_rounds, players], the game arc. When n_traced > 0 (it is
  then n_games), after each round r (1-based) with r <= trace_rounds the engine writes
  trace[g, r - 1, s] = the score seat s would have if the game ended now (the SCORE
  column's measure). Sweeps pass n_traced = 0 unless arcs are asked for.

A game may also give `play_chunk_heuristic`, with the same arguments and the same games, for
batches in which no seat plays a lookahead-kind preset: compiling it leaves the lookahead tier
out (a minute or so of a cold compile). The runner picks the entry per batch (`Game.entry_for`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.core import bots as bot_params
from simkit.core.bots import HEURISTIC, LOOKAHEAD_POLICY, BotParam
from simkit.core.rules import RuleSchema

# out_games columns every game fills
ROUNDS, TURNS, END_REASON = 0, 1, 2
GAME_COLUMNS = 3
# out_seats columns every game fills
SCORE, RANK, WINNER = 0, 1, 2
SEAT_COLUMNS = 3
LOG_WIDTH = 6  # round, seat, code, a, b, c
NOISE_MARK = "@"  # "merchant@0.3": the merchant preset with noise 0.3 (the skill knob)


def parse_strategy(label: str) -> tuple[str, float]:
    """A line-up entry as (preset name, noise): "name" or "name@p" with 0 <= p <= 1."""
    name, mark, noise = label.partition(NOISE_MARK)
    if not mark:
        return name, 0.0
    try:
        value = float(noise)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"'{label}': the noise after '{NOISE_MARK}' must be a number from 0 to 1")
    return name, value


def chunk_entries(play: Callable, title: str) -> tuple[Callable, Callable]:
    """(play_chunk, play_chunk_heuristic) of a game whose chunk.py allocates its tables in one
    function, `play(params, components, presets, seat_strategies, seeds, out_games, out_seats,
    log, log_count, trace, lookahead)`: the first passes lookahead=True, the second False (the
    same games, without the lookahead's tables and without compiling it)."""

    def play_chunk(params, components, presets, seat_strategies, seeds, out_games, out_seats, log, log_count, trace):
        play(params, components, presets, seat_strategies, seeds, out_games, out_seats, log, log_count, trace, True)

    def play_chunk_heuristic(params, components, presets, seat_strategies, seeds, out_games, out_seats, log,
                             log_count, trace):
        play(params, components, presets, seat_strategies, seeds, out_games, out_seats, log, log_count, trace, False)

    play_chunk.__doc__ = f"Play len(seeds) games of {title} (the engine contract in simkit/core/game.py)."
    play_chunk_heuristic.__doc__ = (f"play_chunk of {title} for a batch in which no seat plays a lookahead-kind "
                                    "preset (Game.entry_for): the same games, bit for bit, without compiling "
                                    "the lookahead.")
    for entry in (play_chunk, play_chunk_heuristic):
        entry.__module__ = play.__module__
        entry.__qualname__ = entry.__name__
    return play_chunk, play_chunk_heuristic


@dataclass(frozen=True)
class Metric:
    """A game or seat metric column. `labels` makes it categorical (value = index)."""

    name: str
    meaning: str
    labels: tuple[str, ...] | None = None


def table_fits(table: str, width: int, **needs: int) -> None:
    """Fail at import when a part of a state table's layout needs more columns than the table is
    wide: `needs` maps each part (a row's slots, a deck, a hand) to the columns it uses, one past its
    last. An engine indexes without bounds checks, so a slot past the width would read or write
    another row silently."""
    over = [f"{part} needs {n}" for part, n in needs.items() if n > width]
    if over:
        raise ValueError(f"the {table} table is {width} columns wide but " + ", ".join(over))


def metric_columns(metrics: tuple[Metric, ...], first: int, names: str) -> tuple[int, ...]:
    """The result-table columns of `metrics` (out_games from GAME_COLUMNS, out_seats from
    SEAT_COLUMNS, in declaration order), for the engine's named column constants. `names`
    spells the metrics in the order the constants are unpacked; it must be the declared order,
    so a metric added, dropped or moved in one place and not the other fails at import instead
    of filling another metric's column."""
    declared = tuple(m.name for m in metrics)
    if tuple(names.split()) != declared:
        raise ValueError(f"metric columns named {names.split()} but the metrics declared are {list(declared)}")
    return tuple(range(first, first + len(declared)))


@dataclass(frozen=True)
class Preset:
    """A named bot: one row of weights for the game's one compiled policy. kind (simkit.core.bots):
    "random" (the baseline, reads no parameter), "heuristic" or "lookahead" (the rollout tier)."""

    name: str
    description: str
    weights: tuple[float, ...]
    kind: str = HEURISTIC


def with_tuned(presets: tuple[Preset, ...], params: tuple[BotParam, ...], folder) -> tuple[Preset, ...]:
    """The presets, with `tuned` (simkit.core.bots.TUNED) before the lookahead tier when `folder`
    holds the tuned.toml that `simkit train` writes: the preset it started from, with the
    parameter values the search found (the evidence is in tuned.md beside it)."""
    from pathlib import Path

    found = bot_params.read_tuned(Path(folder), params, {p.name: (p.kind, p.weights) for p in presets})
    if found is None:
        return presets
    base, weights = found
    tuned = Preset(bot_params.TUNED, f"{base} with the parameters simkit train found for it (see tuned.md)",
                   weights)
    at = next((i for i, p in enumerate(presets) if p.kind == bot_params.LOOKAHEAD), len(presets))
    return presets[:at] + (tuned,) + presets[at:]


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
    play_chunk: Callable  # the engine entry point described above (Python around an njit game loop)
    # (log row, context) -> one narrated line; context (see simkit.commands.replay): {"game": Game,
    # "players": int, "strategies": [preset name per seat], "rules": {param: value}, "seed": int}
    describe_event: Callable[[tuple, dict], str]
    check_players: Callable[[int, dict], str | None] | None = None  # error text or None
    max_players: int = 0  # widest seat table the engine can fill (0: max(players))
    bot_params: tuple[BotParam, ...] = ()  # every weight and threshold the policy reads (simkit.core.bots)
    # the default preset before a tuned one replaced it (the skill tiers' rung between random and
    # the default, simkit.core.ladder), or None
    previous_default: str | None = None
    # play_chunk without the lookahead tier, for batches no seat of which plays it (Game.entry_for):
    # the same games, but its first call compiles only the heuristic policies; None: play_chunk always
    play_chunk_heuristic: Callable | None = None
    # the policy code (simkit.core.bots) of the lookahead-kind presets' rows: LOOKAHEAD_POLICY, or
    # HEURISTIC_POLICY where the engine tells a lookahead seat by another weight
    lookahead_policy: float = LOOKAHEAD_POLICY

    def __post_init__(self):
        """Every preset's row starts with the policy code of its kind, which the engines compare
        with (a row the engine would play with another policy is a programming error)."""
        codes = dict(bot_params.POLICY_CODES, **{bot_params.LOOKAHEAD: self.lookahead_policy})
        for p in self.presets:
            if p.weights and p.weights[0] != codes[p.kind]:
                raise ValueError(f"{self.id}: preset {p.name} is {p.kind} but its row's policy code is "
                                 f"{p.weights[0]}, not {codes[p.kind]} (simkit.core.bots)")

    @classmethod
    def from_package(cls, *, id: str, title: str, players: tuple[int, ...], state, components, rules, events, chunk,
                     bots, check_players=None, compile=None, **fields) -> Game:
        """The Game of a package of the shared shape (docs/architecture.md, "The files of a game
        package"), each field read where every game keeps it: the rules' SCHEMA; the bots'
        PRESETS, DEFAULT, PREVIOUS_DEFAULT and PARAMS; the state's END_REASONS, GAME_METRICS,
        SEAT_METRICS and MAX_PLAYERS; the chunk's two entries; the events' describe_event.
        `compile` defaults to the components loaded (`components.load`) and compiled for the
        rule values and players (`components.compile_arrays`) beside the rules tuple; `fields`
        are any other Game fields."""

        def compile_rules(values: dict, players: int) -> Compiled:
            comp = components.load(values["components"])
            arrays = components.compile_arrays(comp, values, players)
            return Compiled(rules.SCHEMA.engine_tuple(values), arrays, comp.raw)

        return cls(id=id, title=title, players=players, rules=rules.SCHEMA, presets=bots.PRESETS,
                   default_strategy=bots.DEFAULT, previous_default=bots.PREVIOUS_DEFAULT, bot_params=bots.PARAMS,
                   end_reasons=state.END_REASONS, game_metrics=state.GAME_METRICS, seat_metrics=state.SEAT_METRICS,
                   compile=compile or compile_rules, play_chunk=chunk.play_chunk,
                   play_chunk_heuristic=chunk.play_chunk_heuristic, describe_event=events.describe_event,
                   check_players=check_players, max_players=state.MAX_PLAYERS, **fields)

    def preset_names(self) -> list[str]:
        return [p.name for p in self.presets]

    def preset(self, name: str) -> Preset:
        return self.presets[self.preset_names().index(name)]

    def params_of(self, preset: str) -> tuple[BotParam, ...]:
        """The bot parameters a preset reads (none for random)."""
        return bot_params.params_for(self.preset(preset).kind, self.bot_params)

    def check_bots(self, bots, where: str) -> dict[str, dict]:
        """Validated bot settings {label: {"preset": base, param: value}} (simkit.core.bots)."""
        presets = {p.name: (p.kind, p.weights) for p in self.presets}
        return bot_params.check_settings(bots, presets, self.bot_params, where, self.id)

    def strategy_names(self, bots: dict | None = None) -> list[str]:
        """Every name a line-up may use: the presets, then the new labels of `bots`."""
        names = self.preset_names()
        return names + [label for label in (bots or {}) if label not in names]

    def strategy_table(self, labels: tuple[str, ...] = (), bots: dict | None = None,
                       ) -> tuple[np.ndarray, tuple[str, ...]]:
        """(float64[n_rows, n_weights + 1] for the engine, the label of each row).

        One row per preset as shipped (noise 0, in preset order), then one per label of
        `labels` that is noisy ("name@p") or set by `bots` (checked settings, see
        `check_bots`). The last column is the row's noise. A preset changed by `bots` keeps
        its shipped row, unlabelled (""), for engines that read a preset's row by index.
        """
        rows, row_labels = self._rows(labels, bots)
        width = max(len(p.weights) for p in self.presets)
        width = max([width] + [p.slot + 1 for p in self.bot_params])
        table = np.zeros((len(rows), width + 1), dtype=np.float64)
        for i, (name, setting, noise) in enumerate(rows):
            weights = bot_params.apply(self.preset(name).weights, setting, self.bot_params)
            table[i, : len(weights)] = weights
            table[i, width] = noise
        return table, row_labels

    def _rows(self, labels: tuple[str, ...], bots: dict | None) -> tuple[list, tuple[str, ...]]:
        """strategy_table's rows as (base preset, bot settings, noise), and their labels."""
        bots = bots or {}
        names = self.preset_names()
        shown = ["" if n in bots else n for n in names]
        rows = [(n, {}, 0.0) for n in names]
        extra = [label for label in dict.fromkeys(labels) if label not in shown]
        for label in extra:
            name, noise = parse_strategy(label)
            setting = bots.get(name, {})
            rows.append((setting.get(bot_params.BASE, name), setting, noise))
        return rows, tuple(shown) + tuple(extra)

    def row_kinds(self, labels: tuple[str, ...] = (), bots: dict | None = None) -> tuple[str, ...]:
        """The kind (simkit.core.bots: random, heuristic, lookahead) of each row of strategy_table."""
        return tuple(self.preset(name).kind for name, _, _ in self._rows(labels, bots)[0])

    def lookahead_row(self, labels: tuple[str, ...], bots: dict | None = None) -> int | None:
        """The strategy_table row of the first label of `labels` that plays a lookahead-kind preset,
        or None: a line-up with one plays through the full engine entry (entry_for)."""
        rows, row_labels = self._rows(labels, bots)
        return next((row_labels.index(label) for label in labels
                     if self.preset(rows[row_labels.index(label)][0]).kind == bot_params.LOOKAHEAD), None)

    def entry_for(self, strategies, labels: tuple[str, ...] = (), bots: dict | None = None) -> Callable:
        """The engine entry point for a batch whose seats play these rows of strategy_table(labels,
        bots): `play_chunk_heuristic` when the game has one and no seat plays a lookahead-kind row
        (the same games without compiling the lookahead), else `play_chunk`."""
        if self.play_chunk_heuristic is None:
            return self.play_chunk
        kinds = self.row_kinds(labels, bots)
        used = {int(row) for row in np.unique(strategies)}
        return self.play_chunk if any(kinds[row] == bot_params.LOOKAHEAD for row in used) \
            else self.play_chunk_heuristic

    def preset_table(self) -> np.ndarray:
        """float64[n_presets, n_weights + 1] for the engine: every preset, noise 0."""
        return self.strategy_table()[0]
