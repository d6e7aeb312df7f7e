"""The expert tier: the lookahead machinery on tuned's weights.

- its row is tuned's weights (its own decisions and its first plan) with the lookahead's knobs;
- its first plan is tuned's own: plan 0 keeps the seat's weights, and with no other plan the
  expert plays tuned's turn;
- its rollouts are played by tuned: every rival seat of a rollout copies the deciding seat's
  heuristic weights, so that a rollout is the game tuned plays against tuned, and a change to
  one of those weights changes what the rollout seats do (the lookahead's rivals stay merchants);
- determinism, and stream discipline: choosing draws only from the seat's own stream and leaves
  the game alone; a round in which the expert keeps tuned's plan is tuned's round, chance stream
  and rivals' streams included;
- `simkit strategies` lists it, last, as kind lookahead.
"""

from __future__ import annotations

import json

import numpy as np

from simkit.core.rng import seed_streams
from simkit.games.sea_of_thieves import GAME
from simkit.games.sea_of_thieves import lookahead as la
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine import round as R
from simkit.sweeps import runner
from strategies import sea_of_thieves as bot

from .harness import PRESET_INDEX, PRESETS, Table

W = bot.N_PLAN_WEIGHTS
TUNED = PRESETS[PRESET_INDEX["tuned"]]
EXPERT = PRESETS[PRESET_INDEX["expert"]]


def play(lineup, players=2, n=8, table=None):
    """n games of `lineup` as the runner plays them (seats rotated), through the full entry."""
    values = GAME.rules.resolve("standard", {})
    compiled = GAME.compile(values, players)
    strategies = runner.seat_strategies(GAME, tuple(lineup), players, 0, n)
    table = GAME.strategy_table(tuple(lineup))[0] if table is None else table
    seeds = np.arange(1, n + 1, dtype=np.uint64) * np.uint64(7919)
    out_games = np.zeros((n, 3 + len(GAME.game_metrics)), dtype=np.int64)
    out_seats = np.zeros((n, players, 3 + len(GAME.seat_metrics)), dtype=np.int64)
    GAME.play_chunk(compiled.params, compiled.components, table, strategies, seeds, out_games, out_seats,
                    np.zeros((0, 6), dtype=np.int64), np.zeros(1, dtype=np.int64),
                    np.full((0, 1, players), -1, dtype=np.int64))
    return strategies, out_games, out_seats


def expert_positions(players=2, seeds=(3, 4, 5)):
    """Games a few rounds in between tuned seats, seat 0 about to choose as the expert."""
    for seed in seeds:
        t = Table(players=players, seed=seed, strategies="tuned")
        for _ in range(2 + seed % 3):
            t.call("play_round", players=players)
        t.F[1, : PRESETS.shape[1]] = EXPERT
        yield t


def test_the_expert_row_is_tuned_with_lookahead_knobs():
    assert (EXPERT[:W] == TUNED[:W]).all()
    assert EXPERT[bot.W_ROLLOUTS] >= 1 and EXPERT[bot.NOISE] == 0.0
    t = next(expert_positions())
    assert la.n_plans(t.F, np.int64(0)) >= 2 and la.plan_row(t.F, np.int64(0), np.int64(0)) == 0
    la.set_plan(t.F, np.int64(0), la.plan_row(t.F, np.int64(0), np.int64(0)), t.presets)
    assert (t.F[1, :W] == TUNED[:W]).all()  # plan 0 is tuned's own weights
    la.restore_weights(t.F, np.int64(0))
    assert (t.F[1, : PRESETS.shape[1]] == EXPERT).all()


def test_an_expert_with_no_other_plan_plays_tuneds_games():
    """Plan slots emptied, the expert has only tuned's plan: the same games as tuned, seat for seat
    (choosing still draws from its own stream, which tuned never reads)."""
    lone = GAME.strategy_table(("expert", "tuned"))[0]
    lone[PRESET_INDEX["expert"], list(bot.PLAN_SLOTS)] = 0.0
    a = play(["expert", "tuned"], n=6, table=lone)
    b = play(["tuned", "tuned"], n=6)
    assert (a[1] == b[1]).all() and (a[2] == b[2]).all()


def test_the_rollout_seats_play_the_deciding_seats_own_weights():
    t = next(expert_positions())
    F2 = np.zeros_like(t.F)
    la.rollout_weights(F2, t.F, np.int64(0), np.int64(2))
    assert (F2[1] == t.F[1]).all() and (F2[2, :W] == TUNED[:W]).all() and not F2[2, W:].any()
    t.F[1, bot.W_SELL_AT] = 123.0  # a change to the deciding seat's weights reaches every rollout seat
    la.rollout_weights(F2, t.F, np.int64(0), np.int64(2))
    assert F2[2, bot.W_SELL_AT] == 123.0
    t.F[1, : PRESETS.shape[1]] = PRESETS[PRESET_INDEX["lookahead"]]  # the lookahead's rivals: merchants
    la.rollout_weights(F2, t.F, np.int64(0), np.int64(2))
    assert (F2[2, :W] == bot.PLANS[0]).all()


