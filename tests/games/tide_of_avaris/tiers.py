"""Whole games between line-ups (labels like "controller@0.3") for the skill-tier, lookahead and
trace tests: seats rotated over the games as a sweep rotates them."""

from __future__ import annotations

import numpy as np

from simkit.core.rng import game_seeds
from simkit.games.tide_of_avaris import GAME
from simkit.sweeps.runner import play, seat_strategies

ROOT = 11


def compiled(players: int, overrides: dict | None = None, variant: str = "standard"):
    return GAME.compile(GAME.rules.resolve(variant, overrides or {}), players)


def games(lineup: tuple[str, ...], players: int, n: int, overrides: dict | None = None, log_capacity: int = 0,
          start: int = 0):
    """(strategy rows, out_games, out_seats, log) of n games of the line-up."""
    ss = seat_strategies(GAME, lineup, players, start, n)
    og, os_, log = play(GAME, compiled(players, overrides), ss, game_seeds(np.uint64(ROOT), start, start + n),
                        log_capacity, lineup)
    return ss, og, os_, log


def win_share(lineup: tuple[str, ...], label: str, players: int, n: int) -> float:
    """The share of `label`'s seats that won, over n games of the line-up."""
    ss, _og, os_, _log = games(lineup, players, n)
    row = GAME.strategy_table(lineup)[1].index(label)
    return float(os_[:, :, 2][ss == row].mean())
