"""Replay one game from its seed and narrate it from the engine's event log
(docs/architecture.md, "The game package contract").

The game runs through the very engine call a sweep uses, with a log capacity instead of
none, so a replayed game is the game the sweep played: take `seed` from games.parquet
and the seat-by-seat `strategy` from seats.parquet.

`Game.describe_event(row, context)` gets the context {"game": Game, "players": int,
"strategies": [preset name per seat], "rules": {param: value}, "seed": int}.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simkit import games as registry
from simkit.core.errors import InputError
from simkit.core.rng import derive
from simkit.sweeps import spec as specs
from simkit.sweeps.results import chunk_tables
from simkit.sweeps.runner import compiled, play, seat_strategies

LOG_CAPACITY = 200_000
DEFAULT_SEED = int(derive(np.uint64(specs.DEFAULT_SEED), np.uint64(0)))  # game 0 of a sweep with root seed 1


@dataclass
class Replay:
    game: str
    players: int
    variant: str
    seed: int
    lineup: list[str]  # preset per seat
    overrides: dict  # the rule overrides given (beyond the variant)
    lines: list[str]  # the narrated events
    log_full: bool  # the log filled up: the narration stops early
    outcome: dict  # the games.parquet row
    seats: list[dict]  # the seats.parquet rows (without cell and game_index)
    bots: dict = field(default_factory=dict)  # bot settings of the line-up's labels (simkit.core.bots)

    def header(self) -> str:
        seats = ", ".join(f"seat {s} {name}" for s, name in enumerate(self.lineup))
        rules = "".join(f", {k}={v}" for k, v in self.overrides.items())
        rules += "".join(f", {label} ({', '.join(f'{k}={v:g}' if k != 'preset' else f'from {v}' for k, v in b.items())})"
                         for label, b in self.bots.items())
        return f"{self.game}, {self.players} players, {self.variant}{rules}, seed {self.seed}: {seats}"

    def ending(self) -> str:
        o = self.outcome
        winner = {0: "no winner", 1: f"seat {o['winner']} wins"}.get(o["n_winners"], f"{o['n_winners']} seats share")
        full = " (log full: narration stopped early)" if self.log_full else ""
        return f"end: {o['end_reason']} after {o['rounds']} rounds, {o['turns']} turns; {winner}{full}"


def replay(
    game: str,
    players: int | None = None,
    variant: str = "standard",
    overrides: list[str] | dict | None = None,
    strategies: str | None = None,
    seed: int | None = None,
    log_capacity: int = LOG_CAPACITY,
    bots: list[str] | dict | None = None,
) -> Replay:
    """Play one game (validated like a one-cell sweep) and narrate it. `bots`: bot settings as
    for a sweep (simkit.core.bots), e.g. ["merchant:sell_at=400"].

    players defaults to the largest count the variant allows; strategies names seat 0's,
    seat 1's, ... preset (a shorter list repeats; a longer one is refused; default: the game's
    default preset).
    """
    seed = DEFAULT_SEED if seed is None else seed
    if isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise InputError(f"--seed must be a game seed in 0..2**64-1, got {seed}")
    if "," in variant:
        raise InputError(f"replay plays one game: give one variant, not '{variant}'")
    kinds = {q.name: q.kind for q in registry.get(game).rules.params} if game in registry.ids() else {}
    listed = [k for k, v in specs.parse_set(overrides).items() if isinstance(v, list)
              and (kinds.get(k) != "ints" or any(isinstance(x, list) for x in v))]  # a flat list is one ints value
    if listed:
        raise InputError(f"replay plays one game: give {listed[0]} one value, not a list")
    cells = specs.load(game=game, players=players, variant=variant, set=overrides, strategies=strategies,
                       games=1, balanced=False, bots=bots).cells
    cell = max(cells, key=lambda c: c.players)
    if len(cell.lineup) > cell.players:  # a preset that would sit nowhere is a mistake, not a choice
        raise InputError(f"--strategies names {len(cell.lineup)} presets ({','.join(cell.lineup)}) for "
                         f"{cell.players} seats; name at most {cell.players}, seat 0's first")
    g = registry.get(cell.game)
    rules, _ = compiled(cell)
    lineup = seat_strategies(g, cell.lineup, cell.players, 0, 1, cell.bots)
    seeds = np.array([seed], dtype=np.uint64)
    out_games, out_seats, log = play(g, rules, lineup, seeds, log_capacity, cell.lineup, bots=cell.bots)
    labels = cell.strategy_table()[1]
    names = [labels[k] for k in lineup[0]]
    context = {"game": g, "players": cell.players, "strategies": names, "rules": cell.rules(), "seed": seed}
    games, seats = chunk_tables(g, cell.id, 0, seeds, lineup, out_games, out_seats, labels)
    return Replay(
        game=g.id, players=cell.players, variant=cell.variant, seed=seed, lineup=names, overrides=cell.overrides,
        lines=[g.describe_event(tuple(int(x) for x in row), context) for row in log],
        log_full=len(log) >= log_capacity,
        outcome=games.row(0, named=True),
        seats=seats.drop("cell", "game_index").to_dicts(),
        bots=cell.bots,
    )