def test_an_expert_rollout_is_the_game_tuned_plays_against_tuned():
    """Rollout of plan 0 from a position, against the same turns played by tuned in every seat
    from the same streams: the same game and the same value. With a changed weight (a sell
    threshold the rollout seats now read) the rollout plays another game."""
    ends = []
    for t in expert_positions(seeds=(3, 4)):
        for sell_at in (None, 150.0):
            if sell_at is not None:
                t.F[1, bot.W_SELL_AT] = sell_at
            T2, F2, rng2 = t.T.copy(), np.zeros_like(t.F), np.zeros_like(t.rng)
            la.rollout_weights(F2, t.F, np.int64(0), np.int64(2))
            seed_streams(rng2, np.uint64(11))
            la.rollout_turn(t.P, T2, t.K, F2, rng2, np.int64(0), np.float64(0.0), t.presets, t.log0)
            value = la.rollout_rest(t.P, T2, t.K, F2, rng2, np.int64(0), np.int64(2), np.int64(3), t.log0)
            T3, F3, rng3 = t.T.copy(), np.zeros_like(t.F), np.zeros_like(t.rng)
            for s in (1, 2):
                F3[s, :W] = t.F[1, :W]  # tuned (or tuned with the changed weight) in every seat
            F3[1, bot.W_WORTH] = t.F[1, bot.W_WORTH]  # the rollout's value counts as the expert's does
            seed_streams(rng3, np.uint64(11))
            R.take_turn(t.P, T3, t.K, F3, rng3, t.log0, np.int64(0))
            assert la.rollout_rest(t.P, T3, t.K, F3, rng3, np.int64(0), np.int64(2), np.int64(3), t.log0) == value
            assert (T2 == T3).all() and (rng2 == rng3).all()
            ends.append(T2[S.SHIP0:S.SHIP0 + 4].copy())
    assert any(not (a == b).all() for a, b in zip(ends[::2], ends[1::2]))  # the changed weight was played


def test_the_expert_is_deterministic_and_finishes():
    a = play(["expert", "tuned"], n=8)
    b = play(["expert", "tuned"], n=8)
    assert (a[1] == b[1]).all() and (a[2] == b[2]).all()
    assert (a[1][:, 2] == S.END_REPUTATION).all()


def test_choosing_leaves_the_game_and_the_other_streams_alone():
    for t in expert_positions(players=3, seeds=(5, 6)):
        T, F, rng = t.T.copy(), t.F.copy(), t.rng.copy()
        plan = t.call("choose_plan", seat=0, players=3)
        assert 0 <= plan < la.n_plans(t.F, np.int64(0))
        assert (t.T == T).all() and (t.F == F).all()
        assert (t.rng[[0, 2, 3]] == rng[[0, 2, 3]]).all()  # chance and the rivals' decision streams
        assert not (t.rng[1] == rng[1]).all()  # the seat's own stream paid for the rollouts


def test_a_round_in_which_the_expert_keeps_tuneds_plan_is_tuneds_round():
    """Where choose_plan keeps plan 0, the round played by the expert and by tuned end in the same
    game with the same chance stream and rivals' streams: only the expert's own stream moved."""
    kept = 0
    for t in expert_positions(seeds=(3, 4, 5, 6, 7)):
        probe = Table(players=2, setup=False)
        probe.T[:], probe.F[:], probe.rng[:] = t.T, t.F, t.rng
        if probe.call("choose_plan", seat=0, players=2) != 0:
            continue
        kept += 1
        tuned = Table(players=2, setup=False)
        tuned.T[:], tuned.F[:], tuned.rng[:] = t.T, t.F, t.rng
        tuned.F[1, : PRESETS.shape[1]] = TUNED
        t.call("play_round", players=2)
        tuned.call("play_round", players=2)
        assert (t.T == tuned.T).all() and (t.rng[[0, 2]] == tuned.rng[[0, 2]]).all()
        assert not (t.rng[1] == tuned.rng[1]).all()
    assert kept > 0


def test_simkit_strategies_lists_the_expert_last_as_a_lookahead():
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    out = CliRunner().invoke(app, ["strategies", "sea_of_thieves", "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert rows[-1]["name"] == "expert" and rows[-1]["kind"] == "lookahead"
    knobs = {p["name"] for p in rows[-1]["parameters"]}
    assert {"rollouts", "horizon", "race", "plan1", "margin", "every", "agree"} <= knobs
