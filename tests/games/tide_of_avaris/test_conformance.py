"""Whole games: they end; no treasure, crew die or gold is created or lost outside the rules;
the same seed plays the same game; the best preset beats random widely."""

import numpy as np
import pytest

from simkit.core import rng as R
from simkit.core.game import GAME_COLUMNS, SEAT_COLUMNS
from simkit.games.tide_of_avaris import GAME

from .harness import PRESET_INDEX, S, Table, play_game

CASES = [
    (2, "standard", "random"), (3, "standard", "random"), (4, "standard", "random"),
    (4, "standard", ["burier", "hoarder", "raider", "controller"]), (3, "windward", ["raider", "random", "hoarder"]),
    (2, "alt_dice", ["controller", "burier"]), (4, "fixed_order", ["raider", "raider", "random", "controller"]),
]


@pytest.mark.parametrize("players,variant,lineup", CASES)
def test_games_end_and_conserve_treasure_dice_and_gold(players, variant, lineup):
    for seed in range(4):
        t = Table(players, variant, seed=seed, strategies=lineup)
        bag = int(t.K[S.META, S.BAG_PER_COLOUR]) * 6
        assert t.treasure_count() == bag

        last = {}

        def check(t, bag=bag, last=last):
            assert t.treasure_count() == bag
            # buried treasure, points and relics are never taken away (TOA-006, 165)
            now = {s: (t.T[S.HOLD0 + s, S.BURIED: S.BURIED + 6].copy(), int(t.seat(s)[S.POINTS]),
                       int(t.seat(s)[S.N_RELICS])) for s in range(players)}
            for s, (buried, points, relics) in last.items():
                assert (now[s][0] >= buried).all() and now[s][1] >= points and now[s][2] >= relics
            last.update(now)
            assert (t.T[S.BAG, :6] >= 0).all() and (t.T[S.HOLD0: S.HOLD0 + players, :18] >= 0).all()
            # gold: only the bank creates or takes it; bribes between pirates move it
            assert t.gold_total() == t.st[S.GOLD_MADE] - t.st[S.GOLD_PAID]
            rum = sum(int(t.seat(s)[S.RUM]) for s in range(players))
            assert rum == t.st[S.RUM_MADE] - t.st[S.RUM_PAID]
            assert t.dice_owned() == 5 * players + t.st[S.DICE_BOUGHT] - t.st[S.DICE_LOST]
            for s in range(players):
                assert 0 <= t.seat(s)[S.GOLD] and 0 <= t.seat(s)[S.RUM]
                assert 0 <= t.seat(s)[S.CREW_N] <= S.MAX_DICE
                upper, lower = S.hold_shape(t.T, s)
                assert upper <= 6 and lower <= t.K[S.META, S.LOWER_CAP]
                assert t.seat(s)[S.N_RELICS] <= t.P.relic_slots
                assert 0 <= t.seat(s)[S.SLOOPS_OUT] <= S.free_sloops(t.T, t.K, s) + t.seat(s)[S.SLOOPS_OUT]
            assert sorted(int(x) for x in t.T[S.ORDER, :players]) == list(range(players))

        play_game(t, check)
        assert t.st[S.END_REASON] >= 0 and t.st[S.DAY] <= t.P.round_cap


def run(players, lineup, n=300, variant="standard"):
    values = GAME.rules.resolve(variant, {})
    c = GAME.compile(values, players)
    ss = np.array([[PRESET_INDEX[lineup[(s + g) % players]] for s in range(players)] for g in range(n)],
                  dtype=np.int64)
    seeds = np.array([R.derive(11, i) for i in range(n)], dtype=np.uint64)
    og = np.zeros((n, GAME_COLUMNS + len(GAME.game_metrics)), dtype=np.int64)
    os_ = np.zeros((n, players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
    GAME.play_chunk(c.params, c.components, GAME.preset_table(), ss, seeds, og, os_,
                    np.zeros((0, 6), dtype=np.int64), np.zeros(1, dtype=np.int64),
                    np.zeros((0, 1, ss.shape[1]), dtype=np.int64))
    return ss, og, os_


def test_play_chunk_is_deterministic_and_ends_before_the_cap():
    a = run(4, ["random", "burier", "raider", "controller"])
    b = run(4, ["random", "burier", "raider", "controller"])
    assert (a[1] == b[1]).all() and (a[2] == b[2]).all()
    assert (a[1][:, 2] == S.END_BAG).mean() > 0.99


@pytest.mark.parametrize("preset", ["burier", "hoarder", "raider", "controller"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_preset_beats_random_widely(players, preset):
    lineup = [preset] + ["random"] * (players - 1)
    ss, _og, os_ = run(players, lineup)
    mine = ss == PRESET_INDEX[preset]
    assert os_[:, :, 2][mine].mean() > 0.8


@pytest.mark.parametrize("preset", ["burier", "hoarder", "raider", "controller"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_preset_finishes_its_games_in_self_play(preset, players):
    _ss, og, _os = run(players, [preset] * players, n=200)
    assert (og[:, 2] == S.END_ROUND_CAP).mean() < 0.01


def test_player_counts_outside_2_to_4_are_refused():
    # TOA-001
    values = GAME.rules.resolve("standard", {})
    assert GAME.check_players(1, values) and GAME.check_players(5, values)
    assert all(GAME.check_players(n, values) is None for n in (2, 3, 4))
